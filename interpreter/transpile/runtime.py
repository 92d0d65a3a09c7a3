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



# scoring (interpreter/scoring.py's result, over plain values)

def _scores(values):
    """Each score as a number: none 0, true 1 (scoring._number); anything else not a number raises."""
    out = []
    for s in values:
        if type(s) is not int:
            s = _number(s)
            if not isinstance(s, (int, float)):
                raise TypeError(f"a score must be a number, got {s!r}")
        out.append(s)
    return out


def _ranked(keys, lowest, draw):
    """Seats with the best key (score, then tie-breaks); nobody when all tie and that is a draw."""
    best = min(keys) if lowest else max(keys)
    winners = [i for i, k in enumerate(keys) if k == best]
    if draw and len(winners) == len(keys) > 1:
        return []
    return winners


def _seats(chosen):
    """The `winners` expression's value as sorted, distinct seats (scoring._seats)."""
    if chosen is None:
        return []
    if isinstance(chosen, int):
        chosen = [chosen]
    return sorted({int(p) for p in chosen})


class _Unlabelled(Exception):
    """A text shows a plain int whose kind (number, player, piece) the generator could not tell."""


def _text(v, kind):
    """A value in an `end_game` text as labels.label writes it; `kind` is what kinds.py knows."""
    t = type(v)
    if t is str:
        return v
    if t is int:
        if kind == "number":
            return str(v)
        if kind == "player":
            return f"P{v + 1}"
        raise _Unlabelled(v)
    if v is None:
        return "none"
    if t is bool:
        return "true" if v else "false"
    if t is list:
        return ", ".join(_text(x, kind) for x in v)
    if t is tuple:
        return "(" + ", ".join(_text(x, kind) for x in v) + ")"
    if isinstance(v, dict):
        for key in ("label", "name", "id"):
            if key in v:
                return str(v[key])
    return str(v)


# work budget

class _OverBudget(RuntimeError):
    """A generated loop ran past the rule file's `steps` limit (budget.py): the caller replays
    the game in the engine, which reports it with its error code and position."""


def _over_steps(limit, where):
    raise _OverBudget(f"more than {limit} loop iterations (limit `steps`) at {where}")


# ---------------------------------------------------------------- cards: choices, arithmetic
from ..options import DONE as _DONE, PASS as _PASS  # noqa: E402,F401 - used by generated code


def _listed(xs):
    """A choice's candidates as a new list (builtins.items: a list, a tuple or a map's keys)."""
    t = type(xs)
    if t is list:
        return xs[:]
    if t is tuple or t is dict:
        return list(xs)
    raise TypeError(f"expected a list or a zone, got {xs!r}")


def _extreme_of(xs, default, pick):
    """One-argument max/min (builtins.core._extreme without a function)."""
    if type(xs) is not list:
        xs = _listed(xs)
    return pick(xs) if xs else default


def _mod(x, y):
    """x % y on numbers only (codegen.modulo: on a text, % would format it)."""
    if type(x) is str:
        raise TypeError("% works on numbers, not on text")
    return x % y


class _LookAlikes(RuntimeError):
    """Two offered pieces may look alike (see choices.ChoiceWriter.offer): the engine plays this game."""


def _no_lookalikes(options, alike, loc):
    kinds = set()
    for x in options:
        kind = alike.get(x)
        if kind is not None:
            key = (kind, id(loc[x]))
            if key in kinds:
                raise _LookAlikes(f"pieces that may look alike are offered together ({options})")
            kinds.add(key)
