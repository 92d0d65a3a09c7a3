"""Random draws as explicit chance outcomes.

Every random thing a rule does (shuffle, roll, random_int, random_choice, shuffled) draws
through one generator method, `below(n)`: a uniform integer in [0, n). A `ScriptedRng` answers
those draws from a list of outcomes given in advance, and raises `NeedChance(n)` at the first
draw it has no answer for. So a step of the game (setting it up, or applying decisions) can be
run with the outcomes drawn so far; when it stops at an unanswered draw, that draw is a chance
node with n equally likely outcomes, and the step is run again, from the state before it, once
the outcome is known. States before a step are never changed (steps run on clones), so a
`Node` is immutable and can be shared by any number of copies.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..game import Game
from ..rng import Rng


class NeedChance(BaseException):
    """A draw with no scripted outcome. A BaseException, so that the VM, which turns ordinary
    exceptions inside rule code into rule errors, lets it through unchanged."""

    def __init__(self, outcomes: int):
        super().__init__(outcomes)
        self.outcomes = outcomes


class ScriptedRng(Rng):
    """A generator whose draws are given in advance (see the module docstring)."""

    __slots__ = ("forced", "used")

    def __init__(self, forced: tuple = ()):  # noqa: D107 - no seeding: nothing is random here
        self.state = 0
        self.forced = tuple(forced)
        self.used = 0

    def copy(self) -> "ScriptedRng":
        r = ScriptedRng(self.forced)
        r.state, r.used = self.state, self.used
        return r

    def next32(self) -> int:
        raise RuntimeError("scripted chance answers below() only")

    def below(self, n: int) -> int:
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        if n == 1:
            return 0  # as Rng.below: one possible outcome is no draw
        if self.used < len(self.forced):
            k = self.forced[self.used]
            if not 0 <= k < n:
                raise ValueError(f"chance outcome {k} is not one of 0..{n - 1}")
            self.used += 1
            self.state += 1  # so "did this draw anything?" checks see the draw
            return k
        raise NeedChance(n)


class RecordingRng(Rng):
    """The seeded generator, remembering the largest number of outcomes of any draw."""

    __slots__ = ("widest",)

    def __init__(self, seed: int = 0):
        super().__init__(seed)
        self.widest = 0

    def copy(self) -> "RecordingRng":
        r = RecordingRng.__new__(RecordingRng)
        r.state, r.widest = self.state, self.widest
        return r

    def below(self, n: int) -> int:
        if n > self.widest:
            self.widest = n
        return super().below(n)


@dataclass(frozen=True)
class Node:
    """A point of the game tree. At a decision point (or the end) `state` is the engine state.
    At a chance node `state` is None: `base` is the state before the open step (None: the setup),
    `step` the decisions of that step, `draws` the outcomes drawn so far in it and `outcomes`
    the number of outcomes of the next draw. Never changed once made."""

    state: Any = None
    base: Any = None
    step: tuple = ()
    draws: tuple = ()
    outcomes: int = 0

    @property
    def is_chance(self) -> bool:
        return self.state is None

    def view(self, player: Any) -> dict:
        """The engine state's view for `player` (None: everything), made once per node."""
        cache = self.__dict__.setdefault("_views", {})
        if player not in cache:
            cache[player] = self.state.view(player)
        return cache[player]

    @cached_property
    def deciding(self) -> tuple:
        """Who decides here (empty at a chance node or the end)."""
        return () if self.state is None else tuple(self.state.current_players())

    def __deepcopy__(self, memo: dict) -> "Node":
        return self  # immutable: copies share it

    def __reduce__(self):
        """Pickled as the engine's JSON (State.to_json) of its states."""
        S = self.state if self.state is not None else self.base
        rules_hash = S.game.rules_hash if S is not None else None
        data = [None if x is None else x.to_json() for x in (self.state, self.base)]
        return _node_from, (rules_hash, data[0], data[1], self.step, self.draws, self.outcomes)


_GAMES: dict = {}  # rules hash -> Game, for reading pickled nodes


def _node_from(rules_hash: str | None, state: dict | None, base: dict | None, step: tuple,
               draws: tuple, outcomes: int) -> Node:
    game = _GAMES.get(rules_hash)
    if rules_hash is not None and game is None:
        raise ValueError("a pickled game position needs its rules loaded first (load_game)")
    restore = (lambda data: None if data is None else game.restore(data))
    return Node(restore(state), restore(base), tuple(step), tuple(draws), outcomes)


class Stepper:
    """Runs steps of one configuration (players, options): with scripted chance (explicit
    chance nodes), or, `sampled`, with the engine's own seeded generator (no chance nodes)."""

    def __init__(self, game: Game, players: int, options: dict, sampled: bool = False):
        _GAMES[game.d.rules_hash] = game
        self.game = game
        self.players = players
        self.options = options
        self.sampled = sampled

    def root(self, seed: int = 0) -> Node:
        """The start: with scripted chance, the setup's first draw (or first decision); sampled,
        the first decision of the game set up with `seed`."""
        if self.sampled:
            return Node(self.game.new_game(self.players, self.options, seed=seed))
        return self._run(None, (), ())

    def decide(self, node: Node, step: tuple) -> Node:
        """Apply decisions ((player, option index), …) taken together at a decision node."""
        if self.sampled:
            S = node.state.clone()
            for player, option in step:
                S.apply(player, option)
            return Node(S)
        return self._run(node.state, tuple(step), ())

    def chance(self, node: Node, outcome: int) -> Node:
        if not 0 <= outcome < node.outcomes:
            raise ValueError(f"chance outcome {outcome} is not one of 0..{node.outcomes - 1}")
        return self._run(node.base, node.step, node.draws + (outcome,))

    def _run(self, base: Any, step: tuple, draws: tuple) -> Node:
        rng = ScriptedRng(draws)
        try:
            if base is None:
                S = self.game.new_game(self.players, self.options, seed=0, rng=rng)
            else:
                S = base.clone()
                S.rng = rng
                for player, option in step:
                    S.apply(player, option)
        except NeedChance as need:
            return Node(None, base, step, draws, need.outcomes)
        return Node(S)
