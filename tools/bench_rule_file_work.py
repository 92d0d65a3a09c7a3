"""How much more a rule file asks of the engine than an older version of it: this checkout's
generated program of today's file against this checkout's generated program of another
checkout's version of the same file (c814bf9's, say), in ONE process, alternating round by round,
CPU time. Both sides are the same engine, so the ratio is the rule files' own work (what fidelity
work added since), not an engine change.

    python tools/bench_rule_file_work.py --base /tmp/base-c814 rules/between_two_cities/game.yaml:3,4,5 \\
        rules/between_two_cities/capitals.yaml:4 --rounds 6 --games 40

A configuration is PATH:PLAYERS[,PLAYERS...]; PATH is relative to both checkouts. Prints, per
player count, today ÷ older CPU per game and per decision, and the decisions per game's ratio."""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from transpile_games_bench import agents_for  # noqa: E402


def _play(path: str, players: int):
    """This checkout's generated `play` of the rule file at `path`."""
    from interpreter import transpile
    names = transpile.namespace()
    source = transpile.transpile(transpile.RuleFile(path, ()), players, {})
    exec(compile(source, f"<generated {path}>", "exec"), names)
    return names["play"]


def compare(today: str, older: str, players: int, rounds: int, games: int, warm: int) -> str:
    """One line: today ÷ older CPU per game and per decision, alternating rounds of the same seeds."""
    plays = {"today": _play(today, players), "older": _play(older, players)}
    for play in plays.values():
        for seed in range(warm):
            play(seed, agents_for(players, seed))
    cpu = {"today": 0.0, "older": 0.0}
    decisions = {"today": 0, "older": 0}
    for r in range(rounds):
        seeds = range(1000 + r * games, 1000 + (r + 1) * games)
        for side in (("today", "older") if r % 2 == 0 else ("older", "today")):
            t = time.process_time()
            for seed in seeds:
                decisions[side] += len(plays[side](seed, agents_for(players, seed))[1])
            cpu[side] += time.process_time() - t
    per_game = cpu["today"] / cpu["older"]
    per_decision = per_game * decisions["older"] / decisions["today"]
    return (f"{today}:{players}: today ÷ older {per_game:.2f} per game, {per_decision:.2f} per decision "
            f"(decisions a game {decisions['today'] / decisions['older']:.2f})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", required=True, help="the checkout holding the older rule files")
    ap.add_argument("configs", nargs="+", metavar="PATH:PLAYERS")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--warm", type=int, default=20, help="games each side plays first, untimed")
    args = ap.parse_args(argv)
    os.environ["RULEBOOK_CACHE"] = "0"
    for config in args.configs:
        path, counts = config.rsplit(":", 1)
        for n in (int(c) for c in counts.split(",")):
            print(compare(path, str(Path(args.base) / path), n, args.rounds, args.games, args.warm), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
