"""Functions that ask grid questions, answered from memory across games by a short key: the
cells of the grids they read, the values of the arguments they use and the play variables they
read, instead of building the lists the questions would be keyed by.

A look-ahead function (`spot_levels(i, t, cells, n, first)`) builds its questions' arguments
anew at every call (the pieces still to come, the shape, copies of the cells) only for the
grid builtins to find their answers kept; games ask the same questions about the same grid
shapes over and over. Such a function's value depends on nothing but what it reads: its
arguments, constants (tables, shapes), the play variables it reads and which cells of a grid
it asks about. Where that is all it reads, the program keeps its values in a dict of its own
(`K_<name>`), keyed by the marshal text of those values (types kept apart: 1, 1.0 and true
are different keys), each grid by its cells (grid_runtime._grid_key: its bit mask and corner),
a zone by its pieces, an argument used only as a grid's or a constant table's index by what it
indexes (`SHAPE[t]`, not the piece t). A value is kept only if it is a list of plain values
(handed out as a copy) or a plain value.

What a kept function may read, checked on the generated Python (the `ast` module) of the
functions nested in play(), with the functions they call: its parameters and locals; constant
tables (T_, SHAPE, GRID_, _PLAYERS, the piece attributes that never change); play variables
and counters (v_, c_: their values in the key); a grid (g_<zone> or g_<zone>[p], p a
parameter or a whole number) only as the grid of a grid question (_placements,
_completable_anchors: they read only which cells are covered) or inside len(); a zone (z_<zone>,
z_<zone>[p]) only by one of its pieces, its length, whether it is empty or holds a piece (not
walked by a loop: a key as long as the zone cost more than it saved, docs/benchmarks.md stop
30); builtins and runtime helpers that read only their arguments; methods that read (get,
index, count, keys, values, items); other functions nested in play() that may be kept (their
grid and zone indexes given as the caller's parameters). No assignment into a list, map or
attribute, no nonlocal, no yield. A function is kept only if it asks a grid question (itself or
through those it calls): the others are cheaper than their key."""
from __future__ import annotations

import ast as pyast
import re

from .pytrees import parents_of

_BUILTINS = frozenset({"len", "list", "range", "min", "max", "sum", "tuple", "any", "all", "sorted", "abs",
                       "enumerate", "zip", "reversed", "int", "str", "bool", "isinstance", "set", "frozenset"})
_HELPERS = frozenset({"_listed", "_extreme_of", "_extreme", "_first", "_last", "_get", "_mod", "_index_of",
                      "_number", "_remove", "_without", "_argmax_keys", "_top_n"})
_QUESTIONS = frozenset({"_completable_anchors", "_placements"})  # read only which cells a grid covers
_METHODS = frozenset({"get", "index", "count", "keys", "values", "items"})
_CONSTANT = re.compile(r"^(T_\w+|SHAPE|GRID_\w+|_PLAYERS)$")
_VALUE = re.compile(r"^(v_|c_)\w+$")
_GRID = re.compile(r"^g_\w+$")
_ZONE = re.compile(r"^z_\w+$")
_REFUSED = (pyast.Nonlocal, pyast.Global, pyast.Yield, pyast.YieldFrom, pyast.Await, pyast.Delete,
            pyast.ClassDef, pyast.AsyncFunctionDef, pyast.With, pyast.AsyncWith, pyast.Import, pyast.ImportFrom)
_LIMIT = 50000  # values kept by one function (then its dict is emptied)


class _Function:
    """What one nested function reads (see the module docstring); `ok` False: not keyable."""

    def __init__(self, node: pyast.FunctionDef, fixed: frozenset):
        self.node = node
        self.fixed = fixed  # the constant tables of piece attributes (A_<attribute>)
        self.name = node.name
        self.params = [a.arg for a in node.args.args]
        self.ok = not (node.args.vararg or node.args.kwarg or node.args.kwonlyargs or node.args.defaults
                       or node.decorator_list)
        self.values: set = set()  # free play variables read (v_, c_)
        self.grids: set = set()  # (grid name, param name or int or None) asked about here
        self.zones: set = set()  # (zone name, param name or int or None) whose pieces are read
        self.tables: set = set()  # (table name, param) where the param indexes a table
        self.plain: set = set()  # params used as values
        self.calls: list = []  # (callee name, [argument nodes])
        self.asks = False  # a grid question here
        self.locals = _bound(node)

    def constant(self, name: str) -> bool:
        """A table no statement changes, not hidden by a local."""
        return name not in self.locals and (bool(_CONSTANT.match(name)) or name in self.fixed)


def _bound(fn: pyast.FunctionDef) -> set:
    """Every name bound inside the function (parameters, assignments, loop and comprehension
    variables, lambda parameters): the generator's names are fresh, so none hides another."""
    out = {a.arg for a in fn.args.args}
    for node in pyast.walk(fn):
        if isinstance(node, pyast.Name) and isinstance(node.ctx, pyast.Store):
            out.add(node.id)
        elif isinstance(node, pyast.arg):
            out.add(node.arg)
        elif isinstance(node, pyast.NamedExpr):
            out.add(node.target.id)
        elif isinstance(node, pyast.ExceptHandler) and node.name:
            out.add(node.name)
    return out


