"""Expressions → Python source → Python functions.

Each DSL expression becomes one generated function `lambda S, L: <python>` (S: the state, L:
the frame's locals). DSL lambdas become Python lambdas and comprehensions Python comprehensions,
so a rule runs as plain Python without walking a tree or calling a closure per node. Names are
resolved and checked here, at load time, with "did you mean" suggestions.

Generated code only refers to the state, the locals, and helpers/constants placed in the
namespace `self.env` under names starting with "_".
"""
from __future__ import annotations

import itertools
import re
from typing import Any, Callable

from . import ast
from .budget import CALL_WORK, METER, add as budget_add, charge, tick, times
from .builtins import REGISTRY, items
from .errors import Pos, RuleError, RuleRuntimeError, suggest
from .model import Function, GameDef
from .pycode import make_function
from .values import Family, Piece, ZoneRef
from .vm import run_atomic

PIECE_ATTRS = {"id", "name", "kind", "label", "owner", "zone", "index", "face_up", "pos"}
BUILTIN_NAMES = {"players", "player_count", "round", "phase", "option", "game_over"}
_SIMPLE = (int, str, bool, float, type(None))
MAX_SUGGESTED = 200  # errors of one game that get a "did you mean" (each costs a fuzzy search)


# ---------------------------------------------------------------------- runtime helpers
def contains(S: Any, container: Any, x: Any) -> bool:
    t = type(container)
    if t is ZoneRef:
        return x in S.zones[container]
    if t is Family:
        return x in S.lay.family_zones[container]
    if container is None:
        return False
    return x in container


def getattr_rt(S: Any, value: Any, name: str) -> Any:
    if type(value) is Piece:
        return S.lay.static[value].get(name)
    if isinstance(value, dict):
        return value.get(name)
    if value is None:
        raise RuleRuntimeError(f'none has no attribute "{name}"')
    raise RuleRuntimeError(f'{value!r} has no attribute "{name}"')


def mutable_attr(S: Any, value: Any, name: str) -> Any:
    if type(value) is Piece:
        d = S.dyn[name]
        return d[value] if value in d else S.lay.static[value].get(name)
    return getattr_rt(S, value, name)


def index_rt(S: Any, value: Any, key: Any) -> Any:
    if type(value) is ZoneRef:
        return S.zones[value][key]
    if type(value) is Piece:  # piece["attr"] reads an attribute, like piece.attr
        return mutable_attr(S, value, key) if key in S.dyn else S.lay.static[value].get(key)
    if value is None:
        raise RuleRuntimeError("cannot index none")
    if isinstance(value, dict):
        return value.get(key)
    return value[key]


def piece_or_attr_id(S: Any, value: Any) -> Any:
    return int(value) if type(value) is Piece else getattr_rt(S, value, "id")


def piece_index(S: Any, p: Any) -> int:
    return S.zones[S.loc[p]].index(p)


def board_node(board: Any, key: Any) -> dict:
    node = board.nodes.get(key)
    if node is None:
        raise RuleRuntimeError(f'board "{board.id}" has no node {key!r}')
    return node


def modulo(x: Any, y: Any) -> Any:
    """x % y on numbers only (on a text, % would format it: "%0999999999d" % 1 is a gigabyte)."""
    if type(x) is str:
        raise RuleRuntimeError("% works on numbers, not on text")
    return x % y


def fail(S, L):  # stands in for an expression that did not compile (an error is recorded)
    raise RuleRuntimeError("this rule did not compile")


# ---------------------------------------------------------------------- scopes
class Scope:
    """Names visible at a point. Frame locals live in L (name → slot); lambda and
    comprehension variables are Python variables of the generated code (name → identifier)."""

    def __init__(self, parent: "Scope | None" = None):
        self.parent = parent
        self.names: dict[str, str] = {}  # frame locals: name -> slot in L
        self.py: dict[str, str] = {}  # generated-code variables: name -> identifier
        self.pieces: set[str] = set()  # identifiers surely holding a Piece (they iterate a zone)
        self.rows: set[str] = set()  # identifiers surely holding a table row (a dict)
        self.seqs: set[str] = set()  # identifiers surely holding a list or tuple (a table's cell)

    def is_piece(self, ident: str) -> bool:
        return self._marked(ident, "pieces")

    def is_row(self, ident: str) -> bool:
        return self._marked(ident, "rows")

    def is_seq(self, ident: str) -> bool:
        return self._marked(ident, "seqs")

    def _marked(self, ident: str, kind: str) -> bool:
        """Whether this scope or an enclosing one lists `ident` in its set `kind`."""
        scope = self
        while scope is not None:
            if ident in getattr(scope, kind):
                return True
            scope = scope.parent
        return False

    def lookup(self, name: str) -> str | None:
        """Python code reading `name`, or None if it is not a local."""
        scope = self
        while scope is not None:
            if name in scope.py:
                return scope.py[name]
            if name in scope.names:
                return f"L[{scope.names[name]!r}]"
            scope = scope.parent
        return None

    def get(self, name: str) -> str | None:
        """The slot of a frame local (None if `name` is not one, or is hidden by a lambda variable)."""
        scope = self
        while scope is not None:
            if name in scope.py:
                return None
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return None

    def bound(self, name: str) -> bool:
        return self.lookup(name) is not None

    def all_names(self) -> set:
        out, scope = set(), self
        while scope is not None:
            out |= set(scope.names) | set(scope.py)
            scope = scope.parent
        return out


