"""Grid zones in generated programs: pieces put `at` a cell (`move x to z at (x, y)`), each
covering its shape's cells, and the grid builtins that read them. A grid zone is its list of
pieces (in the order they came, as every zone) and a dict cell -> (piece, part) (`g_<name>`,
as State.grid); GPOS[piece] is the dict a piece lies on. grid_runtime.py holds the helpers;
the placement and look-ahead builtins are the engine's own cores."""
from __future__ import annotations

from .. import ast
from .piece_kinds import PIECE, PIECES, VALUE, PieceKindWriter

# the named arguments of the placement and look-ahead builtins, in their cores' order, and defaults
_PLACEMENTS_KW = ("max_width", "max_height", "blocked", "links", "include", "start", "fillable")
_ANCHORS_KW = ("max_width", "max_height", "blocked", "links", "include", "paths", "first")
_DEFAULTS = {"paths": "True", "first": "False", "fillable": "False"}
_VALUE_BUILTINS = {"grid_placements", "grid_completable_anchors", "grid_cell_value", "grid_cells_with",
                   "grid_tally", "grid_neighbor_values", "grid_components", "grid_line_partition", "grid_cells",
                   "grid_bbox", "grid_fits_box", "shape", "ranking"}  # give no pieces


class GridWriter(PieceKindWriter):
    """Grid zones' state, moves onto them, and the grid builtins (see the module docstring)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.grid_names: set[str] = set()

    # ------------------------------------------------------------------ state
    def grid_zone_state(self, name: str, table: dict) -> None:
        """program.state_init: the cells of grid zone family `name` (its lists are written there)."""
        keys = list(table)
        if keys == [()]:
            self.emit(1, f"g_{name} = _Cells()")
        elif all(isinstance(k, int) for k in keys) and sorted(map(int, keys)) == list(range(len(keys))):
            self.emit(1, f"g_{name} = [_Cells() for _ in range({len(keys)})]")
        else:
            raise self.unsupported(f"grid zone family {name} not indexed 0…k-1")
        if not self.grid_names:
            self.emit(1, f"GPOS = [None] * {len(self.lay.static)}")
        self.grid_names.add(name)

    def grid_tables(self) -> list[str]:
        """SHAPE: each piece's cells relative to where it is put (State.shape_of), and each grid
        zone's size (GRID_<name>), when grids exist (program.header writes them)."""
        out = []
        if any(f.grid is not None for f in self.d.zones.values()):
            shapes = [tuple(tuple(c) for c in s["shape"]) if s.get("shape") else ((0, 0),) for s in self.lay.static]
            out.append(f"SHAPE = {shapes!r}\n")
            specs = {name: dict(f.grid) for name, f in self.d.zones.items() if f.grid is not None}
            for name, spec in specs.items():
                out.append(f"GRID_{name} = {spec!r}\n")
        return out

    def grid_code(self, node: ast.Node, env: dict) -> str:
        """The cells dict of a grid zone expression (g_name, g_name[i])."""
        name = node.id if isinstance(node, ast.Name) else node.obj.id if isinstance(node, ast.Index) \
            and isinstance(node.obj, ast.Name) else None
        if name is None or name in env or name not in self.grid_names:
            raise self.unsupported("a grid builtin of something not known to be a grid zone", node)
        return "g_" + self.zone(node, env)[2:]

    def is_grid(self, node: ast.Node, env: dict) -> bool:
        name = node.id if isinstance(node, ast.Name) else node.obj.id if isinstance(node, ast.Index) \
            and isinstance(node.obj, ast.Name) else None
        return name is not None and name not in env and name in self.grid_names

    # ------------------------------------------------------------------ moves
    def s_Move(self, n, env, depth, chooser):
        if n.at is None:
            if self.is_grid(n.to, env):
                raise self.unsupported("moving onto a grid zone without `at`", n)
            if self.grid_names and not (self.is_zone(n.what, env) and not self.is_grid(n.what, env)):
                # a piece leaving a grid frees its cells (State._off_grid); a zone that is no
                # grid holds none on one
                what = self.expr(n.what, env)
                if not what.isidentifier():
                    w = self.fresh("w")
                    self.emit(depth, f"{w} = {what}")
                    n = ast.Move(n.pos, ast.Name(n.pos, "\x00grid moved"), n.to, n.place, n.at, n.face)
                    env = dict(env)
                    env["\x00grid moved"] = what = w
                self.emit(depth, f"_off_grids({what}, GPOS)")
            return super().s_Move(n, env, depth, chooser)
        if not self.is_grid(n.to, env) or n.place not in (None, "at"):
            raise self.unsupported("move `at` a cell of something not known to be a grid zone", n)
        z = self.zone(n.to, env)
        name = n.to.id if isinstance(n.to, ast.Name) else n.to.obj.id
        at = self.expr(n.at, env)
        if not at.isidentifier():
            a = self.fresh("at")
            self.emit(depth, f"{a} = {at}")
            at = a
        what, kind = self.expr(n.what, env), self.kind(n.what, env)
        pc = self.fresh("pc")
        seq = f"({what},)" if kind == PIECE else what if kind == PIECES else f"_as_piece_list({what})"
        self.emit(depth, f"for {pc} in {seq}:")
        self.emit(depth + 1, f"_place({pc}, {at}, SHAPE[{pc}], g_{z[2:]}, {z}, GRID_{name}, loc, GPOS)")

    def s_Deal(self, n, env, depth, chooser):
        self.refuse_grid_source(n.source, env, n)
        super().s_Deal(n, env, depth, chooser)

    def s_Draw(self, n, env, depth, chooser):
        self.refuse_grid_source(n.source, env, n)
        super().s_Draw(n, env, depth, chooser)

    def refuse_grid_source(self, node: ast.Node, env: dict, n: ast.Node) -> None:
        if self.is_grid(node, env):
            raise self.unsupported("dealing or drawing from a grid zone", n)

    # ------------------------------------------------------------------ builtins
    def k_Call(self, n, env):
        if isinstance(n.func, ast.Name) and n.func.id not in env:
            if n.func.id in _VALUE_BUILTINS:
                return VALUE
            if n.func.id == "grid_at":
                return PIECE
        return super().k_Call(n, env)

    def e_Call(self, n, env):
        if isinstance(n.func, ast.Name) and n.func.id not in env and n.func.id in ("grid_placements",
                                                                                   "grid_completable_anchors",
                                                                                   "grid_neighbor_values",
                                                                                   "grid_components",
                                                                                   "grid_line_partition"):
            return self.grid_call(n.func.id, n, env)
        return super().e_Call(n, env)

    def named(self, n: ast.Call, env: dict, names: tuple) -> list[str]:
        """The named arguments' code in `names` order (None where not given: the default)."""
        extra = set(n.kwargs) - set(names)
        if extra:
            raise self.unsupported(f"the named argument {sorted(extra)[0]}", n)
        return [self.expr(n.kwargs[k], env) if k in n.kwargs else _DEFAULTS.get(k, "None") for k in names]

    def grid_call(self, name: str, n: ast.Call, env: dict) -> str:
        args = n.args
        if name == "grid_placements" and len(args) == 2:
            piece = self.expr(args[1], env)
            if self.kind(args[1], env) not in (PIECE, None):
                raise self.unsupported("grid_placements of something not known to be a piece", n)
            kw = self.named(n, env, _PLACEMENTS_KW)
            return f"_placements({self.grid_code(args[0], env)}, SHAPE[{piece}], {', '.join(kw)})"
        if name == "grid_completable_anchors" and len(args) == 4:
            kw = self.named(n, env, _ANCHORS_KW)
            shapes, shape, anchors = (self.expr(a, env) for a in args[1:])
            return (f"_completable_anchors({self.grid_code(args[0], env)}, {shapes}, {shape}, _listed({anchors}), "
                    f"{', '.join(kw)})")
        if name == "grid_neighbor_values" and len(args) == 3:
            g, cell, values = self.grid_code(args[0], env), self.expr(args[1], env), self.attr_values(args[2])
            return f"_neighbor_values({g}, {cell}, {values}, {self.named(n, env, ('links',))[0]})"
        if name == "grid_components" and len(args) == 1:
            return f"_components({self.expr(args[0], env)}, {self.named(n, env, ('links',))[0]})"
        if name == "grid_line_partition" and len(args) == 2:
            cells, scores = (self.expr(a, env) for a in args)
            return f"_line_partition({cells}, {scores}, {self.named(n, env, ('links',))[0]})"
        raise self.unsupported(f"this call of {name}", n)

    def e_Compare(self, n, env):
        if n.op in ("==", "!=") and "shape" not in self.d.functions \
                and all(_is_call(x, "shape", env) for x in (n.left, n.right)):
            a, b = (self.expr(x.args[0], env) for x in (n.left, n.right))  # the shapes' tuples
            return f"(SHAPE[{a}] {n.op} SHAPE[{b}])"
        return super().e_Compare(n, env)

    def attr_values(self, node: ast.Node) -> str:
        """A piece attribute named by a constant text, as its list by piece (A_name)."""
        if not (isinstance(node, ast.Const) and isinstance(node.value, str) and node.value in self.attrs):
            raise self.unsupported("a grid attribute that is not a piece attribute's name", node)
        if node.value in getattr(self, "mutable", ()):
            raise self.unsupported(f"the changing attribute {node.value} read on a grid", node)
        return f"A_{node.value}"

    def builtin(self, name: str, args: list, env: dict, n: ast.Node) -> str:
        if name in ("len", "count") and len(args) == 1 and isinstance(args[0], ast.Call) \
                and isinstance(args[0].func, ast.Name) and args[0].func.id in ("grid_cells", "shape") \
                and args[0].func.id not in env and len(args[0].args) == 1 and not args[0].kwargs:
            inner = args[0]  # how many: without making the sorted list or the copy
            if inner.func.id == "grid_cells":
                return f"len({self.grid_code(inner.args[0], env)})"
            return f"len(SHAPE[{self.expr(inner.args[0], env)}])"
        if name == "grid_cell_value" and len(args) == 3:
            return f"_cell_of({self.grid_code(args[0], env)}, {self.expr(args[1], env)}, {self.attr_values(args[2])})"
        if name == "grid_cells_with" and len(args) == 3:
            return f"_cells_with({self.grid_code(args[0], env)}, {self.attr_values(args[1])}, {self.expr(args[2], env)})"
        if name == "grid_tally" and len(args) == 2:
            return f"_tally({self.grid_code(args[0], env)}, {self.attr_values(args[1])})"
        if name == "grid_cells" and len(args) == 1:
            return f"sorted({self.grid_code(args[0], env)})"
        if name == "grid_at" and len(args) == 2:
            return f"_grid_at({self.grid_code(args[0], env)}, {self.expr(args[1], env)})"
        if name == "grid_bbox" and len(args) == 1:
            return f"_grid_bbox({self.expr(args[0], env)})"
        if name == "grid_fits_box" and len(args) == 3:
            return f"_grid_bbox_fits([tuple(c) for c in {self.expr(args[0], env)}], " \
                   f"{self.expr(args[1], env)}, {self.expr(args[2], env)})"
        if name == "shape" and len(args) == 1:
            if self.kind(args[0], env) not in (PIECE, None):
                raise self.unsupported("shape of something not known to be a piece", n)
            return f"list(SHAPE[{self.expr(args[0], env)}])"
        return super().builtin(name, args, env, n)


def _is_call(node: ast.Node, name: str, env: dict) -> bool:
    """A call of the builtin `name` with one argument (not a local of that name)."""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name
            and name not in env and len(node.args) == 1 and not node.kwargs)
