"""Random games per CPU second: a rule file's generated program (interpreter/transpile/) against
the engine, alternating in this one process (the order turned each round), the same seeds and
random agents for both (as tools/transpile_probe.py's bench_poker runs the engine: logging off,
apply_unchecked). Prints one line per configuration: games/s of each and their ratio.

    python tools/transpile_games_bench.py rules/liars_dice/game.yaml:2 rules/dice_town/game.yaml:3 \\
        rules/dice_town/cowboys.yaml:4 --option dice=1 --rounds 6 --games 20
A configuration is PATH:PLAYERS[:VARIANT,...]."""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from interpreter.game import Game  # noqa: E402
from interpreter.state import State  # noqa: E402
from interpreter.transpile import RuleFile, load_program  # noqa: E402


def agents_for(players: int, seed: int) -> list:
    rngs = [random.Random(seed * 1009 + p) for p in range(players)]
    return [lambda options, r=r: int(r.random() * len(options)) for r in rngs]


def engine_games(game, players: int, options: dict, seeds: range) -> int:
    decisions = 0
    for seed in seeds:
        S = game.new_game(players, options, seed, logging=False)
        rngs = [random.Random(seed * 1009 + p) for p in range(players)]
        while not S.over:
            for p in S.current_players():
                State.apply_unchecked(S, p, int(rngs[p].random() * S.option_count(p)))
                if S.over:
                    break
        decisions += S.decisions
    return decisions


def program_games(play, players: int, seeds: range) -> int:
    return sum(len(play(seed, agents_for(players, seed))[1]) for seed in seeds)


def bench(config: str, options: dict, rounds: int, games: int) -> str:
    path, players, *rest = config.split(":")
    variants = tuple(rest[0].split(",")) if rest else ()
    n = int(players)
    game = Game.load(path, variants=variants)
    play = load_program(RuleFile(path, variants), n, options)
    cpu, dec = [0.0, 0.0], [0, 0]
    runs = [lambda s: engine_games(game, n, options, s), lambda s: program_games(play, n, s)]
    for r in range(rounds):
        seeds = range(r * games, (r + 1) * games)
        for k in ((0, 1) if r % 2 == 0 else (1, 0)):
            t = time.process_time()
            dec[k] += runs[k](seeds)
            cpu[k] += time.process_time() - t
    total = rounds * games
    engine, program = total / cpu[0], total / cpu[1]
    return (f"{config} {json.dumps(options)}: engine {engine:.1f} games/s, generated {program:.1f} games/s, "
            f"{program / engine:.1f}x ({dec[0] / total:.0f} / {dec[1] / total:.0f} decisions a game)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("configs", nargs="+")
    ap.add_argument("--option", action="append", default=[],
                    help="KEY=VALUE (a JSON value), for every configuration")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--games", type=int, default=10)
    args = ap.parse_args(argv)
    options = {k: json.loads(v) for k, v in (o.split("=", 1) for o in args.option)}
    for config in args.configs:
        print(bench(config, options, args.rounds, args.games), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
