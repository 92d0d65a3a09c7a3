"""The load cache (interpreter/loadcache.py): a warm load gives exactly the game a fresh load
gives, and a changed file is checked in full again, with its errors where the author wrote them."""
from __future__ import annotations

import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter import loadcache
from interpreter.loadcache import encode_cache_file, read_cache_file
from interpreter.errors import RulebookError, flatten
from interpreter.game import Game
from interpreter.loader import load_game
from interpreter.runner import play_game

ROOT = Path(__file__).resolve().parents[2]
KUHN = ROOT / "rules" / "kuhn_poker" / "game.yaml"


@pytest.fixture()
def cache_home(tmp_path, monkeypatch):
    home = tmp_path / "cache-home"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    monkeypatch.setenv("RULEBOOK_CACHE", "1")
    return home / "rulebook"


class _Random:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, state, player):
        return self.rng.randrange(state.option_count(player))


def _play(definition, players: int, seed: int):
    game = Game(definition)
    played = play_game(game, players, {}, seed, [_Random(seed * 10 + i) for i in range(players)])
    S = played.state
    return S.log_lines(), S.returns(), S.hash(), played.decisions


def _errors(path, monkeypatch, cache: str) -> list[str]:
    monkeypatch.setenv("RULEBOOK_CACHE", cache)
    with pytest.raises(RulebookError) as info:
        load_game(path)
    return [str(e) for e in flatten([info.value])]


def _cache_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("load-*.pickle")) if folder.exists() else []


@pytest.mark.parametrize("rel, players", [("kuhn_poker/game.yaml", 2), ("tic_tac_toe/game.yaml", 2),
                                          ("dice_town/cowboys.yaml", 3)])
def test_a_warm_load_plays_the_same_games(rel, players, cache_home, monkeypatch):
    path = ROOT / "rules" / rel
    monkeypatch.setenv("RULEBOOK_CACHE", "0")
    fresh = load_game(path)
    assert _cache_files(cache_home) == []  # the cache off: nothing written
    monkeypatch.setenv("RULEBOOK_CACHE", "1")
    load_game(path)  # fills the cache
    [written] = _cache_files(cache_home)
    data = read_cache_file(written)
    assert data["schema_ok"] and data["flow_warnings"] is not None and data["trees"] and data["codes"]
    assert written.stat().st_size * 2 < len(pickle.dumps(data))  # stored compressed
    warm = load_game(path)
    for seed in range(3):
        assert _play(warm, players, seed) == _play(fresh, players, seed)


def _placed_parses(path, monkeypatch, cache: str) -> dict:
    """Every parse of a load, by text and place, as the compiler and the flow check got it."""
    from interpreter.loader import _load_document, build_game
    from interpreter.parser import memo

    monkeypatch.setenv("RULEBOOK_CACHE", cache)
    doc, files, lc = _load_document(path, ())
    with memo(lc.parses, lc.trees):
        build_game(doc, files)
    reused[0] = len(lc.trees.keys() & lc.trees.earlier.keys()) if lc.trees is not None else 0
    lc.save()
    return lc.parses


reused = [0]  # trees of the last _placed_parses taken from the cache


def test_cached_trees_give_exactly_the_trees_of_fresh_parses(tmp_path, cache_home, monkeypatch):
    path = tmp_path / "game.yaml"
    path.write_text(KUHN.read_text(encoding="utf-8"), encoding="utf-8")
    _placed_parses(path, monkeypatch, "1")  # fills the cache
    warm = _placed_parses(path, monkeypatch, "1")
    fresh = _placed_parses(path, monkeypatch, "0")
    assert warm.keys() == fresh.keys() and len(fresh) > 10
    assert all(warm[k] == fresh[k] for k in fresh)  # trees and every position in them
    # an edit that moves every string (two lines on top, one more indented block): the trees
    # are reused, and their positions are those of the new places
    text = KUHN.read_text(encoding="utf-8")
    path.write_text("# a comment\n# another\n" + text.replace("      reveal zones(hand) to players\n",
                                                              "      reveal zones(hand) to players\n      let unused = 1\n"),
                    encoding="utf-8")
    moved = _placed_parses(path, monkeypatch, "1")
    assert reused[0] >= len(fresh) - 2  # all but the new statement's block were not parsed again
    fresh = _placed_parses(path, monkeypatch, "0")
    assert moved.keys() == fresh.keys()
    assert all(moved[k] == fresh[k] for k in fresh)
    assert any(k[3] > 2 for k in fresh)  # (…, file, line, …): positions did move


SCHEMA_SLIP = ("game:\n", "game:\n  nmae: oops\n")
DSL_SLIP = ("bets += 1", "bets += 1 +")  # a syntax error inside a block scalar


@pytest.mark.parametrize("edit", ["schema", "dsl", "leak"])
def test_an_edited_file_is_checked_again(edit, tmp_path, cache_home, monkeypatch):
    good = KUHN.read_text(encoding="utf-8")
    path = tmp_path / "game.yaml"
    path.write_text(good, encoding="utf-8")
    load_game(path)  # now cached as passing every check
    if edit == "leak":  # a player's choice reads the other player's hidden card
        bad = (ROOT / "tests" / "fixtures" / "leaky" / "kuhn_peek.yaml").read_text(encoding="utf-8")
    else:
        old, new = SCHEMA_SLIP if edit == "schema" else DSL_SLIP
        assert old in good
        bad = good.replace(old, new, 1)
    path.write_text(bad, encoding="utf-8")
    with_cache = _errors(path, monkeypatch, "1")
    without = _errors(path, monkeypatch, "0")
    assert with_cache == without
    assert with_cache and all(e.startswith(f"{path}:") or e.startswith(str(path.name)) for e in with_cache)
    assert all(e.split(":")[1].isdigit() for e in with_cache)  # file:line:col
    with_cache_again = _errors(path, monkeypatch, "1")  # a failure is never cached as a pass
    assert with_cache_again == without


