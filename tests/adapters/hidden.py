"""The engine's resampler, reached through one function (its module is moving: one line here)."""
from __future__ import annotations

import random
from typing import Any


def resample_hidden(S: Any, viewer: int, rng: random.Random) -> Any:
    """A copy of S in which everything hidden from `viewer` is swapped for something that
    looks the same to `viewer` (and the generator is re-seeded). The viewer's own pending
    decision is asked again over the swapped pieces, as the conformance audit does."""
    from interpreter.conformance import perturb
    T, mapping = perturb(S, viewer, rng)
    _reask(T, viewer, mapping)
    return T


def _reask(T: Any, viewer: int, mapping: dict) -> None:
    from interpreter.decisions import build_options, pending_for
    from interpreter.values import Piece

    th = pending_for(T, viewer)
    if th is None or th.pending.kind == "perform":
        return
    pend = th.pending.copy()
    pend.cache = None
    pend.candidates = [mapping.get(c, c) if type(c) is Piece else c for c in pend.candidates]
    build_options(T, pend, th.frames[-1].L)
    th.pending = pend
