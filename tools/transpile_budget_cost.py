"""What the generated `while` loops' work budget costs (interpreter/transpile, stop 26): the same
generated program with and without the three lines each loop adds (runtime._over_steps), played
alternately in one process with the same seeds and random agents, CPU time (time.process_time).

    python tools/transpile_budget_cost.py [--games 200] [--rounds 8]
"""
from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter.transpile import transpile  # noqa: E402
from interpreter.transpile.compare import random_agents  # noqa: E402
from interpreter.transpile.program import namespace  # noqa: E402

GAMES = [("tic_tac_toe", 2, None), ("kuhn_poker", 2, None), ("chicago_poker", 4, {"no_special_cards": True})]
_BUDGET = re.compile(r"\n *_steps \+= 1\n *if _steps > \d+:\n *_over_steps\([^\n]*\)")


def program(source: str):
    names = namespace()
    exec(compile(source, "<bench>", "exec"), names)
    return names["play"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=8)
    args = ap.parse_args()
    for name, players, options in GAMES:
        source = transpile(ROOT / "rules" / name / "game.yaml", players, options)
        bare = _BUDGET.sub("", source)
        assert "_steps += 1" in source and "_steps += 1" not in bare
        runs = {"budget": program(source), "bare": program(bare)}
        cpu = dict.fromkeys(runs, 0.0)
        for r in range(args.rounds):
            for k in (list(runs) if r % 2 else list(runs)[::-1]):
                t = time.process_time()
                for seed in range(r * args.games, (r + 1) * args.games):
                    runs[k](seed, random_agents(players, seed))
                cpu[k] += time.process_time() - t
        print(f"{name} ({players} players): with budget / without = {cpu['budget'] / cpu['bare']:.3f}")


if __name__ == "__main__":
    main()
