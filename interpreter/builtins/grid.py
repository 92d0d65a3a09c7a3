"""Grid builtins: neighbours with extra links, connected regions, straight-line partitions,
legal placements inside a bounding box, per-square attributes of multi-square pieces.

A grid zone maps cells `(x, y)` to the piece covering them (see `State.grid`). `links` is a list
of cell pairs `[[a, b], …]` that count as adjacent although they are not orthogonal neighbours
(bridges, portals). Cells may be given as tuples or 2-element lists; results are tuples.
"""
from __future__ import annotations

import itertools
import marshal
from operator import itemgetter
from typing import Any, Iterable

from ..errors import RuleRuntimeError
from ..values import ZoneRef
from . import builtin
from .bitgrid import BitWindow
from .grid_board import board_placements

_ORTHO = ((1, 0), (-1, 0), (0, 1), (0, -1))
_ROW_MAJOR = itemgetter(1, 0)  # sort cells by row, then column


def _cell(c: Any) -> tuple:
    try:
        x, y = c
        return (int(x), int(y))
    except (TypeError, ValueError):
        raise RuleRuntimeError(f"expected a cell (x, y), got {c!r}") from None


_MOVED: dict = {}          # cells -> _at_origin(cells): a grid is asked about many times


def _at_origin(cells: frozenset) -> tuple:
    """(the cells moved so that their smallest x and smallest y are 0, the x and y moved by)."""
    out = _MOVED.get(cells)
    if out is None:
        dx, dy = min([c[0] for c in cells]), min([c[1] for c in cells])
        moved = frozenset([(x - dx, y - dy) for x, y in cells]) if dx or dy else cells
        if len(_MOVED) >= 5000:
            _MOVED.clear()
        out = _MOVED[cells] = (moved, dx, dy)
    return out


def _cells(cs: Any) -> list:
    if cs is None:
        return []
    return [_cell(c) for c in cs]


def _grid(S, zone) -> dict:
    if type(zone) is not ZoneRef or S.lay.zones[zone].grid is None:
        raise RuleRuntimeError(f"expected a grid zone, got {zone!r}")
    return S.grid.get(zone, {})


def _link_map(links: Any) -> dict:
    """cell -> list of linked cells (both directions)."""
    out: dict = {}
    if not links:
        return out
    for pair in links:
        try:
            a, b = pair
        except (TypeError, ValueError):
            raise RuleRuntimeError(f"a link is a pair of cells, got {pair!r}") from None
        a, b = _cell(a), _cell(b)
        out.setdefault(a, []).append(b)
        out.setdefault(b, []).append(a)
    return out


def _adjacent(cell: tuple, lmap: dict) -> list:
    x, y = cell
    out = [(x + dx, y + dy) for dx, dy in _ORTHO]
    extra = lmap.get(cell)
    if extra:
        out.extend(c for c in extra if c not in out)
    return out


def _attr(S, piece: int, name: str) -> Any:
    d = S.dyn.get(name)
    if d is not None and piece in d:
        return d[piece]
    return S.lay.static[piece].get(name)


def _bbox_fits(cells: Iterable, w: int | None, h: int | None) -> bool:
    xs, ys = [], []
    for x, y in cells:
        xs.append(x)
        ys.append(y)
    if not xs:
        return True
    if w is not None and max(xs) - min(xs) + 1 > w:
        return False
    if h is not None and max(ys) - min(ys) + 1 > h:
        return False
    return True


# ------------------------------------------------------------------ reading a grid
@builtin(min_args=3)
def grid_cell_value(S, zone, cell, attr):
    """grid_cell_value(zone, (x, y), "attr"): the attribute of the piece covering the cell; a list
    attribute gives its element for that square of the piece's shape; none on an empty cell."""
    hit = _grid(S, zone).get(_cell(cell))
    return None if hit is None else _cell_value(S, hit, str(attr))


