"""`rulebook simulate` keeps aggregates, not games: its memory does not grow with the number of
games (tools/mem_simulate.py follows the RSS of a million-game run; these are the quick checks)."""
from __future__ import annotations

import gc
import os
import tracemalloc

from interpreter.lab.backends import InlineBackend
from interpreter.lab.plan import Arm, Plan
from interpreter.lab.runner import run as run_plan

from .helpers import ROOT, run_json

KUHN = str(ROOT / "rules" / "kuhn_poker" / "game.yaml")
GROWTH = 48 * 1024  # bytes; keeping each game's record would take about 0.5 KB a game (900 KB here)


def test_memory_held_during_a_run_does_not_grow_from_game_200_to_game_2000(tmp_path):
    plan = Plan((Arm("base", KUHN),), 2, ("random", "random"), 0, 2000, cwd=os.getcwd())
    held: dict[int, int] = {}
    count = [0]

    def observe(records: list) -> None:
        count[0] += 1
        if count[0] in (200, 2000):
            gc.collect()
            held[count[0]] = tracemalloc.get_traced_memory()[0]

    run_plan(Plan(plan.arms, 2, plan.agents, 0, 50), InlineBackend(), progress=False)  # warm caches
    from interpreter.lab.store import ResultsFile
    out = ResultsFile(tmp_path / "results.jsonl", plan.describe(), resume=False)  # streamed, not kept
    tracemalloc.start()
    try:
        result = run_plan(plan, InlineBackend(), out, progress=True, observers=(observe,))
    finally:
        tracemalloc.stop()
    assert result.played == 2000 and result.tallies[0].games == 2000
    assert held[2000] - held[200] < GROWTH, held


def test_the_simulate_command_peaks_at_the_same_memory_for_200_and_2000_games():
    def peak(games: int) -> int:
        gc.collect()
        tracemalloc.start()
        try:
            code, data = run_json("simulate", KUHN, "--games", str(games))
            _, top = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert code == 0 and data["games"] == games
        return top
    run_json("simulate", KUHN, "--games", "20")  # warm caches
    small, large = peak(200), peak(2000)
    assert large < small + GROWTH, (small, large)
