"""A game's concrete shape for one player count and one set of options.

Which pieces exist (counts and `when` may depend on options), their static attributes and
starting zones, and the keys of every zone, counter and variable. Layouts are immutable and
shared by every state of that configuration; GameDef caches them.
"""
from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .budget import METER, exceeded
from .errors import UNKNOWN, RuleRuntimeError
from .model import ComponentDef, Dim, GameDef, StateFamily, ZoneFamily
from .values import PLAYERS, Piece, ZoneRef, freeze

BOX = ZoneRef("box")  # where pieces not otherwise placed wait; nobody sees inside


class IndexTable(dict):
    """Index -> key of one zone, counter or variable family. Generated code reads it as
    `table[index]` (one lookup); an index that does not exist is a located rule error.

    A family of several dimensions also has a nested form (see nested): one table per
    dimension, `table[i][j]`, so generated code builds and hashes no tuple. There `prefix`
    holds the indexes already looked up and `depth` how many lookups are still to come; a
    missing index gives the same error as the flat table, naming the whole index."""

    __slots__ = ("kind", "name", "prefix", "depth")

    def __init__(self, kind: str, name: str, prefix: tuple = (), depth: int = 1):
        super().__init__()
        self.kind = kind
        self.name = name
        self.prefix = prefix
        self.depth = depth

    def __missing__(self, index: Any) -> Any:
        if self.depth > 1:  # the rest of the index is looked up next: fail once it is known
            return _Absent(self.kind, self.name, (*self.prefix, index), self.depth - 1)
        missing(self.kind, self.name, (*self.prefix, index) if self.prefix else index)

    def __reduce__(self):
        return (_index_table, (self.kind, self.name, dict(self), self.prefix, self.depth))


def _index_table(kind: str, name: str, items: dict, prefix: tuple = (), depth: int = 1) -> IndexTable:
    table = IndexTable(kind, name, prefix, depth)
    table.update(items)
    return table


def missing(kind: str, name: str, index: Any) -> None:
    raise RuleRuntimeError(f'{kind} "{name}" has no index {index!r}')


class _Absent:
    """What a nested table gives for an index it lacks: the next lookups fail, naming it all."""

    __slots__ = ("kind", "name", "prefix", "depth")

    def __init__(self, kind: str, name: str, prefix: tuple, depth: int):
        self.kind, self.name, self.prefix, self.depth = kind, name, prefix, depth

    def __getitem__(self, index: Any) -> Any:
        if self.depth > 1:
            return _Absent(self.kind, self.name, (*self.prefix, index), self.depth - 1)
        missing(self.kind, self.name, (*self.prefix, index))


def nested(table: IndexTable, dims: int) -> IndexTable:
    """The table of a family as read by generated code: itself for one dimension (or none),
    else one table per dimension (i, j) -> table[i][j]."""
    if dims < 2:
        return table
    out = IndexTable(table.kind, table.name, (), dims)
    for index, key in table.items():
        level = out
        for depth, i in enumerate(index[:-1]):
            inner = level.get(i)
            if inner is None:
                inner = level[i] = IndexTable(table.kind, table.name, index[:depth + 1], dims - depth - 1)
            level = inner
        level[index[-1]] = key
    return out


@dataclass
class ZoneInfo:
    key: ZoneRef
    family: str
    index: tuple
    owner: Any
    ordered: bool
    vis_up: str
    vis_down: str
    custom: Any
    face: Any
    grid: Any
    label: str


@dataclass
class SlotInfo:
    """A counter or variable instance."""

    key: str
    family: str
    index: tuple
    owner: Any
    low: Any = None
    high: Any = None
    visibility: str = "public"


class StaticContext:
    """What an expression evaluated before a game exists can see: player count and options."""

    def __init__(self, game: GameDef, n: int, options: dict):
        self.game = game
        self.n = n
        self.options = options
        self.players = PLAYERS[:n]
        self.vars = {"round": 0, "phase": None}