def _value_set(values: Any) -> set:
    if isinstance(values, (list, tuple)):
        return set(values)
    return {values}


def _cell_value(S, hit: tuple, attr: str) -> Any:
    piece, part = hit
    d = S.dyn.get(attr)
    value = d[piece] if d is not None and piece in d else S.lay.static[piece].get(attr)
    t = type(value)
    if t is list or t is tuple:
        return value[part] if part < len(value) else None
    return value


@builtin(min_args=3)
def grid_cells_with(S, zone, attr, values):
    """grid_cells_with(zone, "attr", value_or_values): the occupied cells whose per-square value of
    the attribute (as grid_cell_value) is the value or one of the values, sorted."""
    g = _grid(S, zone)
    want = _value_set(values)
    attr = str(attr)
    return sorted(c for c, hit in g.items() if _cell_value(S, hit, attr) in want)


@builtin(min_args=2)
def grid_tally(S, zone, attr):
    """grid_tally(zone, "attr"): a map from each per-square value of the attribute to how many
    occupied cells have it (empty values are not counted)."""
    g = _grid(S, zone)
    attr = str(attr)
    out: dict = {}
    for hit in g.values():
        v = _cell_value(S, hit, attr)
        if v is not None:
            out[v] = out.get(v, 0) + 1
    return out


@builtin(min_args=3, kwargs=("links",))
def grid_neighbor_values(S, zone, cell, attr, links=None):
    """grid_neighbor_values(zone, (x, y), "attr", links=[]): the per-square values of the attribute
    on the occupied cells next to (or linked to) the cell, without repeats."""
    g = _grid(S, zone)
    attr = str(attr)
    out = []
    for n in _adjacent(_cell(cell), _link_map(links)):
        hit = g.get(n)
        if hit is not None:
            v = _cell_value(S, hit, attr)
            if v is not None and v not in out:
                out.append(v)
    return out


def _components(cells: set, lmap: dict) -> list:
    """The connected groups of `cells` (orthogonal or through `lmap`'s links), each sorted, in
    the order of their first cells: a group is gathered from its first cell, its cells taken
    out of the cells still to visit as they are reached."""
    left = set(cells)
    groups = []
    for start in sorted(cells):
        if start not in left:
            continue
        left.discard(start)
        stack, group = [start], [start]
        while stack:
            c = stack.pop()
            x, y = c
            near = ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))
            extra = lmap.get(c) if lmap else None
            for n in (near + tuple(extra) if extra else near):
                if n in left:
                    left.discard(n)
                    stack.append(n)
                    group.append(n)
        group.sort()
        groups.append(group)
    return groups


@builtin(min_args=1, kwargs=("links",))
def grid_components(S, cells, links=None):
    """grid_components(cells, links=[]): the connected groups (orthogonal or linked) of a set of
    cells; a list of sorted cell lists, in order of their first cell."""
    return _components(set(_cells(cells)), _link_map(links))


@builtin(min_args=2, kwargs=("links",))
def grid_neighbors(S, zone, cell, links=None):
    """grid_neighbors(zone, (x, y), links=[]): the 4 orthogonal cells and the cells linked to it,
    occupied or not."""
    _grid(S, zone)
    return _adjacent(_cell(cell), _link_map(links))


@builtin(min_args=1, kwargs=("links",))
def grid_free_adjacent(S, zone, links=None):
    """grid_free_adjacent(zone, links=[]): empty cells next to (or linked to) an occupied cell, sorted."""
    g = _grid(S, zone)
    lmap = _link_map(links)
    out = set()
    for c in g:
        for n in _adjacent(c, lmap):
            if n not in g:
                out.add(n)
    return sorted(out)


@builtin(min_args=2, kwargs=("links",))
def grid_regions(S, zone, pred, links=None):
    """grid_regions(zone, cell => cond, links=[]): connected groups (orthogonal or linked) of the
    occupied cells where cond holds; a list of sorted cell lists, in order of their first cell."""
    g = _grid(S, zone)
    return _components({c for c in sorted(g) if pred(c)}, _link_map(links))


