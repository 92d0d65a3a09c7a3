"""Determinized worlds of an engine decision, made on the resumable generated form (stepper.py).

A search agent (agents/mcts.py) starts from an engine State and samples worlds: the engine's
Resampler (interpreter/resample.py) swaps the pieces hidden from the searching player among
look-alike places, rolls hidden dice again and reseeds the Rng. Here the same worlds are made
as stepper states, so that a playout runs at the generated program's speed:

- `reach(m, S, player)`: the stepper at S's decision, once per decision: ``new(S.seed)`` and S's
  history replayed (each decision's seat checked; inside a simultaneous block reordered to the
  stepper's order, `replayed`; from the kept state of a prefix of it: `kept_replay`), then the
  seat, the options and the whole
  state (Rng, every zone in order, counters, plain variables: compare.state_difference on the
  stepper's export; the pieces' changing attributes) compared with S. None where they part (a
  state arranged by hand).
- `StepperWorlds.sample(rng)`: a clone of that root with the pieces the engine's Resampler
  would put at each place written there, drawn with the same calls on the same generator (one
  shuffle per look-alike group), and the Rng reseeded with the same draw: the engine's world.

Locals of running rule code and variables that hold hidden pieces (one piece or a flat list)
are renamed as the engine renames them, found on the stepper by the rule file's name and equal
value; hidden dice get new faces with the same draws (resample.reroll_hidden). Every decision
the engine's world has waiting (the root's, and other players' inside a simultaneous block,
made when the block started and only renamed by the resampling) is taken over at that player's
next stop (adoption.py): the root's in `sample`, the others' in `play`, which steps the world
to the block's end and then rolls it out. Made only where that covers what the
engine's resampling changes (`held_pieces`). The rewound worlds of an open simultaneous block
(agents/determinize.py) are made from these by transpile/rewinds.py.
"""
from __future__ import annotations

import random
import weakref
from typing import Any

from ..replays import KeptReplays
from ..resample import Resampler, shuffle
from ..threads import waiting
from ..values import Piece
from .adoption import adopt, waiting_decisions
from .compare import state_difference
from .rulefile import RuleFile
from .stepper import OPTIONS, SEAT, Stepper, load_stepper

_STEPPERS: dict = {}  # (id of the definition, players, options) -> (definition, Stepper or None)


def stepper_for(S: Any) -> Stepper | None:
    """The resumable program of S's rule file, player count and options (generated at first use
    in this process), or None where the generator refuses it. The rule file and its variants
    are found among the definition's files: the first split (entry, overlays) that loads to the
    same rules hash."""
    key = (id(S.game), S.n, repr(sorted(S.options.items(), key=str)))
    hit = _STEPPERS.get(key)
    if hit is None:
        hit = _STEPPERS[key] = (S.game, _load(S.game, S.n, dict(S.options)))  # keeps the definition alive
    return hit[1]


def _load(definition: Any, players: int, options: dict) -> Stepper | None:
    files = list(definition.files)
    for k in range(len(files)):
        try:
            rule_file = RuleFile(files[k], files[k + 1:])
        except Exception:  # noqa: BLE001 - not an entry with these overlays: try the next split
            continue
        if rule_file.game.rules_hash != definition.rules_hash:
            continue
        try:
            m = load_stepper(rule_file, players, options)
            return m if plays_the_engines(m, files[k], files[k + 1:], players, options) else None
        except Exception:  # noqa: BLE001 - Unsupported (or a generator failure): the engine searches
            return None
    return None


CHECKED_GAMES = 3  # whole games compared before a configuration's stepper is used (per process)


