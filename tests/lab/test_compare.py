"""`rulebook compare`: arms on common random numbers, differences with intervals, in words."""
from __future__ import annotations

from .helpers import COIN, LOADED, NOOP, run, run_json


def _comparison(data: dict, label_part: str) -> dict:
    return next(c for c in data["comparisons"] if label_part in c["variant"])


def test_a_variant_that_changes_nothing_is_no_significant_change():
    code, data = run_json("compare", COIN, "--variant", NOOP, "--games", "300")
    assert code == 0
    c = _comparison(data, "noop")
    assert c["significant"] == [] and c["verdict"].startswith("no significant change")
    assert all(not row["significant"] for row in c["metrics"])


def test_a_variant_that_changes_balance_is_flagged_in_words():
    code, data = run_json("compare", COIN, "--variant", LOADED, "--games", "300")
    c = _comparison(data, "loaded")
    p1 = next(r for r in c["metrics"] if r["metric"] == "P1 win rate")
    assert p1["significant"] and p1["ci"][0] > 0.25  # 60 % → 95 %: +35 points
    assert c["significant"][0].startswith("P1 win rate 6") and "→ 9" in c["significant"][0]
    assert "difference +3" in c["significant"][0] and "points [" in c["significant"][0]
    # the arms' own statistics are there too, with the variant's P1 rate near 95 %
    loaded = data["arms"][1]
    assert loaded["win_rate_ci"][0][0] <= 0.95 <= loaded["win_rate_ci"][0][1]


def test_arms_play_the_same_seeds_so_an_unrelated_change_keeps_paired_games_identical():
    """Common random numbers: a change that does not touch the toss leaves every game's result
    the same, so the difference interval is exactly [0, 0] (two independent runs would differ)."""
    data = run_json("compare", COIN, "--option", "rounds=1", "--games", "200", "--seed", "5")[1]
    p1 = next(r for r in data["comparisons"][0]["metrics"] if r["metric"] == "P1 win rate")
    assert p1["ci"] == [0.0, 0.0] and p1["base"] == p1["variant"]


def test_an_option_set_arm_and_a_small_real_change():
    """A 20 % chance of a tied toss: the draw rate rises by about 20 points, flagged."""
    data = run_json("compare", COIN, "--option", "tie=20", "--games", "400")[1]
    c = data["comparisons"][0]
    assert c["variant"] == "tie=20"
    draws = next(r for r in c["metrics"] if r["metric"] == "draw rate")
    assert draws["significant"] and draws["ci"][0] <= 0.20 <= draws["ci"][1]


def test_compare_with_agents_reports_each_agent():
    data = run_json("compare", COIN, "--variant", LOADED, "--games", "60", "--agents", "first,random",
                    "--rotate")[1]
    assert data["arms"][0]["games_by_agent"] == {"first": 60, "random": 60}
    names = [r["metric"] for r in data["comparisons"][0]["metrics"]]
    assert "first win rate" in names and "random win rate" in names


def test_compare_needs_something_to_compare():
    r = run("compare", COIN, "--games", "10")
    assert r.exit_code == 2 and "--variant" in r.stderr


def test_compare_table_output():
    r = run("compare", COIN, "--variant", LOADED, "--games", "100")
    assert r.exit_code == 0 and "vs base: P1 win rate" in r.stdout and "significant" in r.stdout
