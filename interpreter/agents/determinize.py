"""Determinization: a complete world consistent with everything one player can see.

Every piece hidden from the player is swapped with an indistinguishable one (same back, same
public attributes, same face) and the game's random generator gets a fresh state, so chance
after this point is resampled too. Inside an open simultaneous block, the secret choices other
players already made are resampled as well: the world is rebuilt from the block's start, the
player's own picks replayed and everyone else's drawn at random (same number of picks, which is
seen at a table). The result depends only on the player's information and on the agent's
generator.

This is the one place the agents reach for the engine's resampling operation
(`interpreter.resample.Resampler`, which also re-rolls hidden dice).
"""
from __future__ import annotations

import random
from contextlib import contextmanager
from typing import Any, Iterator

from ..decisions import DONE, PASS, build_options, pending_for
from ..errors import RuleRuntimeError, RulebookError
from ..replays import KeptReplays
from ..resample import Resampler
from ..values import Piece

SENTINELS = (DONE, PASS)


class Determinizer:
    """Samples worlds for one decision of `player` in `state` (prepared once per decision: the
    look-alike places of hidden pieces are found once, each world is a shuffle and a clone)."""

    def __init__(self, state: Any, player: int):
        self.state = state
        self.player = player
        self.block = _open_block(state, player)
        self.labels = state.option_labels(player) if self.block else None
        self._here = None  # Resampler of `state`, made when first needed
        self._base = Resampler(self.block[0], player) if self.block else None

    def sample(self, rng: random.Random) -> Any:
        """A fresh world, logging off."""
        world = self._rewound(rng) if self.block else None
        if world is None:
            world = self.resampler().sample(rng)[0]
        world.logging = False
        return world

    def resampler(self) -> Resampler:
        """The Resampler of the state itself (made once; shared with agents/transpiled.py)."""
        if self._here is None:
            self._here = Resampler(self.state, self.player)
        return self._here

    def block_resampler(self) -> Resampler | None:
        """The Resampler of the open block's start (None outside one; shared with
        agents/transpiled.py)."""
        return self._base

    def _rewound(self, rng: random.Random) -> Any | None:
        steps = self.block[1]
        world = self._base.sample(rng)[0]
        world.logging = False
        for author, index, sentinel in steps:
            if world.over or author not in world.current_players():
                return None
            if author != self.player:
                options = pending_for(world, author).pending.options
                same = [j for j, o in enumerate(options) if (o in SENTINELS) == sentinel]
                if not same:
                    return None
                index = same[int(rng.random() * len(same))]
            elif index >= world.option_count(author):
                return None
            world.apply(author, index)
        if self.player not in world.current_players() or world.option_labels(self.player) != self.labels:
            return None  # something seen during the block came out differently: no rewind
        return world


class WorldFailures:
    """Rule errors met inside sampled worlds. A world the sampler got wrong (an arrangement the
    real game cannot reach) must not stop the real game: the iteration is dropped and counted.
    If a whole decision's iterations all fail, the last error is raised: then the rules, not
    the sampling, are at fault."""

    def __init__(self):
        self.count = 0  # dropped iterations, over all decisions
        self._tried = 0
        self._failed = 0
        self._last: RulebookError | None = None

    @contextmanager
    def guard(self) -> Iterator[None]:
        self._tried += 1
        try:
            yield
        except RuleRuntimeError as exc:
            self._failed += 1
            self.count += 1
            self._last = exc

    def passed(self) -> None:
        """An iteration that succeeded outside `guard` (played on the generated program)."""
        self._tried += 1

    def check(self) -> None:
        """End of a decision: raise if nothing succeeded; reset."""
        all_failed = self._tried > 0 and self._failed == self._tried
        last, self._tried, self._failed, self._last = self._last, 0, 0, None
        if all_failed and last is not None:
            raise last


def determinize(state: Any, player: int, rng: random.Random) -> Any:
    """One world for `player` (prepare a Determinizer when sampling many for one decision)."""
    return Determinizer(state, player).sample(rng)


def _open_block(state: Any, player: int) -> tuple | None:
    """(the state when the innermost open simultaneous block began, the block's decisions as
    (author, own option index, whether a stop/pass)) when others already chose in it."""
    blocks = [t for t in state.threads if t.status == "wait" and t.since is not None]
    if not blocks:
        return None
    since = blocks[-1].since
    block = state.history[since:]
    if all(author == player for author, _ in block):
        return None
    base = _replayed(state, since)
    replay = base.clone()
    steps = []
    for author, index in block:
        option = pending_for(replay, author).pending.options[index]
        steps.append((author, index, option in SENTINELS))
        replay.apply_unchecked(author, index)
    return base, steps


KEPT = 8  # block starts kept (a game's decisions extend each other's histories: replays.py)
_kept = KeptReplays(KEPT)


def _replayed(state: Any, since: int) -> Any:
    """A new state of state's game at its decision `since`: a new game with the first `since`
    decisions of its history applied (unchecked: the state's own decisions, so exact), played
    on from a copy of the kept state of the longest prefix of them (replays.py)."""
    key = (id(state.game), state.n, repr(sorted(state.options.items(), key=str)), state.seed)
    # the kept state holds the game's definition, so the id in its key stays that game's
    kept = _kept.replay(key, [tuple(h) for h in state.history[:since]],
                        lambda: _game(state.game).new_game(state.n, state.options, state.seed, logging=False),
                        lambda s: s.clone(), _play_on)
    return kept.clone()


def _play_on(state: Any, rest: list) -> bool:
    for author, index in rest:
        state.apply_unchecked(author, index)
    return True


_GAMES: dict = {}


def _game(definition: Any) -> Any:
    from ..game import Game
    key = id(definition)
    if key not in _GAMES:
        _GAMES[key] = (definition, Game(definition))  # keeps the definition alive with its id
    return _GAMES[key][1]


def secret_kinds(world: Any, player: int) -> list[bool] | None:
    """For a decision of `player` inside an open simultaneous block (a secret pick): per option,
    whether it is the stop/pass sentinel — all that others see of the pick. None elsewhere."""
    if not any(t.status == "wait" and t.since is not None for t in world.threads):
        return None
    return [o in SENTINELS for o in pending_for(world, player).pending.options]
