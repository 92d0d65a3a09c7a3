#!/usr/bin/env python3
"""How far the generated code of the rule files' expression functions is from hand-written
Python over the same state: Chicago Poker (no special cards), whose hot functions (can_recruit,
can_play, has_room, open_slots, …) are written here by hand the way a programmer would write
them against the engine's State (zone tables bound once, no work budget, no type tests) and
swapped into a second copy of the loaded game. Both copies play the same seeds alternately in
this process (CPU time, random agents, logging off); the two must make the same decisions.

    python tools/bench_rule_code.py                # ideal ÷ generated, per decision
    python tools/bench_rule_code.py --same         # both copies generated: the A/A noise
    python tools/bench_rule_code.py --keep tick    # ideal, but with the per-call work budget

--keep adds back one cost of the generated form to the hand-written functions (tick: the call
budget of functions that call others; charge: counting iterated lists as work; zones: zone
reads through the layout's tables as generated; types: the list test of a variable), so that the
difference to the plain ideal is what that cost is worth. The second loaded copy runs a few
per cent slower for no reason of its own (see --same): compare against that, not against 1.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
POKER = ROOT / "rules" / "chicago_poker" / "game.yaml"
OPTS, PLAYERS = {"no_special_cards": True}, 4

IDEAL = '''
def _f_gangsters_in_hand(S, p):
    return [c for c in S.zones[HAND[p]] if ROLE[c] == 'gangster']
def _f_open_slots(S, p):
    Z = S.zones; col = COL[p]
    return [s for s in S.vars['slots'] if len(Z[col[s]]) < 5 and Z[BUS[s]]]
def _f_room_left(S, p):
    Z = S.zones; col = COL[p]
    return sum(5 - len(Z[col[s]]) for s in _f_open_slots(S, p))
def _f_has_room(S, p):
    Z = S.zones; col = COL[p]
    for s in S.vars['slots']:
        if len(Z[col[s]]) < 5 and Z[BUS[s]]:
            return True
    return False
def _f_playable_specials(S, p):
    h = S.zones[HAND[p]]
    return [c for c in h if ROLE[c] == 'special' and _f_special_usable(S, p, c) and not (REF[c] and len(h) > 7)]
def _f_sure_plays(S, p):
    return min(S.counters['actions_left'], min(len(_f_gangsters_in_hand(S, p)), _f_room_left(S, p))
               + len([1 for c in _f_playable_specials(S, p) if not REF[c]]))
def _f_can_recruit(S, p):
    Z = S.zones; h = len(Z[HAND[p]])
    return (len(Z[DECK]) + len(Z[DISCARD])) > 0 and (h < 7 or h + 1 - _f_sure_plays(S, p) <= 7)
def _f_playable_cards(S, p):
    if _f_has_room(S, p):
        return [*_f_gangsters_in_hand(S, p), *_f_playable_specials(S, p)]
    return _f_playable_specials(S, p)
def _f_can_play(S, p):
    h = S.zones[HAND[p]]
    if _f_has_room(S, p):
        for c in h:
            if ROLE[c] == 'gangster':
                return True
    for c in h:
        if ROLE[c] == 'special' and _f_special_usable(S, p, c) and not (REF[c] and len(h) > 7):
            return True
    return False
def _f_can_act(S, p):
    return _f_can_recruit(S, p) or _f_can_play(S, p)
'''
TICK = "    _m = _METER\n    _m.work += 16\n    if _m.work > _m.limits.work:\n        _tick(0)\n"
TICKED = ["sure_plays", "room_left", "can_recruit", "playable_specials", "playable_cards", "can_play", "can_act"]


def ideal_source(keep: list[str], number: dict) -> str:
    src = IDEAL
    if "tick" in keep:
        for name in TICKED:
            src = src.replace(f"def _f_{name}(S, p):\n", f"def _f_{name}(S, p):\n" + TICK)
    if "charge" in keep:
        for seq in ("S.zones[HAND[p]]", "S.vars['slots']", "_f_open_slots(S, p)"):
            src = src.replace(f"in {seq}", f"in _charge({seq})")
        src = src.replace("in h", "in _charge(h)")
    if "zones" in keep:  # as codegen.family_key writes them
        src = src.replace("HAND[p]", f"S.lay.zone_tables[{number['hand']}][p]")
        src = src.replace("col[s]", f"S.lay.zone_tables[{number['column']}][s][p]")
        src = src.replace("BUS[s]", f"S.lay.zone_tables[{number['business']}][s]")
    if "types" in keep:
        v = "S.vars['slots']"
        src = src.replace(f"in {v}", f"in (_charge({v}) if type({v}) is list else _items(S, {v}))")
    return src


def install_ideal(game, keep: list[str]) -> None:
    """Replace the hot expression functions of `game` (its own namespace) by hand-written ones."""
    env = game.d.code_env
    lay = game.new_game(PLAYERS, OPTS, 0, logging=False).lay
    index = lay.zone_index
    cols: dict = {}
    for (s, p), key in index["column"].items():
        cols.setdefault(p, {})[s] = key
    env.update(HAND=dict(index["hand"]), COL=cols, BUS=dict(index["business"]),
               DECK=index["deck"][()], DISCARD=index["discard"][()],
               ROLE=lay.cols["role"], REF=lay.cols["refills_hand"])
    exec(ideal_source(keep, {name: i for i, name in enumerate(game.d.zones)}), env)


def play(game, seeds: range) -> tuple[float, int]:
    t, decisions = time.process_time(), 0
    for seed in seeds:
        S = game.new_game(PLAYERS, OPTS, seed, logging=False)
        agents = [random.Random(seed * 31 + i) for i in range(PLAYERS)]
        while not S.over:
            p = S.current_players()[0]
            S.apply_unchecked(p, int(agents[p].random() * S.option_count(p)))
        decisions += S.decisions
    return time.process_time() - t, decisions


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--same", action="store_true", help="leave the second copy as generated (A/A)")
    ap.add_argument("--keep", action="append", default=[], choices=["tick", "charge", "zones", "types"])
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--games", type=int, default=10)
    args = ap.parse_args(argv)
    os.environ["RULEBOOK_CACHE"] = "0"  # two separately compiled copies
    sys.path.insert(0, str(ROOT))
    from interpreter.game import Game
    generated, ideal = Game.load(POKER), Game.load(POKER)
    if not args.same:
        install_ideal(ideal, args.keep)
    cpu = {"generated": 0.0, "ideal": 0.0}
    decisions = {"generated": 0, "ideal": 0}
    for r in range(args.rounds):
        seeds = range(r * args.games, (r + 1) * args.games)
        for name, game in (("generated", generated), ("ideal", ideal)):
            t, d = play(game, seeds)
            cpu[name] += t
            decisions[name] += d
    if decisions["generated"] != decisions["ideal"]:
        raise SystemExit(f"the two copies played different games: {decisions}")
    per = {k: cpu[k] / decisions[k] * 1e6 for k in cpu}
    label = "same ÷ generated" if args.same else f"ideal{'+' + '+'.join(args.keep) if args.keep else ''} ÷ generated"
    print(f"generated {per['generated']:.2f} µs/decision, second copy {per['ideal']:.2f}: "
          f"{label} {per['ideal'] / per['generated']:.3f} ({decisions['generated']} decisions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