def _read(f: _Function, names: set) -> None:
    """Fill f's reads from its body; f.ok False at the first thing it may not do."""
    fn = f.node
    parents = parents_of(fn)
    for node in pyast.walk(fn):
        if node is not fn and isinstance(node, (pyast.FunctionDef,) + _REFUSED):
            f.ok = False
            return
        if isinstance(node, (pyast.Assign, pyast.AugAssign, pyast.AnnAssign)):
            targets = node.targets if isinstance(node, pyast.Assign) else [node.target]
            if any(not isinstance(x, pyast.Name) for t in targets for x in pyast.walk(t)
                   if isinstance(x, (pyast.Subscript, pyast.Attribute, pyast.Starred))):
                f.ok = False
                return
        if isinstance(node, pyast.Call) and not _call(f, node, names):
            f.ok = False
            return
        if isinstance(node, pyast.Attribute) and not (isinstance(parents.get(node), pyast.Call)
                                                      and parents[node].func is node and node.attr in _METHODS):
            f.ok = False
            return
        if isinstance(node, pyast.Name) and isinstance(node.ctx, pyast.Load) and not _name(f, node, parents, names):
            f.ok = False
            return


def _call(f: _Function, node: pyast.Call, names: set) -> bool:
    func = node.func
    if node.keywords and not (isinstance(func, pyast.Name) and func.id in _BUILTINS):
        return False
    if isinstance(func, pyast.Attribute):
        return func.attr in _METHODS
    if isinstance(func, pyast.Lambda):
        return True
    if not isinstance(func, pyast.Name) or func.id in f.locals:
        return False
    if func.id in names:
        if any(isinstance(a, pyast.Starred) for a in node.args):
            return False
        f.calls.append((func.id, node.args))
        return True
    if func.id in _QUESTIONS:
        f.asks = True
        return bool(node.args)
    return func.id in _BUILTINS or func.id in _HELPERS


def _name(f: _Function, node: pyast.Name, parents: dict, names: set) -> bool:
    """Whether a name read here is one f may read (recording what it reads)."""
    name = node.id
    parent = parents.get(node)
    if name in f.params:
        if isinstance(parent, pyast.Subscript) and parent.slice is node and isinstance(parent.value, pyast.Name):
            owner = parent.value.id
            if (_GRID.match(owner) or _ZONE.match(owner)) and owner not in f.locals:
                return True  # the read is checked at the grid's or zone's name
            if f.constant(owner):
                f.tables.add((owner, name))
                return True
        if isinstance(parent, pyast.Call) and node in parent.args and isinstance(parent.func, pyast.Name) \
                and parent.func.id in names and parent.func.id not in f.locals:
            return True  # as the callee uses it (see _spread)
        f.plain.add(name)
        return True
    if name in f.locals:
        return True
    if f.constant(name):
        return True
    if _VALUE.match(name):
        f.values.add(name)
        return True
    if _GRID.match(name):
        return _grid(f, node, parents)
    if _ZONE.match(name):
        return _zone(f, node, parents)
    if name in names or name in _BUILTINS or name in _HELPERS or name in _QUESTIONS:
        return True  # a function: called (checked at the call) or handed to one (max)
    return False


def _grid(f: _Function, node: pyast.Name, parents: dict) -> bool:
    """A grid read only where it is the grid of a question or inside len(): g_x or g_x[p]."""
    found = _indexed(f, node, parents)
    if found is None:
        return False
    at, index = found
    holder = parents.get(at)
    if not (isinstance(holder, pyast.Call) and isinstance(holder.func, pyast.Name) and holder.args
            and holder.args[0] is at and (holder.func.id in _QUESTIONS or holder.func.id == "len" and len(holder.args) == 1)):
        return False
    f.grids.add((node.id, index))
    return True


def _indexed(f: _Function, node: pyast.Name, parents: dict):
    """(the expression g_x or g_x[p], its index: p, a whole number or None), or None."""
    parent = parents.get(node)
    if isinstance(parent, pyast.Subscript) and parent.value is node:
        s = parent.slice
        if isinstance(s, pyast.Name) and s.id in f.params:
            return parent, s.id
        if isinstance(s, pyast.Constant) and type(s.value) is int:
            return parent, s.value
        return None
    return node, None


def _zone(f: _Function, node: pyast.Name, parents: dict) -> bool:
    """A zone read only as pieces: one piece of it, its length, whether it is empty or holds a
    piece (keyed by its pieces). Never the list itself (handed on, it could change later), nor
    walked by a loop (a key as long as the zone: measured, it costs more than it saves)."""
    found = _indexed(f, node, parents)
    if found is None:
        return False
    at, index = found
    up = parents.get(at)
    if not ((isinstance(up, pyast.Subscript) and up.value is at and isinstance(up.ctx, pyast.Load))
            or (isinstance(up, pyast.Call) and isinstance(up.func, pyast.Name) and up.func.id == "len"
                and up.args == [at] and not up.keywords)
            or (isinstance(up, (pyast.IfExp, pyast.If, pyast.While)) and up.test is at)
            or (isinstance(up, pyast.UnaryOp) and isinstance(up.op, pyast.Not))
            or (isinstance(up, pyast.Compare) and at in up.comparators
                and all(isinstance(op, (pyast.In, pyast.NotIn)) for op in up.ops))):
        return False
    f.zones.add((node.id, index))
    return True


