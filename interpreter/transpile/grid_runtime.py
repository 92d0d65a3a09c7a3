"""What generated programs call for grid zones (transpile/grids.py): a grid zone is a dict
cell -> (piece, part) beside its list of pieces, as State.grid keeps it (a _Cells, which also
keeps its box, the empty cells next to it and its cells as a bit mask, brought up to date by
each placement); `gpos[piece]` is the dict a piece lies on (None off every grid). The placement
and look-ahead builtins are the engine's own cores (builtins.grid.placements,
builtins.tiling.completable_anchors), their answers kept here by the grid's mask (a program
asks the same questions about the same grid shapes over and over); placements without blocked,
linked or included cells are worked out here. The reads below are builtins.grid's over plain
lists of attributes."""
from __future__ import annotations

import marshal as _marshal
from marshal import dumps as _value_text  # noqa: F401 - grid_memo.py's keys

from ..builtins.grid import (_components as _grid_components_of, _link_map as _grid_link_map, _cell as _grid_cell,
                             _adjacent as _grid_adjacent, grid_bbox as _grid_bbox_of, line_partition as _line_partition,
                             placements as _engine_placements, _bbox_fits as _grid_bbox_fits,
                             _fillable_filter, _placement_args, _extents as _shape_extents, _ROW_MAJOR,
                             Recent as _Recent, _box_of)
from ..builtins.grid_board import board_placements as _board_placements
from ..builtins.majority import awards_by_place as _awards_of, ranking as _ranking_of
from ..builtins.tiling import completable_anchors as _engine_completable_anchors
from ..state import check_grid_bounds as _check_grid_bounds

__all__ = ["_line_partition", "_grid_bbox_fits"]


class _Cells(dict):
    """A grid zone's cells -> (piece, part); `box`: the bounding box of its
    cells [x0, y0, x1, y1]; `reads`: tallies and cells of a value, until it changes; `front`:
    the empty cells next to a covered one; `mask`: the cells
    as bits from the box's corner (bit (y - y0) * _STRIDE + x - x0), at `corner` (None: not known)."""

    __slots__ = ("box", "front", "mask", "corner", "reads")

    def __init__(self):
        super().__init__()
        self.reads = {}  # grid_tally / grid_cells_with answers until it changes
        self.box = self.front = self.mask = self.corner = None


def _copy_cells(g):
    """An independent copy of a grid's cells and what it keeps of them (a search's copy of the
    game: stepper.py's clone). The kept answers in `reads` are shared, as within one game."""
    new = _Cells()
    new.update(g)
    new.reads = dict(g.reads)
    new.box = None if g.box is None else g.box[:]
    new.front = None if g.front is None else set(g.front)
    new.mask, new.corner = g.mask, g.corner
    return new


_STRIDE = 64  # bits per row of a grid's mask
_NONE = frozenset()
_SHAPES_AT: dict = {}  # (mask, shape, w, h) -> the placements of the cells at the origin
_SHAPES_AT_LIMIT = 50000
_OPEN_AT: dict = {}  # the same moved back, by (mask, corner, shape, w, h): no moving when asked again
_FIXED_AT: dict = {}  # placements by (mask, corner, shape, w, h, fillable, the other arguments' text)
_ANCHORS_AT: dict = {}  # the same for grid_completable_anchors: the anchors kept, by index


def _place(pc, at, shape, g, z, spec, loc, gpos):
    """`move pc to <grid zone> at (x, y)` (State._move_onto_grid): off where it was, onto g."""
    at = tuple(at)
    if gpos[pc] is not None:
        _off_grid(pc, gpos)
    loc[pc].remove(pc)
    ax, ay = at
    covered = [(ax + dx, ay + dy) for dx, dy in shape]
    for cell in covered:
        if cell in g:
            raise RuntimeError(f"cell {cell} is already occupied")
    _check_bounds(spec, g, covered)
    for part, cell in enumerate(covered):
        g[cell] = (pc, part)
    if g.reads:
        g.reads = {}
    mask = g.mask
    if mask is not None:
        x0, y0 = g.corner
        if g.box[0] == x0 and g.box[1] == y0 and g.box[2] - x0 < _STRIDE:
            for x, y in covered:
                mask |= 1 << ((y - y0) * _STRIDE + x - x0)
            g.mask = mask
        else:
            g.mask = None
    front = g.front
    if front is not None:
        for cell in covered:
            front.discard(cell)
            x, y = cell
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if n not in g:
                    front.add(n)
    z.append(pc)
    loc[pc] = z
    gpos[pc] = g


