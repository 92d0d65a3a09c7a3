"""Playout: finish (or look ahead in) a game from a determinized state."""
from __future__ import annotations

import random
from typing import Any

from .evaluation import judged_lead


class RandomPlayout:
    """Everyone picks uniformly at random until the end, or for `depth` decisions when a depth
    is given (the evaluation then judges the unfinished game), or up to a safety cap."""

    def __init__(self, depth: int | None = None, max_decisions: int = 5_000):
        self.depth = depth
        self.max_decisions = max_decisions

    def limit(self, state: Any) -> int:
        """The decision count at which this playout stops."""
        steps = self.max_decisions if self.depth is None else min(self.depth, self.max_decisions)
        return state.decisions + steps

    def run(self, state: Any, rng: random.Random) -> Any:
        limit = self.limit(state)
        deciding, count, apply, draw = state.current_players, state.option_count, state.apply_unchecked, rng.random
        while not state.over and state.decisions < limit:
            p = deciding()[0]
            apply(p, int(draw() * count(p)))
        return state


class GreedyPlayout(RandomPlayout):
    """Epsilon-greedy playout: with probability `epsilon` a random option, otherwise the option
    whose immediate result the rule file's evaluation likes best for the player deciding (its
    lead over the best other player; a win beats any lead; ties broken at random). Each greedy
    step applies every option to a copy of the world, so a step costs about as many moves as
    there are options: worth it where the evaluation says something move by move."""

    def __init__(self, depth: int | None = None, epsilon: float = 0.25, max_decisions: int = 5_000):
        super().__init__(depth, max_decisions)
        self.epsilon = epsilon

    def run(self, state: Any, rng: random.Random) -> Any:
        limit = self.limit(state)
        while not state.over and state.decisions < limit:
            p = state.current_players()[0]
            n = state.option_count(p)
            if n == 1 or rng.random() < self.epsilon:
                state.apply_unchecked(p, int(rng.random() * n))
            else:
                state.apply_unchecked(p, best_option(state, p, n, rng))
        return state


def best_option(state: Any, player: int, n: int, rng: random.Random) -> int:
    """The option with the best one-step evaluation for `player` (ties: at random)."""
    best, ties = None, []
    for i in range(n):
        world = state.clone()
        world.apply_unchecked(player, i)
        value = judged_lead(world, player)
        if best is None or value > best:
            best, ties = value, [i]
        elif value == best:
            ties.append(i)
    return ties[int(rng.random() * len(ties))]
