"""List and map builtins in generated programs beside lists.py's: `sort(…, desc=…)`, `keys`
(runtime._sort_by: the engine's sort without the engine's state, what it reads being plain), a
sort by a fixed piece attribute without a lambda, and `first` of a plain read written in place."""
from __future__ import annotations

import re

from .. import ast
from .piece_kinds import PIECES, PieceKindWriter, element

# a name read through constant or plain-name subscripts (z_hand[p_3], T_x['a']): no effect and
# cheap, so written twice where a helper's call would cost more
_READ = re.compile(r"^[A-Za-z_]\w*(\[(?:[A-Za-z_]\w*|-?\d+|'[^'\[\]]*')\])*$")
_ATTR_READ = re.compile(r"^(A_\w+)\[([A-Za-z_]\w*)\]$")  # a fixed piece attribute of one name
# a fixed piece attribute of one name compared with a name or a constant
_ATTR_EQ = re.compile(r"^\((A_\w+)\[([A-Za-z_]\w*)\] == ([A-Za-z_]\w*|-?\d+|'[^'\\]*')\)$")


class ListFunctionWriter(PieceKindWriter):
    """`sort` with `desc`, `keys`, `first` (see the module docstring)."""

    def each(self, seq: ast.Node, fn: ast.Node, env: dict) -> tuple[str, str]:
        """(variable, body) of a `x => body` applied to the elements of `seq` (whose kind the
        variable takes)."""
        self._pending = (fn.param, element(self.kind(seq, env))) if isinstance(fn, ast.Lambda) else None
        try:
            return self.lam(fn, env)
        finally:
            self._pending = None

    def builtin(self, name: str, args: list, env: dict, n: ast.Node) -> str:
        if name == "sort" and len(args) in (1, 2) and n.kwargs and set(n.kwargs) <= {"desc"}:
            desc = self.expr(n.kwargs["desc"], env)
            if len(args) == 1:
                return f"_sort_by({self.expr(args[0], env)}, None, {desc})"
            var, body = self.each(args[0], args[1], env)
            return f"_sort_by({self.expr(args[0], env)}, {self.key_code(var, body)}, {desc})"
        if name == "sort" and len(args) == 2 and not n.kwargs:  # lists.py's, its key without a lambda if it can
            var, body = self.each(args[0], args[1], env)
            read = _ATTR_READ.match(body)
            if read and read.group(2) == var:
                return f"_sort({self.expr(args[0], env)}, {read.group(1)}.__getitem__)"
        if name == "filter" and len(args) == 2 and not n.kwargs and _flattened(args[0], env, self.d.functions):
            var, body = self.each(args[0], args[1], env)  # one pass over the lists, no list of them all
            return f"[{var} for _xs in {self.expr(args[0].args[0], env)} for {var} in _xs if {body}]"
        if name in ("first", "top") and len(args) == 1 and not n.kwargs:
            found = self.first_with(args[0], env)
            if found is not None:
                return found
            seq = self.expr(args[0], env)
            return f"({seq}[0] if {seq} else None)" if _READ.match(seq) else f"_first({seq})"
        if name == "keys" and len(args) == 1 and not n.kwargs:
            return f"list({self.expr(args[0], env)})"
        return super().builtin(name, args, env, n)

    def e_Call(self, n, env):
        if (isinstance(n.func, ast.Name) and n.func.id == "sort" and n.kwargs and n.func.id not in env
                and n.func.id not in self.d.functions):  # `desc`: here (the expression writer refuses names)
            return self.builtin(n.func.id, n.args, env, n)
        return super().e_Call(n, env)

    def first_with(self, node: ast.Node, env: dict) -> str | None:
        """`first(filter(xs, x => x.attr == v))` for a fixed piece attribute and a `v` that does
        not read x: runtime._first_eq, which stops at the first match instead of building the
        whole filtered list (None where the filter has another form)."""
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "filter"
                and node.func.id not in env and node.func.id not in self.d.functions and len(node.args) == 2
                and not node.kwargs and isinstance(node.args[1], ast.Lambda)):
            return None
        if self.rely(node.args[0], env) not in (PIECES, None):  # attributes of pieces only
            return None
        var, body = self.each(node.args[0], node.args[1], env)
        match = _ATTR_EQ.match(body)
        if not match or match.group(2) != var or re.search(rf"\b{var}\b", match.group(3)):
            return None
        return f"_first_eq({self.expr(node.args[0], env)}, {match.group(1)}, {match.group(3)})"

    @staticmethod
    def key_code(var: str, body: str) -> str:
        """A sort key: a fixed piece attribute's list's __getitem__, or a lambda."""
        read = _ATTR_READ.match(body)
        return f"{read.group(1)}.__getitem__" if read and read.group(2) == var else f"lambda {var}: {body}"


def _flattened(node: ast.Node, env: dict, functions: dict) -> bool:
    """Whether `node` is a call of the builtin `flatten` with one argument."""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "flatten"
            and node.func.id not in env and node.func.id not in functions and len(node.args) == 1
            and not node.kwargs)