def _check_bounds(spec, g, covered):
    """check_grid_bounds with the grid's bounding box kept (g.box), which it brings up to date."""
    if "width" in spec or "height" in spec or g.box is None:
        _check_grid_bounds(spec, "grid", g, covered)
        g.box = list(_box_of(list(g) + covered))
        return
    x0, y0, x1, y1 = g.box
    for x, y in covered:
        if x < x0:
            x0 = x
        if x > x1:
            x1 = x
        if y < y0:
            y0 = y
        if y > y1:
            y1 = y
    mw, mh = spec.get("max_width"), spec.get("max_height")
    if (mw is not None and x1 - x0 + 1 > mw) or (mh is not None and y1 - y0 + 1 > mh):
        raise RuntimeError(f"placing at {covered[-1]} would make the grid wider than its bounds")
    g.box = [x0, y0, x1, y1]


def _off_grid(pc, gpos):
    """Free the cells a piece covers on its grid, if it lies on one (State._off_grid)."""
    g = gpos[pc]
    if g is not None:
        for cell in [c for c, (p, _) in g.items() if p == pc]:
            del g[cell]
            g.box = g.front = g.mask = None
        g.reads = {}
        gpos[pc] = None


def _placements(g, shape, w, h, blocked, links, include, start, fillable):
    """grid_placements (builtins.grid.placements) on a grid with pieces and a bounded box: kept
    by the grid's mask, its corner and the number naming the other arguments
    (grid._placement_args, which finds the same lists again at once); without
    blocked, linked or included cells the answer depends only on the cells moved to the origin
    (as builtins.grid.placements finds too) and is worked out here from the cells next to the
    pieces (g.front) and the box (g.box), as builtins.grid._placements does."""
    if not blocked and not links and not include and g and w is not None and h is not None:
        mask = g.mask  # _open_placements' answer kept, found without its calls
        if mask is not None:
            out = _OPEN_AT.get((mask, *g.corner, shape, w, h))
            if out is not None:
                return list(out)
        return _open_placements(g, shape, w, h)
    if not g or w is None or h is None:
        return _engine_placements(g, shape, w, h, blocked, links, include, start, fillable)
    parsed = _placement_args(blocked, links, include, start)
    mask, x0, y0 = _mask_of(g)
    key = (mask, x0, y0, shape, w, h, bool(fillable), parsed[5])
    out = _FIXED_AT.get(key)
    if out is None:
        if len(_FIXED_AT) >= _SHAPES_AT_LIMIT:
            _FIXED_AT.clear()
        out = _FIXED_AT[key] = _open_placements_of(g, shape, w, h, parsed, fillable)
    return list(out)


def _open_placements(g, shape, w, h):
    """builtins.grid._placements without blocked, linked or included cells, g not empty: the
    answer depends only on the cells moved to the origin (as builtins.grid.placements finds
    too), so it is kept by their mask; and by the mask and the corner as it is handed out."""
    mask, x0, y0 = _mask_of(g)
    key = (mask, x0, y0, shape, w, h)
    out = _OPEN_AT.get(key)
    if out is None:
        at = _SHAPES_AT.get(key[:1] + key[3:])
        if at is None:
            if len(_SHAPES_AT) >= _SHAPES_AT_LIMIT:
                _SHAPES_AT.clear()
            at = _SHAPES_AT[key[:1] + key[3:]] = [(x - x0, y - y0) for x, y in _open_placements_of(g, shape, w, h)]
        if len(_OPEN_AT) >= _SHAPES_AT_LIMIT:
            _OPEN_AT.clear()
        out = _OPEN_AT[key] = [(x + x0, y + y0) for x, y in at]
    return list(out)


def _mask_of(g):
    """(g.mask, the corner of g's box): made now if not known. A grid wider than a mask's row
    gives its cells moved to the corner instead (a frozenset: as exact a key, slower)."""
    box = g.box
    if box is None:
        box = g.box = list(_box_of(list(g)))
    x0, y0 = box[0], box[1]
    if box[2] - x0 >= _STRIDE:
        return frozenset([(x - x0, y - y0) for x, y in g]), x0, y0
    mask = g.mask
    if mask is None:
        mask = 0
        for x, y in g:
            mask |= 1 << ((y - y0) * _STRIDE + x - x0)
        g.mask, g.corner = mask, (x0, y0)
    return mask, x0, y0


