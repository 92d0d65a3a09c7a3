"""Generated programs kept on disk (interpreter/transpile/sourcecache.py): a second process's
first use of a configuration reads the kept source instead of generating it; an edited rule
file, a damaged entry or `RULEBOOK_CACHE=0` generate again; a refusal is kept and raised again."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter.transpile import Unsupported, fastrun
from interpreter.transpile.compare import fast_trace

ROOT = Path(__file__).resolve().parents[2]
KUHN = ROOT / "rules" / "kuhn_poker" / "game.yaml"
LIARS = ROOT / "rules" / "liars_dice" / "game.yaml"
UNCOVERED = ROOT / "tests" / "lab" / "fixtures" / "uncovered.yaml"


@pytest.fixture
def generations(tmp_path, monkeypatch):
    """A private cache folder, and the list of configurations generated (not read from it)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    made: list = []
    real = fastrun.transpile

    def counting(rule_file, players, options):
        made.append((rule_file.path, players))
        return real(rule_file, players, options)

    monkeypatch.setattr(fastrun, "transpile", counting)
    fastrun.forget()
    yield made
    fastrun.forget()


def _new_process() -> None:
    fastrun.forget()  # what a new process starts with: nothing generated in memory


def test_a_second_process_reads_the_kept_program(generations, tmp_path):
    first = fastrun.program(KUHN, (), 2, {})
    _new_process()
    second = fastrun.program(KUHN, (), 2, {})
    assert len(generations) == 1
    assert fast_trace(first, 2, 5).history == fast_trace(second, 2, 5).history
    assert list((tmp_path / "cache" / "rulebook" / "transpiled").glob("program-*.json"))


def test_each_player_count_keeps_its_own_program(generations):
    for players in (2, 3):
        fastrun.program(LIARS, (), players, {})
    _new_process()
    plays = {players: fastrun.program(LIARS, (), players, {}) for players in (2, 3)}
    assert sorted(players for _, players in generations) == [2, 3]
    assert len(fast_trace(plays[3], 3, 1).returns) == 3


def test_an_edited_rule_file_is_generated_again(generations, tmp_path):
    copy = tmp_path / "kuhn.yaml"
    shutil.copy(KUHN, copy)
    fastrun.program(copy, (), 2, {})
    _new_process()
    copy.write_text(copy.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    fastrun.program(copy, (), 2, {})
    assert len(generations) == 2


def test_a_damaged_entry_is_generated_again(generations, tmp_path):
    fastrun.program(KUHN, (), 2, {})
    for entry in (tmp_path / "cache" / "rulebook" / "transpiled").glob("program-*.json"):
        entry.write_text("{not json", encoding="utf-8")
    _new_process()
    play = fastrun.program(KUHN, (), 2, {})
    assert len(generations) == 2 and fast_trace(play, 2, 1).history


def test_turned_off_it_generates_every_time(generations, monkeypatch, tmp_path):
    monkeypatch.setenv("RULEBOOK_CACHE", "0")
    fastrun.program(KUHN, (), 2, {})
    _new_process()
    fastrun.program(KUHN, (), 2, {})
    assert len(generations) == 2
    assert not (tmp_path / "cache" / "rulebook" / "transpiled").exists()


def test_a_refusal_is_kept_and_raised_again_with_its_reason(generations):
    with pytest.raises(Unsupported) as first:
        fastrun.program(UNCOVERED, (), 2, {})
    _new_process()
    with pytest.raises(Unsupported) as again:
        fastrun.program(UNCOVERED, (), 2, {})
    assert len(generations) == 1
    assert str(again.value) == str(first.value) and "prompt" in str(again.value)