@builtin(min_args=1)
def grid_bbox(S, cells):
    """grid_bbox(cells): [min_x, min_y, max_x, max_y] of the cells, or none for no cells."""
    cs = _cells(cells)
    return list(_box_of(cs)) if cs else None


@builtin(min_args=3)
def grid_fits_box(S, cells, max_width, max_height):
    """grid_fits_box(cells, w, h): the bounding box of the cells is at most w × h (true for none)."""
    return _bbox_fits(_cells(cells), max_width, max_height)


# ------------------------------------------------------------------ placement
class _Window(BitWindow):
    """A w × h window of the grid with its blocked cells and links, for fast floods (made once
    per window: _window)."""

    __slots__ = ("blocked",)

    def __init__(self, x0: int, y0: int, w: int, h: int, blocked: Iterable, links: list):
        super().__init__(x0, y0, w, h)
        self.blocked = self.mask(blocked)
        self.links = [(self.bit(a), self.bit(b)) for a, b in links
                      if self.bit(a) and self.bit(b)] if links else ()

    def flood(self, seed: int, within: int) -> int:
        reached = seed
        while True:
            nxt = self.expand(reached) & (within | seed)
            if nxt == reached:
                return reached
            reached = nxt

    def dead_groups(self, occ: int) -> list:
        """Groups (bit masks) of free cells that no free path joins to an occupied cell (`occ`:
        the occupied cells inside the window, as a mask)."""
        free = self.full & ~occ & ~self.blocked
        dead = free & ~self.flood(occ, free)
        groups = []
        while dead:
            low = dead & -dead
            grp = self.flood(low, dead)
            groups.append(grp)
            dead &= ~grp
        return groups


_EXTENTS: dict = {}       # shape -> (min x, max x, min y, max y) of its cells
_LANDS: dict = {}         # (w, h, blocked cells, link pairs) -> a number naming them in _DEAD
_DEAD: dict = {}          # (land's number, window's corner, occupied cells in it) -> its dead groups grown
_WINDOWS: dict = {}       # (land's number, window's corner) -> its _Window
_DEAD_LIMIT = 50000


def _extents(shape: Any) -> tuple:
    """(min x, max x, min y, max y) of a shape's cells (kept by shape)."""
    try:
        out = _EXTENTS.get(shape)
    except TypeError:  # a shape given as lists
        shape = tuple([tuple(d) for d in shape])
        out = _EXTENTS.get(shape)
    if out is None:
        xs, ys = [d[0] for d in shape], [d[1] for d in shape]
        out = (min(xs), max(xs), min(ys), max(ys))
        if len(_EXTENTS) < 1000:
            _EXTENTS[shape] = out
    return out


def _land_number(w: int, h: int, blocked: frozenset, pairs: list) -> int:
    """A number naming the window size, blocked cells and links (a key of _DEAD)."""
    key = (w, h, blocked, tuple(pairs))
    number = _LANDS.get(key)
    if number is None:
        if len(_LANDS) >= 1000:
            _LANDS.clear()
            _DEAD.clear()
            _WINDOWS.clear()
        number = _LANDS[key] = len(_LANDS)
    return number


def _grown_dead_groups(land: int, x0: int, y0: int, w: int, h: int, occ: int, blocked: frozenset,
                       pairs: list) -> list:
    """The dead groups of the w × h window at (x0, y0) holding the occupied cells `occ` (a mask
    of the window), each grown by one step: kept by window and cells (a grid's windows are asked
    about for every tile and shape)."""
    key = (land, x0, y0, occ)
    out = _DEAD.get(key)
    if out is None:
        if len(_DEAD) >= _DEAD_LIMIT:
            _DEAD.clear()
        win = _WINDOWS.get((land, x0, y0))
        if win is None:
            win = _WINDOWS[(land, x0, y0)] = _Window(x0, y0, w, h, blocked, pairs)
        # the cover touches a dead group iff it meets the group grown by one step
        out = _DEAD[key] = [win.expand(grp) for grp in win.dead_groups(occ)]
    return out