def _open_placements_of(g, shape, w, h, parsed=None, fillable=False):
    """builtins.grid._placements worked out for a grid with pieces and a bounded box (g.box) on
    one bit board (builtins.grid_board), else from the empty cells next to its pieces (g.front);
    `parsed`: the blocked cells, link map, link pairs, included cells and the number naming
    them (grid._placement_args), None for none."""
    box = g.box
    if box is None:
        box = g.box = list(_box_of(list(g)))
    if parsed is None:
        out = _board_placements(g, shape, w, h, _NONE, (), box, False)
    else:
        include = parsed[3]
        if include:
            box = _box_of([(box[0], box[1]), (box[2], box[3])] + include)
        out = _board_placements(g, shape, w, h, parsed[0], parsed[2], box, fillable, parsed[5])
    if out is not None:
        return out
    return _front_placements_of(g, shape, w, h, parsed, fillable)


def _front_placements_of(g, shape, w, h, parsed, fillable):
    """_open_placements_of cell by cell, from the empty cells next to the pieces (g.front)."""
    front = g.front
    if front is None:
        front = set()
        for x, y in g:
            front.update(((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)))
        front.difference_update(g)
        g.front = front
    bx0, by0, bx1, by1 = g.box
    blocked = ()
    if parsed is not None:
        blocked, lmap, pairs, include = parsed[:4]
        targets = set(front)
        if lmap:
            for c, extra in lmap.items():  # the linked cells of the covered ones
                if c in g:
                    targets.update(extra)
            targets.difference_update(g)
        if blocked:
            targets -= blocked
        front = targets
        for x, y in include:  # the box holds the included cells too
            bx0, by0, bx1, by1 = min(bx0, x), min(by0, y), max(bx1, x), max(by1, y)
    if len(shape) == 1 and shape[0] == (0, 0):
        lo_x, hi_x, lo_y, hi_y = bx1 - w + 1, bx0 + w - 1, by1 - h + 1, by0 + h - 1
        out = [c for c in front if lo_x <= c[0] <= hi_x and lo_y <= c[1] <= hi_y]
    else:
        sx0, sx1, sy0, sy1 = _shape_extents(shape)
        if sx1 - sx0 + 1 > w or sy1 - sy0 + 1 > h:
            return []
        lo_x, hi_x = bx1 - w + 1 - sx0, bx0 + w - 1 - sx1
        lo_y, hi_y = by1 - h + 1 - sy0, by0 + h - 1 - sy1
        anchors = set()
        for tx, ty in front:
            for dx, dy in shape:
                ax, ay = tx - dx, ty - dy
                if lo_x <= ax <= hi_x and lo_y <= ay <= hi_y:
                    anchors.add((ax, ay))
        out = []
        for a in anchors:
            ax, ay = a
            for dx, dy in shape:
                c = (ax + dx, ay + dy)
                if c in g or c in blocked:
                    break
            else:
                out.append(a)
    if fillable and blocked and out:
        out = _fillable_filter(out, shape, frozenset(g), blocked, pairs, (bx0, by0, bx1, by1), w, h)
    out.sort(key=_ROW_MAJOR)
    return out


def _completable_anchors(g, shapes, shape, anchors, w, h, blocked, links, include, paths, first):
    """grid_completable_anchors (builtins.tiling.completable_anchors) on a grid with pieces:
    kept by the grid's mask, its corner (not without blocked, linked or included cells: the
    answer then depends only on the cells moved to the origin, as tiling's memo _AT finds too)
    and the other arguments (the anchors kept, by index)."""
    if not g or not anchors:
        return _engine_completable_anchors(g, shapes, shape, anchors, w, h, blocked, links, include, paths, first)
    anywhere = not blocked and not links and not include
    try:
        args = _marshal.dumps(shapes if anywhere else (shapes, blocked, links, include), 2)
    except ValueError:  # a value marshal cannot write: asked as it is
        return _engine_completable_anchors(g, shapes, shape, anchors, w, h, blocked, links, include, paths, first)
    mask, x0, y0 = _mask_of(g)
    if not anywhere:
        args = (args, x0, y0)
    key = (mask, args, tuple(shape), tuple([(a[0] - x0, a[1] - y0) for a in anchors]), w, h, bool(paths),
           bool(first))
    kept = _ANCHORS_AT.get(key)
    if kept is None:
        if len(_ANCHORS_AT) >= _SHAPES_AT_LIMIT:
            _ANCHORS_AT.clear()
        out = _engine_completable_anchors(g, shapes, shape, anchors, w, h, blocked, links, include, paths, first)
        kept = _ANCHORS_AT[key] = _indexes(anchors, out)
    return [anchors[k] for k in kept]


