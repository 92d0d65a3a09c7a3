"""The forward model's own shortcuts (state.py, starts.py) against the general forms they stand
for: a prepared start's decider index made at once, apply's inline checks, legal_actions'
copied lists, and the scoring loop's checks."""
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
def test_a_start_s_decider_index_is_the_one_its_threads_give(name):
    """A game copied from a prepared start gets its decider index at once: the index its own
    threads give (never the kept start's threads), and it plays on as the setup's game."""
    game, fresh, rng = _game(name), _game(name), random.Random(3)
    fresh.keep_starts(False)
    for seed in list(range(12)) * 2:  # the second time round, most starts are copies
        S, F = game.new_game(2, None, seed), fresh.new_game(2, None, seed)
        if S.deciders is not None:
            assert S.deciders == deciders_of(S.threads)
            assert all(any(th is t for t in S.threads) for th in S.deciders.values())
        while not S.is_terminal():
            p = S.current_players()[0]
            assert S.legal_actions(p) == F.legal_actions(p)
            i = rng.randrange(S.option_count(p))
            S.apply(p, i)
            F.apply(p, i)
        assert S.to_json() == F.to_json()
    starts = game._starts[(2, None, True)]
    assert starts.closed or starts.count > 0


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
