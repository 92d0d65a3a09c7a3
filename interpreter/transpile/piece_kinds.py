"""Whether an expression gives pieces, as far as the generator can tell without running it:
a piece, a list of pieces, a list of such lists, or a value that holds no piece (a number, a
text, a player, a table's data). In a generated program pieces and players are both plain ints,
so where the engine treats them differently (a choice groups pieces that look alike; `roll`
takes one piece or many) the generator must know which it has; where it cannot tell, it
refuses (the game runs in the engine)."""
from __future__ import annotations

from typing import Any

from .. import ast
from .base import WriterBase

PIECE, PIECES, LISTS, VALUE, EMPTY = "piece", "pieces", "lists", "value", "empty"
# EMPTY: none or an empty list, which joins with any kind; None (the Python value): unknown

_SAME_AS_ARG = {"top", "bottom", "shuffled", "unique", "remove", "argmax", "filter", "sort", "reverse",
                "disclose", "sorted"}
_ELEMENT_OF_ARG = {"first", "last", "random_choice"}
_VALUES = {"count", "len", "sum", "any", "all", "index_of", "empty", "str", "clamp", "max2", "min2", "range",
           "hand_rank", "hand_category", "players_from", "next_player", "previous_player", "label", "abs",
           "max", "min", "keys"}
_ELEMENT = {PIECES: PIECE, LISTS: PIECES, VALUE: VALUE, EMPTY: EMPTY}
_LIST_OF = {PIECE: PIECES, PIECES: LISTS, VALUE: VALUE, EMPTY: EMPTY}


def join(a: Any, b: Any) -> Any:
    """The kind of something that is either an `a` or a `b` (None: they cannot be told apart)."""
    if a == b or b == EMPTY:
        return a
    if a == EMPTY:
        return b
    return None


