"""Static checks and compilation of the DSL.

Expressions become closures `f(S, L)` (S: the state, L: the frame's locals). Statement blocks
become procedures: flat lists of VM instructions (see vm.py) with jumps for control flow, so a
procedure can stop at a decision and resume later from plain data.

Every name, attribute, arity and placement problem is reported with its `file:line:col` and,
where it helps, the nearest valid name. Errors are collected, not raised one at a time.
"""
from __future__ import annotations

import itertools
import operator
from typing import Any, Callable

from . import ast
from .builtins import REGISTRY, items, load_all
from .decisions import start_choice, start_perform
from .errors import Pos, RuleError, RuleRuntimeError, suggest
from .logs import log_entry
from .model import Action, Function, GameDef, Proc
from .parser import parse_expr
from .source import SourceMap
from .state import Frame
from .values import Family, Piece, ZoneRef
from .vm import END, FRAME, WAIT, run_atomic

PIECE_ATTRS = {"id", "name", "kind", "label", "owner", "zone", "index", "face_up", "pos"}
BUILTIN_NAMES = {"players", "player_count", "round", "phase", "option", "game_over"}
RESERVED_VARS = {"round", "phase"}

_BINOPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
           "//": operator.floordiv, "%": operator.mod}
_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
            ">": operator.gt, ">=": operator.ge}


def _fail(S, L):  # stands in for an expression that did not compile (an error is recorded)
    raise RuleRuntimeError("this rule did not compile")


def contains(S: Any, container: Any, x: Any) -> bool:
    t = type(container)
    if t is ZoneRef:
        return x in S.zones[container]
    if t is Family:
        return x in S.lay.family_zones[container]
    if container is None:
        return False
    return x in container


def _as_pieces(S: Any, value: Any) -> list:
    t = type(value)
    if t is Piece:
        return [value]
    if t is ZoneRef:
        return list(S.zones[value])
    if value is None:
        raise RuleRuntimeError("expected a piece, a list of pieces or a zone; got none")
    out = list(items(S, value))
    for p in out:
        if type(p) is not Piece:
            raise RuleRuntimeError(f"expected pieces, got {p!r}")
    return out


def _as_players(S: Any, value: Any) -> list:
    if value is None:
        raise RuleRuntimeError("expected a player or a list of players; got none")
    if isinstance(value, int):
        return [value]
    return list(items(S, value))


def getattr_rt(S: Any, value: Any, name: str) -> Any:
    if type(value) is Piece:
        return S.lay.static[value].get(name)
    if isinstance(value, dict):
        return value.get(name)
    if value is None:
        raise RuleRuntimeError(f'none has no attribute "{name}"')
    raise RuleRuntimeError(f'{value!r} has no attribute "{name}"')


def index_rt(S: Any, value: Any, key: Any) -> Any:
    if type(value) is ZoneRef:
        return S.zones[value][key]
    if value is None:
        raise RuleRuntimeError("cannot index none")
    if isinstance(value, dict):
        return value.get(key)
    return value[key]


class Scope:
    """Names visible at a point: name -> slot in the frame's locals."""

    def __init__(self, parent: "Scope | None" = None):
        self.parent = parent
        self.names: dict[str, str] = {}

    def get(self, name: str) -> str | None:
        scope = self
        while scope is not None:
            slot = scope.names.get(name)
            if slot is not None:
                return slot
            scope = scope.parent
        return None

    def all_names(self) -> set:
        out, scope = set(), self
        while scope is not None:
            out |= set(scope.names)
            scope = scope.parent
        return out


class _Loop:
    def __init__(self):
        self.breaks: list[int] = []
        self.continue_at: int | None = None
        self.continues: list[int] = []


class _ProcCtx:
    """Compilation state of one procedure."""

    def __init__(self, proc: Proc, scope: Scope, chooser: str | None, in_simultaneous: bool):
        self.proc = proc
        self.scope = scope
        self.chooser = chooser
        self.loops: list[_Loop] = []
        self.in_simultaneous = in_simultaneous

    def emit(self, ins: Callable, pos: Pos) -> int:
        self.proc.code.append(ins)
        self.proc.pos.append(pos)
        return len(self.proc.code) - 1

    def here(self) -> int:
        return len(self.proc.code)

    def patch_jump(self, at: int, target: int) -> None:
        self.proc.code[at] = _jump(target)


def _jump(target: int) -> Callable:
    def jump(S, th, fr):
        fr.pc = target
    return jump


def _jump_if_false(cond: Callable, target: int) -> Callable:
    def ins(S, th, fr):
        if not cond(S, fr.L):
            fr.pc = target
    return ins


def _return(value: Callable | None) -> Callable:
    def ins(S, th, fr):
        result = value(S, fr.L) if value is not None else None
        frames = th.frames
        frames.pop()
        if fr.ret is not None and frames:
            frames[-1].L[fr.ret] = result
        return FRAME
    return ins