def _grid_key(g):
    """A grid's cells as a key (transpile/grid_memo.py): None when empty, else its bit mask and
    corner (_mask_of), which name exactly the cells it covers."""
    if not g:
        return None
    mask = g.mask  # kept: _mask_of's answer without its call
    return _mask_of(g) if mask is None else (mask, *g.corner)


_UNKEYED = (ValueError, TypeError, IndexError, KeyError, AttributeError)  # a key not made: asked as it is
_PLAIN_TYPES = frozenset({int, float, str, bool, type(None)})


def _plain(v):
    """A value that cannot change: a number, a text, none, or a tuple of such values."""
    t = type(v)
    return t in _PLAIN_TYPES or (t is tuple and all(_plain(x) for x in v))


def _keep(kept, key, value, limit):
    """Keep a function's value by its key (transpile/grid_memo.py) and hand it out: a plain
    value as it is, a list of plain values as a copy (the one handed out may change later);
    anything else, and none, is not kept."""
    if value is None:
        return value
    if type(value) is list:
        kinds = set(map(type, value))
        if not (kinds <= _PLAIN_TYPES or (tuple in kinds and all(map(_plain, value)))):
            return value
        stored = value[:]
    elif _plain(value):
        stored = value
    else:
        return value
    if len(kept) >= limit:
        kept.clear()
    kept[key] = stored
    return value


def _off_grids(w, gpos):
    """_off_grid of one piece (an int) or of each of several."""
    for pc in ((w,) if type(w) is int else w):
        if gpos[pc] is not None:
            _off_grid(pc, gpos)


def _indexes(seq, sub):
    """Where the elements of `sub` (taken from `seq` in its order) stand in `seq`."""
    out, j = [], 0
    for k, x in enumerate(seq):
        if j < len(sub) and sub[j] is x:
            out.append(k)
            j += 1
    return out


def _cell_of(g, c, values):
    """grid_cell_value: the attribute (values: by piece) of the square covering cell c."""
    hit = g.get(_grid_cell(c))
    if hit is None:
        return None
    v = values[hit[0]]
    t = type(v)
    if t is list or t is tuple:
        return v[hit[1]] if hit[1] < len(v) else None
    return v


def _square_value(hit, values):
    v = values[hit[0]]
    t = type(v)
    if t is list or t is tuple:
        return v[hit[1]] if hit[1] < len(v) else None
    return v


def _cells_with(g, values, wanted):
    """grid_cells_with: the sorted cells whose square's value is `wanted` or one of them (kept
    in g.reads until g changes, by the values' list, which lives as long as the program)."""
    try:
        key = ("with", id(values), tuple(wanted) if type(wanted) is list else wanted)
        kept = g.reads.get(key)
    except TypeError:  # a value that cannot be a key
        key = kept = None
    if kept is not None:
        return list(kept)
    out = _cells_with_of(g, values, wanted)
    if key is not None:
        g.reads[key] = out
    return list(out)


def _cells_with_of(g, values, wanted):
    """The sorted cells whose square's value is in `wanted`, from the grid's cells grouped by
    value (_groups_of: one pass for every value a rule asks about)."""
    want = set(wanted) if isinstance(wanted, (list, tuple)) else {wanted}
    groups = _groups_of(g, values)
    out = []
    for v in want:
        cells = groups.get(v)
        if cells:
            out.extend(cells)
    out.sort()
    return out


def _groups_of(g, values):
    """value -> the cells whose square has it (none included), kept in g.reads until g changes."""
    key = ("groups", id(values))
    kept = g.reads.get(key)
    if kept is None:
        kept = {}
        for c, (pc, part) in g.items():
            v = values[pc]
            t = type(v)
            if t is list or t is tuple:
                v = v[part] if part < len(v) else None
            cells = kept.get(v)
            if cells is None:
                kept[v] = [c]
            else:
                cells.append(c)
        g.reads[key] = kept
    return kept


def _tally(g, values):
    """grid_tally: value -> how many squares have it (none not counted), in the grid's order
    (kept in g.reads until g changes)."""
    key = ("tally", id(values))
    kept = g.reads.get(key)
    if kept is None:
        kept = g.reads[key] = _tally_of(g, values)
    return dict(kept)


