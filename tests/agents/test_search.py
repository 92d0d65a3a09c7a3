"""The search agents (flat MCTS, IS-MCTS) and greedy: they find good moves, use the rule file's
evaluation when playouts are cut, honour time budgets, and reuse their tree only when sound."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter.agents import RandomAgent, parse_agents
from interpreter.agents.budget import Budget
from interpreter.agents.evaluation import heuristic
from interpreter.agents.greedy import GreedyAgent
from interpreter.agents.ismcts import IsmctsAgent
from interpreter.agents.playout import GreedyPlayout
from interpreter.agents.selection import Stats, Ucb1, Ucb1Tuned
from interpreter.errors import RuleRuntimeError
from interpreter.game import Game
from interpreter.runner import play_game

from .games import BAD_DRAW, GAIN, NIM, TWO_STEP, load

ROOT = Path(__file__).resolve().parents[2]


def label_of_choice(agent, state, player=0) -> str:
    return state.option_labels(player)[agent.choose(state, player)]


def test_ismcts_finds_the_winning_nim_move(tmp_path):
    """From 7 take 1 (leave 6), from 5 take 2 (leave 3): whatever the agent seed."""
    for pile, winning in ((7, "1"), (5, "2"), (4, "1")):
        game = load(tmp_path, NIM % {"pile": pile})
        for seed in range(3):
            agent = IsmctsAgent(Budget(iterations=300), seed)
            assert label_of_choice(agent, game.new_game(2, seed=seed)) == winning, (pile, seed)


def test_ismcts_beats_random_at_nim(tmp_path):
    game = load(tmp_path, NIM % {"pile": 7})
    wins = 0
    for seed in range(20):
        agents = [IsmctsAgent(Budget(iterations=60), seed), RandomAgent(seed)]
        wins += 0 in play_game(game, 2, {}, seed, agents, logging=False).state.winners()
    assert wins >= 17


def test_cut_playouts_are_judged_by_the_rule_files_evaluation(tmp_path):
    """With playouts cut after one decision, the `agents: evaluate:` expression decides; played
    to the end, the score does (here they disagree on purpose)."""
    game = load(tmp_path, GAIN % {"extra": 'agents:\n  evaluate: "-points[player]"'})
    S = game.new_game(2, seed=1)
    for spec in ("mcts:40,depth=1", "ismcts:40,depth=1"):
        assert label_of_choice(parse_agents(spec)[0].build(1, 0), S) == "wait", spec
    for spec in ("mcts:40", "ismcts:40"):
        assert label_of_choice(parse_agents(spec)[0].build(1, 0), S) == "gain", spec


def test_greedy_follows_the_score_by_default_and_the_evaluation_when_given(tmp_path):
    plain = load(tmp_path, GAIN % {"extra": ""})
    assert label_of_choice(GreedyAgent(3), plain.new_game(2, seed=3)) == "gain"
    contrary = load(tmp_path, GAIN % {"extra": 'agents:\n  evaluate: "-points[player]"'})
    assert label_of_choice(GreedyAgent(3), contrary.new_game(2, seed=3)) == "wait"


def test_greedy_wants_a_low_score_when_the_lowest_wins(tmp_path):
    game = load(tmp_path, (GAIN % {"extra": ""}).replace('score: "points[player]"',
                                                        'score: "points[player]"\n  lowest_wins: true'))
    assert label_of_choice(GreedyAgent(3), game.new_game(2, seed=3)) == "wait"


def test_a_time_budget_searches_until_the_time_is_spent(tmp_path):
    game = load(tmp_path, NIM % {"pile": 7})
    for spec in ("ismcts:20ms", "mcts:20ms"):
        agent = parse_agents(spec)[0].build(2, 0)
        assert agent.budget.seconds == 0.02 and agent.budget.iterations is None
        assert agent.choose(game.new_game(2, seed=2), 0) in (0, 1)
        assert agent.iterations_done >= 1


def test_the_tree_is_reused_only_across_the_agents_own_consecutive_decisions(tmp_path):
    two_step = load(tmp_path, TWO_STEP)
    agents = [IsmctsAgent(Budget(iterations=30), 1), RandomAgent(1)]
    play_game(two_step, 2, {}, 1, agents, logging=False)
    assert agents[0].reused == 3  # the place after the token, each of 3 rounds
    off = [IsmctsAgent(Budget(iterations=30), 1, reuse=False), RandomAgent(1)]
    play_game(two_step, 2, {}, 1, off, logging=False)
    assert off[0].reused == 0
    nim = load(tmp_path, NIM % {"pile": 9})  # players alternate: never two own decisions in a row
    alternating = [IsmctsAgent(Budget(iterations=30), 1), RandomAgent(1)]
    play_game(nim, 2, {}, 1, alternating, logging=False)
    assert alternating[0].reused == 0


def test_reuse_keeps_the_statistics_of_the_move_taken(tmp_path):
    """The reused root already holds the visits made below that move in the earlier search."""
    game = load(tmp_path, TWO_STEP)
    agent = IsmctsAgent(Budget(iterations=40), 4)
    S = game.new_game(2, seed=4)
    S.apply(0, agent.choose(S, 0))
    kept = agent._kept[3]
    before = sum(e.visits for e in kept.children.values())
    assert before > 0
    agent.choose(S, 0)
    assert sum(e.visits for e in kept.children.values()) == before + 40


def test_a_rule_error_in_some_sampled_worlds_drops_those_iterations(tmp_path):
    """Worlds where the hidden deck puts the bad card on top fail; the real game does not."""
    game = load(tmp_path, BAD_DRAW % {"second": "{id: bad1, bad: 1}"})
    for spec, tries in (("mcts:40", 40), ("ismcts:40", 40), ("greedy,samples=20", 40)):
        agent = parse_agents(spec)[0].build(1, 0)
        assert agent.choose(game.new_game(2, seed=1), 0) in (0, 1)
        assert 0 < agent.failures.count < tries, spec


def test_a_rule_error_in_every_world_is_raised(tmp_path):
    text = BAD_DRAW.replace("{id: good1, bad: 0}, %(second)s, {id: good2, bad: 0}, {id: good3, bad: 0}",
                            "{id: bad1, bad: 1}, {id: bad2, bad: 1}")
    game = load(tmp_path, text)
    for spec in ("mcts:10", "ismcts:10", "greedy"):
        with pytest.raises(RuleRuntimeError, match="nothing to choose from"):
            parse_agents(spec)[0].build(1, 0).choose(game.new_game(2, seed=1), 0)


def test_greedy_playouts_follow_the_evaluation_move_by_move(tmp_path):
    """With no random share, every player in the playout takes what the evaluation prefers
    (four of the six turns, so that no win is in sight)."""
    plain = load(tmp_path, GAIN % {"extra": ""})
    S = plain.new_game(2, seed=2)
    GreedyPlayout(depth=4, epsilon=0.0).run(S, random.Random(2))
    assert not S.over and S.decisions == 4 and heuristic(S) == [2, 2]
    contrary = load(tmp_path, GAIN % {"extra": 'agents:\n  evaluate: "-points[player]"'})
    S = contrary.new_game(2, seed=2)
    GreedyPlayout(depth=4, epsilon=0.0).run(S, random.Random(2))
    assert heuristic(S) == [0, 0]
    S = plain.new_game(2, seed=2)
    GreedyPlayout(epsilon=0.0).run(S, random.Random(2))
    assert S.over and S.returns() == [3, 3]


def test_ucb1_tuned_explores_an_edge_less_when_its_rewards_agree():
    steady = Stats(visits=1000, total=500.0, available=4000, squares=250.0)  # rewards all 0.5
    spread = Stats(visits=1000, total=500.0, available=4000, squares=500.0)  # half 0, half 1
    tuned, plain = Ucb1Tuned(1.0), Ucb1(1.0)
    assert tuned.bound(steady, 4000) < tuned.bound(spread, 4000)
    assert plain.bound(steady, 4000) == plain.bound(spread, 4000)
    assert tuned.pick_available([steady, spread]) == 1


def test_other_players_secret_picks_are_one_edge_of_the_tree():
    """Goofspiel bids are secret and simultaneous: below the observer's bid, the other player's
    bid is one edge (what the observer sees: a bid was made), not one edge per card of a
    hand the observer cannot see. With secret=no they are named by the card."""
    game = Game.load(ROOT / "rules" / "goofspiel" / "game.yaml")
    for secret, many in ((True, False), (False, True)):
        agent = IsmctsAgent(Budget(iterations=60), 3, secret=secret)
        S = game.new_game(2, seed=3)
        agent.choose(S, 0)
        below = agent._kept[3].children
        assert all(k[0] == 1 for k in below)
        assert (len(below) > 1) is many, (secret, list(below))
        if secret:
            assert list(below) == [(1, "secret", False)]
