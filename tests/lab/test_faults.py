"""A failing game never stops a run: it is reported with its seed, a located error and the
`rulebook play` command that reproduces it; time limits; dead workers; exit codes."""
from __future__ import annotations

import os
import shlex

from interpreter.lab.backends import WORKER_DIED, ProcessBackend
from interpreter.lab.games import play_index
from interpreter.lab.plan import Arm, Plan

from .helpers import COIN, FAILING, TIC_TAC_TOE, run, run_json


def test_failing_games_are_reported_and_the_rest_counted():
    code, data = run_json("simulate", FAILING, "--games", "60")
    assert code == 1  # --json too: a run with a failed game is not a success
    assert data["games"] == 60 and 0 < data["errors"] < 60 and data["finished"] == 60 - data["errors"]
    # the failures are exactly the seeds that fail when played one by one
    failing_seeds = {s for s in range(60) if run("play", FAILING, "--seed", str(s), "--quiet").exit_code != 0}
    assert {f["seed"] for f in data["failed_games"]} == failing_seeds
    for failed in data["failed_games"]:
        assert failed["error"].startswith(f"{os.path.relpath(FAILING)}:20:11: while scoring: ZeroDivisionError") \
            or ":20:11: while scoring: ZeroDivisionError" in failed["error"]


def test_the_reported_command_reproduces_the_failure():
    data = run_json("simulate", FAILING, "--games", "40", "--agents", "first,random")[1]
    failed = data["failed_games"][0]
    words = shlex.split(failed["command"])
    assert words[:2] == ["rulebook", "play"] and "--agents" in words
    again = run(*words[1:])
    assert again.exit_code == 1 and failed["error"] in again.stderr


def test_failures_are_listed_on_stderr_in_table_mode():
    r = run("simulate", FAILING, "--games", "40")
    assert r.exit_code == 1
    assert "failed: " in r.stderr and "reproduce: rulebook play" in r.stderr and "--seed" in r.stderr


def test_winners_outside_the_player_range_fail_that_game(tmp_path):
    text = open(COIN, encoding="utf-8").read().replace('winners: "[] if winner == none else [winner]"',
                                                       'winners: "[5] if winner == 1 else [winner]"')
    bad = tmp_path / "bad_winners.yaml"
    bad.write_text(text, encoding="utf-8")
    code, data = run_json("simulate", bad, "--games", "30")
    assert code == 1 and 0 < data["errors"] < 30
    assert "winners gave [5]" in data["failed_games"][0]["error"]
    assert f"{bad}:" in data["failed_games"][0]["error"] or "bad_winners.yaml:" in data["failed_games"][0]["error"]


def test_a_game_over_the_time_limit_is_reported_not_waited_for():
    for jobs in ("1", "2"):
        code, data = run_json("simulate", TIC_TAC_TOE, "--games", "2", "--agents", "mcts:100000",
                              "--time-limit", "0.3", "--jobs", jobs)
        assert code == 1 and data["errors"] == 2
        assert "time limit (0.3 s)" in data["failed_games"][0]["error"]
        assert data["seconds"] < 20


def _dies_on_game_3(plan: Plan, index: int) -> list:
    if index == 3:
        os._exit(9)  # the worker process dies as if killed
    return play_index(plan, index)


def test_a_dead_worker_is_replaced_and_its_game_reported():
    plan = Plan((Arm("base", COIN, (), (("bias", 60), ("tie", 0), ("rounds", 1))),), 2, ("random", "random"), 0, 12)
    records = list(ProcessBackend(2).results(plan, range(12), task=_dies_on_game_3))
    assert [r[0]["game"] for r in records] == list(range(12))  # in order, none lost
    assert records[3][0]["error"] == WORKER_DIED and "--seed 3" in records[3][0]["command"]
    others = [r[0] for i, r in enumerate(records) if i != 3]
    assert all("error" not in r for r in others)
    assert others == [play_index(plan, i)[0] for i in range(12) if i != 3]  # replayed games are the same
