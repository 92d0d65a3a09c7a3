"""Flat Monte-Carlo search: UCB over the deciding player's options at the root only.

Each iteration samples a determinization (a world consistent with what the player sees), picks
a root option with the selection policy, plays on with the playout policy and scores the result
with the evaluation. The parts are small classes, so strategies compose:

    MctsAgent(Budget(200), seed=1, select=Ucb1(c=1.4), playout=RandomPlayout(depth=20),
              evaluate=Evaluation())

Cheap and robust with hidden information and simultaneous choices; `ismcts` grows a tree.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from .budget import Budget
from .determinize import Determinizer, WorldFailures
from .evaluation import Evaluation
from .playout import RandomPlayout
from .selection import Stats, Ucb1


@dataclass
class MctsAgent:
    budget: Budget = field(default_factory=lambda: Budget(iterations=200))
    seed: int = 0
    select: Any = field(default_factory=Ucb1)
    playout: Any = field(default_factory=RandomPlayout)
    evaluate: Any = field(default_factory=Evaluation)

    def __post_init__(self):
        if isinstance(self.budget, int):
            self.budget = Budget(iterations=self.budget)
        self.rng = random.Random(self.seed)
        self.iterations_done = 0  # over all decisions (for benchmarks)
        self.failures = WorldFailures()

    def choose(self, state: Any, player: int) -> int:
        n = state.option_count(player)
        if n == 1:
            return 0
        stats = [Stats() for _ in range(n)]
        worlds = Determinizer(state, player)
        for _ in self.budget.ticks():
            with self.failures.guard():
                world = worlds.sample(self.rng)
                i = self.select.pick(stats, self.rng)
                world.apply(player, i)
                self.playout.run(world, self.rng)
                stats[i].visits += 1
                stats[i].total += self.evaluate.value(world, player)
                self.iterations_done += 1
        self.failures.check()
        return max(range(n), key=lambda i: (stats[i].mean, stats[i].visits))
