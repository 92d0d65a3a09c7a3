"""A server killed mid-game and restarted on the same database loses nothing: every seat's URL
still works and the game goes on from the last decision. Runs the real `rulebook serve`."""
from __future__ import annotations

import os
import signal

import httpx

from .conftest import POKER, free_port, serve_process, urls_of


def start(db, port):
    return serve_process([POKER, "--seats", "human,human", "--seed", "4"], db, port)


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