@dataclass
class Layout:
    n: int
    options: dict
    pieces: list = field(default_factory=list)  # Piece objects, index = id
    static: list = field(default_factory=list)  # per piece: dict of static attributes
    component: list = field(default_factory=list)  # per piece: component id
    face_up: list = field(default_factory=list)  # per piece: initial face
    start: list = field(default_factory=list)  # per piece: initial zone key
    discard: list = field(default_factory=list)  # per piece: the zone `discard` sends it to
    by_component: dict = field(default_factory=dict)
    zones: dict = field(default_factory=dict)  # key -> ZoneInfo
    zone_index: dict = field(default_factory=dict)  # family -> {index: key}
    family_zones: dict = field(default_factory=dict)  # family -> [keys]
    counters: dict = field(default_factory=dict)  # key -> SlotInfo
    counter_index: dict = field(default_factory=dict)
    variables: dict = field(default_factory=dict)
    variable_index: dict = field(default_factory=dict)
    initial_zones: dict = field(default_factory=dict)  # zone key -> starting pieces
    initial_slots: tuple | None = None  # (counters, vars) when they never depend on the seed
    shapes: dict = field(default_factory=dict)  # piece -> covered cells (State.shape_of fills it)
    # per piece, the parts of its option grouping key that never change (decisions.build_options):
    hidden_key: list = field(default_factory=list)  # (back, public attribute values)
    visible_key: list = field(default_factory=list)  # (component, item id, owner)
    # per family, in the game's order of families: its IndexTable as generated code reads it
    # (`S.lay.zone_tables[3][i][j]`: a list subscript, and nested tables, see nested)
    zone_tables: list = field(default_factory=list)
    counter_tables: list = field(default_factory=list)
    variable_tables: list = field(default_factory=list)
    dyn_names: list = field(default_factory=list)  # attributes that can change in a game
    singular: list = field(default_factory=list)  # no other piece has the same visible_key
    cols: "AttrColumns" = field(init=False)  # attribute -> per piece its static value

    def __post_init__(self):
        self.cols = AttrColumns(self.static)


class AttrColumns(dict):
    """Attribute name -> list of every piece's static value of it (None where a piece has none),
    built at the first read. Generated code reads `S.lay.cols['role'][piece]` where the value
    is surely a piece (codegen): one subscript instead of a dict method call. Read only once
    the layout is built (by rules running in a game)."""

    def __init__(self, static: list):
        super().__init__()
        self.static = static

    def __missing__(self, name: str) -> list:
        col = self[name] = [attrs.get(name) for attrs in self.static]
        return col


def get_layout(game: GameDef, n: int, options: dict) -> Layout:
    cache_key = (n, tuple(sorted(options.items())))
    layout = game.layouts.get(cache_key)
    if layout is None:
        layout = _build(game, n, options)
        game.layouts[cache_key] = layout
    return layout


def _build(game: GameDef, n: int, options: dict) -> Layout:
    METER.start(game.limits)
    ctx = StaticContext(game, n, options)
    lay = Layout(n=n, options=dict(options))
    lay.zones[BOX] = ZoneInfo(BOX, "box", (), None, False, "none", "none", None, None, None, "box")
    lay.zone_index["box"] = {(): BOX}
    lay.family_zones["box"] = [BOX]
    for fam in game.zones.values():
        _zone_family(game, ctx, lay, fam)
    for fam in game.counters.values():
        _slots(game, ctx, fam, lay.counters, lay.counter_index)
    for fam in game.variables.values():
        _slots(game, ctx, fam, lay.variables, lay.variable_index)
    for families, index, tables in ((game.zones, lay.zone_index, lay.zone_tables),
                                    (game.counters, lay.counter_index, lay.counter_tables),
                                    (game.variables, lay.variable_index, lay.variable_tables)):
        tables.extend(nested(index[name], len(fam.dims)) for name, fam in families.items())
    for comp in game.components.values():
        _pieces(game, ctx, lay, comp)
    for attrs in lay.static:
        comp = game.components[attrs["kind"]]
        lay.hidden_key.append((comp.back, tuple(attrs.get(a) for a in comp.public)))
        lay.visible_key.append((attrs["kind"], attrs["name"], attrs.get("owner")))
        lay.dyn_names.append(comp.dyn_names)
    copies = Counter(lay.visible_key)
    lay.singular = [copies[key] == 1 for key in lay.visible_key]
    lay.initial_zones = {key: [] for key in lay.zones}
    for piece, key in zip(lay.pieces, lay.start):
        lay.initial_zones[key].append(piece)
    return lay