def _fillable_filter(out: list, shape: Any, g: frozenset, blocked: frozenset, pairs: list, box: tuple,
                     w: int, h: int) -> list:
    """Keep the anchors after which some w × h window holding everything (`box`: the bounding
    box so far) can still be filled: every empty unblocked cell in it joined, through empty
    unblocked cells, to a piece."""
    if not g:
        return out
    bx0, by0, bx1, by1 = box
    windows = {}        # shift -> the window's dead groups, each grown by one step
    sx0, sx1, sy0, sy1 = _extents(shape)
    land = _land_number(w, h, blocked, pairs)
    # Every window below holds the box, hence every occupied cell and the covered ones: a cell's
    # bit in the window at (x0, y0) is its bit on a board of row length w from (ox, oy), shifted
    # right by (y0 - oy) * w + x0 - ox.
    ox = min(bx0, min([a[0] for a in out]) + sx0) - w     # left of (above) every window
    oy = min(by0, min([a[1] for a in out]) + sy0) - h
    occ_all = 0
    for x, y in g:
        occ_all |= 1 << ((y - oy) * w + x - ox)
    kept = []
    for ax, ay in out:
        cover_all = 0
        for dx, dy in shape:
            cover_all |= 1 << ((ay + dy - oy) * w + ax + dx - ox)
        cx0 = ax + sx0 if ax + sx0 < bx0 else bx0
        cx1 = ax + sx1 if ax + sx1 > bx1 else bx1
        cy0 = ay + sy0 if ay + sy0 < by0 else by0
        cy1 = ay + sy1 if ay + sy1 > by1 else by1
        ok = False
        for x0 in range(cx1 - w + 1, cx0 + 1):
            for y0 in range(cy1 - h + 1, cy0 + 1):
                shift = (y0 - oy) * w + x0 - ox
                reach = windows.get(shift)
                if reach is None:
                    reach = windows[shift] = _grown_dead_groups(land, x0, y0, w, h, occ_all >> shift, blocked,
                                                                pairs)
                cover = cover_all >> shift
                for grown in reach:
                    if not cover & grown:
                        break
                else:
                    ok = True
                    break
            if ok:
                break
        if ok:
            kept.append((ax, ay))
    return kept


class Recent:
    """What was worked out for the last `size` arguments, found again by their content. The
    arguments are kept as copies (a list handed in may change later); arguments marshal cannot
    copy are not kept."""

    def __init__(self, size: int):
        self.size = size
        self.entries: list = []  # (arguments, what was worked out), the newest first

    def get(self, args: Any) -> Any:
        """What was kept for arguments equal to `args`, or None."""
        for kept, value in self.entries:
            if kept == args:
                return value
        return None

    def keep(self, args: Any, value: Any) -> None:
        try:
            self.entries.insert(0, (marshal.loads(marshal.dumps(args)), value))
        except ValueError:  # a value marshal cannot copy
            return
        del self.entries[self.size:]


_RECENT = Recent(8)       # _placement_args of the last arguments: a rule asks about one grid
# with the same blocked cells and links for every tile (a game has a few such grids)
_PARSED: dict = {}        # the same, by content: one number for the same arguments
_SERIAL = itertools.count()
_ANSWERS: dict = {}       # grid_placements by (its arguments' number, cells, shape, bounds, fillable)
_ANSWERS_LIMIT = 20000


