"""Matchings: give each element a distinct option taken from its own list of options.

Generic: several takers acting at the same time, each from its own pool (no option goes to two
takers); seats or slots handed out under constraints. An element's options come from a lambda
(a list or a zone); two options are the same option when they are equal values (the same piece,
the same cell, …).

A maximum matching is found by augmenting paths (Kuhn's algorithm). It is deterministic:
elements are served in the order given and each element's options are tried in their own order.
"""
from __future__ import annotations

from typing import Any, Callable

from . import builtin, items


def _key(value: Any) -> Any:
    if isinstance(value, list):
        return ("l",) + tuple(_key(v) for v in value)
    if isinstance(value, dict):
        return ("m",) + tuple(sorted((k, _key(v)) for k, v in value.items()))
    return value


def _maximum_matching(S: Any, xs: Any, f: Callable, every: bool = False) -> tuple[list, list]:
    """The elements and, for each, its option in one maximum matching (or None). `every`: stop
    at the first element left without an option (an element that finds no augmenting path at
    its turn is in no maximum matching found later either)."""
    elements = list(items(S, xs))
    options = []
    for x in elements:
        keyed = []
        for option in items(S, f(x)):
            t = type(option)
            keyed.append((_key(option) if t is list or t is dict else option, option))
        options.append(keyed)
    holder: dict = {}          # option key -> index of the element holding it
    chosen: list = [None] * len(elements)

    def augment(i: int, visited: set) -> bool:
        for k, option in options[i]:
            if k in visited:
                continue
            visited.add(k)
            j = holder.get(k)
            if j is None or augment(j, visited):
                holder[k] = i
                chosen[i] = option
                return True
        return False

    for i in range(len(elements)):
        if not augment(i, set()) and every:
            break
    return elements, chosen


@builtin(min_args=2)
def matching(S, xs, f):
    """matching(xs, x => options): a largest set of pairs [x, option] giving elements distinct options from their own lists, in the order of xs (elements left without an option are not listed)."""
    elements, chosen = _maximum_matching(S, xs, f)
    return [[x, o] for x, o in zip(elements, chosen) if o is not None]


@builtin(min_args=2)
def assignable(S, xs, f):
    """assignable(xs, x => options): true when every element can get an option of its own list, no option going to two elements (true for no elements)."""
    elements, chosen = _maximum_matching(S, xs, f, every=True)
    return all(o is not None for o in chosen)
