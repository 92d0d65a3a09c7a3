"""A run: play a Plan's games on a backend, stream them into tallies (and a results file),
show progress, stop cleanly on Ctrl-C, continue a results file with `--resume`."""
from __future__ import annotations

import signal
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

from .backends import Backend
from .coverage import CoverageTally
from .plan import Plan
from .progress import Progress
from .store import ResultsFile
from .tally import Tally


@dataclass
class Run:
    plan: Plan
    tallies: list  # one Tally per arm
    coverage: list  # one CoverageTally per arm (empty without coverage)
    seconds: float = 0.0
    played: int = 0  # games played in this session (not resumed from the file)
    resumed: int = 0
    interrupted: bool = False
    backend: str = "local"
    workers: int = 1

    @property
    def failed(self) -> int:
        return sum(t.errors for t in self.tallies)

    @property
    def games_per_second(self) -> float:
        return self.played * len(self.plan.arms) / self.seconds if self.seconds > 0 else 0.0


def run(plan: Plan, backend: Backend, out: ResultsFile | None = None, progress: bool = True,
        observers: tuple[Callable[[list], Any], ...] = ()) -> Run:
    """Play games 0..plan.games-1 (those not already in `out` when resuming)."""
    result = Run(plan, [Tally(plan.players) for _ in plan.arms],
                 [CoverageTally() for _ in plan.arms] if plan.coverage else [],
                 backend=backend.name, workers=backend.workers)
    done = _Done()

    def take(records: list) -> None:
        for i, record in enumerate(records):
            result.tallies[i].add(record)
            if result.coverage:
                result.coverage[i].add(record)
        for observe in observers:
            observe(records)

    if out is not None:
        for records in out.previous(len(plan.arms)):
            index = records[0].get("game")
            if isinstance(index, int) and 0 <= index < plan.games and index not in done:
                done.add(index)
                take(records)
        result.resumed = done.count
        out.open()
    todo = (i for i in range(done.prefix, plan.games) if i not in done)
    bar = Progress(plan.games, "games", enabled=progress)
    bar.skip(result.resumed, sum(t.errors for t in result.tallies))
    started = time.perf_counter()
    try:
        with _StopRequest() as stop:
            for records in backend.results(plan, todo):
                if out is not None:
                    out.write(records)
                take(records)
                result.played += 1
                bar.advance(failed=int(any("error" in r for r in records)))
                if stop.requested:  # Ctrl-C: stop between games, so the file and the summary agree
                    raise KeyboardInterrupt
    except KeyboardInterrupt:
        result.interrupted = True
        backend.close()
    except BaseException:
        backend.close()
        raise
    finally:
        result.seconds = time.perf_counter() - started
        if out is not None:
            out.close()
        bar.finish(result.interrupted)
    return result


class _StopRequest:
    """The first Ctrl-C asks the run to stop after the game in hand (a flag, no exception in the
    middle of writing a result); a second one stops at once."""

    def __init__(self):
        self.requested = False
        self._previous = None

    def __enter__(self) -> "_StopRequest":
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def _handle(self, signum, frame) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True

    def __exit__(self, *exc) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)


class _Done:
    """Game numbers already played (from a results file). Files are written in game order, so
    this is a prefix 0..n-1 and stays one number, however many games."""

    def __init__(self):
        self.prefix = 0
        self.others: set[int] = set()

    def add(self, index: int) -> None:
        if index != self.prefix:
            self.others.add(index)
            return
        self.prefix += 1
        while self.prefix in self.others:
            self.others.remove(self.prefix)
            self.prefix += 1

    def __contains__(self, index: int) -> bool:
        return index < self.prefix or index in self.others

    @property
    def count(self) -> int:
        return self.prefix + len(self.others)
