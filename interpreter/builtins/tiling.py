"""Tiling look-ahead: can the empty cells of a bounded grid still be filled exactly by the pieces
still to come, in the order they come?

Generic: games where a board must end up completely filled by pieces placed one at a time, each
touching the pieces already there (polyomino cities, tile-laying puzzles). A shape is a list of
cells relative to its anchor; it may be translated but not rotated (pieces keep their printed
orientation). Pieces are listed in the order they arrive.

Single-cell pieces fit any empty cell that touches a piece, so only the larger shapes are
searched. A larger shape must touch a piece placed before it; the single-cell pieces that arrive
before it may first build a path towards its place (each cell of the path is one of them; the
paths of several shapes are counted separately, which is on the safe side). Whatever is left must
be joined to the pieces through empty cells, so that it can be filled at the end.
"""
from __future__ import annotations

from collections import deque
from typing import Any

from ..errors import RuleRuntimeError
from .grid import _cells, _grid, _link_map
from . import builtin


def _shape(s: Any) -> tuple:
    cells = sorted(_cells(s), key=lambda c: (c[1], c[0]))
    if not cells:
        return ((0, 0),)
    x0, y0 = cells[0]
    return tuple((x - x0, y - y0) for x, y in cells)   # its first cell (row-major) at (0, 0)


def _neighbours(c: tuple, lmap: dict) -> list:
    x, y = c
    out = [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]
    extra = lmap.get(c)
    if extra:
        out.extend(extra)
    return out


def _distances(sources: set, free: set, lmap: dict) -> dict:
    """Steps from the sources to each free cell through free cells (1 = touching a source)."""
    dist: dict = {}
    todo: deque = deque()
    for s in sources:
        for n in _neighbours(s, lmap):
            if n in free and n not in dist:
                dist[n] = 1
                todo.append(n)
    while todo:
        c = todo.popleft()
        for n in _neighbours(c, lmap):
            if n in free and n not in dist:
                dist[n] = dist[c] + 1
                todo.append(n)
    return dist


class _Search:
    """Places the larger pieces, in arrival order, on the free cells of one window. A piece may
    have several possible shapes (not known before it arrives): each gets its own place, and the
    places of different pieces never overlap, so that every combination fits."""

    def __init__(self, free: set, occupied: set, big: list, lmap: dict, paths: bool = True):
        self.free = free
        self.occupied = occupied
        # the single pieces arriving before the last larger piece need room outside their places
        self.early_singles = big[-1][1] if big else 0
        # [(possible shapes, single pieces arriving before it that may build a path to it)]
        self.big = big if paths else [(shapes, 0) for shapes, _ in big]
        self.lmap = lmap
        self.from_pieces = _distances(occupied, free, lmap)
        self.between: dict = {}         # cell -> distances from that cell, through free cells
        self.spots: dict = {}           # shape -> [(cost from the pieces, cells)], cheapest first

    def _room_for_early_singles(self, places: frozenset) -> bool:
        """The single pieces arriving before the larger ones are put first, each touching a piece,
        on cells none of the larger pieces' places may need."""
        if not self.early_singles:
            return True
        rest = self.free - places
        return len(_distances(self.occupied, rest, self.lmap)) >= self.early_singles

    def _from(self, cell: tuple) -> dict:
        d = self.between.get(cell)
        if d is None:
            d = self.between[cell] = _distances({cell}, self.free, self.lmap)
        return d

    def _spots(self, shape: tuple) -> list:
        out = self.spots.get(shape)
        if out is None:
            out = []
            for ax, ay in self.free:
                cover = tuple((ax + dx, ay + dy) for dx, dy in shape)
                if all(c in self.free for c in cover):
                    out.append((min(self.from_pieces[c] for c in cover) - 1, cover))
            out.sort(key=lambda e: (e[0], e[1]))
            self.spots[shape] = out
        return out

    def _cost(self, base: int, cover: tuple, sure: list) -> int:
        """Single pieces needed to join `cover` to the pieces, or to a place of an earlier piece
        whose shape is known (`sure`)."""
        best = base
        for slot in sure:
            for a in slot:
                da = self._from(a)
                for c in cover:
                    d = da.get(c)
                    if d is not None and d - 1 < best:
                        best = d - 1
        return best

    def run(self, k: int = 0, a: int = 0, used: frozenset = frozenset(), mine: frozenset = frozenset(),
            sure: tuple = (), spent: int = 0) -> bool:
        if k == len(self.big):
            return self._room_for_early_singles(used)
        shapes, budget = self.big[k]
        if a == len(shapes):            # every possible shape of piece k has its place
            return self.run(k + 1, 0, used | mine, frozenset(), sure, spent)
        for base, cover in self._spots(shapes[a]):
            if spent + base > budget and not sure:
                break                   # the spots are sorted by cost
            if any(c in used for c in cover):
                continue
            cost = spent + self._cost(base, cover, list(sure))
            if cost > budget:
                continue
            known = sure + (cover,) if len(shapes) == 1 else sure
            if self.run(k, a + 1, used, mine.union(cover), known, cost):
                return True
        return False


