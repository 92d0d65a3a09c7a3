"""Games on disk: SQLite through the standard library, one transaction per applied decision.

Tables: `games` (how a game was set up, its seats, its latest state as JSON), `tokens` (the
secret of each seat's page), `decisions` (every decision, in order). A decision's row and the
state after it are written in one transaction before anyone is told about it, so a server that
is killed and restarted resumes every game exactly where its players saw it.
"""
from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    setup TEXT NOT NULL,          -- JSON: file, variants, players, options, seed, seats
    state TEXT NOT NULL,          -- JSON: State.to_json() after the latest decision
    decisions INTEGER NOT NULL,
    created REAL NOT NULL,
    active REAL NOT NULL          -- last time someone acted or the game was opened
);
CREATE TABLE IF NOT EXISTS tokens (
    token TEXT PRIMARY KEY,
    game TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL         -- the seat it acts for; -1: the hot-seat table (every human seat)
);
CREATE TABLE IF NOT EXISTS decisions (
    game TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    n INTEGER NOT NULL,
    player INTEGER NOT NULL,
    option INTEGER NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game, n)
);
"""


@dataclass
class StoredGame:
    id: str
    setup: dict
    state: dict
    tokens: dict  # token -> seat
    active: float


class Store:
    """A small, thread-safe wrapper around one SQLite connection."""

    def __init__(self, path: str | Path = ":memory:"):
        self.path = str(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        if self.path != ":memory:":
            self._db.execute("PRAGMA journal_mode=WAL")  # readers never wait
            # A commit is in the WAL file before it returns: a killed server loses nothing. Only an
            # operating-system crash or power cut can lose the last commits (no fsync per commit).
            self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def add_game(self, game_id: str, setup: dict, state: dict, tokens: dict) -> None:
        now = time.time()
        with self._lock, self._db:
            self._db.execute("BEGIN")
            self._db.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?)",
                             (game_id, json.dumps(setup), json.dumps(state), state.get("decisions", 0), now, now))
            self._db.executemany("INSERT INTO tokens VALUES (?, ?, ?)",
                                 [(t, game_id, seat) for t, seat in tokens.items()])

    def record_decision(self, game_id: str, n: int, player: int, option: int, state: dict) -> None:
        """Decision number `n` (0-based) and the state after it, committed together."""
        now = time.time()
        with self._lock, self._db:
            self._db.execute("BEGIN")
            self._db.execute("INSERT INTO decisions VALUES (?, ?, ?, ?, ?)", (game_id, n, player, option, now))
            self._db.execute("UPDATE games SET state = ?, decisions = ?, active = ? WHERE id = ?",
                             (json.dumps(state), n + 1, now, game_id))

    def touch(self, game_id: str) -> None:
        with self._lock, self._db:
            self._db.execute("UPDATE games SET active = ? WHERE id = ?", (time.time(), game_id))

    def remove_game(self, game_id: str) -> None:
        with self._lock, self._db:
            self._db.execute("BEGIN")
            self._db.execute("DELETE FROM decisions WHERE game = ?", (game_id,))
            self._db.execute("DELETE FROM tokens WHERE game = ?", (game_id,))
            self._db.execute("DELETE FROM games WHERE id = ?", (game_id,))

    def decisions(self, game_id: str) -> list[list[int]]:
        with self._lock:
            rows = self._db.execute("SELECT player, option FROM decisions WHERE game = ? ORDER BY n",
                                    (game_id,)).fetchall()
        return [[p, o] for p, o in rows]

    def games(self) -> list[StoredGame]:
        with self._lock:
            rows = self._db.execute("SELECT id, setup, state, active FROM games ORDER BY created").fetchall()
            tokens = self._db.execute("SELECT token, game, seat FROM tokens").fetchall()
        by_game: dict[str, dict] = {}
        for token, game_id, seat in tokens:
            by_game.setdefault(game_id, {})[token] = seat
        return [StoredGame(gid, json.loads(setup), json.loads(state), by_game.get(gid, {}), active)
                for gid, setup, state, active in rows]

    def raw(self, sql: str, args: tuple = ()) -> list[Any]:
        """For tests and maintenance: run a read query."""
        with self._lock:
            return self._db.execute(sql, args).fetchall()
