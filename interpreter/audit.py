"""The differential hidden-information audit: `rulebook audit FILE`.

For one seed, a game is played with random decisions. Then, for every decision point and every
viewer, what the viewer observes is compared with what they would observe in a world they cannot
tell apart from the real one (interpreter.resample):

1. state resample: at the decision point, hidden pieces are swapped among look-alike places and
   the viewer's view and option labels are rebuilt (catches views and labels built from hidden
   identities);
2. replay resample: the recorded decisions are played again on a world resampled at the start of
   the stretch of play during which the resampled pieces stay unseen by the viewer (from before the
   setup for the first stretch), so every log line, prompt, option set, `where` filter, counter
   and variable is computed again from the resampled hidden data and compared, decision by
   decision (catches text and values derived from hidden data, option sets that depend on it);
3. secret picks: inside an open simultaneous block, another player's earlier secret pick is
   changed and the game replayed (interpreter.conformance.audit_open_block).

Every difference is a leak: the viewer could tell two worlds apart that the rules say they cannot.
The first one found is reported with the decision, the viewer, the sink (which part of the view,
which log line, prompt or options), the rule's file:line:col where known, and the seed.
"""
from __future__ import annotations

import json
import random
import re
from dataclasses import asdict, dataclass, field
from typing import Any

from . import observation
from .decisions import build_options, pending_for
from .errors import RulebookError
from .events import event_text
from .resample import draw_mapping, new_game_resampled, relabel, reroll_hidden


@dataclass
class Leak:
    decision: int  # decisions taken before the point where the viewer could tell the worlds apart
    viewer: int  # 0-based seat
    sink: str  # view:zones.hand:1, view:counters.stake:0, log, prompt, options, error
    method: str  # resample | replay | secret pick
    real: str
    other: str
    where: str = ""  # file:line:col of the rule that wrote it, where known
    seed: int = 0

    def describe(self) -> str:
        at = f" (rule at {self.where})" if self.where else ""
        return (f"hidden information leaks: after {self.decision} decisions P{self.viewer + 1} can tell "
                f"two worlds apart through {self.sink}{at} [found by {self.method}, seed {self.seed}]\n"
                f"  real:      {self.real[:300]}\n  resampled: {self.other[:300]}")


@dataclass
class AuditReport:
    games: int = 0
    decisions: int = 0
    comparisons: int = 0
    leaks: list = field(default_factory=list)
    errors: list = field(default_factory=list)

    def to_json(self) -> dict:
        return {"games": self.games, "decisions": self.decisions, "comparisons": self.comparisons,
                "clean": not self.leaks and not self.errors, "leaks": [asdict(x) for x in self.leaks],
                "errors": self.errors}


# ---------------------------------------------------------------------- observations
def observe(S: Any, viewer: int, rebuild: bool = False, handouts: Any = (), log_from: int | None = 0) -> dict:
    """What `viewer` observes (interpreter.observation), cut into the parts compared: each
    zone, counter and variable, the other view fields, the log events (from entry `log_from`;
    None: none), the prompt, the decision's options as data, and any `handouts` (name,
    fn(S, viewer)): other things given to the player, e.g. a saved log. `rebuild`: make the
    decision's options again from this state. Identical copies of a piece (same item, same
    owner) are interchangeable, so visible pieces are compared by item and owner, not by id."""
    pending = None
    th = pending_for(S, viewer)
    if th is not None and rebuild and th.pending.kind != "perform":
        pending = th.pending.copy()
        pending.cache = None
        build_options(S, pending, th.frames[-1].L)
    obs = _interchangeable(S, observation.observe(S, viewer, log_from=log_from, pending=pending))
    out = {}
    for section in ("zones", "counters", "variables"):
        for key, value in obs.pop(section).items():
            out[f"view:{section}.{key}"] = _text(value)
    events = obs.pop("log", None)
    if events is not None:
        out["log"] = events
    decision = obs.pop("decision", None)
    if decision is not None:
        out["prompt"] = _text(decision.pop("prompt"))
        out["options"] = _text(decision)
    for key, value in obs.items():
        out["view:" + key] = _text(value)
    for name, fn in handouts:
        out["handout:" + name] = _text(fn(S, viewer))
    return out


