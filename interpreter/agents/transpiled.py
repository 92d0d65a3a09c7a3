"""Flat MCTS iterations played on the resumable generated program (interpreter/transpile/
stepper.py) instead of the engine, where that plays the engine's iterations exactly.

An iteration of MctsAgent draws a world (determinize.py), picks a root option (selection.py),
plays the game to its end with random picks (playout.RandomPlayout) and scores the end
(evaluation.Evaluation). `StepperIterations` does the same with the same draws from the agent's
generator: the world is made on the stepper (transpile/worlds.py: the same pieces at the same
places, the same reseeded Rng, the decisions the engine's world has waiting taken over at their
players' stops; inside an open simultaneous block others chose in, the engine's rewound world:
transpile/rewinds.py), the playout is the stepper's `rollout` with agents drawing
`int(random() * len(options))` as RandomPlayout does, and the end is scored by the same
Evaluation. So the statistics, and the move chosen, are the engine's.

Used only where that holds: a RandomPlayout without depth, an Evaluation, a configuration the
generator covers, a decision (or an open block's start) the stepper reaches with the engine's
state. Anything the stepper fails on in an iteration (a construct it stops at, the playout's
decision cap, a world that parts from the engine's) is replayed by the engine from the same
generator state, so the agent's result never depends on which form ran.
"""
from __future__ import annotations

import copy
import itertools
import random
from typing import Any

from .determinize import Determinizer
from .evaluation import Evaluation
from .playout import RandomPlayout


REMARK = 16  # iterations from one saved generator state to the next (StepperIterations.keep)


SPARES = 4  # worlds of finished searches a program keeps (Stepper.spares)


def _take(spares: list) -> list | None:
    """One of the spare worlds, or None: list.pop, so that two searches never take the same."""
    try:
        return spares.pop()
    except IndexError:
        return None


class _Capped(Exception):
    """A stepper playout reached RandomPlayout's decision cap (the engine then judges the
    unfinished game by its heuristic: that iteration is the engine's to play)."""


class _Ended:
    """What Evaluation reads of a finished game (over, n, winners, returns)."""

    over = True

    def __init__(self, n: int, result: tuple):
        self.n = n
        self._returns, self._winners = list(result[0]), list(result[2])

    def winners(self) -> list:
        return list(self._winners)

    def returns(self) -> list:
        return list(self._returns)


class StepperIterations:
    """One decision's iterations on the stepper (see the module's docstring)."""

    def __init__(self, worlds: Any, n: int, cap: int):
        self.worlds, self.n, self.cap = worlds, n, cap
        # each iteration's world made in place of the last one's (worlds.StepperWorlds.sample); the
        # first in one a finished search left on the program (Stepper.spares), taken by pop: this
        # search's own, even with other searches on the same program at once (threads)
        self.reuses = hasattr(worlds, "fresh")
        self.world: list | None = _take(worlds.m.spares) if self.reuses else None
        # the agent's generator state and the statistics at a mark, and the iterations passed
        # since ((option, value) each): what `rewind` needs (keep/passed/rewind)
        self.mark: tuple | None = None
        self.since: list = []

    @classmethod
    def prepare(cls, engine: Determinizer, playout: Any, evaluate: Any) -> "StepperIterations | None":
        """None unless the iterations on the stepper are exactly the engine's (`engine`: the
        decision's engine worlds, whose Resampler is shared)."""
        if type(playout) is not RandomPlayout or playout.depth is not None or type(evaluate) is not Evaluation:
            return None
        try:
            if engine.block is not None:  # the engine rewinds an open simultaneous block
                from ..transpile.rewinds import StepperRewinds
                worlds = StepperRewinds.prepare(engine.state, engine.player, engine.block,
                                                engine.block_resampler())
            else:
                from ..transpile.worlds import StepperWorlds
                worlds = StepperWorlds.prepare(engine.state, engine.player, engine.resampler())
        except Exception:  # noqa: BLE001 - whatever the fast form cannot do, the engine does
            return None
        return None if worlds is None else cls(worlds, engine.state.n, playout.max_decisions)

    def run(self, stats: list, select: Any, rng: random.Random) -> tuple[int, tuple]:
        """One iteration: (the root option tried, the finished game's result tuple, to be read
        before the next iteration: its history is the world's list, which the next refills).
        Raises whatever the stepper raises (the caller replays the iteration in the engine)."""
        if self.reuses:
            world = self.world = self.worlds.sample(rng, self.world)
        else:
            world = self.worlds.sample(rng)
        i = select.pick(stats, rng)
        draw, cap, counted = rng.random, self.cap, itertools.count(1).__next__

        def agent(options: list) -> int:
            if counted() > cap:
                raise _Capped
            return int(draw() * len(options))

        self.worlds.play(world, i, [agent] * self.n)
        return i, self.worlds.m.result(world)

    def done(self) -> None:
        """The search is over: its world left for the next search on the program to make again."""
        world, self.world = self.world, None
        if world is not None and len(self.worlds.m.spares) < SPARES:
            self.worlds.m.spares.append(world)

    def keep(self, stats: list, rng: random.Random) -> None:
        """Before an iteration: keep what `rewind` needs to put rng back to here. The generator's
        state (a 625-number tuple, about 2 % of an iteration) is taken every REMARK iterations;
        in between, the iterations passed since are recorded."""
        if self.mark is None or len(self.since) >= REMARK:
            self.mark, self.since = (rng.getstate(), [copy.copy(s) for s in stats]), []

    def passed(self, i: int, value: float) -> None:
        """The iteration kept before passed: option i tried, `value` added to its statistics."""
        self.since.append((i, value))

    def rewind(self, select: Any, rng: random.Random) -> None:
        """rng put back to where it was before the iteration that failed: the mark's state, and
        the iterations passed since played again (the same worlds and draws from the same
        statistics: each made the same pick, and passes again)."""
        state, kept = self.mark
        rng.setstate(state)
        stats = [copy.copy(s) for s in kept]
        for i, value in self.since:
            j, _ = self.run(stats, select, rng)
            if j != i:
                raise RuntimeError("an iteration played again picked another option")
            stats[i].visits += 1
            stats[i].total += value
        self.mark, self.since = None, []  # the engine draws next: a new mark before the next

    def ended(self, result: tuple) -> _Ended:
        return _Ended(self.n, result)
