"""Shared helpers for the web tests: an app with its sessions, and rule-file paths."""
from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install -e '.[web]'")
pytest.importorskip("httpx", reason="the web extra is not installed: pip install -e '.[web]'")

import warnings  # noqa: E402

# Newest Starlette prefers the httpx2 fork for its test client; httpx works with every version
# the `web` extra allows, so its deprecation notice is noise here.
warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
from starlette.testclient import TestClient  # noqa: E402

from interpreter.web.app import create_app  # noqa: E402
from interpreter.web.sessions import Sessions  # noqa: E402
from interpreter.web.store import Store  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "rules"
TTT = str(RULES / "tic_tac_toe" / "game.yaml")
POKER = str(RULES / "chicago_poker" / "game.yaml")


class Server:
    """An app over an in-memory store, with a TestClient, and the tokens of its first game."""

    def __init__(self, file: str, seats: list[str], *, seed: int = 1, hot_seat: bool = False,
                 max_games: int = 8, db: str = ":memory:", players: int | None = None):
        self.store = Store(db)
        self.sessions = Sessions(self.store, max_games=max_games, ai_delay=0.0)
        self.session = self.sessions.create(file, [], players, {}, seed, seats, hot_seat)
        self.admin = "admin-secret"
        self.app = create_app(self.sessions, admin_token=self.admin, new_game={
            "file": file, "variants": [], "players": players, "options": {}, "seed": seed, "seats": seats})
        self.client = TestClient(self.app)
        self.token_of = {seat: token for token, seat in self.session.tokens.items()}

    def get(self, seat: int, **params):
        return self.client.get(f"/api/play/{self.token_of[seat]}", params=params)

    def post(self, seat: int, body, **kw):
        if isinstance(body, dict):
            return self.client.post(f"/api/play/{self.token_of[seat]}", json=body, **kw)
        return self.client.post(f"/api/play/{self.token_of[seat]}", content=body, **kw)


@pytest.fixture
def ttt():
    server = Server(TTT, ["human", "human"])
    with server.client:
        yield server


@pytest.fixture
def poker():
    server = Server(POKER, ["human", "human"], seed=3)
    with server.client:
        yield server


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_process(args: list[str], db, port: int) -> tuple[subprocess.Popen, str]:
    """Run the real `rulebook serve` and wait until it answers; returns it and its banner."""
    import httpx

    cmd = [sys.executable, "-m", "interpreter", "serve", *args, "--port", str(port), "--db", str(db)]
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
    """Seat (0-based) -> private URL, from the banner `rulebook serve` prints."""
    return {int(m.group(1)) - 1: m.group(2) for m in re.finditer(r"P(\d+): (http://\S+/play/\S+)", text)}
