"""The generic conformance checks every rule file must pass (run by pytest over rules/).

For one configuration (players, options, variants) and seed, play a random game and check:
it ends within max_decisions without a rule error; pieces are conserved after every decision;
declared invariants hold; a save (JSON) taken at a random decision and restored reproduces the
rest of the game exactly; a clone evolves without touching the original; the same seed gives
the same final hash; and, at random points, each player's observation (the table, the log events,
the decision with its options as data: interpreter/observation.py) does not change
when everything hidden from that player is reshuffled.
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from .decisions import DONE, PASS, build_options, labels_of, pending_for
from .errors import RulebookError
from .game import Game
from .observation import observe
from .resample import resample


@dataclass
class Report:
    problems: list = field(default_factory=list)
    decisions: int = 0

    def fail(self, message: str) -> None:
        self.problems.append(message)


def check_conservation(S: Any) -> str | None:
    total = sum(len(z) for z in S.zones.values())
    if total != len(S.lay.pieces):
        return f"{total} pieces in zones, expected {len(S.lay.pieces)} (duplicated or lost)"
    for key, zone in S.zones.items():
        for p in zone:
            if S.loc[p] != key:
                return f"piece {int(p)} is listed in {key} but located in {S.loc[p]}"
    return None


def check_invariants(S: Any, initial: dict) -> str | None:
    for inv in S.game.invariants:
        value = inv.expr(S, {})
        if inv.kind == "constant":
            if inv.id not in initial:
                initial[inv.id] = value
            elif value != initial[inv.id]:
                return f"invariant {inv.id} changed from {initial[inv.id]} to {value}"
        elif not value:
            return f"invariant {inv.id} does not hold{': ' + inv.message if inv.message else ''}"
    return None


def perturb(S: Any, viewer: int, rng: random.Random) -> tuple[Any, dict]:
    """A clone where every piece hidden from `viewer` is swapped with an indistinguishable one
    (kept for existing callers: the engine operation is interpreter.resample.resample)."""
    return resample(S, viewer, rng)


def _seen_by(S: Any, viewer: int) -> tuple:
    """The viewer's observation (what every surface is made from): the table, the log events,
    the decision with its options rebuilt from this state."""
    pend = None
    th = pending_for(S, viewer)
    if th is not None:
        pend = th.pending.copy()
        pend.cache = None  # options are rebuilt from this state, not remembered
        if pend.kind != "perform":
            build_options(S, pend, th.frames[-1].L)
    obs = observe(S, viewer, pending=pend)
    log = tuple(json.dumps(e, sort_keys=True) for e in obs.pop("log"))
    decision = json.dumps(obs.pop("decision", None), sort_keys=True, default=str)
    return json.dumps(obs, sort_keys=True, default=str), log, decision


def audit_hidden(S: Any, rng: random.Random) -> str | None:
    for viewer in range(S.n):
        before = _seen_by(S, viewer)
        T, _ = resample(S, viewer, rng)
        after = _seen_by(T, viewer)
        for what, a, b in zip(("view", "log", "options"), before, after):
            if a != b:
                return (f"P{viewer + 1}'s {what} changed when only hidden things changed "
                        f"(hidden information leaks)\n  before: {str(a)[:400]}\n  after:  {str(b)[:400]}")
    return None


def _comparable(S: Any, viewer: int, hide: int) -> tuple:
    """What `viewer` sees, minus who is still deciding (observable at a real table: you see a
    player still choosing) and minus `hide`'s "(secret)" decision lines (how many picks)."""
    view = S.view(viewer)
    view.pop("waiting_for", None)
    view.pop("decision", None)
    text = json.dumps(view, sort_keys=True, default=str)
    secret = f"P{hide + 1} chooses (secret)"
    log = tuple(line for line in S.log_lines(viewer) if line != secret)
    th = pending_for(S, viewer)
    labels = tuple(labels_of(S, th.pending)) if th is not None else ()
    return text, log, labels


def audit_open_block(game: Game, S: Any, players: int, options: dict, seed: int,
                     rng: random.Random) -> str | None:
    """Inside an open simultaneous block, change one secret decision another player already made;
    nobody else's view, log or options may change (until the block ends and reveals it)."""
    blocks = [t for t in S.threads if t.status == "wait" and t.since is not None]
    if not blocks:
        return None
    since = blocks[-1].since
    history = S.history
    deciding = set(S.current_players())
    last_of: dict = {}
    for i in range(since, len(history)):
        last_of[history[i][0]] = i  # each author's last decision in the open block
    candidates = [i for a, i in last_of.items() if any(p != a for p in deciding)]
    if not candidates:
        return None
    i = rng.choice(candidates)
    author, chosen = history[i]
    R = game.new_game(players, options, seed)
    R.logging = S.logging
    for p, k in history[:i]:
        R.apply(p, k)
    th = pending_for(R, author)
    sentinel = {DONE, PASS}
    opts = th.pending.options
    same_kind = [j for j in range(len(opts))
                 if j != chosen and (opts[j] in sentinel) == (opts[chosen] in sentinel)]
    if not same_kind:
        return None  # vary which option, never how many picks (that is visible at a table)
    R.apply(author, rng.choice(same_kind))
    for p, k in history[i + 1:]:
        if p not in R.current_players() or k >= R.option_count(p):
            return (f"P{p + 1}'s options depend on P{author + 1}'s secret choice made earlier in the "
                    "same simultaneous block (hidden information leaks)")
        R.apply(p, k)
    if (author in R.current_players()) != (author in S.current_players()):
        return None  # the author's progress differs: nothing comparable
    for viewer in range(players):
        if viewer == author:
            continue
        before, after = _comparable(S, viewer, author), _comparable(R, viewer, author)
        for what, a, b in zip(("view", "log", "options"), before, after):
            if a != b:
                return (f"P{viewer + 1}'s {what} shows P{author + 1}'s secret choice before the "
                        f"simultaneous block ends (hidden information leaks)\n{_difference(a, b)}")
    return None