def plays_the_engines(m: Stepper, entry: str, overlays: list, players: int, options: dict,
                      seeds: range = range(CHECKED_GAMES)) -> bool:
    """Whole games with random draws, driven as the searches' playouts drive the engine (the
    lowest waiting seat first), played both ways: the same seat, the same options at every
    decision and the same returns. The stepper plays a simultaneous block block by block (see
    its docstring), the engine's order only while no block changes what another player's block
    has already been offered: a rule file where they interact is searched by the engine."""
    from ..game import Game

    game = Game.load(entry, overlays)
    for seed in seeds:
        draw = random.Random(seed).random
        S, st = game.new_game(players, options, seed, logging=False), m.new(seed)
        while not S.over:
            p = S.current_players()[0]
            if m.over(st) or m.seat(st) != p or list(m.options(st)) != list(waiting(S)[p].pending.options):
                return False
            i = int(draw() * S.option_count(p))
            S.apply_unchecked(p, i)
            m.apply(st, i)
        if not m.over(st) or list(m.result(st)[0]) != list(S.returns()):
            return False
    return True


def reach(m: Stepper, S: Any, player: int | None) -> list | None:
    """The stepper state at S's decision for `player` (None: whichever of S's waiting players
    the stepper asks), or None if it is not the engine's. The state is the kept one
    (`kept_replay`): clone it to change it."""
    st = kept_replay(m, S.seed, S.history)
    if st is None:
        return None
    if m.over(st) or (player is not None and m.seat(st) != player):
        return None
    pending = waiting(S).get(m.seat(st))
    if pending is None or list(m.options(st)) != list(pending.pending.options):
        return None
    if state_difference(S, m.export(st)) is not None or not same_attributes(m, S, st):
        return None
    return st


REACHED = 8  # replayed states kept per stepper (a game's decisions extend each other's histories)
_reached: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # Stepper -> KeptReplays by seed


def replayed_from(m: Stepper, seed: int, history: list) -> list | None:
    """A fresh stepper state of ``new(seed)`` with `history` replayed (`replayed`), or None where
    it does not replay (the kept state's clone: `kept_replay`)."""
    st = kept_replay(m, seed, history)
    return None if st is None else m.clone(st)


def kept_replay(m: Stepper, seed: int, history: list) -> list | None:
    """The stepper state of ``new(seed)`` with `history` replayed (`replayed`), or None where it
    does not replay; kept (the last REACHED ones), so never to be changed: only cloned. Started
    from the kept state of the longest history that is a prefix of this one (the very state
    where that is the whole history: replays.py): the stepper is deterministic and a history
    that replays replays prefix by prefix (`replayed` takes each pick from within the prefix,
    the same picks in the same order), so that is the same state as a replay from the start."""
    kept = _reached.get(m)
    if kept is None:
        kept = _reached[m] = KeptReplays(REACHED)
    return kept.replay(seed, [tuple(h) for h in history], lambda: m.new(seed), m.clone,
                       lambda st, rest: replayed(m, st, rest))


def replayed(m: Stepper, st: list, history: list) -> bool:
    """Whether `history` ([author, index] each) replays on `st` (applied in place). Inside a
    simultaneous block the stepper asks one chooser's picks in a row, lowest seat first; an
    engine driven otherwise interleaves them (one pick of each waiting chooser per pass): there
    the next pick of the seat asked is taken from further on, over picks of higher seats only
    (those the stepper asks once this seat's block is done). Outside a block, strictly in order."""
    todo = [tuple(h) for h in history]
    k = 0  # todo[:k] applied or taken out of order (None)
    while k < len(todo):
        if todo[k] is None:
            k += 1
            continue
        if m.over(st):
            return False
        seat, j = m.seat(st), k
        if todo[k][0] != seat:
            if st[0] not in m.block_sites:
                return False
            while j < len(todo) and (todo[j] is None or todo[j][0] != seat):
                if todo[j] is not None and todo[j][0] < seat:
                    return False
                j += 1
            if j == len(todo):
                return False
        index = todo[j][1]
        if not 0 <= index < len(m.options(st)):
            return False
        m.apply(st, index)
        todo[j] = None
    return True


