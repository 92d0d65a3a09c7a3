"""Division and remainder (`/`, `//`, `%`) written with the engine's semantics (codegen.x_BinOp):
Python's own operators (true division gives a float, `//` floors, division by zero raises), and
`%` refused on a text (Python would format it) unless the left side is surely a number."""
from __future__ import annotations

from .. import ast
from .base import WriterBase


class ArithmeticWriter(WriterBase):
    def division(self, n: ast.BinOp, env: dict) -> str:
        left, right = self.expr(n.left, env), self.expr(n.right, env)
        if n.op == "%" and not self.surely_number(n.left, env):
            return f"_mod({left}, {right})"
        return f"({left} {n.op} {right})"

    def surely_number(self, n: ast.Node, env: dict) -> bool:
        """Is `n` surely a number (or an error) whatever the game's state? (never a text)"""
        if isinstance(n, ast.Const):
            return type(n.value) in (int, float, bool)
        if isinstance(n, ast.Neg):
            return True
        if isinstance(n, ast.BinOp):
            return n.op in ("-", "/", "//", "%") or self.surely_number(n.left, env) or self.surely_number(n.right, env)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
            return n.func.id in ("count", "len") and n.func.id not in env and n.func.id not in self.d.functions
        if isinstance(n, ast.Name):
            return n.id not in env and (n.id in self.d.counters or n.id == "player_count")
        if isinstance(n, ast.Index) and isinstance(n.obj, ast.Name):
            return n.obj.id not in env and n.obj.id in self.d.counters
        return False
