"""Playout: finish (or look ahead in) a game from a determinized state."""
from __future__ import annotations

import random
from typing import Any


class RandomPlayout:
    """Everyone picks uniformly at random until the end, or for `depth` decisions when a depth
    is given (the evaluation then judges the unfinished game), or up to a safety cap."""

    def __init__(self, depth: int | None = None, max_decisions: int = 5_000):
        self.depth = depth
        self.max_decisions = max_decisions

    def run(self, state: Any, rng: random.Random) -> Any:
        steps = self.max_decisions if self.depth is None else min(self.depth, self.max_decisions)
        limit = state.decisions + steps
        while not state.over and state.decisions < limit:
            p = state.current_players()[0]
            state.apply(p, int(rng.random() * state.option_count(p)))
        return state
