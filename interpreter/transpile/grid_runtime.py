"""What generated programs call for grid zones (transpile/grids.py): a grid zone is a dict
cell -> (piece, part) beside its list of pieces, as State.grid keeps it; `gpos[piece]` is the
dict a piece lies on (None off every grid). The placement and look-ahead builtins are the
engine's own cores (builtins.grid.placements, builtins.tiling.completable_anchors: same answers,
same memos); the reads below are builtins.grid's over plain lists of attributes."""
from __future__ import annotations

from ..builtins.core import get as _core_get
from ..builtins.grid import (_components as _grid_components_of, _link_map as _grid_link_map, _cell as _grid_cell,
                             _adjacent as _grid_adjacent, grid_bbox as _grid_bbox_of, line_partition as _line_partition,
                             placements as _placements, _bbox_fits as _grid_bbox_fits)
from ..builtins.majority import awards_by_place as _awards_of, ranking as _ranking_of
from ..builtins.tiling import completable_anchors as _completable_anchors
from ..state import check_grid_bounds as _check_grid_bounds

__all__ = ["_line_partition", "_placements", "_completable_anchors", "_grid_bbox_fits"]


def _place(pc, at, shape, g, z, spec, loc, gpos):
    """`move pc to <grid zone> at (x, y)` (State._move_onto_grid): off where it was, onto g."""
    at = tuple(at)
    _off_grid(pc, gpos)
    loc[pc].remove(pc)
    covered = [(at[0] + dx, at[1] + dy) for dx, dy in shape]
    for cell in covered:
        if cell in g:
            raise RuntimeError(f"cell {cell} is already occupied")
    _check_grid_bounds(spec, "grid", g, covered)
    for part, cell in enumerate(covered):
        g[cell] = (pc, part)
    z.append(pc)
    loc[pc] = z
    gpos[pc] = g


def _off_grid(pc, gpos):
    """Free the cells a piece covers on its grid, if it lies on one (State._off_grid)."""
    g = gpos[pc]
    if g is not None:
        for cell in [c for c, (p, _) in g.items() if p == pc]:
            del g[cell]
        gpos[pc] = None


def _off_grids(w, gpos):
    """_off_grid of one piece (an int) or of each of several."""
    for pc in ((w,) if type(w) is int else w):
        if gpos[pc] is not None:
            _off_grid(pc, gpos)


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
    """grid_cells_with: the sorted cells whose square's value is `wanted` or one of them."""
    want = set(wanted) if isinstance(wanted, (list, tuple)) else {wanted}
    return sorted(c for c, hit in g.items() if _square_value(hit, values) in want)


def _tally(g, values):
    """grid_tally: value -> how many squares have it (none not counted), in the grid's order."""
    out: dict = {}
    for hit in g.values():
        v = _square_value(hit, values)
        if v is not None:
            out[v] = out.get(v, 0) + 1
    return out


def _neighbor_values(g, c, values, links):
    """grid_neighbor_values: the values next to (or linked to) cell c, without repeats."""
    out = []
    for n in _grid_adjacent(_grid_cell(c), _grid_link_map(links)):
        hit = g.get(n)
        if hit is not None:
            v = _square_value(hit, values)
            if v is not None and v not in out:
                out.append(v)
    return out


def _components(cells, links):
    """grid_components (builtins.grid)."""
    return _grid_components_of({_grid_cell(c) for c in cells}, _grid_link_map(links))


def _grid_at(g, c):
    """grid_at: the piece covering cell c, or None."""
    hit = g.get(tuple(c))
    return None if hit is None else hit[0]


def _grid_bbox(cells):
    return _grid_bbox_of(None, cells)


def _get(m, k, default=None):
    """get(m, k, default) (builtins.core.get)."""
    return _core_get(None, m, k, default)


def _ranking(xs, f, policy="share"):
    """ranking (builtins.majority) over a plain list (a tuple: counted as no work)."""
    return _ranking_of(None, tuple(xs), f, policy)


def _awards(xs, f, points, policy="share"):
    """awards_by_place (builtins.majority) over plain lists."""
    return _awards_of(None, tuple(xs), f, tuple(points), policy)


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
