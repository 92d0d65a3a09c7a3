"""Pending.ready (the decision hot path's constructor) makes the same decision as __init__
followed by build_options, with every slot set (copies and saves read them all)."""
from __future__ import annotations

from interpreter.options import PLAIN_RECIPE, build_options
from interpreter.threads import Pending
from interpreter.values import PLAYERS


def _slots(p: Pending) -> dict:
    return {name: getattr(p, name) for name in Pending.__slots__}


def test_ready_equals_init_then_build_options_for_a_plain_choice():
    made = Pending(PLAYERS[1], "choose", "pick", [3, 1, 2], 1, 1, False, "c", True, None)
    made.prompt_event = ["pick", []]
    build_options(None, made, {})
    ready = Pending.ready(PLAYERS[1], "choose", "pick", [3, 1, 2], [3, 1, 2], False, "c", True, None,
                          ["pick", []], PLAIN_RECIPE, None)
    assert _slots(ready) == _slots(made)


def test_ready_sets_every_slot_and_copies_own_their_picks():
    p = Pending.ready(PLAYERS[0], "perform", None, ["a", "b"], ["a", "b", "\x00pass"], True, "act",
                      False, None, None, ("perform", []), None)
    q = p.copy()
    assert _slots(q) == _slots(p)
    q.picked.append("a")
    assert p.picked == [] and (p.low, p.high, p.labels, p.cache, p.label_key) == (1, 1, None, None, None)


def test_thread_and_frame_copies_set_every_slot_and_own_their_parts():
    from interpreter.threads import Frame, Thread
    p = Pending.ready(PLAYERS[1], "choose", "pick", [1, 2], [1, 2], False, "c", True, None, None,
                      PLAIN_RECIPE, None)
    th = Thread(4, [Frame("main", 3, {"a": 1}), Frame("turn", 1, {"b": 2}, "r")], PLAYERS[1], 2)
    th.status, th.waiting, th.since, th.pending = "choose", 1, 7, p
    c = th.copy()
    assert {n: getattr(c, n) for n in Thread.__slots__ if n not in ("frames", "pending")} == \
        {n: getattr(th, n) for n in Thread.__slots__ if n not in ("frames", "pending")}
    assert [{n: getattr(f, n) for n in Frame.__slots__} for f in c.frames] == \
        [{n: getattr(f, n) for n in Frame.__slots__} for f in th.frames]
    assert _slots(c.pending) == _slots(p) and c.pending is not p
    c.frames[1].L["b"] = 3
    c.frames.pop()
    assert th.frames[1].L == {"b": 2} and len(th.frames) == 2