def _piece(entry: Any) -> tuple:
    """A piece to come: its possible shapes (a shape, or a list of shapes)."""
    items = list(entry)
    if items and isinstance(items[0], (list, tuple)) and items[0] and isinstance(items[0][0], (list, tuple)):
        return tuple(sorted({_shape(s) for s in items}))
    return (_shape(items),)


_MEMO: dict = {}          # answers by question: a rule asks the same one for several options
_MEMO_LIMIT = 20000


def completable(occupied: set, shapes: list, w: int, h: int, blocked: set, include: list,
                links: Any = None, paths: bool = True) -> bool:
    """Plain-Python core of grid_completable (see there)."""
    shapes_key = repr(shapes)
    key = (frozenset(occupied), shapes_key, w, h, frozenset(blocked), repr(include), repr(links),
           paths)
    hit = _MEMO.get(key)
    if hit is None:
        if len(_MEMO) >= _MEMO_LIMIT:
            _MEMO.clear()
            _PIECES.clear()
        pieces = _PIECES.get(shapes_key)
        if pieces is None:      # the same pieces are asked about for every spot of a tile
            pieces = _PIECES[shapes_key] = [_piece(e) for e in shapes]
        hit = _MEMO[key] = _completable(occupied, pieces, w, h, blocked, include, links, paths)
    return hit


_PIECES: dict = {}        # parsed pieces to come, by their text


def _completable(occupied: set, pieces: list, w: int, h: int, blocked: set, include: list,
                 links: Any, paths: bool) -> bool:
    need = 0
    big, singles = [], 0
    for p in pieces:
        size = len(p[0])
        if any(len(s) != size for s in p):
            raise RuleRuntimeError("the possible shapes of one piece must cover as many cells")
        need += size
        if size == 1:
            singles += 1
        else:
            big.append((p, singles))
    base = list(occupied) + list(include)
    if not base:
        return False
    lmap = _link_map(links)
    xs = [c[0] for c in base]
    ys = [c[1] for c in base]
    bx0, bx1, by0, by1 = min(xs), max(xs), min(ys), max(ys)
    for x0 in range(bx1 - w + 1, bx0 + 1):
        for y0 in range(by1 - h + 1, by0 + 1):
            free = {(x, y) for x in range(x0, x0 + w) for y in range(y0, y0 + h)
                    if (x, y) not in occupied and (x, y) not in blocked}
            if len(free) != need:
                continue
            search = _Search(free, occupied, big, lmap, paths)
            if len(search.from_pieces) < len(free):      # a free cell no piece can ever reach
                continue
            if search.run():
                return True
    return False


@builtin(min_args=2, kwargs=("max_width", "max_height", "blocked", "links", "include", "occupied",
                             "paths"))
def grid_completable(S, zone, shapes, max_width=None, max_height=None, blocked=None, links=None,
                     include=None, occupied=None, paths=True):
    """grid_completable(zone, shapes, max_width=, max_height=, blocked=[], links=[], include=[], occupied=[], paths=true): true when the pieces still to come (shapes: lists of cells, in arrival order, translated, never rotated; an entry may be a list of shapes when the piece's shape is not known in advance: it must fit whichever it is) can fill exactly the empty, unblocked cells of some max_width × max_height window holding every occupied, `include` and `occupied` cell, each piece touching (or linked to) one placed before it; single-cell pieces arriving earlier may build a path to a larger one (not with paths=false: every larger piece must then fit touching the pieces already there). `occupied`: cells counted as taken (a placement being considered)."""
    if max_width is None or max_height is None:
        raise RuleRuntimeError("grid_completable needs max_width= and max_height=")
    taken = set(_grid(S, zone))
    taken.update(_cells(occupied))
    return completable(taken, list(shapes), int(max_width), int(max_height),
                       set(_cells(blocked)), _cells(include), links, bool(paths))
