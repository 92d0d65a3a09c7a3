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
    squares: float = 0.0  # summed squared reward (UCB1-Tuned's variance; flat search leaves it)

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


class Ucb1Tuned(Ucb1):
    """UCB1-Tuned (Auer, Cesa-Bianchi & Fischer 2002): the exploration term shrinks with the
    observed variance of an edge's rewards. Rewards of cut playouts sit in a narrow band around
    one half, where plain UCB1 with a fixed constant explores almost uniformly; the variance
    term scales exploration to the spread actually seen. Edges must record `squares`."""

    def bound(self, s: Stats, parent_visits: int) -> float:
        log_n = math.log(max(parent_visits, 1))
        mean = s.mean
        variance = max(0.0, s.squares / s.visits - mean * mean) + math.sqrt(2 * log_n / s.visits)
        return mean + self.c * math.sqrt(log_n / s.visits * min(0.25, variance))