class Compiler:
    """Compiles DSL ASTs of one game, collecting every error it finds."""

    def __init__(self, game: GameDef):
        load_all()
        self.game = game
        self.errors: list[RuleError] = []
        self.uniq = itertools.count()
        self.atomic_calls: list[tuple[Proc, Pos]] = []
        game.known_attrs.update(PIECE_ATTRS | {"value", "shape"})
        self.known_attrs = game.known_attrs
        self.events_emitted: set[str] = set()

    # ------------------------------------------------------------------ errors
    def error(self, message: str, pos: Pos, code: str = "E210") -> None:
        self.errors.append(RuleError(message, pos, code))

    def global_names(self) -> set:
        g = self.game
        return (set(g.zones) | set(g.counters) | set(g.variables) | set(g.tables) |
                set(g.components) | set(g.functions) | set(g.boards) | BUILTIN_NAMES |
                set(REGISTRY))

    # ------------------------------------------------------------------ entry points
    def compile_expr(self, text: Any, scope_names: list[str] = (), what: str = "") -> Callable:
        """A YAML string (or number/bool) holding an expression → closure f(S, L)."""
        if isinstance(text, (bool, int, float)) or text is None:
            value = text
            return lambda S, L: value
        try:
            node = parse_expr(text)
        except RuleError as exc:
            self.errors.append(exc)
            return _fail
        scope = Scope()
        for name in scope_names:
            scope.names[name] = name
        f = self.expr(node, scope)
        f = _with_pos(f, node.pos)
        return f

    def compile_proc(self, proc: Proc, body: list, scope_names: list[str] = (),
                     chooser: str | None = None) -> Proc:
        scope = Scope()
        for name in list(proc.params) + list(scope_names):
            scope.names[name] = name
        if chooser is None and "player" in scope.names:
            chooser = "player"
        ctx = _ProcCtx(proc, scope, chooser, False)
        self.block(body, ctx)
        ctx.emit(_return(None), proc.decl_pos)
        return proc

    # ------------------------------------------------------------------ expressions
    def expr(self, n: ast.Node, sc: Scope) -> Callable:
        method = getattr(self, "x_" + type(n).__name__, None)
        if method is None:
            self.error(f"{type(n).__name__} is not an expression", n.pos, "E211")
            return _fail
        try:
            return method(n, sc)
        except RuleError as exc:
            self.errors.append(exc)
            return _fail

    def x_Const(self, n, sc):
        value = n.value
        return lambda S, L: value

    def x_Name(self, n, sc):
        name = n.id
        slot = sc.get(name)
        if slot is not None:
            return lambda S, L: L[slot]
        g = self.game
        if name == "players":
            return lambda S, L: S.players
        if name == "player_count":
            return lambda S, L: S.n
        if name == "game_over":
            return lambda S, L: S.over
        if name in g.variables:
            return self._variable(name, [], n.pos, sc)
        if name in g.zones:
            fam = g.zones[name]
            if fam.dims:
                family = Family(name)
                return lambda S, L: family
            key = ZoneRef(name)
            return lambda S, L: key
        if name in g.counters:
            return self._counter(name, [], n.pos, sc)
        if name in g.tables:
            value = g.tables[name]
            return lambda S, L: value
        if name in g.components or name in g.boards or name in g.actions:
            value = str(name)
            return lambda S, L: value
        if name == "option":
            raise RuleError('options are read as option.<id>, e.g. "option.short_game"', n.pos, "E212")
        if name in g.functions or name in REGISTRY:
            raise RuleError(f'"{name}" is a function: call it with (...)', n.pos, "E212")
        if name == "player":
            raise RuleError('"player" is not defined here (it exists inside turns, actions and '
                            "simultaneous blocks); pass the player in explicitly", n.pos, "E213")
        raise RuleError(f'unknown name "{name}"{suggest(name, sc.all_names() | self.global_names())}',
                        n.pos, "E213")

    def _family_index(self, kind: str, name: str, keys: list, pos: Pos, sc: Scope) -> Callable:
        """Closure giving the key of zone/counter/variable `name[keys]`."""
        g = self.game
        fam = {"zone": g.zones, "counter": g.counters, "variable": g.variables}[kind][name]
        if len(keys) != len(fam.dims):
            want = len(fam.dims)
            raise RuleError(f'{kind} "{name}" takes {want} index{"es" if want != 1 else ""} '
                            f"({', '.join(d.kind for d in fam.dims) or 'none'}), got {len(keys)}",
                            pos, "E214")
        table_attr = {"zone": "zone_index", "counter": "counter_index", "variable": "variable_index"}[kind]
        if not keys:
            key = ZoneRef(name) if kind == "zone" else name
            return lambda S, L: key
        kfs = [self.expr(k, sc) for k in keys]

        def missing(S, index):
            raise RuleRuntimeError(f'{kind} "{name}" has no index {index!r}')

        if len(kfs) == 1:
            k0 = kfs[0]

            def key1(S, L):
                index = k0(S, L)
                key = getattr(S.lay, table_attr)[name].get(index)
                return key if key is not None else missing(S, index)
            return key1

        def keyn(S, L):
            index = tuple(k(S, L) for k in kfs)
            key = getattr(S.lay, table_attr)[name].get(index)
            return key if key is not None else missing(S, index)
        return keyn

    def _counter(self, name, keys, pos, sc):
        keyf = self._family_index("counter", name, keys, pos, sc)
        return lambda S, L: S.counters[keyf(S, L)]

    def _variable(self, name, keys, pos, sc):
        keyf = self._family_index("variable", name, keys, pos, sc)
        return lambda S, L: S.vars[keyf(S, L)]

    def x_Attr(self, n, sc):
        if isinstance(n.obj, ast.Name) and n.obj.id == "option" and sc.get("option") is None:
            name = n.name
            if name not in self.game.options:
                raise RuleError(f'unknown option "{name}"{suggest(name, self.game.options)}', n.pos, "E215")
            return lambda S, L: S.options[name]
        obj = self.expr(n.obj, sc)
        name = n.name
        if name not in self.known_attrs:
            raise RuleError(f'unknown attribute "{name}"{suggest(name, self.known_attrs)}', n.pos, "E216")
        if name == "id":
            return lambda S, L: int(obj(S, L))
        if name == "zone":
            return lambda S, L: S.loc[obj(S, L)]
        if name == "index":
            def index(S, L):
                p = obj(S, L)
                return S.zones[S.loc[p]].index(p)
            return index
        if name == "face_up":
            return lambda S, L: S.face_up(obj(S, L))
        if name == "pos":
            return lambda S, L: S.dyn.get("pos", {}).get(obj(S, L))
        if name in self.game.mutable_attrs:
            def mutable(S, L):
                v = obj(S, L)
                if type(v) is Piece:
                    d = S.dyn[name]
                    return d[v] if v in d else S.lay.static[v].get(name)
                return getattr_rt(S, v, name)
            return mutable

        def attr(S, L):
            v = obj(S, L)
            if type(v) is Piece:
                return S.lay.static[v].get(name)
            return getattr_rt(S, v, name)
        return attr

    def x_Index(self, n, sc):
        g = self.game
        if isinstance(n.obj, ast.Name) and sc.get(n.obj.id) is None:
            name = n.obj.id
            if name in g.zones:
                return self._family_index("zone", name, n.keys, n.pos, sc)
            if name in g.counters:
                return self._counter(name, n.keys, n.pos, sc)
            if name in g.variables:
                return self._variable(name, n.keys, n.pos, sc)
            if name in g.boards:
                board = g.boards[name]
                kf = self.expr(n.keys[0], sc)

                def node(S, L):
                    key = kf(S, L)
                    if key not in board.nodes:
                        raise RuleRuntimeError(f'board "{name}" has no node {key!r}')
                    return board.nodes[key]
                return node
        if len(n.keys) != 1:
            raise RuleError("only zones, counters and variables take several indexes", n.pos, "E214")
        obj = self.expr(n.obj, sc)
        kf = self.expr(n.keys[0], sc)
        return lambda S, L: index_rt(S, obj(S, L), kf(S, L))

    def x_Call(self, n, sc):
        if not isinstance(n.func, ast.Name) or sc.get(n.func.id) is not None:
            raise RuleError("only named functions can be called", n.pos, "E217")
        name = n.func.id
        fn = self.game.functions.get(name)
        if fn is not None:
            return self._user_call(fn, n, sc)
        b = REGISTRY.get(name)
        if b is None:
            raise RuleError(f'unknown function "{name}"'
                            f"{suggest(name, set(REGISTRY) | set(self.game.functions))}", n.pos, "E217")
        nargs = len(n.args)
        if nargs < b.min_args or (b.max_args is not None and nargs > b.max_args):
            want = f"{b.min_args}" if b.max_args == b.min_args else (
                f"{b.min_args} to {b.max_args}" if b.max_args is not None else f"at least {b.min_args}")
            raise RuleError(f"{name}() takes {want} argument{'s' if want != '1' else ''}, got {nargs}",
                            n.pos, "E218")
        for k, v in n.kwargs.items():
            if k not in b.kwargs:
                raise RuleError(f'{name}() has no argument "{k}"{suggest(k, b.kwargs)}', v.pos, "E218")
        args = [self._arg(a, sc) for a in n.args]
        kwargs = {k: self._arg(v, sc) for k, v in n.kwargs.items()}
        impl = b.fn
        if not kwargs:
            if len(args) == 1:
                a0 = args[0]
                return lambda S, L: impl(S, a0(S, L))
            if len(args) == 2:
                a0, a1 = args
                return lambda S, L: impl(S, a0(S, L), a1(S, L))
            return lambda S, L: impl(S, *[a(S, L) for a in args])
        return lambda S, L: impl(S, *[a(S, L) for a in args], **{k: v(S, L) for k, v in kwargs.items()})

    def _arg(self, node, sc):
        if isinstance(node, ast.Lambda):
            return self._lambda(node, sc)
        return self.expr(node, sc)

    def _lambda(self, n: ast.Lambda, sc: Scope) -> Callable:
        inner = Scope(sc)
        slot = f"{n.param}#{next(self.uniq)}"
        inner.names[n.param] = slot
        body = self.expr(n.body, inner)

        def make(S, L):
            def f(v):
                L[slot] = v
                return body(S, L)
            return f
        return make

    def x_Lambda(self, n, sc):
        raise RuleError("a lambda (x => …) can only be an argument of a function", n.pos, "E219")

    def _user_call(self, fn: Function, n: ast.Call, sc: Scope) -> Callable:
        if n.kwargs:
            raise RuleError(f"{fn.name}() takes positional arguments only", n.pos, "E218")
        if len(n.args) != len(fn.params):
            raise RuleError(f"{fn.name}() takes {len(fn.params)} argument"
                            f"{'s' if len(fn.params) != 1 else ''} ({', '.join(fn.params)}), "
                            f"got {len(n.args)}", n.pos, "E218")
        args = [self.expr(a, sc) for a in n.args]
        params = list(fn.params)
        if fn.proc is not None:
            proc = fn.proc
            self.atomic_calls.append((proc, n.pos))
            return lambda S, L: run_atomic(S, proc, dict(zip(params, [a(S, L) for a in args])))
        holder = fn  # body compiled later (functions may call each other)

        def call(S, L):
            return holder.expr(S, dict(zip(params, [a(S, L) for a in args])))
        return call

    def x_ListLit(self, n, sc):
        fs = [self.expr(x, sc) for x in n.items]
        return lambda S, L: [f(S, L) for f in fs]

    def x_TupleLit(self, n, sc):
        fs = [self.expr(x, sc) for x in n.items]
        return lambda S, L: tuple(f(S, L) for f in fs)

    def x_Comprehension(self, n, sc):
        it = self.expr(n.iter, sc)
        inner = Scope(sc)
        slot = f"{n.var}#{next(self.uniq)}"
        inner.names[n.var] = slot
        elt = self.expr(n.elt, inner)
        cond = self.expr(n.cond, inner) if n.cond is not None else None

        def comp(S, L):
            out = []
            for v in items(S, it(S, L)):
                L[slot] = v
                if cond is None or cond(S, L):
                    out.append(elt(S, L))
            return out
        return comp

    def x_BinOp(self, n, sc):
        a, b = self.expr(n.left, sc), self.expr(n.right, sc)
        op = _BINOPS[n.op]
        if n.op == "+":
            return lambda S, L: a(S, L) + b(S, L)
        if n.op == "-":
            return lambda S, L: a(S, L) - b(S, L)
        if n.op == "*":
            return lambda S, L: _times(a(S, L), b(S, L))
        return lambda S, L: op(a(S, L), b(S, L))

    def x_Compare(self, n, sc):
        a, b = self.expr(n.left, sc), self.expr(n.right, sc)
        if n.op == "in":
            return lambda S, L: contains(S, b(S, L), a(S, L))
        if n.op == "not in":
            return lambda S, L: not contains(S, b(S, L), a(S, L))
        if n.op == "==":
            return lambda S, L: a(S, L) == b(S, L)
        if n.op == "!=":
            return lambda S, L: a(S, L) != b(S, L)
        op = _COMPARE[n.op]

        def compare(S, L):
            x, y = a(S, L), b(S, L)
            if x is None or y is None:
                raise RuleRuntimeError(f"cannot compare none with {n.op}")
            return op(x, y)
        return compare

    def x_BoolOp(self, n, sc):
        a, b = self.expr(n.left, sc), self.expr(n.right, sc)
        if n.op == "and":
            return lambda S, L: a(S, L) and b(S, L)
        return lambda S, L: a(S, L) or b(S, L)

    def x_Not(self, n, sc):
        a = self.expr(n.operand, sc)
        return lambda S, L: not a(S, L)

    def x_Neg(self, n, sc):
        a = self.expr(n.operand, sc)
        return lambda S, L: -a(S, L)

    def x_Ternary(self, n, sc):
        c, a, b = self.expr(n.cond, sc), self.expr(n.then, sc), self.expr(n.orelse, sc)
        return lambda S, L: a(S, L) if c(S, L) else b(S, L)

    # ------------------------------------------------------------------ statements
    def block(self, stmts: list, ctx: _ProcCtx) -> None:
        for stmt in stmts:
            method = getattr(self, "s_" + type(stmt).__name__, None)
            if method is None:
                self.error(f"{type(stmt).__name__} is not a statement", stmt.pos, "E220")
                continue
            try:
                method(stmt, ctx)
            except RuleError as exc:
                self.errors.append(exc)

    def s_Let(self, n, ctx):
        if n.name in BUILTIN_NAMES:  # locals may shadow functions (new builtins never break rules)
            raise RuleError(f'"{n.name}" is a built-in name; choose another', n.pos, "E221")
        call = self._proc_call_target(n.value)
        if call is not None:
            ctx.scope.names[n.name] = n.name
            self._emit_proc_call(call, n.value, ctx, ret=n.name)
            return
        value = self.expr(n.value, ctx.scope)
        ctx.scope.names[n.name] = n.name
        slot = n.name
        ctx.emit(lambda S, th, fr: fr.L.__setitem__(slot, value(S, fr.L)), n.pos)

    def _proc_call_target(self, node) -> Function | None:
        """The procedure a statement-level call runs through the VM (None: evaluate normally)."""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            fn = self.game.functions.get(node.func.id)
            if fn is not None and fn.proc is not None:
                return fn
        return None

    def _emit_proc_call(self, fn: Function, call: ast.Call, ctx: _ProcCtx, ret: str | None) -> None:
        if call.kwargs or len(call.args) != len(fn.params):
            self.expr(call, ctx.scope)  # reports the arity error
            return
        args = [self.expr(a, ctx.scope) for a in call.args]
        params = list(fn.params)
        proc = fn.proc
        ctx.proc.calls.add(proc.name)

        def ins(S, th, fr):
            th.frames.append(Frame(proc, 0, dict(zip(params, [a(S, fr.L) for a in args])), ret))
            return FRAME
        ctx.emit(ins, call.pos)

    def s_Assign(self, n, ctx):
        target, sc = n.target, ctx.scope
        op = n.op
        if isinstance(target, ast.Name) and sc.get(target.id) is not None:
            slot = sc.get(target.id)
            call = self._proc_call_target(n.value) if op == "=" else None
            if call is not None:
                self._emit_proc_call(call, n.value, ctx, ret=slot)
                return
            ctx.emit(_set_local(slot, self.expr(n.value, sc), op), n.pos)
            return
        value = self.expr(n.value, sc)
        name = target.id if isinstance(target, ast.Name) else (
            target.obj.id if isinstance(target, ast.Index) and isinstance(target.obj, ast.Name) else None)
        keys = target.keys if isinstance(target, ast.Index) else []
        g = self.game
        if name is not None and name in g.counters and not (isinstance(target, ast.Index) and sc.get(name)):
            keyf = self._family_index("counter", name, keys, target.pos, sc)
            ctx.emit(_set_counter(keyf, value, op), n.pos)
            return
        if name is not None and name in g.variables:
            keyf = self._family_index("variable", name, keys, target.pos, sc)
            ctx.emit(_set_variable(keyf, value, op), n.pos)
            return
        if isinstance(target, ast.Attr):
            self._assign_attr(target, value, op, n, ctx)
            return
        if isinstance(target, ast.Name):
            raise RuleError(f'cannot assign to "{target.id}": declare a local with `let {target.id} = …` '
                            "or assign a counter or variable"
                            f"{suggest(target.id, sc.all_names() | set(g.counters) | set(g.variables))}",
                            target.pos, "E222")
        raise RuleError("cannot assign to this expression", target.pos, "E222")

    def _assign_attr(self, target: ast.Attr, value, op, n, ctx):
        name = target.name
        obj = self.expr(target.obj, ctx.scope)
        if name == "face_up":
            def set_face(S, th, fr):
                for p in _as_pieces(S, obj(S, fr.L)):
                    S.set_face(p, bool(value(S, fr.L)))
            ctx.emit(set_face, n.pos)
            return
        if name not in self.game.mutable_attrs:
            raise RuleError(f'attribute "{name}" cannot be changed: declare it under the component\'s '
                            f"`mutable:`{suggest(name, self.game.mutable_attrs)}", target.pos, "E223")
        combine = _combiner(op)

        def set_attr(S, th, fr):
            p = obj(S, fr.L)
            if type(p) is not Piece:
                raise RuleRuntimeError(f'only pieces have changeable attributes (setting "{name}")')
            v = value(S, fr.L)
            if combine is not None:
                d = S.dyn[name]
                v = combine(d[p] if p in d else S.lay.static[p].get(name), v)
            S.dyn[name][p] = v
        ctx.emit(set_attr, n.pos)

    def s_ExprStmt(self, n, ctx):
        call = self._proc_call_target(n.expr)
        if call is not None:
            self._emit_proc_call(call, n.expr, ctx, ret=None)
            return
        if not isinstance(n.expr, ast.Call):
            raise RuleError("this expression does nothing as a statement (did you mean `=` or a call?)",
                            n.pos, "E224")
        f = self.expr(n.expr, ctx.scope)
        ctx.emit(lambda S, th, fr: f(S, fr.L) and None, n.pos)

    def s_Move(self, n, ctx):
        what = self.expr(n.what, ctx.scope)
        to = self.expr(n.to, ctx.scope)
        at = self.expr(n.at, ctx.scope) if n.at is not None else None
        place, face = n.place, n.face

        def move(S, th, fr):
            dest = to(S, fr.L)
            if type(dest) is not ZoneRef:
                raise RuleRuntimeError(f"move needs a zone to move to, got {dest!r}")
            S.move(_as_pieces(S, what(S, fr.L)), dest, place, at(S, fr.L) if at else None, face)
        ctx.emit(move, n.pos)

    def s_Draw(self, n, ctx):
        count, src, dst = (self.expr(x, ctx.scope) for x in (n.count, n.source, n.dest))
        face = n.face

        def draw(S, th, fr):
            k = count(S, fr.L)
            source, dest = src(S, fr.L), dst(S, fr.L)
            S.move(S.zones[source][:max(0, k)], dest, None, None, face)
        ctx.emit(draw, n.pos)

    def s_Deal(self, n, ctx):
        count, src, fam = (self.expr(x, ctx.scope) for x in (n.count, n.source, n.family))
        face = n.face

        def deal(S, th, fr):
            k, source, family = count(S, fr.L), src(S, fr.L), fam(S, fr.L)
            table = S.lay.zone_index.get(str(family))
            if type(family) is not Family or table is None:
                raise RuleRuntimeError(f"deal needs a per-player zone family (e.g. `hand`), got {family!r}")
            for _ in range(k):
                for p in S.players:
                    zone = S.zones[source]
                    if not zone:
                        return None
                    S.move([zone[0]], table[p], None, None, face)
        ctx.emit(deal, n.pos)

    def s_Shuffle(self, n, ctx):
        z = self.expr(n.zone, ctx.scope)
        ctx.emit(lambda S, th, fr: S.shuffle(z(S, fr.L)), n.pos)

    def s_Flip(self, n, ctx):
        what = self.expr(n.what, ctx.scope)
        face = n.face

        def flip(S, th, fr):
            for p in _as_pieces(S, what(S, fr.L)):
                S.set_face(p, (not S.face_up(p)) if face is None else face)
        ctx.emit(flip, n.pos)

    def s_Reveal(self, n, ctx):
        what = self.expr(n.what, ctx.scope)
        to = self.expr(n.to, ctx.scope) if n.to is not None else None

        def reveal(S, th, fr):
            pieces = _as_pieces_or_zones(S, what(S, fr.L))
            if to is None:
                for p in pieces:
                    S.set_face(p, True)
            else:
                players = _as_players(S, to(S, fr.L))
                for p in pieces:
                    S.reveal_to(p, players)
        ctx.emit(reveal, n.pos)

    def s_Roll(self, n, ctx):
        what = self.expr(n.what, ctx.scope)
        game = self.game

        def roll(S, th, fr):
            values = S.dyn.setdefault("value", {})
            for p in _as_pieces(S, what(S, fr.L)):
                faces = game.components[S.lay.component[p]].faces
                if not faces:
                    raise RuleRuntimeError(f"{S.lay.static[p]['name']} is not a die (no faces)")
                values[p] = faces[S.rng.below(len(faces))]
        ctx.emit(roll, n.pos)

    def _chooser(self, by, ctx, pos) -> Callable:
        if by is not None:
            return self.expr(by, ctx.scope)
        if ctx.chooser is None:
            raise RuleError("who decides? add `by <player>` (no `player` is defined here)", pos, "E225")
        slot = ctx.chooser
        return lambda S, L: L[slot]

    def s_Choose(self, n, ctx):
        sc = ctx.scope
        source = self.expr(n.source, sc)
        slot = n.var
        sc.names[n.var] = slot
        where = self.expr(n.where, sc) if n.where is not None else None
        who = self._chooser(n.by, ctx, n.pos)
        low = self.expr(n.low, sc) if n.low is not None else None
        high = self.expr(n.high, sc) if n.high is not None else None
        mode, optional, prompt, pos = n.count, n.optional, n.prompt, n.pos
        ctx.proc.suspends = True

        def choose(S, th, fr):
            L = fr.L
            candidates = items(S, source(S, L))
            if where is not None:
                kept = []
                for v in candidates:
                    L[slot] = v
                    if where(S, L):
                        kept.append(v)
                candidates = kept
            else:
                candidates = list(candidates)
            if mode == "one":
                lo, hi = 1, 1
            elif mode == "exact":
                lo = hi = low(S, L)
            elif mode == "up_to":
                lo, hi = 0, high(S, L)
            else:
                lo, hi = low(S, L), high(S, L)
            return start_choice(S, th, fr, who(S, L), candidates, mode, lo, hi, optional, slot,
                                prompt, pos)
        ctx.emit(choose, n.pos)

    def s_Perform(self, n, ctx):
        actions = []
        for name, pos in n.actions:
            act = self.game.actions.get(name)
            if act is None:
                self.error(f'unknown action "{name}"{suggest(name, self.game.actions)}', pos, "E226")
            else:
                actions.append(act)
        who = self._chooser(n.by, ctx, n.pos)
        slot = f"$act{next(self.uniq)}"
        who_slot = slot + "who"
        optional, prompt, pos = n.optional, n.prompt, n.pos
        ctx.proc.suspends = True
        for act in actions:
            ctx.proc.calls.add(act.proc.name)

        def perform(S, th, fr):
            p = who(S, fr.L)
            fr.L[who_slot] = p
            legal = [a for a in actions if a.when is None or a.when(S, {"player": p})]
            return start_perform(S, th, fr, p, legal, optional, slot, prompt, pos)

        procs = {a.name: a.proc for a in actions}

        def run_action(S, th, fr):
            name = fr.L.pop(slot, None)
            if name is None:
                return None
            th.frames.append(Frame(procs[name], 0, {"player": fr.L[who_slot]}))
            return FRAME

        def action_end(S, th, fr):
            proc = S.game.procs.get("event:action_end")
            if proc is None:
                return None
            th.frames.append(Frame(proc, 0, {"player": fr.L[who_slot]}))
            return FRAME
        ctx.emit(perform, n.pos)
        ctx.emit(run_action, n.pos)
        ctx.emit(action_end, n.pos)

    def s_Log(self, n, ctx):
        segments = self._log_segments(n, ctx)

        def log(S, th, fr):
            if S.logging:
                S.log.append(log_entry(S, [s if type(s) is str else s(S, fr.L) for s in segments], th))
        ctx.emit(log, n.pos)

    def _log_segments(self, n: ast.Log, ctx: _ProcCtx) -> list:
        text, out, i, buf = n.text, [], 0, []
        base = n.text_pos or n.pos
        while i < len(text):
            ch = text[i]
            if ch == "{" and text[i:i + 2] == "{{":
                buf.append("{")
                i += 2
            elif ch == "}" and text[i:i + 2] == "}}":
                buf.append("}")
                i += 2
            elif ch == "{":
                end = text.find("}", i)
                if end < 0:
                    raise RuleError('unclosed "{" in log text', base, "E227")
                if buf:
                    out.append("".join(buf))
                    buf = []
                src = SourceMap(base.file, base.line, base.col + 1 + i + 1, None, 0)
                node = parse_expr(text[i + 1:end], src)
                out.append(self.expr(node, ctx.scope))
                i = end + 1
            else:
                buf.append(ch)
                i += 1
        if buf:
            out.append("".join(buf))
        return out

    def s_EndGame(self, n, ctx):
        reason = n.reason

        def end(S, th, fr):
            S.vars["end_reason"] = reason
            return END
        ctx.emit(end, n.pos)

    def s_Return(self, n, ctx):
        value = self.expr(n.value, ctx.scope) if n.value is not None else None
        ctx.emit(_return(value), n.pos)

    def s_Emit(self, n, ctx):
        event = "event:" + n.event
        self.events_emitted.add(n.event)

        def emit(S, th, fr):
            proc = S.game.procs.get(event)
            if proc is None:
                return None
            th.frames.append(Frame(proc, 0, {"player": fr.L.get("player")}))
            return FRAME
        ctx.emit(emit, n.pos)

    def s_Pass(self, n, ctx):
        pass

    def s_Break(self, n, ctx):
        if not ctx.loops:
            raise RuleError("`break` outside a loop", n.pos, "E228")
        ctx.loops[-1].breaks.append(ctx.emit(None, n.pos))

    def s_Continue(self, n, ctx):
        if not ctx.loops:
            raise RuleError("`continue` outside a loop", n.pos, "E228")
        ctx.loops[-1].continues.append(ctx.emit(None, n.pos))

    def s_If(self, n, ctx):
        ends = []
        for cond_node, body in n.branches:
            cond = self.expr(cond_node, ctx.scope)
            test = ctx.emit(None, cond_node.pos)
            self.block(body, ctx)
            ends.append(ctx.emit(None, cond_node.pos))
            ctx.proc.code[test] = _jump_if_false(cond, ctx.here())
        self.block(n.orelse, ctx)
        for at in ends:
            ctx.patch_jump(at, ctx.here())

    def s_For(self, n, ctx):
        it = self.expr(n.iter, ctx.scope)
        k = next(self.uniq)
        seq_slot, i_slot, var = f"$seq{k}", f"$i{k}", n.var
        ctx.scope.names[var] = var

        def start(S, th, fr):
            fr.L[seq_slot] = list(items(S, it(S, fr.L)))
            fr.L[i_slot] = 0
        ctx.emit(start, n.pos)
        head = ctx.here()
        test = ctx.emit(None, n.pos)
        exit_target: list[int] = []

        def step(S, th, fr, _t=exit_target):
            L = fr.L
            i = L[i_slot]
            seq = L[seq_slot]
            if i >= len(seq):
                del L[seq_slot], L[i_slot]
                fr.pc = _t[0]
                return None
            L[var] = seq[i]
            L[i_slot] = i + 1
        ctx.proc.code[test] = step
        self._loop_with_cleanup(ctx, head, n.body, exit_target, [seq_slot, i_slot])

    def _loop_with_cleanup(self, ctx, head, body, exit_target, slots):
        loop = _Loop()
        ctx.loops.append(loop)
        self.block(body, ctx)
        ctx.loops.pop()
        ctx.emit(_jump(head), None)
        exit_target.append(ctx.here())
        if loop.breaks:  # a break skips the loop's own cleanup: do it here
            after = ctx.here()

            def cleanup(S, th, fr):
                for s in slots:
                    fr.L.pop(s, None)
            for at in loop.breaks:
                ctx.proc.code[at] = _jump(after)
            ctx.emit(cleanup, None)
            exit_target[0] = ctx.here()
        for at in loop.continues:
            ctx.patch_jump(at, head)

    def s_Repeat(self, n, ctx):
        count = self.expr(n.count, ctx.scope)
        k = next(self.uniq)
        slot = f"$rep{k}"
        ctx.emit(lambda S, th, fr: fr.L.__setitem__(slot, count(S, fr.L)), n.pos)
        head = ctx.here()
        test = ctx.emit(None, n.pos)
        exit_target: list[int] = []

        def step(S, th, fr, _t=exit_target):
            left = fr.L[slot]
            if left <= 0:
                del fr.L[slot]
                fr.pc = _t[0]
                return None
            fr.L[slot] = left - 1
        ctx.proc.code[test] = step
        self._loop_with_cleanup(ctx, head, n.body, exit_target, [slot])

    def s_While(self, n, ctx):
        cond = self.expr(n.cond, ctx.scope)
        head = ctx.here()
        test = ctx.emit(None, n.pos)
        exit_target: list[int] = []

        def step(S, th, fr, _t=exit_target):
            if not cond(S, fr.L):
                fr.pc = _t[0]
        ctx.proc.code[test] = step
        self._loop_with_cleanup(ctx, head, n.body, exit_target, [])

    def s_Simultaneous(self, n, ctx):
        if ctx.in_simultaneous:
            raise RuleError("a simultaneous block cannot be inside another one", n.pos, "E229")
        it = self.expr(n.iter, ctx.scope)
        body_proc = Proc(f"{ctx.proc.name}/simultaneous@{n.pos.line}:{n.pos.col}", [], decl_pos=n.pos)
        self.game.procs[body_proc.name] = body_proc
        inner = Scope(ctx.scope)
        inner.names[n.var] = n.var
        body_ctx = _ProcCtx(body_proc, inner, n.var, True)
        self.block(n.body, body_ctx)
        body_ctx.emit(_return(None), n.pos)
        ctx.proc.suspends = True
        var = n.var

        def spawn(S, th, fr):
            players = items(S, it(S, fr.L))
            if not players:
                return None
            from .vm import new_thread
            for p in players:
                L = fr.L.copy()
                L[var] = p
                new_thread(S, [Frame(body_proc, 0, L)], player=p, parent=th.tid)
            th.waiting = len(players)
            return WAIT
        ctx.emit(spawn, n.pos)


