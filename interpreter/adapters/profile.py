"""What an adapter must declare about one configuration of a rule file, derived from the file.

Facts read from the compiled rules: simultaneous secret choices (a `simultaneous` block, or
`turns: simultaneous`), randomness (a random primitive in the rule text), perfect information
(every zone, counter and variable public, nothing simultaneous) and the longest game
(`max_decisions`). Bounds that the rules do not state (how many options a decision offers, how
many outcomes a draw has, the range of the scores) are derived from the layout (pieces,
actions, table lists, die faces) and widened by what a fixed set of seeded random games shows;
the adapters check them at every step and say which argument to pass when a game goes beyond.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..game import Game
from .chance import RecordingRng

RANDOM_PRIMITIVES = re.compile(r"\b(shuffle|shuffled|roll|random_choice|random_int)\b")
UTILITIES = ("win_loss", "scores")


class AdapterError(ValueError):
    """A game went beyond what its adapter declared, or an adapter was asked something it
    cannot do; the message says what to pass instead."""


@dataclass(frozen=True)
class Profile:
    players: int
    options: dict
    simultaneous: bool
    random: bool
    perfect_information: bool
    max_actions: int
    max_outcomes: int
    max_length: int
    score_low: float
    score_high: float
    score_sum: float | None  # the same sum of scores in every sampled game, else None
    utility: str

    def utility_range(self) -> tuple[float, float]:
        if self.utility == "scores":
            return self.score_low, self.score_high
        if self.players == 1:
            return 0.0, 1.0
        return -1.0 / (self.players - 1), 1.0

    def utility_sum(self) -> float | None:
        if self.utility == "scores":
            return self.score_sum
        return 0.0 if self.players > 1 else None

    def utilities(self, scores: list, winners: list) -> list[float]:
        """The utilities of a finished game (see docs/adapters.md, "Returns")."""
        if self.utility == "scores":
            values = [float(s) for s in scores]
            self._check_scores(values)
            return values
        n = self.players
        if n == 1:
            return [1.0 if 0 in winners else 0.0]
        if not winners:
            return [0.0] * n
        k = len(winners)  # n/(n-1) * (1/k - 1/n) for a winner, written so 1 stays exactly 1
        return [(n - k) / (k * (n - 1)) if p in winners else -1.0 / (n - 1) for p in range(n)]

    def _check_scores(self, values: list) -> None:
        low, high = self.score_low, self.score_high
        if any(v < low or v > high for v in values):
            raise AdapterError(f"scores {values} are outside the declared range [{low}, {high}] "
                               "(derived from sampled games): pass score_range=(low, high)")
        if self.score_sum is not None and abs(sum(values) - self.score_sum) > 1e-9:
            raise AdapterError(f"scores {values} do not add up to {self.score_sum} as every sampled "
                               "game did: pass more samples, or utility='win_loss'")


_LOADED: dict = {}


def load_rules(file: str | Path, variants: tuple = ()) -> Game:
    """Game.load, remembered per file set (and the files' modification times), so that making
    many environments of one game loads and compiles it once."""
    paths = [Path(file).resolve()] + [Path(v).resolve() for v in variants]
    key = tuple((str(p), p.stat().st_mtime_ns if p.exists() else None) for p in paths)
    if key not in _LOADED:
        _LOADED[key] = Game.load(file, variants)
    return _LOADED[key]


def derive(game: Game, players: int | None, options: dict | None, *, utility: str = "win_loss",
           max_actions: int | None = None, score_range: tuple | None = None,
           samples: int = 20, seed: int = 0) -> Profile:
    """The profile of one configuration, from its rules and `samples` seeded random games
    (remembered per game and arguments)."""
    if utility not in UTILITIES:
        raise AdapterError(f"utility must be one of {', '.join(UTILITIES)}, not {utility!r}")
    n = game.default_players if players is None else int(players)
    opts = game.resolve_options(options)
    key = (id(game), n, repr(sorted(opts.items())), utility, max_actions,
           None if score_range is None else tuple(score_range), samples, seed)
    if key not in _PROFILES:
        _PROFILES[key] = (game, _derive(game, n, opts, utility, max_actions, score_range, samples, seed))
    return _PROFILES[key][1]


_PROFILES: dict = {}


def _derive(game: Game, n: int, opts: dict, utility: str, max_actions: int | None,
            score_range: tuple | None, samples: int, seed: int) -> Profile:
    first = game.new_game(n, opts, seed=seed, logging=False)
    widest_options, widest_draw, lows, highs, sums = 0, 0, [], [], set()
    for i in range(samples):
        rng = RecordingRng(seed + i)
        S = game.new_game(n, opts, seed=seed + i, logging=False, rng=rng)
        pick = random.Random(seed + i)
        while not S.is_terminal():
            p = S.current_players()[0]
            k = S.option_count(p)
            widest_options = max(widest_options, k)
            S.apply(p, pick.randrange(k))
        widest_draw = max(widest_draw, rng.widest)
        scores = S.returns()
        lows.append(min(scores))
        highs.append(max(scores))
        sums.add(round(float(sum(scores)), 9))
    pieces = len(first.lay.pieces)
    has_random = _mentions_randomness(game)
    if score_range is not None:
        low, high = float(score_range[0]), float(score_range[1])
    else:
        low, high = float(min(lows, default=0)), float(max(highs, default=0))
        if low == high:
            low, high = low - 1.0, high + 1.0
    score_sum = sums.pop() if len(sums) == 1 else None
    faces = [len(c.faces) for c in game.d.components.values() if c.faces]
    return Profile(
        players=n, options=opts, simultaneous=_has_simultaneous(game), random=has_random,
        perfect_information=_perfect_information(game),
        max_actions=int(max_actions) if max_actions else max(
            pieces + 1, len(game.d.actions) + 1, _longest_list(game.d.tables) + 1,
            2 * widest_options, 2),
        max_outcomes=max(pieces, max(faces, default=0), 2 * widest_draw, 2) if has_random else 0,
        max_length=game.d.max_decisions, score_low=low, score_high=high, score_sum=score_sum,
        utility=utility)


def _has_simultaneous(game: Game) -> bool:
    return any("/simultaneous@" in name for name in game.d.procs)


def _mentions_randomness(game: Game) -> bool:
    """Whether any rule file names a random primitive (an over-approximation: a game declared
    without chance never meets a draw)."""
    return any(RANDOM_PRIMITIVES.search(Path(f).read_text(encoding="utf-8")) for f in game.d.files)


def _perfect_information(game: Game) -> bool:
    d = game.d
    if _has_simultaneous(game):
        return False
    zones_open = all(z.custom is None and z.vis_up == "all" and z.vis_down == "all"
                     for z in d.zones.values())
    slots_open = all(s.visibility == "public" for s in list(d.counters.values()) + list(d.variables.values()))
    return zones_open and slots_open


def _longest_list(value: Any) -> int:
    if isinstance(value, dict):
        return max((_longest_list(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return max([len(value)] + [_longest_list(v) for v in value])
    return 0
