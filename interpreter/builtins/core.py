"""Core builtins: collections, numbers, maps, players, pieces and zones, randomness, text."""
from __future__ import annotations

from typing import Any, Callable

from ..budget import METER, charge, exceeded
from ..errors import RuleRuntimeError
from ..labels import label as label_of
from ..values import PLAYERS, Family, Piece, Player, ZoneRef
from . import builtin, items


def _key(f: Callable | None) -> Callable:
    return f if f is not None else (lambda x: x)


def _frozen(v: Any) -> Any:
    """A hashable stand-in for a value (lists and maps, nested)."""
    if isinstance(v, (list, tuple)):
        return tuple(_frozen(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, _frozen(x)) for k, x in v.items()))
    return v


def _sortable(v: Any) -> Any:
    """Keys compare element by element; none sorts first."""
    if isinstance(v, (list, tuple)):
        return tuple(_sortable(x) for x in v)
    if v is None:
        return (0,)
    return (1, v)


# ------------------------------------------------------------------ collections
@builtin(min_args=1, max_args=2)
def count(S, xs, f=None):
    """count(xs) or count(xs, x => cond): number of elements (matching)."""
    seq = items(S, xs)
    if f is None:
        return len(seq)
    return sum(1 for x in seq if f(x))


@builtin(min_args=1, max_args=1)
def len_(S, xs):
    """len(xs): number of elements (or of characters of a text)."""
    if isinstance(xs, str) and not isinstance(xs, (ZoneRef, Family)):
        return len(xs)
    return len(items(S, xs))


@builtin(min_args=1, max_args=2)
def sum_(S, xs, f=None):
    """sum(xs) or sum(xs, x => value)."""
    seq = items(S, xs)
    if f is None:
        return sum(seq)
    return sum(f(x) for x in seq)


def _extreme(S, xs, f, default, pick):
    seq = items(S, xs)
    if not seq:
        return default
    return pick(seq) if f is None else pick(map(f, seq))


@builtin(min_args=1, max_args=2, kwargs=("default",))
def min_(S, xs, f=None, default=None):
    """min(xs, f?, default=none): the smallest value."""
    return _extreme(S, xs, f, default, min)


@builtin(min_args=1, max_args=2, kwargs=("default",))
def max_(S, xs, f=None, default=None):
    """max(xs, f?, default=none): the largest value."""
    return _extreme(S, xs, f, default, max)


@builtin(min_args=2)
def argmax(S, xs, f):
    """argmax(xs, f): the elements whose f is the largest (all of them on a tie)."""
    seq = items(S, xs)
    if not seq:
        return []
    keys = [f(x) for x in seq]
    best = max(keys)
    return [x for x, k in zip(seq, keys) if k == best]


@builtin(min_args=2)
def argmin(S, xs, f):
    """argmin(xs, f): the elements whose f is the smallest."""
    seq = items(S, xs)
    if not seq:
        return []
    keys = [f(x) for x in seq]
    best = min(keys)
    return [x for x, k in zip(seq, keys) if k == best]


@builtin(name="any", min_args=1, max_args=2)
def any_(S, xs, f=None):
    """any(xs, f?): true if some element (or f of it) is true."""
    key = _key(f)
    return any(key(x) for x in items(S, xs))


@builtin(name="all", min_args=1, max_args=2)
def all_(S, xs, f=None):
    """all(xs, f?): true if every element (or f of it) is true."""
    key = _key(f)
    return all(key(x) for x in items(S, xs))


@builtin(name="filter", min_args=2)
def filter_(S, xs, f):
    """filter(xs, x => cond): the matching elements."""
    return [x for x in items(S, xs) if f(x)]


@builtin(name="map", min_args=2)
def map_(S, xs, f):
    """map(xs, x => value): f of every element."""
    return [f(x) for x in items(S, xs)]


@builtin(min_args=1, max_args=2, kwargs=("desc",))
def sort(S, xs, f=None, desc=False):
    """sort(xs, f?, desc=false): stable sort by f (lists compare element by element)."""
    seq = items(S, xs)
    keys = seq if f is None else [f(x) for x in seq]  # f once per element, in order, as before
    for k in keys:
        if type(k) not in _SCALARS:
            order = sorted(range(len(seq)), key=lambda i: _sortable(keys[i]), reverse=bool(desc))
            break
    else:  # numbers or texts only: _sortable would wrap every key alike, as (1, key)
        order = sorted(range(len(seq)), key=keys.__getitem__, reverse=bool(desc))
    return [seq[i] for i in order]


_SCALARS = frozenset({int, float, bool, str, Piece, Player})


