"""What kind of value a rule expression gives, as far as the rule file shows it, for texts.

The engine labels a value by its Python type (labels.label): a Player reads "P2", a plain int
"1". A generated program holds both as plain ints, so where an `end_game "... {expr}"` text
shows a value the generator must know whether it is a number or a player. A name's kind is the
kind every binding of it agrees on: within one procedure for its local names (loop variables,
`let`, `choose`, the arguments of its every call for its parameters), over the whole file for
variables. Anything else is unknown, and an unknown value is labelled at run time only when its
type says it all (runtime._text raises on a plain int)."""
from __future__ import annotations

from typing import Any

from .. import ast

NUMBER, PLAYER, NONE = "number", "player", "none"
_NUMERIC = {"count", "len", "sum", "size", "index_of"}
_SAME_LIST = {"filter", "argmax", "argmin", "sort", "reverse"}
_ELEMENT = {"first", "last"}
_OVER_ELEMENTS = _NUMERIC | _SAME_LIST | {"any", "all", "max", "min"}  # (xs, x => …): x in xs


def element(xs: Any) -> Any:
    """The kind of a list's items (NONE: a list still unknown inside a cycle)."""
    return xs[1] if isinstance(xs, tuple) else NONE if xs == NONE else None


def join(a: Any, b: Any) -> Any:
    if a == NONE:
        return b
    if b == NONE or a == b:
        return a
    return None