def _as_pieces_or_zones(S, value):
    if isinstance(value, list) and value and all(type(v) is ZoneRef for v in value):
        return [p for z in value for p in S.zones[z]]
    return _as_pieces(S, value)


MAX_SEQUENCE = 1_000_000


def _times(x: Any, y: Any) -> Any:
    """x * y, refusing to build huge lists or strings (a typo must not exhaust memory)."""
    if isinstance(x, (list, str, tuple)) or isinstance(y, (list, str, tuple)):
        seq, k = (x, y) if isinstance(x, (list, str, tuple)) else (y, x)
        if isinstance(k, int) and len(seq) * k > MAX_SEQUENCE:
            raise RuleRuntimeError(f"a sequence of {len(seq) * k} elements is too large (limit {MAX_SEQUENCE})")
    return x * y


def _combiner(op: str):
    return {"=": None, "+=": operator.add, "-=": operator.sub, "*=": operator.mul}[op]


def _set_local(slot, value, op):
    combine = _combiner(op)
    if combine is None:
        return lambda S, th, fr: fr.L.__setitem__(slot, value(S, fr.L))

    def ins(S, th, fr):
        fr.L[slot] = combine(fr.L[slot], value(S, fr.L))
    return ins


def _set_counter(keyf, value, op):
    combine = _combiner(op)

    def ins(S, th, fr):
        key = keyf(S, fr.L)
        v = value(S, fr.L)
        if combine is not None:
            v = combine(S.counters[key], v)
        if not isinstance(v, int) or isinstance(v, bool):
            raise RuleRuntimeError(f"counter {key} must hold an integer, got {v!r}")
        S.set_counter(key, v)
    return ins


def _set_variable(keyf, value, op):
    combine = _combiner(op)

    def ins(S, th, fr):
        key = keyf(S, fr.L)
        v = value(S, fr.L)
        if combine is not None:
            v = combine(S.vars[key], v)
        S.vars[key] = v
    return ins


def _with_pos(f: Callable, pos: Pos) -> Callable:
    try:
        f.pos = pos
    except AttributeError:  # pragma: no cover - builtins without __dict__
        pass
    return f
