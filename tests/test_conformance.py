"""The conformance harness over every rule file under rules/ (and the engine's fixtures).

Quick suite: a few games per valid (players, options) configuration and per variant. With
--slow: many more games per configuration.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from interpreter.conformance import check_game, configurations
from interpreter.game import Game
from interpreter.rulefiles import find_rule_files, game_entry_files, variant_files

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "rules"
FIXTURES = ROOT / "tests" / "fixtures"
QUICK_GAMES = 2
SLOW_GAMES = 100


def _entries() -> list[Path]:
    """rules/ and the fixtures, plus the folders in $RULEBOOK_RULES_DIRS (os.pathsep-separated):
    `RULEBOOK_RULES_DIRS=~/my_games pytest tests/test_conformance.py` checks your own games."""
    extra = [game_entry_files(Path(d).resolve()) for d in os.environ.get("RULEBOOK_RULES_DIRS", "").split(os.pathsep) if d]
    return game_entry_files(RULES) + sorted(FIXTURES.glob("*.yaml")) + [f for found in extra for f in found]


def _cases(games: int) -> list:
    cases = []
    for entry in _entries():
        try:
            game = Game.load(entry)
        except Exception:  # reported by test_rule_files_validate
            continue
        rel = entry.relative_to(ROOT) if entry.is_relative_to(ROOT) else entry
        for n, opts in configurations(game):
            label = ",".join(f"{k}={v}" for k, v in sorted(opts.items()) if v != game.d.options[k].default)
            for seed in range(games):
                cases.append(pytest.param(entry, (), n, opts, seed, id=f"{rel}-{n}p-{label or 'default'}-s{seed}"))
        for variant in variant_files(entry):
            vgame = Game.load(entry, [variant])
            valid = configurations(vgame)
            defaults = vgame.resolve_options({})
            # the default player count if it is valid with default options, else the first valid one
            n, opts = next(((n, o) for n, o in valid if o == defaults and n == vgame.default_players),
                           next(((n, o) for n, o in valid if o == defaults), valid[0]))
            for seed in range(games):
                cases.append(pytest.param(entry, (variant,), n, opts, seed,
                                          id=f"{rel}+{variant.name}-{n}p-s{seed}"))
    return cases


_GAMES: dict = {}


def _game(entry: Path, variants: tuple) -> Game:
    key = (entry, variants)
    if key not in _GAMES:
        _GAMES[key] = Game.load(entry, list(variants))
    return _GAMES[key]


@pytest.mark.parametrize("path", find_rule_files([str(RULES)]) + sorted(FIXTURES.glob("*.yaml")),
                         ids=lambda p: str(Path(p).relative_to(ROOT)))
def test_rule_files_validate(path):
    Game.load(path)


@pytest.mark.parametrize("entry,variants,players,options,seed", _cases(QUICK_GAMES))
def test_conformance(entry, variants, players, options, seed):
    report = check_game(_game(entry, variants), players, options, seed)
    assert not report.problems, "\n".join(report.problems)


@pytest.mark.slow
@pytest.mark.parametrize("entry,variants,players,options,seed", _cases(1))
def test_conformance_slow(entry, variants, players, options, seed):
    game = _game(entry, variants)
    for s in range(SLOW_GAMES):
        report = check_game(game, players, options, 1000 + s, audits=1)
        assert not report.problems, f"seed {1000 + s}:\n" + "\n".join(report.problems)


@pytest.mark.parametrize("entry", _entries(), ids=lambda p: str(Path(p).relative_to(ROOT) if Path(p).is_relative_to(ROOT) else p))
def test_default_setup_is_playable(entry):
    """`rulebook play FILE` with no --players or --option must start a game."""
    game = _game(entry, ())
    assert not game.check_setup(game.default_players, game.resolve_options({}))
