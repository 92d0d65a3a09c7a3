"""Dice in generated programs: `roll` (the engine's Rng draws, piece by piece in order, into
each die's `value`), and the builtins the dice games read (`str` of numbers, `top`/`bottom` of
n, `clamp`, `flatten`, `hand_rank` of plain numbers). DiceWriter gathers the mixins this area
adds: looks.py (changing attributes, faces, who saw what, choices among pieces), blocks.py
(simultaneous blocks in the engine's order), procedures.py (`return`, events), piece_kinds.py."""
from __future__ import annotations

from .. import ast
from .base import Unsupported
from .blocks import BlockWriter
from .looks import LooksWriter
from .piece_kinds import EMPTY, PIECE, PIECES, VALUE


class DiceWriter(LooksWriter, BlockWriter):
    def dice_tables(self) -> list[str]:
        """Module constants: each piece's owner, each die's faces (program.header writes them)."""
        out = self.owner_table()
        faces = [self.d.components[s["kind"]].faces or None for s in self.lay.static]
        if any(faces):
            out.append(f"FACES = {[tuple(f) if f else None for f in faces]!r}\n")
        return out

    # ------------------------------------------------------------------ roll
    def s_Roll(self, n, env, depth, chooser):
        if "value" not in self.mutable:
            raise self.unsupported("`roll` in a game without dice", n)
        what, kind = self.expr(n.what, env), self.rely(n.what, env)
        if kind == PIECE:
            what = f"({what},)"
        elif kind not in (PIECES, EMPTY):
            raise self.unsupported("`roll` of something not known to be pieces", n)
        if not (self.looks and "value" in self.unset_differs):  # the draws in one call (runtime._roll)
            self.emit(depth, f"_roll(rng, {what}, FACES, M_value)")
            return
        pc, fs = self.fresh("pc"), self.fresh("fs")
        self.emit(depth, f"for {pc} in {what}:")  # the engine's draws, piece by piece in order
        self.emit(depth + 1, f"{fs} = FACES[{pc}]")  # None: not a die (TypeError: the engine reports it)
        self.emit(depth + 1, f"D_value[{pc}] = M_value[{pc}] = {fs}[rng.below(len({fs}))]")

    def e_BinOp(self, n, env):
        # `//` and `%` are the cards area's (arithmetic.py): this stands in where theirs is not
        # there (as the engine: `//` plain, `%` on numbers only: codegen.modulo)
        try:
            return super().e_BinOp(n, env)
        except Unsupported:
            if n.op not in ("//", "%"):
                raise
        if n.op == "//":
            return f"({self.expr(n.left, env)} // {self.expr(n.right, env)})"
        return f"_mod({self.expr(n.left, env)}, {self.expr(n.right, env)})"

    def s_Perform(self, n, env, depth, chooser):
        if "event:action_end" in self.L.procs:  # the engine runs it after every perform
            raise self.unsupported("a handler of the event action_end", n)
        super().s_Perform(n, env, depth, chooser)

    # ------------------------------------------------------------------ builtins
    def builtin(self, name: str, args: list, env: dict, n: ast.Node) -> str:
        if name == "str" and len(args) == 1:
            arg = args[0]
            numeric = (isinstance(arg, ast.BinOp) and arg.op in ("+", "-", "*", "//", "%")) or (
                isinstance(arg, ast.Const) and type(arg.value) in (int, str)) or (
                isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name) and arg.func.id in ("count", "len"))
            if not numeric:  # a player, a piece, none, a bool: the engine's label() differs from str()
                raise self.unsupported("str() of something not known to be a number or a text", n)
            return f"str({self.expr(arg, env)})"
        if name in ("top", "bottom") and len(args) == 2:
            seq, k = self.expr(args[0], env), self.expr(args[1], env)
            return f"_{name}_n({seq}, {k})"
        if name == "bottom" and len(args) == 1:
            return f"_last({self.expr(args[0], env)})"
        if name == "clamp" and len(args) == 3:
            x, lo, hi = (self.expr(a, env) for a in args)
            return f"_clamp({x}, {lo}, {hi})"  # the arguments in their order
        if name == "flatten" and len(args) == 1:  # e.g. rolling several zones' dice at once
            return f"[_x for _xs in {self.expr(args[0], env)} for _x in _xs]"
        if name == "hand_rank" and len(args) == 2 and not n.kwargs and self.kind(args[0], env) == VALUE:
            return f"_values_rank({self.expr(args[0], env)}, {self.expr(args[1], env)})"
        return super().builtin(name, args, env, n)
