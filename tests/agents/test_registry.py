"""Agent specs as written on the command line: kinds, budgets, settings, and clear errors."""
from __future__ import annotations

import pytest

from interpreter.agents import make_agents, parse_agents
from interpreter.agents.basic import RandomAgent
from interpreter.agents.greedy import GreedyAgent
from interpreter.agents.ismcts import IsmctsAgent
from interpreter.agents.mcts import MctsAgent
from interpreter.errors import InputError


def test_settings_attach_to_the_agent_before_them():
    specs = parse_agents("ismcts:2s,depth=20,c=0.5,random,mcts:300")
    assert [s.kind for s in specs] == ["ismcts", "random", "mcts"]
    assert specs[0].budget.seconds == 2 and specs[0].settings == {"depth": 20, "c": 0.5}
    assert specs[2].budget.iterations == 300
    assert specs[0].name == "ismcts:2s,depth=20,c=0.5"


def test_built_agents_carry_their_settings():
    ism, mc, gr = make_agents("ismcts:500ms,depth=7,reuse=no,mcts:9,c=2,greedy,samples=3", 3, seed=4)
    assert isinstance(ism, IsmctsAgent) and ism.budget.seconds == 0.5
    assert ism.playout.depth == 7 and ism.reuse is False
    assert isinstance(mc, MctsAgent) and mc.budget.iterations == 9 and mc.select.c == 2
    assert mc.playout.depth is None
    assert isinstance(gr, GreedyAgent) and gr.samples == 3


def test_search_settings_choose_the_parts():
    from interpreter.agents.playout import GreedyPlayout, RandomPlayout
    from interpreter.agents.selection import Ucb1, Ucb1Tuned

    default, plain, greedy = make_agents("ismcts:9,ismcts:9,ucb=plain,secret=no,"
                                         "mcts:9,playout=greedy,eps=0.1,depth=4", 3, seed=1)
    assert type(default.select) is Ucb1Tuned and default.select.c == 1.0 and default.secret
    assert type(default.playout) is RandomPlayout
    assert type(plain.select) is Ucb1 and plain.select.c == 0.7 and not plain.secret
    assert type(greedy.playout) is GreedyPlayout and greedy.playout.epsilon == 0.1
    assert greedy.playout.depth == 4 and type(greedy.select) is Ucb1 and greedy.select.c == 1.4


def test_one_agent_plays_every_seat_with_its_own_seed():
    a, b = make_agents("random", 2, seed=3)
    assert isinstance(a, RandomAgent) and isinstance(b, RandomAgent)
    assert [a.rng.random() for _ in range(3)] != [b.rng.random() for _ in range(3)]


@pytest.mark.parametrize("spec, message", [
    ("robot", 'unknown agent "robot"'),
    ("ismcst:50", 'did you mean "ismcts"'),
    ("mcts:0", "mcts:N (iterations per decision"),
    ("ismcts:fast", "ismcts:2s"),
    ("greedy:5", "only mcts and ismcts take a budget"),
    ("depth=3,mcts", "a setting must follow an agent"),
    ("random,depth=3", '"depth=" is a setting of mcts and ismcts, not of random'),
    ("ismcts,dept=3", 'did you mean "depth"'),
    ("mcts,depth=0", "depth is a whole number ≥ 1"),
    ("ismcts,reuse=maybe", "reuse is yes or no"),
    ("mcts,c=-1", "c is a number ≥ 0"),
    ("ismcts,ucb=fast", "ucb is plain or tuned"),
    ("mcts,playout=smart", "playout is random or greedy"),
    ("mcts,eps=2", "eps is a number from 0 to 1"),
    ("mcts,secret=no", '"secret=" is a setting of ismcts, not of mcts'),
])
def test_bad_specs_say_what_is_expected(spec, message):
    with pytest.raises(InputError) as err:
        parse_agents(spec)
    assert message in str(err.value)


def test_the_number_of_agents_must_match_the_players():
    with pytest.raises(InputError, match="lists 3 agents for 2 players"):
        make_agents("random,greedy,ismcts:5,depth=2", 2, seed=1)
