"""The engine's rewound worlds of a decision inside an open simultaneous block, made on the
resumable program (stepper.py), so that flat MCTS plays those iterations there too.

Where others already chose in the block the player decides in, agents/determinize.py rewinds it:
the state at the block's start is resampled for the player (interpreter/resample.py), every
pick made in the block is applied again in order — another player's drawn at random among its
options of the same kind (a pick or the stop), the player's own as made — and the world is kept
only if the player is then offered what it sees now (else the engine draws another world). Here
the same steps on the stepper: worlds.StepperWorlds of the block's start (the root: the first
chooser's stop, its waiting decision the engine's), each chooser's first stop taking over the
engine's waiting decision (adoption.py), the others' picks drawn with the same `random()` calls,
and the player's options compared with those it is offered now (used only where the decision's
labels are made from its options alone, stepper.py's SITE_PARTS: label_reads.py; so equal options
are equal labels). Anything that parts (another order, a
player no longer asked, other options) raises worlds.Parted: the engine plays that iteration.
"""
from __future__ import annotations

import random
from typing import Any

from ..options import DONE, PASS
from ..threads import waiting
from .compare import state_difference
from .stepper import OPTIONS, SEAT
from .worlds import Parted, StepperWorlds, same_attributes

SENTINELS = (DONE, PASS)


class StepperRewinds:
    """The rewound worlds of one decision (see the module's docstring). Build with `prepare`."""

    def __init__(self, worlds: StepperWorlds, steps: list, player: int, options: list):
        self.worlds, self.m = worlds, worlds.m
        self.steps = steps  # the block's picks: (author, own index, whether a stop/pass) each
        self.player, self.options = player, options  # the decision and what it offers now

    @classmethod
    def prepare(cls, S: Any, player: int, block: tuple, resampler: Any) -> "StepperRewinds | None":
        """The rewound worlds of S's decision for `player`; `block`: (the state at the block's
        start, its steps) as determinize._open_block gives them, `resampler`: that state's for
        `player`. None where the stepper would not make the engine's."""
        pend = waiting(S)[player].pending
        base, steps = block
        worlds = StepperWorlds.prepare(base, player, resampler, any_seat=True)
        if worlds is None:
            return None
        m, st = worlds.m, worlds.m.clone(worlds.root)
        for author, index, _ in steps:  # the block in the history's order, one chooser after another
            if m.over(st) or m.seat(st) != author or not 0 <= index < len(m.options(st)):
                return None
            m.apply(st, index)
        if m.over(st) or m.seat(st) != player or list(m.options(st)) != list(pend.options):
            return None
        if not m.site_parts[st[0]][-1]:
            return None  # labels made from more than the options: the stepper cannot compare them
        if state_difference(S, m.export(st)) is not None or not same_attributes(m, S, st):
            return None
        return cls(worlds, steps, player, list(pend.options))

    def sample(self, rng: random.Random) -> list:
        """A world at the player's decision, drawn as Determinizer._rewound draws it."""
        worlds, m = self.worlds, self.m
        world = worlds.sample(rng)
        todo, mapping = worlds.todo, worlds.mapping
        for author, index, sentinel in self.steps:
            if m.over(world) or world[SEAT] != author:
                raise Parted
            w = todo.pop(author, None)
            if w is not None and not worlds.adopt(world, w):
                raise Parted
            options = world[OPTIONS]
            if author != self.player:
                same = [j for j, o in enumerate(options) if (o in SENTINELS) == sentinel]
                if not same:
                    raise Parted
                index = same[int(rng.random() * len(same))]
            elif index >= len(options):
                raise Parted
            m.apply(world, index)
        if m.over(world) or world[SEAT] != self.player:
            raise Parted
        w = todo.pop(self.player, None)
        if w is not None and not worlds.adopt(world, w):
            raise Parted
        if world[OPTIONS] != self.options:
            raise Parted
        return world

    def play(self, world: list, i: int, agents: list) -> None:
        """The playout from the player's pick `i` (StepperWorlds.play)."""
        self.worlds.play(world, i, agents)
