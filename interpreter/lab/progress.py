"""Progress of a long run on stderr: a rich bar on a terminal, otherwise a plain line every
few seconds (so logs of batch jobs show it too), and always a last line at the end."""
from __future__ import annotations

import sys
import time
from typing import Any


class Progress:
    def __init__(self, total: int, label: str = "games", enabled: bool = True, every: float = 5.0,
                 stream: Any = None):
        self.total, self.label, self.enabled, self.every = total, label, enabled, every
        self.stream = stream or sys.stderr
        self.done = self.failed = self.skipped = 0
        self.started = self.last = time.monotonic()
        self.bar = None
        if enabled and self.stream.isatty():
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress as Bar, TimeRemainingColumn
            self.bar = Bar("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                           TimeRemainingColumn(), console=Console(file=self.stream), transient=True)
            self.bar.start()
            self.task = self.bar.add_task(label, total=total)

    def skip(self, done: int, failed: int) -> None:
        """Games done before this run started (resumed from a file)."""
        self.done += done
        self.failed += failed
        self.skipped = done
        if self.bar is not None:
            self.bar.update(self.task, completed=self.done)

    def advance(self, failed: int = 0) -> None:
        self.done += 1
        self.failed += failed
        if not self.enabled:
            return
        if self.bar is not None:
            self.bar.update(self.task, completed=self.done,
                            description=f"{self.label} ({self.failed} failed)" if self.failed else self.label)
            return
        now = time.monotonic()
        if now - self.last >= self.every:
            self.last = now
            self._line(now)

    def _line(self, now: float) -> None:
        played = self.done - self.skipped
        rate = played / (now - self.started) if now > self.started else 0.0
        left = (self.total - self.done) / rate if rate > 0 else 0.0
        print(f"{self.label}: {self.done}/{self.total} ({100 * self.done / max(1, self.total):.0f} %), "
              f"{self.failed} failed, {rate:.1f}/s, about {left:.0f} s left", file=self.stream, flush=True)

    def finish(self, interrupted: bool = False) -> None:
        if self.bar is not None:
            self.bar.stop()
        if self.enabled:
            end = "stopped by Ctrl-C" if interrupted else "done"
            print(f"{self.label}: {end}: {self.done}/{self.total}, {self.failed} failed", file=self.stream, flush=True)
