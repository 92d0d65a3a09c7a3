"""Long runs: results streamed to a file, resumed, stopped with Ctrl-C; memory stays flat."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import tracemalloc

from interpreter.lab.backends import InlineBackend
from interpreter.lab.plan import Arm, Plan
from interpreter.lab.runner import run as run_plan

from .helpers import COIN, ROOT, TIC_TAC_TOE, run, run_json, without_timing


def _lines(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_out_streams_one_line_per_game(tmp_path):
    out = tmp_path / "results.jsonl"
    code, data = run_json("simulate", TIC_TAC_TOE, "--games", "25", "--out", out)
    lines = _lines(out)
    assert lines[0]["format"] == "rulebook-results/1" and len(lines) == 26
    games = lines[1:]
    assert [g["game"] for g in games] == list(range(25)) and [g["seed"] for g in games] == list(range(25))
    for g in games:
        assert set(g) >= {"seed", "agents", "scores", "winners", "decisions"}
    assert sum(1 for g in games if not g["winners"]) == data["draws"]


def test_resume_continues_a_cut_file_to_the_same_result(tmp_path):
    full = run_json("simulate", TIC_TAC_TOE, "--games", "40", "--seed", "9")[1]
    out = tmp_path / "results.jsonl"
    run_json("simulate", TIC_TAC_TOE, "--games", "40", "--seed", "9", "--out", out)
    text = out.read_text(encoding="utf-8").splitlines(keepends=True)
    out.write_text("".join(text[:16]) + text[16][:20], encoding="utf-8")  # 15 games, then a cut line
    code, resumed = run_json("simulate", TIC_TAC_TOE, "--games", "40", "--seed", "9", "--out", out, "--resume")
    assert code == 0 and resumed["resumed"] == 15 and resumed["played_now"] == 25
    assert [g["game"] for g in _lines(out)[1:]] == list(range(40))
    keep = ("wins_by_seat", "draws", "mean_scores", "win_rate_ci", "length", "games")
    assert {k: resumed[k] for k in keep} == {k: full[k] for k in keep}


def test_resume_refuses_a_file_of_another_run(tmp_path):
    out = tmp_path / "results.jsonl"
    run_json("simulate", TIC_TAC_TOE, "--games", "5", "--out", out)
    r = run("simulate", TIC_TAC_TOE, "--games", "5", "--seed", "4", "--out", out, "--resume", "--json")
    assert r.exit_code == 1 and "different run" in r.stderr and "seed" in r.stderr


def _coin_plan(games: int) -> Plan:
    return Plan((Arm("base", COIN, (), (("bias", 60), ("tie", 10), ("rounds", 3))),), 2, ("random", "random"), 0, games)


def test_memory_stays_flat_however_many_games():
    def peak(games: int) -> int:
        run_plan(_coin_plan(20), InlineBackend(), progress=False)  # warm caches
        tracemalloc.start()
        run_plan(_coin_plan(games), InlineBackend(), progress=False)
        _, top = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        return top
    small, large = peak(100), peak(1000)
    assert large < small + 64 * 1024, (small, large)


def _start(args: list[str]) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "interpreter", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)


def _interrupt_when_started(proc: subprocess.Popen, out, lines: int = 20) -> tuple[str, str]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not out.exists() or out.read_text().count("\n") < lines):
        time.sleep(0.1)
    os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C reaches the whole process group, as on a terminal
    return proc.communicate(timeout=30)


def test_ctrl_c_stops_cleanly_and_summarises_what_finished(tmp_path):
    for jobs in ("1", "2"):
        out = tmp_path / f"r{jobs}.jsonl"
        proc = _start(["simulate", TIC_TAC_TOE, "--games", "1000000", "--jobs", jobs, "--out", str(out), "--json"])
        stdout, stderr = _interrupt_when_started(proc, out)
        assert proc.returncode == 130, stderr
        data = json.loads(stdout)
        assert data["interrupted"] and "Traceback" not in stderr and "stopped by Ctrl-C" in stderr
        games = _lines(out)[1:]
        assert data["games"] == len(games) >= 20 and data["draws"] == sum(1 for g in games if not g["winners"])


def test_a_stopped_run_resumes_to_the_result_of_an_uninterrupted_one(tmp_path):
    out = tmp_path / "r.jsonl"
    proc = _start(["simulate", TIC_TAC_TOE, "--games", "3000", "--jobs", "2", "--out", str(out), "--json"])
    _interrupt_when_started(proc, out, lines=50)
    resumed = run_json("simulate", TIC_TAC_TOE, "--games", "3000", "--out", out, "--resume")[1]
    full = run_json("simulate", TIC_TAC_TOE, "--games", "3000")[1]
    assert 0 < resumed["resumed"] < 3000
    drop = ("resumed", "played_now")
    assert {k: v for k, v in without_timing(resumed).items() if k not in drop} == \
        {k: v for k, v in without_timing(full).items() if k not in drop}


def test_a_comparison_resumes_too(tmp_path):
    from .helpers import LOADED
    args = ("compare", COIN, "--variant", LOADED, "--games", "30", "--seed", "2")
    full = run_json(*args)[1]
    out = tmp_path / "c.jsonl"
    run_json(*args, "--out", out)
    lines = out.read_text(encoding="utf-8").splitlines(keepends=True)
    assert len(lines) == 1 + 2 * 30 and json.loads(lines[1])["arm"] == "base"
    out.write_text("".join(lines[:1 + 2 * 10 + 1]), encoding="utf-8")  # 10 games, then half of one
    resumed = run_json(*args, "--out", out, "--resume")[1]
    assert resumed["resumed"] == 10
    assert resumed["comparisons"] == full["comparisons"]
    assert len(out.read_text(encoding="utf-8").splitlines()) == 1 + 2 * 30


def test_progress_lines_when_stderr_is_not_a_terminal():
    import io

    from interpreter.lab.progress import Progress
    stream = io.StringIO()
    bar = Progress(4, "games", every=0, stream=stream)
    for failed in (0, 1, 0, 0):
        bar.advance(failed=failed)
    bar.finish()
    lines = stream.getvalue().splitlines()
    assert lines[0].startswith("games: 1/4 (25 %), 0 failed") and "games: 2/4 (50 %), 1 failed" in lines[1]
    assert lines[-1] == "games: done: 4/4, 1 failed"


def test_games_already_done_are_kept_as_a_prefix():
    from interpreter.lab.runner import _Done
    done = _Done()
    for i in (0, 1, 2, 5, 3, 4, 7):
        done.add(i)
    assert done.prefix == 6 and done.others == {7} and done.count == 7
    assert [i for i in range(10) if i not in done] == [6, 8, 9]