def _difference(a: Any, b: Any) -> str:
    """The first differing part of two views (JSON text), logs or option lists."""
    if isinstance(a, str) and a.startswith("{"):
        va, vb = json.loads(a), json.loads(b)
        for section in sorted(set(va) | set(vb)):
            if va.get(section) != vb.get(section):
                sa, sb = va.get(section), vb.get(section)
                if isinstance(sa, dict) and isinstance(sb, dict):
                    keys = [k for k in sorted(set(sa) | set(sb)) if sa.get(k) != sb.get(k)]
                    return "\n".join(f"  {section}.{k}: {sa.get(k)} / {sb.get(k)}" for k in keys[:4])
                return f"  {section}: {sa} / {sb}"
    extra = [x for x in a if x not in b] + [x for x in b if x not in a]
    return "  differs in: " + "; ".join(str(x) for x in extra[:4])


def check_game(game: Game, players: int, options: dict, seed: int, audits: int = 3) -> Report:
    """Play one random game with every check on."""
    report = Report()
    rng = random.Random(seed)
    try:
        S = game.new_game(players, options, seed)
    except RulebookError as exc:
        report.fail(f"setup failed: {exc}")
        return report
    initial: dict = {}
    secret_audits = audits
    limit = game.d.max_decisions
    snapshots = []
    audit_at = set()
    while not S.over:
        if S.decisions > limit:
            report.fail(f"no end after {limit} decisions")
            return report
        for message in (check_conservation(S), check_invariants(S, initial)):
            if message:
                report.fail(f"after {S.decisions} decisions: {message}")
                return report
        if rng.random() < 0.05 or S.decisions in audit_at or S.decisions == 0:
            if len(snapshots) < 2:
                snapshots.append((S.decisions, json.loads(json.dumps(S.to_json()))))
            if audits > 0:
                audits -= 1
                message = audit_hidden(S, rng)
                if message:
                    report.fail(f"after {S.decisions} decisions: {message}")
                    return report
        if secret_audits > 0 and any(t.status == "wait" for t in S.threads) and rng.random() < 0.3:
            secret_audits -= 1
            message = audit_open_block(game, S, players, options, seed, rng)
            if message:
                report.fail(f"after {S.decisions} decisions: {message}")
                return report
        waiting = S.current_players()
        if not waiting:
            report.fail(f"after {S.decisions} decisions: no one can decide and the game is not over")
            return report
        p = waiting[rng.randrange(len(waiting))]
        try:
            S.apply(p, rng.randrange(len(S.legal_actions(p))))
        except RulebookError as exc:
            report.fail(f"after {S.decisions} decisions: {exc}")
            return report
    report.decisions = S.decisions
    final = S.hash()
    message = check_conservation(S) or check_invariants(S, initial)
    if message:
        report.fail(f"at the end: {message}")
    _check_restores(game, S, snapshots, final, report)
    _check_determinism(game, players, options, seed, S.history, final, report)
    _check_clone(game, players, options, seed, report)
    return report


def _replay_from(S: Any, history: list, start: int) -> Any:
    for player, option in history[start:]:
        S.apply(player, option)
    return S


def _check_restores(game, S, snapshots, final, report) -> None:
    for at, data in snapshots:
        try:
            R = game.restore(data)
            _replay_from(R, S.history, at)
        except RulebookError as exc:
            report.fail(f"restore of the save at decision {at} failed: {exc}")
            continue
        if R.hash() != final:
            report.fail(f"a save at decision {at}, restored, ended differently (hash {R.hash()} vs {final})")


def _check_determinism(game, players, options, seed, history, final, report) -> None:
    again = _replay_from(game.new_game(players, options, seed), history, 0)
    if again.hash() != final:
        report.fail("same seed and decisions gave a different final state")


def _check_clone(game, players, options, seed, report) -> None:
    S = game.new_game(players, options, seed)
    rng = random.Random(seed + 1)
    for _ in range(3):
        if S.over:
            return
        p = S.current_players()[0]
        S.apply(p, rng.randrange(len(S.legal_actions(p))))
    before = S.hash()
    C = S.clone()
    for _ in range(20):
        if C.over:
            break
        p = C.current_players()[0]
        C.apply(p, rng.randrange(len(C.legal_actions(p))))
    if S.hash() != before:
        report.fail("playing on a clone changed the original state")


def configurations(game: Game) -> list[tuple[int, dict]]:
    """Every valid (players, options) combination of bool and choice options."""
    lo, hi = game.player_range
    out = []
    for n in range(lo, hi + 1):
        for combo in game.option_combinations():
            opts = game.resolve_options(combo)
            if not game.check_setup(n, opts):
                out.append((n, opts))
    return out
