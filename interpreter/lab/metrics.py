"""Game-design metrics over many simulated games, one metric per class.

Each metric sees every finished game record ({scores, winners, decisions, options}) and reports
one value. `simulate --json` includes them under "metrics"; add a class to METRICS for more.
"""
from __future__ import annotations

from typing import Any


class Metric:
    name = ""
    doc = ""

    def add(self, game: dict) -> None:
        raise NotImplementedError

    def add_many(self, game: dict, times: int) -> None:
        """`times` games that all ended as `game` (the tallies group equal outcomes). A metric
        may do this at once; by default it is `add` repeated."""
        for _ in range(times):
            self.add(game)

    def value(self) -> Any:
        raise NotImplementedError


class _Mean(Metric):
    def __init__(self):
        self.total, self.count = 0.0, 0

    def value(self) -> float:
        return round(self.total / self.count, 4) if self.count else 0.0


class Duration(_Mean):
    name, doc = "duration", "mean decisions per game"

    def add_many(self, game, times):
        self.total += game["decisions"] * times
        self.count += times

    def add(self, game):
        self.add_many(game, 1)


class BranchingFactor(_Mean):
    name, doc = "branching_factor", "mean number of options per decision"

    def add_many(self, game, times):
        self.total += game["options"] * times
        self.count += game["decisions"] * times

    def add(self, game):
        self.add_many(game, 1)


class Drawishness(_Mean):
    name, doc = "drawishness", "share of games without a single winner (draws and shared wins)"

    def add_many(self, game, times):
        self.total += (len(game["winners"]) != 1) * times
        self.count += times

    def add(self, game):
        self.add_many(game, 1)


class WinRateBySeat(Metric):
    name, doc = "win_rate_by_seat", "wins per seat (a win shared by k counts 1/k) over games"

    def __init__(self):
        self.wins: list[float] = []
        self.games = 0

    def add_many(self, game, times):
        n = len(game["scores"])
        if len(self.wins) < n:
            self.wins += [0.0] * (n - len(self.wins))
        for w in game["winners"]:
            self.wins[w] += times / len(game["winners"])
        self.games += times

    def add(self, game):
        self.add_many(game, 1)

    def value(self):
        return [round(w / self.games, 4) for w in self.wins] if self.games else []


class Balance(WinRateBySeat):
    name, doc = "balance", "1 − (best seat's win rate − worst seat's); 1 is perfectly balanced"

    def value(self):
        rates = super().value()
        return round(1 - (max(rates) - min(rates)), 4) if rates else 1.0


class Decisiveness(_Mean):
    name, doc = "score_margin", "mean score lead of the winner over the best other player"

    def add_many(self, game, times):
        scores = sorted(game["scores"], reverse=True)
        if len(scores) > 1 and all(isinstance(s, (int, float)) for s in scores):
            self.total += (scores[0] - scores[1]) * times
            self.count += times

    def add(self, game):
        self.add_many(game, 1)


METRICS = [Duration, BranchingFactor, Drawishness, WinRateBySeat, Balance, Decisiveness]


def compute(records: list[dict]) -> dict:
    metrics = [cls() for cls in METRICS]
    for record in records:
        for m in metrics:
            m.add(record)
    return {m.name: m.value() for m in metrics}