def hidden_rolls(S: Any, player: int) -> list[tuple[int, list]]:
    """The dice resampling S for `player` rolls again, in resample.reroll_hidden's order:
    (die, its faces) each."""
    values = S.dyn.get("value") or {}
    faces = [(p, S.game.components[S.lay.static[p]["kind"]].faces) for p in values]
    return [(int(p), list(f)) for p, f in faces if f and not S.sees(player, p)]


def same_attributes(m: Stepper, S: Any, st: list) -> bool:
    """Whether the changing attributes S has set (a die's value, …; where each piece lies on
    a grid: grid_positions) are the stepper's."""
    for name, values in S.dyn.items():
        if name == "pos" and "GPOS" in m.slots:
            if {int(p): tuple(at) for p, at in values.items()} != grid_positions(m, st):
                return False
            continue
        slot = m.slots.get("M_" + name)
        if values and (slot is None or any(st[slot][p] != v for p, v in values.items())):
            return False
    return True


def grid_positions(m: Stepper, st: list) -> dict:
    """Where each piece on a grid zone of the stepper lies: the cell it was put at (its shape's
    first cell there, less that cell's offset), as State keeps it (`pos`)."""
    out = {}
    for p, cells in enumerate(st[m.slots["GPOS"]]):
        if cells is not None:
            (dx, dy) = m.shapes[p][0]
            x, y = next(c for c, (q, part) in cells.items() if q == p and part == 0)
            out[p] = (x - dx, y - dy)
    return out


def held_pieces(S: Any, pieces: set, seat: int) -> list[tuple[str, Any, Any]] | None:
    """What holds one of `pieces` in S's variables and the locals of its running rule code (what
    resample.relabel renames there besides zones and waiting decisions, which adoption.py takes
    over): ("local" or "var", name, value) each; None if one cannot be followed on the stepper
    (a value that is not one piece or a flat list of pieces). The innermost frame of a thread
    waiting for another player than `seat` (the stepper's root) is left out: the stepper makes
    those locals when it gets to that player, and adoption.adopt compares them there."""
    out: list = []
    for name, value in S.vars.items():
        if _holds(value, pieces):
            if not _flat(value):
                return None
            out.append(("var", name, value))
    for th in S.threads:
        frames = th.frames
        if th.pending is not None and int(th.pending.player) != seat:
            frames = frames[:-1]
        for fr in frames:
            for name, value in fr.L.items():
                if _holds(value, pieces):
                    if not _flat(value):
                        return None
                    out.append(("local", name, value))
    return out


def _flat(value: Any) -> bool:
    return type(value) is Piece or (type(value) in (list, tuple) and all(type(v) is Piece for v in value))


def _holds(value: Any, pieces: set) -> bool:
    """Whether `value` holds one of `pieces` (as a Piece: a number that is no piece is not one)."""
    t = type(value)
    if t is Piece:
        return value in pieces
    if t is list or t is tuple:
        return any(_holds(v, pieces) for v in value)
    if t is dict:
        return any(_holds(v, pieces) for v in value.values())
    return False


def _renamed(value: Any, mapping: dict) -> Any:
    """One piece or a flat list/tuple of pieces with each piece p replaced by mapping[p]."""
    t = type(value)
    if t is list:
        return [mapping.get(v, v) for v in value]
    if t is tuple:
        return tuple([mapping.get(v, v) for v in value])
    return mapping.get(value, value)


def _followers(m: Stepper, root: list, held: list) -> tuple[list, list] | None:
    """The stepper's places of what `held` names: (indices into the root's frame, indices of
    st's scalars), each holding a value equal to the engine's under the same rule file name;
    None if one is not found. A zone's own list is left out: writing the pieces into the zones
    renames it already."""
    names = m.frame_rule_names[root[0]]
    frame, in_frame, scalars = root[3], set(), set()
    zones = {id(z) for z in m.zones(root)}
    for kind, name, value in held:
        if kind == "var":
            k = 4 + m.scalars.index("v_" + name) if "v_" + name in m.scalars else None
            if k is None or root[k] != value:
                return None
            scalars.update([k] if id(root[k]) not in zones else [])
            continue
        found = [j for j, rule_name in enumerate(names) if rule_name == name and frame[j] == value]
        if not found:
            return None
        in_frame.update(j for j in found if id(frame[j]) not in zones)
    return sorted(in_frame), sorted(scalars)


