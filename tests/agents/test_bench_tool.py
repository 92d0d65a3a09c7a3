"""tools/bench_agents.py: Wilson intervals, the report section it rewrites, resuming a run."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import bench_agents  # noqa: E402  (a script in tools/)


@pytest.mark.parametrize("x, n, low, high", [(5, 10, 0.2366, 0.7634), (0, 10, 0.0, 0.2775),
                                             (10, 10, 0.7225, 1.0), (15, 20, 0.5313, 0.8881)])
def test_wilson_interval(x, n, low, high):
    lo, hi = bench_agents.wilson(x, n)
    assert lo == pytest.approx(low, abs=1e-4) and hi == pytest.approx(high, abs=1e-4)


def test_the_report_replaces_only_its_section_and_a_run_resumes(tmp_path, capsys):
    out = tmp_path / "agents.md"
    out.write_text(f"# Agents\n\nprose before\n\n{bench_agents.START}\nold table\n{bench_agents.END}\n"
                   "prose after\n", encoding="utf-8")
    results = tmp_path / "r.jsonl"
    args = ["--games", "1", "--budget", "2", "--depth", "2", "--only", "chicago_dry",
            "--results", str(results), "--out", str(out)]
    assert bench_agents.main(args) == 0
    rows = [json.loads(line) for line in results.read_text().splitlines()]
    assert [r["pairing"].split(" | ")[2] for r in rows] == ["random", "mcts:2,depth=2"]
    assert all(r["players"] == 2 and r["seat"] == 0 for r in rows)
    text = out.read_text()
    assert "prose before" in text and "prose after" in text and "old table" not in text
    assert "| chicago_dry | 2 | `random` | 1 |" in text and "| chicago_dry | 2 | `mcts:2,depth=2` | 1 |" in text
    assert bench_agents.main(args) == 0  # everything asked is done: nothing is played again
    assert len(results.read_text().splitlines()) == 2


def test_more_ismcts_settings_name_the_tested_agent():
    from argparse import Namespace

    assert bench_agents._tested(Namespace(budget=5, depth=3, settings="")) == "ismcts:5,depth=3"
    named = bench_agents._tested(Namespace(budget=5, depth=3, settings="playout=greedy,eps=0.5"))
    assert named == "ismcts:5,depth=3,playout=greedy,eps=0.5"


def test_a_tuning_run_plays_other_seeds_than_the_protocol():
    from argparse import Namespace

    args = Namespace(games=3, first_seed=1000, only=["chicago_dry"], opponents=["random"], budget=5, depth=3)
    tasks = bench_agents._tasks(args, {}, "ismcts:5,depth=3")
    assert [t[1] for t in tasks] == [1000, 1001, 1002]
    done = {bench_agents.pairing_key("chicago_dry", "ismcts:5,depth=3", "random"): {1001: {}}}
    assert [t[1] for t in bench_agents._tasks(args, done, "ismcts:5,depth=3")] == [1000, 1002]
