"""A new game copied from a start template (game.StartTemplate) is the game its setup makes.

Game.new_game keeps the state at the first decision when the setup drew no random number
(then every seed starts the same way) and copies it for later games of the same player count,
options, language and logging. These tests compare template starts with setups run in full.
"""
from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from differential import play_digest, rule_files  # noqa: E402

from interpreter.budget import METER  # noqa: E402
from interpreter.game import Game, StartTemplate  # noqa: E402

FILES = [f"{entry}|{','.join(variants)}" for entry, variants in rule_files()]


@lru_cache(maxsize=None)
def _load(key: str, templates: bool) -> Game:
    entry, variants = key.split("|")
    game = Game.load(ROOT / entry, [ROOT / v for v in variants.split(",") if v])
    game.start_templates = templates
    return game


def _ready(game: Game, n: int) -> bool:
    return not game.check_setup(n, game.resolve_options({}))


@pytest.mark.parametrize("key", FILES)
def test_a_template_start_is_the_setup_s_start(key):
    fresh, copied = _load(key, False), _load(key, True)
    lo, hi = fresh.player_range
    for n in sorted({lo, hi}):
        if not _ready(fresh, n):
            continue
        copied.new_game(n, None, seed=99)  # keeps a template if this setup draws nothing
        for seed in (0, 7):
            a, b = fresh.new_game(n, None, seed), copied.new_game(n, None, seed)
            assert a.to_json() == b.to_json() and a.hash() == b.hash(), f"{key} {n}p seed {seed}"
            assert play_digest(fresh, n, {}, seed) == play_digest(copied, n, {}, seed)


def test_templates_are_kept_only_for_setups_that_draw_nothing():
    tic = Game.load(ROOT / "rules" / "tic_tac_toe" / "game.yaml")
    kuhn = Game.load(ROOT / "rules" / "kuhn_poker" / "game.yaml")
    tic.new_game(2, None, 1)
    kuhn.new_game(2, None, 1)
    assert [type(t) for t in tic._starts.values()] == [StartTemplate]
    assert list(kuhn._starts.values()) == [False]  # it shuffles: every seed starts differently
    kuhn.new_game(2, None, 2)
    assert list(kuhn._starts.values()) == [False]


def test_a_template_is_kept_per_setting():
    tic = Game.load(ROOT / "rules" / "tic_tac_toe" / "game.yaml")
    tic.new_game(2, None, 1)
    tic.new_game(2, None, 1, logging=False)
    tic.new_game(2, None, 1, lang="pt")
    assert len(tic._starts) == 3
    logged = tic.new_game(2, None, 5)
    quiet = tic.new_game(2, None, 5, logging=False)
    assert logged.logging and not quiet.logging


def test_template_copies_are_independent():
    tic = Game.load(ROOT / "rules" / "tic_tac_toe" / "game.yaml")
    first = tic.new_game(2, None, 1)
    before = first.to_json()
    second = tic.new_game(2, None, 2)
    while not second.is_terminal():
        p = second.current_players()[0]
        second.apply(p, 0)
    third = tic.new_game(2, None, 1)
    assert first.to_json() == before == third.to_json()
    assert third.seed == 1 and second.seed == 2


def test_a_template_start_sets_this_game_s_budget():
    tic = Game.load(ROOT / "rules" / "tic_tac_toe" / "game.yaml")
    kuhn = Game.load(ROOT / "rules" / "kuhn_poker" / "game.yaml")
    tic.new_game(2, None, 1)
    work = METER.work
    kuhn.new_game(2, None, 1)  # another game's setup leaves its own budget behind
    S = tic.new_game(2, None, 3)
    assert METER.limits is tic.d.limits and METER.work == work
    assert S.option_labels(S.current_players()[0])


def test_an_adapter_generator_or_prepare_skips_templates():
    tic = Game.load(ROOT / "rules" / "tic_tac_toe" / "game.yaml")
    seen = []
    tic.new_game(2, None, 1, prepare=seen.append)
    assert not tic._starts and len(seen) == 1
    tic.new_game(2, None, 1)
    tic.new_game(2, None, 1, prepare=seen.append)
    assert len(seen) == 2  # prepare still runs before the setup
