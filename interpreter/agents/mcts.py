"""A Monte-Carlo search agent for any rule file, built from small replaceable parts.

Each iteration samples a *determinization*: a copy of the state in which everything hidden
from the deciding player is reshuffled among indistinguishable pieces (the engine's
`interpreter.resample.resample`), so the agent only uses what that player can see. It picks a root option
with a selection policy, plays the game out with a playout policy, and scores the end with an
evaluation. Parts are classes with one method each, so strategies compose:

    MctsAgent(iterations=200, select=Ucb1(c=1.4), playout=RandomPlayout(), evaluate=WinShare())

This is flat (root-level) UCB over determinized playouts: cheap and robust for games with
hidden information and simultaneous choices; deeper trees can be added as another policy.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Stats:
    visits: int = 0
    total: float = 0.0

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


class Ucb1:
    """Selection: the option with the best upper confidence bound (unvisited first)."""

    def __init__(self, c: float = 1.4):
        self.c = c

    def pick(self, stats: list[Stats], rng: random.Random) -> int:
        unvisited = [i for i, s in enumerate(stats) if s.visits == 0]
        if unvisited:
            return rng.choice(unvisited)
        n = sum(s.visits for s in stats)
        return max(range(len(stats)),
                   key=lambda i: stats[i].mean + self.c * math.sqrt(math.log(n) / stats[i].visits))


class RandomPlayout:
    """Playout: everyone picks uniformly at random until the end (or a decision cap)."""

    def __init__(self, max_decisions: int = 5_000):
        self.max_decisions = max_decisions

    def run(self, state: Any, rng: random.Random) -> Any:
        limit = state.decisions + self.max_decisions
        while not state.over and state.decisions < limit:
            p = state.current_players()[0]
            state.apply(p, rng.randrange(len(state.legal_actions(p))))
        return state


class WinShare:
    """Evaluation: 1 for a win, 1/k for a win shared by k, 0 otherwise; a small score bonus."""

    def __init__(self, score_weight: float = 0.01):
        self.score_weight = score_weight

    def value(self, state: Any, player: int) -> float:
        if not state.over:
            return 0.5
        winners = state.winners()
        win = (1.0 / len(winners)) if player in winners else 0.0
        scores = state.returns()
        spread = (max(scores) - min(scores)) or 1
        return win + self.score_weight * (scores[player] - min(scores)) / spread


@dataclass
class MctsAgent:
    iterations: int = 200
    seed: int = 0
    select: Any = field(default_factory=Ucb1)
    playout: Any = field(default_factory=RandomPlayout)
    evaluate: Any = field(default_factory=WinShare)

    def __post_init__(self):
        self.rng = random.Random(self.seed)

    def choose(self, state: Any, player: int) -> int:
        from ..resample import resample

        n = len(state.legal_actions(player))
        if n == 1:
            return 0
        stats = [Stats() for _ in range(n)]
        for _ in range(self.iterations):
            world, _ = resample(state, player, self.rng)
            world.logging = False
            i = self.select.pick(stats, self.rng)
            world.apply(player, i)
            self.playout.run(world, self.rng)
            stats[i].visits += 1
            stats[i].total += self.evaluate.value(world, player)
        return max(range(n), key=lambda i: (stats[i].mean, stats[i].visits))
