"""Agents choose among a player's legal options. Each sees only that player's view.

An agent is any object with `choose(state, player) -> int` (an option index). Agent kinds for
the command line: random (seeded), first, last, human, mcts / mcts:N (Monte-Carlo search with N
determinized playouts per decision).
"""
from __future__ import annotations

import random
from typing import Any, Protocol

from ..errors import InputError


class Agent(Protocol):
    def choose(self, state: Any, player: int) -> int: ...


class RandomAgent:
    """Uniformly random legal option, from its own seeded generator (not the game's)."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, state: Any, player: int) -> int:
        return int(self.rng.random() * state.option_count(player))


class FirstAgent:
    """Always the first option (deterministic, handy in tests)."""

    def choose(self, state: Any, player: int) -> int:
        return 0


class LastAgent:
    """Always the last option."""

    def choose(self, state: Any, player: int) -> int:
        return state.option_count(player) - 1


KINDS = ("random", "first", "last", "human", "mcts", "mcts:N")


def make_agent(kind: str, seed: int, seat: int) -> Any:
    kind = kind.strip().lower()
    if kind == "mcts" or kind.startswith("mcts:"):
        from .mcts import MctsAgent
        iterations = kind.split(":", 1)[1] if ":" in kind else "200"
        if not iterations.isdigit() or int(iterations) < 1:
            raise InputError(f'"{kind}": write mcts or mcts:N with N playouts per decision')
        return MctsAgent(int(iterations), seed * 1009 + seat)
    if kind == "random":
        return RandomAgent(seed * 1009 + seat)
    if kind == "first":
        return FirstAgent()
    if kind == "last":
        return LastAgent()
    if kind == "human":
        from .human import HumanAgent
        return HumanAgent()
    from ..errors import suggest
    raise InputError(f'unknown agent "{kind}"{suggest(kind, KINDS)}; agents: {", ".join(KINDS)}')


def make_agents(spec: str | None, players: int, seed: int) -> list:
    kinds = [k for k in (spec or "random").split(",") if k.strip()]
    if len(kinds) == 1:
        kinds = kinds * players
    if len(kinds) != players:
        raise InputError(f"--agents lists {len(kinds)} agents for {players} players")
    return [make_agent(k, seed, i) for i, k in enumerate(kinds)]
