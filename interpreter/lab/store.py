"""Results files: one JSON line per game, written as games finish, so an interrupted run loses
nothing and `--resume` can continue it.

The first line describes the run (rule files, options, agents, seed); a resumed run must match
it. Then one line per game record (coverage counts are not stored).
"""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Iterator

from ..errors import InputError

FORMAT = "rulebook-results/1"
_encode = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode  # records are plain trees
FLUSH_EVERY = 1.0  # seconds: a hard kill loses at most this much of the file (--resume plays it again)


class ResultsFile:
    def __init__(self, path: str | Path, plan_description: dict, resume: bool):
        self.path = Path(path)
        self.description = plan_description
        self.resume = resume
        self.handle = None
        self._flushed = float("-inf")

    def previous(self, arms: int = 1) -> Iterator[list]:
        """The games already in the file (when resuming): one list of records (one per arm)
        per game, checked against this run. A game cut short by a hard stop is dropped (and
        played again)."""
        self.keep = 0
        if not self.resume or not self.path.exists():
            return iter(())
        return self._read(arms)

    def _read(self, arms: int) -> Iterator[list]:
        group: list = []
        offset = 0
        with self.path.open("rb") as f:
            for number, raw in enumerate(f, 1):
                offset += len(raw)
                if not raw.endswith(b"\n"):
                    return  # the last line was cut short by a hard stop
                try:
                    data = json.loads(raw)
                except (json.JSONDecodeError, UnicodeDecodeError):
                    raise InputError(f"{self.path}:{number}:1: not a results line") from None
                if number == 1:
                    self._check_header(data)
                    self.keep = offset
                    continue
                group.append(data)
                if len(group) == arms:
                    self.keep = offset
                    yield group
                    group = []

    def _check_header(self, data: dict) -> None:
        if data.get("format") != FORMAT:
            raise InputError(f"{self.path}:1:1: not a rulebook results file (no {FORMAT} header)")
        if data.get("run") != self.description:
            differ = sorted(k for k in set(data.get("run") or {}) | set(self.description)
                            if (data.get("run") or {}).get(k) != self.description.get(k))
            raise InputError(f"{self.path}:1:1: this file was written by a different run "
                             f"(differs in: {', '.join(differ)}); resume with the same command, "
                             "or write to a new file")

    def open(self) -> None:
        fresh = not (self.resume and self.path.exists() and getattr(self, "keep", 0) > 0)
        if fresh:
            self.handle = self.path.open("w", encoding="utf-8")
            self._write({"format": FORMAT, "run": self.description})
        else:
            with self.path.open("r+b") as f:  # drop a game cut short by a hard stop
                f.truncate(self.keep)
            self.handle = self.path.open("a", encoding="utf-8")

    def write(self, records: list) -> None:
        """One game's records (one per arm), in one write."""
        self._write(*(r if "coverage" not in r else {k: v for k, v in r.items() if k != "coverage"}
                      for r in records))

    def _write(self, *data: dict) -> None:
        self.handle.write("".join(_encode(d) + "\n" for d in data))
        now = time.monotonic()
        if now - self._flushed >= FLUSH_EVERY:  # a system call per game would cost more than a whole small game
            self._flushed = now
            self.handle.flush()

    def close(self) -> None:
        if self.handle is not None:
            self.handle.close()
            self.handle = None
