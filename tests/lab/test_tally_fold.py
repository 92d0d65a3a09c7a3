"""Tallies count equal outcomes and fold them in with their weight (interpreter/lab/tally.py):
the summary is the one that adding every game on its own gives."""
from __future__ import annotations

import math

import pytest

from interpreter.lab import tally as tally_module
from interpreter.lab.backends import InlineBackend
from interpreter.lab.metrics import METRICS
from interpreter.lab.plan import Arm, Plan
from interpreter.lab.runner import run as run_plan
from interpreter.lab.statistics import RunningMean

from .helpers import COIN, ROOT

KUHN = str(ROOT / "rules" / "kuhn_poker" / "game.yaml")


def _summary(plan: Plan) -> dict:
    t = run_plan(plan, InlineBackend(), progress=False).tallies[0]
    return {"summary": t.summary(with_agents=True), "distributions": t.distributions()}


@pytest.mark.parametrize("plan", [
    Plan((Arm("base", KUHN),), 2, ("random", "first"), 3, 400, rotate=True),
    Plan((Arm("base", COIN, (), (("bias", 60), ("tie", 20), ("rounds", 3))),), 2, ("random", "random"), 0, 300),
], ids=["kuhn-agents-rotating", "coin-draws"])
def test_folded_outcomes_give_the_summary_of_games_added_one_by_one(plan, monkeypatch):
    grouped = _summary(plan)
    monkeypatch.setattr(tally_module, "FOLD_AT", 1)  # every game folded on its own, at once
    one_by_one = _summary(plan)
    assert grouped == one_by_one
    assert grouped["summary"]["games"] == plan.games


def test_a_tally_folds_when_many_distinct_outcomes_wait(monkeypatch):
    monkeypatch.setattr(tally_module, "FOLD_AT", 3)
    t = tally_module.Tally(2)
    for d in range(10):
        t.add({"scores": [d, -d], "winners": [0], "decisions": d, "options": 2 * d})
        assert len(t._waiting) < 3
    assert t.summary()["length"]["decisions"]["max"] == 9 and t.wins == [10, 0]


def test_a_group_of_equal_values_is_the_same_as_adding_them_one_by_one():
    one, grouped = RunningMean(), RunningMean()
    for x, k in [(3.0, 5), (-1.5, 2), (10.0, 1), (0.25, 7)]:
        for _ in range(k):
            one.add(x)
        grouped.add(x, k)
    assert grouped.n == one.n
    assert math.isclose(grouped.mean, one.mean, rel_tol=1e-12)
    assert math.isclose(grouped.sd, one.sd, rel_tol=1e-12)


def test_every_metric_adds_a_group_as_it_adds_its_games_one_by_one():
    games = [{"scores": [3, 1, 1], "winners": [0], "decisions": 7, "options": 20},
             {"scores": [2, 2, 0], "winners": [0, 1], "decisions": 4, "options": 9}]
    for cls in METRICS:
        one, grouped = cls(), cls()
        for g in games:
            for _ in range(4):
                one.add(g)
            grouped.add_many(g, 4)
        assert grouped.value() == one.value(), cls.name
