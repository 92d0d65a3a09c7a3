#!/usr/bin/env python3
"""Flat MCTS iterations/s with the iterations on the resumable generated program ÷ on the engine
(interpreter/agents/transpiled.py), in ONE process: the two MctsAgent forms (transpiled=True and
False, same seeds, so the same iterations and moves) alternate on the same mid-game states, the
order turned each round; CPU time (time.process_time). tools/bench_speed.py --only mcts
--transpiled measures the same against an older checkout, in worker processes.

Usage:
    python tools/bench_mcts.py rules/chicago_poker/game.yaml --players 3 4 5 6 --rounds 4
    python tools/bench_mcts.py rules/kuhn_poker/game.yaml --players 2 --iterations 50
    python tools/bench_mcts.py rules/chicago_poker/game.yaml --option no_special_cards=true
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.agents.mcts import MctsAgent  # noqa: E402
from interpreter.game import Game  # noqa: E402


def positions(game: Game, players: int, options: dict, count: int) -> list:
    """Engine states at a decision among several options, at random depths (5-60 decisions in,
    or the last such decision of a shorter game)."""
    rng, out = random.Random(7), []
    for seed in range(count * 4):
        S, kept = game.new_game(players, options, seed, logging=False), None
        target = rng.randrange(5, 60)
        while not S.over and S.decisions < target:
            p = S.current_players()[0]
            if S.option_count(p) > 1:
                kept = S.clone()
            S.apply(p, rng.randrange(S.option_count(p)))
        if not S.over and S.option_count(S.current_players()[0]) > 1:
            kept = S
        if kept is not None:
            out.append(kept)
        if len(out) == count:
            break
    return out


def measure(states: list, iterations: int, rounds: int) -> dict:
    """CPU seconds per form, iterations done, and the share played on the generated program."""
    cpu = {False: 0.0, True: 0.0}
    done = {False: 0, True: 0}
    on_stepper = 0
    for S in states:  # not timed: the generated program is made once per process
        MctsAgent(1, seed=0).choose(S, S.current_players()[0])
    for r in range(rounds):
        for form in ((False, True) if r % 2 == 0 else (True, False)):
            t = time.process_time()
            for k, S in enumerate(states):
                agent = MctsAgent(iterations, seed=r * 100 + k, transpiled=form)
                agent.choose(S, S.current_players()[0])
                done[form] += agent.iterations_done
                on_stepper += agent.on_stepper if form else 0
            cpu[form] += time.process_time() - t
    return {"ratio": (done[True] / cpu[True]) / (done[False] / cpu[False]),
            "engine_ips": done[False] / cpu[False], "generated_ips": done[True] / cpu[True],
            "on_stepper": on_stepper / max(1, done[True])}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file")
    ap.add_argument("--players", type=int, nargs="+")
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--positions", type=int, default=6)
    ap.add_argument("--iterations", type=int, default=30, help="per decision")
    ap.add_argument("--rounds", type=int, default=4)
    args = ap.parse_args(argv)
    game = Game.load(args.file)
    options = game.resolve_options(dict(o.split("=", 1) for o in args.option))
    print("| rule file | options | players | engine it/s | generated it/s | generated ÷ engine | on the generated program |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for n in args.players or [game.default_players]:
        r = measure(positions(game, n, options, args.positions), args.iterations, args.rounds)
        shown = ", ".join(args.option) or "defaults"
        print(f"| {args.file} | {shown} | {n} | {r['engine_ips']:.0f} | {r['generated_ips']:.0f} | "
              f"{r['ratio']:.2f}× | {r['on_stepper']:.0%} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
