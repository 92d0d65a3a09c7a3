"""Flat Monte-Carlo search: UCB over the deciding player's options at the root only.

Each iteration samples a determinization (a world consistent with what the player sees), picks
a root option with the selection policy, plays on with the playout policy and scores the result
with the evaluation. The parts are small classes, so strategies compose:

    MctsAgent(Budget(200), seed=1, select=Ucb1(c=1.4), playout=RandomPlayout(depth=20),
              evaluate=Evaluation())

Cheap and robust with hidden information and simultaneous choices; `ismcts` grows a tree.

With `transpiled` (the default) the iterations run on the rule file's resumable generated
program where it covers the configuration and plays the engine's iterations exactly
(transpiled.py: same worlds, same draws, same scores, so the same move); elsewhere, and for any
iteration it fails, on the engine. `transpiled=False` always uses the engine.
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
from .transpiled import StepperIterations


GIVE_UP = 5  # iterations of one decision the generated program fails, none passed: the engine plays on


@dataclass
class MctsAgent:
    budget: Budget = field(default_factory=lambda: Budget(iterations=200))
    seed: int = 0
    select: Any = field(default_factory=Ucb1)
    playout: Any = field(default_factory=RandomPlayout)
    evaluate: Any = field(default_factory=Evaluation)
    transpiled: bool = True

    def __post_init__(self):
        if isinstance(self.budget, int):
            self.budget = Budget(iterations=self.budget)
        self.rng = random.Random(self.seed)
        self.iterations_done = 0  # over all decisions (for benchmarks)
        self.on_stepper = 0  # of those, played on the generated program (transpiled.py)
        self.replayed = 0  # iterations the generated program failed, played again by the engine
        self.failures = WorldFailures()

    def choose(self, state: Any, player: int) -> int:
        n = state.option_count(player)
        if n == 1:
            return 0
        stats = [Stats() for _ in range(n)]
        worlds = Determinizer(state, player)
        fast = StepperIterations.prepare(worlds, self.playout, self.evaluate) if self.transpiled else None
        passed = failed = 0
        for _ in self.budget.ticks():
            if fast is not None:
                if self._on_stepper(fast, stats, player):
                    passed += 1
                    continue
                failed += 1
                if failed >= GIVE_UP and not passed:  # it fails them all: the engine's from here
                    fast = None
            with self.failures.guard():
                world = worlds.sample(self.rng)
                i = self.select.pick(stats, self.rng)
                world.apply(player, i)
                self.playout.run(world, self.rng)
                stats[i].visits += 1
                stats[i].total += self.evaluate.value(world, player)
                self.iterations_done += 1
        if fast is not None:
            fast.done()
        self.failures.check()
        self.last_stats = stats  # the root's statistics of the last decision (tests, tools)
        return max(range(n), key=lambda i: (stats[i].mean, stats[i].visits))

    def _on_stepper(self, fast: StepperIterations, stats: list, player: int) -> bool:
        """One iteration on the generated program; False (the generator's state put back, for
        the engine to play the same iteration) if the program fails it."""
        fast.keep(stats, self.rng)
        try:
            i, result = fast.run(stats, self.select, self.rng)
        except Exception:  # noqa: BLE001 - the engine plays this iteration, from the same draws
            fast.rewind(self.select, self.rng)
            self.replayed += 1
            return False
        value = self.evaluate.value(fast.ended(result), player)
        fast.passed(i, value)
        stats[i].visits += 1
        stats[i].total += value
        self.iterations_done += 1
        self.on_stepper += 1
        self.failures.passed()
        return True
