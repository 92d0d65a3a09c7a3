"""A server killed mid-game and restarted on the same database loses nothing: every seat's URL
still works and the game goes on from the last decision. Runs the real `rulebook serve`."""
from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time

import httpx

from .conftest import POKER


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(db, port):
    cmd = [sys.executable, "-m", "interpreter", "serve", POKER, "--seats", "human,human", "--seed", "4",
           "--port", str(port), "--db", str(db)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = []
    deadline = time.time() + 30
    while time.time() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        if "serving" in line:
            break
    for _ in range(100):  # the port opens right after the banner
        try:
            httpx.get(f"http://127.0.0.1:{port}/", timeout=1)
            break
        except httpx.HTTPError:
            time.sleep(0.1)
    return proc, "".join(lines)


def urls_of(text: str) -> dict:
    return {int(m.group(1)) - 1: m.group(2) for m in re.finditer(r"P(\d): (http://\S+/play/\S+)", text)}


def api(url: str) -> str:
    return url.replace("/play/", "/api/play/")


def test_kill_and_restart_keeps_every_game_and_url(tmp_path):
    db = tmp_path / "games.sqlite3"
    port = free_port()
    proc, banner = start(db, port)
    try:
        urls = urls_of(banner)
        assert set(urls) == {0, 1}, banner
        for _ in range(6):
            states = {s: httpx.get(api(u)).json() for s, u in urls.items()}
            seat = next(s for s, d in states.items() if d["decision"])
            r = httpx.post(api(urls[seat]), json={"option": 0, "version": states[seat]["version"]})
            assert r.status_code == 200
        before = {s: httpx.get(api(u)).json() for s, u in urls.items()}
        assert before[0]["version"] == 6
    finally:
        os.kill(proc.pid, signal.SIGKILL)  # no shutdown, no flush: what was committed is all there is
        proc.wait()
    proc, banner = start(db, port)
    try:
        assert "resumed 1 game" in banner and set(urls_of(banner).values()) == set(urls.values())
        after = {s: httpx.get(api(u)).json() for s, u in urls.items()}
        assert after == before
        assert httpx.get(urls[0]).status_code == 200  # the page itself
        seat = next(s for s, d in after.items() if d["decision"])
        r = httpx.post(api(urls[seat]), json={"option": 0, "version": 6})
        assert r.status_code == 200 and r.json()["version"] == 7
    finally:
        proc.terminate()
        proc.wait(timeout=10)
