"""The forward model's own shortcuts (state.py) against the general forms they stand for:
a clone's decider index made at once, apply's inline checks, legal_actions' copied lists, and
the scoring loop's checks."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter.errors import IllegalDecision, RuleRuntimeError
from interpreter.game import Game
from interpreter.scoring import compute_result
from interpreter.threads import deciders_of

ROOT = Path(__file__).resolve().parents[2]


def _game(name: str) -> Game:
    return Game.load(ROOT / "rules" / name / "game.yaml")


@pytest.mark.parametrize("name", ["tic_tac_toe", "kuhn_poker", "goofspiel", "liars_dice"])
def test_a_clone_s_decider_index_is_the_one_its_threads_give(name):
    game, rng = _game(name), random.Random(3)
    for seed in range(15):
        S = game.new_game(2, None, seed)
        while True:
            C = S.clone()
            if C.deciders is not None:  # made at once (one flow): the index of its own threads
                assert C.deciders == deciders_of(C.threads)
                assert all(th in C.threads and th not in S.threads for th in C.deciders.values())
            assert C.current_players() == S.current_players()
            if S.is_terminal():
                break
            p = S.current_players()[0]
            i = rng.randrange(S.option_count(p))
            S.apply(p, i)
            C.apply(p, i)
            assert C.to_json() == S.to_json()


def test_apply_checks_an_index_as_before():
    game = _game("tic_tac_toe")
    S = game.new_game(2, None, 1)
    before = S.to_json()
    for bad in (9, -1, True, 2.0):
        with pytest.raises(IllegalDecision):
            S.apply(0, bad)
    with pytest.raises(IllegalDecision, match="no decision"):
        S.apply(1, 0)
    assert S.to_json() == before
    S.apply(0, 4)
    assert S.history == [[0, 4]] and S.current_players() == [1]
    while not S.is_terminal():
        S.apply(S.current_players()[0], 0)
    with pytest.raises(IllegalDecision, match="over"):
        S.apply(0, 0)


def test_legal_actions_is_a_new_list_every_time():
    S = _game("tic_tac_toe").new_game(2, None, 1)
    first = S.legal_actions(0)
    assert first == list(range(9))
    first.clear()
    assert S.legal_actions(0) == list(range(9)) and S.legal_actions(1) == []
    assert S.legal_actions(0) is not S.legal_actions(0)


def test_a_score_that_is_no_number_is_still_refused():
    S = _game("tic_tac_toe").new_game(2, None, 1)
    while not S.is_terminal():
        S.apply(S.current_players()[0], 0)
    assert compute_result(S)["scores"] == S.returns()
    real = S.game.scoring.score
    try:
        S.game.scoring.score = lambda S, L: "many"
        with pytest.raises(RuleRuntimeError, match="a score must be a number"):
            compute_result(S)
        S.game.scoring.score = lambda S, L: 2.5 if L["player"] == 0 else True
        assert compute_result(S)["scores"] == [2.5, 1]
    finally:
        S.game.scoring.score = real