# ---------------------------------------------------------------------- the generator
class ExprGen:
    """Generates Python source for DSL expressions of one game and compiles it."""

    def __init__(self, game: GameDef, errors: list):
        self.game = game
        self.errors = errors
        self.uniq = itertools.count()
        self.atomic_calls: list = []
        self.env = game.code_env  # one namespace per game: every generator adds to it
        self.env.update({
            "Piece": Piece, "ZoneRef": ZoneRef, "_items": items, "_contains": contains, "_getattr": getattr_rt,
            "_mut": mutable_attr, "_index": index_rt, "_pindex": piece_index,
            "_node": board_node, "_times": times, "_add": budget_add, "_charge": charge, "_tick": tick,
            "_mod": modulo, "_run_atomic": run_atomic, "_fail": fail,
            "_piece_or_attr_id": piece_or_attr_id, "_METER": METER,
        })
        self.consts: dict[int, str] = self.env.setdefault("_consts", {})
        self.fn_nodes: dict[str, ast.Node] = {}  # expression functions' bodies, known before compiling
        self._lists: dict[str, bool] = {}  # expression function → surely returns a list
        self._record: list | None = None  # (node, source) of the reads in the body being compiled
        self._calm: dict[str, bool] = {}  # expression function → changes nothing (see calm)
        self._family_numbers: dict[str, dict] = {}  # kind → {family name → number} (see _numbers)

    # ---- entry points
    def function(self, node: ast.Node, sc: Scope) -> Callable:
        """A Python function f(S, L) computing the expression."""
        src = self.source(node, sc)
        if src == "_fail(S, L)":
            return fail
        try:
            f = make_function(f"lambda S, L: {src}", _filename(node.pos), self.env)
        except (SyntaxError, RecursionError) as exc:  # pragma: no cover - generator bug
            self.errors.append(RuleError(f"internal: cannot compile expression ({exc})", node.pos, "E299"))
            return fail
        f.pos = node.pos
        return f

    def source(self, node: ast.Node, sc: Scope) -> str:
        method = getattr(self, "x_" + type(node).__name__, None)
        if method is None:
            self.errors.append(RuleError(f"{type(node).__name__} is not an expression", node.pos, "E211"))
            return "_fail(S, L)"
        try:
            out = method(node, sc)
        except RuleError as exc:
            self.errors.append(exc)
            return "_fail(S, L)"
        if self._record is not None and isinstance(node, _READS):
            self._record.append((node, out))
        return out

    def const(self, value: Any) -> str:
        """A name in the generated code's namespace holding `value`."""
        if type(value) in _SIMPLE and not isinstance(value, (ZoneRef, Family)) and type(value) is not Piece:
            return repr(value)
        key = id(value)
        name = self.consts.get(key)
        if name is None:
            name = f"_k{len(self.consts)}"
            self.consts[key] = name
            self.env[name] = value
            self.env.setdefault("_keep", []).append(value)  # keeps id() stable
        return name

    def suggest(self, name: str, candidates) -> str:
        """' (did you mean …?)', while errors are few: a hostile file with thousands of unknown
        names among thousands of locals must not take minutes to report them."""
        return suggest(name, candidates) if len(self.errors) < MAX_SUGGESTED else ""

    def global_names(self) -> set:
        g = self.game
        return (set(g.zones) | set(g.counters) | set(g.variables) | set(g.tables) |
                set(g.components) | set(g.functions) | set(g.boards) | BUILTIN_NAMES |
                set(REGISTRY))

    # ---- names
    def x_Const(self, n, sc):
        return self.const(n.value)

    def x_Name(self, n, sc):
        name = n.id
        local = sc.lookup(name)
        if local is not None:
            return local
        g = self.game
        if name == "players":
            return "S.players"
        if name == "player_count":
            return "S.n"
        if name == "game_over":
            return "S.over"
        if name in g.variables:
            return self.family_value("variable", name, [], n.pos, sc)
        if name in g.zones:
            return self.const(Family(name) if g.zones[name].dims else ZoneRef(name))
        if name in g.counters:
            return self.family_value("counter", name, [], n.pos, sc)
        if name in g.tables:
            return self.const(g.tables[name])
        if name in g.components or name in g.boards or name in g.actions:
            return repr(str(name))
        if name == "option":
            raise RuleError('options are read as option.<id>, e.g. "option.short_game"', n.pos, "E212")
        if name in g.functions or name in REGISTRY:
            raise RuleError(f'"{name}" is a function: call it with (...)', n.pos, "E212")
        if name == "player":
            raise RuleError('"player" is not defined here (it exists inside turns, actions and '
                            "simultaneous blocks); pass the player in explicitly", n.pos, "E213")
        hint = (len(self.errors) < MAX_SUGGESTED and self.suggest(name, sc.all_names() | self.global_names())) or \
            f" (a text value needs quotes: '{name}')"
        raise RuleError(f'unknown name "{name}"{hint}', n.pos, "E213")

    def family_key(self, kind: str, name: str, keys: list, pos: Pos, sc: Scope) -> str:
        """Code giving the key of zone/counter/variable `name[keys]`."""
        g = self.game
        families = {"zone": g.zones, "counter": g.counters, "variable": g.variables}[kind]
        fam = families[name]
        if len(keys) != len(fam.dims):
            want = len(fam.dims)
            raise RuleError(f'{kind} "{name}" takes {want} index{"es" if want != 1 else ""} '
                            f"({', '.join(d.kind for d in fam.dims) or 'none'}), got {len(keys)}",
                            pos, "E214")
        if not keys:
            return self.const(ZoneRef(name)) if kind == "zone" else repr(name)
        parts = [self.source(k, sc) for k in keys]
        if all(_cheap(p) or _LITERAL.match(p) for p in parts[1:]):
            # the family's table by its number (layout.nested: a table per dimension); each
            # index after the first is a plain read, so looking up the first one before reading
            # the next changes nothing (the flat table reads all of them, then looks up)
            number = self._numbers(kind, families)[name]
            return f"S.lay.{kind}_tables[{number}]" + "".join(f"[{p}]" for p in parts)
        table = {"zone": "zone_index", "counter": "counter_index", "variable": "variable_index"}[kind]
        index = parts[0] if len(parts) == 1 else "(" + ", ".join(parts) + ",)"
        return f"S.lay.{table}[{name!r}][{index}]"  # a missing index: layout.IndexTable

    def _numbers(self, kind: str, families: dict) -> dict:
        """Family name -> its place among the game's families of `kind` (as in layout.Layout's
        zone_tables, counter_tables and variable_tables)."""
        numbers = self._family_numbers.get(kind)
        if numbers is None or len(numbers) != len(families):
            numbers = self._family_numbers[kind] = {name: i for i, name in enumerate(families)}
        return numbers

    def family_value(self, kind: str, name: str, keys: list, pos: Pos, sc: Scope) -> str:
        key = self.family_key(kind, name, keys, pos, sc)
        return f"S.counters[{key}]" if kind == "counter" else f"S.vars[{key}]"

    # ---- attributes and indexes
    def x_Attr(self, n, sc):
        if isinstance(n.obj, ast.Name) and n.obj.id == "option" and not sc.bound("option"):
            name = n.name
            if name not in self.game.options:
                raise RuleError(f'unknown option "{name}"{self.suggest(name, self.game.options)}', n.pos, "E215")
            return f"S.options[{name!r}]"
        obj = self.source(n.obj, sc)
        name = n.name
        known = self.game.known_attrs
        if name not in known:
            raise RuleError(f'unknown attribute "{name}"{self.suggest(name, known)}', n.pos, "E216")
        if name == "id":  # a piece's number; `id` of a map (a table row) is its key
            if _cheap(obj):
                return f"(int({obj}) if type({obj}) is Piece else _getattr(S, {obj}, 'id'))"
            return f"_piece_or_attr_id(S, {obj})"
        if name == "zone":
            return f"S.loc[{obj}]"
        if name == "index":
            return f"_pindex(S, {obj})"
        if name == "face_up":
            return f"S.face_up({obj})"
        if name == "pos":
            return f"S.dyn['pos'].get({obj})"
        # a piece's static value: one table per attribute (layout.AttrColumns); a value that can
        # change: the piece's entry in S.dyn, else the static one
        static = f"S.lay.cols[{name!r}][{obj}]"
        piece = static
        if name in self.game.mutable_attrs:
            piece = f"S.dyn[{name!r}].get({obj}, {static})"
        if obj.isidentifier() and sc.is_piece(obj):
            return piece
        if obj.isidentifier() and sc.is_row(obj):  # a table's row, as in getattr_rt
            return f"{obj}.get({name!r})"
        if _CONST.match(obj) and type(self.env.get(obj)) is dict:  # a table's row
            return f"{obj}.get({name!r})"
        if _cheap(obj):  # a variable: read it twice rather than call a helper
            return f"({piece} if type({obj}) is Piece else _getattr(S, {obj}, {name!r}))"
        if name in self.game.mutable_attrs:
            return f"_mut(S, {obj}, {name!r})"
        return f"_getattr(S, {obj}, {name!r})"

    def x_Index(self, n, sc):
        g = self.game
        if isinstance(n.obj, ast.Name) and not sc.bound(n.obj.id):
            name = n.obj.id
            if name in g.zones:
                return self.family_key("zone", name, n.keys, n.pos, sc)
            if name in g.counters:
                return self.family_value("counter", name, n.keys, n.pos, sc)
            if name in g.variables and g.variables[name].dims:  # a plain variable: index its value
                return self.family_value("variable", name, n.keys, n.pos, sc)
            if name in g.boards:
                return f"_node({self.const(g.boards[name])}, {self.source(n.keys[0], sc)})"
        if len(n.keys) != 1:
            raise RuleError("only zones, counters and variables take several indexes", n.pos, "E214")
        obj, key = self.source(n.obj, sc), self.source(n.keys[0], sc)
        if _CONST.match(obj):  # a table: what index_rt does for its type, without the tests
            t = type(self.env.get(obj))
            if t is dict:
                return f"{obj}.get({key})"
            if t is list or t is tuple:
                return f"{obj}[{key}]"
        if obj.isidentifier() and sc.is_seq(obj):  # surely a list or tuple (mark)
            return f"{obj}[{key}]"
        if _cheap(obj):  # a variable: a list or tuple (a cell, a row of a table) indexed directly
            return f"({obj}[{key}] if type({obj}) is tuple or type({obj}) is list else _index(S, {obj}, {key}))"
        return f"_index(S, {obj}, {key})"

    # ---- calls
    def x_Call(self, n, sc):
        if not isinstance(n.func, ast.Name) or sc.bound(n.func.id):
            raise RuleError("only named functions can be called", n.pos, "E217")
        name = n.func.id
        fn = self.game.functions.get(name)
        if fn is not None:
            return self.user_call(fn, n, sc)
        inline = _INLINE.get(name)
        if inline is not None and not n.kwargs and name in REGISTRY:
            src = inline(self, n.args, sc)
            if src is not None:
                return src
        b = REGISTRY.get(name)
        if b is None:
            raise RuleError(f'unknown function "{name}"'
                            f"{self.suggest(name, set(REGISTRY) | set(self.game.functions))}", n.pos, "E217")
        nargs = len(n.args)
        if nargs < b.min_args or (b.max_args is not None and nargs > b.max_args):
            want = f"{b.min_args}" if b.max_args == b.min_args else (
                f"{b.min_args} to {b.max_args}" if b.max_args is not None else f"at least {b.min_args}")
            raise RuleError(f"{name}() takes {want} argument{'s' if want != '1' else ''}, got {nargs}",
                            n.pos, "E218")
        for k, v in n.kwargs.items():
            if k not in b.kwargs:
                raise RuleError(f'{name}() has no argument "{k}"{self.suggest(k, b.kwargs)}', v.pos, "E218")
        args = [self.arg(a, sc) for a in n.args]
        args += [f"{k}={self.arg(v, sc)}" for k, v in n.kwargs.items()]
        impl = self.const(b.fn)
        return f"{impl}(S{''.join(', ' + a for a in args)})"

    def arg(self, node, sc):
        if isinstance(node, ast.Lambda):
            inner = Scope(sc)
            ident = f"_v{next(self.uniq)}"
            inner.py[node.param] = ident
            return f"(lambda {ident}: {self.source(node.body, inner)})"
        return self.source(node, sc)

    def x_Lambda(self, n, sc):
        raise RuleError("a lambda (x => …) can only be an argument of a function", n.pos, "E219")

    def user_call(self, fn: Function, n: ast.Call, sc: Scope) -> str:
        if n.kwargs:
            raise RuleError(f"{fn.name}() takes positional arguments only", n.pos, "E218")
        if len(n.args) != len(fn.params):
            raise RuleError(f"{fn.name}() takes {len(fn.params)} argument"
                            f"{'s' if len(fn.params) != 1 else ''} ({', '.join(fn.params)}), "
                            f"got {len(n.args)}", n.pos, "E218")
        if fn.proc is not None:
            args = "{" + ", ".join(f"{p!r}: {self.source(a, sc)}" for p, a in zip(fn.params, n.args)) + "}"
            self.atomic_calls.append((fn.proc, n.pos))
            return f"_run_atomic(S, {self.const(fn.proc)}, {args})"
        # an expression function is a real Python function (its body may be compiled later:
        # the name is looked up when the call runs)
        return f"_f_{fn.name}(S{''.join(', ' + self.source(a, sc) for a in n.args)})"

    def function_def(self, fn: Function, node: ast.Node) -> Callable:
        """Compile an expression function's body as `_f_<name>(S, *params)`."""
        sc = Scope()
        idents = []
        for i, param in enumerate(fn.params):
            ident = f"_a{i}_{param}"
            sc.py[param] = ident
            idents.append(ident)
        self._record = []
        try:
            src = self.source(node, sc)
            reads = self._record
        finally:
            self._record = None
        lines = [f"def _f_{fn.name}(S{''.join(', ' + a for a in idents)}):"]
        if any(isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id in self.game.functions
               for c in ast.walk(node)):
            # calls others: counted (budget.tick, written out), so call trees cannot explode
            lines += [f"    _m = _METER", f"    _m.work += {CALL_WORK}",
                      "    if _m.work > _m.limits.work:", "        _tick(0)"]
        shared = self.shared_reads(src, reads) if self.calm(fn.name, node) else []
        if shared:
            # a read written several times is made once, first: nothing in the body changes the
            # state, so each later read would give the same value; if one fails, the body runs
            # as written (the error then comes where and when it came before)
            short = src
            for name, text in shared:
                short = _swap(short, text, name)
            body = self.return_lines(node, sc)
            lines.append("    try:")
            lines += [f"        {name} = {text}" for name, text in _define(shared)]
            if body is None:
                lines += ["    except Exception:", f"        return {src}", f"    return {short}"]
            else:
                lines += ["    except Exception:", *("    " + b for b in body)]
                for name, text in shared:
                    body = [_swap(b, text, name) for b in body]
                lines += body
        else:
            lines += self.return_lines(node, sc) or [f"    return {src}"]
        try:
            f = make_function("\n".join(lines) + "\n", _filename(node.pos), self.env, f"_f_{fn.name}")
        except SyntaxError as exc:  # pragma: no cover - generator bug
            self.errors.append(RuleError(f"internal: cannot compile function ({exc})", node.pos, "E299"))
            f = fail
        self.env[f"_f_{fn.name}"] = f
        return f

    def return_lines(self, node: ast.Node, sc: Scope) -> list[str] | None:
        """The body of an expression function as statements, when its value is built by
        `and`/`or`/`not` around `any(xs, x => …)`/`all(…)`: each any/all is a `for` loop that
        stops at the answer (about half the cost of any() over a generator). The same operands
        are evaluated in the same order and the same work is counted. None: a plain `return`."""
        if not self._has_fold(node):
            return None
        return [f"    {line}" for line in self._return(node, sc)]

    def _has_fold(self, node: ast.Node) -> bool:
        if isinstance(node, ast.BoolOp):
            return self._has_fold(node.left) or self._has_fold(node.right)
        if isinstance(node, ast.Not):
            return self._has_fold(node.operand)
        return self._fold(node) is not None

    def _fold(self, node: ast.Node) -> str | None:
        """"any" or "all" if `node` is such a call with a lambda (the builtin, not shadowed)."""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("any", "all") \
                and not node.kwargs and len(node.args) == 2 and isinstance(node.args[1], ast.Lambda) \
                and node.func.id in REGISTRY and node.func.id not in self.game.functions:
            return node.func.id
        return None

    def _return(self, node: ast.Node, sc: Scope) -> list[str]:
        if isinstance(node, ast.BoolOp):  # `a or b`: a if a is true, else b (`and`: the other way)
            stop = "_r" if node.op == "or" else "not _r"
            return [*self._value(node.left, "_r", sc), f"if {stop}:", "    return _r",
                    *self._return(node.right, sc)]
        if isinstance(node, ast.Not) and self._has_fold(node.operand):
            return [*self._value(node.operand, "_r", sc), "return not _r"]
        fold = self._fold(node)
        if fold is None:
            return [f"return {self.source(node, sc)}"]
        v, seq, test = self._fold_parts(node, fold, sc)
        return [f"for {v} in {seq}:", f"    if {test}:", f"        return {fold == 'any'}",
                f"return {fold != 'any'}"]

    def _value(self, node: ast.Node, target: str, sc: Scope) -> list[str]:
        """Statements that set `target` to the value of `node`."""
        if isinstance(node, ast.BoolOp):
            stop = target if node.op == "and" else f"not {target}"
            right = self._value(node.right, target, sc)
            return [*self._value(node.left, target, sc), f"if {stop}:", *("    " + r for r in right)]
        if isinstance(node, ast.Not) and self._has_fold(node.operand):
            return [*self._value(node.operand, target, sc), f"{target} = not {target}"]
        fold = self._fold(node)
        if fold is None:
            return [f"{target} = {self.source(node, sc)}"]
        v, seq, test = self._fold_parts(node, fold, sc)
        return [f"{target} = {fold != 'any'}", f"for {v} in {seq}:", f"    if {test}:",
                f"        {target} = {fold == 'any'}", "        break"]

    def _fold_parts(self, node: ast.Call, fold: str, sc: Scope) -> tuple[str, str, str]:
        """(variable, counted sequence, test that ends the loop) of an any/all call."""
        seq = _charged(self.items_source(node.args[0], sc))
        v, body = self.lambda_parts(node.args[1], sc, seq)
        return v, seq, body if fold == "any" else f"not ({body})"

    def calm(self, name: str, node: ast.Node, seen: frozenset = frozenset()) -> bool:
        """Does evaluating `node` (the body of function `name`) leave zones, counters, variables
        and attributes as they are: no procedure run from it, no builtin that is a statement,
        and only functions that are calm too?"""
        known = self._calm.get(name)
        if known is not None:
            return known
        ok = True
        for c in ast.walk(node):
            if not (isinstance(c, ast.Call) and isinstance(c.func, ast.Name)):
                continue
            fn = self.game.functions.get(c.func.id)
            if fn is not None:
                if fn.proc is not None:
                    ok = False
                elif c.func.id not in seen | {name}:
                    body = self.fn_nodes.get(c.func.id)
                    ok = body is not None and self.calm(c.func.id, body, seen | {name})
            else:
                b = REGISTRY.get(c.func.id)
                ok = b is not None and not b.statement
            if not ok:
                break
        if not seen:
            self._calm[name] = ok
        return ok

    def shared_reads(self, src: str, reads: list) -> list:
        """[(name, source)] of the reads (attributes, indexes, counts of a zone) that the
        function's source writes at least twice, longest first, each worth making once. A read
        that counts work (a list's length) is left alone: made early, it could count where
        the body as written would not."""
        out, taken = [], set()
        for node, text in sorted(reads, key=lambda r: -len(r[1])):
            if text in taken or not _plain_read(node, self.game.functions) or _COMP_VAR.search(text) \
                    or "_charge(" in text or "_items(" in text or sum(text.count(c) for c in "[(.") < 4:
                continue
            taken.add(text)
            whole = src  # the source once the longer shared reads are names, and their definitions
            for name, done in out:
                whole = _swap(whole, done, name) + " " + done
            if len(_occurrences(text).findall(whole)) >= 2:
                out.append((f"_h{len(out)}", text))
        return out

    def fold_constants(self) -> list[str]:
        """Expression functions without parameters that read nothing of the state (only tables
        and constants, through builtins that read nothing else) always give the same value:
        compute each once, here, and make the function return it. Returns their names."""
        folded, work = [], METER.work
        for name, body in self.fn_nodes.items():
            fn = self.game.functions.get(name)
            if fn is None or fn.params or fn.expr is None or fn.expr is fail \
                    or not self.state_free(body, set(), set()):
                continue
            try:
                value = fn.expr(None)  # no state at all: a read of one would fail
            except Exception:  # an error stays where it was: at the call, at play time
                continue
            if type(value) not in _FOLDABLE:
                continue
            self.env[f"_f_{name}"] = eval(f"lambda S: {self.const(value)}", self.env)
            folded.append(name)
        METER.work = work  # the load's own evaluations are no game's work
        return folded

    def state_free(self, node: ast.Node, bound: set, seen: set) -> bool:
        """Does `node` read only constants, tables and its own lambda/comprehension variables,
        calling only builtins that read nothing else and functions that are state free too?"""
        if isinstance(node, ast.Name):
            g = self.game
            return node.id in bound or node.id in g.tables or node.id in g.components \
                or node.id in g.boards
        if isinstance(node, ast.Attr) and isinstance(node.obj, ast.Name) and node.obj.id == "option" \
                and "option" not in bound:
            return False
        if isinstance(node, ast.Index) and isinstance(node.obj, ast.Name) and node.obj.id not in bound \
                and node.obj.id not in self.game.tables:
            return False  # a zone, counter, variable or board node
        if isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name):
                return False
            name = node.func.id
            fn = self.game.functions.get(name)
            if fn is not None:
                if fn.params or fn.proc is not None or name in seen or name not in self.fn_nodes:
                    return False
                if not self.state_free(self.fn_nodes[name], set(), seen | {name}):
                    return False
            elif name not in _PURE_BUILTINS:
                return False
            return all(self.state_free(a, bound, seen) for a in list(node.args) + list(node.kwargs.values()))
        if isinstance(node, ast.Lambda):
            return self.state_free(node.body, bound | {node.param}, seen)
        if isinstance(node, ast.Comprehension):
            inner = bound | {node.var}
            return self.state_free(node.iter, bound, seen) and self.state_free(node.elt, inner, seen) \
                and (node.cond is None or self.state_free(node.cond, inner, seen))
        return all(self.state_free(c, bound, seen) for c in _children(node))

    # ---- literals and operators
    def x_ListLit(self, n, sc):
        return "[" + ", ".join(self.source(x, sc) for x in n.items) + "]"

    def x_TupleLit(self, n, sc):
        return "(" + "".join(self.source(x, sc) + ", " for x in n.items) + ")"

    def x_Comprehension(self, n, sc):
        iterable = self.items_source(n.iter, sc)
        inner = Scope(sc)
        ident = f"_v{next(self.uniq)}"
        inner.py[n.var] = ident
        self.mark(inner, ident, _charged(iterable))
        elt = self.source(n.elt, inner)
        cond = f" if {self.source(n.cond, inner)}" if n.cond is not None else ""
        return f"[{elt} for {ident} in {_charged(iterable)}{cond}]"

    # ---- inlined collection builtins (no call per element, no lambda objects)
    def items_source(self, node: ast.Node, sc: Scope) -> str:
        """Code for the list of elements of `node` (a zone's pieces, a list)."""
        g = self.game
        if isinstance(node, ast.Index) and isinstance(node.obj, ast.Name) and not sc.bound(node.obj.id) \
                and node.obj.id in g.zones:
            out = f"S.zones[{self.family_key('zone', node.obj.id, node.keys, node.pos, sc)}]"
            if self._record is not None:
                self._record.append((node, out))  # a zone's pieces: a read that may be shared
            return out
        if isinstance(node, ast.Name) and not sc.bound(node.id) and node.id in g.zones \
                and not g.zones[node.id].dims:
            return f"S.zones[{self.const(ZoneRef(node.id))}]"
        if isinstance(node, (ast.ListLit, ast.Comprehension)) or self.surely_list(node, sc):
            return self.source(node, sc)
        src = self.source(node, sc)
        if _CONST.match(src) and type(self.env.get(src)) is list:  # a table: a constant list
            return src
        if src == "S.players" or _lists_only(self._table_cells(src)):
            # surely a list (State.players; a cell of a table of lists): items() would only count it
            return f"(_charge({src}))"
        if _cheap(src) or _VAR.match(src):  # a list (the common case) costs one call, not two
            return f"(_charge({src}) if type({src}) is list else _items(S, {src}))"
        return f"_items(S, {src})"

    def surely_list(self, node: ast.Node, sc: Scope) -> bool:
        """Does `node` surely evaluate to a Python list (so counting or iterating it needs no
        type test)? Decided from the syntax: literals, comprehensions, the list builtins and
        expression functions whose body surely gives one."""
        if isinstance(node, (ast.ListLit, ast.Comprehension)):
            return True
        if isinstance(node, ast.Ternary):
            return self.surely_list(node.then, sc) and self.surely_list(node.orelse, sc)
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)) or sc.bound(node.func.id):
            return False
        name = node.func.id
        if name in self.game.functions:
            return self.returns_list(name)
        return name in _LIST_BUILTINS and name in REGISTRY

    def returns_list(self, name: str) -> bool:
        """Does expression function `name` surely return a list?"""
        known = self._lists.get(name)
        if known is None:
            self._lists[name] = False  # a recursive function: not known while it is looked at
            body = self.fn_nodes.get(name)
            known = body is not None and self.surely_list(body, Scope())
            self._lists[name] = known
        return known

    def lambda_parts(self, node: ast.Node, sc: Scope, seq: str = "") -> tuple[str, str] | None:
        """(variable, body code) of a lambda argument, or None. `seq`: the code of the list the
        variable runs over, if known (a zone's contents: the variable is surely a piece)."""
        if not isinstance(node, ast.Lambda):
            return None
        inner = Scope(sc)
        ident = f"_v{next(self.uniq)}"
        inner.py[node.param] = ident
        self.mark(inner, ident, seq)
        return ident, self.source(node.body, inner)

    def mark(self, inner: Scope, ident: str, seq: str) -> None:
        """What variable `ident`, running over `seq`, surely holds: a piece (a zone's contents)
        or a table row (a constant list of maps)."""
        if _zone_items(seq):
            inner.pieces.add(ident)
            return
        m = _CHARGED_CONST.match(seq)
        if m:
            rows = self.env.get(m.group(1))
            if type(rows) is list and rows and all(type(r) is dict for r in rows):
                inner.rows.add(ident)
            return
        m = _CHARGED_CELL.match(seq)
        cells = self._table_cells(m.group(1)) if m else None
        if _lists_only(cells) and all(type(x) is list or type(x) is tuple for c in cells for x in c):
            inner.seqs.add(ident)

    def _table_cells(self, src: str) -> list | None:
        """The values `src` can give if it indexes a constant list (`_k1[i]`), else None."""
        m = _CONST_AT.match(src)
        table = self.env.get(m.group(1)) if m else None
        return table if type(table) is list else None

    def x_BinOp(self, n, sc):
        a, b = self.source(n.left, sc), self.source(n.right, sc)
        if n.op == "*":
            return f"_times({a}, {b})"
        if n.op == "+" and not (self.numeric(n.left, sc) or self.numeric(n.right, sc)):
            return f"_add({a}, {b})"  # texts and lists: bounded by the `sequence` limit
        if n.op == "%" and not self.numeric(n.left, sc):
            return f"_mod({a}, {b})"
        return f"({a} {n.op} {b})"

    def numeric(self, n: ast.Node, sc: Scope) -> bool:
        """Is `n` surely a number (so `+` on it cannot build a long text or list)?"""
        if isinstance(n, ast.Const):
            return type(n.value) in (int, float, bool)
        if isinstance(n, ast.Neg):
            return True
        if isinstance(n, ast.BinOp):
            return n.op in ("-", "//", "/", "%") or self.numeric(n.left, sc) or self.numeric(n.right, sc)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
            return n.func.id in ("count", "len", "sum") and n.func.id not in self.game.functions
        if isinstance(n, ast.Index) and isinstance(n.obj, ast.Name):
            return n.obj.id in self.game.counters and not sc.bound(n.obj.id)
        if isinstance(n, ast.Name):  # a local may shadow a counter's name
            return (n.id in self.game.counters or n.id == "player_count") and not sc.bound(n.id)
        return False

    def x_Compare(self, n, sc):
        a, b = self.source(n.left, sc), self.source(n.right, sc)
        if n.op == "in":
            return f"_contains(S, {b}, {a})"
        if n.op == "not in":
            return f"(not _contains(S, {b}, {a}))"
        return f"({a} {n.op} {b})"

    def x_BoolOp(self, n, sc):
        return f"({self.source(n.left, sc)} {n.op} {self.source(n.right, sc)})"

    def x_Not(self, n, sc):
        return f"(not {self.source(n.operand, sc)})"

    def x_Neg(self, n, sc):
        return f"(-{self.source(n.operand, sc)})"

    def x_Ternary(self, n, sc):
        return (f"({self.source(n.then, sc)} if {self.source(n.cond, sc)} "
                f"else {self.source(n.orelse, sc)})")


