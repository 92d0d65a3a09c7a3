#!/usr/bin/env python3
"""Rewrite the lists of configurations the generated programs do not play
(tests/engine/data/transpile_uncovered.txt and transpile_fallback.txt, checked by
tests/engine/test_transpiled_all.py) for the generator as it is now:

    python tools/transpile_coverage.py            # rewrite both lists (200 seeds each)
    python tools/transpile_coverage.py --check    # say what would change, exit 1 if anything

A configuration is uncovered when the generator refuses it (Unsupported); it is a fallback one
when its program raises on one of the first 200 seeds (a construct refused when reached): such
games are replayed in the engine. Games the program finishes are compared with the engine's by
the test, not here."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "engine")]

import test_transpiled_all as t  # noqa: E402

from interpreter.transpile import Unsupported  # noqa: E402
from interpreter.transpile.compare import fast_trace  # noqa: E402

HEADERS = {
    "transpile_uncovered.txt":
        "# Configurations (rule file|variants|players|options) the generator refuses (Unsupported):\n"
        "# the engine plays them. One line each; rewrite with tools/transpile_coverage.py.\n",
    "transpile_fallback.txt":
        "# Configurations the generator covers whose program raises on some of the first 200 seeds\n"
        "# (a construct refused when reached): those games are replayed in the engine.\n"
        "# One line each; rewrite with tools/transpile_coverage.py.\n",
}


def lists(seeds: int) -> dict[str, list[str]]:
    uncovered, fallback = [], []
    for key, _entry, _variants, players, _opts in t._configurations():
        play = t._program(key)
        if isinstance(play, Unsupported):
            uncovered.append(key)
            continue
        if isinstance(play, Exception):  # a generator bug: test_the_generator_fails_only_by_refusing
            print(f"{key}: the generator failed: {play!r}", file=sys.stderr)
            continue
        for seed in range(seeds):
            try:
                fast_trace(play, players, seed)
            except Exception:  # noqa: BLE001 - any exception: the engine replays that game
                fallback.append(key)
                break
    return {"transpile_uncovered.txt": sorted(uncovered), "transpile_fallback.txt": sorted(fallback)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="only say what would change")
    ap.add_argument("--seeds", type=int, default=t.SLOW_SEEDS)
    args = ap.parse_args()
    changed = False
    for name, keys in lists(args.seeds).items():
        old = t._listed(name)
        for key in sorted(set(keys) - old):
            print(f"{name}: + {key}")
        for key in sorted(old - set(keys)):
            print(f"{name}: - {key}")
        changed |= old != set(keys)
        if not args.check:
            (t.DATA / name).write_text(HEADERS[name] + "".join(k + "\n" for k in keys), encoding="utf-8")
    return 1 if changed and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
