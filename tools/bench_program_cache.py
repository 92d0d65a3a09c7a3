#!/usr/bin/env python3
"""A generated program kept on disk (interpreter/transpile/sourcecache.py) against generating it:
CPU time of `fastrun.program` from an empty in-memory state, the two alternating (the order
turned each round), the load cache warm for both; medians and their ratio.

    python tools/bench_program_cache.py                       # four big configurations
    python tools/bench_program_cache.py rules/dogs_day/game.yaml:5 --rounds 9
A configuration is PATH:PLAYERS."""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from interpreter.transpile import fastrun, sourcecache  # noqa: E402

DEFAULT = ["rules/chicago_poker/game.yaml:4", "rules/dice_town/cowboys.yaml:4",
           "rules/dogs_day/game.yaml:4", "rules/between_two_cities/capitals.yaml:3"]


def _generating(entry, variants, players, options, generate):
    """sourcecache.source with the disk left out: always generate."""
    return generate()[0]


def timed(path: str, players: int, kept: bool) -> float:
    """CPU seconds of one first use of the configuration in this process."""
    sourcecache.source = _KEPT if kept else _generating
    try:
        start = time.process_time()
        fastrun.program(path, (), players, {})
        return time.process_time() - start
    finally:
        sourcecache.source = _KEPT
        fastrun.forget()


_KEPT = sourcecache.source


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("configs", nargs="*", default=DEFAULT)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    for spec in args.configs:
        path, players = spec.rsplit(":", 1)
        timed(path, int(players), kept=True)  # warm-up, and the entry written
        times: dict = {True: [], False: []}
        for r in range(args.rounds):
            for kept in ((True, False) if r % 2 == 0 else (False, True)):
                times[kept].append(timed(path, int(players), kept))
        made, read = statistics.median(times[False]), statistics.median(times[True])
        print(f"{spec:45} generating {made * 1000:7.1f} ms  kept {read * 1000:6.1f} ms  ratio {made / read:5.1f}x")


if __name__ == "__main__":
    main()
