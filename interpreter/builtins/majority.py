"""Majorities: places by a value with tie policies, and awards handed out by place.

Generic: area-majority scoring, podiums, "most influence" checks. The value of an element is
given by a lambda; higher is better; elements whose value is none take no place.

Tie policies (how a group of k elements tied on one value is placed):
  share      every member takes the place they tie for; the next k-1 places are skipped
             (1st, 1st, 3rd). `skip_next` is the same policy.
  dense      every member takes the place they tie for; the next group takes the next place
             (1st, 1st, 2nd).
  split_down (awards only) the members pool the awards of the k places they cover and split
             the pool evenly, rounding down; the next k-1 places are skipped.
  drop       nobody in the group places (their places are used up).
"""
from __future__ import annotations

from ..errors import RuleRuntimeError
from .core import _sortable
from . import builtin, items

POLICIES = ("share", "skip_next", "dense", "split_down", "drop")


def _groups(S, xs, f):
    """[(value, [members])] best value first; members keep the input order."""
    scored = [(x, f(x)) for x in items(S, xs)]
    scored = [(x, v) for x, v in scored if v is not None]
    order: list = []
    by_value: dict = {}
    for x, v in scored:
        key = _sortable(v)
        if key not in by_value:
            by_value[key] = (v, [])
            order.append(key)
        by_value[key][1].append(x)
    order.sort(reverse=True)
    return [by_value[k] for k in order]


def _check(policy):
    if policy not in POLICIES:
        raise RuleRuntimeError(f'unknown tie policy "{policy}"; expected one of {", ".join(POLICIES)}')


@builtin(min_args=2, max_args=3, kwargs=("policy",))
def places(S, xs, f, policy="share"):
    """places(xs, x => value, policy="share"): the groups of tied elements, best first, each a pair
    [place (0-based), [members]]; policies share/skip_next, dense, drop (see majority.py)."""
    _check(policy)
    out = []
    place = 0
    for _value, members in _groups(S, xs, f):
        if policy == "drop" and len(members) > 1:
            place += len(members)
            continue
        out.append([place, members])
        place += 1 if policy == "dense" else len(members)
    return out


@builtin(min_args=2, max_args=3, kwargs=("policy",))
def ranking(S, xs, f, policy="share"):
    """ranking(xs, x => value, policy="share"): the place (0-based) of each element of xs, in the
    order of xs (none for an element that takes no place)."""
    where = {}
    for place, members in places(S, xs, f, policy):
        for x in members:
            where[x] = place
    return [where.get(x) for x in items(S, xs)]


@builtin(min_args=3, max_args=4, kwargs=("policy",))
def awards_by_place(S, xs, f, points, policy="share"):
    """awards_by_place(xs, x => value, points, policy="share"): what each element earns when places are paid
    `points` (a list: 1st, 2nd, …; missing places pay nothing): a list of [element, amount] for the
    elements that place, best first; policies as in places, plus split_down."""
    _check(policy)
    pts = list(items(S, points))

    def pay(i):
        return pts[i] if 0 <= i < len(pts) else 0

    out = []
    place = 0
    for _value, members in _groups(S, xs, f):
        k = len(members)
        if policy == "split_down":
            pool = sum(pay(i) for i in range(place, place + k))
            share = pool // k
            if place < len(pts):
                out.extend([x, share] for x in members)
            place += k
        elif policy == "drop" and k > 1:
            place += k
        else:
            if place < len(pts):
                out.extend([x, pay(place)] for x in members)
            place += 1 if policy == "dense" else k
    return out
