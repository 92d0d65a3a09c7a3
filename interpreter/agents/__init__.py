"""Agents choose among a player's legal options, using only what that player can see.

An agent is any object with `choose(state, player) -> int` (an option index). Kinds for the
command line and the Python API (see registry.py and docs/agents.md): random, first, last,
human, greedy (one step ahead with the rule file's evaluation), mcts[:N|:Ts] (flat Monte-Carlo
over determinizations), ismcts[:N|:Ts] (information-set Monte-Carlo tree search).

    from interpreter.agents import make_agents
    agents = make_agents("ismcts:500,depth=20,random", players=2, seed=7)
"""
from __future__ import annotations

from typing import Any, Protocol

from .basic import FirstAgent, LastAgent, RandomAgent
from .registry import KINDS, KINDS_HELP, AgentSpec, make_agent, make_agents, parse_agents


class Agent(Protocol):
    def choose(self, state: Any, player: int) -> int: ...


__all__ = ["Agent", "AgentSpec", "FirstAgent", "KINDS", "KINDS_HELP", "LastAgent", "RandomAgent",
           "make_agent", "make_agents", "parse_agents"]
