"""Agents that do not look ahead: uniformly random, always first, always last."""
from __future__ import annotations

import random
from typing import Any


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
