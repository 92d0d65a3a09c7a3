"""Table entries named by constants, written as their values: a table never changes during a
game, so `numbers.steps` or `limits['hand']` is the number itself in the generated program
(one lookup fewer each time it is read). Only numbers, texts and truth values are folded; lists
and maps stay reads of the table's module constant (T_<name>), which keeps them one object."""
from __future__ import annotations

from .. import ast
from .piece_kinds import PieceKindWriter

MISSING = object()


def table_constant(game, n: ast.Node, env: dict):
    """The value of `table.key` / `table[key]` with a constant key (a number, a text or a truth
    value found in the table), or MISSING."""
    if not (isinstance(n, (ast.Attr, ast.Index)) and isinstance(n.obj, ast.Name) and n.obj.id not in env
            and n.obj.id in game.tables and n.obj.id not in game.zones and n.obj.id not in game.variables
            and n.obj.id not in game.counters):
        return MISSING
    table = game.tables[n.obj.id]
    if isinstance(n, ast.Attr):
        key = n.name
    elif len(n.keys) == 1 and isinstance(n.keys[0], ast.Const):
        key = n.keys[0].value
    else:
        return MISSING
    if isinstance(table, dict) and type(key) is str and key in table:
        value = table[key]
    elif isinstance(table, list) and type(key) is int and 0 <= key < len(table):
        value = table[key]
    else:
        return MISSING
    return value if type(value) in (int, str, bool) else MISSING


class TableConstantWriter(PieceKindWriter):
    """Table entries with constant keys, folded (see the module docstring)."""

    def e_Attr(self, n, env):
        value = table_constant(self.d, n, env)
        return super().e_Attr(n, env) if value is MISSING else repr(value)

    def e_Index(self, n, env):
        value = table_constant(self.d, n, env)
        return super().e_Index(n, env) if value is MISSING else repr(value)
