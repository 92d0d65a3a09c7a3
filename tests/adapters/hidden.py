"""The engine's resampler, reached through one function (its module is moving: one line here)."""
from __future__ import annotations

import random
from typing import Any


def resample_hidden(S: Any, viewer: int, rng: random.Random) -> Any:
    """A copy of S in which everything hidden from `viewer` is swapped for something that
    looks the same to `viewer` (and the generator is re-seeded). The viewer's own pending
    decision is asked again over the swapped pieces, as the conformance audit does."""
    from interpreter.resample import resample
    T, _ = resample(S, viewer, rng)  # pending decisions already refer to the swapped pieces
    _reask(T, viewer)
    return T


def _reask(T: Any, viewer: int) -> None:
    from interpreter.decisions import build_options, pending_for

    th = pending_for(T, viewer)
    if th is None or th.pending.kind == "perform":
        return
    pend = th.pending.copy()
    pend.cache = None
    build_options(T, pend, th.frames[-1].L)
    th.pending = pend