def _children(node: ast.Node) -> list:
    out = []
    for v in vars(node).values():
        if isinstance(v, ast.Node):
            out.append(v)
        elif isinstance(v, (list, tuple)):
            out.extend(x for x in v if isinstance(x, ast.Node))
        elif isinstance(v, dict):
            out.extend(x for x in v.values() if isinstance(x, ast.Node))
    return out


# values a folded function may return (shared by every call: the DSL never changes a list in place)
_FOLDABLE = (int, float, str, bool, type(None), list, tuple, dict)
# builtins that read nothing but their arguments (interpreter/builtins/core.py)
_PURE_BUILTINS = {"count", "len", "sum", "min", "max", "argmax", "argmin", "any", "all", "filter",
                  "map", "sort", "group", "first", "last", "unique", "reverse", "concat", "flatten",
                  "range", "index_of", "append", "remove", "without", "zip", "enumerate", "abs",
                  "min2", "max2", "clamp", "keys", "values", "get"}


_READS = (ast.Attr, ast.Index, ast.Call)
_COMP_VAR = re.compile(r"\b_v\d+\b")  # a lambda's or comprehension's variable (ExprGen.arg)
_READ_CALLS = {"count", "len", "empty"}


def _plain_read(node: ast.Node, functions: dict) -> bool:
    """A read made only of names, constants, attributes, indexes and counts (no other call)."""
    if isinstance(node, (ast.Name, ast.Const)):
        return True
    if isinstance(node, ast.Attr):
        return _plain_read(node.obj, functions)
    if isinstance(node, ast.Index):
        return _plain_read(node.obj, functions) and all(_plain_read(k, functions) for k in node.keys)
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Name) and node.func.id in _READ_CALLS and not node.kwargs \
            and node.func.id not in functions and len(node.args) == 1 and _plain_read(node.args[0], functions)
    return False


