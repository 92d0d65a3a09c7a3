#!/usr/bin/env python3
"""Load test of `rulebook serve`: many concurrent games driven by scripted clients.

Starts the real server (a subprocess on 127.0.0.1, a fresh SQLite file), creates --games games
through its admin API, and gives every seat of every game a scripted client: it listens on the
seat's WebSocket, fetches its view when told the game changed, and when it must decide, thinks
for --think seconds (uniformly 0.5×–1.5×; 0: answer at once, which saturates the machine) and
POSTs a random option. The decision round trip is the time from sending the POST to having the new view
back (validation, the engine's apply, the SQLite commit, the view built for that seat).

Bounded: each game stops after --decisions decisions (or at its end) and the whole run after
--seconds. Errors are any non-2xx answer other than a 409 (a stale page, retried like a browser).

Usage:
    python tools/bench_web.py                     # 50 games of Chicago Poker, 2 seats each
    python tools/bench_web.py --games 10 --decisions 20 --json
Results: the "Web server" section of docs/benchmarks.md.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(rules: str, players: int, games: int, db: str, port: int) -> tuple[subprocess.Popen, str]:
    cmd = [sys.executable, "-m", "interpreter", "serve", rules, "--players", str(players), "--seats", "human",
           "--port", str(port), "--db", db, "--max-games", str(games + 1), "--ai-delay", "0"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
    admin = None
    deadline = time.time() + 60
    while time.time() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        m = re.search(r"Bearer ([\w-]+)", line)
        if m:
            admin = m.group(1)
        if "serving" in line:
            break
    if admin is None:
        proc.kill()
        raise SystemExit("the server did not start")
    return proc, admin


class Totals:
    def __init__(self):
        self.round_trips: list[float] = []
        self.server_ms: list[float] = []  # the server's own time per decision (Server-Timing)
        self.errors: list[str] = []
        self.conflicts = 0
        self.finished = 0


async def seat_client(client: httpx.AsyncClient, base_ws: str, url: str, seat: int, seed: int,
                      budget: dict, totals: Totals, stop_at: float, think: float) -> None:
    token = url.rsplit("/", 1)[1]
    api = f"/api/play/{token}"
    rng = random.Random(seed)
    async with websockets.connect(f"{base_ws}/ws/{token}") as ws:
        while time.monotonic() < stop_at:
            r = await client.get(api)
            if r.status_code != 200:
                totals.errors.append(f"GET {r.status_code}")
                return
            page = r.json()
            if page["over"] or budget["left"] <= 0:
                if page["over"] and seat == 0:
                    totals.finished += 1
                return
            if page["decision"]:
                if think > 0:
                    await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                option = rng.randrange(len(page["decision"]["options"]))
                budget["left"] -= 1
                t0 = time.perf_counter()
                r = await client.post(api, json={"option": option, "version": page["version"]})
                elapsed = time.perf_counter() - t0
                if r.status_code == 200:
                    totals.round_trips.append(elapsed)
                    timing = re.search(r"dur=([0-9.]+)", r.headers.get("server-timing", ""))
                    if timing:
                        totals.server_ms.append(float(timing.group(1)))
                    continue
                if r.status_code == 409:
                    totals.conflicts += 1
                    budget["left"] += 1
                    continue
                totals.errors.append(f"POST {r.status_code}: {r.text[:100]}")
                return
            try:  # not my turn: wait politely for the next notice
                await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop_at - time.monotonic()))
            except asyncio.TimeoutError:
                return
        return


async def drive(base: str, admin: str, games: int, players: int, decisions: int, seconds: float,
                seed: int, think: float) -> Totals:
    totals = Totals()
    limits = httpx.Limits(max_connections=games * players + 10, max_keepalive_connections=games * players + 10)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=30) as client:
        created = []
        for g in range(games):
            r = await client.post("/api/games", json={"seats": ["human"] * players, "seed": seed + g},
                                  headers={"Authorization": f"Bearer {admin}"})
            r.raise_for_status()
            created.append(r.json()["seats"])
        stop_at = time.monotonic() + seconds
        base_ws = base.replace("http://", "ws://")
        tasks = []
        for g, seats in enumerate(created):
            budget = {"left": decisions}
            for seat, url in seats.items():
                tasks.append(seat_client(client, base_ws, url, int(seat), seed * 1000 + g * 10 + int(seat),
                                         budget, totals, stop_at, think))
        await asyncio.gather(*tasks)
    return totals


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rules", default=str(ROOT / "rules" / "chicago_poker" / "game.yaml"))
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--decisions", type=int, default=40, help="decisions per game at most")
    ap.add_argument("--seconds", type=float, default=120, help="the whole run stops after this")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--think", type=float, default=2.0, help="seconds a client thinks before deciding (0: none)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        proc, admin = start_server(args.rules, args.players, args.games, os.path.join(tmp, "games.sqlite3"), port)
        try:
            cpu0 = _cpu(proc.pid)
            t0 = time.perf_counter()
            client0 = time.process_time()
            totals = asyncio.run(drive(f"http://127.0.0.1:{port}", admin, args.games, args.players,
                                       args.decisions, args.seconds, args.seed, args.think))
            wall = time.perf_counter() - t0
            client_cpu = time.process_time() - client0
            server_cpu = _cpu(proc.pid) - cpu0
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    rt = sorted(totals.round_trips)
    sv = sorted(totals.server_ms)
    result = {
        "games": args.games, "players": args.players, "think_seconds": args.think, "rules": Path(args.rules).parent.name,
        "decisions": len(rt), "errors": len(totals.errors), "conflicts_409": totals.conflicts,
        "games_finished": totals.finished, "wall_seconds": round(wall, 2),
        "server_cpu_seconds": round(server_cpu, 2) if server_cpu is not None else None,
        "round_trip_ms_median": round(1000 * statistics.median(rt), 1) if rt else None,
        "round_trip_ms_p95": round(1000 * rt[int(0.95 * (len(rt) - 1))], 1) if rt else None,
        "round_trip_ms_max": round(1000 * rt[-1], 1) if rt else None,
        "server_ms_median": round(statistics.median(sv), 2) if sv else None,
        "server_ms_p95": round(sv[int(0.95 * (len(sv) - 1))], 2) if sv else None,
        "decisions_per_second": round(len(rt) / wall, 1) if wall else None,
        "client_cpu_seconds": round(client_cpu, 2),
        "load_average": os.getloadavg()[0],
        "error_messages": totals.errors[:5],
    }
    if args.json:
        print(json.dumps(result))
        return
    for k, v in result.items():
        print(f"{k:24} {v}")
    print("\n| games × seats | think | decisions | errors | round trip median | p95 | server time median | p95 "
          "| decisions/s | server CPU s | client CPU s | load avg |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    print(f"| {args.games} × {args.players} | {args.think} s | {result['decisions']} | {result['errors']} | "
          f"{result['round_trip_ms_median']} ms | {result['round_trip_ms_p95']} ms | "
          f"{result['server_ms_median']} ms | {result['server_ms_p95']} ms | {result['decisions_per_second']} | "
          f"{result['server_cpu_seconds']} | {result['client_cpu_seconds']} | {result['load_average']:.1f} |")
    if totals.errors:
        sys.exit(1)


def _cpu(pid: int) -> float | None:
    """User + system CPU seconds of a process so far (Linux /proc), else None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


if __name__ == "__main__":
    main()
