"""Boards (rule file `boards:`) in generated programs: graph builtins over module constants,
zone families indexed by a board's nodes, and `zone_index`.

A node is its id (a text), as in the engine; an edge is the engine's attribute map (with `a`
and `b`). Each board becomes constants written once per program: its node ids in declaration
order (N_<board>), each node's attributes (B_<board>, read as `board[node].attr`), its edges
(E_<board>), each node's neighbours (ADJ_<board>) and each edge by its two ends (EDGE_<board>),
so that `nodes`, `edges`, `neighbors` and `edge` are a constant or one lookup and `reach` a
breadth-first walk over plain dicts (runtime._reach, the engine's graph.reach over them).

A zone family indexed by a board's nodes (alone or with other dimensions) is a dict from node
to zone list (or to the next dimension's lists), in the layout's order; `zone_index(zone)` reads
a constant-per-game dict from each zone list's id to its index (ZK)."""
from __future__ import annotations

from typing import Any

from .. import ast
from .table_constants import MISSING, table_constant
from .piece_kinds import PIECE, VALUE, PieceKindWriter

_GRAPH = {"nodes", "edges", "neighbors", "edge", "reach"}


class BoardWriter(PieceKindWriter):
    """Boards and zone families indexed by their nodes (see the module docstring)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.map_codes: set[str] = set()  # locals holding an edge's or a node's attribute map
        self._map_pending: str | None = None

    def board_tables(self) -> list[str]:
        """Module constants of every board (program.header writes them)."""
        out = []
        for bid, b in self.d.boards.items():
            seen, edges = set(), []
            for attrs in b.edges.values():
                if id(attrs) not in seen:
                    seen.add(id(attrs))
                    edges.append(attrs)
            out.append(f"N_{bid} = {list(b.nodes)!r}\n")
            out.append(f"B_{bid} = {dict(b.nodes)!r}\n")
            out.append(f"E_{bid} = {edges!r}\n")
            out.append(f"ADJ_{bid} = {dict(b.adj)!r}\n")
            # the edge maps of EDGE_ are those of E_ (one map per edge, as in the engine)
            out.append(f"EDGE_{bid} = {{(e['a'], e['b']): e for e in E_{bid}}}\n")
            if not b.directed:
                out.append(f"EDGE_{bid}.update({{(e['b'], e['a']): e for e in E_{bid}}})\n")
            for attr in sorted({k for e in edges for k in e if k.isidentifier()}):
                out.append(f"EA_{bid}_{attr} = {{k: e.get({attr!r}) for k, e in EDGE_{bid}.items()}}\n")
        if self.uses_zone_index:
            out.append(f"ZKV = {tuple(self.zone_key_values())!r}\n")
        for (bid, steps) in sorted(self.constant_reaches()):
            table = {n: reach_of(self.d.boards[bid], n, steps) for n in self.d.boards[bid].nodes}
            out.append(f"RC_{bid}_{steps} = {table!r}\n")
        return out

    def constant_reaches(self) -> set:
        """(board, steps) of every `reach` without blocking and with constant steps (RC_ tables)."""
        out = set()
        trees = list(self.L.procs.values()) + list(self.L.fn_nodes.values())
        for x in (x for tree in trees for x in ast.walk(tree)):
            if (isinstance(x, ast.Call) and isinstance(x.func, ast.Name) and x.func.id == "reach" and not x.kwargs
                    and len(x.args) == 3 and isinstance(x.args[0], ast.Name) and x.args[0].id in self.d.boards
                    and type(self.constant(x.args[2])) is int):
                out.add((x.args[0].id, self.constant(x.args[2])))
        return out

    def is_board(self, node: ast.Node, env: dict) -> bool:
        return isinstance(node, ast.Name) and node.id not in env and node.id in self.d.boards

    # ------------------------------------------------------------------ zone families by node
    def keyed_zones(self, name: str, table: dict) -> str | None:
        """The code of a zone family indexed by some board's nodes (a dict per such dimension, a
        list per dimension numbered 0…k-1), or None when no dimension is a board's."""
        keys = [k if isinstance(k, tuple) else (k,) for k in table]
        if not keys or not any(isinstance(x, str) for k in keys for x in k):
            return None
        width = {len(k) for k in keys}
        if len(width) != 1:
            raise self.unsupported(f"zone family {name} with keys of several lengths")
        init = {k: repr(list(map(int, self.lay.initial_zones[table[k if len(k) > 1 else k[0]]]))) for k in keys}
        return _nested(name, [], keys, init, self)

    def keyed_zones_of(self, name: str, leaves: list[str]) -> str:
        """The code of a zone family indexed by some board's nodes (as keyed_zones lays it out)
        whose zone lists are `leaves`, one code each in the order of zone_codes (a copy's)."""
        keys = [k if isinstance(k, tuple) else (k,) for k in self.lay.zone_index[name]]
        return _nested(name, [], keys, dict(zip(keys, leaves)), self)

    @property
    def uses_zone_index(self) -> bool:
        """Whether some rule of the file calls zone_index (the program then keeps ZK)."""
        if "_zone_index_used" not in self.__dict__:
            trees = list(self.L.procs.values()) + list(self.L.fn_nodes.values())
            self._zone_index_used = any(
                isinstance(x, ast.Call) and isinstance(x.func, ast.Name) and x.func.id == "zone_index"
                for tree in trees for x in ast.walk(tree))
        return self._zone_index_used

    def zone_codes(self, name: str) -> list[str]:
        """The code of every zone list of one family."""
        out = []
        for key in self.lay.zone_index[name]:
            parts = key if isinstance(key, tuple) else (key,)
            out.append(f"z_{name}" + "".join(f"[{_plain(k)!r}]" for k in parts))
        return out

    def zone_keys(self) -> list[str]:
        """ZK: each zone list's id -> its index as zone_index gives it (a value, or a list; the
        indexes a module constant, ZKV, written by board_tables)."""
        codes = self.zone_key_codes()
        return [f"ZK = dict(zip(map(id, ({''.join(c + ', ' for c in codes)})), ZKV))"]

    def zone_key_codes(self) -> list[str]:
        """Every zone list's code, in the order of ZKV (zone_key_values)."""
        codes = []
        for name, table in self.lay.zone_index.items():
            for key in table:
                parts = key if isinstance(key, tuple) else (key,)
                codes.append(f"z_{name}" + "".join(f"[{_plain(k)!r}]" for k in parts))
        return codes

    def zone_key_values(self) -> list:
        """The indexes of ZK, in the order of zone_keys."""
        out = []
        for table in self.lay.zone_index.values():
            for key in table:
                parts = key if isinstance(key, tuple) else (key,)
                out.append(_plain(parts[0]) if len(parts) == 1 else [_plain(k) for k in parts])
        return out

    # ------------------------------------------------------------------ expressions
    def e_Index(self, n, env):
        if self.is_board(n.obj, env) and len(n.keys) == 1:  # board[node]: the node's attribute map
            return f"B_{n.obj.id}[{self.expr(n.keys[0], env)}]"
        return super().e_Index(n, env)

    def is_map(self, node: ast.Node, env: dict) -> bool:
        """Whether `node` is known to be an edge's or a node's attribute map: `edge(board, a, b)`,
        `board[node]`, or a name bound to an element of `edges(board)` or to such a map."""
        if isinstance(node, ast.Name):
            return node.id in env and env[node.id] in self.map_codes
        if isinstance(node, ast.Index):
            return self.is_board(node.obj, env)
        return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "edge"
                and node.func.id not in env and bool(node.args) and self.is_board(node.args[0], env))

    def is_edges(self, node: ast.Node, env: dict) -> bool:
        return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "edges"
                and node.func.id not in env and len(node.args) == 1 and self.is_board(node.args[0], env))

    def fresh(self, stem: str) -> str:
        name = super().fresh(stem)
        if self.__dict__.get("_map_pending") == stem:  # the variable of a loop over edges(board)
            self.map_codes.add(name)
            self._map_pending = None
        return name

    def e_Attr(self, n, env):
        if (isinstance(n.obj, ast.Call) and self.is_map(n.obj, env) and len(n.obj.args) == 3
                and any(n.name in e for e in self.d.boards[n.obj.args[0].id].edges.values())):
            # edge(board, a, b).attr: one lookup in a constant table (a missing edge raises, as
            # the engine's none.attr does)
            b = n.obj.args[0].id
            a, z = (self.expr(x, env) for x in n.obj.args[1:])
            return f"EA_{b}_{n.name}[({a}, {z})]"
        if self.is_map(n.obj, env):  # an attribute map (its attributes may share a piece attribute's name)
            return f"{self.expr(n.obj, env)}.get({n.name!r})"
        return super().e_Attr(n, env)

    def e_Comprehension(self, n, env):
        if self.is_edges(n.iter, env):
            self._map_pending = n.var
        try:
            return super().e_Comprehension(n, env)
        finally:
            self._map_pending = None

    def s_For(self, n, env, depth, chooser):
        if self.is_edges(n.iter, env):
            self._map_pending = n.var
        try:
            super().s_For(n, env, depth, chooser)
        finally:
            self._map_pending = None

    def s_Let(self, n, env, depth, chooser):
        is_map = self.is_map(n.value, env)
        super().s_Let(n, env, depth, chooser)
        if is_map:
            self.map_codes.add(env[n.name])

    def e_Call(self, n, env):
        if (isinstance(n.func, ast.Name) and n.func.id in _GRAPH and n.func.id not in env
                and n.func.id not in self.d.functions):  # reach's named arguments: here
            return self.builtin(n.func.id, n.args, env, n)
        return super().e_Call(n, env)

    def k_Call(self, n, env):
        if isinstance(n.func, ast.Name) and n.func.id not in env and n.func.id in _GRAPH | {"zone_index"}:
            return VALUE
        return super().k_Call(n, env)

    def k_Index(self, n, env):
        if isinstance(n.obj, ast.Name) and self.is_board(n.obj, env):
            return VALUE
        return super().k_Index(n, env)

    def builtin(self, name: str, args: list, env: dict, n: ast.Node) -> str:
        if name == "zone_index" and len(args) == 1:
            return f"ZK[id({self.zone_code(args[0], env)})]"
        if name not in _GRAPH or not args or not self.is_board(args[0], env):
            return super().builtin(name, args, env, n)
        b = args[0].id
        if n.kwargs and name != "reach":
            raise self.unsupported(f"named arguments of {name}", n)
        rest = [self.expr(a, env) for a in args[1:]]
        if name == "nodes" and not rest:
            return f"N_{b}"
        if name == "edges" and not rest:
            return f"E_{b}"
        if name == "neighbors" and len(rest) == 1:
            return f"ADJ_{b}[{rest[0]}]"  # a constant list: generated code never changes a list it reads
        if name == "edge" and len(rest) == 2:
            return f"EDGE_{b}.get(({rest[0]}, {rest[1]}))"
        if name == "reach" and len(rest) == 2:
            return self.reach(b, rest, n, env)
        raise self.unsupported(f"the builtin {name}/{len(args)}", n)

    def reach(self, b: str, rest: list, n: ast.Node, env: dict) -> str:
        """reach(board, start, steps, blocked_node=…, blocked_edge=…) over the board's constants."""
        if set(n.kwargs) - {"blocked_node", "blocked_edge"}:
            raise self.unsupported("reach with other named arguments", n)
        steps = self.constant(n.args[2])
        if not n.kwargs and type(steps) is int:  # a constant table, node -> reached nodes
            return f"RC_{b}_{steps}[{rest[0]}]"
        tests = []
        for key in ("blocked_node", "blocked_edge"):
            fn = n.kwargs.get(key)
            if fn is None:
                tests.append("None")
                continue
            self._pending = (fn.param, VALUE) if isinstance(fn, ast.Lambda) else None
            if key == "blocked_edge" and isinstance(fn, ast.Lambda):
                self._map_pending = fn.param
            var, body = self.lam(fn, env)
            self._pending = self._map_pending = None
            tests.append(f"lambda {var}: {body}")
        return f"_reach(ADJ_{b}, EDGE_{b}, {rest[0]}, {rest[1]}, {tests[0]}, {tests[1]})"

    def constant(self, node: ast.Node):
        """The value of a constant or of a table entry named by constants (None if neither)."""
        if isinstance(node, ast.Const):
            return node.value
        value = table_constant(self.d, node, {})
        return None if value is MISSING else value

    def zone_code(self, node: ast.Node, env: dict) -> str:
        """A zone-valued expression: a zone named in the rule file, or a piece's `.zone`."""
        if isinstance(node, ast.Attr) and node.name == "zone" and self.rely(node.obj, env) == PIECE:
            return f"loc[{self.expr(node.obj, env)}]"
        if self.is_zone(node, env):
            return self.zone(node, env)
        raise self.unsupported("zone_index of something not known to be a zone", node)