def dim_values(game: GameDef, ctx: Any, dim: Dim) -> list:
    if dim.kind == "player":
        return list(PLAYERS[:ctx.n])
    if dim.kind == "range":
        count = _count(dim.count, ctx, "range", None)
        if count > ctx.game.limits.pieces:
            raise RuleRuntimeError(exceeded("pieces", ctx.game.limits.pieces, f" (a range of {count})"),
                                   getattr(dim.count, "pos", None) or UNKNOWN, "E304")
        return list(range(count))
    if dim.kind == "board":
        return list(game.boards[dim.board].nodes)
    return list(freeze(dim.values))


def _index_tuples(game: GameDef, ctx: Any, dims: list) -> list:
    values = [dim_values(game, ctx, d) for d in dims]
    size = 1
    for v in values:
        size *= len(v)
    if size > game.limits.pieces:
        raise RuleRuntimeError(exceeded("pieces", game.limits.pieces, f" ({size} instances of one family)"),
                               UNKNOWN, "E304")
    return list(itertools.product(*values))


def _key(name: str, index: tuple) -> str:
    if not index:
        return name
    return name + ":" + ":".join(str(int(i)) if isinstance(i, int) else str(i) for i in index)


def _owner_of(dims: list, index: tuple) -> Any:
    for dim, value in zip(dims, index):
        if dim.kind == "player":
            return value
    return None


def _zone_family(game: GameDef, ctx: Any, lay: Layout, fam: ZoneFamily) -> None:
    table = IndexTable("zone", fam.name)
    keys = []
    for index in _index_tuples(game, ctx, fam.dims):
        key = ZoneRef(_key(fam.name, index))
        owner = _owner_of(fam.dims, index)
        if fam.owner is not None:
            owner = fam.owner(ctx, {"index": index[0] if len(index) == 1 else index})
        lay.zones[key] = ZoneInfo(key, fam.name, index, owner, fam.ordered, fam.vis_up,
                                  fam.vis_down, fam.custom, fam.face, _grid_spec(ctx, fam.grid),
                                  _zone_label(fam, index))
        table[index[0] if len(index) == 1 else index] = key
        keys.append(key)
    lay.zone_index[fam.name] = table
    lay.family_zones[fam.name] = keys


def _grid_spec(ctx: Any, grid: dict | None) -> dict | None:
    """A grid zone's spec with its size expressions evaluated for this player count and options."""
    if not grid:
        return grid
    out = {}
    for name, value in grid.items():
        if callable(value):
            value = value(ctx, {})
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise RuleRuntimeError(f"grid {name} must be a whole number of at least 1, got {value!r}")
        out[name] = value
    return out


def _zone_label(fam: ZoneFamily, index: tuple) -> str:
    base = fam.label or fam.name.replace("_", " ")
    if not index:
        return base
    return f"{base} [{', '.join(str(i) for i in index)}]"


def _bound(value: Any, ctx: Any, what: str, index: tuple) -> Any:
    if value is None or type(value) is int:
        return value
    if not callable(value):
        raise RuleRuntimeError(f"{what} must be a whole number, got {value!r}", UNKNOWN, "E301")
    got = _eval(value, ctx, what, {"index": index[0] if len(index) == 1 else list(index)})
    if type(got) is not int:
        raise RuleRuntimeError(f"{what} must be a whole number, got {got!r}",
                               getattr(value, "pos", None) or UNKNOWN, "E301")
    return got


