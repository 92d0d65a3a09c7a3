"""Greedy: the option whose result the rule file's evaluation likes best, one step ahead.

Each option is applied to the same few determinizations (worlds consistent with what the
player sees) and judged by the player's lead in `agents: evaluate:` (default: the score); a win
at the end beats every lead, a loss is worse than any, a draw counts as the lead alone. Ties are broken by the agent's own
seeded generator.
"""
from __future__ import annotations

import random
from typing import Any

from .determinize import Determinizer, WorldFailures
from .evaluation import judged_lead


class GreedyAgent:
    def __init__(self, seed: int = 0, samples: int = 2):
        self.rng = random.Random(seed)
        self.samples = samples
        self.failures = WorldFailures()

    def choose(self, state: Any, player: int) -> int:
        n = state.option_count(player)
        if n == 1:
            return 0
        totals = [0.0] * n
        worlds = Determinizer(state, player)
        for _ in range(self.samples):
            base = worlds.sample(self.rng)
            for i in range(n):
                with self.failures.guard():  # a world the sampler got wrong adds nothing
                    world = base.clone()
                    world.apply(player, i)
                    totals[i] += judged_lead(world, player)
        self.failures.check()
        best = max(totals)
        return self.rng.choice([i for i, t in enumerate(totals) if t == best])