def _occurrences(text: str) -> re.Pattern:
    """Where generated expression `text` is written whole (not the tail of a longer name)."""
    return re.compile(r"(?<![\w.])" + re.escape(text))


def _swap(src: str, text: str, name: str) -> str:
    return _occurrences(text).sub(lambda _: name, src)


def _define(shared: list) -> list:
    """The definitions of shared reads in an order that works: the shortest first, each longer
    one written with the names of the shorter ones it contains."""
    out = []
    for i in range(len(shared) - 1, -1, -1):
        name, text = shared[i]
        for shorter, stext in shared[i + 1:]:
            text = _swap(text, stext, shorter)
        out.append((name, text))
    return out


def _cheap(code: str) -> bool:
    """A plain variable read (safe and cheap to evaluate twice)."""
    return code.isidentifier() or (code.startswith("L[") and code.endswith("]") and code.count("[") == 1)


_CONST = re.compile(r"_k\d+\Z")  # a constant's name (ExprGen.const)
_LITERAL = re.compile(r"-?\d+\Z|'[^'\\]*'\Z")  # a number or a short text, as repr() writes them
_VAR_ITEMS = re.compile(r"\(_charge\((.+)\) if type\(\1\) is list else _items\(S, \1\)\)\Z")  # items_source
_CHARGED_CONST = re.compile(r"_charge\((_k\d+)\)\Z")  # a constant list, counted
_CONST_AT = re.compile(r"(_k\d+)\[[^\[\]]+\]\Z")  # a constant list indexed (x_Index)
_CHARGED_CELL = re.compile(r"\(_charge\((_k\d+\[[^\[\]]+\])\)\)\Z")  # such a cell, counted
# builtins that always return a new Python list (interpreter/builtins/core.py)
_LIST_BUILTINS = {"concat", "filter", "map", "unique", "reverse", "shape", "grid_cells", "without",
                  "flatten", "range", "sort"}
