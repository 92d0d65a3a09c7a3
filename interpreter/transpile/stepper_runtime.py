"""What the resumable programs (stepper.py) call to clone a game: copies of plain values that keep
which list is which (a local or a variable naming a zone becomes the copy of that zone: `memo`
maps the id of every list already copied, the zones first, to its copy)."""
from __future__ import annotations

from operator import itemgetter as _itemgetter  # noqa: F401 - refills.py's restorer

from .grid_runtime import _copy_cells  # noqa: F401 - a grid zone's cells (grids.py), copied by clone

_NESTED = frozenset((list, tuple))


def _copy(v, memo):
    """A value of the state or of a live local: lists and tuples copied (each list once), the
    rest (numbers, texts, table rows that nothing changes) shared."""
    t = type(v)
    if t is list:
        got = memo.get(id(v))
        if got is None:
            got = memo[id(v)] = v[:]
            if not _NESTED.isdisjoint(map(type, v)):  # a list or tuple in it (one pass in C)
                for i, x in enumerate(got):
                    if type(x) in _NESTED:
                        got[i] = _copy(x, memo)
        return got
    if t is tuple:
        return tuple([_copy(x, memo) if type(x) in _NESTED else x for x in v])
    return v


def _flat(v):
    """Whether v is a list holding no list or tuple (refills.py's `restore` refills it whole)."""
    return type(v) is list and _NESTED.isdisjoint(map(type, v))


def _refill(dst, src, memo, flat):
    """dst (a world's list) made in place what ``_copy(src, memo)`` makes (`flat`: src holds no
    list or tuple); False where clone's copy could not be dst: src is no list (then dst must be
    src itself), or a copy of src was made already (a local naming it)."""
    if type(src) is not list or type(dst) is not list:
        return src is dst
    if id(src) in memo:
        return False
    memo[id(src)] = dst
    dst[:] = src
    if not flat:
        for i, x in enumerate(dst):
            if type(x) in _NESTED:
                dst[i] = _copy(x, memo)
    return True