def _spread(functions: dict) -> None:
    """Through the calls, until nothing changes: a callee's reads become its caller's (a grid
    indexed by the callee's parameter: by the argument, which must be the caller's parameter
    or a whole number), a callee's parameter used as a value makes the caller's argument one."""
    changed = True
    while changed:
        changed = False
        for f in functions.values():
            if not f.ok:
                continue
            before = (len(f.values), len(f.grids), len(f.zones), len(f.tables), len(f.plain), f.asks, f.ok)
            for callee, args in f.calls:
                g = functions[callee]
                if not g.ok or len(args) != len(g.params):
                    f.ok = False
                    break
                f.values |= g.values
                f.asks = f.asks or g.asks
                given = dict(zip(g.params, args))
                for reads, read in ((f.grids, g.grids), (f.zones, g.zones)):
                    for name, index in read:
                        if isinstance(index, str):
                            arg = given[index]
                            if isinstance(arg, pyast.Name) and arg.id in f.params:
                                index = arg.id
                            elif isinstance(arg, pyast.Constant) and type(arg.value) is int:
                                index = arg.value
                            else:
                                f.ok = False
                                continue
                        reads.add((name, index))
                for param, arg in given.items():
                    if isinstance(arg, pyast.Name) and arg.id in f.params:
                        if param in g.plain:
                            f.plain.add(arg.id)
                        f.tables |= {(t, arg.id) for t, p in g.tables if p == param}
            if (len(f.values), len(f.grids), len(f.zones), len(f.tables), len(f.plain), f.asks, f.ok) != before:
                changed = True


def _key(f: _Function) -> str:
    """The key's expression: the values f's value depends on (see the module docstring)."""
    parts = [p for p in f.params if p in f.plain]
    parts += [f"{t}[{p}]" for t, p in sorted(f.tables) if p not in f.plain]
    parts += [f"_grid_key({g}{'' if i is None else f'[{i}]'})" for g, i in sorted(f.grids, key=repr)]
    parts += [f"tuple({z}{'' if i is None else f'[{i}]'})" for z, i in sorted(f.zones, key=repr)]
    parts += sorted(f.values)
    return f"_value_text(({', '.join(parts)}{',' if len(parts) == 1 else ''}), 2)"


def pure_functions(defs: list, fixed: set) -> set[str]:
    """The names of the functions among `defs` (nested in play()) that read only what a kept
    function may read, and so change nothing (their arguments included)."""
    functions = {d.name: _Function(d, frozenset(fixed)) for d in defs}
    for f in functions.values():
        if f.ok:
            _read(f, set(functions))
    _spread(functions)
    return {name for name, f in functions.items() if f.ok}


def kept_functions(lines: list[str], depth: int, fixed: set) -> tuple[list[str], list[str]]:
    """The nested functions' lines (written at `depth`) with those that may be kept wrapped in
    their memory (see the module docstring), and the module-level lines making the memories;
    `fixed`: the names of the piece attributes' tables that never change (A_<attribute>)."""
    pad = "    " * depth
    if not lines or any(line.strip() and not line.startswith(pad) for line in lines):
        return lines, []
    text = "\n".join(line[len(pad):] for line in lines)
    try:
        tree = pyast.parse(text)
    except SyntaxError:
        return lines, []
    defs = [n for n in tree.body if isinstance(n, pyast.FunctionDef)]
    if len(defs) != len(tree.body) or len({d.name for d in defs}) != len(defs):
        return lines, []
    functions = {d.name: _Function(d, frozenset(fixed)) for d in defs}
    names = set(functions)
    for f in functions.values():
        if f.ok:
            _read(f, names)
    _spread(functions)
    src = text.split("\n")
    out, header = [], []
    for d in defs:
        f = functions[d.name]
        body = src[d.lineno - 1:d.end_lineno]
        if not (f.ok and f.asks):
            out += body
            continue
        kept, inner, args = f"K_{d.name}", f"{d.name}__kept", ", ".join(f.params)
        header.append(f"{kept} = {{}}  # {d.name}'s values by what it reads (transpile/grid_memo.py)\n")
        out += [f"def {d.name}({args}):",
                "    try:",
                f"        _k = {_key(f)}",
                "    except _UNKEYED:  # a value marshal cannot write, an index out of range: asked as it is",
                f"        return {inner}({args})",
                f"    _v = {kept}.get(_k)",
                "    if _v is None:",
                f"        return _keep({kept}, _k, {inner}({args}), {_LIMIT})",
                "    return _v[:] if type(_v) is list else _v",
                f"def {inner}(" + body[0].split("(", 1)[1]] + body[1:]
    return [pad + line if line.strip() else line for line in out], header