def _draw(slots: list, pieces: list, number: dict) -> tuple[list, list, list, bool] | None:
    """One of the Resampler's look-alike groups (its places (zone key, index, piece), its pieces
    sorted) as StepperWorlds.sample writes it: (its pieces sorted, the pieces now at its places,
    its places as runs of consecutive indices in one zone: (the stepper's zone number, start,
    stop, where the run starts among the places) each, whether it spans zones: then a piece's
    zone, `loc`, changes with it). `number`: S's zone keys -> the stepper's zone numbers (None:
    a zone the stepper does not have; then None)."""
    runs: list = []
    at = None  # the run being read: [zone key, start, stop, where it starts among the places]
    for k, (key, i, _) in enumerate(slots):
        if at is not None and at[2] == i and at[0] == key:
            at[2] = i + 1
            continue
        if at is not None:
            runs.append(at)
        at = [key, i, i + 1, k]
    if at is not None:
        runs.append(at)
    for run in runs:
        run[0] = number[run[0]]
        if run[0] is None:
            return None
    return [int(p) for p in pieces], [old for _, _, old in slots], [tuple(run) for run in runs], \
        len({run[0] for run in runs}) > 1


class Parted(Exception):
    """A world or a playout on the stepper parted from the engine's (the engine plays that
    iteration: agents/transpiled.py)."""


