"""Measure the speed of a 2-worker Dask cluster against `--jobs 1` (a ratio, in one run).

Starts `dask scheduler` and two `dask worker` processes (1 thread each) on 127.0.0.1, then runs
`rulebook simulate` in turn with --jobs 1, with --jobs 2 and on the cluster, several times, and
prints the median wall-clock ratios (jobs-1 time / other time: above 1 means faster than one
process). The --jobs 2 column shows what two local processes gain on the same machine.

    python tools/bench_cluster.py [FILE] [--games N] [--repeat R]
"""
from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _dask(*args: str) -> list[str]:
    script = Path(sys.executable).with_name("dask")
    return [str(script), *args] if script.exists() else [sys.executable, "-m", "dask", *args]


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_cluster(workers: int = 2) -> tuple[str, list]:
    from distributed import Client
    port = _port()
    address = f"tcp://127.0.0.1:{port}"
    quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    procs = [subprocess.Popen(_dask("scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"), **quiet)]
    for _ in range(workers):
        procs.append(subprocess.Popen(_dask("worker", address, "--host", "127.0.0.1", "--nthreads", "1",
                                            "--no-dashboard"), **quiet))
    client = Client(address, timeout="60s")
    client.wait_for_workers(workers, timeout=120)
    client.close()
    return address, procs


def stop(procs: list) -> None:
    for p in reversed(procs):
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGTERM)
    for p in procs:
        p.wait(timeout=30)


def timed(args: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "interpreter", *args, "--json"], check=False,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("file", nargs="?", default=str(ROOT / "rules" / "dice_town" / "game.yaml"))
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    address, procs = start_cluster(2)
    try:
        base = ["simulate", a.file, "--games", str(a.games)]
        ratios, pool_ratios = [], []
        for _ in range(a.repeat):
            local = timed(base + ["--jobs", "1"])
            pool = timed(base + ["--jobs", "2"])
            cluster = timed(base + ["--backend", "dask", "--address", address])
            ratios.append(local / cluster)
            pool_ratios.append(local / pool)
            print(f"--jobs 1: {local:.2f} s, --jobs 2: {pool:.2f} s, 2-worker cluster: {cluster:.2f} s; "
                  f"jobs 1 / cluster {local / cluster:.2f}, jobs 1 / jobs 2 {local / pool:.2f}; "
                  f"load average {os.getloadavg()[0]:.1f}", flush=True)
        print(f"median ratio jobs 1 / cluster: {statistics.median(ratios):.2f}, jobs 1 / jobs 2: "
              f"{statistics.median(pool_ratios):.2f}, over {a.repeat} rounds, {a.games} games of "
              f"{Path(a.file).parent.name}; os.cpu_count() = {os.cpu_count()}")
    finally:
        stop(procs)


if __name__ == "__main__":
    main()
