"""A w × h window of a square grid as bit masks: bit (y - y0) * w + (x - x0) stands for cell
(x, y). Neighbours are shifts of a whole mask, so a flood or a ring of distances costs a few
integer operations. Used by the placement (grid.py) and look-ahead (tiling.py) builtins."""
from __future__ import annotations

from typing import Iterable

_GEOMETRY: dict = {}  # (w, h) -> (all cells, all but column 0, all but the last column)
_SHAPES: dict = {}    # (w, h, shape) -> ShapeBits


class BitWindow:
    __slots__ = ("x0", "y0", "w", "h", "full", "not_col0", "not_last", "links")

    def __init__(self, x0: int, y0: int, w: int, h: int):
        self.x0, self.y0, self.w, self.h = x0, y0, w, h
        geometry = _GEOMETRY.get((w, h))
        if geometry is None:
            full = (1 << (w * h)) - 1
            col0 = 0
            for y in range(h):
                col0 |= 1 << (y * w)
            geometry = _GEOMETRY[(w, h)] = (full, full & ~col0, full & ~(col0 << (w - 1)))
        self.full, self.not_col0, self.not_last = geometry
        self.links: list | tuple = ()  # (bit, bit) pairs of linked cells inside the window

    def bit(self, c: tuple) -> int:
        """The bit of cell c, or 0 outside the window."""
        x, y = c[0] - self.x0, c[1] - self.y0
        if 0 <= x < self.w and 0 <= y < self.h:
            return 1 << (y * self.w + x)
        return 0

    def mask(self, cells: Iterable) -> int:
        """The cells inside the window, as one mask."""
        x0, y0, w, h = self.x0, self.y0, self.w, self.h
        m = 0
        for x, y in cells:
            x -= x0
            y -= y0
            if 0 <= x < w and 0 <= y < h:
                m |= 1 << (y * w + x)
        return m

    def expand(self, r: int) -> int:
        """r and every cell next to (or linked to) a cell of r."""
        w = self.w
        out = r | ((r << 1) & self.not_col0) | ((r >> 1) & self.not_last) | ((r << w) & self.full) | (r >> w)
        for a, b in self.links:
            if r & a:
                out |= b
            if r & b:
                out |= a
        return out


class ShapeBits:
    """A shape (cells relative to its anchor, the anchor its first cell in row-major order) in a
    w × h window, as masks: `valid`, the anchors at which it lies inside the window; `offsets`,
    its cells' bit offsets from the anchor's bit (never negative: the anchor comes first);
    `base`, its cells at anchor bit 0, so that its cells at anchor bit b are `base * (1 << b)`.
    Sets of placements are then masks of anchors, made by a few shifts (no loop over cells)."""

    __slots__ = ("valid", "offsets", "base")

    def __init__(self, w: int, h: int, shape: tuple):
        valid = 0
        for ay in range(h):
            for ax in range(w):
                if all(0 <= ax + dx < w and 0 <= ay + dy < h for dx, dy in shape):
                    valid |= 1 << (ay * w + ax)
        self.valid = valid
        self.offsets = tuple(dy * w + dx for dx, dy in shape) if valid else ()
        self.base = sum(1 << o for o in self.offsets)

    def within(self, cells: int) -> int:
        """The anchors at which the shape covers only `cells`."""
        out = self.valid
        for o in self.offsets:
            out &= cells >> o
        return out

    def touching(self, cells: int) -> int:
        """The anchors (of valid ones) at which the shape covers a cell of `cells`."""
        out = 0
        for o in self.offsets:
            out |= cells >> o
        return out & self.valid


def shape_bits(w: int, h: int, shape: tuple) -> ShapeBits:
    """The ShapeBits of a shape in a w × h window, made once."""
    key = (w, h, shape)
    out = _SHAPES.get(key)
    if out is None:
        out = _SHAPES[key] = ShapeBits(w, h, shape)
    return out
