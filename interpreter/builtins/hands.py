"""Hand categories declared as data (poker hands of cards or dice), compared with tie-breaks.

A ranking table is a list of rows, best first; a hand's category is the first row it matches.
A row may hold any of these conditions (all must hold; a row with none always matches):

    groups: [a, b, ...]  disjoint sets of equal values of at least these sizes
                         ([3, 2] = full house, [2, 2] = two pair, [2] = a pair)
    straight: n          at least n pieces, values all different and consecutive (no wrap)
    flush: n             at least n pieces, all of one suit
    rainbow: n           at least n pieces, suits all different

and how equal categories are compared, `tiebreak`:

    groups (default)     the values ordered by group size, then value, high first
                         (n-of-a-kind, full house, two pair, pair, then kickers)
    high_cards           all values, high first
    top                  the highest value only

Values are numbers, or any values ranked by `order` (a list, lowest first), e.g. poker-dice
faces `[nine, ten, jack, queen, king, ace]`. The key is `[len(table) - row, t1, t2, ...]`;
keys compare element by element, and a shorter key that is a prefix of a longer one is smaller
(a present card beats a missing one). Hands of any size work; the whole list is one hand.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from ..errors import RuleRuntimeError
from ..values import Piece
from . import builtin, items


def _attr(S: Any, x: Any, name: str) -> Any:
    if type(x) is Piece:
        d = S.dyn.get(name)
        if d is not None and x in d:
            return d[x]
        return S.lay.static[x].get(name)
    if isinstance(x, dict):
        return x.get(name)
    if name == "value":          # plain values stand for themselves
        return x
    raise RuleRuntimeError(f"{x!r} has no attribute {name!r}")


def _ranks(S: Any, cards: list, value: str, order: Any) -> list:
    raw = [_attr(S, c, value) for c in cards]
    if order is None:
        for v in raw:
            if not isinstance(v, (int, float)) or isinstance(v, bool):
                raise RuleRuntimeError(
                    f'hand values must be numbers, or ranked by order=[...]; got {v!r}')
        return raw
    pos = {v: i for i, v in enumerate(items(S, order))}
    try:
        return [pos[v] for v in raw]
    except KeyError as e:
        raise RuleRuntimeError(f"value {e.args[0]!r} is not in order={list(pos)}") from None


def _groups_fit(sizes: list, need: list) -> bool:
    """Sizes sorted high first dominate the needed sizes sorted high first."""
    need = sorted(need, reverse=True)
    if len(need) > len(sizes):
        return False
    return all(s >= n for s, n in zip(sizes, need))


def _evaluate(S: Any, cards: Any, table: Any, value: str, suit: str | None, order: Any):
    hand = items(S, cards)
    ranks = _ranks(S, hand, value, order)
    counts = Counter(ranks)
    by_group = sorted(counts.items(), key=lambda kv: (-kv[1], -kv[0]))
    sizes = [n for _, n in by_group]
    suits = [_attr(S, c, suit) for c in hand] if suit else None
    rows = items(S, table)
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            raise RuleRuntimeError(f"hand ranking row {i} is not a map: {row!r}")
        need = row.get("groups")
        if need is not None and not _groups_fit(sizes, list(need)):
            continue
        n = row.get("straight")
        if n is not None:
            if len(ranks) < n or len(counts) != len(ranks) or max(ranks) - min(ranks) != len(ranks) - 1:
                continue
        n = row.get("flush")
        if n is not None:
            if suits is None:
                raise RuleRuntimeError("a flush row needs suit=...")
            if len(hand) < n or len(set(suits)) != 1:
                continue
        n = row.get("rainbow")
        if n is not None:
            if suits is None:
                raise RuleRuntimeError("a rainbow row needs suit=...")
            if len(hand) < n or len(set(suits)) != len(suits):
                continue
        how = row.get("tiebreak", "groups")
        if how == "groups":
            tie = [v for v, k in by_group for _ in range(k)]
        elif how == "high_cards":
            tie = sorted(ranks, reverse=True)
        elif how == "top":
            tie = [max(ranks)] if ranks else []
        else:
            raise RuleRuntimeError(f'unknown tiebreak {how!r} (groups, high_cards, top)')
        return i, row, [len(rows) - i] + tie
    return None, None, [0] + sorted(ranks, reverse=True)


@builtin(min_args=2, max_args=2, kwargs=("value", "suit", "order"))
def hand_rank(S, cards, table, value="value", suit=None, order=None):
    """hand_rank(cards, table, value="value", suit=none, order=none): a key, higher = better hand."""
    return _evaluate(S, cards, table, value, suit, order)[2]


@builtin(min_args=2, max_args=2, kwargs=("value", "suit", "order"))
def hand_category(S, cards, table, value="value", suit=None, order=None):
    """hand_category(cards, table, ...): the id of the first row of the table the hand matches."""
    _, row, _ = _evaluate(S, cards, table, value, suit, order)
    return None if row is None else row.get("id")
