"""Prepared starts: a new game copied from one set up before, when only the seed differs.

A game's setup (everything up to the first decision) depends on the rules, the player count,
the options, the language, the logging switch, and on the numbers its random draws give: every
draw is `Rng.below(n)` (rng.py; `shuffle` draws the same numbers inlined). So the starts of
one setting form a tree: the range of the first draw is fixed, each outcome fixes the range of
the next draw, or ends the setup at a state. `Starts` keeps that tree for one setting while it
stays small (setups of at most MAX_DRAWS draws, at most MAX_STARTS distinct starts). A new game
draws from its own seeded generator down the tree, exactly the draws its setup would make; at
a leaf it is a copy of the state kept there, with that generator, left where the setup would
have left it. Off the tree (a start not seen yet) the setup runs, recording its draws, and its
start joins the tree.

What the setup runs is not affected: a start copied from the tree equals the setup's own
(tests/engine/test_start_template.py compares them on every rule file).
"""
from __future__ import annotations

from typing import Any

from .budget import METER
from .rng import Rng
from .threads import deciders_of

MAX_DRAWS = 6  # a setup drawing more (a shuffled deck) has too many starts to keep
MAX_STARTS = 128  # distinct starts kept per setting; past this the tree is dropped


class StartTemplate:
    """A game at its first decision. The expression budget is kept as the setup left it, so
    what runs next counts the same."""

    __slots__ = ("state", "work", "steps", "limits", "seat")

    def __init__(self, S: Any):
        self.state = S.clone()
        self.work = METER.work
        self.steps = S.steps
        self.limits = S.game.limits
        deciders = deciders_of(S.threads)  # one flow waiting for one player: its index is made
        self.seat = next(iter(deciders)) if len(S.threads) == 1 and deciders else None  # at once

    def copy(self, rng: Rng, seed: int) -> Any:
        S = self.state.clone()
        S.seed = seed
        S.rng = rng
        S.steps = self.steps
        if self.seat is not None:  # the first thing a new game is asked is who decides
            S.deciders = {self.seat: S.threads[0]}
        METER.start(self.limits)
        METER.work = self.work  # the setup's count
        return S


class _Draw:
    """A draw of the setup: its range, and what follows each outcome (a _Draw or a template)."""

    __slots__ = ("bound", "next")

    def __init__(self, bound: int):
        self.bound = bound
        self.next: dict = {}


class Recorder(Rng):
    """The seeded generator, writing down each draw of a setup as (range, outcome)."""

    __slots__ = ("draws",)

    def __init__(self, seed: int):
        super().__init__(seed)
        self.draws: list = []

    def below(self, n: int) -> int:
        r = Rng.below(self, n)
        if len(self.draws) <= MAX_DRAWS:  # one past the limit is enough to know it is passed
            self.draws.append((n, r))
        return r

    def plain(self) -> Rng:
        """A plain generator in the same state (what the game keeps after its setup)."""
        return Rng.copy(self)


class Starts:
    """The prepared starts of one setting (see the module docstring)."""

    __slots__ = ("root", "count", "closed")

    def __init__(self):
        self.root: Any = None  # None, a _Draw, or a StartTemplate (a setup that draws nothing)
        self.count = 0
        self.closed = False  # True: nothing more is recorded

    def start(self, seed: int) -> Any:
        """A copy of the start this seed leads to, or None if it is not kept."""
        node = self.root
        if node is None:
            return None
        rng = Rng(seed)
        while type(node) is _Draw:
            node = node.next.get(rng.below(node.bound))
            if node is None:
                return None
        return node.copy(rng, seed)

    def keep(self, S: Any, draws: list) -> None:
        """Remember the start S that the setup reached with these draws."""
        if len(draws) > MAX_DRAWS or self.count >= MAX_STARTS:
            self.root, self.closed = None, True
            return
        template = StartTemplate(S)
        self.count += 1
        if not draws:
            self.root = template
            return
        if self.root is None:
            self.root = _Draw(draws[0][0])
        node = self.root
        last = len(draws) - 1
        for i, (bound, outcome) in enumerate(draws):
            if type(node) is not _Draw or node.bound != bound:  # not a function of the draws
                self.root, self.closed = None, True
                return
            child = node.next.get(outcome)
            if i == last:
                if child is not None:  # kept already, or not a function of the draws
                    self.root, self.closed = None, True
                    return
                node.next[outcome] = template
                return
            if child is None:
                child = node.next[outcome] = _Draw(draws[i + 1][0])
            node = child
