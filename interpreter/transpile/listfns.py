"""List and map builtins in generated programs: `sort`, `keys`, `append`, `awards_by_place`
over plain lists (runtime._sort, runtime._awards_by_place: the engine's builtins without the
engine's state, what they read being plain), and quicker forms of `first` and of `sum`/`count`
with a function."""
from __future__ import annotations

import re

from .. import ast
from .piece_kinds import _LIST_OF, VALUE, PieceKindWriter, element, join

# a name read through constant or plain-name subscripts (z_hand[p_3], T_x['a']): no effect and
# cheap, so written twice where a helper's call would cost more
_READ = re.compile(r"^[A-Za-z_]\w*(\[(?:[A-Za-z_]\w*|-?\d+|'[^'\[\]]*')\])*$")
_ATTR_READ = re.compile(r"^(A_\w+)\[([A-Za-z_]\w*)\]$")  # a fixed piece attribute of one name


class ListFunctionWriter(PieceKindWriter):
    """`sort`, `keys`, `append`, `awards_by_place`, `first`, `sum`/`count` (module docstring)."""

    def each(self, seq: ast.Node, fn: ast.Node, env: dict) -> tuple[str, str]:
        """(variable, body) of a `x => body` applied to the elements of `seq` (whose kind the
        variable takes)."""
        self._pending = (fn.param, element(self.kind(seq, env))) if isinstance(fn, ast.Lambda) else None
        try:
            return self.lam(fn, env)
        finally:
            self._pending = None

    def builtin(self, name: str, args: list, env: dict, n: ast.Node) -> str:
        if name == "sort" and len(args) in (1, 2) and set(n.kwargs) <= {"desc"}:
            desc = self.expr(n.kwargs["desc"], env) if n.kwargs else "False"
            if len(args) == 1:
                return f"_sort({self.expr(args[0], env)}, None, {desc})"
            var, body = self.each(args[0], args[1], env)
            read = _ATTR_READ.match(body)
            key = f"{read.group(1)}.__getitem__" if read and read.group(2) == var else f"lambda {var}: {body}"
            return f"_sort({self.expr(args[0], env)}, {key}, {desc})"
        if name in ("first", "top") and len(args) == 1 and not n.kwargs:
            seq = self.expr(args[0], env)
            return f"({seq}[0] if {seq} else None)" if _READ.match(seq) else f"_first({seq})"
        if name in ("sum", "count") and len(args) == 2 and isinstance(args[1], ast.Lambda) and not n.kwargs:
            # over a list built at once: cheaper than a generator for the short lists of a game
            seq = self.expr(args[0], env)
            var, body = self.each(args[0], args[1], env)
            if name == "sum":
                return f"sum([{body} for {var} in {seq}])"
            return f"len([1 for {var} in {seq} if {body}])"
        if n.kwargs and name != "awards_by_place":
            return super().builtin(name, args, env, n)
        if name == "keys" and len(args) == 1:
            return f"list({self.expr(args[0], env)})"
        if name == "append" and len(args) == 2:
            return f"(list({self.expr(args[0], env)}) + [{self.expr(args[1], env)}])"
        if name == "awards_by_place" and len(args) in (3, 4) and set(n.kwargs) <= {"policy"}:
            policy = args[3] if len(args) == 4 else n.kwargs.get("policy")
            policy_code = "'share'" if policy is None else self.expr(policy, env)
            var, body = self.each(args[0], args[1], env)
            return (f"_awards_by_place({self.expr(args[0], env)}, lambda {var}: {body}, "
                    f"{self.expr(args[2], env)}, {policy_code})")
        return super().builtin(name, args, env, n)

    def e_Call(self, n, env):
        if (isinstance(n.func, ast.Name) and n.func.id in ("sort", "awards_by_place") and n.kwargs
                and n.func.id not in env and n.func.id not in self.d.functions):  # named arguments: here
            return self.builtin(n.func.id, n.args, env, n)
        return super().e_Call(n, env)

    def k_Call(self, n, env):
        if isinstance(n.func, ast.Name) and n.func.id not in env:
            name = n.func.id
            if name == "awards_by_place" and n.args:  # [[element, amount], …]
                return VALUE if self.kind(n.args[0], env) == VALUE else None
            if name == "append" and len(n.args) == 2:
                return join(self.kind(n.args[0], env), _LIST_OF.get(self.kind(n.args[1], env)))
        return super().k_Call(n, env)
