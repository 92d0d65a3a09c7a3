"""Whole games of a generated program, for callers that need no engine state (`rulebook
simulate` with random, first or last agents): the program generated once per process and
configuration, and agents that see only the options list.

The agents draw exactly as agents/basic.py's, seeded as agents/registry.py seeds them (seed *
1009 + seat), so a generated game with these agents is the engine's game with those. A game
longer than the rule file's `max_decisions` stops with DecisionLimit (the engine reports it as
E312; a caller replays such a game in the engine, as any game a program fails to finish)."""
from __future__ import annotations

import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

from . import RuleFile, program_of, sourcecache, transpile
from .base import Unsupported

BASIC_KINDS = ("random", "first", "last")
_PROGRAMS: dict = {}  # (file, variants, players, options) -> play, or the Unsupported it raised


class DecisionLimit(RuntimeError):
    """A generated game asked for more decisions than the rule file's `max_decisions`."""


class TimeUp(RuntimeError):
    """A generated game ran past its deadline (checked at each decision)."""


@dataclass
class Outcome:
    """One finished generated game, as a simulation records it."""
    scores: list
    winners: list
    history: list  # [seat, option index] per decision
    rounds: int
    reason: Any
    options: int  # options offered, summed over the decisions


def program(file: str | Path, variants: Iterable[str | Path], players: int, options: dict) -> Callable:
    """The configuration's generated `play`, generated at its first use in this process (raises
    Unsupported, again at every call, if the generator does not cover the rule file)."""
    key = (str(file), tuple(map(str, variants)), players, tuple(sorted(options.items(), key=str)))
    hit = _PROGRAMS.get(key)
    if hit is None:
        try:
            hit = program_of(_source(file, list(variants), players, dict(options)), file)
        except Unsupported as exc:
            hit = exc
        _PROGRAMS[key] = hit
    if isinstance(hit, Unsupported):
        raise hit
    return hit


def _source(file: str | Path, variants: list, players: int, options: dict) -> str:
    """The configuration's program source, generated or kept on disk (sourcecache.py)."""
    def generate() -> tuple[str, list[str]]:
        rule_file = RuleFile(file, variants)
        return transpile(rule_file, players, options), list(rule_file.game.files)
    return sourcecache.source(file, variants, players, options, generate)


def forget() -> None:
    """Drop every generated program of this process (tests; a rule file edited mid-process)."""
    _PROGRAMS.clear()


def basic_agent(kind: str, seed: int, seat: int, counts: list, limit: int,
                offered: list | None = None, deadline: float | None = None) -> Callable:
    """`agent(options) -> index` drawing as agents/basic.py's `kind` seated at `seat` in game
    `seed`; counts[0] sums the options offered, counts[1] counts the decisions (over `limit`:
    DecisionLimit)."""
    if kind not in BASIC_KINDS:
        raise ValueError(f"agent {kind!r} needs the engine's states")
    draw = random.Random(seed * 1009 + seat).random if kind == "random" else None
    last = kind == "last"
    if offered is None and deadline is None and draw is not None:  # simulate's usual case, kept short
        def agent(options: list) -> int:
            n = len(options)
            counts[0] += n
            counts[1] += 1
            if counts[1] > limit:
                raise DecisionLimit(f"more than {limit} decisions")
            return int(draw() * n)
        return agent

    def agent(options: list) -> int:
        n = len(options)
        counts[0] += n
        counts[1] += 1
        if counts[1] > limit:
            raise DecisionLimit(f"more than {limit} decisions")
        if offered is not None:
            offered.append(list(options))
        if deadline is not None and time.monotonic() > deadline:
            raise TimeUp()
        return int(draw() * n) if draw is not None else n - 1 if last else 0
    return agent

def play_whole(play: Callable, kinds: list[str], seed: int, limit: int, counts: list | None = None,
               offered: list | None = None, deadline: float | None = None) -> Outcome:
    """One whole game of a generated program with basic agents (`kinds`, one per seat). Raises
    whatever the program raises; a result the engine would refuse (winners that are not seats,
    scores that are not numbers) raises ValueError."""
    counts = [0, 0] if counts is None else counts
    agents = [basic_agent(kind, seed, seat, counts, limit, offered, deadline) for seat, kind in enumerate(kinds)]
    returns, history, winners, rounds, reason = play(seed, agents)
    n = len(kinds)
    for w in winners:
        if type(w) is not int or not 0 <= w < n:
            raise ValueError(f"winners {winners!r} are not seats")
    for s in returns:
        if type(s) is not int and type(s) is not float:
            raise ValueError(f"scores {returns!r} are not numbers")
    return Outcome(list(returns), list(winners), history, rounds or 0, reason, counts[0])