def _text(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def _interchangeable(S: Any, obs: dict) -> dict:
    """`obs` with every visible piece (in zones, options, log arguments) named by its item and
    owner instead of its id."""
    for zone in obs["zones"].values():
        zone["pieces"] = [_copy_of(S, p, "id") for p in zone["pieces"]]
    decision = obs.get("decision")
    if decision is not None:
        for option in decision["options"]:
            if "piece" in option:
                option["piece"] = _copy_of(S, option["piece"], "id")
        if "picked" in decision:
            decision["picked"] = [_copy_of(S, v, "$piece") if type(v) is dict else v for v in decision["picked"]]
    for event in obs.get("log", ()):
        event["args"] = [_arg_copy(S, a) for a in event["args"]]
    return obs


def _arg_copy(S: Any, arg: dict) -> dict:
    if "list" in arg:
        return dict(arg, list=[_arg_copy(S, a) for a in arg["list"]])
    return _copy_of(S, arg, "piece")


def _copy_of(S: Any, data: dict, key: str) -> dict:
    """A visible piece's data as compared: identical copies (same item, same owner) are
    interchangeable, so its id (under `key`) is replaced by its item and whose copy it is."""
    piece = data.get(key)
    if type(piece) is not int:
        return data
    static = S.lay.static[piece]
    out = {k: v for k, v in data.items() if k != key}
    out[key + "_copy"] = [static["name"], None if static.get("owner") is None else int(static["owner"])]
    return out


def first_difference(a: dict, b: dict) -> tuple[str, str, str] | None:
    """(sink, real, other) for the first thing that differs, or None. Log events are reported
    as the lines they read as."""
    for key in sorted(set(a) | set(b), key=lambda k: (k != "options", k != "prompt", k)):
        x, y = a.get(key), b.get(key)
        if x == y:
            continue
        if key == "log":
            x, y = x or [], y or []
            for i in range(max(len(x), len(y))):
                lx = x[i] if i < len(x) else None
                ly = y[i] if i < len(y) else None
                if lx != ly:
                    real, other = _line(lx), _line(ly)
                    if real == other:  # the same text from different data
                        real, other = _text(lx), _text(ly)
                    return "log line", real, other
        return key, str(x), str(y)
    return None


def _line(event: dict | None) -> str:
    return "(no line)" if event is None else event_text(event)


# ---------------------------------------------------------------------- one game
class _Run:
    """One audited game: the recorded play, then the comparisons."""

    def __init__(self, game: Any, players: int, options: dict, seed: int, templates: list,
                 handouts: Any = ()):
        self.game, self.n, self.options, self.seed = game, players, options, seed
        self.handouts = list(handouts)
        self.templates = templates
        self.states: list = []  # the state at every decision point (and the end)
        self.history: list = []
        self.error: str | None = None
        self.comparisons = 0
        self._unseen: dict = {}
        self.logged: dict = {}  # decisions taken -> {(piece, viewer)} seen while a log line was written

    def play(self) -> None:
        from . import logs
        real: list = []

        def watch(S: Any) -> None:  # what each player sees while a line is written
            if not real or S is real[0]:
                seen = self.logged.setdefault(S.decisions, set())
                for viewer in range(S.n):
                    seen.update((int(p), viewer) for p in S.lay.pieces if S.sees(viewer, p))
        logs.LINE_WATCHERS.append(watch)
        try:
            self._play(real)
        finally:
            logs.LINE_WATCHERS.remove(watch)

    def _play(self, real: list) -> None:
        rng = random.Random(self.seed)
        S = self.game.new_game(self.n, self.options, self.seed)
        real.append(S)
        limit = self.game.d.max_decisions
        while True:
            self.states.append(S.clone())
            if S.over or S.decisions > limit:
                return
            waiting = S.current_players()
            if not waiting:
                return
            p = waiting[rng.randrange(len(waiting))]
            k = rng.randrange(S.option_count(p))
            self.history.append((p, k))
            try:
                S.apply(p, k)
            except RulebookError as exc:
                self.error = str(exc)
                return

    def unseen(self, viewer: int) -> list[frozenset]:
        """unseen[t]: pieces `viewer` saw at no decision point up to t + 1 (nor while a log line
        was written)."""
        cached = self._unseen.get(viewer)
        if cached is not None:
            return cached
        pieces = range(len(self.states[0].lay.pieces))
        seen: set = set()
        marks = []
        for t, S in enumerate(self.states):
            seen |= {p for p in pieces if S.sees(viewer, S.lay.pieces[p])}
            seen |= {p for p, who in self.logged.get(t, ()) if who == viewer}
            marks.append(frozenset(pieces) - seen)
        out = self._unseen[viewer] = [marks[min(t + 1, len(marks) - 1)] for t in range(len(marks))]
        return out

    # ------------------------------------------------------------------ method 1
    def state_resample(self, rng: random.Random) -> Leak | None:
        for t, S in enumerate(self.states):
            for viewer in range(self.n):
                # the log and the prompt are copied here, not made again: see the replay
                real = observe(S, viewer, rebuild=True, handouts=self.handouts, log_from=None)
                T, _ = _resample(S, viewer, rng)
                other = observe(T, viewer, rebuild=True, handouts=self.handouts, log_from=None)
                real.pop("prompt", None), other.pop("prompt", None)
                self.comparisons += 1
                diff = first_difference(real, other)
                if diff:
                    return self.leak(t, viewer, diff, "resample", S)
        return None

    # ------------------------------------------------------------------ method 2
    def replay_resample(self, viewer: int, rng: random.Random) -> Leak | None:
        unseen = self.unseen(viewer)
        t, end = 0, len(self.states) - 1
        while t <= end:
            stop = t
            while stop < end and unseen[stop + 1] == unseen[t]:
                stop += 1
            leak, reached = self.replay_stretch(viewer, t, min(stop + 1, end), unseen[t], rng)
            if leak:
                return leak
            if t == 0:  # also from the first decision, with hidden dice rolled again
                leak, _ = self.replay_stretch(viewer, 0, min(stop + 1, end), unseen[0], rng, at_start=False)
                if leak:
                    return leak
            if reached < stop:  # another player decided differently in the resampled world:
                decider = self.history[reached][0]  # check that step with their information kept
                both = unseen[reached] & self.unseen(decider)[reached]
                leak, _ = self.replay_stretch(viewer, reached, reached + 1, both, rng)
                if leak:
                    return leak
                t = reached + 1
            else:
                t = stop + 1
        return None

    def replay_stretch(self, viewer: int, a: int, b: int, hidden: frozenset,
                       rng: random.Random, at_start: bool = True) -> tuple[Leak | None, int]:
        """Replay decisions a..b-1 on a world resampled (pieces in `hidden` only) at decision a,
        comparing at a..b. Returns a leak or None, and the last decision point compared."""
        pieces = self.states[0].lay.pieces
        only = [pieces[p] for p in hidden]
        if not only:
            return None, b
        if a == 0 and at_start:
            R, mapping = new_game_resampled(self.game, self.n, self.options, self.seed, viewer, rng, only)
            changed = len(mapping)
        else:
            mapping = draw_mapping(self.states[a], viewer, rng, only)
            R = relabel(self.states[a], mapping)
            changed = len(mapping) + reroll_hidden(R, viewer, rng, only)
        if not changed:
            return None, b
        last = len(self.history) - 1
        start = 0 if a == 0 and at_start else len(self.states[a].log)  # the lines before are the same
        for t in range(a, b + 1):
            S = self.states[t]
            if R.vars.get("$disclosed") != S.vars.get("$disclosed"):
                return None, t  # the rules disclosed something that differs: not comparable
            if t > a and self.history[t - 1][0] != viewer and _pattern(S, viewer) != _pattern(R, viewer):
                return None, t - 1  # another player's decision had another visible effect there
            self.comparisons += 1
            diff = first_difference(observe(S, viewer, handouts=self.handouts, log_from=start),
                                    observe(R, viewer, handouts=self.handouts, log_from=start))
            if diff:
                return self.leak(t, viewer, diff, "replay", S), t
            failing = self.error is not None and t == last
            if t >= len(self.history) or (t == b and not failing):
                return None, t
            p, k = self.history[t]
            if p == viewer:
                if p not in R.current_players() or k >= R.option_count(p):
                    return self.leak(t, viewer, ("options", f"{S.option_count(p)} options",
                                                 f"{R.option_count(p)} options"), "replay", S), t
            else:
                k = _same_decision(S, R, p, k, mapping)
                if k is None:
                    return None, t  # the other player's options differ: they decide another way
            try:
                R.apply(p, k)
            except RulebookError as exc:
                if failing and str(exc) != self.error:
                    return self.leak(t, viewer, ("error message", self.error, str(exc)), "replay", S), t
                return None, t
            if failing:  # the real game stopped here with an error; the resampled one did not
                return None, t
        return None, b

    # ------------------------------------------------------------------ method 3
    def secret_picks(self, rng: random.Random) -> Leak | None:
        """Inside an open simultaneous block, another player's earlier secret pick is changed and
        the block replayed from that pick: nobody else may observe a difference."""
        for t, S in enumerate(self.states[:-1]):
            blocks = [th for th in S.threads if th.status == "wait" and th.since is not None]
            if not blocks:
                continue
            since = blocks[-1].since
            deciding = set(S.current_players())
            last_of = {self.history[i][0]: i for i in range(since, t)}
            candidates = [i for a, i in last_of.items() if any(p != a for p in deciding)]
            if not candidates:
                continue
            self.comparisons += 1
            leak = self._change_pick(t, rng.choice(candidates), rng)
            if leak:
                return leak
        return None

    def _change_pick(self, t: int, i: int, rng: random.Random) -> Leak | None:
        from .decisions import DONE, PASS
        author, chosen = self.history[i]
        R = self.states[i].clone()
        opts = pending_for(R, author).pending.options
        sentinel = {DONE, PASS}
        same_kind = [j for j in range(len(opts))
                     if j != chosen and (opts[j] in sentinel) == (opts[chosen] in sentinel)]
        if not same_kind:
            return None  # vary which option, never how many picks (that shows at a table)
        R.apply(author, rng.choice(same_kind))
        S = self.states[t]
        for p, k in self.history[i + 1:t]:
            if p not in R.current_players() or k >= R.option_count(p):
                return Leak(t, p, "options", "secret pick", f"{S.option_count(p)} options",
                            f"options changed with P{author + 1}'s secret pick", "", self.seed)
            R.apply(p, k)
        if (author in R.current_players()) != (author in S.current_players()):
            return None  # the author's progress differs: nothing comparable
        start = len(self.states[i].log)
        for viewer in range(self.n):
            if viewer == author:
                continue
            a = _secret_free(observe(S, viewer, handouts=self.handouts, log_from=start), author)
            b = _secret_free(observe(R, viewer, handouts=self.handouts, log_from=start), author)
            diff = first_difference(a, b)
            if diff:
                return self.leak(t, viewer, diff, "secret pick", S)
        return None

    # ------------------------------------------------------------------ reporting
    def leak(self, t: int, viewer: int, diff: tuple, method: str, S: Any) -> Leak:
        sink, real, other = diff
        return Leak(t, viewer, sink, method, real, other, self.rule_position(sink, real, other, S, viewer),
                    self.seed)

    def rule_position(self, sink: str, real: str, other: str, S: Any, viewer: int) -> str:
        d = self.game.d
        if sink in ("options", "prompt"):
            th = pending_for(S, viewer)
            return str(th.pending.pos) if th is not None and th.pending.pos else ""
        if sink.startswith("log line"):
            for text in (real, other):
                if text.startswith("{"):  # a line reported as its event (the texts were equal)
                    text = event_text(json.loads(text))
                for pattern, pos in self.templates:
                    if pattern.fullmatch(text):
                        return str(pos)
            return ""
        if sink.startswith("view:"):
            section, _, key = sink[5:].partition(".")
            family = key.split(":")[0]
            table = {"zones": d.zones, "counters": d.counters, "variables": d.variables}.get(section, {})
            fam = table.get(family)
            return str(fam.pos) if fam is not None and fam.pos else ""
        return ""


def _secret_free(seen: dict, author: int) -> dict:
    """What stays comparable when `author` picked otherwise: not who is still deciding (seen at a
    table) nor `author`'s "(secret)" decision lines."""
    seen.pop("view:waiting_for", None)
    secret = f"P{author + 1} chooses (secret)"
    seen["log"] = [e for e in seen.get("log", []) if event_text(e) != secret]
    return seen


def _same_decision(S: Any, R: Any, player: int, k: int, mapping: dict) -> int | None:
    """The index of `player`'s option in R that is option k of S: the same value, or for a piece
    the one standing in R where the chosen one stood; None if R offers no such option."""
    from .values import Piece
    th, other = pending_for(S, player), pending_for(R, player)
    if th is None or other is None:
        return None
    value = th.pending.options[k]
    if type(value) is Piece:
        value = mapping.get(value, value)
    for i, v in enumerate(other.pending.options):
        if v == value and type(v) is type(value):
            return i
    return None


def _pattern(S: Any, viewer: int) -> tuple:
    """Which places `viewer` sees into: if another player's decision changed that, the two worlds
    went different ways (that player decided otherwise), which is not a leak."""
    return tuple((key, tuple(S.sees(viewer, p) for p in zone)) for key, zone in S.zones.items() if zone)


def _resample(S: Any, viewer: int, rng: random.Random) -> tuple[Any, dict]:
    mapping = draw_mapping(S, viewer, rng)
    T = relabel(S, mapping)
    reroll_hidden(T, viewer, rng)
    return T, mapping


def audit_game(game: Any, players: int, options: dict, seed: int, templates: list = (),
               handouts: Any = ()) -> tuple[Leak | None, "_Run"]:
    """Audit one game (seed): the first leak found, or None."""
    run = _Run(game, players, options, seed, list(templates), handouts)
    run.play()
    rng = random.Random(seed ^ 0x5EED)
    leaks = [run.state_resample(rng)]
    for viewer in range(players):
        leaks.append(run.replay_resample(viewer, rng))
    leaks.append(run.secret_picks(rng))
    found = [x for x in leaks if x is not None]
    return (min(found, key=lambda x: (x.decision, x.viewer)) if found else None), run


def audit(game: Any, players: int, options: dict, games: int = 5, seed: int = 0,
          templates: list = (), progress: Any = None, handouts: Any = ()) -> AuditReport:
    """Audit `games` random games (seeds seed, seed+1, …); stops at the first leak. `handouts`:
    (name, fn(state, viewer)) for anything else a player is given (compared like the view)."""
    report = AuditReport()
    for i in range(games):
        leak, run = audit_game(game, players, options, seed + i, templates, handouts)
        report.games += 1
        report.decisions += len(run.history)
        report.comparisons += run.comparisons
        if run.error:
            report.errors.append(f"seed {seed + i}: the game stopped with a rule error: {run.error}")
        if progress is not None:
            progress(i + 1, games)
        if leak is not None:
            report.leaks.append(leak)
            break
    return report


def log_templates(logs: list) -> list:
    """(regex, position) for every `log` statement (text, pos): finds the rule behind a line."""
    out = []
    for text, pos in logs:
        parts = re.split(r"\{[^{}]*\}", text.replace("{{", "\0").replace("}}", "\1"))
        body = ".*?".join(re.escape(p.replace("\0", "{").replace("\1", "}")) for p in parts)
        out.append((re.compile(body, re.S), pos))
    out.sort(key=lambda tp: -len(tp[0].pattern))  # most specific first
    return out


def load_for_audit(path: str, variants: list = ()) -> tuple[Any, list, list]:
    """The game (information-flow check off, disclosures recorded), the static findings, and
    the log statement templates."""
    from .game import Game
    from .infoflow import FlowCheck
    from .loader import build_game, load_document
    doc, files = load_document(path, variants)
    definition = build_game(doc, files, flows=False)
    check = FlowCheck(doc, definition)
    static = check.run()
    definition.warnings.extend(check.warnings)  # flows only play decides (E246): the audit decides them
    definition.record_disclosures = True
    return Game(definition), static, log_templates(check.logs)


def audit_command(file: str, players: int | None, seed: int, options: dict, variants: list,
                  games: int, as_json: bool) -> int:
    """`rulebook audit`: the static check, then the differential audit. Returns the exit code."""
    import sys
    game, static, templates = load_for_audit(file, variants)
    n = game.default_players if players is None else players
    opts = game.resolve_options(options)
    problems = game.check_setup(n, opts)
    if problems:
        from .errors import InputError
        raise InputError("; ".join(problems))

    if not as_json:  # the static findings first: they do not need a game
        for e in static + game.d.warnings:
            print(str(e), file=sys.stderr)

    def progress(done: int, total: int) -> None:
        if not as_json:
            print(f"\raudit: game {done}/{total}", end="" if done < total else "\n", file=sys.stderr)
    report = audit(game, n, opts, games, seed, templates, progress)
    if not as_json and report.games < games:
        print(file=sys.stderr)  # stopped early (a leak): end the progress line
    leak = report.leaks[0] if report.leaks else None
    if as_json:
        data = {"file": file, "game": game.id, "players": n, "options": opts, "variants": list(variants),
                "seed": seed, "static": [str(e) for e in static],
                "static_warnings": [str(e) for e in game.d.warnings], **report.to_json()}
        data["clean"] = data["clean"] and not static
        print(json.dumps(data, default=str))
    else:
        if leak is not None:
            where = f"{leak.where}: " if leak.where else f"{file}: "
            print(where + leak.describe(), file=sys.stderr)
            extra = "".join(f" --option {k}={v}" for k, v in options.items())
            extra += "".join(f" --variant {v}" for v in variants)
            print(f"  reproduce: rulebook audit {file} --players {n} --seed {leak.seed} --games 1{extra}",
                  file=sys.stderr)
        for e in report.errors:
            print(f"{file}: {e}", file=sys.stderr)
        verdict = "clean" if not (static or leak or report.errors) else "LEAKS" if (static or leak) else "rule errors"
        print(f"audit {file}: {report.games} games, {report.decisions} decisions, "
              f"{report.comparisons} comparisons, {len(static)} static findings"
              f"{_warnings_note(len(game.d.warnings))}: {verdict}")
    return 1 if static or report.leaks or report.errors else 0


def _warnings_note(n: int) -> str:
    return "" if n == 0 else f" ({n} warning{'s' if n != 1 else ''})"