class Kinds:
    """Kinds of the rule file's expressions in one procedure (see the module docstring)."""

    def __init__(self, loaded: Any):
        self.d = loaded.game
        self.fn_nodes = loaded.fn_nodes
        self.binds: dict[tuple, list] = {}  # (scope, name) -> [(scope of the value, binding)]
        self.busy: set = set()
        self.assumed: dict = {}
        self.proc_fn = {fn.proc.name: fn for fn in self.d.functions.values() if fn.proc is not None}
        for scope, stmts in loaded.procs.items():
            self._scan(scope, stmts)
        for name, node in self.fn_nodes.items():  # called from any expression: parameters unknown
            self._scan(f"fn:{name}", node)
            for p in self.d.functions[name].params:
                self.bind(f"fn:{name}", p, None, None)
        for name in self.d.variables:
            if name not in ("round", "phase"):
                raw = ((loaded.doc.get("variables") or {}).get(name) or {}).get("initial")
                pos = self.d.variables[name].pos
                node = loaded.parse_expr(raw, pos) if isinstance(raw, str) else ast.Const(pos, raw)
                self.bind(None, name, None, node)

    def bind(self, scope: Any, name: str, where: Any, value: Any) -> None:
        self.binds.setdefault((scope, name), []).append((where, value))

    def _scan(self, scope: str, tree: Any) -> None:
        nodes = list(ast.walk(tree))
        known = set()
        for n in nodes:
            if isinstance(n, (ast.For, ast.Simultaneous, ast.Comprehension)):
                self.bind(scope, n.var, scope, ("element", n.iter))
            elif isinstance(n, ast.Choose):
                self.bind(scope, n.var, scope, ("element", n.source) if n.count == "one" else None)
            elif isinstance(n, ast.Let):
                self.bind(scope, n.name, scope, n.value)
            elif isinstance(n, ast.Perform):
                for name, _ in n.actions:
                    self.bind("action:" + name, "player", scope, n.by)
            elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
                fn = self.d.functions.get(n.func.id)
                if fn is not None and fn.proc is not None:
                    for i, p in enumerate(fn.params):
                        ok = len(n.args) == len(fn.params) and not n.kwargs
                        self.bind(fn.proc.name, p, scope, n.args[i] if ok else None)
                elif fn is None and n.func.id in _OVER_ELEMENTS and len(n.args) == 2 \
                        and isinstance(n.args[1], ast.Lambda):
                    known.add(id(n.args[1]))
                    self.bind(scope, n.args[1].param, scope, ("element", n.args[0]))
        for n in nodes:
            if isinstance(n, ast.Lambda) and id(n) not in known:
                self.bind(scope, n.param, scope, None)
            elif isinstance(n, ast.Assign):
                t = n.target.obj if isinstance(n.target, ast.Index) else n.target
                if isinstance(t, ast.Name):
                    value = n.value if n.op == "=" else ("arith", n.value)
                    self.bind(scope if (scope, t.id) in self.binds else None, t.id, scope, value)

    def name(self, name: str, scope: Any) -> Any:
        key = (scope, name) if (scope, name) in self.binds else (None, name)
        if key[0] is None and name in ("round", "player_count") or name in self.d.counters:
            return NUMBER if key not in self.binds or key[0] is None else None
        if key[0] is None and name == "players":
            return ("list", PLAYER)
        if key[0] is None and name == "player" and scope is not None and scope.startswith("event:"):
            return None  # an event's player comes from its `emit`
        if key not in self.binds:
            return None
        if key in self.busy:  # a cycle: what the name is assumed to be so far
            return self.assumed.get(key, NONE)
        self.busy.add(key)
        kind: Any = NONE
        for _ in range(4):  # until what the bindings give is what was assumed (a fixed point)
            self.assumed[key] = kind
            found: Any = NONE
            for where, b in self.binds[key]:
                found = join(found, self.binding(b, where))
                if found is None:
                    break
            if found == kind or found is None:
                break
            kind = found
        else:
            found = None  # still growing (a list of itself): unknown
        self.busy.discard(key)
        del self.assumed[key]
        return found

    def binding(self, b: Any, scope: Any) -> Any:
        if isinstance(b, tuple) and b[0] == "element":
            return element(self.of(b[1], scope))
        if isinstance(b, tuple) and b[0] == "arith":
            return NUMBER if self.of(b[1], scope) == NUMBER else None
        return self.of(b, scope) if isinstance(b, ast.Node) else None

    def of(self, n: ast.Node, scope: Any) -> Any:
        """NUMBER, PLAYER, NONE (the value none), ("list", kind), or None (unknown), of `n`
        written in the procedure `scope` (a key of RuleFile.procs)."""
        if isinstance(n, ast.Const):
            v = n.value
            return NONE if v is None else NUMBER if type(v) is int else None
        if isinstance(n, ast.Name):
            return self.name(n.id, scope)
        if isinstance(n, ast.BinOp) and n.op in ("+", "-", "*"):
            return NUMBER if self.of(n.left, scope) == NUMBER == self.of(n.right, scope) else None
        if isinstance(n, ast.Neg):
            return NUMBER if self.of(n.operand, scope) == NUMBER else None
        if isinstance(n, ast.Ternary):
            return join(self.of(n.then, scope), self.of(n.orelse, scope))
        if isinstance(n, ast.ListLit):
            kind: Any = NONE
            for item in n.items:
                kind = join(kind, self.of(item, scope))
            return ("list", kind) if kind is not None else None
        if isinstance(n, ast.Comprehension):
            elt = self.of(n.elt, scope)
            return ("list", elt) if elt is not None else None
        if isinstance(n, ast.Index) and len(n.keys) == 1:
            if isinstance(n.obj, ast.Name) and (scope, n.obj.id) not in self.binds:
                if n.obj.id in self.d.counters:
                    return NUMBER
                if n.obj.id in self.d.variables:
                    return self.name(n.obj.id, None)
            if self.of(n.keys[0], scope) == NUMBER:  # an item of a list
                return element(self.of(n.obj, scope))
            return None
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and not n.kwargs:
            return self.call(n.func.id, n.args, scope)
        return None

    def call(self, name: str, args: list, scope: Any) -> Any:
        fn = self.d.functions.get(name)
        if fn is not None:
            body = self.fn_nodes.get(name)
            return self.of(body, f"fn:{name}") if fn.proc is None and body is not None and not fn.params else None
        if name in _NUMERIC:
            return NUMBER
        if name in ("next_player", "previous_player"):
            return PLAYER
        if name == "players_from":
            return ("list", PLAYER)
        if name == "disclose" and len(args) == 1:
            return self.of(args[0], scope)
        if name in _SAME_LIST and args:
            xs = self.of(args[0], scope)
            return xs if isinstance(xs, tuple) or xs == NONE else None
        if name in _ELEMENT and len(args) == 1:
            return element(self.of(args[0], scope))
        return None
