"""`rulebook simulate`: statistics with intervals, draws, agents, rotation, jobs, first seat."""
from __future__ import annotations

import json

from interpreter.lab.backends import InlineBackend
from interpreter.lab.plan import Arm, Plan
from interpreter.lab.runner import run as run_plan
from interpreter.lab.statistics import wilson

from .helpers import COIN, TIC_TAC_TOE, run, run_json, without_timing


def _coin_plan(seed: int, games: int, **options) -> Plan:
    opts = {"bias": 60, "tie": 0, "rounds": 1, **options}
    return Plan((Arm("base", COIN, (), tuple(opts.items())),), 2, ("random", "random"), seed, games)


def test_intervals_cover_the_true_rate_of_a_biased_coin():
    """P1 wins a toss with probability 0.6: the 95 % Wilson interval must cover 0.6 (and P2's
    0.4) in about 95 % of independent runs."""
    covered, runs = [0, 0], 40
    for k in range(runs):
        tally = run_plan(_coin_plan(1000 * k, 150), InlineBackend(), progress=False).tallies[0]
        s = tally.summary()
        for seat, truth in enumerate((0.6, 0.4)):
            lo, hi = s["win_rate_ci"][seat]
            covered[seat] += lo <= truth <= hi
    assert all(c >= 0.85 * runs for c in covered), covered


def test_draws_are_counted_apart_and_rates_include_them():
    """With `tie` 20 %, a fifth of the games have no winner; P1 wins 0.8 × 0.6 = 48 %."""
    s = run_plan(_coin_plan(5, 2000, tie=20), InlineBackend(), progress=False).tallies[0].summary()
    lo, hi = s["win_rate_ci"][0]
    assert lo <= 0.48 <= hi
    assert 0.17 < s["draws"] / 2000 < 0.23 and s["shared_wins"] == 0
    assert s["draws"] + sum(s["wins_by_seat"]) == 2000


def test_tic_tac_toe_draws_are_counted():
    """Random tic-tac-toe: X wins 58.5 %, O 28.8 %, 12.7 % are draws (exact, by enumerating
    every random game). The counts and intervals must agree."""
    code, data = run_json("simulate", TIC_TAC_TOE, "--games", "600", "--seed", "3")
    assert code == 0 and data["games"] == 600 and data["errors"] == 0
    assert data["draws"] + sum(data["wins_by_seat"]) == 600 and data["shared_wins"] == 0
    lo, hi = wilson(data["draws"], 600)
    assert lo <= 0.127 <= hi
    assert data["win_rate_ci"][0][0] <= 0.585 <= data["win_rate_ci"][0][1]
    assert data["win_rate_ci"][1][0] <= 0.288 <= data["win_rate_ci"][1][1]
    assert data["metrics"]["drawishness"] == round(data["draws"] / 600, 4)
    assert data["first_seat"]["significant"]  # X moving first is a real advantage


def test_json_has_the_contract_keys():
    code, data = run_json("simulate", COIN, "--games", "50")
    for key in ("games", "errors", "wins_by_seat", "mean_scores", "games_per_second", "draws",
                "shared_wins", "win_rate_ci", "mean_score_ci", "length", "first_seat"):
        assert key in data, key
    assert "wins_by_agent" not in data  # only with --agents
    assert data["length"]["decisions"]["median"] == 2 and data["length"]["rounds"]["max"] == 1
    lo, hi = data["mean_score_ci"][0]
    assert lo <= data["mean_scores"][0] <= hi and hi - lo > 0


def test_agents_are_counted_by_agent_and_rotate_over_seats(tmp_path):
    out = tmp_path / "r.jsonl"
    code, data = run_json("simulate", TIC_TAC_TOE, "--games", "20", "--agents", "mcts:30,random", "--rotate",
                          "--out", out)
    assert code == 0
    assert data["games_by_agent"] == {"mcts:30": 20, "random": 20}
    assert set(data["wins_by_agent"]) == {"mcts:30", "random"}
    # a searching agent beats a random one at tic-tac-toe, from either seat
    assert data["wins_by_agent"]["mcts:30"] >= 12 > data["wins_by_agent"]["random"]
    seats = {}
    for line in out.read_text().splitlines()[1:]:
        record = json.loads(line)
        for seat, kind in enumerate(record["agents"]):
            seats[(seat, kind)] = seats.get((seat, kind), 0) + 1
    assert seats == {(0, "mcts:30"): 10, (1, "random"): 10, (0, "random"): 10, (1, "mcts:30"): 10}


def test_unknown_or_human_agents_are_refused():
    r = run("simulate", COIN, "--games", "5", "--agents", "randm")
    assert r.exit_code == 1 and 'unknown agent "randm"' in r.stderr
    r = run("simulate", COIN, "--games", "5", "--agents", "human,random")
    assert r.exit_code == 1 and "human" in r.stderr


def test_results_do_not_depend_on_jobs():
    a = run_json("simulate", TIC_TAC_TOE, "--games", "60", "--jobs", "1", "--agents", "random,last", "--coverage")[1]
    b = run_json("simulate", TIC_TAC_TOE, "--games", "60", "--jobs", "2", "--agents", "random,last", "--coverage")[1]
    assert without_timing(a) == without_timing(b)


def test_first_seat_advantage_is_flagged_for_a_biased_coin():
    s = run_plan(_coin_plan(11, 1000), InlineBackend(), progress=False).tallies[0].summary()
    assert s["first_seat"]["significant"] and "advantage" in s["first_seat"]["verdict"]
    s = run_plan(_coin_plan(11, 1000, bias=30), InlineBackend(), progress=False).tallies[0].summary()
    assert s["first_seat"]["significant"] and "disadvantage" in s["first_seat"]["verdict"]


def test_table_output_shows_intervals_and_draws():
    r = run("simulate", TIC_TAC_TOE, "--games", "40")
    assert r.exit_code == 0
    assert "95 % interval" in r.stdout and "draws (no winner)" in r.stdout and "first seat:" in r.stdout
    assert "games: done: 40/40" in r.stderr  # progress also when stderr is not a terminal
