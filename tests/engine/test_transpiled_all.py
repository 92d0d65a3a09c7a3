"""The differential test between the two execution paths (issue 12): over every rule file under
rules/ (entry files and variants), every player count and the option settings of
tests/engine/test_differential.py, each configuration the generator covers plays the engine's
games (same options offered at every decision, same decisions, same returns) with simulate's
random agents: 3 seeds by default, 200 with `--slow`; and ends in the engine's final state (the
generator's random state, every zone's pieces in order, counters and plain variables).

What is not covered is listed in tests/engine/data/transpile_uncovered.txt (refused when
generating) and tests/engine/data/transpile_fallback.txt (generated, but the program may raise
while playing: such games are replayed in the engine). A change of coverage changes these
lists: `python tools/transpile_coverage.py` rewrites them for the generator as it is."""
from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path

import pytest

from interpreter.game import Game
from interpreter.transpile import RuleFile, Unsupported, load_program
from interpreter.transpile.compare import engine_trace, fast_trace, first_difference, state_difference

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parent / "data"
sys.path.insert(0, str(ROOT / "tools"))

from differential import configurations  # noqa: E402

SEEDS, SLOW_SEEDS = 3, 200


def _listed(name: str) -> set[str]:
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    return {line.strip() for line in lines if line.strip() and not line.startswith("#")}


@lru_cache(maxsize=None)
def _configurations() -> list[tuple]:
    return [c for c in configurations() if c[1].startswith("rules/")]


@lru_cache(maxsize=None)
def _rule_file(entry: str, variants: tuple) -> RuleFile:
    return RuleFile(ROOT / entry, [ROOT / v for v in variants])


@lru_cache(maxsize=None)
def _game(entry: str, variants: tuple) -> Game:
    return Game.load(ROOT / entry, [ROOT / v for v in variants])


@lru_cache(maxsize=None)
def _program(key: str):
    """The configuration's generated `play`, or the Unsupported the generator raised."""
    _, entry, variants, players, opts = next(c for c in _configurations() if c[0] == key)
    rule_file = _rule_file(entry, tuple(variants))
    try:
        return load_program(rule_file, players, _game(entry, tuple(variants)).resolve_options(opts))
    except Exception as exc:  # noqa: BLE001 - Unsupported, or a generator bug (test below)
        return exc


@lru_cache(maxsize=None)
def _covered() -> list[str]:
    return [key for key, *_ in _configurations() if not isinstance(_program(key), Exception)]


def test_the_generator_fails_only_by_refusing():
    """Generating raises Unsupported (naming what it does not cover) or nothing."""
    failed = {key: repr(_program(key)) for key, *_ in _configurations()
              if isinstance(_program(key), Exception) and not isinstance(_program(key), Unsupported)}
    assert failed == {}


def _check(key: str, seeds: range) -> int:
    """Compare the seeds' games; how many the program did not finish (it raised)."""
    _, entry, variants, players, opts = next(c for c in _configurations() if c[0] == key)
    game, play = _game(entry, tuple(variants)), _program(key)
    options = game.resolve_options(opts)
    may_raise = key in _listed("transpile_fallback.txt")
    raised = 0
    for seed in seeds:
        try:
            engine = engine_trace(game, players, options, seed, with_state=True)
        except Exception:  # noqa: BLE001 - a rule error: the program must not finish that game either
            with pytest.raises(Exception):
                fast_trace(play, players, seed)
            continue
        try:
            fast = fast_trace(play, players, seed, with_state=True)
        except Exception as exc:  # noqa: BLE001
            assert may_raise, f"{key} seed {seed}: the program raised {exc!r} where the engine finished"
            raised += 1
            continue
        assert first_difference(engine, fast) is None, f"{key} seed {seed}: {first_difference(engine, fast)}"
        assert state_difference(engine.state, fast.state) is None, \
            f"{key} seed {seed}: final states differ: {state_difference(engine.state, fast.state)}"
    return raised


def test_uncovered_configurations_are_the_listed_ones():
    """Configurations the generator refuses (Unsupported): the engine plays them."""
    uncovered = {key for key, *_ in _configurations() if isinstance(_program(key), Unsupported)}
    listed = _listed("transpile_uncovered.txt")
    assert sorted(uncovered - listed) == [], "newly refused: add them to transpile_uncovered.txt"
    assert sorted(listed - uncovered) == [], "now generated: remove them from transpile_uncovered.txt"


def test_fallback_list_names_generated_configurations():
    listed = _listed("transpile_fallback.txt")
    assert sorted(listed - set(_covered())) == []


def _covered_keys() -> list[str]:
    """Collected before the tests run (generating every configuration takes a few seconds)."""
    return _covered()


@pytest.mark.parametrize("key", _covered_keys())
def test_generated_program_plays_the_engines_games(key):
    _check(key, range(SEEDS))


@pytest.mark.slow
@pytest.mark.parametrize("key", _covered_keys())
def test_generated_program_plays_the_engines_games_slow(key):
    raised = _check(key, range(SLOW_SEEDS))
    if key in _listed("transpile_fallback.txt"):
        assert raised, f"{key} finished all {SLOW_SEEDS} games: remove it from transpile_fallback.txt"


def test_a_final_state_that_differs_is_found():
    """The final-state comparison sees a moved piece, a changed counter, a variable, the Rng."""
    key = "rules/kuhn_poker/game.yaml||2|{}"
    _, entry, variants, players, opts = next(c for c in _configurations() if c[0] == key)
    game = _game(entry, tuple(variants))
    engine = engine_trace(game, players, game.resolve_options(opts), 5, with_state=True)
    fast = fast_trace(_program(key), players, 5, with_state=True)
    assert state_difference(engine.state, fast.state) is None
    assert {"deck", "hand:0", "hand:1"} <= set(fast.state["zones"]) and "stake:0" in fast.state["counters"]
    tampered = [("zones", "hand:0", [99]), ("counters", "stake:1", 42), ("vars", "winner", 7)]
    for section, name, value in tampered:
        changed = {**fast.state, section: {**fast.state[section], name: value}}
        assert name in state_difference(engine.state, changed)
    assert "random" in state_difference(engine.state, {**fast.state, "rng": fast.state["rng"] + 1})
