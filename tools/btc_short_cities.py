#!/usr/bin/env python3
"""Short cities in random Between Two Cities games (the owner's ruling on "a tua cidade deve
formar uma grelha 5x5": the target is none).

Plays random games (every decision a uniformly random legal option, seeds first..first+N-1, the
same seed for the game and the random choices) and counts the cities that end with fewer
buildings than a full city (16 squares in the base game's 4×4; 20 in Capitals' 5×5 with the mat's
5 unbuildable spaces), and the tiles discarded because they fit nowhere. Prints a Markdown table
(rows as in rules/between_two_cities/AUDIT.md, section 7); progress goes to stderr.

Usage:
    python tools/btc_short_cities.py                      # Capitals (every module), seeds 0–299
    python tools/btc_short_cities.py --games 30 rules/between_two_cities/game.yaml
    python tools/btc_short_cities.py --full 20 --players 5 path/to/capitals.yaml
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.errors import RulebookError  # noqa: E402
from interpreter.game import Game  # noqa: E402

CAPITALS = ROOT / "rules" / "between_two_cities" / "capitals.yaml"
FULL_BY_FILE = {"game.yaml": 16, "capitals.yaml": 20}   # squares of a full city, by rule file name


def play(game: Game, players: int, seed: int):
    """One random game, to its end; the final state."""
    S = game.new_game(players, {}, seed)
    rng = random.Random(seed)
    while not S.is_terminal():
        p = S.current_players()[0]
        S.apply(p, rng.randrange(len(S.legal_actions(p))))
    return S


def city_sizes(S, players: int) -> list[int]:
    """Buildings (squares covered) in each city."""
    zones = S.lay.zone_index["city"]
    return [len(S.grid.get(zones[i], {})) for i in range(players)]


def measure(game: Game, path: Path, games: int, first: int, players: int, full: int) -> dict:
    short: dict[int, int] = {}
    discards = 0
    start = time.process_time()
    for g in range(games):
        seed = first + g
        S = play(game, players, seed)
        for n in city_sizes(S, players):
            if n < full:
                short[n] = short.get(n, 0) + 1
        discards += sum(1 for line in S.log_lines(None) if "fits nowhere" in str(line))
        if (g + 1) % 25 == 0:
            print(f"  {path.name}: {g + 1}/{games} games, {sum(short.values())} short cities",
                  file=sys.stderr)
    return {"games": games, "cities": games * players, "short": short, "discards": discards,
            "cpu": time.process_time() - start}


def row(label: str, r: dict) -> str:
    n = sum(r["short"].values())
    pct = 100.0 * n / r["cities"] if r["cities"] else 0.0
    sizes = ", ".join(f"{c} with {s}" for s, c in sorted(r["short"].items(), reverse=True))
    return (f"| {label} | {r['games']} | {r['cities']} | {n} ({pct:.2f} %)"
            f"{': ' + sizes if sizes else ''} | {r['discards']} |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rules", nargs="*", type=Path, default=[CAPITALS], help="rule files (default: Capitals)")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--full", type=int, help="squares of a full city (default: 16 for game.yaml, 20 for capitals.yaml)")
    args = ap.parse_args(argv)
    lines = ["| rules | games | cities | short cities | tiles discarded as unplaceable |",
             "|---|---:|---:|---:|---:|"]
    for path in args.rules:
        full = args.full or FULL_BY_FILE.get(path.name)
        if full is None:
            ap.error(f"{path}: say how many squares a full city has (--full)")
        try:
            game = Game.load(path)
        except (RulebookError, OSError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
        if not game.id.startswith("between_two_cities"):
            print(f"error: {path} is {game.id}, not Between Two Cities", file=sys.stderr)
            return 1
        r = measure(game, path, args.games, args.first_seed, args.players, full)
        last = args.first_seed + args.games - 1
        name = path.resolve().relative_to(ROOT) if path.resolve().is_relative_to(ROOT) else path
        lines.append(row(f"{name}, seeds {args.first_seed}–{last}", r))
        print(f"  {path}: {r['cpu']:.1f} s CPU", file=sys.stderr)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