class PieceKindWriter(WriterBase):
    """`kind(node, env)`: PIECE, PIECES, LISTS, VALUE, EMPTY or None (unknown). Locals are known
    by the code of their Python name (`self.code_kinds`), recorded where they are bound."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.code_kinds: dict[str, Any] = {}
        self._pending: tuple | None = None  # (rule name, kind) for the next fresh name of that stem
        self.relied: dict[str, Any] = {}  # locals whose kind some written code depends on
        self._var_kinds: dict[str, Any] | None = None

    def bind_kind(self, code: str, kind: Any, node: Any = None) -> None:
        """Record a local's kind; a local given values of two kinds cannot be told (refused)."""
        if code in self.code_kinds and code.isidentifier():
            before = self.code_kinds[code]
            both = join(before, kind)
            if both is None and before is not None and kind is not None:
                raise self.unsupported("a local holding pieces at one time and other values at another", node)
            if code in self.relied and both != self.relied[code]:  # code written for the old kind
                raise self.unsupported("a local whose kind changes after code was written for it", node)
            self.code_kinds[code] = both
            return
        self.code_kinds[code] = kind

    def rely(self, node: ast.Node, env: dict) -> Any:
        """The kind of `node`, for code that depends on it: the locals it reads keep their kinds
        (bind_kind refuses a later binding that would change one)."""
        for x in ast.walk(node):
            if isinstance(x, ast.Name) and x.id in env and env[x.id] in self.code_kinds:
                self.relied[env[x.id]] = self.code_kinds[env[x.id]]
        return self.kind(node, env)

    def code_kind(self, code: str) -> Any:
        if code in self.code_kinds:
            return self.code_kinds[code]
        if code.startswith("<kind:"):
            return None if code == "<kind:None>" else code[6:-1]
        if code == "_PLAYERS" or code.startswith("'") or code.lstrip("-").isdigit():
            return VALUE
        if code.startswith("c_") and code[2:].split("[")[0] in self.d.counters:  # not a local `c_<n>`
            return VALUE
        if code in ("None", "True", "False", "[]"):
            return VALUE if code in ("True", "False") else EMPTY
        if code.startswith("v_") and code[2:] in self.d.variables:
            return self.var_kind(code[2:])
        return None

    def kind(self, n: ast.Node, env: dict) -> Any:
        method = getattr(self, "k_" + type(n).__name__, None)
        return None if method is None else method(n, env)

    def k_Const(self, n, env):
        return EMPTY if n.value is None else VALUE

    def k_Name(self, n, env):
        name, d = n.id, self.d
        if name in env:
            return self.code_kind(env[name])
        if name in d.variables:
            return self.var_kind(name)
        if name in d.zones and not d.zones[name].dims:
            return PIECES
        if name in d.counters or name in d.tables or name in ("players", "player_count"):
            return VALUE
        return None

    def k_Index(self, n, env):
        if isinstance(n.obj, ast.Name) and n.obj.id not in env:
            name = n.obj.id
            if name in self.d.zones:
                return PIECES if len(self.d.zones[name].dims) == len(n.keys) else None
            if name in self.d.variables:
                return self.var_kind(name) if len(self.d.variables[name].dims) == len(n.keys) else None
            if name in self.d.counters:
                return VALUE
        return _ELEMENT.get(self.kind(n.obj, env))

    def k_Attr(self, n, env):
        if n.name in ("zone", "pos"):
            return None
        if n.name in self.d.mutable_attrs and not (isinstance(n.obj, ast.Name) and n.obj.id == "option"):
            return self.attr_kind(n.name)
        return VALUE  # option values, table fields and fixed piece attributes are data

    def attr_kind(self, name: str) -> Any:
        """A changing piece attribute's kind: VALUE while every value the rule file assigns to
        it is data (its starting values always are), else unknown (it may hold a piece)."""
        kinds = self.__dict__.setdefault("_attr_kinds", {})
        if name not in kinds:
            kinds[name] = VALUE  # while working it out (an attribute set from itself)
            out: Any = VALUE
            for stmts in self.L.procs.values():
                for st in ast.walk(stmts):
                    if isinstance(st, ast.Assign) and isinstance(st.target, ast.Attr) and st.target.name == name:
                        out = join(out, self.kind(st.value, {}))  # a procedure's locals: unknown
            kinds[name] = None if out is None else VALUE
        return kinds[name]

    def k_Comprehension(self, n, env):
        inner = dict(env)
        inner[n.var] = f"<kind:{_ELEMENT.get(self.kind(n.iter, env))}>"
        return _LIST_OF.get(self.kind(n.elt, inner))

    def k_ListLit(self, n, env):
        out: Any = EMPTY
        for item in n.items:
            out = join(out, _LIST_OF.get(self.kind(item, env)))
            if out is None:
                return None
        return out

    def k_BinOp(self, n, env):
        if n.op == "+":
            return join(self.kind(n.left, env), self.kind(n.right, env))
        return VALUE

    def k_Compare(self, n, env):
        return VALUE

    def k_Not(self, n, env):
        return VALUE

    def k_Neg(self, n, env):
        return VALUE

    def k_BoolOp(self, n, env):
        return join(self.kind(n.left, env), self.kind(n.right, env))

    def k_Ternary(self, n, env):
        return join(self.kind(n.then, env), self.kind(n.orelse, env))

    def k_Call(self, n, env):
        if not isinstance(n.func, ast.Name) or n.func.id in env:
            return None
        name, args = n.func.id, n.args
        fn = self.d.functions.get(name)
        if fn is not None:
            if fn.proc is not None or name not in self.L.fn_nodes or len(args) != len(fn.params):
                return None
            if name in self.inlining:
                return None
            inner = {p: f"<kind:{self.kind(a, env)}>" for p, a in zip(fn.params, args)}
            self.inlining.append(name)
            try:
                return self.kind(self.L.fn_nodes[name], inner)
            finally:
                self.inlining.pop()
        if name == "pieces":
            return PIECES
        if name == "flatten" and args:
            return _ELEMENT.get(self.kind(args[0], env))
        if name == "concat":
            out: Any = EMPTY
            for a in args:
                out = join(out, self.kind(a, env))
            return out
        if name in _SAME_AS_ARG and args:
            if name in ("top", "bottom") and len(args) == 1:
                return _ELEMENT.get(self.kind(args[0], env))
            return self.kind(args[0], env)
        if name in _ELEMENT_OF_ARG and args:
            return _ELEMENT.get(self.kind(args[0], env))
        if name == "map" and len(args) == 2 and isinstance(args[1], ast.Lambda):
            inner = dict(env)
            inner[args[1].param] = f"<kind:{_ELEMENT.get(self.kind(args[0], env))}>"
            return _LIST_OF.get(self.kind(args[1].body, inner))
        if name in _VALUES:
            return VALUE
        return None

    # ------------------------------------------------------------------ where names are bound
    def s_Let(self, n, env, depth, chooser):
        kind = self.kind(n.value, env)
        super().s_Let(n, env, depth, chooser)
        self.bind_kind(env[n.name], kind, n)

    def s_Assign(self, n, env, depth, chooser):
        t = n.target
        if isinstance(t, ast.Name) and t.id in env and n.op == "=":
            self.bind_kind(env[t.id], self.kind(n.value, env), n)
        super().s_Assign(n, env, depth, chooser)

    def fresh(self, stem: str) -> str:
        name = super().fresh(stem)
        pending = self.__dict__.get("_pending")
        if pending is not None and pending[0] == stem:  # the loop variable of s_For/s_Simultaneous
            self.code_kinds[name] = pending[1]
            self._pending = None
        return name

    def _over(self, n: ast.Node, env: dict, zone_copy: bool) -> tuple[dict, ast.Node]:
        """A loop's sequence, written now, as a name in a copy of env; the next fresh name made
        for the loop variable records the elements' kind. A for loop's (zone_copy) is only
        iterated over (expressions.iterated)."""
        seq = self.iterated(n.iter, env) if zone_copy else self.expr(n.iter, env)
        if zone_copy and self.is_zone(n.iter, env):
            seq = f"list({seq})"
        inner = dict(env)
        inner["\x00iter"] = seq
        self._pending = (n.var, element(self.kind(n.iter, env)))
        return inner, ast.Name(n.pos, "\x00iter")

    def s_For(self, n, env, depth, chooser):
        inner, it = self._over(n, env, True)
        try:
            super().s_For(ast.For(n.pos, n.var, it, n.body), inner, depth, chooser)
        finally:
            self._pending = None

    def e_Comprehension(self, n, env):
        inner = dict(env)
        inner["\x00iter"] = self.iterated(n.iter, env)
        self._pending = (n.var, element(self.kind(n.iter, env)))
        try:
            return super().e_Comprehension(
                ast.Comprehension(n.pos, n.elt, n.var, ast.Name(n.pos, "\x00iter"), n.cond), inner)
        finally:
            self._pending = None

    def builtin(self, name: str, args: list, env: dict, n: ast.Node) -> str:
        if len(args) == 2 and isinstance(args[1], ast.Lambda):  # the next fresh name: its variable
            self._pending = (args[1].param, element(self.kind(args[0], env)))
            try:
                return super().builtin(name, args, env, n)
            finally:
                self._pending = None
        return super().builtin(name, args, env, n)

    def var_kind(self, name: str) -> Any:
        """A variable's kind: that of its initial value joined with every value assigned to it
        anywhere in the rule file. Worked out for all variables at once, from the least kind up
        until nothing changes (variables set from each other); what does not settle is unknown."""
        if self._var_kinds is None:
            self._var_kinds = {}
            table = {v: EMPTY for v in self.d.variables}
            self._var_kinds = table
            for _ in range(6):
                before = dict(table)
                for v in table:
                    table[v] = self._var_kind_once(v)
                if table == before:
                    break
            else:
                self._var_kinds = {v: None for v in table}
        return self._var_kinds.get(name)

    def _var_kind_once(self, name: str) -> Any:
        spec = ((self.L.doc.get("variables") or {}).get(name) or {})
        raw = spec.get("initial") if isinstance(spec, dict) else None
        out: Any = EMPTY
        if isinstance(raw, str):
            out = self.kind(self.L.parse_expr(raw, None), {})
        elif raw is not None and raw != []:
            out = VALUE
        for stmts in list(self.L.procs.values()):
            out = self._assigned_kind(stmts, name, {}, out)
            if out is None:
                break
        return out

    def _assigned_kind(self, stmts: list, name: str, local: dict, out: Any) -> Any:
        """`out` joined with the kind of every value these statements assign to the variable
        `name`, their locals' kinds followed in order (the procedure's parameters: unknown)."""
        for st in stmts:
            if out is None:
                return None
            t = type(st).__name__
            if t == "Let":
                local[st.name] = _marker(self.kind(st.value, local))
            elif t == "Assign":
                if isinstance(st.target, ast.Name) and st.target.id in local:
                    before = self.code_kind(local[st.target.id])
                    local[st.target.id] = _marker(join(before, self.kind(st.value, local)))
                elif _assigns(st.target, name):
                    out = join(out, self.kind(st.value, local))
            elif t == "Choose":
                element = _ELEMENT.get(self.kind(st.source, local))
                local[st.var] = _marker(element if st.count == "one" else _LIST_OF.get(element))
            elif t in ("For", "Simultaneous"):
                local[st.var] = _marker(_ELEMENT.get(self.kind(st.iter, local)))
                out = self._assigned_kind(st.body, name, local, out)
            elif t == "If":
                for _, body in st.branches:
                    out = self._assigned_kind(body, name, local, out)
                out = self._assigned_kind(st.orelse or [], name, local, out)
            elif t in ("While", "Repeat"):
                out = self._assigned_kind(st.body, name, local, out)
        return out


def _marker(kind: Any) -> str:
    return f"<kind:{kind}>"


def _assigns(target: ast.Node, name: str) -> bool:
    if isinstance(target, ast.Index):
        target = target.obj
    return isinstance(target, ast.Name) and target.id == name


def element(kind: Any) -> Any:
    """The kind of the elements of a list of this kind."""
    return {PIECES: PIECE, LISTS: PIECES, VALUE: VALUE, EMPTY: EMPTY}.get(kind)