def _tally_of(g, values):
    out: dict = {}
    for pc, part in g.values():
        v = values[pc]
        t = type(v)
        if t is list or t is tuple:
            v = v[part] if part < len(v) else None
        if v is not None:
            out[v] = out.get(v, 0) + 1
    return out


def _neighbor_values(g, c, values, links):
    """grid_neighbor_values: the values next to (or linked to) cell c, without repeats (in the
    order of builtins.grid._adjacent: right, left, down, up, then the linked cells)."""
    if type(c) is tuple and len(c) == 2 and type(c[0]) is int and type(c[1]) is int:
        x, y = c  # a cell already: _grid_cell's (int(x), int(y)) without the call
    else:
        x, y = _grid_cell(c)
    near = _grid_adjacent((x, y), _link_map(links)) if links else ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))
    out = []
    for n in near:
        hit = g.get(n)
        if hit is not None:
            v = values[hit[0]]
            t = type(v)
            if t is list or t is tuple:
                v = v[hit[1]] if hit[1] < len(v) else None
            if v is not None and v not in out:
                out.append(v)
    return out


_LINK_MAPS = _Recent(8)  # builtins.grid._link_map of the last links


def _link_map(links):
    """builtins.grid._link_map, found again for the last few links (a rule reads one grid's
    links for every cell it scores)."""
    lmap = _LINK_MAPS.get(links)
    if lmap is None:
        lmap = _grid_link_map(links)
        _LINK_MAPS.keep(links, lmap)
    return lmap


def _components(cells, links):
    """grid_components (builtins.grid)."""
    return _grid_components_of({_grid_cell(c) for c in cells}, _link_map(links) if links else {})


def _grid_at(g, c):
    """grid_at: the piece covering cell c, or None."""
    hit = g.get(tuple(c))
    return None if hit is None else hit[0]


def _grid_bbox(cells):
    return _grid_bbox_of(None, cells)


def _ranking(xs, f, policy="share"):
    """ranking (builtins.majority) over a plain list (a tuple: counted as no work): f once per
    element, in order, as the builtin; where every value is an int or none and the policy is
    one of share, skip_next, dense, drop the places are worked out here (_int_groups),
    otherwise by the builtin."""
    seq = tuple(xs)
    values = [f(x) for x in seq]
    if policy not in _RANKED_HERE or not _INT_OR_NONE.issuperset(map(type, values)):
        given = iter(values)
        return _ranking_of(None, seq, lambda x: next(given), policy)
    where, place = {}, 0
    for members in _int_groups(seq, values):
        if policy == "drop" and len(members) > 1:
            place += len(members)
            continue
        for x in members:
            where[x] = place
        place += 1 if policy == "dense" else len(members)
    return [where.get(x) for x in seq]


_RANKED_HERE = frozenset(("share", "skip_next", "dense", "drop"))
_TIES_TOGETHER = frozenset(("share", "skip_next", "dense"))
_INT_OR_NONE = frozenset((int, type(None)))


def _int_groups(xs, values):
    """The builtin's groups (majority._groups) of elements whose values are ints or none: the
    members of each value, best value first, members in the list's order (none: no group)."""
    groups: dict = {}
    for x, v in zip(xs, values):
        if v is not None:
            members = groups.get(v)
            if members is None:
                groups[v] = [x]
            else:
                members.append(x)
    return [groups[v] for v in sorted(groups, reverse=True)]


def _awards(xs, f, points, policy="share"):
    """awards_by_place (builtins.majority) over plain lists: f once per element, in order, as
    the builtin; where every value is an int or none and the policy places ties together
    (share, skip_next, dense) the places are worked out here (_int_groups), otherwise by the
    builtin."""
    values = [f(x) for x in xs]
    if policy not in _TIES_TOGETHER or not _INT_OR_NONE.issuperset(map(type, values)):
        given = iter(values)
        return _awards_of(None, tuple(xs), lambda x: next(given), tuple(points), policy)
    out, place, paid = [], 0, len(points)
    for members in _int_groups(xs, values):
        if place < paid:
            out.extend([[x, points[place]] for x in members])
        place += 1 if policy == "dense" else len(members)
    return out


def _pass_zones(zones, k, loc):
    """pass_zones: each player's zone goes to the player k seats on, all at once, in order."""
    n = len(zones)
    contents = [list(z) for z in zones]
    for p in range(n):
        dest = zones[(p + k) % n]
        for pc in contents[p]:
            loc[pc].remove(pc)
            dest.append(pc)
            loc[pc] = dest
