"""The one shared state model: plain data, cheap to clone, serialisable, hashable.

A state holds where every piece is (zones, ordered lists of pieces), piece faces and changeable
attributes, counters and variables, the seeded RNG, the running threads of rule code (with their
pending decisions) and the log. Everything else (the compiled rules, the layout) is shared and
immutable.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any, Iterable

from . import decisions as _decisions
from . import observation as _observation
from . import views as _views
from .errors import IllegalDecision, RuleRuntimeError
from .events import line_for
from .layout import Layout
from .model import GameDef
from .options import labels_of
from .rng import Rng
from .threads import Frame, Pending, Thread, deciders_of, waiting
from .values import PLAYERS, ZoneRef, decode, encode

_take = _decisions.take
_apply_decision = _decisions.apply_decision

VISIBLE_TO_ALL = "all"
_MANY = 256
_INDICES = [list(range(n)) for n in range(_MANY)]  # legal_actions of n options: copied, not built


def check_grid_bounds(spec: dict | None, zone: Any, occupied: Any, covered: list) -> None:
    """Refuse covering `covered` cells outside a grid's declared size (width × height from
    (0, 0)) or bounding box (max_width × max_height) with the `occupied` cells."""
    if not spec:
        return
    w, h = spec.get("width"), spec.get("height")
    for x, y in covered:
        if (w is not None and not 0 <= x < w) or (h is not None and not 0 <= y < h):
            raise RuleRuntimeError(f"cell ({x}, {y}) is outside {zone}, a {w or '∞'}×{h or '∞'} grid "
                                   f"(x from 0 to {(w or 0) - 1}, y from 0 to {(h or 0) - 1})")
    mw, mh = spec.get("max_width"), spec.get("max_height")
    if mw is not None or mh is not None:
        cells = list(occupied) + covered
        xs, ys = [c[0] for c in cells], [c[1] for c in cells]
        if (mw is not None and max(xs) - min(xs) + 1 > mw) or (mh is not None and max(ys) - min(ys) + 1 > mh):
            raise RuleRuntimeError(f"placing at {cells[-1]} would make {zone} wider than its bounds "
                                   f"(max_width {mw}, max_height {mh})")


class State:
    """A game in progress (or over). Create with Game.new_game()."""

    __slots__ = ("game", "lay", "n", "options", "seed", "rng", "zones", "loc", "face", "dyn",
                 "seen", "grid", "counters", "vars", "threads", "next_tid", "log", "history",
                 "over", "result", "players", "logging", "decisions", "lang", "steps", "deciders")

    def __init__(self, game: GameDef, lay: Layout, options: dict, seed: int):
        self.game = game
        self.lay = lay
        self.n = lay.n
        self.options = options
        self.seed = seed
        self.rng = Rng(seed)
        self.players = PLAYERS[:lay.n]
        self.zones: dict[str, list] = {key: v[:] for key, v in lay.initial_zones.items()}
        self.loc: list = list(lay.start)
        self.face: dict = {}  # piece -> bool, only where different from the layout's default
        self.dyn: dict = {name: {} for name in game.mutable_attrs} if game.mutable_attrs else {}
        self.seen: dict = {}  # piece -> tuple of players who may see it while face down
        self.grid: dict = {}  # zone -> {cell: (piece, part)}
        slots = lay.initial_slots  # counters and variables at their initial values (game.py)
        if slots is not None:
            self.counters, self.vars = dict(slots[0]), dict(slots[1])
        else:
            self.counters: dict = {}
            self.vars: dict = {"round": 0, "phase": None}
        self.threads: list[Thread] = []
        self.next_tid = 0
        self.log: list = []
        self.history: list = []  # [player, option index] per decision
        self.over = False
        self.result: dict | None = None
        self.logging = True
        self.decisions = 0
        self.lang: str | None = None  # labels in this language where the rules give one
        self.steps = 0  # loop iterations since the last decision (not part of the state proper)
        self.deciders: dict | None = {}  # player -> the thread waiting for their decision (an
        # index kept by the VM; None after clone() until first needed: see threads.waiting)

    # ------------------------------------------------------------------ the forward model
    # The contract every agent, adapter and tool uses (the shape of OpenSpiel's spiel.h). Players
    # are 0-based seat numbers; an option is an index into that player's current option list.

    def current_players(self) -> list:
        """Players who must decide now, ascending (several during a simultaneous secret choice;
        empty when the game is over)."""
        if self.over:
            return []
        d = self.deciders or waiting(self)
        return [*d] if len(d) == 1 else sorted(d)

    def legal_actions(self, player: int) -> list:
        """Indices of `player`'s legal options (empty if that player is not deciding)."""
        th = (self.deciders or waiting(self)).get(player)
        if th is None:
            return []
        n = len(th.pending.options)
        return _INDICES[n].copy() if n < _MANY else [*range(n)]  # a copy: the caller may change it

    def option_count(self, player: int) -> int:
        """How many options `player` has now (0 if not deciding): cheaper than legal_actions."""
        th = (self.deciders or waiting(self)).get(player)
        return len(th.pending.options) if th is not None else 0

    def option_labels(self, player: int) -> list:
        """Labels of `player`'s legal options, as that player sees them (hidden pieces are
        described, never named)."""
        th = waiting(self).get(player)
        return list(labels_of(self, th.pending)) if th is not None else []

    def prompt(self, player: int) -> str | None:
        """The question `player` is asked now (None if not deciding or the rule gives none)."""
        th = waiting(self).get(player)
        if th is None:
            return None
        event = th.pending.prompt_event  # pieces in it as `player` sees them
        return th.pending.prompt if event is None else line_for(event, player)

    def apply(self, player: int, action: int | str) -> None:
        """Apply an option (index, or exact label) of `player`, then run the game to the next
        decision. An illegal decision raises IllegalDecision and changes nothing."""
        if type(action) is not int and isinstance(action, str):
            labels = self.option_labels(player)
            hits = [i for i, text in enumerate(labels) if text == action]
            if len(hits) != 1:
                raise IllegalDecision(f"{action!r} matches {len(hits)} options of P{int(player) + 1}: {labels}")
            action = hits[0]
        _apply_decision(self, player, action)

    def apply_unchecked(self, player: int, action: int) -> None:
        """apply() for agents and simulations: the index must be below option_count(player)
        and `player` must be deciding; nothing is checked (anything else may break the state).
        Produces exactly the same game as apply() (tests/engine/test_differential.py)."""
        _take(self, (self.deciders or waiting(self))[player], action)

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.over

    def returns(self) -> list:
        """Final scores by seat (zeros while the game runs)."""
        return list(self.result["scores"]) if self.result else [0] * self.n

    def winners(self) -> list:
        """Winning seats (empty while the game runs)."""
        return list(self.result["winners"]) if self.result else []

    def view(self, viewer: Any = None) -> dict:
        """The state as `viewer` may see it (None: everything), as JSON-ready data."""
        return _views.view(self, viewer)

    def observation(self, viewer: Any = None, log_from: int | None = 0) -> dict:
        """What `viewer` observes now, as JSON data (None: everything): zones, counters,
        variables, their pending decision, the log from entry `log_from` as events
        (interpreter/observation.py). Every surface is made from it; `view` and `log_lines`
        are its display forms."""
        return _observation.observe(self, viewer, log_from)

    def log_lines(self, viewer: Any = None) -> list:
        """The log as `viewer` may read it (None: everything)."""
        return _views.log_lines(self, viewer)

    # clone(), to_json() (restore with Game.restore) and hash() follow below.

    # ------------------------------------------------------------------ copying
    def clone(self) -> "State":
        """An independent copy (pending decisions included); compiled rules are shared."""
        s = State.__new__(State)
        s.game, s.lay, s.n, s.options, s.seed = self.game, self.lay, self.n, self.options, self.seed
        s.rng = self.rng.copy()
        s.players = self.players
        s.zones = {k: v[:] for k, v in self.zones.items()}
        s.loc = self.loc[:]
        s.face = self.face.copy()
        # (a comprehension is a function call on Python 3.11: skipped when there is nothing to copy)
        s.dyn = {k: v.copy() for k, v in self.dyn.items()} if self.dyn else {}
        s.seen = self.seen.copy()
        s.grid = {k: v.copy() for k, v in self.grid.items()} if self.grid else {}
        s.counters = self.counters.copy()
        s.vars = self.vars.copy()
        threads = self.threads
        s.threads = [threads[0].copy()] if len(threads) == 1 else [t.copy() for t in threads]
        s.deciders = None  # rebuilt when first needed (threads.waiting)
        s.next_tid = self.next_tid
        s.log = self.log[:]
        s.history = self.history[:]
        s.over = self.over
        s.result = self.result
        s.logging = self.logging
        s.decisions = self.decisions
        s.lang = self.lang
        s.steps = 0
        return s

    # ------------------------------------------------------------------ pieces
    def zone(self, key: ZoneRef) -> list:
        return self.zones[key]

    def face_up(self, piece: int) -> bool:
        f = self.face.get(piece)
        return self.lay.face_up[piece] if f is None else f

    def set_face(self, piece: int, up: bool) -> None:
        if up == self.lay.face_up[piece]:
            self.face.pop(piece, None)
        else:
            self.face[piece] = up
        self.seen.pop(piece, None)

    def move(self, pieces: Iterable, dest: ZoneRef, place: str | None = None,
             at: Any = None, face: bool | None = None) -> None:
        info = self.lay.zones.get(dest)
        if info is None:
            raise RuleRuntimeError(f"no zone {dest!r}")
        target = self.zones[dest]
        forced = face if face is not None else info.face
        if info.grid is not None:
            self._move_onto_grid(pieces, dest, target, at, forced)
            return
        zones, loc, seen, faces, face_up = self.zones, self.loc, self.seen, self.face, self.lay.face_up
        grids = self.grid
        top = place == "top"
        for offset, piece in enumerate(list(pieces)):  # to a zone that is no grid: inlined
            src = loc[piece]
            zones[src].remove(piece)
            if grids and src in grids:
                self._off_grid(piece, src)
            if top:
                target.insert(offset, piece)
            else:
                target.append(piece)
            loc[piece] = dest
            if piece in seen:
                del seen[piece]
            if forced is not None:  # set_face, inlined (seen is already cleared)
                if forced == face_up[piece]:
                    faces.pop(piece, None)
                else:
                    faces[piece] = forced

    def _move_onto_grid(self, pieces: Iterable, dest: ZoneRef, target: list, at: Any,
                        forced: bool | None) -> None:
        for piece in list(pieces):
            self._lift(piece)
            if at is None:
                raise RuleRuntimeError(f"moving into grid zone {dest} needs `at (x, y)`")
            self._place_on_grid(dest, piece, tuple(at))
            target.append(piece)
            self.loc[piece] = dest
            self.seen.pop(piece, None)
            if forced is not None:
                self.set_face(piece, forced)

    def _lift(self, piece: int) -> None:
        src = self.loc[piece]
        self.zones[src].remove(piece)
        if src in self.grid:
            self._off_grid(piece, src)

    def _off_grid(self, piece: int, src: ZoneRef) -> None:
        """Free the cells a piece covered in grid zone `src` and forget where it was put."""
        cells = self.grid[src]
        for cell in [c for c, (p, _) in cells.items() if p == piece]:
            del cells[cell]
        pos = self.dyn.get("pos")
        if pos is not None:
            pos.pop(piece, None)

    def shape_of(self, piece: int) -> tuple:
        """The cells a piece covers relative to where it is put (a shared tuple: read only)."""
        shapes = self.lay.shapes
        out = shapes.get(piece)
        if out is None:
            shape = self.lay.static[piece].get("shape")
            out = shapes[piece] = tuple(tuple(c) for c in shape) if shape else ((0, 0),)
        return out

    def _place_on_grid(self, dest: ZoneRef, piece: int, at: tuple) -> None:
        cells = self.grid.setdefault(dest, {})
        covered = [(at[0] + dx, at[1] + dy) for dx, dy in self.shape_of(piece)]
        for cell in covered:
            if cell in cells:
                raise RuleRuntimeError(f"cell {cell} of {dest} is already occupied")
        check_grid_bounds(self.lay.zones[dest].grid, dest, cells, covered)
        for part, cell in enumerate(covered):
            cells[cell] = (piece, part)
        self.dyn.setdefault("pos", {})[piece] = at

    def shuffle(self, key: ZoneRef) -> None:
        zone = self.zones[key]
        self.rng.shuffle(zone)
        seen = self.seen
        if seen:  # a shuffled piece is no longer known to those it was revealed to
            for piece in zone:
                seen.pop(piece, None)

    # ------------------------------------------------------------------ visibility
    def sees(self, viewer: Any, piece: int) -> bool:
        """Can `viewer` (a player, or None for the omniscient view) see this piece's face?"""
        if viewer is None:
            return True
        info = self.lay.zones[self.loc[piece]]
        if info.custom is not None:
            return bool(info.custom(self, {"viewer": viewer, "piece": self.lay.pieces[piece]}))
        rule = info.vis_up if self.face_up(piece) else info.vis_down
        if rule == VISIBLE_TO_ALL:
            return True
        if rule == "owner" and info.owner is not None and info.owner == viewer:
            return True
        seen = self.seen.get(piece)
        return seen is not None and viewer in seen

    def reveal_to(self, piece: int, players: Iterable) -> None:
        who = set(map(int, players))
        before = self.seen.get(piece)
        if before:
            who.update(before)
        self.seen[piece] = tuple(sorted(who))

    # ------------------------------------------------------------------ counters
    def set_counter(self, key: str, value: Any) -> None:
        info = self.lay.counters[key]
        if info.low is not None and value < info.low:
            value = info.low
        if info.high is not None and value > info.high:
            value = info.high
        self.counters[key] = value

    # ------------------------------------------------------------------ plain data
    def to_json(self) -> dict:
        """The whole state as JSON data (pending decisions included)."""
        return {
            "game": self.game.id,
            "rules_hash": self.game.rules_hash,
            "players": self.n,
            "options": self.options,
            "seed": self.seed,
            "rng": self.rng.state,
            "zones": {k: [int(p) for p in v] for k, v in self.zones.items() if v},
            "face": {str(int(p)): v for p, v in sorted(self.face.items())},
            "dyn": {name: [[int(p), encode(v)] for p, v in sorted(values.items())]
                    for name, values in sorted(self.dyn.items()) if values},
            "seen": {str(int(p)): list(v) for p, v in sorted(self.seen.items())},
            "counters": dict(sorted(self.counters.items())),
            "vars": {k: encode(v) for k, v in sorted(self.vars.items())},
            "threads": [_thread_json(self, t) for t in self.threads],
            "next_tid": self.next_tid,
            "log": self.log,
            "history": self.history,
            "over": self.over,
            "result": self.result,
            "decisions": self.decisions,
            "lang": self.lang,
        }

    @classmethod
    def from_json(cls, game: GameDef, lay: Layout, data: dict) -> "State":
        s = cls(game, lay, dict(data["options"]), data["seed"])
        pieces = lay.pieces
        s.rng = Rng(0)
        s.rng.state = data["rng"]
        s.zones = {key: [] for key in lay.zones}
        for key, ids in data["zones"].items():
            if key not in s.zones:
                raise ValueError(f"unknown zone {key}")
            s.zones[ZoneRef(key)] = [pieces[i] for i in ids]
        s.loc = [None] * len(pieces)
        for key, zone in s.zones.items():
            for p in zone:
                s.loc[p] = ZoneRef(key)
        if any(z is None for z in s.loc):
            raise ValueError("some pieces are in no zone")
        s.face = {pieces[int(p)]: v for p, v in data["face"].items()}
        for name, items in data["dyn"].items():
            s.dyn.setdefault(name, {}).update({pieces[p]: decode(v, pieces) for p, v in items})
        s.seen = {pieces[int(p)]: tuple(v) for p, v in data["seen"].items()}
        s.grid = {}
        for piece, at in s.dyn.get("pos", {}).items():
            key = s.loc[piece]
            cells = s.grid.setdefault(key, {})
            for part, (dx, dy) in enumerate(s.shape_of(piece)):
                cells[(at[0] + dx, at[1] + dy)] = (piece, part)
        s.counters = dict(data["counters"])
        s.vars = {k: decode(v, pieces) for k, v in data["vars"].items()}
        s.threads = [_thread_from_json(game, t, pieces) for t in data["threads"]]
        s.deciders = deciders_of(s.threads) if not data["over"] else {}
        s.next_tid = data["next_tid"]
        s.log = list(data["log"])
        s.history = [list(h) for h in data["history"]]
        s.over = data["over"]
        s.result = data["result"]
        s.decisions = data["decisions"]
        s.lang = data.get("lang")
        return s

    def hash(self) -> str:
        """A digest of everything that matters for the rest of the game (and the log)."""
        text = json.dumps(digest_form(self.to_json()), sort_keys=True, separators=(",", ":"), default=str)
        return hashlib.sha256(text.encode()).hexdigest()[:32]


