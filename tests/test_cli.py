"""The command-line contract: outputs, exit codes, errors on stderr, never a traceback."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent
GAME = str(ROOT / "tests" / "fixtures" / "high_card.yaml")


def run(*args):
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in (result.output + (result.stderr or ""))
    return result


def test_validate_ok():
    r = run("validate", GAME)
    assert r.exit_code == 0 and "ok:" in r.stdout


def test_validate_reports_file_line_col(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: {id: x, name: X, players: {min: 2, max: 3}}\nflow:\n  phases:\n"
                   "    - id: p\n      do: |\n        let a = cuont(players)\n")
    r = run("validate", str(bad))
    assert r.exit_code == 1
    assert f"{bad}:6:17: unknown function" in r.stderr


def test_play_json_has_the_contract_keys():
    r = run("play", GAME, "--players", "3", "--seed", "4", "--json")
    assert r.exit_code == 0
    data = json.loads(r.stdout)
    for key in ("game", "players", "seed", "options", "scores", "winners", "decisions"):
        assert key in data
    assert data["players"] == 3 and len(data["scores"]) == 3


def test_play_is_deterministic():
    a = run("play", GAME, "--seed", "11", "--json").stdout
    b = run("play", GAME, "--seed", "11", "--json").stdout
    assert a == b


def test_play_log_and_replay(tmp_path):
    log = tmp_path / "g.json"
    assert run("play", GAME, "--seed", "2", "--log", str(log), "--quiet").exit_code == 0
    r = run("replay", str(log), "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["reproduced"] is True


@pytest.mark.parametrize("edit, message", [
    (lambda d: d.update(decisions=d["decisions"][:-1]), "ends before the game does"),
    (lambda d: d.update(final_hash="0" * 32), "final state differs"),
    (lambda d: d["decisions"].__setitem__(0, [0, 99]), "option 99 does not exist"),
    (lambda d: d.update(rules_hash="abc"), "rule files changed"),
])
def test_replay_detects_tampering(tmp_path, edit, message):
    log = tmp_path / "g.json"
    run("play", GAME, "--seed", "2", "--log", str(log), "--quiet")
    data = json.loads(log.read_text())
    edit(data)
    log.write_text(json.dumps(data))
    r = run("replay", str(log))
    assert r.exit_code == 1 and message in r.stderr


def test_replay_of_a_corrupt_file(tmp_path):
    log = tmp_path / "g.json"
    log.write_text("{not json")
    r = run("replay", str(log))
    assert r.exit_code == 1 and f"{log}:1:2:" in r.stderr


@pytest.mark.parametrize("args, message", [
    (["--option", "rounds=9"], 'must be between 1 and 5'),
    (["--option", "rnds=2"], 'did you mean "rounds"'),
    (["--players", "7"], "2–4 players"),
    (["--agents", "random,robot"], 'unknown agent "robot"'),
])
def test_bad_play_input_exits_1(args, message):
    r = run("play", GAME, *args)
    assert r.exit_code == 1 and message in r.stderr


def test_usage_error_exits_2():
    assert run("play").exit_code == 2
    assert run("simulate", GAME).exit_code == 2


def test_simulate_json():
    r = run("simulate", GAME, "--games", "30", "--players", "3", "--json")
    data = json.loads(r.stdout)
    assert r.exit_code == 0 and data["games"] == 30 and data["errors"] == 0
    for key in ("wins_by_seat", "mean_scores", "games_per_second"):
        assert key in data
    assert sum(data["wins_by_seat"]) >= 30


def test_simulate_in_parallel_matches_serial():
    a = json.loads(run("simulate", GAME, "--games", "20", "--json", "--jobs", "1").stdout)
    b = json.loads(run("simulate", GAME, "--games", "20", "--json", "--jobs", "2").stdout)
    assert a["wins_by_seat"] == b["wins_by_seat"] and a["mean_scores"] == b["mean_scores"]


def test_test_command_runs_scenarios():
    r = run("test", str(ROOT / "tests" / "scenarios"))
    assert r.exit_code == 0 and "passed, 0 failed" in r.stdout


def test_functions_lists_builtins():
    r = run("functions")
    assert r.exit_code == 0 and "argmax" in r.stdout


def test_simulate_reports_design_metrics():
    data = json.loads(run("simulate", GAME, "--games", "40", "--players", "2", "--json").stdout)
    m = data["metrics"]
    assert m["duration"] == 6.0  # 3 rounds, 2 players, one card each
    assert m["branching_factor"] == 2.0  # hands of 3, 2, 1 cards
    assert 0 <= m["balance"] <= 1 and abs(sum(m["win_rate_by_seat"]) - 1) < 1e-9