_VAR = re.compile(r"S\.vars\['[A-Za-z_][A-Za-z0-9_]*'\]\Z")  # a plain variable's value


def _zone_items(seq: str) -> bool:
    """Is `seq` (from items_source) a zone's list of pieces, uncounted or counted?"""
    return seq.startswith(("S.zones[", "_charge(S.zones["))


def _counted(seq: str) -> bool:
    """Is `seq` (from items_source) already counted against the `work` limit?"""
    return seq.startswith(("_items(", "(_charge("))


def _charged(seq: str) -> str:
    """Code iterating `seq`, its length counted against the `work` limit (`_items` counts itself)."""
    return seq if _counted(seq) else f"_charge({seq})"


def _lists_only(values: list | None) -> bool:
    """A non-empty list of Python lists (so each, iterated, is counted by its length)."""
    return bool(values) and all(type(v) is list for v in values)


def _filename(pos: Pos) -> str:
    return f"<rule {pos}>"


# ---------------------------------------------------------------------- inlining
def _inline_fold(python_fn: str):
    """count/sum/any/all: f(xs) or f(xs, x => body) as one Python expression."""
    def inline(gen: ExprGen, args: list, sc: Scope) -> str | None:
        if len(args) == 1 and not isinstance(args[0], ast.Lambda):
            seq = gen.items_source(args[0], sc)
            if python_fn == "count":
                var = _VAR_ITEMS.match(seq)
                if var:  # a variable: a list or a zone (ZoneRef) counted without a call
                    v = var.group(1)
                    return f"(len({v}) if type({v}) is list else len(S.zones[{v}]) if type({v}) is ZoneRef " \
                           f"else len(_items(S, {v})))"
                return f"len({seq})"
            return f"{python_fn}({_charged(seq)})"
        if len(args) == 2:
            if not isinstance(args[1], ast.Lambda):
                return None
            seq = _charged(gen.items_source(args[0], sc))
            v, body = gen.lambda_parts(args[1], sc, seq)
            if python_fn == "count":  # a list of ones: faster than sum() over a generator
                return f"len([1 for {v} in {seq} if {body}])"
            return f"{python_fn}({body} for {v} in {seq})"
        return None
    return inline


