"""Random games per CPU second of the generated programs of two checkouts, in ONE process,
alternating round by round (the order turned each round): this checkout's `interpreter` against
another checkout's, imported under another name (its package copied to a temporary folder as
`interpreter_base`: each side keeps its own caches). The same seeds and random agents for both;
both must play the same games (their returns, histories, winners are compared).

    python tools/bench_generated_ab.py --base /tmp/base rules/between_two_cities/capitals.yaml:3 \\
        rules/between_two_cities/game.yaml:5 --rounds 8 --games 40
    python tools/bench_generated_ab.py --again rules/between_two_cities/capitals.yaml:3 --warm 500 --games 100

With --again, this checkout alone: after --warm games, the same seeds are played twice; the
second pass finds every answer its caches keep from the first (placements, look-ahead), so the
difference is what questions not asked before cost.
A configuration is PATH:PLAYERS."""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from transpile_games_bench import agents_for  # noqa: E402


def _plays(package, path: str, players: int):
    """The generated program's `play` of a rule file, written by `package` (an interpreter)."""
    transpile = package.transpile
    source = transpile.transpile(transpile.RuleFile(path, ()), players, {})
    names = transpile.namespace()
    exec(compile(source, f"<generated {package.__name__} {path}>", "exec"), names)
    return names["play"]


def _base_package(checkout: str):
    """The other checkout's interpreter package, imported as `interpreter_base`."""
    folder = tempfile.mkdtemp(prefix="bench-generated-ab-")
    shutil.copytree(Path(checkout) / "interpreter", Path(folder) / "interpreter_base")
    sys.path.insert(0, folder)
    import interpreter_base  # noqa: F401
    import interpreter_base.transpile  # noqa: F401
    return sys.modules["interpreter_base"]


def _games(play, players: int, seeds: range) -> list:
    return [play(seed, agents_for(players, seed)) for seed in seeds]


def ab(base, new, config: str, rounds: int, games: int, warm: int) -> str:
    """One line: ms a game of each side, base ÷ new over all rounds and the rounds' range."""
    path, n = config.rsplit(":", 1)
    n = int(n)
    plays = {"base": _plays(base, path, n), "new": _plays(new, path, n)}
    for play in plays.values():
        _games(play, n, range(warm))
    cpu = {"base": 0.0, "new": 0.0}
    per = []
    for r in range(rounds):
        seeds = range(100000 + r * games, 100000 + (r + 1) * games)
        took, got = {}, {}
        for side in (("base", "new") if r % 2 == 0 else ("new", "base")):
            t = time.process_time()
            got[side] = _games(plays[side], n, seeds)
            took[side] = time.process_time() - t
            cpu[side] += took[side]
        if got["base"] != got["new"]:
            raise SystemExit(f"{config}: the two checkouts play different games")
        per.append(took["base"] / took["new"])
    played = rounds * games
    return (f"{config}: base {cpu['base'] / played * 1000:.2f} ms, new {cpu['new'] / played * 1000:.2f} ms a game, "
            f"base/new {cpu['base'] / cpu['new']:.2f} (rounds {min(per):.2f}-{max(per):.2f})")


def again(new, config: str, games: int, warm: int) -> str:
    """One line: ms a game on new seeds, then on the same seeds again (every answer kept)."""
    path, n = config.rsplit(":", 1)
    n = int(n)
    play = _plays(new, path, n)
    _games(play, n, range(warm))
    seeds = range(100000, 100000 + games)
    took = []
    for _ in range(3):
        t = time.process_time()
        _games(play, n, seeds)
        took.append((time.process_time() - t) / games * 1000)
    return f"{config}: new seeds {took[0]:.2f} ms a game, the same seeds again {took[1]:.2f} / {took[2]:.2f} ms"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", help="the other checkout (not needed with --again)")
    ap.add_argument("configs", nargs="+")
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--warm", type=int, default=0, help="games each side plays first, untimed")
    ap.add_argument("--again", action="store_true")
    args = ap.parse_args(argv)
    os.environ["RULEBOOK_CACHE"] = "0"  # both sides write their programs afresh
    import interpreter.transpile  # noqa: F401
    new = sys.modules["interpreter"]
    if args.again:
        for config in args.configs:
            print(again(new, config, args.games, args.warm), flush=True)
        return 0
    if not args.base:
        ap.error("--base is needed (or --again)")
    base = _base_package(args.base)
    for config in args.configs:
        print(ab(base, new, config, args.rounds, args.games, args.warm), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