def _placement_args(blocked: Any, links: Any, include: Any, start: Any) -> tuple:
    """(blocked cells, link map, link pairs, include cells, start cells, a number naming them,
    whether none of them fixes where pieces are) of grid_placements."""
    args = (blocked, links, include, start)
    parsed = _RECENT.get(args)
    if parsed is not None:
        return parsed
    blocked_set = frozenset(_cells(blocked))
    lmap = _link_map(links)
    pairs = [(_cell(a), _cell(b)) for a, b in links] if links else []
    include_cells = _cells(include)
    start_cells = _cells(start if start is not None else [(0, 0)])
    content = (blocked_set, tuple(pairs), tuple(include_cells), tuple(start_cells))
    parsed = _PARSED.get(content)
    if parsed is None:
        if len(_PARSED) >= 1000:
            _PARSED.clear()
        anywhere = not blocked_set and not lmap and not include_cells  # see grid_placements
        parsed = _PARSED[content] = (blocked_set, lmap, pairs, include_cells, start_cells, next(_SERIAL),
                                     anywhere)
    _RECENT.keep(args, parsed)
    return parsed


@builtin(min_args=2, kwargs=("max_width", "max_height", "blocked", "links", "include", "start",
                             "fillable"))
def grid_placements(S, zone, piece, max_width=None, max_height=None, blocked=None, links=None,
                    include=None, start=None, fillable=False):
    """grid_placements(zone, piece, max_width=, max_height=, blocked=[], links=[], include=[],
    start=[(0, 0)], fillable=false): anchor cells where the piece may be put: its covered cells are
    empty and not blocked; one of them is next to (or linked to) an occupied cell — or, in an empty
    zone, is in `start`; the bounding box of occupied, `include` and covered cells fits
    max_width × max_height. With `fillable`, some max_width × max_height window holding all that
    must keep every empty unblocked cell reachable (through empty unblocked cells) from a piece,
    so that the window can still be filled completely (always true without blocked cells)."""
    return placements(_grid(S, zone), S.shape_of(piece), max_width, max_height, blocked, links, include, start,
                      fillable)


def placements(g: Any, shape: tuple, max_width: Any = None, max_height: Any = None, blocked: Any = None,
               links: Any = None, include: Any = None, start: Any = None, fillable: Any = False) -> list:
    """Plain-Python core of grid_placements (see there): `g` the occupied cells (a dict or set
    of cells), `shape` the piece's cells as a tuple of tuples."""
    parsed = _placement_args(blocked, links, include, start)
    # a rule asks again for the same tile before the grid changes (the answer reads only which
    # cells are covered); when nothing fixes where pieces are (no blocked, included or linked
    # cells, a bounded box), the answer is that of the cells moved to the origin, moved back:
    # a grid built elsewhere asks the same question
    dx = dy = 0
    cells = frozenset(g)  # from the dict: its hashes are reused
    if cells and parsed[6] and max_width is not None and max_height is not None:
        cells, dx, dy = _at_origin(cells)
    key = (parsed[5], cells, shape, max_width, max_height, bool(fillable))
    out = _ANSWERS.get(key)
    if out is None:
        if len(_ANSWERS) >= _ANSWERS_LIMIT:
            _ANSWERS.clear()
        out = _ANSWERS[key] = _placements(cells, shape, max_width, max_height, parsed, fillable)
    if dx or dy:
        return [(x + dx, y + dy) for x, y in out]
    return list(out)


def _box_of(cells: list) -> tuple:
    """(min x, min y, max x, max y) of cells (not none)."""
    xs, ys = [c[0] for c in cells], [c[1] for c in cells]
    return (min(xs), min(ys), max(xs), max(ys))


def _placements(g: frozenset, shape: tuple, max_width: Any, max_height: Any, parsed: tuple,
                fillable: Any) -> list:
    """grid_placements' answer for the occupied cells g: on one bit board (grid_board) where it
    applies, else cell by cell."""
    if g and max_width is not None and max_height is not None:
        base = list(g) + parsed[3]
        out = board_placements(g, shape, max_width, max_height, parsed[0], parsed[2], _box_of(base), fillable,
                               parsed[5])
        if out is not None:
            return out
    return _cell_placements(g, shape, max_width, max_height, parsed, fillable)


