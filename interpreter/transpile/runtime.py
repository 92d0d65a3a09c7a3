"""What generated programs call (interpreter/transpile/): small helpers over plain lists.

A zone is a Python list of piece numbers; `loc[piece]` is the list the piece is in. Everything
here is plain Python on purpose: the generated program's namespace takes these functions as
they are (see program.RUNTIME_NAMES)."""
from __future__ import annotations

from ..builtins.poker import evaluate as _poker_evaluate  # noqa: F401 - used by generated code
from ..rng import Rng as _Rng  # noqa: F401 - used by generated code


class _GameEnds(Exception):
    """`end_game`: leaves the flow for the scoring."""


def _remove(xs, x):
    out = list(xs)
    if x in out:
        out.remove(x)
    return out


def _first(xs):
    return xs[0] if xs else None


def _argmax(xs, f):
    keys = [f(x) for x in xs]
    if not keys:
        return []
    best = max(keys)
    return [x for x, k in zip(xs, keys) if k == best]


def _deal(k, source, dests, loc):
    for _ in range(k):
        for dest in dests:
            if not source:
                return
            pc = source.pop(0)
            dest.append(pc)
            loc[pc] = dest


def _move(w, dest, loc):
    """`move`: a piece (an int) or every piece of a list/zone, each to the end of `dest`."""
    if type(w) is int:
        loc[w].remove(w)
        dest.append(w)
        loc[w] = dest
        return
    for pc in list(w):
        loc[pc].remove(pc)
        dest.append(pc)
        loc[pc] = dest


def _draw(k, source, dest, loc):
    for pc in source[:max(0, k)]:
        loc[pc].remove(pc)
        dest.append(pc)
        loc[pc] = dest


def _last(xs):
    return xs[-1] if xs else None


def _extreme(xs, f, default, pick):
    return default if not xs else pick(map(f, xs))


def _index_of(xs, x):
    return xs.index(x) if x in xs else -1


def _shuffled(rng, xs):
    out = list(xs)
    rng.shuffle(out)
    return out


def _hand_rank(cards, table, values, colours):
    return _poker_evaluate([values[c] for c in cards], [colours[c] for c in cards], table)[1]


def _number(v):
    return 0 if v is None else int(v) if isinstance(v, bool) else v


