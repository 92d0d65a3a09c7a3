"""The generic conformance checks every rule file must pass (run by pytest over rules/).

For one configuration (players, options, variants) and seed, play a random game and check:
it ends within max_decisions without a rule error; pieces are conserved after every decision;
declared invariants hold; a save (JSON) taken at a random decision and restored reproduces the
rest of the game exactly; a clone evolves without touching the original; the same seed gives
the same final hash; and, at random points, each player's view, log and options do not change
when everything hidden from that player is reshuffled.
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from .decisions import build_options, labels_of, pending_for
from .errors import RulebookError
from .game import Game


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
    """A clone where every piece hidden from `viewer` is swapped with an indistinguishable one."""
    T = S.clone()
    groups: dict = {}
    for key, zone in T.zones.items():
        if T.lay.zones[key].grid is not None:
            continue
        for i, p in enumerate(zone):
            if not T.sees(viewer, p):
                static = T.lay.static[p]
                comp = T.game.components[static["kind"]]
                sig = (static["kind"], tuple(static.get(a) for a in comp.public), T.face_up(p))
                groups.setdefault(sig, []).append((key, i, p))
    mapping = {}
    for slots in groups.values():
        pieces = sorted(p for _, _, p in slots)  # canonical first: the result depends only on
        rng.shuffle(pieces)                      # what the viewer can see, and on rng
        for (key, i, old), new in zip(slots, pieces):
            T.zones[key][i] = new
            T.loc[new] = key
            mapping[old] = new
    T.rng.state = rng.getrandbits(64)
    return T, mapping


def _seen_by(S: Any, viewer: int, mapping: dict | None = None) -> tuple:
    labels = ()
    th = pending_for(S, viewer)
    if th is not None:
        pend = th.pending.copy()
        pend.cache = None  # options are rebuilt from this state, not remembered
        if mapping is not None:
            pend.candidates = [mapping.get(c, c) if _is_piece(c) else c for c in pend.candidates]
        if pend.kind != "perform":
            build_options(S, pend, th.frames[-1].L)
        labels = tuple(labels_of(S, pend))
    view = json.dumps(S.view(viewer), sort_keys=True, default=str)
    return view, tuple(S.log_lines(viewer)), labels


def _is_piece(v: Any) -> bool:
    from .values import Piece
    return type(v) is Piece


def audit_hidden(S: Any, rng: random.Random) -> str | None:
    for viewer in range(S.n):
        before = _seen_by(S, viewer)
        T, mapping = perturb(S, viewer, rng)
        after = _seen_by(T, viewer, mapping)
        for what, a, b in zip(("view", "log", "options"), before, after):
            if a != b:
                return (f"P{viewer + 1}'s {what} changed when only hidden things changed "
                        f"(hidden information leaks)\n  before: {str(a)[:400]}\n  after:  {str(b)[:400]}")
    return None


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