def test_a_damaged_cache_file_is_ignored_and_rewritten(cache_home):
    load_game(KUHN)
    [written] = _cache_files(cache_home)
    written.write_bytes(b"not a pickle")
    load_game(KUHN)
    assert read_cache_file(written)["flow_warnings"] == []


def test_one_cache_file_per_rule_file_and_a_bounded_folder(tmp_path, cache_home, monkeypatch):
    path = tmp_path / "game.yaml"
    for text in ("", "# edited\n", "# edited again\n"):
        path.write_text(KUHN.read_text(encoding="utf-8") + text, encoding="utf-8")
        load_game(path)
    assert len(_cache_files(cache_home)) == 1  # edits overwrite the file's entry
    monkeypatch.setattr(loadcache, "MAX_FILES", 2)
    for i in range(3):
        other = tmp_path / f"copy{i}.yaml"
        other.write_text(KUHN.read_text(encoding="utf-8"), encoding="utf-8")
        load_game(other)
    assert len(_cache_files(cache_home)) == 2


def test_a_warm_load_imports_neither_the_schema_checker_nor_the_flow_check(cache_home):
    code = ("import sys; from interpreter.loader import load_game; load_game(sys.argv[1]); "
            "print(sorted(m for m in ('jsonschema', 'interpreter.infoflow') if m in sys.modules))")
    env_run = dict(capture_output=True, text=True, check=True, cwd=ROOT)
    import os
    env = {**os.environ, "XDG_CACHE_HOME": str(cache_home.parent), "RULEBOOK_CACHE": "1"}
    cold = subprocess.run([sys.executable, "-c", code, str(KUHN)], env=env, **env_run).stdout.strip()
    warm = subprocess.run([sys.executable, "-c", code, str(KUHN)], env=env, **env_run).stdout.strip()
    assert cold == "['interpreter.infoflow', 'jsonschema']"
    assert warm == "[]"


def test_the_flow_checks_warnings_come_back_from_the_cache(cache_home, monkeypatch):
    leaky = ROOT / "tests" / "fixtures" / "leaky" / "leaky_custom_visibility.yaml"

    def warnings(cache: str) -> list[str]:
        monkeypatch.setenv("RULEBOOK_CACHE", cache)
        return [str(w) for w in load_game(leaky).warnings]

    fresh = warnings("0")
    assert any("[E246]" in w for w in fresh)
    assert warnings("1") == fresh  # checked, and recorded
    assert warnings("1") == fresh  # from the cache, in the same order


FAILS_IN_PLAY = """\
game: {id: g, name: G, players: {min: 2, max: 2}}
counters:
  points: {per: [player], initial: 0}
flow:
  rounds: 1
  phases:
    - id: main
      turns: seat
      turn: |
        choose x from [1, 2] prompt "Pick"
        points[player] += x
scoring:
  score: points[player] // (points[player] - points[player])
"""


def _runtime_error(path, monkeypatch, cache: str) -> str:
    from interpreter.errors import RuleRuntimeError

    monkeypatch.setenv("RULEBOOK_CACHE", cache)
    S = Game(load_game(path)).new_game(2, {}, 1)
    with pytest.raises(RuleRuntimeError) as info:  # scoring, when the second player has chosen
        while True:
            S.apply(S.current_players()[0], 0)
    return str(info.value)


def test_cached_code_is_compiled_nowhere_and_fails_where_the_edited_file_says(tmp_path, cache_home, monkeypatch):
    """Generated Python is kept compiled (interpreter/pycode.py); a runtime error inside it names
    the rule's place in the file as it is now, also after an edit moved that rule."""
    from interpreter import pycode

    path = tmp_path / "game.yaml"
    path.write_text(FAILS_IN_PLAY, encoding="utf-8")
    first = _runtime_error(path, monkeypatch, "1")  # fills the cache
    assert f"{path}:13:" in first and "[E300]" in first
    compiled: list = []
    monkeypatch.setattr(pycode, "compile", lambda *a: compiled.append(a) or compile(*a), raising=False)
    assert _runtime_error(path, monkeypatch, "1") == first
    assert compiled == []  # every piece of code came from the cache
    path.write_text("# moved\n# down\n" + FAILS_IN_PLAY, encoding="utf-8")
    moved = _runtime_error(path, monkeypatch, "1")
    assert compiled == []  # the same source: reused, though its rule moved
    assert moved == _runtime_error(path, monkeypatch, "0") != first
    assert f"{path}:15:" in moved


def test_a_damaged_code_entry_is_compiled_again(tmp_path, cache_home, monkeypatch):
    path = tmp_path / "game.yaml"
    path.write_text(FAILS_IN_PLAY, encoding="utf-8")
    first = _runtime_error(path, monkeypatch, "1")
    [written] = _cache_files(cache_home)
    data = read_cache_file(written)
    data["codes"] = {key: b"\x00garbage" for key in data["codes"]}
    written.write_bytes(encode_cache_file(data))
    assert _runtime_error(path, monkeypatch, "1") == first  # compiled again, not a crash
    assert _runtime_error(path, monkeypatch, "1") == first
