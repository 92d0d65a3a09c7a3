#!/usr/bin/env python3
"""`rulebook simulate` with the generated program against the engine (issue 12, stop 26), as
RATIOS of CPU time measured in this process, the two forms alternating round by round.

For each game: CPU per game of the lab's run (Plan, the in-process backend, tallies, summary:
what the command does after loading) with every arm's `execution` "engine" and "transpiled"
(the same seeds: the same games and records); then the fixed and per-game costs of the
transpiled form:

  * generate: the first use of a configuration in a process (the rule file loaded with its
    statement trees, the program written and compiled), against the engine's own `Game.load`;
  * checked start: lab/execution.py's `choose` with its 3 games played both ways;
  * fallback: a run whose program fails every game at its very end (so the engine replays each
    one): per game, against the engine alone.

With `--cli N`, also the command itself, end to end (a new process: imports, loading,
generating, the checked start, N games): `python -m interpreter simulate FILE --games N
--execution engine|auto`, alternating, CPU time of the child (user + system).

    python tools/bench_transpiled_simulate.py [--games 400] [--rounds 5] [--only kuhn_poker] [--cli 1000]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GAMES = {  # name: (rule file, players, options, games per round relative to --games)
    "kuhn_poker": ("rules/kuhn_poker/game.yaml", 2, (), 10),
    "tic_tac_toe": ("rules/tic_tac_toe/game.yaml", 2, (), 5),
    "chicago_poker": ("rules/chicago_poker/game.yaml", 4, (("short_game", False), ("no_special_cards", True)), 0.05),
}


def _cpu(fn) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def measure(name: str, games: int, rounds: int) -> dict:
    from interpreter.game import Game
    from interpreter.lab import games as lab_games
    from interpreter.lab.backends import InlineBackend
    from interpreter.lab.execution import choose
    from interpreter.lab.plan import Arm, Plan
    from interpreter.lab.runner import run
    from interpreter.transpile import RuleFile, fastrun, transpile

    file, players, options, share = GAMES[name]
    path = str(ROOT / file)
    count = max(4, int(games * share))
    plan = Plan((Arm("base", path, (), options),), players, ("random",) * players, 0, count, cwd=os.getcwd())
    forms = {form: replace(plan, arms=(replace(plan.arms[0], execution=form),)) for form in ("engine", "transpiled")}

    def lab(p: Plan) -> list:
        return run(p, InlineBackend(), None, progress=False).tallies

    lab(forms["engine"]), lab(forms["transpiled"])  # warm up (loads, the program)
    per_game: dict = {"engine": [], "transpiled": []}
    for r in range(rounds):
        order = ("engine", "transpiled") if r % 2 == 0 else ("transpiled", "engine")
        for form in order:
            per_game[form].append(_cpu(lambda: lab(forms[form])) / count)
    engine, program = statistics.median(per_game["engine"]), statistics.median(per_game["transpiled"])

    # fixed costs of the transpiled form
    opts = dict(Game.load(path).resolve_options(dict(options)))
    load_engine = statistics.median(_cpu(lambda: Game.load(path)) for _ in range(3))
    load_trees = statistics.median(_cpu(lambda: RuleFile(path)) for _ in range(3))
    rule_file = RuleFile(path)
    write = statistics.median(_cpu(lambda: transpile(rule_file, players, opts)) for _ in range(3))
    source = transpile(rule_file, players, opts)
    compile_ = statistics.median(_cpu(lambda: compile(source, "<bench>", "exec")) for _ in range(3))
    checked = statistics.median(_cpu(lambda: choose(plan, "auto", 3)) for _ in range(3))

    # fallback: the program plays the whole game, then fails; the engine replays it
    real = fastrun.program

    def failing(*args):
        play = real(*args)

        def fails_at_the_end(seed, agents, state=None):
            play(seed, agents)
            raise RuntimeError("failed at the end")
        return fails_at_the_end
    fastrun.program = failing
    lab_games.GIVE_UP, give_up = 10 ** 9, lab_games.GIVE_UP
    try:
        fallback = statistics.median(_cpu(lambda: lab(forms["transpiled"])) / count for _ in range(max(1, rounds // 2)))
    finally:
        fastrun.program, lab_games.GIVE_UP = real, give_up
    return {"game": name, "players": players, "games": count * rounds,
            "engine_us": engine * 1e6, "transpiled_us": program * 1e6, "speedup": engine / program,
            "load_engine_ms": load_engine * 1e3, "load_trees_ms": load_trees * 1e3, "write_ms": write * 1e3,
            "compile_ms": compile_ * 1e3, "checked_start_ms": checked * 1e3,
            "checked_start_games": checked / engine, "fallback_ratio": fallback / engine}


def command(name: str, games: int, rounds: int) -> dict:
    """CPU of `rulebook simulate` end to end in a child process, engine vs auto, alternating."""
    file, players, options, share = GAMES[name]
    count = max(4, int(games * share))
    words = [sys.executable, "-m", "interpreter", "simulate", file, "--games", str(count), "--players", str(players),
             "--json"] + [w for k, v in options for w in ("--option", f"{k}={str(v).lower()}")]
    cpu: dict = {"engine": [], "auto": []}
    for r in range(rounds):
        for form in (("engine", "auto") if r % 2 == 0 else ("auto", "engine")):
            before = os.times()
            subprocess.run(words + ["--execution", form], cwd=ROOT, check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            after = os.times()
            cpu[form].append((after.children_user - before.children_user)
                             + (after.children_system - before.children_system))
    engine, auto = statistics.median(cpu["engine"]), statistics.median(cpu["auto"])
    return {"game": name, "games": count, "engine_s": engine, "auto_s": auto, "ratio": engine / auto}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=400,
                    help="scale of a round: Kuhn 10·N games, tic-tac-toe 5·N, Chicago Poker N/20")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--only", action="append", choices=sorted(GAMES))
    ap.add_argument("--cli", type=int, metavar="N", help="also the command end to end, on the scale of --games")
    args = ap.parse_args()
    rows = [measure(name, args.games, args.rounds) for name in (args.only or GAMES)]
    print("| game | players | engine µs/game | transpiled µs/game | engine ÷ transpiled "
          "| generate: load with trees + write + compile (ms) | engine's Game.load (ms) "
          "| checked start (ms; in engine games) | fallback game ÷ engine game |")
    print("|---|---:|---:|---:|---:|---|---:|---|---:|")
    for r in rows:
        print(f"| {r['game']} | {r['players']} | {r['engine_us']:.0f} | {r['transpiled_us']:.0f} "
              f"| {r['speedup']:.2f}× "
              f"| {r['load_trees_ms']:.0f} + {r['write_ms']:.1f} + {r['compile_ms']:.1f} | {r['load_engine_ms']:.1f} "
              f"| {r['checked_start_ms']:.1f} ({r['checked_start_games']:.1f}) | {r['fallback_ratio']:.2f} |")
    if args.cli:
        print("\n| `rulebook simulate`, end to end | games | --execution engine (CPU s) | --execution auto (CPU s) "
              "| engine ÷ auto |")
        print("|---|---:|---:|---:|---:|")
        for name in args.only or GAMES:
            c = command(name, args.cli, args.rounds)
            print(f"| {c['game']} | {c['games']} | {c['engine_s']:.2f} | {c['auto_s']:.2f} | {c['ratio']:.2f}× |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
