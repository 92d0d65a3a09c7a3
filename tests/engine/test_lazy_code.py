"""A load for checking only (`rulebook validate`) compiles generated Python when it is first
run (interpreter/pycode.py): it finds the same errors, the game it gives plays the same games,
and the load cache keeps serving a later `play`."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from interpreter import pycode
from interpreter.errors import RulebookError, flatten
from interpreter.loader import load_game
from interpreter.loadcache import read_cache_file

from .test_loadcache import FAILS_IN_PLAY, ROOT, _cache_files, _play, _runtime_error, cache_home  # noqa: F401

DOGS = ROOT / "rules" / "dogs_day" / "game.yaml"


@pytest.fixture()
def compiled(monkeypatch) -> list:
    calls: list = []
    monkeypatch.setattr(pycode, "compile", lambda *a: calls.append(a) or compile(*a), raising=False)
    return calls


def test_a_stand_in_becomes_the_real_function_when_first_called(compiled):
    env: dict = {"K": 5}
    with pycode.memo(None, lazy=True):
        f = pycode.make_function("def _g(S, x=2):\n    return S + x + K\n", "<rule g.yaml:3:4>", env, "_g")
        h = pycode.make_function("lambda S, L: S * L", "<rule g.yaml:5:6>", env)
        div = pycode.make_function("lambda S, L: S // L", "<rule g.yaml:7:1>", env)
    assert compiled == []
    assert f(1) == 8 and h(3, 4) == 12
    assert len(compiled) == 2
    assert f.__code__.co_filename == "<rule g.yaml:3:4>" and f.__defaults__ == (2,)
    assert f.__name__ == "_g" and h.__name__ == "<lambda>"
    assert f(1, 0) == 6 and len(compiled) == 2  # the same object, now plain: nothing compiled again
    with pytest.raises(ZeroDivisionError) as info:  # raised on the first call: from the rule's code
        div(1, 0)
    assert info.traceback[-1].frame.code.raw.co_filename == "<rule g.yaml:7:1>"


def test_what_python_might_refuse_is_compiled_at_once(compiled):
    deep = "lambda S, L: " + "(" * 150 + "1" + ")" * 150
    too_deep = "lambda S, L: " + "(" * 250 + "1" + ")" * 250
    with pycode.memo(None, lazy=True):
        pycode.make_function(deep, "<rule x>", {})
        assert len(compiled) == 1
        with pytest.raises(SyntaxError):
            pycode.make_function(too_deep, "<rule x>", {})


@pytest.mark.parametrize("source, sure", [
    ("lambda S, L: _f(S, L['a'], [1, 2], {3: 4})", True),
    ("lambda S, L: " + "(" * 99 + "1" + ")" * 99, True),
    ("lambda S, L: " + "(" * 101 + "1" + ")" * 101, False),
    ("lambda S, L: '('", False),  # a bracket inside a string: not counted on
    ("def _f(S):\n" + "".join(" " * i + f"if S > {i}:\n" for i in range(1, 17)) + " " * 17 + "return 1\n", False),
    ("def _f(S):\n" + "".join(" " * i + f"if S > {i}:\n" for i in range(1, 15)) + " " * 15 + "return 1\n", True),
    ("lambda S, L: " + "+".join(["1"] * 3000), False),  # long
])
def test_what_surely_compiles(source, sure):
    assert pycode._surely_compiles(source) is sure
    if sure:
        compile(source, "<x>", "eval" if source.startswith("lambda") else "exec")


def test_a_check_only_load_compiles_nothing_and_plays_the_same_games(compiled, monkeypatch):
    monkeypatch.setenv("RULEBOOK_CACHE", "0")
    checked = load_game(DOGS, check_only=True)
    assert compiled == []
    full = load_game(DOGS)
    assert compiled
    for seed in (1, 2):
        assert _play(checked, 4, seed) == _play(full, 4, seed)


def test_a_check_only_load_finds_the_same_errors(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEBOOK_CACHE", "0")
    path = tmp_path / "game.yaml"
    path.write_text(FAILS_IN_PLAY.replace("points[player] += x", "points[player] += y\n        pointz[player] = 1"),
                    encoding="utf-8")

    def errors(**kw) -> list[str]:
        with pytest.raises(RulebookError) as info:
            load_game(path, **kw)
        return [str(e) for e in flatten([info.value])]

    found = errors(check_only=True)
    assert found == errors() and len(found) == 2
    assert all(f"{path}:" in e for e in found)


def _checked_then_played(path, monkeypatch) -> str:
    from interpreter.errors import RuleRuntimeError
    from interpreter.game import Game

    S = Game(load_game(path, check_only=True)).new_game(2, {}, 1)
    with pytest.raises(RuleRuntimeError) as info:  # scoring, when the second player has chosen
        while True:
            S.apply(S.current_players()[0], 0)
    return str(info.value)


def test_after_a_check_only_load_a_runtime_error_names_the_rule(tmp_path, cache_home, monkeypatch):
    """Also when the cache holds the code from before an edit that moved the rule."""
    path = tmp_path / "game.yaml"
    path.write_text(FAILS_IN_PLAY, encoding="utf-8")
    first = _runtime_error(path, monkeypatch, "1")  # a play: the cache holds the compiled code
    assert f"{path}:13:" in first
    assert _checked_then_played(path, monkeypatch) == first
    path.write_text("# moved\n# down\n" + FAILS_IN_PLAY, encoding="utf-8")
    moved = _checked_then_played(path, monkeypatch)
    assert f"{path}:15:" in moved and moved == _runtime_error(path, monkeypatch, "0")


def _rulebook(*args: str, cache: str) -> str:
    env = {**os.environ, "XDG_CACHE_HOME": cache, "RULEBOOK_CACHE": "1"}
    done = subprocess.run([sys.executable, "-m", "interpreter", *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, check=True)
    return done.stdout


def test_validate_then_play_in_new_processes(tmp_path):
    """A first validate leaves no compiled code in the cache (it compiled none); the play after
    it compiles and keeps it; a later validate keeps it too; every play is the same game."""
    cache = str(tmp_path / "cache")
    play = ("play", str(DOGS), "--seed", "5", "--json")
    fresh = subprocess.run([sys.executable, "-m", "interpreter", *play], cwd=ROOT, check=True,
                           env={**os.environ, "RULEBOOK_CACHE": "0"}, capture_output=True, text=True).stdout
    assert "ok:" in _rulebook("validate", str(DOGS), cache=cache)
    [written] = _cache_files(tmp_path / "cache" / "rulebook")
    assert read_cache_file(written)["codes"] == {} and read_cache_file(written)["trees"]
    assert _rulebook(*play, cache=cache) == fresh
    codes = read_cache_file(written)["codes"]
    assert codes
    assert "ok:" in _rulebook("validate", str(DOGS), cache=cache)
    assert read_cache_file(written)["codes"] == codes
    assert _rulebook(*play, cache=cache) == fresh


def test_validate_still_reports_code_python_refuses(tmp_path, monkeypatch):
    """A rule nested more deeply than Python compiles (allowed by a raised `nesting` limit) is
    an E299 error at load; validate, which compiles almost nothing, still reports it."""
    from click.testing import CliRunner

    from interpreter.cli import main

    monkeypatch.setenv("RULEBOOK_CACHE", "0")
    path = tmp_path / "game.yaml"
    deep = "+".join(["points[player]"] * 300)
    path.write_text(FAILS_IN_PLAY.replace(
        "scoring:", f'functions:\n  f:\n    params: []\n    expr: "{deep}"\nscoring:'), encoding="utf-8")
    from interpreter.budget import clear_cli_limits

    try:
        validated = CliRunner().invoke(main, ["--limit", "nesting=1000", "validate", str(path)])
        played = CliRunner().invoke(main, ["--limit", "nesting=1000", "play", str(path), "--quiet"])
    finally:
        clear_cli_limits()  # the limit set by the command line must not outlive this test
    assert validated.exit_code == played.exit_code == 1
    assert "[E299]" in validated.output and validated.output == played.output
