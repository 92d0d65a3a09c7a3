"""Agents named on the command line: `rulebook play --agents` takes every kind and setting."""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from interpreter.cli import main

GAME = str(Path(__file__).resolve().parents[1] / "fixtures" / "high_card.yaml")


def run(*args):
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in (result.output + (result.stderr or ""))
    return result


def test_play_with_search_and_greedy_agents():
    r = run("play", GAME, "--players", "3", "--seed", "2", "--json",
            "--agents", "ismcts:10,depth=4,greedy,mcts:10,c=1")
    assert r.exit_code == 0
    data = json.loads(r.stdout)
    assert len(data["scores"]) == 3 and data["winners"]


def test_play_with_a_time_budget():
    r = run("play", GAME, "--seed", "1", "--json", "--agents", "ismcts:5ms,random")
    assert r.exit_code == 0 and json.loads(r.stdout)["winners"]


def test_a_bad_agent_setting_exits_1_with_the_reason():
    r = run("play", GAME, "--agents", "ismcts:50,dept=3,random")
    assert r.exit_code == 1 and 'did you mean "depth"' in r.stderr


def test_simulate_keeps_settings_with_their_agent():
    r = run("simulate", GAME, "--games", "2", "--json", "--agents", "ismcts:5,depth=3,random")
    assert r.exit_code == 0
    data = json.loads(r.stdout)
    assert data["games"] == 2 and data["errors"] == 0
    assert set(data["wins_by_agent"]) == {"ismcts:5,depth=3", "random"}