def _inline_filter(gen: ExprGen, args: list, sc: Scope) -> str | None:
    if len(args) != 2 or not isinstance(args[1], ast.Lambda):
        return None
    seq = _charged(gen.items_source(args[0], sc))
    v, body = gen.lambda_parts(args[1], sc, seq)
    return f"[{v} for {v} in {seq} if {body}]"


def _inline_map(gen: ExprGen, args: list, sc: Scope) -> str | None:
    if len(args) != 2 or not isinstance(args[1], ast.Lambda):
        return None
    seq = _charged(gen.items_source(args[0], sc))
    v, body = gen.lambda_parts(args[1], sc, seq)
    return f"[{body} for {v} in {seq}]"


def _inline_len(gen: ExprGen, args: list, sc: Scope) -> str | None:
    if len(args) != 1:
        return None
    seq = gen.items_source(args[0], sc)
    return None if _counted(seq) else f"len({seq})"  # maybe a text: use the builtin


def _inline_empty(gen: ExprGen, args: list, sc: Scope) -> str | None:
    return f"(not {gen.items_source(args[0], sc)})" if len(args) == 1 else None


def _inline_first(gen: ExprGen, args: list, sc: Scope) -> str | None:
    # first(xs) = items(xs)[0] or none; a zone's first piece without building anything
    return f"next(iter({gen.items_source(args[0], sc)}), None)" if len(args) == 1 else None