@builtin(min_args=2)
def group(S, xs, f):
    """group(xs, f): [[key, [elements]], …] by ascending key."""
    groups: dict = {}
    for x in items(S, xs):
        k = f(x)
        groups.setdefault(k if not isinstance(k, list) else tuple(k), []).append(x)
    return [[k, v] for k, v in sorted(groups.items(), key=lambda kv: _sortable(kv[0]))]


@builtin(min_args=1)
def first(S, xs):
    """first(xs): the first element, or none."""
    seq = items(S, xs)
    return seq[0] if seq else None


@builtin(min_args=1)
def last(S, xs):
    """last(xs): the last element, or none."""
    seq = items(S, xs)
    return seq[-1] if seq else None


@builtin(min_args=1, max_args=2)
def top(S, zone, n=None):
    """top(zone): the first piece (none if empty); top(zone, n): a list of up to n."""
    seq = items(S, zone)
    if n is None:
        return seq[0] if seq else None
    return list(seq[:max(0, n)])


@builtin(min_args=1, max_args=2)
def bottom(S, zone, n=None):
    """bottom(zone): the last piece; bottom(zone, n): the last n pieces."""
    seq = items(S, zone)
    if n is None:
        return seq[-1] if seq else None
    return list(seq[-n:]) if n > 0 else []


@builtin(min_args=1)
def unique(S, xs):
    """unique(xs): elements in first-seen order, without repeats."""
    seen, out = set(), []
    for x in items(S, xs):
        t = type(x)
        k = _frozen(x) if t is list or t is tuple or t is dict else x
        if k not in seen:
            seen.add(k)
            out.append(x)
    return out


@builtin(min_args=1)
def reverse(S, xs):
    """reverse(xs): the list backwards."""
    return list(reversed(items(S, xs)))


@builtin(min_args=0, max_args=None)
def concat(S, *lists):
    """concat(xs, ys, …): one list."""
    out: list = []
    for xs in lists:
        out.extend(items(S, xs))
    return out


@builtin(min_args=1)
def flatten(S, xss):
    """flatten(xss): a list of lists as one list."""
    out: list = []
    for xs in items(S, xss):
        out.extend(items(S, xs))
    return out


@builtin(name="range", min_args=1, max_args=2)
def range_(S, a, b=None):
    """range(n): 0 … n-1; range(a, b): a … b-1."""
    r = range(a) if b is None else range(a, b)
    if len(r) > METER.limits.sequence:
        raise RuleRuntimeError(exceeded("sequence", METER.limits.sequence, f" (range of {len(r)} numbers)"),
                               code="E314")
    return list(charge(r))


@builtin(min_args=2)
def index_of(S, xs, x):
    """index_of(xs, x): position of x in xs, or -1."""
    seq = items(S, xs)
    return seq.index(x) if x in seq else -1


@builtin(min_args=2)
def append(S, xs, x):
    """append(xs, x): a new list with x at the end."""
    return list(items(S, xs)) + [x]


@builtin(min_args=2)
def remove(S, xs, x):
    """remove(xs, x): a new list without the first x."""
    out = list(items(S, xs))
    if x in out:
        out.remove(x)
    return out


@builtin(min_args=2)
def without(S, xs, ys):
    """without(xs, ys): elements of xs not in ys."""
    drop = items(S, ys)
    return [x for x in items(S, xs) if x not in drop]


@builtin(min_args=2)
def zip_(S, xs, ys):
    """zip(xs, ys): list of pairs [x, y]."""
    return [[a, b] for a, b in zip(items(S, xs), items(S, ys))]


@builtin(min_args=1)
def enumerate_(S, xs):
    """enumerate(xs): list of pairs [index, x]."""
    return [[i, x] for i, x in enumerate(items(S, xs))]


# ------------------------------------------------------------------ numbers
@builtin(name="abs", min_args=1)
def abs_(S, n):
    """abs(n)."""
    return abs(n)


@builtin(min_args=2)
def min2(S, a, b):
    """min2(a, b): the smaller."""
    return a if a <= b else b


@builtin(min_args=2)
def max2(S, a, b):
    """max2(a, b): the larger."""
    return a if a >= b else b


@builtin(min_args=3)
def clamp(S, x, lo, hi):
    """clamp(x, lo, hi)."""
    return max(lo, min(hi, x))


# ------------------------------------------------------------------ maps
@builtin(min_args=1)
def keys(S, m):
    """keys(m): the keys of a map."""
    return list(m.keys())


@builtin(min_args=1)
def values(S, m):
    """values(m): the values of a map."""
    return list(m.values())


