"""The Dask backend on a real local cluster, started the way a user would: `dask scheduler`
and two `dask worker` processes on 127.0.0.1. Results must equal the local run's."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .helpers import FAILING, ROOT, TIC_TAC_TOE, run, run_json, without_timing

distributed = pytest.importorskip("distributed", reason="needs the cluster extra (pip install -e '.[cluster]')")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _dask(*args: str) -> list[str]:
    script = Path(sys.executable).with_name("dask")
    return [str(script), *args] if script.exists() else [sys.executable, "-m", "dask", *args]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    logs = tmp_path_factory.mktemp("dask")
    common = dict(stdout=subprocess.DEVNULL, start_new_session=True, cwd=logs)
    procs = [subprocess.Popen(_dask("scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"),
                              stderr=(logs / "scheduler.log").open("w"), **common)]
    for k in range(2):
        procs.append(subprocess.Popen(_dask("worker", address, "--host", "127.0.0.1", "--nthreads", "1",
                                            "--nworkers", "1", "--no-dashboard", "--local-directory", str(logs)),
                                      stderr=(logs / f"worker{k}.log").open("w"), **common))
    try:
        client = distributed.Client(address, timeout="60s")
        client.wait_for_workers(2, timeout=120)
        client.close()
        yield address, procs
    finally:
        for proc in reversed(procs):
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)


def test_a_cluster_run_equals_the_local_run(cluster):
    address, _ = cluster
    args = ("simulate", TIC_TAC_TOE, "--games", "80", "--agents", "random,last", "--coverage", "--seed", "4")
    code, on_cluster = run_json(*args, "--backend", "dask", "--address", address)
    assert code == 0 and on_cluster["backend"] == "dask" and on_cluster["workers"] == 2
    local = run_json(*args, "--jobs", "1")[1]
    assert without_timing(on_cluster) == without_timing(local)


def test_failed_games_come_back_from_the_cluster(cluster):
    address, _ = cluster
    code, on_cluster = run_json("simulate", FAILING, "--games", "40", "--backend", "dask", "--address", address)
    local = run_json("simulate", FAILING, "--games", "40")[1]
    assert code == 1 and on_cluster["errors"] == local["errors"] > 0
    assert on_cluster["failed_games"] == local["failed_games"]


def test_compare_on_the_cluster(cluster):
    address, _ = cluster
    from .helpers import COIN, LOADED
    args = ("compare", COIN, "--variant", LOADED, "--games", "60")
    on_cluster = run_json(*args, "--backend", "dask", "--address", address)[1]
    assert without_timing(on_cluster) == without_timing(run_json(*args)[1])


def test_a_worker_killed_mid_run_loses_nothing(cluster, tmp_path):
    """Kill one worker (and its nanny) while games run: the scheduler gives its games to the
    other worker and the results equal the local run's. (Last: the cluster keeps one worker.)"""
    address, procs = cluster
    out = tmp_path / "r.jsonl"
    GAMES = 200  # enough that the results file (flushed once a second) shows games while others still run
    args = ["simulate", str(ROOT / "rules" / "dice_town" / "game.yaml"), "--games", str(GAMES), "--players", "3"]
    proc = subprocess.Popen([sys.executable, "-m", "interpreter", *args, "--backend", "dask", "--address", address,
                             "--out", str(out), "--json"], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not out.exists() or out.read_text().count("\n") < 4):
        time.sleep(0.05)
    os.killpg(procs[2].pid, signal.SIGKILL)
    assert out.read_text().count("\n") < GAMES  # killed while games were still to be played
    stdout, stderr = proc.communicate(timeout=300)
    assert proc.returncode == 0, stderr
    on_cluster = json.loads(stdout)
    assert on_cluster["games"] == GAMES and on_cluster["errors"] == 0
    local = run_json(*args)[1]
    assert without_timing(on_cluster) == without_timing(local)


def test_an_unreachable_scheduler_is_an_input_error():
    r = run("simulate", TIC_TAC_TOE, "--games", "2", "--backend", "dask", "--address", f"tcp://127.0.0.1:{_free_port()}")
    assert r.exit_code == 1 and "cannot reach the Dask scheduler" in r.stderr