def _inline_last(gen: ExprGen, args: list, sc: Scope) -> str | None:
    return f"next(reversed({gen.items_source(args[0], sc)}), None)" if len(args) == 1 else None


def _inline_concat(gen: ExprGen, args: list, sc: Scope) -> str | None:
    # one new list, its length counted as the builtin counts its inputs
    if not args:
        return "[]"
    return "_charge([" + ", ".join(f"*{gen.items_source(a, sc)}" for a in args) + "])"


def _inline_pick(python_fn: str):
    """min2/max2 of numbers: the builtin's `a if a <= b else b` is Python's min/max (the same
    pick, ties included); only the wording of a type error for a non-number could differ."""
    def inline(gen: ExprGen, args: list, sc: Scope) -> str | None:
        if len(args) != 2 or not any(gen.numeric(a, sc) for a in args):
            return None
        return f"{python_fn}({gen.source(args[0], sc)}, {gen.source(args[1], sc)})"
    return inline


def _inline_flatten(gen: ExprGen, args: list, sc: Scope) -> str | None:
    """flatten(xss): one comprehension; a zone among xss is read without a call, the whole
    counted once (as the builtin counts xss and each of its lists or zones)."""
    if len(args) != 1:
        return None
    outer = gen.items_source(args[0], sc)
    z, x = f"_v{next(gen.uniq)}", f"_v{next(gen.uniq)}"
    inner = f"({z} if type({z}) is list else S.zones[{z}] if type({z}) is ZoneRef else _items(S, {z}))"
    return f"_charge([{x} for {z} in {_charged(outer)} for {x} in {inner}])"


def _inline_shape(gen: ExprGen, args: list, sc: Scope) -> str | None:
    return f"list(S.shape_of({gen.source(args[0], sc)}))" if len(args) == 1 else None


_INLINE: dict[str, Callable] = {
    "count": _inline_fold("count"), "sum": _inline_fold("sum"), "any": _inline_fold("any"),
    "all": _inline_fold("all"), "filter": _inline_filter, "map": _inline_map,
    "len": _inline_len, "empty": _inline_empty, "first": _inline_first, "last": _inline_last,
    "concat": _inline_concat, "min2": _inline_pick("min"), "max2": _inline_pick("max"),
    "shape": _inline_shape, "flatten": _inline_flatten,
}