def digest_form(data: dict) -> dict:
    """Saved state data without the data form of log lines and prompts (events.py): it is made
    from the same values as their text, which the digest covers, and leaving it out keeps the
    hashes of games saved before events existed."""
    data["log"] = [entry[:2] for entry in data["log"]]
    for thread in data["threads"]:
        thread.get("pending", {}).pop("prompt_event", None)
    return data


def _thread_json(S: "State", t: Thread) -> dict:
    data = {
        "tid": t.tid, "status": t.status, "player": None if t.player is None else int(t.player),
        "parent": t.parent, "waiting": t.waiting, "since": t.since,
        "frames": [{"proc": f.proc.name, "pc": f.pc, "ret": f.ret,
                    "L": {k: encode(v) for k, v in f.L.items()}} for f in t.frames],
    }
    if t.pending is not None:
        p = t.pending
        data["pending"] = {
            "player": int(p.player), "kind": p.kind, "prompt": p.prompt,
            "candidates": encode(list(p.candidates)), "options": encode(list(p.options)),
            "labels": list(labels_of(S, p)), "low": p.low, "high": p.high,
            "picked": encode(list(p.picked)), "optional": p.optional, "var": p.var,
            "secret": p.secret, "label_key": p.label_key,
        }
        if p.prompt_event is not None:
            data["pending"]["prompt_event"] = p.prompt_event
    return data


def _thread_from_json(game: GameDef, data: dict, pieces: list) -> Thread:
    frames = []
    for f in data["frames"]:
        proc = game.procs.get(f["proc"])
        if proc is None:
            raise ValueError(f"unknown procedure {f['proc']}")
        frames.append(Frame(proc, f["pc"], {k: decode(v, pieces) for k, v in f["L"].items()}, f["ret"]))
    player = None if data["player"] is None else PLAYERS[data["player"]]
    t = Thread(data["tid"], frames, player, data["parent"])
    t.status, t.waiting, t.since = data["status"], data["waiting"], data.get("since")
    p = data.get("pending")
    if p is not None:
        pend = Pending(PLAYERS[p["player"]], p["kind"], p["prompt"], decode(p["candidates"], pieces),
                       p["low"], p["high"], p["optional"], p["var"], p["secret"], None)
        pend.options = decode(p["options"], pieces)
        pend.labels = list(p["labels"])
        pend.picked = decode(p["picked"], pieces)
        pend.label_key = p.get("label_key")
        pend.prompt_event = p.get("prompt_event")
        t.pending = pend
    return t
