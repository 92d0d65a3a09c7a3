#!/usr/bin/env python3
"""Measures the resumable generated program (interpreter/transpile/stepper.py, issue #12) against
the straight generated program, the engine and tools/handwritten_poker.py: CPU time
(time.process_time), the ways alternating in this one process, the order turned each round.

Usage:
    python tools/stepper_bench.py --decisions 8 --games 20   # Chicago Poker, µs per decision
    python tools/stepper_bench.py --mcts 4 --playouts 30     # clone + random playout from positions
    python tools/stepper_bench.py --small 5 --seconds 0.5    # tic-tac-toe and Kuhn games/s
    python tools/stepper_bench.py --peers 3 --seconds 1      # the same beside OpenSpiel (bench_peers)
    python tools/stepper_bench.py --clone 6                  # µs per clone of mid-game states
    python tools/stepper_bench.py --cost                     # generated code size, generation time
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

TOOLS = Path(__file__).resolve().parent
ROOT = TOOLS.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(TOOLS))

from interpreter.game import Game  # noqa: E402
from interpreter.state import State  # noqa: E402
from interpreter.transpile import load_program, transpile  # noqa: E402
from interpreter.transpile.stepper import load_stepper, stepper_source  # noqa: E402

POKER = (str(ROOT / "rules/chicago_poker/game.yaml"), 4, {"no_special_cards": True})
SMALL = {"tic_tac_toe": (str(ROOT / "rules/tic_tac_toe/game.yaml"), 2, None),
         "kuhn_poker": (str(ROOT / "rules/kuhn_poker/game.yaml"), 2, None)}


def alternate(runs: dict[str, Callable[[int], int]], rounds: int) -> tuple[dict, dict]:
    """CPU seconds and work units of each run over `rounds` rounds (run(r) does round r's work)."""
    cpu, work = dict.fromkeys(runs, 0.0), dict.fromkeys(runs, 0)
    names = list(runs)
    for r in range(rounds):
        for k in names[r % len(names):] + names[:r % len(names)]:
            t = time.process_time()
            work[k] += runs[k](r)
            cpu[k] += time.process_time() - t
    return cpu, work


# ------------------------------------------------------------------ per decision (Chicago Poker)
def seat_rngs(seed: int, n: int) -> list:
    return [random.Random(seed * 31 + i) for i in range(n)]  # tools/bench_speed.py's agents


def stepper_games(m: Any, n: int, seeds: range) -> int:
    new, apply = m.new, m.apply
    decisions = 0
    for seed in seeds:
        rngs = seat_rngs(seed, n)
        st = new(seed)
        while st[0] > 0:
            apply(st, int(rngs[st[1]].random() * len(st[2])))
            decisions += 1
    return decisions


def rollout_games(m: Any, n: int, seeds: range) -> int:
    """Whole games through the stepper's rollout: the agents asked inline, nothing stops."""
    new, rollout, history = m.new, m.rollout, m.history
    decisions = 0
    for seed in seeds:
        agents = [lambda options, r=r: int(r.random() * len(options)) for r in seat_rngs(seed, n)]
        st = new(seed)
        if st[0] > 0:
            rollout(st, agents[st[1]](st[2]), agents)
        decisions += len(history(st))
    return decisions


def straight_games(play: Callable, n: int, seeds: range) -> int:
    decisions = 0
    for seed in seeds:
        agents = [lambda options, r=r: int(r.random() * len(options)) for r in seat_rngs(seed, n)]
        decisions += len(play(seed, agents)[1])
    return decisions


def engine_games(game: Any, n: int, opts: Any, seeds: range) -> int:
    decisions = 0
    for seed in seeds:
        S = game.new_game(n, opts, seed, logging=False)
        rngs = seat_rngs(seed, n)
        while not S.over:
            p = S.current_players()[0]
            State.apply_unchecked(S, p, int(rngs[p].random() * S.option_count(p)))
        decisions += S.decisions
    return decisions


def bench_decisions(rounds: int, games: int) -> dict:
    from handwritten_poker import play_games
    path, n, opts = POKER
    m, play, game = load_stepper(path, n, opts), load_program(path, n, opts), Game.load(path)
    block = lambda r: range(r * games, (r + 1) * games)  # noqa: E731
    runs = {"stepper": lambda r: stepper_games(m, n, block(r)),
            "rollout": lambda r: rollout_games(m, n, block(r)),
            "straight": lambda r: straight_games(play, n, block(r)),
            "engine": lambda r: engine_games(game, n, opts, block(r)),
            "handwritten": lambda r: play_games(n, block(r))}
    cpu, work = alternate(runs, rounds)
    if not work["stepper"] == work["rollout"] == work["straight"] == work["engine"]:
        raise AssertionError(f"different games: {work}")
    return {k: cpu[k] / work[k] * 1e6 for k in runs}


# ------------------------------------------------------------------ flat-MCTS-shaped work
def positions(m: Any, game: Any, n: int, opts: Any, seeds: range, where: float) -> list[tuple]:
    """(stepper state, engine state) pairs at the same decision, `where` (0..1) into a game."""
    out = []
    for seed in seeds:
        rngs = seat_rngs(seed, n)
        length = stepper_games(m, n, range(seed, seed + 1))
        st, S = m.new(seed), game.new_game(n, opts, seed, logging=False)
        for _ in range(max(0, min(length - 1, int(length * where)))):
            i = int(rngs[st[1]].random() * len(st[2]))
            m.apply(st, i)
            S.apply(S.current_players()[0], i)
        out.append((st, S))
    return out


def stepper_playouts(m: Any, states: list, k: int, seed: int) -> int:
    clone, apply = m.clone, m.apply
    draw, decisions = random.Random(seed).random, 0
    for st0, _ in states:
        for _ in range(k):
            st = clone(st0)
            while st[0] > 0:
                apply(st, int(draw() * len(st[2])))
                decisions += 1
    return decisions


def stepper_rollouts(m: Any, states: list, k: int, seed: int) -> int:
    """The same playouts with the stepper's rollout: the root answer applied, then the agents
    asked inline to the end (nothing stops)."""
    clone, rollout, history = m.clone, m.rollout, m.history
    draw, decisions = random.Random(seed).random, 0
    agent = lambda options: int(draw() * len(options))  # noqa: E731
    for st0, _ in states:
        agents = [agent] * 8  # any seat (at most 8 players)
        start = len(history(st0))
        for _ in range(k):
            st = clone(st0)
            rollout(st, int(draw() * len(st[2])), agents)
            decisions += len(history(st)) - start
    return decisions


def engine_playouts(states: list, k: int, seed: int) -> int:
    """interpreter/agents/playout.py's RandomPlayout on a clone, as flat MCTS runs it."""
    draw, decisions = random.Random(seed).random, 0
    for _, S0 in states:
        for _ in range(k):
            S = S0.clone()
            S.logging = False
            start = S.decisions
            deciding, count, apply = S.current_players, S.option_count, S.apply_unchecked
            while not S.over:
                p = deciding()[0]
                apply(p, int(draw() * count(p)))
            decisions += S.decisions - start
    return decisions


def engine_mcts(states: list, k: int, seed: int) -> int:
    """interpreter/agents/mcts.py itself (determinization, UCB, playout): k iterations per state."""
    from interpreter.agents.mcts import MctsAgent
    for _, S0 in states:
        MctsAgent(k, seed=seed).choose(S0, S0.current_players()[0])
    return 0


def bench_mcts(game_key: str, rounds: int, playouts: int, count: int) -> list[dict]:
    path, n, opts = POKER if game_key == "chicago_poker" else SMALL[game_key]
    m, game = load_stepper(path, n, opts), Game.load(path)
    rows = []
    for where in (0.1, 0.5, 0.9):
        states = positions(m, game, n, opts, range(100, 100 + count), where)
        runs = {"stepper": lambda r: stepper_playouts(m, states, playouts, r),
                "rollout": lambda r: stepper_rollouts(m, states, playouts, r),
                "engine": lambda r: engine_playouts(states, playouts, r),
                "engine_mcts": lambda r: engine_mcts(states, playouts, r)}
        cpu, work = alternate(runs, rounds)
        if not work["stepper"] == work["rollout"] == work["engine"]:
            raise AssertionError(f"the playouts differ: {work['stepper']}, {work['rollout']} and "
                                 f"{work['engine']} decisions")
        iterations = rounds * playouts * len(states)
        rows.append({"game": game_key, "where": where, "decisions_per_playout": work["stepper"] / iterations,
                     **{f"{k}_us": cpu[k] / iterations * 1e6 for k in runs}})
    return rows


# ------------------------------------------------------------------ small games, games/s
def bench_small(rounds: int, seconds: float) -> list[dict]:
    rows = []
    for key, (path, n, opts) in SMALL.items():
        m, play, game = load_stepper(path, n, opts), load_program(path, n, opts), Game.load(path)
        ways = {"stepper": lambda s, e: stepper_games(m, n, range(s, e)),
                "straight": lambda s, e: straight_games(play, n, range(s, e)),
                "engine": lambda s, e: engine_games(game, n, opts, range(s, e))}
        rates: dict = {k: [] for k in ways}
        for r in range(rounds):
            for k in list(ways)[r % 3:] + list(ways)[:r % 3]:
                t, games = time.process_time(), 0
                while time.process_time() - t < seconds:
                    ways[k](games, games + 50)
                    games += 50
                rates[k].append(games / (time.process_time() - t))
        rate = {k: statistics.median(v) for k, v in rates.items()}
        rows.append({"game": key, **rate})
    return rows


def stepper_player(m: Any) -> Callable[[int], None]:
    """``play_one(seed)`` as tools/bench_peers.py plays a game: one Random(seed), randrange."""
    new, apply = m.new, m.apply

    def play_one(seed: int) -> None:
        rng = random.Random(seed)
        st = new(seed)
        while st[0] > 0:
            apply(st, rng.randrange(len(st[2])))
    return play_one


def bench_peers(rounds: int, seconds: float) -> list[dict]:
    """Games/s with tools/bench_peers.py's harness: stepper, straight program (as
    tools/transpile_probe.py), engine, OpenSpiel's C++ and pure-Python games."""
    from bench_peers import bench, make_rulebook
    from bench_peers_openspiel import make_openspiel_cpp, make_openspiel_python
    from transpile_probe import program_player
    rows = []
    for key, (path, n, opts) in SMALL.items():
        players = {"stepper": stepper_player(load_stepper(path, n, opts)),
                   "straight": program_player(load_program(path, n, opts)),
                   "engine": make_rulebook(logging=False)(key),
                   "openspiel_cpp": make_openspiel_cpp(key), "openspiel_python": make_openspiel_python(key)}
        samples: dict = {k: [] for k, p in players.items() if p is not None}
        for _ in range(rounds):
            for k in samples:
                samples[k].append(bench(players[k], seconds, "cpu"))
        rows.append({"game": key, **{k: statistics.median(v) for k, v in samples.items()}})
    return rows


def bench_clone(rounds: int, reps: int) -> list[dict]:
    """µs per clone of mid-game states (the same positions both ways), alternating."""
    rows = []
    for key, (path, n, opts) in {**SMALL, "chicago_poker": POKER}.items():
        m, game = load_stepper(path, n, opts), Game.load(path)
        states = positions(m, game, n, opts, range(10), 0.5)
        clone = m.clone

        def ours(r: int) -> int:
            for _ in range(reps):
                for st, _ in states:
                    clone(st)
            return reps * len(states)

        def engine(r: int) -> int:
            for _ in range(reps):
                for _, S in states:
                    S.clone()
            return reps * len(states)
        live = []  # states whose locals are in a running generator (as after an apply)
        for st, _ in states:
            st = m.clone(st)
            if st[0] > 0:
                m.apply(st, 0)
                if st[0] > 0:
                    live.append(st)
        plain = m.plain

        def whole(r: int) -> int:  # what the first clone after an apply pays on top
            for _ in range(reps):
                for st in live:
                    plain(st)
            return reps * len(live)
        cpu, work = alternate({"stepper": ours, "engine": engine, "plain": whole}, rounds)
        rows.append({"game": key, **{k: cpu[k] / work[k] * 1e6 if work[k] else float("nan") for k in cpu}})
    return rows


def cost() -> list[dict]:
    rows = []
    for key, (path, n, opts) in {**SMALL, "chicago_poker": POKER}.items():
        from interpreter.transpile import RuleFile
        loaded = RuleFile(path)
        times: dict = {"straight": [], "stepper": []}
        for _ in range(5):
            for k, make in (("straight", transpile), ("stepper", stepper_source)):
                t = time.process_time()
                src = make(loaded, n, opts)
                times[k].append(time.process_time() - t)
                times[k + "_src"] = src
        rows.append({"game": key, **{f"{k}_ms": statistics.median(times[k]) * 1e3 for k in ("straight", "stepper")},
                     **{f"{k}_lines": len(times[k + "_src"].splitlines()) for k in ("straight", "stepper")}})
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decisions", type=int, metavar="ROUNDS", help="Chicago Poker µs per decision, 4 ways")
    ap.add_argument("--games", type=int, default=20, help="games per round of --decisions")
    ap.add_argument("--mcts", type=int, metavar="ROUNDS", help="clone + random playout from early/mid/late positions")
    ap.add_argument("--mcts-games", nargs="+", default=["chicago_poker", "tic_tac_toe", "kuhn_poker"])
    ap.add_argument("--playouts", type=int, default=20, help="playouts per position and round")
    ap.add_argument("--positions", type=int, default=4, help="positions (games) per point of a game")
    ap.add_argument("--small", type=int, metavar="ROUNDS", help="tic-tac-toe and Kuhn games/s")
    ap.add_argument("--seconds", type=float, default=0.5)
    ap.add_argument("--clone", type=int, metavar="ROUNDS", help="µs per clone of mid-game states")
    ap.add_argument("--peers", type=int, metavar="ROUNDS", help="tic-tac-toe and Kuhn beside OpenSpiel")
    ap.add_argument("--cost", action="store_true", help="generation time and generated lines")
    args = ap.parse_args(argv)
    if args.decisions:
        us = bench_decisions(args.decisions, args.games)
        print("Chicago Poker, 4 players, no_special_cards, CPU µs per decision:")
        print(" | ".join(f"{k} {v:.2f}" for k, v in us.items()))
        hw = us["handwritten"]
        ratios = {f"{k} ÷ hand-written": us[k] / hw for k in ("stepper", "rollout", "straight", "engine")}
        ratios["stepper ÷ straight"] = us["stepper"] / us["straight"]
        ratios["engine ÷ stepper"] = us["engine"] / us["stepper"]
        print(", ".join(f"{k} {v:.2f}×" for k, v in ratios.items()))
    if args.mcts:
        print("| game | position | decisions/playout | stepper apply µs | stepper rollout µs "
              "| engine clone+playout µs | engine MctsAgent µs/iter | engine ÷ apply | engine ÷ rollout "
              "| MctsAgent ÷ rollout |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        for g in args.mcts_games:
            for row in bench_mcts(g, args.mcts, args.playouts, args.positions):
                print(f"| {row['game']} | {row['where']:.0%} | {row['decisions_per_playout']:.0f} "
                      f"| {row['stepper_us']:.1f} | {row['rollout_us']:.1f} | {row['engine_us']:.1f} "
                      f"| {row['engine_mcts_us']:.1f} | {row['engine_us'] / row['stepper_us']:.2f}× "
                      f"| {row['engine_us'] / row['rollout_us']:.2f}× "
                      f"| {row['engine_mcts_us'] / row['rollout_us']:.2f}× |",
                      flush=True)
    if args.small:
        print("| game | stepper games/s | straight | engine | stepper ÷ engine | stepper ÷ straight |")
        print("|---|---:|---:|---:|---:|---:|")
        for row in bench_small(args.small, args.seconds):
            print(f"| {row['game']} | {row['stepper']:,.0f} | {row['straight']:,.0f} | {row['engine']:,.0f} "
                  f"| {row['stepper'] / row['engine']:.2f}× | {row['stepper'] / row['straight']:.2f}× |")
    if args.clone:
        for row in bench_clone(args.clone, 300):
            print(f"{row['game']}: clone stepper {row['stepper']:.2f} µs (+ {row['plain']:.2f} µs the first time "
                  f"after an apply), engine {row['engine']:.2f} µs, stepper ÷ engine {row['stepper'] / row['engine']:.2f}×")
    if args.peers:
        for row in bench_peers(args.peers, args.seconds):
            rates = " | ".join(f"{k} {v:,.0f}" for k, v in row.items() if k != "game")
            cpp, py = row.get("openspiel_cpp"), row.get("openspiel_python")
            print(f"{row['game']}: {rates} games/s; stepper ÷ engine {row['stepper'] / row['engine']:.2f}×"
                  + (f", ÷ OpenSpiel C++ {row['stepper'] / cpp:.2f}×" if cpp else "")
                  + (f", ÷ OpenSpiel Python {row['stepper'] / py:.2f}×" if py else ""))
    if args.cost:
        print("| game | straight lines | stepper lines | straight ms | stepper ms |")
        print("|---|---:|---:|---:|---:|")
        for row in cost():
            print(f"| {row['game']} | {row['straight_lines']} | {row['stepper_lines']} "
                  f"| {row['straight_ms']:.1f} | {row['stepper_ms']:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
