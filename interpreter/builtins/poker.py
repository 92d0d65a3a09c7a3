"""Poker-like hand categories declared as data: n-of-a-kind groups, straights, flushes and
suit-distinct ("rainbow") straights, with tie-breaks.

A *ranking table* comes from the rule file: a list of rows, **best first**. A hand's category is
the first row it matches. A row may hold:

    groups: [a, b, ...]   disjoint sets of equal values of at least these sizes ([3, 2] = full house)
    straight: n           at least n cards, all values distinct and consecutive (no wrap-around)
    flush: n              at least n cards, all of one suit
    rainbow: n            at least n cards, all suits different
    (none of these)       always matches
    tiebreak: groups | high_cards | top
        groups (default): values ordered by group size, then value, high first (sets, then kickers)
        high_cards: all values, high first
        top: the highest value only

`hand_rank` gives the key `[len(table) - row, *tie-break values]`. Keys compare as lists, so a
hand with a missing kicker loses to the same hand with any card there. The whole list of cards
is one hand (no best-five-of-seven selection).
"""
from __future__ import annotations

from operator import ge
from typing import Any, Sequence

from ..errors import RuleRuntimeError
from ..values import Piece
from . import builtin, items

CONDITIONS = ("groups", "straight", "flush", "rainbow")
TIEBREAKS = ("groups", "high_cards", "top")
ROW_KEYS = frozenset(CONDITIONS) | {"tiebreak", "id", "label", "labels", "description"}

_compiled: dict[int, tuple[Any, list, dict]] = {}  # id(table) -> (table, rows, answers by hand)
_ANSWERS_LIMIT = 50000


def check_table(table: Any) -> list[str]:
    """Problems with a ranking table (an empty list when it is fine)."""
    if not isinstance(table, (list, tuple)) or not table:
        return ["a hand ranking table must be a non-empty list of rows"]
    problems = []
    for i, row in enumerate(table):
        if not isinstance(row, dict):
            problems.append(f"row {i}: expected a map")
            continue
        for k in row:
            if k not in ROW_KEYS:
                problems.append(f"row {i}: unknown key {k!r} (expected one of {', '.join(sorted(ROW_KEYS))})")
        g = row.get("groups")
        if g is not None and (not isinstance(g, (list, tuple))
                              or not all(type(x) is int and x >= 1 for x in g)):
            problems.append(f"row {i}: groups must be a list of positive integers")
        for k in ("straight", "flush", "rainbow"):
            v = row.get(k)
            if v is not None and not (type(v) is int and v >= 1):
                problems.append(f"row {i}: {k} must be a positive integer")
        tb = row.get("tiebreak", "groups")
        if tb not in TIEBREAKS:
            problems.append(f"row {i}: tiebreak must be one of {', '.join(TIEBREAKS)}, not {tb!r}")
    return problems


def _compile(table: Any) -> tuple:
    """(rows as tuples (groups sorted high first, straight, flush, rainbow, tiebreak, id),
    a table of answers already worked out, by hand)."""
    hit = _compiled.get(id(table))
    if hit is not None and hit[0] is table:
        return hit[1], hit[2]
    problems = check_table(table)
    if problems:
        raise RuleRuntimeError("hand ranking table: " + "; ".join(problems))
    rows = [(tuple(sorted(r.get("groups") or (), reverse=True)), r.get("straight"), r.get("flush"),
             r.get("rainbow"), r.get("tiebreak", "groups"), r.get("id")) for r in table]
    _compiled[id(table)] = (table, rows, {})
    return rows, _compiled[id(table)][2]


def evaluate(values: Sequence[int], suits: Sequence[Any], table: Any) -> tuple[int, list]:
    """(row index, key) of the hand given as parallel value and suit lists; row -1 if none."""
    rows, answers = _compile(table)
    try:                        # the answer depends on the values and the number of suits only
        hand = (tuple(sorted(values)), len(set(suits)))
    except TypeError:           # a suit that cannot be a set's element: work it out
        return _evaluate(values, suits, rows)
    hit = answers.get(hand)
    if hit is None:
        if len(answers) >= _ANSWERS_LIMIT:
            answers.clear()
        hit = answers[hand] = _evaluate(values, suits, rows)
    return hit[0], list(hit[1])


def _evaluate(values: Sequence[int], suits: Sequence[Any], rows: list) -> tuple[int, list]:
    n = len(values)
    counts: dict = {}
    for v in values:  # a Counter's counts, without building one (a hot path)
        counts[v] = counts.get(v, 0) + 1
    sizes = sorted(counts.values(), reverse=True)
    nsizes = len(sizes)
    distinct = len(counts)
    consecutive = n > 0 and distinct == n and max(values) - min(values) == n - 1
    nsuits = len(set(suits))
    for i, (groups, straight, flush, rainbow, tiebreak, _) in enumerate(rows):
        # each group at most its set's size, both high first (all(map(ge, …)): one loop in C)
        if groups and (nsizes < len(groups) or not all(map(ge, sizes, groups))):
            continue
        if straight is not None and (n < straight or not consecutive):
            continue
        if flush is not None and (n < flush or nsuits != 1):
            continue
        if rainbow is not None and (n < rainbow or nsuits != n):
            continue
        key = [len(rows) - i]
        if tiebreak == "top":
            key.append(max(values))
        elif tiebreak == "high_cards":
            key.extend(sorted(values, reverse=True))
        else:
            key.extend(sorted(values, key=lambda v: (counts[v], v), reverse=True))
        return i, key
    return -1, [0] + sorted(values, reverse=True)


def _hand(S: Any, cards: Any, value: str, suit: str) -> tuple[list, list]:
    values, suits = [], []
    for c in items(S, cards):
        if type(c) is Piece:
            d = S.dyn.get(value)
            v = d[c] if d is not None and c in d else S.lay.static[c].get(value)
            d = S.dyn.get(suit)
            s = d[c] if d is not None and c in d else S.lay.static[c].get(suit)
        elif isinstance(c, dict):
            v, s = c.get(value), c.get(suit)
        else:
            v, s = c, None
        if type(v) is not int:
            raise RuleRuntimeError(f'hand_rank: card {c!r} has no whole-number "{value}"')
        values.append(v)
        suits.append(s)
    return values, suits


@builtin(min_args=2, max_args=2, kwargs=("value", "suit"))
def hand_rank(S, cards, table, value="value", suit="colour"):
    """hand_rank(cards, table, value="value", suit="colour"): a key, higher for a better hand."""
    values, suits = _hand(S, cards, value, suit)
    return evaluate(values, suits, table)[1]


@builtin(min_args=2, max_args=2, kwargs=("value", "suit"))
def hand_category(S, cards, table, value="value", suit="colour"):
    """hand_category(cards, table, value="value", suit="colour"): the id of the hand's row."""
    values, suits = _hand(S, cards, value, suit)
    i, _ = evaluate(values, suits, table)
    return table[i].get("id") if i >= 0 else None
