"""The statistics primitives against values computed by hand or by standard references."""
from __future__ import annotations

import math
import random
import statistics as pystats

from interpreter.lab.statistics import Histogram, RunningMean, binomial_two_sided, wilson


def test_wilson_matches_reference_values():
    # Reference: Wilson (1927) score interval, e.g. 50/100 → [0.4038, 0.5962], 0/10 → [0, 0.2775]
    lo, hi = wilson(50, 100)
    assert math.isclose(lo, 0.4038, abs_tol=1e-4) and math.isclose(hi, 0.5962, abs_tol=1e-4)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and math.isclose(hi, 0.2775, abs_tol=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_wilson_covers_the_true_rate_about_95_percent_of_the_time():
    rng = random.Random(7)
    covered = 0
    for _ in range(400):
        k = sum(rng.random() < 0.3 for _ in range(80))
        lo, hi = wilson(k, 80)
        covered += lo <= 0.3 <= hi
    assert 0.90 <= covered / 400 <= 0.99


def test_running_mean_agrees_with_the_standard_library():
    xs = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5]
    m = RunningMean()
    for x in xs:
        m.add(x)
    assert math.isclose(m.mean, pystats.mean(xs)) and math.isclose(m.sd, pystats.stdev(xs))
    lo, hi = m.interval()
    assert math.isclose(hi - m.mean, 1.959964 * pystats.stdev(xs) / math.sqrt(len(xs)), rel_tol=1e-5)


def test_histogram_quantiles():
    h = Histogram()
    for x in range(1, 101):
        h.add(x)
    s = h.summary()
    assert (s["min"], s["p10"], s["median"], s["p90"], s["max"]) == (1, 10, 50, 90, 100)
    assert s["mean"] == 50.5


def test_binomial_test_reference_values():
    # R: binom.test(60, 100, 0.5)$p.value = 0.05689; binom.test(7, 10, 0.5)$p.value = 0.3438
    assert math.isclose(binomial_two_sided(60, 100, 0.5), 0.05689, abs_tol=1e-4)
    assert math.isclose(binomial_two_sided(7, 10, 0.5), 0.34375, abs_tol=1e-5)
    # an asymmetric null, against the definition summed with exact binomial coefficients
    p = 1 / 3
    pmf = [math.comb(30, i) * p ** i * (1 - p) ** (30 - i) for i in range(31)]
    expected = sum(x for x in pmf if x <= pmf[2] * (1 + 1e-9))
    assert math.isclose(binomial_two_sided(2, 30, p), expected, rel_tol=1e-6)