def _slots(game: GameDef, ctx: Any, fam: StateFamily, out: dict, index_out: dict) -> None:
    table = IndexTable("counter" if fam.is_counter else "variable", fam.name)
    for index in _index_tuples(game, ctx, fam.dims):
        key = _key(fam.name, index)
        low, high = (_bound(b, ctx, f"{which} of {fam.name}", index)
                     for b, which in ((fam.low, "min"), (fam.high, "max")))
        out[key] = SlotInfo(key, fam.name, index, _owner_of(fam.dims, index), low, high, fam.visibility)
        table[index[0] if len(index) == 1 else index] = key
    index_out[fam.name] = table


def _eval(closure: Any, ctx: Any, what: str, locals_: dict | None = None) -> Any:
    try:
        return closure(ctx, locals_ if locals_ is not None else {})
    except Exception as exc:  # the expression used something that does not exist yet
        pos = getattr(closure, "pos", None)
        raise RuleRuntimeError(f"cannot evaluate {what} before the game starts: {exc}",
                               pos or UNKNOWN, "E301") from None


def _count(closure: Any, ctx: Any, what: str, locals_: dict | None) -> int:
    value = _eval(closure, ctx, what, locals_)
    if type(value) is not int or value < 0:
        raise RuleRuntimeError(f"{what} must be a whole number, got {value!r}",
                               getattr(closure, "pos", None) or UNKNOWN, "E301")
    return value


def check_layouts(game: GameDef) -> None:
    """Build the layouts of the fewest and most players with the default options, and with each
    whole-number option at its highest value: what `validate` accepts, `play` can set up."""
    defaults = {o.id: o.default for o in game.options.values()}
    configs = [(n, defaults) for n in sorted({game.min_players, game.max_players})]
    for o in game.options.values():
        if o.type == "int" and o.high is not None and o.high != o.default:
            configs.append((game.max_players, dict(defaults, **{o.id: o.high})))
    for n, options in configs:
        get_layout(game, n, options)


def _pieces(game: GameDef, ctx: Any, lay: Layout, comp: ComponentDef) -> None:
    owners = list(PLAYERS[:ctx.n]) if comp.per_player else [None]
    made = lay.by_component.setdefault(comp.id, [])
    for owner in owners:
        for item in comp.items:
            local = {"owner": owner}
            if item.when is not None and not _eval(item.when, ctx, f"when of {item.id}", local):
                continue
            count = 1 if item.count is None else _count(item.count, ctx, f"count of {item.id}", local)
            if len(lay.pieces) + count > game.limits.pieces:
                raise RuleRuntimeError(
                    exceeded("pieces", game.limits.pieces, f" ({item.id} alone makes {count})"),
                    getattr(item.count, "pos", None) or getattr(comp, "pos", None) or UNKNOWN, "E304")
            for _ in range(count):
                pid = len(lay.pieces)
                piece = Piece(pid)
                attrs = dict(item.attrs)
                attrs.update(name=item.id, kind=comp.id, label=item.label, owner=owner)
                if item.labels:
                    attrs["labels"] = item.labels
                lay.pieces.append(piece)
                lay.static.append(attrs)
                lay.component.append(comp.id)
                lay.face_up.append(comp.face_up)
                lay.start.append(_start_zone(lay, comp, owner))
                lay.discard.append(_family_zone(lay, comp, owner, comp.discard) if comp.discard else None)
                made.append(piece)


def _start_zone(lay: Layout, comp: ComponentDef, owner: Any) -> ZoneRef:
    return _family_zone(lay, comp, owner, comp.start) if comp.start else BOX


def _family_zone(lay: Layout, comp: ComponentDef, owner: Any, family: str) -> ZoneRef:
    """The zone of `family` for a piece: the single zone, or its owner's zone of a per-player family."""
    table = lay.zone_index[family]
    if () in table:
        return table[()]
    if owner is not None and owner in table:
        return table[owner]
    raise RuleRuntimeError(
        f'component "{comp.id}" uses zone "{family}", which is not a single zone '
        "(a per-player zone family needs a per_player component)", comp.pos, "E302")