class StepperWorlds:
    """The engine's determinizations of one decision, as stepper states (see the module's
    docstring). Build with `prepare`, which says None where they would not be the engine's."""

    def __init__(self, m: Stepper, root: list, draws: list, followers: tuple[list, list], rolls: list,
                 waiting_now: dict):
        self.m, self.root = m, root  # root: a copy holding its whole state in the list
        self.waiting = waiting_now  # the engine's waiting decisions by seat (adoption.py)
        hidden = {p for pieces, _, _, _ in draws for p in pieces}
        # the seats whose waiting decisions hold a piece a world may rename
        self.renamed = {seat for seat, w in waiting_now.items()
                        if _holds([w.options, w.candidates, w.picked, list(w.names.values())], hidden)}
        # the root's decision, taken over once here, is taken over again in a world only if renamed
        self.root_seat = m.seat(root)
        self.todo: dict = {}  # of those, the ones the last world has not taken over yet
        self.mapping: dict = {}  # the last world's piece -> the piece now in its place
        self.draws = draws  # the look-alike groups, as `sample` writes them (`_draw`)
        self.in_frame, self.scalars = followers  # what holds a hidden piece outside zones
        self.rolls = rolls  # the hidden dice rolled again: (die, its faces) each
        # where a die's value is kept: M_value, and D_value where looks keep the set entries
        self.values = [m.slots[name] for name in ("M_value", "D_value") if name in m.slots]
        self.plan = None if m.restorer is None else m.restorer(root)  # what m.restore needs of the root

    @classmethod
    def prepare(cls, S: Any, player: int, resampler: Resampler | None = None,
                any_seat: bool = False) -> "StepperWorlds | None":
        """The worlds of S's decision for `player` (`resampler`: S's for `player`, if made; with
        `any_seat`, S may be a simultaneous block's start, the root any waiting player's stop)."""
        m = stepper_for(S)
        if m is None or S.over:
            return None
        rolls = hidden_rolls(S, player)
        if rolls and "M_value" not in m.slots:
            return None
        groups = (resampler or Resampler(S, player)).groups
        root = reach(m, S, None if any_seat else player)
        if root is None:
            return None
        held = held_pieces(S, {p for _, pieces in groups for p in pieces}, m.seat(root))
        root = m.clone(root)  # its own, its whole state in the list
        followers = None if held is None else _followers(m, root, held)
        number = {key: i for i, key in enumerate(m.zone_keys)}
        number = {key: number.get(str(key)) for key in S.zones}  # S's zone keys -> the stepper's
        draws = [_draw(slots, pieces, number) for slots, pieces in groups]
        if followers is None or None in draws:
            return None
        waiting_now = waiting_decisions(S)
        if not adopt(m, root, waiting_now[m.seat(root)], {}):
            return None
        return cls(m, root, draws, followers, rolls, waiting_now)

    def sample(self, rng: random.Random, spent: list | None = None) -> list:
        """A world: the root's clone, hidden pieces swapped as the Resampler draws, Rng reseeded,
        the root's waiting decision the engine's (the others' are taken over in `play`). `spent`:
        a world this object sampled before that the caller is done with; it is made the root's
        copy again in place where the program can (stepper.py's `restore`, cheaper than a clone)
        and returned as the new world."""
        world = self.fresh(spent)
        mapping = self.mapping = {}
        if self.draws:
            zones, loc = self.m.zones(world), world[self.m.loc_slot]
            for canonical, olds, runs, moves in self.draws:
                pieces = canonical[:]
                shuffle(rng, pieces)
                mapping.update(zip(olds, pieces))
                for z, a, b, k in runs:
                    zone, run = zones[z], pieces[k:k + b - a]
                    zone[a:b] = run
                    if moves:
                        for p in run:
                            loc[p] = zone
            if self.in_frame:
                frame = list(world[3])
                for j in self.in_frame:
                    frame[j] = _renamed(frame[j], mapping)
                world[3] = tuple(frame)
            for k in self.scalars:
                world[k] = _renamed(world[k], mapping)
        if self.rolls:
            lists = [world[k] for k in self.values]
            for p, faces in self.rolls:
                value = faces[rng.randrange(len(faces))]
                for values in lists:
                    values[p] = value
        world[self.m.rng_slot].state = rng.getrandbits(64)
        todo = self.todo = dict(self.waiting)
        w = todo.pop(self.root_seat)
        if w.seat in self.renamed and not self.adopt(world, w):
            raise Parted
        return world

    def fresh(self, spent: list | None = None) -> list:
        """The root's copy: `spent` made so in place (refills.py), else a clone."""
        if spent is not None and self.plan is not None and self.m.restore(spent, self.root, self.plan):
            return spent
        return self.m.clone(self.root)

    def adopt(self, world: list, w: Any) -> bool:
        """Take over the engine's waiting decision `w` at the world's stop, renamed as the last
        world renamed its pieces (adoption.adopt)."""
        return adopt(self.m, world, w, self.mapping if w.seat in self.renamed else {})

    def play(self, world: list, i: int, agents: list) -> None:
        """The playout from the world's root pick `i`, with `agents` (``agents[seat](options) ->
        index``). Inside a simultaneous block the world is stepped to the block's end, each
        chooser's first stop taking over the engine's waiting decision (adoption.py); a chooser
        the engine's world has no decision waiting for, or a waiting one never asked, parts from
        the engine's. Then (or outside a block at once) it is rolled out."""
        m, todo = self.m, dict(self.todo)
        last = world[SEAT]
        if not todo and world[0] not in m.block_sites:
            m.rollout(world, i, agents)
            return
        m.apply(world, i)
        while not m.over(world):
            seat = world[SEAT]
            if world[0] not in m.block_sites or seat < last:  # past the block
                break
            if seat != last:  # the next chooser's first stop
                if seat not in self.waiting or (seat in todo and not self.adopt(world, todo.pop(seat))):
                    raise Parted
                last = seat
            m.apply(world, agents[seat](world[OPTIONS]))
        if todo:
            raise Parted  # a decision the engine's world has waiting was never asked
        if not m.over(world):
            m.rollout(world, agents[world[SEAT]](world[OPTIONS]), agents)
