#!/usr/bin/env python3
"""CPU per decision of generated programs (interpreter/transpile/) against the engine on the card
games (Chicago Poker, Goofspiel), alternating in this one process, the order turned each round
(issue 12, stop 26). A game the program stops (an exception: look-alike pieces offered together)
is played again by the engine, and both runs count: what `simulate` would spend.

Usage:
    python tools/transpile_cards_bench.py --rounds 6 --games 20
    python tools/transpile_cards_bench.py --guard 6   # the look-alike test's own cost (no special cards)
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.game import Game  # noqa: E402
from interpreter.state import State  # noqa: E402
from interpreter.transpile import load_program, transpile  # noqa: E402
from interpreter.transpile.compare import agent_seed  # noqa: E402
from interpreter.transpile.program import namespace  # noqa: E402

POKER = ROOT / "rules" / "chicago_poker" / "game.yaml"
GOOFSPIEL = ROOT / "rules" / "goofspiel" / "game.yaml"
CONFIGS = {"chicago_poker (no special cards, 4p)": (POKER, 4, {"no_special_cards": True}),
           "chicago_poker (full, 4p)": (POKER, 4, {}),
           "goofspiel (2p)": (GOOFSPIEL, 2, {})}


def engine_runner(game: Game, players: int, options: dict) -> Callable[[int], int]:
    def run(seed: int) -> int:
        rngs = [random.Random(agent_seed(seed, p)) for p in range(players)]
        S = game.new_game(players, options, seed, logging=False)
        while not S.over:
            for p in S.current_players():
                State.apply_unchecked(S, p, int(rngs[p].random() * S.option_count(p)))
                if S.over:
                    break
        return S.decisions
    return run


def program_runner(play: Callable, players: int, engine: Callable[[int], int]) -> Callable[[int], int]:
    """Decisions of one game played by the program, or by the engine after the program stopped."""
    def agent_of(r: random.Random) -> Callable:
        return lambda options: int(r.random() * len(options))

    def run(seed: int) -> int:
        agents = [agent_of(random.Random(agent_seed(seed, p))) for p in range(players)]
        try:
            return len(play(seed, agents)[1])
        except Exception:
            run.replays += 1
            return engine(seed)
    run.replays = 0
    return run


def alternate(runs: dict, rounds: int, games: int) -> dict:
    """CPU µs per decision of each run over the same seeds, alternating, order turned each round."""
    cpu, dec = dict.fromkeys(runs, 0.0), dict.fromkeys(runs, 0)
    names = list(runs)
    for r in range(rounds):
        seeds = range(r * games, (r + 1) * games)
        for k in names[r % len(names):] + names[:r % len(names)]:
            t = time.process_time()
            for seed in seeds:
                dec[k] += runs[k](seed)
            cpu[k] += time.process_time() - t
    return {k: (cpu[k] / dec[k] * 1e6, dec[k] / (rounds * games)) for k in runs}


def bench(rounds: int, games: int) -> None:
    for name, (path, players, options) in CONFIGS.items():
        engine = engine_runner(Game.load(path), players, options)
        program = program_runner(load_program(path, players, options), players, engine)
        res = alternate({"program": program, "engine": engine}, rounds, games)
        (p_us, p_dec), (e_us, _) = res["program"], res["engine"]
        print(f"{name}: program {p_us:.2f} µs/decision, engine {e_us:.2f} µs/decision, "
              f"engine ÷ program {e_us / p_us:.2f}× ({p_dec:.0f} decisions/game; "
              f"{program.replays}/{rounds * games} games replayed in the engine)")


def bench_guard(rounds: int, games: int) -> None:
    """The program of Chicago Poker without special cards, with and without the look-alike test."""
    path, players, options = CONFIGS["chicago_poker (no special cards, 4p)"]
    source = transpile(path, players, options)
    plain = "\n".join(line for line in source.split("\n") if "_no_lookalikes(" not in line
                      and "_ALIKES.isdisjoint" not in line)
    assert plain != source
    plays = {}
    for k, text in (("guarded", source), ("unguarded", plain)):
        names = namespace()
        exec(compile(text, f"<{k}>", "exec"), names)
        plays[k] = program_runner(names["play"], players, lambda seed: 0)
    res = alternate(plays, rounds, games)
    print(f"look-alike test: guarded {res['guarded'][0]:.3f} µs/decision, unguarded "
          f"{res['unguarded'][0]:.3f}: {res['guarded'][0] / res['unguarded'][0]:.3f}×")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--games", type=int, default=20, help="games per round")
    parser.add_argument("--guard", type=int, metavar="ROUNDS", help="measure the look-alike test only")
    args = parser.parse_args(argv)
    if args.guard:
        bench_guard(args.guard, args.games)
    else:
        bench(args.rounds, args.games)
    return 0


if __name__ == "__main__":
    sys.exit(main())
