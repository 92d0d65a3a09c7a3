"""How long a search may think: a number of iterations or a time per decision."""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Iterator


@dataclass(frozen=True)
class Budget:
    """`iterations` playouts per decision, or `seconds` of wall-clock time per decision."""

    iterations: int | None = None
    seconds: float | None = None

    @classmethod
    def parse(cls, text: str) -> "Budget":
        """`200` (iterations), `2s` or `500ms` (time). Raises ValueError on anything else."""
        t = text.strip().lower()
        if t.endswith("ms") and _positive(t[:-2]):
            return cls(seconds=float(t[:-2]) / 1000)
        if t.endswith("s") and _positive(t[:-1]):
            return cls(seconds=float(t[:-1]))
        if t.isdigit() and int(t) > 0:
            return cls(iterations=int(t))
        raise ValueError(text)

    def ticks(self) -> Iterator[int]:
        """Yields 0, 1, 2, … until the budget is spent (always at least one)."""
        if self.seconds is None:
            yield from range(self.iterations or 1)
            return
        end = time.perf_counter() + self.seconds
        i = 0
        while True:
            yield i
            i += 1
            if time.perf_counter() >= end:
                return

    def __str__(self) -> str:
        if self.seconds is None:
            return str(self.iterations)
        return f"{self.seconds:g}s" if self.seconds >= 1 else f"{self.seconds * 1000:g}ms"


def _positive(text: str) -> bool:
    try:
        return float(text) > 0
    except ValueError:
        return False