def _cell_placements(g: frozenset, shape: tuple, max_width: Any, max_height: Any, parsed: tuple,
                     fillable: Any) -> list:
    """grid_placements' answer for the occupied cells g, worked out cell by cell."""
    blocked_set, lmap, pairs, include_cells, start_cells = parsed[:5]
    base = list(g)
    if include_cells:
        base += include_cells
    if g:
        targets = set()
        grow = targets.update
        for x, y in g:
            grow(((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)))
        if lmap:
            for c in g:
                extra = lmap.get(c)
                if extra:
                    grow(extra)
        targets.difference_update(g)
        if blocked_set:
            targets -= blocked_set
    else:
        targets = {c for c in start_cells if c not in blocked_set}
    # The anchor's x (y) range that keeps the bounding box within max_width (max_height).
    sx = [d[0] for d in shape]
    sy = [d[1] for d in shape]
    lo_x = lo_y = -10 ** 9
    hi_x = hi_y = 10 ** 9
    box = None
    if base:
        bx0, by0 = bx1, by1 = base[0]
        for x, y in base:
            if x < bx0:
                bx0 = x
            elif x > bx1:
                bx1 = x
            if y < by0:
                by0 = y
            elif y > by1:
                by1 = y
        box = (bx0, by0, bx1, by1)
        if max_width is not None:
            lo_x, hi_x = bx1 - max_width + 1 - min(sx), bx0 + max_width - 1 - max(sx)
        if max_height is not None:
            lo_y, hi_y = by1 - max_height + 1 - min(sy), by0 + max_height - 1 - max(sy)
    if max_width is not None and max(sx) - min(sx) + 1 > max_width:
        return []
    if max_height is not None and max(sy) - min(sy) + 1 > max_height:
        return []
    single = len(shape) == 1 and shape[0] == (0, 0)
    out = []
    if single:
        for c in targets:
            if lo_x <= c[0] <= hi_x and lo_y <= c[1] <= hi_y:
                out.append(c)
    else:
        anchors = set()
        for tx, ty in targets:
            for dx, dy in shape:
                ax, ay = tx - dx, ty - dy
                if lo_x <= ax <= hi_x and lo_y <= ay <= hi_y:
                    anchors.add((ax, ay))
        for ax, ay in anchors:
            ok = True
            for dx, dy in shape:
                c = (ax + dx, ay + dy)
                if c in g or c in blocked_set:
                    ok = False
                    break
            if ok:
                out.append((ax, ay))
    if fillable and blocked_set and max_width is not None and max_height is not None and out:
        out = _fillable_filter(out, shape, g, blocked_set, pairs, box, max_width, max_height)
    out.sort(key=_ROW_MAJOR)
    return out


# ------------------------------------------------------------------ straight lines
def _line_steps(cells: set, links: Any) -> tuple:
    """Successor maps: right (same row, next x) and down (same column, next y), orthogonal or
    through a link joining two cells of one row / column."""
    right, down = {}, {}
    for (x, y) in cells:
        if (x + 1, y) in cells:
            right[(x, y)] = (x + 1, y)
        if (x, y + 1) in cells:
            down[(x, y)] = (x, y + 1)
    for pair in links or ():
        a, b = (_cell(c) for c in pair)
        if a not in cells or b not in cells:
            continue
        if a[1] == b[1] and a[0] != b[0]:
            lo, hi = sorted((a, b))
            right.setdefault(lo, hi)
        elif a[0] == b[0] and a[1] != b[1]:
            lo, hi = sorted((a, b), key=lambda c: c[1])
            down.setdefault(lo, hi)
    return right, down


_SPLITS: dict = {}        # (n, scores, their types) -> _split_values