def reach_of(board: Any, start: str, steps: int) -> list:
    """graph.reach without blocking: nodes within `steps` moves of start, nearest first."""
    dist, order = {start: 0}, [start]
    for n in order:
        if dist[n] < steps:
            for m in board.adj[n]:
                if m not in dist:
                    dist[m] = dist[n] + 1
                    order.append(m)
    return order


def _plain(k: Any) -> Any:
    """A layout key as the program writes it: players as plain ints."""
    return k if isinstance(k, str) or k is None else int(k)


def _nested(name: str, prefix: list, keys: list, init: dict, w: Any) -> str:
    """The code of the zone lists under `prefix` (one dict or list per remaining dimension;
    init: each key's zone list as code)."""
    level = len(prefix)
    firsts = list(dict.fromkeys(k[level] for k in keys if list(k[:level]) == prefix))
    last = level + 1 == len(keys[0])
    parts = [init[tuple(prefix + [f])] if last else _nested(name, prefix + [f], keys, init, w)
             for f in firsts]
    if all(isinstance(f, str) for f in firsts):
        return "{" + ", ".join(f"{f!r}: {p}" for f, p in zip(firsts, parts)) + "}"
    if [int(f) for f in firsts] == list(range(len(firsts))) and not any(isinstance(f, str) for f in firsts):
        return "[" + ", ".join(parts) + "]"
    raise w.unsupported(f"zone family {name} not indexed by a board's nodes or 0…k-1")
