"""Agents: the Monte-Carlo agent beats random play on a game where skill matters."""
from __future__ import annotations

from interpreter.agents import RandomAgent, make_agents
from interpreter.agents.mcts import MctsAgent
from interpreter.game import Game
from interpreter.runner import play_game

from tests.agents.games import NIM as NIM_GAME

from .helpers import load

NIM = NIM_GAME % {"pile": 7}  # first player wins with perfect play: search should win far more often


def test_mcts_beats_random_at_nim(tmp_path):
    game = load(tmp_path, NIM)
    wins = 0
    for seed in range(20):
        played = play_game(game, 2, {}, seed, [MctsAgent(60, seed), RandomAgent(seed)], logging=False)
        wins += 0 in played.state.winners()
    assert wins >= 17


def test_agent_kinds_from_the_command_line_spec():
    agents = make_agents("mcts:10,random", 2, 1)
    assert isinstance(agents[0], MctsAgent) and agents[0].budget.iterations == 10
    assert isinstance(agents[1], RandomAgent)


def test_mcts_only_uses_what_its_player_sees(tmp_path):
    """Its choice does not change when hidden things are reshuffled (same seed, same view)."""
    import random
    from interpreter.conformance import perturb
    game = Game.load(__import__("pathlib").Path(__file__).resolve().parents[1] / "fixtures" / "high_card.yaml")
    S = game.new_game(2, seed=5)
    T, _ = perturb(S, 0, random.Random(9))
    assert MctsAgent(40, 3).choose(S, 0) == MctsAgent(40, 3).choose(T, 0)
