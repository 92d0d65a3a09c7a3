#!/usr/bin/env python3
"""Building a decision's options: this checkout's options.build_options against another
checkout's (--base DIR), alternately in one process, on the same pending decisions (CPU time).

The pending decisions are collected from random games (Chicago Poker without special cards,
4 players; Goofspiel; Dice Town; Dogs' Day), plus the micro case "choose a card from a 7-card
hand" (Chicago Poker decisions whose hand holds 7 cards). The base's options.py is loaded as a
module of this checkout's `interpreter` package, so both versions share every other module:
the ratio is that of options.py alone.

Then a whole decision, "choose a card from a 7-card hand" (a 2-player rule file written to a
temporary folder: 300 rounds of choosing a card and putting it back), played by each checkout
in its own worker process (tools/bench_speed.py's), alternately: this ratio includes
decisions.start_choice.

Usage:
    python tools/bench_options.py --base /tmp/base [--rounds 7]
"""
from __future__ import annotations

import argparse
import importlib.util
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.game import Game  # noqa: E402
from interpreter.threads import waiting  # noqa: E402

GAMES = [("chicago_poker", 4, {"no_special_cards": True}, 6), ("goofspiel", 2, {}, 40),
         ("dice_town", 4, {}, 3), ("dogs_day", 4, {}, 8), ("chicago_dry", 4, {}, 6),
         ("between_two_cities", 4, {}, 6)]


def load_options(checkout: Path, name: str):
    """options.py of `checkout` as a module of this checkout's `interpreter` package (both sides
    are loaded the same way, so that neither is favoured by how it was imported)."""
    spec = importlib.util.spec_from_file_location(f"interpreter._options_{name}",
                                                  checkout / "interpreter" / "options.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def snapshots(name: str, n: int, opts: dict, games: int) -> list:
    """(state, pending decision, locals) at every `choose` decision of some random games."""
    game = Game.load(ROOT / "rules" / name / "game.yaml")
    out = []
    for seed in range(games):
        S = game.new_game(n, opts, seed, logging=False)
        rng = random.Random(seed)
        while not S.over:
            p = S.current_players()[0]
            th = waiting(S)[p]
            if th.pending.kind != "perform":
                out.append((S.clone(), th.pending.copy(), dict(th.frames[-1].L)))
            S.apply(p, rng.randrange(S.option_count(p)))
    return out


HAND7 = """
game: {id: hand7, name: Hand of seven, players: {min: 2, max: 2}}
components:
  card:
    start: deck
    items: [{id: c1}, {id: c2}, {id: c3}, {id: c4}, {id: c5}, {id: c6}, {id: c7}, {id: c8},
            {id: c9}, {id: c10}, {id: c11}, {id: c12}, {id: c13}, {id: c14}]
zones:
  deck: {visibility: hidden}
  hand: {per: [player], visibility: owner}
setup:
  - id: deal
    do: |
      for p in players:
        draw 7 from deck to hand[p]
flow:
  rounds: 300
  phases:
    - id: play
      turns: seat
      turn: |
        choose c from hand[player] prompt "Card"
        move c to hand[player]
"""


def whole_decisions(base: Path, rounds: int) -> tuple[float, float]:
    """µs per decision (new, base) choosing a card from a 7-card hand, alternately."""
    sys.path.insert(0, str(ROOT / "tools"))
    from bench_speed import Worker
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "hand7.yaml"
        path.write_text(HAND7, encoding="utf-8")
        workers = {"base": Worker(base), "new": Worker(ROOT)}
        cpu = {"base": [0.0, 0], "new": [0.0, 0]}
        try:
            for r in range(rounds + 1):
                for name in (("base", "new") if r % 2 else ("new", "base")):
                    out = workers[name].ask(kind="games", file=str(path), players=2, games=20, seed=r * 20)
                    if r:  # round 0 warms up
                        cpu[name][0] += out["cpu"]
                        cpu[name][1] += out["decisions"]
        finally:
            for w in workers.values():
                w.close()
    return tuple(cpu[k][0] / cpu[k][1] * 1e6 for k in ("new", "base"))


def run(build, cases: list, repeat: int) -> float:
    t = time.process_time()
    for _ in range(repeat):
        for S, pend, L in cases:
            pend.cache = None
            build(S, pend, L)
    return time.process_time() - t


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", required=True)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--calls", type=int, default=40000, help="build_options calls per side and round")
    args = ap.parse_args(argv)
    base = load_options(Path(args.base), "base")
    new = load_options(ROOT, "new")
    sets = {}
    for name, n, opts, games in GAMES:
        sets[f"{name} {n}p"] = snapshots(name, n, opts, games)
    poker = sets["chicago_poker 4p"]
    sets["7-card hand"] = [c for c in poker if c[1].kind == "choose" and len(c[1].candidates) == 7
                           and c[1].label_key is None]
    for cases in sets.values():  # both versions agree on every case
        for S, pend, L in cases:
            a, b = pend.copy(), pend.copy()
            a.cache = b.cache = None
            new.build_options(S, a, L)
            base.build_options(S, b, L)
            assert a.options == b.options and new.labels_of(S, a) == base.labels_of(S, b)
    print("| decisions | cases | new ÷ base (CPU, build_options) |\n|---|---:|---:|")
    for label, cases in sets.items():
        repeat = max(1, args.calls // max(1, len(cases)))
        run(base.build_options, cases, repeat)  # warm both up (specialised bytecode, caches)
        run(new.build_options, cases, repeat)
        t_new = t_old = 0.0
        for r in range(args.rounds):  # which side goes first alternates too
            if r % 2:
                t_new += run(new.build_options, cases, repeat)
            t_old += run(base.build_options, cases, repeat)
            if not r % 2:
                t_new += run(new.build_options, cases, repeat)
        calls = repeat * len(cases) * args.rounds
        print(f"| {label} | {len(cases)} | {t_new / t_old:.2f} ({t_new / calls * 1e6:.2f} µs"
              f" vs {t_old / calls * 1e6:.2f} µs) |")
    new_us, base_us = whole_decisions(Path(args.base), args.rounds)
    print(f"\nWhole decision, a card from a 7-card hand: new ÷ base {new_us / base_us:.2f} "
          f"({new_us:.2f} µs vs {base_us:.2f} µs per decision, CPU)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