def _split_values(n: int, scores: list) -> list:
    """best[k] = the best total for a straight run of k cells split into lines of scored lengths
    (kept by n and scores when they are numbers)."""
    try:
        key = (n, tuple(scores), tuple(map(type, scores)))  # 2 and 2.0 give totals of their types
        out = _SPLITS.get(key)
    except TypeError:  # a score that is no key
        return _split_values_of(n, scores)
    if out is None:
        out = _split_values_of(n, scores)
        if len(_SPLITS) < 1000:
            _SPLITS[key] = out
    return out


def _split_values_of(n: int, scores: list) -> list:
    m = len(scores) - 1
    best = [0] * (n + 1)
    for i in range(1, n + 1):
        best[i] = max(best[i - k] + scores[k] for k in range(1, min(m, i) + 1))
    return best


_LINES: dict = {}         # line_partition's answers by cells (moved to the origin without links), scores, links
_LINES_LIMIT = 20000


def line_partition(cells: Iterable, scores: list, links: Any = None) -> int:
    """Plain-Python core of grid_line_partition (see there): kept by its arguments (scoring asks
    about the same groups of cells game after game)."""
    cset = {_cell(c) for c in cells}
    if not cset:
        return 0
    if len(scores) < 2:
        raise RuleRuntimeError("line scores need an entry for a line of 1 (index 1)")
    cells_key = frozenset(cset)
    if not links:  # nothing fixes where the cells are: the same answer anywhere
        cells_key = _at_origin(cells_key)[0]
    try:
        key = (cells_key, tuple(scores), tuple(map(type, scores)), repr(links) if links else None)
        out = _LINES.get(key)
    except TypeError:  # a score that is no key
        return _line_partition(cset, scores, links)
    if out is None:
        if len(_LINES) >= _LINES_LIMIT:
            _LINES.clear()
        out = _LINES[key] = _line_partition(cset, scores, links)
    return out


def _line_partition(cset: set, scores: list, links: Any) -> int:
    right, down = _line_steps(cset, links)
    f = _split_values(len(cset), list(scores))
    # Row-major dynamic programme: every cell joins a horizontal or a vertical line; runs still
    # open are keyed by the cell that could extend them. The open horizontal run can only be
    # extended by the very next cell of the scan, vertical runs by a later row.
    states = {(None, ()): 0}
    for c in sorted(cset, key=lambda c: (c[1], c[0])):
        r, d = right.get(c), down.get(c)
        nxt: dict = {}
        for (hp, vp), val in states.items():
            hlen = 0
            if hp is not None:
                if hp[0] == c:
                    hlen = hp[1]
                else:
                    val += f[hp[1]]
            vlen, vrest = 0, vp
            for i, (cell, n) in enumerate(vp):
                if cell == c:
                    vlen, vrest = n, vp[:i] + vp[i + 1:]
                    break
            # c in a horizontal line
            v = val + f[vlen]
            if r is not None:
                key, v = ((r, hlen + 1), vrest), v
            else:
                key, v = (None, vrest), v + f[hlen + 1]
            if nxt.get(key, -1) < v:
                nxt[key] = v
            # c in a vertical line
            v = val + f[hlen]
            if d is not None:
                key = (None, tuple(sorted(vrest + ((d, vlen + 1),))))
            else:
                key, v = (None, vrest), v + f[vlen + 1]
            if nxt.get(key, -1) < v:
                nxt[key] = v
        states = nxt
    best = None
    for (hp, vp), val in states.items():
        total = val + (f[hp[1]] if hp else 0) + sum(f[n] for _, n in vp)
        if best is None or total > best:
            best = total
    return best


@builtin(min_args=2, kwargs=("links",))
def grid_line_partition(S, cells, scores, links=None):
    """grid_line_partition(cells, scores, links=[]): the best total of scores[len] over the ways of
    cutting the cells into straight horizontal or vertical lines of consecutive cells (a link
    joining two cells of one row or column joins them); lines longer than the table are split."""
    return line_partition(cells, scores, links)
