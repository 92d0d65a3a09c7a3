"""tools/transpile_probe.py, a measurement probe for issue 12: the program it generates from a rule
file plays the engine's games (same seed and agents: same decisions, options, returns), and it
refuses what it does not cover by name instead of generating something else."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from interpreter.game import Game

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import transpile_probe as tp  # noqa: E402  (a script in tools/)


@pytest.mark.parametrize("game_name", ["tic_tac_toe", "kuhn_poker"])
def test_generated_program_plays_the_engines_games(game_name):
    path = tp.rule_file(game_name)
    game, play = Game.load(path), tp.load_program(path)
    games = [(tp.engine_game(game, seed), tp.transpiled_game(play, seed)) for seed in range(50)]
    for engine, transpiled in games:
        assert transpiled == engine
    assert len({str(e[0]) for e, _ in games}) > 1  # the seeds give different outcomes


def test_a_different_seed_plays_a_different_game():
    path = tp.rule_file("tic_tac_toe")
    game, play = Game.load(path), tp.load_program(path)
    assert any(tp.engine_game(game, s) != tp.transpiled_game(play, s + 1) for s in range(20))


def test_an_unsupported_construct_is_named(tmp_path):
    text = tp.rule_file("tic_tac_toe").read_text(encoding="utf-8")
    changed = text.replace('prompt "Mark a cell (row * 3 + column)"', 'prompt "Mark a cell, {player}"')
    assert changed != text
    path = tmp_path / "game.yaml"
    path.write_text(changed.replace("../../schema", str(ROOT / "schema")), encoding="utf-8")
    Game.load(path)  # a valid rule file, the same game
    with pytest.raises(NotImplementedError, match="prompt with"):
        tp.transpile(path)


def test_generated_chicago_poker_plays_the_engines_games():
    """Chicago Poker without special cards at 4 players (pieces as options, moves, draws, deals,
    shuffles, perform with actions, a simultaneous block, hand_rank): the same decisions, options
    offered and returns as the engine, with tools/bench_speed.py's agents."""
    game, play = Game.load(tp.rule_file(tp.POKER)), tp.load_poker()
    games = [(tp.engine_poker_game(game, seed), tp.transpiled_poker_game(play, seed)) for seed in range(20)]
    for engine, transpiled in games:
        assert transpiled == engine
    assert len({str(e[0]) for e, _ in games}) > 1
    assert all(len(e[1]) > 100 for e, _ in games)  # whole games, many decisions each


def test_a_choice_of_several_is_generated_as_single_picks():
    """(tests/engine/test_transpiled_cards.py checks such choices against the engine.)"""
    source = tp.transpile(tp.rule_file(tp.POKER), tp.POKER_PLAYERS, tp.POKER_OPTIONS)
    assert "NotImplementedError" not in source and "_DONE" in source