@builtin(min_args=2, max_args=3)
def get(S, m, k, default=None):
    """get(m, k, default): m[k] if present (maps and lists)."""
    if isinstance(m, dict):
        return m.get(k, default)
    if isinstance(m, (list, tuple)) and isinstance(k, int) and -len(m) <= k < len(m):
        return m[k]
    return default


# ------------------------------------------------------------------ players
@builtin(min_args=1, max_args=2)
def next_player(S, p, k=1):
    """next_player(p, k=1): the player k seats to the left (seat order)."""
    return PLAYERS[(int(p) + k) % S.n]


@builtin(min_args=1, max_args=2)
def previous_player(S, p, k=1):
    """previous_player(p, k=1): the player k seats to the right."""
    return PLAYERS[(int(p) - k) % S.n]


@builtin(min_args=1)
def players_from(S, p):
    """players_from(p): every player in seat order, starting with p."""
    start = int(p)
    return [PLAYERS[(start + i) % S.n] for i in range(S.n)]


@builtin(min_args=1)
def player_of(S, n):
    """player_of(i): the player in seat i (0-based)."""
    return PLAYERS[int(n) % S.n]


# ------------------------------------------------------------------ pieces and zones
@builtin(min_args=1)
def pieces(S, component):
    """pieces(component): every piece of a component."""
    if component not in S.lay.by_component:
        raise RuleRuntimeError(f"no component {component!r}")
    return list(S.lay.by_component[component])


@builtin(min_args=1)
def zone_of(S, piece):
    """zone_of(piece): the zone the piece is in."""
    return S.loc[piece]


@builtin(min_args=1)
def owner(S, zone):
    """owner(zone): the zone's owner, or none."""
    return S.lay.zones[zone].owner


@builtin(min_args=1)
def zones(S, family):
    """zones(family): every zone of a family."""
    return list(S.lay.family_zones[str(family)])


@builtin(min_args=1)
def empty(S, zone):
    """empty(zone): no pieces in it."""
    return not items(S, zone)


@builtin(min_args=1)
def family_of(S, zone):
    """family_of(zone): the family name of a zone."""
    return Family(S.lay.zones[zone].family)


@builtin(min_args=1)
def zone_index(S, zone):
    """zone_index(zone): the zone's index (a value, or a list for several dimensions)."""
    index = S.lay.zones[zone].index
    return index[0] if len(index) == 1 else list(index)


@builtin(min_args=1)
def is_piece(S, x):
    """is_piece(x): true for a piece."""
    return type(x) is Piece


@builtin(min_args=1)
def is_player(S, x):
    """is_player(x): true for a player."""
    return type(x) is Player


@builtin(min_args=2)
def visible_to(S, piece, p):
    """visible_to(piece, p): can player p see the piece's face?"""
    return S.sees(p, piece)


# ------------------------------------------------------------------ grids (basic)
@builtin(min_args=2)
def grid_at(S, zone, cell):
    """grid_at(zone, (x, y)): the piece covering that cell, or none."""
    hit = S.grid.get(zone, {}).get(tuple(cell))
    return S.lay.pieces[hit[0]] if hit else None


@builtin(min_args=2)
def grid_part(S, zone, cell):
    """grid_part(zone, (x, y)): which cell of its piece's shape covers it (0-based), or none."""
    hit = S.grid.get(zone, {}).get(tuple(cell))
    return hit[1] if hit else None


@builtin(min_args=1)
def grid_cells(S, zone):
    """grid_cells(zone): every covered cell, sorted."""
    return sorted(S.grid.get(zone, {}))


@builtin(min_args=1)
def shape(S, piece):
    """shape(piece): the cells a piece covers, relative to where it is put."""
    return list(S.shape_of(piece))


# ------------------------------------------------------------------ randomness
@builtin(min_args=1)
def random_choice(S, xs):
    """random_choice(xs): one element, from the state's generator."""
    seq = items(S, xs)
    if not seq:
        raise RuleRuntimeError("random_choice of an empty list")
    return S.rng.choice(seq)


@builtin(min_args=2)
def random_int(S, a, b):
    """random_int(a, b): a … b inclusive."""
    return a + S.rng.below(b - a + 1)


@builtin(min_args=1)
def shuffled(S, xs):
    """shuffled(xs): a shuffled copy."""
    out = list(items(S, xs))
    S.rng.shuffle(out)
    return out


# ------------------------------------------------------------------ text
@builtin(name="str", min_args=1)
def str_(S, x):
    """str(x): text of a value."""
    return label_of(S, x)


@builtin(min_args=1)
def label(S, x):
    """label(x): how the value is shown."""
    return label_of(S, x)
