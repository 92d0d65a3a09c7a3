"""Tuples (`(x, y)`), and sequence builtins beyond expressions.py's and lists.py's: `concat` of
any number, `previous_player`, two-argument `range`, `ranking` and `awards_by_place`
(builtins.majority over plain lists), and `pass_zones` of a per-player zone family.
runtime.py (grid_runtime.py) holds the helpers they call."""
from __future__ import annotations

from .. import ast
from .piece_kinds import PieceKindWriter


class SequenceWriter(PieceKindWriter):
    """The builtins of the module docstring."""

    def e_TupleLit(self, n, env):
        return "(" + "".join(self.expr(x, env) + ", " for x in n.items) + ")"

    def k_TupleLit(self, n, env):
        return self.k_ListLit(n, env)

    def e_Call(self, n, env):
        if isinstance(n.func, ast.Name) and n.func.id not in env and n.func.id in ("ranking", "awards_by_place") \
                and n.func.id not in self.d.functions:
            return self.majority(n.func.id, n, env)
        return super().e_Call(n, env)

    def majority(self, name: str, n: ast.Call, env: dict) -> str:
        args = list(n.args)
        want = 2 if name == "ranking" else 3
        if set(n.kwargs) - {"policy"} or len(args) not in (want, want + 1) or (len(args) > want and n.kwargs):
            raise self.unsupported(f"this call of {name}", n)
        var, body = self.lam(args[1], env)
        rest = [self.expr(a, env) for a in args[2:]] + [self.expr(v, env) for v in n.kwargs.values()]
        helper = "_ranking" if name == "ranking" else "_awards"
        return f"{helper}({self.expr(args[0], env)}, lambda {var}: {body}{''.join(', ' + r for r in rest)})"

    def builtin(self, name: str, args: list, env: dict, n: ast.Node) -> str:
        if name == "concat" and len(args) != 2:  # two: expressions.py's
            return "[" + ", ".join(f"*{self.expr(a, env)}" for a in args) + "]"
        if name == "previous_player" and len(args) == 1:
            return f"(({self.expr(args[0], env)} - 1) % {self.n})"
        if name == "range" and len(args) == 2:
            return f"list(range({self.expr(args[0], env)}, {self.expr(args[1], env)}))"
        if name == "pass_zones" and len(args) in (1, 2):
            fam = args[0]
            if not (isinstance(fam, ast.Name) and fam.id not in env and fam.id in self.d.zones
                    and len(self.d.zones[fam.id].dims) == 1 and self.d.zones[fam.id].dims[0].kind == "player"
                    and self.d.zones[fam.id].grid is None):
                raise self.unsupported("pass_zones of something other than a per-player zone family", n)
            k = self.expr(args[1], env) if len(args) == 2 else "1"
            return f"_pass_zones(z_{fam.id}, {k}, loc)"
        return super().builtin(name, args, env, n)
