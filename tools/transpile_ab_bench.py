"""Random games per CPU second of two checkouts' generated programs, alternating in this one
process: this checkout's program (with its runtime) against another checkout's (its generator
run in a subprocess, its runtime.py loaded beside this one's). The same seeds and agents for
both (one random.Random(seed) drawing for every seat, as tools/bench_speed.py's games); each
round's games must come out the same on both sides (the programs play the engine's games).
Prints one line per configuration: games/s of each and this ÷ base.

    python tools/transpile_ab_bench.py --base /tmp/base-checkout rules/dice_town/game.yaml:4 \\
        rules/chicago_poker/game.yaml:2 --rounds 10 --games 8

A configuration is PATH:PLAYERS. The base checkout must have interpreter/transpile/ (stop 26 or
later); builtins and the Rng are this checkout's on both sides."""
from __future__ import annotations

import argparse
import importlib.util
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter.transpile import runtime  # noqa: E402

_GENERATE = ("import sys\nfrom interpreter.game import Game\nfrom interpreter.transpile import transpile\n"
             "g = Game.load(sys.argv[1])\nsys.stdout.write(transpile(sys.argv[1], int(sys.argv[2]), "
             "g.resolve_options({})))\n")


def source_of(root: Path, path: str, players: int) -> str:
    """The generated program of `root`'s checkout for the configuration (its load cache off)."""
    env = dict(os.environ, PYTHONPATH=str(root), RULEBOOK_CACHE="0")
    out = subprocess.run([sys.executable, "-c", _GENERATE, str(Path(path).resolve()), str(players)],
                         check=True, env=env, cwd=str(root), capture_output=True, text=True)
    return out.stdout


def runtime_of(root: Path):
    """`root`'s runtime.py as a module beside this checkout's (its relative imports: this one's)."""
    spec = importlib.util.spec_from_file_location("interpreter.transpile._base_runtime",
                                                  root / "interpreter" / "transpile" / "runtime.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def play_of(source: str, module) -> Callable:
    names = {k: v for k, v in vars(module).items() if k.startswith("_") and not k.startswith("__")}
    exec(compile(source, "<generated>", "exec"), names)
    return names["play"]


def bench(base: Path, config: str, rounds: int, games: int) -> str:
    path, players = config.rsplit(":", 1)
    n = int(players)
    plays = [play_of(source_of(base, path, n), runtime_of(base)), play_of(source_of(ROOT, path, n), runtime)]
    cpu = [0.0, 0.0]
    for r in range(rounds):
        results: list = [[], []]
        for k in ((0, 1) if r % 2 == 0 else (1, 0)):
            t = time.process_time()
            for seed in range(r * games, (r + 1) * games):
                draw = random.Random(seed).random
                results[k].append(plays[k](seed, [lambda options: int(draw() * len(options))] * n))
            cpu[k] += time.process_time() - t
        if results[0] != results[1]:
            raise AssertionError(f"{config}: round {r} plays other games on the two sides")
    total = rounds * games
    return (f"{config}: base {total / cpu[0]:.1f} games/s, this {total / cpu[1]:.1f} games/s, "
            f"this ÷ base {cpu[0] / cpu[1]:.3f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("configs", nargs="+")
    ap.add_argument("--base", required=True, help="the other checkout (a folder with interpreter/)")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--games", type=int, default=8)
    args = ap.parse_args(argv)
    for config in args.configs:
        print(bench(Path(args.base).resolve(), config, args.rounds, args.games), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
