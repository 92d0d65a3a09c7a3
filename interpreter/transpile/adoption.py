"""The engine's waiting decisions taken over at the resumable program's stops (stepper.py).

Inside a simultaneous block the engine runs every chooser's thread to its decision when the
block starts: each waiting decision's options (and, for a choice of several, its candidates)
are made then. A determinized world (interpreter/resample.py) renames the pieces those hold
but does not make them again, although hidden pieces moved and hidden dice were rolled again.
The stepper asks one chooser after another and would make each chooser's options from the
world when it gets there: other pieces, another grouping, another order. So where a world is
made on the stepper (transpile/worlds.py), each chooser's first stop takes over the engine's
waiting decision instead, renamed as relabel renames it: the options, the candidates and the
picks so far written into the stop's frame (stepper.py's SITE_PARTS say where), after checking
that the stop is that decision (the rule's position, the bounds, the locals the engine's
innermost frame also holds: the stepper's frame lists the innermost inlined procedure's first). Every later pick is made again from the candidates by both, as the engine does.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..resample import map_pieces
from .stepper import FRAME, OPTIONS, Stepper, site_position


@dataclass(frozen=True)
class Waiting:
    """One engine decision waiting for `seat` (read off its Pending and its thread's frame)."""

    seat: int
    pos: tuple  # stepper.site_position of the rule's choice
    kind: str  # choose | choose_many | perform
    options: list
    candidates: list
    picked: list
    low: Any
    high: Any
    names: dict  # the innermost frame's locals, by the rule file's names


def waiting_decisions(S: Any) -> dict[int, Waiting]:
    """Every decision S waits for, by seat."""
    out = {}
    for th in S.threads:
        pend = th.pending
        if pend is None:
            continue
        seat = int(pend.player)
        out[seat] = Waiting(seat, site_position(pend.pos), pend.kind, list(pend.options), list(pend.candidates),
                            list(pend.picked), pend.low, pend.high, dict(th.frames[-1].L) if th.frames else {})
    return out


def adopt(m: Stepper, st: list, w: Waiting, mapping: dict) -> bool:
    """Make st's stop (a decision of w.seat) the engine's waiting decision `w`, its pieces renamed
    by `mapping` (empty: w holds no piece the world renames); False (st's state unchanged) where
    the stop is not that decision."""
    parts = m.site_parts[st[0]]
    if parts is None or parts[0] != w.pos:
        return False
    _, at_options, at_cands, at_picked, at_low, at_high, _ = parts
    if (at_cands is not None) != (w.kind == "choose_many"):
        return False
    frame = list(st[FRAME])
    if at_cands is not None and (frame[at_low] != w.low or frame[at_high] != w.high):
        return False
    own, seen = {at_options, at_cands, at_picked}, set()
    for j, name in enumerate(m.frame_rule_names[st[0]]):  # the innermost procedure's names first
        if name in seen or name not in w.names:
            continue
        seen.add(name)
        if j not in own and frame[j] != (map_pieces(w.names[name], mapping) if mapping else w.names[name]):
            return False
    renamed = map_pieces if mapping else _copied  # the stepper changes these lists in place
    if st[m.gen_slot] is not None:  # the lists its waiting generator holds (fresh at each stop): in place
        frame[at_options][:] = renamed(w.options, mapping)  # st[OPTIONS] itself
        if at_cands is not None:
            frame[at_cands][:] = renamed(w.candidates, mapping)
            frame[at_picked][:] = renamed(w.picked, mapping)
        return True
    frame[at_options] = st[OPTIONS] = renamed(w.options, mapping)  # a copy's lists: new ones
    if at_cands is not None:
        frame[at_cands] = renamed(w.candidates, mapping)
        frame[at_picked] = renamed(w.picked, mapping)
    st[FRAME] = tuple(frame)
    return True


def _copied(values: list, _mapping: dict) -> list:
    return list(values)
