"""A choice among values whose list holds no repeats, offered without looking for repeats.

The options of a choice among values are each distinct value once, in order (options.py):
the generated program writes `list(dict.fromkeys(xs))`. Where `xs` is a local of play() bound
once to a list the program can tell holds no two equal values, the options are that list's copy
(`list(xs)`): the same list, without hashing every value (a grid's placements, offered at every
tile of a tile-laying game, were 2–3 % of its game; docs/benchmarks.md, stop 30).

A list holds no repeats (checked on the generated Python, the `ast` module) when it is: what
grid_placements gives (`_placements(…)`: each anchor once); `[xs[k] for k in range(len(xs)) if …]`
or `[x for x in xs if …]` of such a list; a local bound once to such a list and only read
(indexed, measured, tested, walked, copied, handed to a function nested in play() that changes
nothing: grid_memo.py's check); or what a function nested in play() returns where each of its
`return`s gives such a list."""
from __future__ import annotations

import ast as pyast
import re

from .grid_memo import pure_functions
from .pytrees import parents_of

_DEDUP = re.compile(r"^(\s*)(\w+) = list\(dict\.fromkeys\((\w+)\)\)$")
_READS = frozenset({"len", "list", "_listed", "_extreme_of", "_first", "_last", "_index_of"})


class _Scope:
    """One function's locals bound once to a list with no repeats."""

    def __init__(self, fn: pyast.FunctionDef, parents: dict, returning: set, pure: set):
        self.fn, self.parents, self.returning, self.pure = fn, parents, returning, pure
        self.binds: dict = {}  # name -> its expressions (every binding)
        for node in pyast.walk(fn):
            if isinstance(node, (pyast.Assign, pyast.AnnAssign, pyast.AugAssign, pyast.For, pyast.comprehension,
                                 pyast.NamedExpr, pyast.With)):
                targets = node.targets if isinstance(node, pyast.Assign) else [node.target] \
                    if not isinstance(node, pyast.With) else []
                for t in targets:
                    for x in pyast.walk(t):
                        if isinstance(x, pyast.Name):
                            self.binds.setdefault(x.id, []).append(
                                node.value if isinstance(node, pyast.Assign) and t is x else None)
        self.params = {a.arg for a in fn.args.args}

    def distinct(self, e: pyast.AST, seen: frozenset = frozenset()) -> bool:
        if isinstance(e, pyast.Call) and isinstance(e.func, pyast.Name):
            return e.func.id == "_placements" or (e.func.id in self.returning and not e.keywords)
        if isinstance(e, pyast.Name):
            return self.local(e.id, seen)
        if isinstance(e, pyast.ListComp) and len(e.generators) == 1:
            gen = e.generators[0]
            if gen.is_async or not isinstance(gen.target, pyast.Name):
                return False
            var = gen.target.id
            if isinstance(e.elt, pyast.Name) and e.elt.id == var:  # [x for x in xs if …]
                return self.distinct(gen.iter, seen)
            elt = e.elt  # [xs[k] for k in range(len(xs)) if …]
            it = gen.iter
            return (isinstance(elt, pyast.Subscript) and isinstance(elt.value, pyast.Name)
                    and isinstance(elt.slice, pyast.Name) and elt.slice.id == var
                    and isinstance(it, pyast.Call) and isinstance(it.func, pyast.Name) and it.func.id == "range"
                    and len(it.args) == 1 and not it.keywords and isinstance(it.args[0], pyast.Call)
                    and isinstance(it.args[0].func, pyast.Name) and it.args[0].func.id == "len"
                    and len(it.args[0].args) == 1 and isinstance(it.args[0].args[0], pyast.Name)
                    and it.args[0].args[0].id == elt.value.id and self.distinct(elt.value, seen))
        return False

    def local(self, name: str, seen: frozenset) -> bool:
        """A local bound once to a list with no repeats, and only read."""
        binds = self.binds.get(name, [])
        if name in seen or name in self.params or len(binds) != 1 or binds[0] is None:
            return False
        if not self.distinct(binds[0], seen | {name}):
            return False
        return all(self.read_only(x) for x in pyast.walk(self.fn)
                   if isinstance(x, pyast.Name) and x.id == name and isinstance(x.ctx, pyast.Load))

    def read_only(self, x: pyast.Name) -> bool:
        up = self.parents.get(x)
        if isinstance(up, pyast.Subscript) and up.value is x and isinstance(up.ctx, pyast.Load):
            return True
        if isinstance(up, (pyast.IfExp, pyast.If, pyast.While)) and up.test is x:
            return True
        if isinstance(up, pyast.Compare) and x in up.comparators \
                and all(isinstance(op, (pyast.In, pyast.NotIn)) for op in up.ops):
            return True
        if isinstance(up, (pyast.comprehension, pyast.For)) and up.iter is x:
            return True
        if isinstance(up, pyast.Return):
            return True  # the caller's (this function keeps no other reference to it)
        if isinstance(up, pyast.Call) and x in up.args and isinstance(up.func, pyast.Name) \
                and (up.func.id in _READS or up.func.id in self.pure):
            return True
        if isinstance(up, pyast.Call) and x in up.args and isinstance(up.func, pyast.Attribute) \
                and up.func.attr == "fromkeys" and isinstance(up.func.value, pyast.Name) and up.func.value.id == "dict":
            return True
        return False


def without_repeats_looked_for(lines: list[str], fixed: set) -> list[str]:
    """play()'s lines (at depth 0) with `o = list(dict.fromkeys(xs))` written `o = list(xs)` where
    xs holds no repeats (see the module docstring)."""
    if not any(_DEDUP.match(line) for line in lines):
        return lines
    try:
        tree = pyast.parse("\n".join(lines))
    except SyntaxError:
        return lines
    play = next((n for n in tree.body if isinstance(n, pyast.FunctionDef) and n.name == "play"), None)
    if play is None:
        return lines
    nested = [n for n in play.body if isinstance(n, pyast.FunctionDef)]
    parents = parents_of(tree)
    pure = pure_functions(nested, fixed)
    returning: set = set()
    changed = True
    while changed:  # functions each of whose returns gives a list with no repeats
        changed = False
        for fn in nested:
            if fn.name in returning:
                continue
            scope = _Scope(fn, parents, returning, pure)
            returns = [r for r in pyast.walk(fn) if isinstance(r, pyast.Return)
                       and _owner(r, parents) is fn]
            live = [r for r in returns if not _after_return(r, parents)]
            if live and all(r.value is not None and scope.distinct(r.value) for r in live):
                returning.add(fn.name)
                changed = True
    scope = _Scope(play, parents, returning, pure)
    out = list(lines)
    for k, line in enumerate(lines):
        m = _DEDUP.match(line)
        if m and scope.local(m.group(3), frozenset()):
            out[k] = f"{m.group(1)}{m.group(2)} = list({m.group(3)})"
    return out


def _owner(node: pyast.AST, parents: dict) -> pyast.AST | None:
    """The function (def or lambda) a node is written in."""
    up = parents.get(node)
    while up is not None and not isinstance(up, (pyast.FunctionDef, pyast.Lambda)):
        up = parents.get(up)
    return up


def _after_return(r: pyast.Return, parents: dict) -> bool:
    """A `return` that cannot run: it follows a `return` in the same statement list (the
    generator ends value functions with `return None`)."""
    holder = parents.get(r)
    for field in ("body", "orelse", "finalbody"):
        stmts = getattr(holder, field, None)
        if isinstance(stmts, list) and r in stmts:
            return any(isinstance(s, pyast.Return) for s in stmts[:stmts.index(r)])
    return False
