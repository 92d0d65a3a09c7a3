"""What `rulebook simulate` costs per game on top of the engine: CPU per game of the lab's run
(records, tallies, progress, optionally the --out file) ÷ CPU per game of a bare loop over the
engine, both in this process, alternating.

    python tools/bench_simulate_overhead.py [--file rules/kuhn_poker/game.yaml] [--games 3000] [--rounds 5]

The bare loop is what any program would write to play random games: one seeded random agent per
seat (the same seeds as simulate's), `play_game` with logging off, then the returns and winners. The simulate side is the same
path the command takes after loading (Plan, the in-process backend, `run` with its tallies and
progress, `summarise`), once without and once with a results file (`--out`). Same seeds on every
side, so the same games are played. Ratios of medians over the rounds.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--file", default="rules/kuhn_poker/game.yaml")
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--json", dest="json_out", type=Path)
    args = ap.parse_args()

    from interpreter.agents import parse_agents
    from interpreter.game import Game
    from interpreter.lab.backends import InlineBackend
    from interpreter.lab.plan import Arm, Plan
    from interpreter.lab.runner import run
    from interpreter.lab.store import ResultsFile
    from interpreter.lab.summary import summarise
    from interpreter.runner import play_game

    path = os.path.abspath(args.file)
    game = Game.load(path)
    players = game.default_players
    plan = Plan((Arm("base", path),), players, ("random",) * players, 0, args.games, cwd=os.getcwd())
    folder = tempfile.mkdtemp(prefix="rulebook-overhead-")

    random_agent = parse_agents("random")[0]  # the agent spec parsed once, as a program would

    def bare() -> None:
        for seed in range(args.games):
            agents = [random_agent.build(seed, seat) for seat in range(players)]
            S = play_game(game, players, {}, seed, agents, logging=False).state
            S.returns(), S.winners()

    def lab(out_file: bool) -> None:
        out = ResultsFile(Path(folder) / "results.jsonl", plan.describe(), resume=False) if out_file else None
        with open(os.devnull, "w") as devnull:
            stderr, sys.stderr = sys.stderr, devnull  # the progress lines
            try:
                result = run(plan, InlineBackend(), out, progress=True)
            finally:
                sys.stderr = stderr
        json.dumps(summarise(result, [game], False, None))

    sides = {"bare engine loop": bare, "simulate": lambda: lab(False), "simulate --out": lambda: lab(True)}
    bare()  # warm up
    times: dict[str, list[float]] = {name: [] for name in sides}
    for _ in range(args.rounds):
        for name, fn in sides.items():
            start = time.process_time()
            fn()
            times[name].append((time.process_time() - start) / args.games)
    base = statistics.median(times["bare engine loop"])
    result = {"file": args.file, "games": args.games, "rounds": args.rounds, "load_average": list(os.getloadavg()),
              "us_per_game": {k: round(statistics.median(v) * 1e6, 2) for k, v in times.items()},
              "ratio": {k: round(statistics.median(v) / base, 3) for k, v in times.items()}}
    print(f"{args.file}: {args.games} games × {args.rounds} rounds, alternating (CPU per game, medians)")
    for name in sides:
        print(f"  {name:<18} {result['us_per_game'][name]:>9.1f} µs/game   {result['ratio'][name]:.3f}× the bare loop")
    if args.json_out:
        args.json_out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
