"""grid_placements worked out on one bit board (the placement builtin's core, builtins/grid.py,
and the generated programs' grid_runtime call it): every anchor a piece may take and every
w × h window that can still hold the grid lie in one rectangle of at most (2w - 1) × (2h - 1)
cells, so the cells next to the pieces, the anchors whose cover is free and, with `fillable`,
the windows' unreachable groups of free cells are a few integer operations on masks of that
rectangle, instead of a loop over anchors and windows. The answers are grid._placements'.

A board's bit for cell (x, y) is (y - oy) * stride + (x - ox); the columns from the board's
width up to the stride stay empty, so a shift by a shape's offset never carries a cell from one
row into the next."""
from __future__ import annotations


_SHAPES: dict = {}   # shape -> (its largest x offset, largest y offset), or None: not from (0, 0)
_BOARDS: dict = {}   # (w, h, box size, largest x offset, largest y offset) -> a board's fixed masks
_LANDS: dict = {}    # (land, the board's corner and fixed masks) -> (blocked cells, links) on it
_LIMIT = 20000


def board_placements(cells, shape: tuple, w: int, h: int, blocked: frozenset, pairs: list, box: tuple,
                     fillable: bool, land=None) -> list | None:
    """The anchors (sorted by row, then column) where `shape` may go on a grid holding `cells`
    (not none), as grid._placements finds them with these blocked cells, link pairs and
    bounding box (`box`: of the cells and the included ones), or None where the board does not
    apply: bounds that are not integers, a shape whose smallest x or y offset is not 0, or a box
    already wider than w or taller than h (the caller then works it out cell by cell). `land`:
    a key naming the blocked cells and link pairs (their masks are then kept), or None."""
    if type(w) is not int or type(h) is not int:
        return None
    extent = _SHAPES.get(shape, False)
    if extent is False:
        extent = _extent(shape)
    if extent is None:
        return None
    sx1, sy1 = extent
    bx0, by0, bx1, by1 = box
    if bx1 - bx0 + 1 > w or by1 - by0 + 1 > h or sx1 + 1 > w or sy1 + 1 > h:
        return None
    ox, oy = bx1 - w + 1, by1 - h + 1
    size = (w, h, bx1 - bx0, by1 - by0, sx1, sy1)
    fixed = _BOARDS.get(size)
    if fixed is None:
        fixed = _board(*size)
    stride, bw, bh, full, span = fixed
    occ = 0
    for x, y in cells:
        occ |= 1 << ((y - oy) * stride + x - ox)
    if land is None:
        wall, links = _land(blocked, pairs, ox, oy, stride, bw, bh)
    else:
        key = (land, ox, oy, size)
        kept = _LANDS.get(key)
        if kept is None:
            if len(_LANDS) >= _LIMIT:
                _LANDS.clear()
            kept = _LANDS[key] = _land(blocked, pairs, ox, oy, stride, bw, bh)
        wall, links = kept
    free = full & ~occ & ~wall
    front = _expand(occ, stride, full, links) & free
    if span is None:
        anchors = front
        shifts = (0,)
    else:
        shifts = [dy * stride + dx for dx, dy in shape]
        reach = 0
        fits = span
        for s in shifts:
            reach |= front >> s
            fits &= free >> s
        anchors = reach & fits
    if fillable and blocked and anchors:
        anchors = _fillable(anchors, occ, free, shifts, stride, full, links, bw - w, bh - h, w, h)
    out = []
    while anchors:
        low = anchors & -anchors
        k = low.bit_length() - 1
        out.append((k % stride + ox, k // stride + oy))
        anchors ^= low
    return out


def _extent(shape: tuple):
    """(largest x offset, largest y offset) of a shape whose smallest are 0, else None (kept)."""
    xs, ys = [d[0] for d in shape], [d[1] for d in shape]
    out = (max(xs), max(ys)) if min(xs) == 0 and min(ys) == 0 else None
    try:
        if len(_SHAPES) < 1000:
            _SHAPES[shape] = out
    except TypeError:  # a shape given as lists
        pass
    return out


def _board(w: int, h: int, dx: int, dy: int, sx1: int, sy1: int) -> tuple:
    """(stride, width, height, every cell, the anchors' cells: None for the single square) of
    the board of a w × h bound around a box dx + 1 wide and dy + 1 tall, for a shape reaching
    sx1 and sy1 from its anchor (kept)."""
    bw, bh = 2 * w - 1 - dx, 2 * h - 1 - dy
    stride = bw + (sx1 if sx1 > 1 else 1)
    full = _rows((1 << bw) - 1, bh, stride)
    span = None if sx1 == 0 and sy1 == 0 else _rows((1 << (bw - sx1)) - 1, bh - sy1, stride)
    out = _BOARDS[(w, h, dx, dy, sx1, sy1)] = (stride, bw, bh, full, span)
    return out


def _rows(row: int, n: int, stride: int) -> int:
    out = 0
    for y in range(n):
        out |= row << (y * stride)
    return out


def _land(blocked: frozenset, pairs: list, ox: int, oy: int, stride: int, bw: int, bh: int) -> tuple:
    """(the blocked cells on the board, its link pairs as (bit, bit): both cells on it)."""
    wall = 0
    for x, y in blocked:
        x -= ox
        y -= oy
        if 0 <= x < bw and 0 <= y < bh:
            wall |= 1 << (y * stride + x)
    links = []
    for a, b in pairs:
        ax, ay, cx, cy = a[0] - ox, a[1] - oy, b[0] - ox, b[1] - oy
        if 0 <= ax < bw and 0 <= ay < bh and 0 <= cx < bw and 0 <= cy < bh:
            links.append((1 << (ay * stride + ax), 1 << (cy * stride + cx)))
    return wall, links


def _expand(r: int, stride: int, full: int, links: list) -> int:
    """r and every cell next to (or linked to) one of its cells."""
    out = r | (((r << 1) | (r >> 1) | (r << stride) | (r >> stride)) & full)
    for a, b in links:
        if r & a:
            out |= b
        if r & b:
            out |= a
    return out


def _flood(seed: int, within: int, stride: int, full: int, links: list) -> int:
    """The cells of `within` joined to `seed` through cells of `within` (seed included)."""
    allowed = within | seed
    reached = seed
    while True:
        nxt = _expand(reached, stride, full, links) & allowed
        if nxt == reached:
            return reached
        reached = nxt


def _fillable(anchors: int, occ: int, free: int, shifts: list, stride: int, full: int, links: list,
              xs: int, ys: int, w: int, h: int) -> int:
    """The anchors after which some w × h window (at board columns 0..xs, rows 0..ys: every one
    holding the box) can still be filled: each group of its free cells that no free path joins
    to a piece (a dead group) touches the piece's cover (grid._fillable_filter)."""
    row = (1 << w) - 1
    block = 0
    for y in range(h):
        block |= row << (y * stride)
    kept = 0
    for wy in range(ys + 1):
        for wx in range(xs + 1):
            win = block << (wy * stride + wx)
            inside = anchors & ~kept
            for s in shifts:
                inside &= win >> s
            if not inside:
                continue
            room = free & win
            dead = room & ~_flood(occ, room, stride, full, links)
            while dead and inside:
                low = dead & -dead
                group = _flood(low, dead, stride, full, links)
                dead &= ~group
                grown = _expand(group, stride, full, links) & win
                touch = 0
                for s in shifts:
                    touch |= grown >> s
                inside &= touch
            kept |= inside
            if kept == anchors:
                return kept
    return kept
