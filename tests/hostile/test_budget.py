"""The resource budget (interpreter/budget.py): defaults, per-file `limits:`, `--limit`, ceilings."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from interpreter import budget
from interpreter.cli import main
from interpreter.errors import RuleRuntimeError, RulebookError
from interpreter.game import Game

from .corpus import game


@pytest.fixture(autouse=True)
def _no_cli_limits():
    budget.clear_cli_limits()
    yield
    budget.clear_cli_limits()


def _new(tmp_path, text):
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    return Game.load(path).new_game(2)


WORK = "let x = count(range(1000), a => count(range(1000), b => a == b))"  # a million elements


def test_work_inside_one_expression_is_counted(tmp_path):
    _new(tmp_path, game(WORK))  # a million is within the default budget
    with pytest.raises(RuleRuntimeError) as exc:
        _new(tmp_path, game(WORK, extra="limits: {work: 100000}"))
    assert exc.value.code == "E310"
    assert "limit `work`" in exc.value.message and "limits: {work: N}" in exc.value.message
    assert exc.value.pos.line == 14  # the setup statement that did the work


def test_command_line_limit_wins_over_the_file(tmp_path):
    budget.set_cli_limit("work", 10_000_000)
    _new(tmp_path, game(WORK, extra="limits: {work: 100000}"))
    budget.clear_cli_limits()
    budget.set_cli_limit("work", 5000)
    with pytest.raises(RuleRuntimeError, match="limit `work`"):
        _new(tmp_path, game(WORK))


def test_sequence_limit_is_exact(tmp_path):
    ok = game('let s = "xxxxx" + "xxxxx"', extra="limits: {sequence: 10}")
    _new(tmp_path, ok)
    with pytest.raises(RuleRuntimeError) as exc:
        _new(tmp_path, game('let s = "xxxxx" + "xxxxxx"', extra="limits: {sequence: 10}"))
    assert exc.value.code == "E314"


def test_list_append_in_a_loop_is_bounded(tmp_path):
    with pytest.raises(RuleRuntimeError) as exc:
        _new(tmp_path, game("let s = [1]\nwhile true:\n  s += [1]", extra="limits: {sequence: 1000}"))
    assert exc.value.code == "E314"


def test_numbers_still_add(tmp_path):
    S = _new(tmp_path, game("let s = 1\nrepeat 40:\n  s = s + s\npoints[players[0]] = s"))
    assert S.counters["points:0"] == 2 ** 40


def test_adding_a_whole_number_counts_on_numbers_and_fails_located_on_a_list(tmp_path):
    # `x += 1` is compiled without the size check: only a number, or this error, can come of it
    S = _new(tmp_path, game("let s = 2\nrepeat 3:\n  s += 1\n  s += (-3)\npoints[players[0]] = s"))
    assert S.counters["points:0"] == -4
    with pytest.raises(RuleRuntimeError) as exc:
        _new(tmp_path, game("let s = [1]\ns += 1"))
    assert exc.value.code == "E300"
    assert exc.value.pos.line == 15  # the `+=` statement


def test_text_formatting_with_percent_is_refused(tmp_path):
    with pytest.raises(RuleRuntimeError, match="% works on numbers"):
        _new(tmp_path, game('let s = "%09d" % 1'))


def test_pieces_limit_from_the_file(tmp_path):
    extra = "components:\n  chip:\n    kind: token\n    start: deck\n    items:\n      - {id: chip, count: 50}"
    _new(tmp_path, game(extra=extra))
    with pytest.raises(RulebookError) as exc:
        _new(tmp_path, game(extra=extra + "\nlimits: {pieces: 20}"))
    assert exc.value.code == "E304"


def test_a_file_limit_above_the_ceiling_is_a_schema_error(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(game(extra="limits: {steps: 1000000000000}"), encoding="utf-8")
    with pytest.raises(RulebookError) as exc:
        Game.load(path)
    assert "limits.steps" in str(exc.value) and "[E010]" in str(exc.value)


@pytest.mark.parametrize("flag", ["work=0", "work=99999999999999", "nope=3", "work"])
def test_bad_limit_flags_are_usage_errors(flag, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game.yaml").write_text(game(), encoding="utf-8")
    result = CliRunner().invoke(main, ["--limit", flag, "validate", "game.yaml"])
    assert result.exit_code == 2, result.output


def test_every_limit_has_a_default_within_its_ceiling_and_a_doc_line():
    from pathlib import Path
    doc = (Path(__file__).resolve().parents[2] / "docs" / "robustness.md").read_text(encoding="utf-8")
    for lim in budget.LIMITS.values():
        assert 1 <= lim.default <= lim.ceiling
        assert f"`{lim.name}`" in doc, lim.name


def test_log_is_written_atomically(tmp_path, monkeypatch):
    from interpreter import runner
    path = tmp_path / "log.json"
    runner.save_log(path, {"a": 1})
    assert json.loads(path.read_text()) == {"a": 1}

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(runner.os, "replace", broken_replace)
    with pytest.raises(RulebookError) as exc:
        runner.save_log(path, {"a": 2})
    assert exc.value.code == "E501"
    assert json.loads(path.read_text()) == {"a": 1}  # the old log is intact
    assert [p.name for p in tmp_path.iterdir()] == ["log.json"]  # no temporary file left


def test_log_path_is_checked_before_the_game_is_played(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game.yaml").write_text(game(), encoding="utf-8")
    played = []
    monkeypatch.setattr("interpreter.runner.play_game", lambda *a, **k: played.append(1))
    result = CliRunner().invoke(main, ["play", "game.yaml", "--log", "missing/log.json"])
    assert result.exit_code == 1 and "[E501]" in result.stderr
    assert not played


def test_a_played_log_replays(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game.yaml").write_text(game(), encoding="utf-8")
    assert CliRunner().invoke(main, ["play", "game.yaml", "--quiet", "--log", "log.json"]).exit_code == 0
    result = CliRunner().invoke(main, ["replay", "log.json"])
    assert result.exit_code == 0, result.output


def test_schema_limits_match_the_budget():
    from interpreter.paths import schema_path
    props = json.loads(open(schema_path(), encoding="utf-8").read())["properties"]["limits"]["properties"]
    per_file = {n for n, lim in budget.LIMITS.items() if lim.per_file}
    assert set(props) == per_file
    for name, spec in props.items():
        assert spec["maximum"] == budget.LIMITS[name].ceiling


def test_a_local_shadowing_a_counter_is_not_taken_for_a_number(tmp_path):
    with pytest.raises(RuleRuntimeError) as exc:
        _new(tmp_path, game('let points = "xx"\nrepeat 40:\n  points = points + points'))
    assert exc.value.code == "E314"


def test_an_interrupted_game_keeps_its_log(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game.yaml").write_text(game(), encoding="utf-8")

    class StopAfterOne:
        def __init__(self):
            self.calls = 0

        def choose(self, S, p):
            self.calls += 1
            if self.calls > 1:
                raise KeyboardInterrupt
            return 0
    agent = StopAfterOne()
    monkeypatch.setattr("interpreter.agents.make_agents", lambda *a, **k: [agent, agent])
    result = CliRunner().invoke(main, ["play", "game.yaml", "--quiet", "--log", "log.json"])
    assert result.exit_code == 130
    data = json.loads((tmp_path / "log.json").read_text())
    assert data["decisions"] == [[0, 0]] and data["error"] == "interrupted"
