"""The resumable generated program (interpreter/transpile/stepper.py) on grid zones, value-giving
procedures and a choice of several in a simultaneous block (Between Two Cities): driven lowest
waiting seat first (State.current_players()[0], as RandomPlayout and MctsAgent's playouts drive
it) it offers the engine's options, records the engine's history and returns, its state
mid-game is the engine's, a copy continues as the engine's copy and leaves its original; flat
MCTS on it picks the engine's moves with the engine's statistics."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter.agents.determinize import _open_block
from interpreter.agents.mcts import MctsAgent
from interpreter.game import Game
from interpreter.transpile.compare import state_difference
from interpreter.transpile.stepper import load_stepper
from interpreter.transpile.worlds import StepperWorlds

from tests.engine.test_transpiled_mcts import mid_games, same_worlds_and_playouts
from tests.engine.test_transpiled_stepper import finish_both, loaded, lockstep, snapshot

NAME = "between_two_cities"


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_games_and_copies_are_the_engines(players):
    game, m = loaded(NAME, players, None)
    for seed in range(3):
        st, S = lockstep(m, game, players, None, seed, 10 + 17 * seed, random.Random(seed))
        assert not m.over(st)
        assert state_difference(S, m.export(st)) is None  # grids' pieces among the zones, in order
        before = snapshot(m.plain(st))
        copy, S_copy = m.clone(st), S.clone()
        S_copy.logging = False
        ours, theirs = finish_both(m, copy, S_copy, random.Random(100 + seed))
        assert ours == theirs and m.history(copy) == [list(h) for h in S_copy.history]
        assert m.returns(copy) == S_copy.returns()
        assert snapshot(m.plain(st)) == before  # the copy's placements left the original's grids
        ours, theirs = finish_both(m, st, S, random.Random(200 + seed))
        assert ours == theirs and m.history(st) == [list(h) for h in S.history]
        assert m.returns(st) == S.returns() and m.result(st)[2] == S.winners()
        assert m.history(st) != m.history(copy)


@pytest.mark.parametrize("players", [3, 5])
def test_worlds_playouts_and_mcts_are_the_engines(players):
    made = on_stepper = 0
    for seed, S in enumerate(mid_games(NAME, players, {}, 4, seed=11)):
        player = S.current_players()[0]
        if _open_block(S, player) is None:
            worlds = StepperWorlds.prepare(S, player)
            assert worlds is not None, S.history
            made += 1
            same_worlds_and_playouts(S, player, worlds, 2)
        engine, ours = MctsAgent(6, seed=seed, transpiled=False), MctsAgent(6, seed=seed)
        assert engine.choose(S, player) == ours.choose(S, player)
        assert engine.rng.getstate() == ours.rng.getstate()
        assert [(s.visits, s.total) for s in engine.last_stats] == [(s.visits, s.total) for s in ours.last_stats]
        assert engine.iterations_done == ours.iterations_done and ours.replayed == 0
        on_stepper += ours.on_stepper
    assert made >= 1 and on_stepper >= 6  # at least one decision wholly on the generated program


def test_a_piece_put_elsewhere_on_a_grid_by_hand_is_not_reached():
    """Where a piece lies on a grid is compared too (State's `pos`): moved by hand, the
    stepper's replay is not that state and the engine searches."""
    S = next(S for S in mid_games(NAME, 3, {}, 6, seed=11) if S.dyn.get("pos")
             and _open_block(S, S.current_players()[0]) is None)
    player = S.current_players()[0]
    assert StepperWorlds.prepare(S, player) is not None
    piece, (x, y) = next(iter(S.dyn["pos"].items()))
    S.dyn["pos"][piece] = (x + 5, y)
    assert StepperWorlds.prepare(S, player) is None


@pytest.mark.parametrize("players", [3, 5])
def test_the_capitals_file_is_the_engines_too(players):
    """The overlay entry file (landscapes, districts, civic buildings) through the same path."""
    path = Path(__file__).resolve().parents[2] / "rules" / NAME / "capitals.yaml"
    game, m = Game.load(path), load_stepper(path, players)
    for seed in range(2):
        st, S = lockstep(m, game, players, None, seed, 10 + 13 * seed, random.Random(seed))
        assert state_difference(S, m.export(st)) is None
        copy, S_copy = m.clone(st), S.clone()
        for ours, theirs, draws in ((copy, S_copy, seed), (st, S, seed + 7)):
            offered, engine = finish_both(m, ours, theirs, random.Random(draws))
            assert offered == engine and m.history(ours) == [list(h) for h in theirs.history]
            assert m.returns(ours) == theirs.returns()
