"""Selection: which option a search tries next, by upper confidence bounds (UCB1)."""
from __future__ import annotations

import math
import random
from dataclasses import dataclass


@dataclass
class Stats:
    """Visits and summed reward of one option (flat search) or one tree edge."""

    visits: int = 0
    total: float = 0.0
    available: int = 0  # times the edge could have been chosen (information-set search)

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


class Ucb1:
    """The option with the best upper confidence bound; unvisited options first."""

    def __init__(self, c: float = 1.4):
        self.c = c

    def bound(self, s: Stats, parent_visits: int) -> float:
        return s.mean + self.c * math.sqrt(math.log(max(parent_visits, 1)) / s.visits)

    def pick(self, stats: list[Stats], rng: random.Random) -> int:
        """Flat choice among all options: the parent count is the sum of visits."""
        unvisited = [i for i, s in enumerate(stats) if s.visits == 0]
        if unvisited:
            return rng.choice(unvisited)
        n = sum(s.visits for s in stats)
        return max(range(len(stats)), key=lambda i: self.bound(stats[i], n))

    def pick_available(self, stats: list[Stats]) -> int:
        """Choice among edges available now: each edge counts how often it was available
        (subset-armed bandit, as in information-set MCTS). All must have been visited."""
        return max(range(len(stats)), key=lambda i: self.bound(stats[i], stats[i].available))
