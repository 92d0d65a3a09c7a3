"""The look-ahead search of builtins/tiling.py as it was before its search was made of anchor
masks (commit aaa7e39): kept as the oracle the faster search must agree with, answer for answer
(tests/builtins/test_tiling_oracle.py). Plain and unmemoised: a question's pieces are parsed by
tiling's own helpers (_piece, _plan), everything after by the old code."""
from __future__ import annotations

from operator import itemgetter
from typing import Any, Iterator

from interpreter.builtins.bitgrid import BitWindow
from interpreter.builtins.grid import _cells, _link_map
from interpreter.builtins.tiling import _piece, _plan


class _Board(BitWindow):
    __slots__ = ()

    def __init__(self, x0: int, y0: int, w: int, h: int, pairs: list):
        super().__init__(x0, y0, w, h)
        self.links = [(a, b) for a, b in ((self.bit(p), self.bit(q)) for p, q in pairs) if a and b and a != b]

    def rings(self, sources: int, free: int) -> list:
        return list(self._rings(sources, free))

    def reach(self, sources: int, free: int) -> int:
        seen = 0
        for ring in self._rings(sources, free):
            seen |= ring
        return seen

    def _rings(self, sources: int, free: int) -> Iterator[int]:
        seen = frontier = sources
        while True:
            frontier = self.expand(frontier) & free & ~seen
            if not frontier:
                return
            yield frontier
            seen |= frontier


def _placements(w: int, h: int, shape: tuple) -> list:
    out = []
    for ax in range(w):
        for ay in range(h):
            cover = 0
            for dx, dy in shape:
                x, y = ax + dx, ay + dy
                if not (0 <= x < w and 0 <= y < h):
                    break
                cover |= 1 << (y * w + x)
            else:
                out.append((ax, ay, cover))
    return out


def _first_ring(rings: list, cover: int) -> int:
    for i, ring in enumerate(rings):
        if ring & cover:
            return i
    return len(rings)


class _Search:
    def __init__(self, board: _Board, free: int, occupied: int, steps: list, early_singles: int):
        self.board, self.free, self.occupied, self.steps = board, free, occupied, steps
        self.early_singles = early_singles
        self.from_pieces = board.rings(occupied, free)
        self.near: dict = {}
        self.spots: dict = {}

    def reaches_every_free_cell(self) -> bool:
        reached = 0
        for ring in self.from_pieces:
            reached |= ring
        return reached == self.free

    def _room_for_early_singles(self, places: int) -> bool:
        if not self.early_singles:
            return True
        if self.from_pieces and (self.from_pieces[0] & ~places).bit_count() >= self.early_singles:
            return True
        return self.board.reach(self.occupied, self.free & ~places).bit_count() >= self.early_singles

    def _spots(self, shape: tuple) -> list:
        taken, rings = ~self.free, self.from_pieces
        out = [(_first_ring(rings, cover), cover) for _, _, cover in _placements(self.board.w, self.board.h, shape)
               if not cover & taken]
        out.sort(key=itemgetter(0))
        self.spots[shape] = out
        return out

    def _cost(self, base: int, cover: int, sure: int) -> int:
        rings = self.near.get(sure)
        if rings is None:
            rings = self.near[sure] = self.board.rings(sure, self.free)
        d = _first_ring(rings, cover)
        # a place no ring from the sure places touches is joined to them by no path: its cost is
        # the one from the pieces (aaa7e39 took len(rings) here, 0 when the sure places are shut
        # in: a place touching no piece counted as touching one; the builtin never did so)
        return d if d < base and d < len(rings) else base

    def run(self, i: int = 0, used: int = 0, mine: int = 0, sure: int = 0, spent: int = 0) -> bool:
        if i == len(self.steps):
            return self._room_for_early_singles(used)
        shape, budget, alone, last = self.steps[i]
        spots = self.spots.get(shape)
        if spots is None:
            spots = self._spots(shape)
        for base, cover in spots:
            if sure:
                if cover & used:
                    continue
                cost = spent + self._cost(base, cover, sure)
                if cost > budget:
                    continue
            else:
                cost = spent + base
                if cost > budget:
                    break
                if cover & used:
                    continue
            if alone:
                found = self.run(i + 1, used | cover, 0, sure | cover, cost)
            elif last:
                found = self.run(i + 1, used | mine | cover, 0, sure, cost)
            else:
                found = self.run(i + 1, used, mine | cover, sure, cost)
            if found:
                return True
        return False


def completable(occupied: Any, shapes: list, w: int, h: int, blocked: Any = None, include: Any = None,
                links: Any = None, paths: bool = True) -> bool:
    """tiling.completable's answer, worked out by the old search."""
    need, big = _plan([_piece(e) for e in shapes])
    early_singles = big[-1][1] if big else 0
    steps = [(shape, budget if paths else 0, len(shapes_) == 1, a == len(shapes_) - 1)
             for shapes_, budget in big for a, shape in enumerate(shapes_)]
    blocked, include = frozenset(_cells(blocked)), list(_cells(include))
    pairs = [(a, b) for a, bs in _link_map(links).items() for b in bs]
    occupied = set(occupied)
    room = w * h - len(occupied)
    if not blocked and room != need:
        return False
    base = list(occupied) + include
    if not base:
        return False
    bx0, bx1 = min(c[0] for c in base), max(c[0] for c in base)
    by0, by1 = min(c[1] for c in base), max(c[1] for c in base)
    if bx1 - bx0 >= w or by1 - by0 >= h:
        return False
    for x0 in range(bx1 - w + 1, bx0 + 1):
        for y0 in range(by1 - h + 1, by0 + 1):
            board = _Board(x0, y0, w, h, pairs)
            occ, stop = board.mask(occupied), board.mask(blocked)
            if room - (stop & ~occ).bit_count() != need:
                continue
            free = board.full & ~occ & ~stop
            search = _Search(board, free, occ, steps, early_singles)
            if search.reaches_every_free_cell() and search.run():
                return True
    return False
