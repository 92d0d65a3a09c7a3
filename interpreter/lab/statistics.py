"""Small, exact statistics for simulation results: intervals, streaming means, quantiles, tests.

Everything streams (one value at a time, constant memory) and uses only the standard library.
Intervals are 95 % unless said otherwise.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (good also near 0 %, 100 % and small n)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class RunningMean:
    """Mean and variance of a stream (Welford), with a normal-approximation interval."""

    n: int = 0
    mean: float = 0.0
    m2: float = 0.0

    def add(self, x: float, times: int = 1) -> None:
        """Add x (`times` times: Chan's update for a group of equal values)."""
        if times == 1:
            self.n += 1
            delta = x - self.mean
            self.mean += delta / self.n
            self.m2 += delta * (x - self.mean)
            return
        n = self.n
        self.n += times
        delta = x - self.mean
        self.mean += delta * times / self.n
        self.m2 += delta * delta * n * times / self.n

    @property
    def sd(self) -> float:
        return math.sqrt(self.m2 / (self.n - 1)) if self.n > 1 else 0.0

    def interval(self, z: float = Z95) -> tuple[float, float]:
        if self.n == 0:
            return (0.0, 0.0)
        half = z * self.sd / math.sqrt(self.n) if self.n > 1 else 0.0
        return (self.mean - half, self.mean + half)


@dataclass
class Histogram:
    """Counts of values (game lengths, scores): exact quantiles in memory bounded by the
    number of distinct values, not the number of games."""

    counts: Counter = field(default_factory=Counter)

    def add(self, x: float, times: int = 1) -> None:
        self.counts[x] += times

    @property
    def n(self) -> int:
        return sum(self.counts.values())

    def quantile(self, q: float) -> float:
        """The smallest value with at least q of the data at or below it."""
        total = self.n
        if total == 0:
            return 0.0
        need = max(1, math.ceil(q * total))
        seen = 0
        for value in sorted(self.counts):
            seen += self.counts[value]
            if seen >= need:
                return value
        return max(self.counts)

    def summary(self) -> dict:
        total = self.n
        if not total:
            return {"mean": 0.0, "min": 0, "p10": 0, "median": 0, "p90": 0, "max": 0}
        mean = sum(v * c for v, c in self.counts.items()) / total
        return {"mean": round(mean, 4), "min": min(self.counts), "p10": self.quantile(0.1),
                "median": self.quantile(0.5), "p90": self.quantile(0.9), "max": max(self.counts)}

    def to_json(self) -> list:
        return sorted([v, c] for v, c in self.counts.items())


def binomial_two_sided(k: int, n: int, p: float) -> float:
    """Exact two-sided binomial test: the probability, if the true rate were p, of an outcome
    at most as likely as k successes in n trials."""
    if n == 0:
        return 1.0
    if p <= 0 or p >= 1:
        return 1.0 if k == round(n * p) else 0.0
    log_p, log_q = math.log(p), math.log1p(-p)

    def log_pmf(i: int) -> float:
        return math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * log_p + (n - i) * log_q

    observed = log_pmf(k)
    total = sum(math.exp(lp) for lp in (log_pmf(i) for i in range(n + 1)) if lp <= observed + 1e-7)
    return min(1.0, total)


def percent(x: float) -> str:
    return f"{100 * x:.1f} %"
