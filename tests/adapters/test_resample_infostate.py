"""State.resample_from_infostate (OpenSpiel's ResampleFromInfostate) on the adapter: the engine's
resample (interpreter/resample.py) seen through pyspiel."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the adapters need the rl extra: pip install -e '.[rl]'")

from interpreter.adapters.openspiel import load_game  # noqa: E402
from interpreter.adapters.profile import AdapterError  # noqa: E402

RULES = Path(__file__).resolve().parents[2] / "rules"
KUHN = RULES / "kuhn_poker" / "game.yaml"
LIARS_DICE = RULES / "liars_dice" / "game.yaml"


def dealt(path: Path, outcome: int = 0, actions: tuple = ()):
    state = load_game(path).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[outcome][0])
    for a in actions:
        state.apply_action(a)
    return state


def names(state, zone: str) -> list:
    return [p["name"] for p in state.engine_state.view(None)["zones"][zone]]


@pytest.mark.parametrize("actions", [(), (0,), (1,)], ids=["first decision", "after a pass", "after a bet"])
def test_kuhn_resample_keeps_the_players_information_and_varies_the_other_hand(actions):
    state = dealt(KUHN, actions=actions)
    before = state.engine_state.hash()
    sampler = pyspiel.UniformProbabilitySampler(0., 1.)
    for player in (0, 1):
        other = 1 - player
        mine = names(state, f"hand:{player}")
        theirs = set()
        for _ in range(40):
            world = state.resample_from_infostate(player, sampler)
            assert world.information_state_string(player) == state.information_state_string(player)
            assert world.observation_string(player) == state.observation_string(player)
            assert world.legal_actions(world.current_player()) == state.legal_actions(state.current_player())
            assert names(world, f"hand:{player}") == mine
            theirs.add(tuple(names(world, f"hand:{other}")))
        # the other hand was either of the two cards this player does not hold, never theirs
        assert len(theirs) == 2 and all(card not in mine for hand in theirs for card in hand)
    assert state.engine_state.hash() == before  # the state resampled from is left unchanged


def test_resampled_state_plays_on_to_the_end():
    state = dealt(KUHN, actions=(0,))
    world = state.resample_from_infostate(1, random.Random(3))
    rng = random.Random(1)
    while not world.is_terminal():
        if world.is_chance_node():
            world.apply_action(world.chance_outcomes()[0][0])
        else:
            world.apply_action(rng.choice(world.legal_actions()))
    assert sum(world.returns()) == 0


def test_same_sampler_draws_same_world():
    state = dealt(KUHN)
    a = [names(state.resample_from_infostate(0, random.Random(s)), "hand:1") for s in range(8)]
    b = [names(state.resample_from_infostate(0, random.Random(s)), "hand:1") for s in range(8)]
    assert a == b and len({tuple(x) for x in a}) == 2


def test_hidden_dice_are_rolled_again_for_the_other_player():
    state = dealt(LIARS_DICE, outcome=2)  # every die shows the third face

    def faces(s, zone):
        return [d["value"] for d in s.engine_state.view(None)["zones"][zone]]
    seen = set()
    for seed in range(30):
        world = state.resample_from_infostate(0, random.Random(seed))
        assert world.information_state_string(0) == state.information_state_string(0)
        assert faces(world, "cup:0") == faces(state, "cup:0")
        seen.add(tuple(faces(world, "cup:1")))
    assert len(seen) > 3  # the other cup's die takes several faces


def test_refused_at_a_chance_node_and_for_an_unknown_player():
    state = load_game(KUHN).new_initial_state()
    assert state.is_chance_node()
    with pytest.raises(AdapterError, match="chance node"):
        state.resample_from_infostate(0, random.Random(0))
    with pytest.raises(AdapterError, match="not one of"):
        dealt(KUHN).resample_from_infostate(5, random.Random(0))
    with pytest.raises(AdapterError, match=r"\[0, 1\)"):
        dealt(KUHN).resample_from_infostate(0, lambda: 1.5)


def test_openspiel_ismcts_bot_runs_on_it():
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts
    game = load_game(KUHN)
    state = dealt(KUHN)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)), 2.0, 50,
                           random_state=np.random.RandomState(0))
    assert bot.step(state) in state.legal_actions()


def test_sampled_chance_mode_too():
    state = load_game(KUHN, chance="sampled", seed=3).new_initial_state()
    seen = set()
    for seed in range(10):
        world = state.resample_from_infostate(0, random.Random(seed))
        assert world.information_state_string(0) == state.information_state_string(0)
        seen.add(tuple(names(world, "hand:1")))
        while not world.is_terminal():  # its own generator, reseeded: it plays on
            world.apply_action(world.legal_actions()[0])
    assert len(seen) == 2
