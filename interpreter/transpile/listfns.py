"""List and map builtins in generated programs beside lists.py's: `sort(…, desc=…)`, `keys`,
`awards_by_place` over plain lists (runtime._sort_by, runtime._awards_by_place: the engine's
builtins without the engine's state, what they read being plain), a sort by a fixed piece
attribute without a lambda, and `first` of a plain read written in place."""
from __future__ import annotations

import re

from .. import ast
from .piece_kinds import VALUE, PieceKindWriter, element

# a name read through constant or plain-name subscripts (z_hand[p_3], T_x['a']): no effect and
# cheap, so written twice where a helper's call would cost more
_READ = re.compile(r"^[A-Za-z_]\w*(\[(?:[A-Za-z_]\w*|-?\d+|'[^'\[\]]*')\])*$")
_ATTR_READ = re.compile(r"^(A_\w+)\[([A-Za-z_]\w*)\]$")  # a fixed piece attribute of one name


class ListFunctionWriter(PieceKindWriter):
    """`sort` with `desc`, `keys`, `awards_by_place`, `first` (see the module docstring)."""

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
        if name in ("first", "top") and len(args) == 1 and not n.kwargs:
            seq = self.expr(args[0], env)
            return f"({seq}[0] if {seq} else None)" if _READ.match(seq) else f"_first({seq})"
        if name == "keys" and len(args) == 1 and not n.kwargs:
            return f"list({self.expr(args[0], env)})"
        if name == "awards_by_place" and len(args) in (3, 4) and set(n.kwargs) <= {"policy"}:
            policy = args[3] if len(args) == 4 else n.kwargs.get("policy")
            policy_code = "'share'" if policy is None else self.expr(policy, env)
            var, body = self.each(args[0], args[1], env)
            return (f"_awards_by_place({self.expr(args[0], env)}, lambda {var}: {body}, "
                    f"{self.expr(args[2], env)}, {policy_code})")
        return super().builtin(name, args, env, n)

    @staticmethod
    def key_code(var: str, body: str) -> str:
        """A sort key: a fixed piece attribute's list's __getitem__, or a lambda."""
        read = _ATTR_READ.match(body)
        return f"{read.group(1)}.__getitem__" if read and read.group(2) == var else f"lambda {var}: {body}"

    def e_Call(self, n, env):
        if (isinstance(n.func, ast.Name) and n.func.id in ("sort", "awards_by_place") and n.kwargs
                and n.func.id not in env and n.func.id not in self.d.functions):  # named arguments: here
            return self.builtin(n.func.id, n.args, env, n)
        return super().e_Call(n, env)

    def k_Call(self, n, env):
        if isinstance(n.func, ast.Name) and n.func.id not in env and n.func.id == "awards_by_place" and n.args:
            return VALUE if self.kind(n.args[0], env) == VALUE else None  # [[element, amount], …]
        return super().k_Call(n, env)
