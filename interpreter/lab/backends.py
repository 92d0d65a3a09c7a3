"""Where games are played: in this process, in a local process pool, or on a Dask cluster.

Every backend takes a Plan and the game numbers to play and yields each game's records **in
game order**, whatever finishes first, so everything computed from them is identical whatever
the backend or the number of jobs. Only a bounded window of games is in flight at a time
(memory stays flat). A game never fails a backend: rule errors come back as records; a worker
that dies is replaced and its games are played again, and a game that kills its worker twice is
reported as failed.
"""
from __future__ import annotations

import os
import signal
from collections import deque
from typing import Any, Callable, Iterable, Iterator

from .games import play_index
from .plan import Plan

Task = Callable[[Plan, int], list]
WORKER_DIED = "the worker process died while playing this game (twice); the game is not counted"


def make_backend(kind: str, jobs: int = 1, address: str | None = None) -> "Backend":
    if kind == "dask":
        return DaskBackend(address)
    jobs = jobs if jobs > 0 else (os.cpu_count() or 1)
    return InlineBackend() if jobs == 1 else ProcessBackend(jobs)


class Backend:
    name = ""
    workers = 1

    def results(self, plan: Plan, indexes: Iterable[int], task: Task = play_index) -> Iterator[list]:
        raise NotImplementedError

    def close(self) -> None:
        """Stop at once (Ctrl-C): games in flight are abandoned."""


class InlineBackend(Backend):
    name = "local"

    def results(self, plan, indexes, task=play_index):
        for i in indexes:
            yield task(plan, i)


def _ignore_sigint() -> None:
    # Ctrl-C is for the main process, which stops the workers itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _died(plan: Plan, index: int) -> list:
    return [{"game": index, "seed": plan.seed_of(index), "agents": plan.agents_for(index),
             **({"arm": arm.label} if len(plan.arms) > 1 else {}), "error": WORKER_DIED,
             "command": plan.play_command(arm, index)} for arm in plan.arms]


class ProcessBackend(Backend):
    name = "local"

    def __init__(self, jobs: int):
        self.workers = jobs
        self.pool = None

    def _new_pool(self, size: int):
        from concurrent.futures import ProcessPoolExecutor
        return ProcessPoolExecutor(size, initializer=_ignore_sigint)

    def results(self, plan, indexes, task=play_index):
        from concurrent.futures.process import BrokenProcessPool

        todo = iter(indexes)
        window: deque = deque()  # [index, future]
        strikes: dict[int, int] = {}
        self.pool = self._new_pool(self.workers)
        limit = self.workers * 4

        def fill() -> None:
            while len(window) < limit:
                i = next(todo, None)
                if i is None:
                    return
                window.append([i, self._submit(task, plan, i)])
        fill()
        while window:
            index, future = window[0]
            try:
                records = future.result()
            except BrokenProcessPool:
                self._recover(plan, task, window, strikes)
                continue
            window.popleft()
            yield records
            fill()
        self.pool.shutdown()

    def _submit(self, task: Task, plan: Plan, index: int):
        """A future for the game; if the pool is already broken (a worker died since the last
        look), a future that says so, handled like the others."""
        from concurrent.futures import Future
        from concurrent.futures.process import BrokenProcessPool
        try:
            return self.pool.submit(task, plan, index)
        except BrokenProcessPool as exc:
            failed: Future = Future()
            failed.set_exception(exc)
            return failed

    def _recover(self, plan, task, window, strikes) -> None:
        """A worker died: every game in flight failed with it. Start a new pool; replay those
        games; a game that was in flight at two deaths is played alone, and fails if it kills
        that worker too."""
        from concurrent.futures.process import BrokenProcessPool

        self.pool.shutdown(wait=False, cancel_futures=True)
        self.pool = self._new_pool(self.workers)
        for slot in window:
            index, future = slot
            if future.done() and not future.cancelled() and future.exception() is None:
                continue
            strikes[index] = strikes.get(index, 0) + 1
            if strikes[index] < 2:
                slot[1] = self._submit(task, plan, index)
                continue
            alone = self._new_pool(1)
            try:
                slot[1] = _done(alone.submit(task, plan, index).result())
            except BrokenProcessPool:
                slot[1] = _done(_died(plan, index))
            finally:
                alone.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        if self.pool is None:
            return
        processes = list((getattr(self.pool, "_processes", None) or {}).values())
        manager = getattr(self.pool, "_executor_manager_thread", None)
        self.pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:  # games can be long: do not wait for them
            process.terminate()
        for process in processes:
            process.join(timeout=5)
        # let the pool's manager thread finish closing its wake-up pipe now: left running, it
        # races concurrent.futures' exit hook, which then writes to the closed pipe and prints
        # a traceback after a Ctrl-C (seen on a loaded machine)
        if manager is not None:
            manager.join(timeout=5)


def _done(value: Any):
    from concurrent.futures import Future
    f: Future = Future()
    f.set_result(value)
    return f


class DaskBackend(Backend):
    """Games as tasks on a Dask distributed cluster (`dask scheduler` + `dask worker`s). Workers
    need rulebook installed and the rule files at the same paths."""

    name = "dask"

    def __init__(self, address: str | None):
        try:
            from distributed import Client
        except ImportError:
            from ..errors import InputError
            raise InputError("--backend dask needs the cluster extra: pip install 'rulebook[cluster]'") from None
        if not address:
            from ..errors import InputError
            raise InputError("--backend dask needs --address tcp://HOST:PORT (the scheduler's address)")
        try:
            self.client = Client(address, timeout="20s", set_as_default=False)
        except (OSError, TimeoutError) as exc:
            from ..errors import InputError
            raise InputError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
        self.workers = max(1, sum(self.client.nthreads().values()))
        self.futures: deque = deque()

    def results(self, plan, indexes, task=play_index):
        from distributed import KilledWorker

        todo = iter(indexes)
        window = self.futures
        limit = self.workers * 8

        def fill() -> None:
            while len(window) < limit:
                i = next(todo, None)
                if i is None:
                    return
                window.append((i, self.client.submit(task, plan, i, pure=False, key=f"rulebook-game-{plan.seed}-{i}-{id(window)}")))
        fill()
        while window:
            index, future = window[0]
            try:
                records = future.result()
            except KilledWorker:  # the scheduler retried it on other workers; they died too
                records = _died(plan, index)
            window.popleft()
            yield records
            fill()
        self.client.close()

    def close(self) -> None:
        try:
            self.client.cancel([f for _, f in self.futures])
        finally:
            self.client.close()
