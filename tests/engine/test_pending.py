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
