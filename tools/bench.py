#!/usr/bin/env python3
"""Benchmarks of the engine on every playable rule file under rules/.

Measures, on one process:
  * load + check + compile time of each rule file (fresh process state: the grammar is built
    once per process and counted separately);
  * random games per second, per game and player count (random agents, logging off);
  * the cost of clone() and of to_json() + restore() on mid-game states.

Usage:
    python tools/bench.py                 # every game, a few seconds each
    python tools/bench.py --seconds 5 --json out.json
    python tools/bench.py rules/dogs_day/game.yaml --players 4
Results are reported in docs/benchmarks.md (copy the printed Markdown table there).
"""
from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.agents import RandomAgent  # noqa: E402
from interpreter.game import Game  # noqa: E402
from interpreter.loader import load_game  # noqa: E402
from interpreter.lark_parser import lark_parser  # noqa: E402
from interpreter.rulefiles import game_entry_files  # noqa: E402
from interpreter.runner import play_game  # noqa: E402


def time_load(path: Path, repeats: int = 5) -> float:
    """Median milliseconds to load, check and compile a rule file (grammar already built)."""
    samples = []
    for _ in range(repeats):
        t = time.perf_counter()
        load_game(path)
        samples.append((time.perf_counter() - t) * 1000)
    return statistics.median(samples)


def games_per_second(game: Game, players: int, seconds: float) -> tuple[float, float, int]:
    """(games/s, mean decisions per game, games played) with random agents for ~`seconds`."""
    opts = game.resolve_options({})
    start = time.perf_counter()
    played = decisions = 0
    seed = 0
    while time.perf_counter() - start < seconds or played < 3:
        agents = [RandomAgent(seed * 31 + i) for i in range(players)]
        result = play_game(game, players, opts, seed, agents, logging=False)
        decisions += len(result.decisions)
        played += 1
        seed += 1
    elapsed = time.perf_counter() - start
    return played / elapsed, decisions / played, played


def mid_game_states(game: Game, players: int, count: int = 20) -> list:
    rng = random.Random(7)
    states = []
    for seed in range(count):
        S = game.new_game(players, None, seed)
        S.logging = False
        target = rng.randrange(5, 60)
        while not S.over and S.decisions < target:
            p = S.current_players()[0]
            S.apply(p, rng.randrange(len(S.legal_actions(p))))
        states.append(S)
    return states


def memory_costs(game: Game, players: int) -> tuple[float, float]:
    """(KB of a saved mid-game state as JSON, KB allocated by one clone), averaged."""
    states = mid_game_states(game, players, count=10)
    json_kb = sum(len(json.dumps(S.to_json())) for S in states) / len(states) / 1024
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    clones = [S.clone() for S in states]
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del clones
    return json_kb, (after - before) / len(states) / 1024


def copy_costs(game: Game, players: int) -> tuple[float, float]:
    """Microseconds per clone() and per to_json()+restore(), on mid-game states."""
    states = mid_game_states(game, players)
    t = time.perf_counter()
    reps = 0
    while time.perf_counter() - t < 0.5:
        for S in states:
            S.clone()
        reps += len(states)
    clone_us = (time.perf_counter() - t) / reps * 1e6
    t = time.perf_counter()
    reps = 0
    while time.perf_counter() - t < 0.5:
        for S in states:
            game.restore(json.loads(json.dumps(S.to_json())))
        reps += len(states)
    save_us = (time.perf_counter() - t) / reps * 1e6
    return clone_us, save_us


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", help="rule files (default: every game under rules/)")
    ap.add_argument("--players", type=int, action="append", help="player counts (default: every allowed)")
    ap.add_argument("--seconds", type=float, default=2.0, help="time per (game, player count)")
    ap.add_argument("--json", dest="json_out", help="also write the results as JSON here")
    args = ap.parse_args(argv)

    t = time.perf_counter()
    lark_parser()
    grammar_ms = (time.perf_counter() - t) * 1000
    files = [Path(f) for f in args.files] or game_entry_files(ROOT / "rules")
    rows = []
    for path in files:
        load_ms = time_load(path)
        game = Game.load(path)
        lo, hi = game.player_range
        counts = args.players or list(range(lo, hi + 1))
        for n in counts:
            if game.check_setup(n, game.resolve_options({})):
                continue
            gps, decisions, played = games_per_second(game, n, args.seconds)
            clone_us, save_us = copy_costs(game, n)
            json_kb, clone_kb = memory_costs(game, n)
            rows.append({"file": str(path.relative_to(ROOT) if path.is_absolute() else path),
                         "game": game.id, "players": n, "load_ms": round(load_ms, 1),
                         "games_per_s": round(gps, 1), "decisions_per_game": round(decisions, 1),
                         "games": played, "clone_us": round(clone_us, 1), "save_restore_us": round(save_us, 1),
                         "state_json_kb": round(json_kb, 1), "clone_kb": round(clone_kb, 1)})
            print(f"{game.id:24} {n}p  load {load_ms:6.1f} ms  {gps:8.1f} games/s  "
                  f"{decisions:7.1f} decisions/game  clone {clone_us:7.1f} µs  save+restore {save_us:8.1f} µs",
                  flush=True)
    print()
    print(f"Machine: {platform.machine()}, Python {platform.python_version()}, one process; "
          f"grammar build {grammar_ms:.0f} ms once per process.")
    print()
    print("| game | players | load+check+compile (ms) | random games/s | decisions/game | clone (µs) "
          "| save+restore (µs) | state as JSON (KB) | one clone (KB) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['game']} | {r['players']} | {r['load_ms']} | {r['games_per_s']} | {r['decisions_per_game']} "
              f"| {r['clone_us']} | {r['save_restore_us']} | {r['state_json_kb']} | {r['clone_kb']} |")
    if args.json_out:
        Path(args.json_out).write_text(json.dumps({"grammar_ms": grammar_ms, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
