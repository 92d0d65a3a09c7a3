"""A choice whose name is a local already bound (`let c = first(cells)`, then, under an `if`,
`choose c from cells`) sets that local, as the engine's choice does: the writers below bind the
chosen value to a fresh name, which is then copied into the local (an `if` body's names are its
own: the fresh name alone would be lost after it)."""
from __future__ import annotations

import re

from .piece_kinds import PieceKindWriter

_LOCAL = re.compile(r"^[A-Za-z_]\w*_\d+$")  # a name WriterBase.fresh made


class RebindWriter(PieceKindWriter):
    """`choose x …` when x is a local already: the local is set (see the module docstring)."""

    def s_Choose(self, n, env, depth, chooser):
        before = env.get(n.var)
        super().s_Choose(n, env, depth, chooser)
        after = env.get(n.var)
        if before is not None and _LOCAL.match(before) and after != before:
            self.bind_kind(before, self.code_kind(after), n)
            self.emit(depth, f"{before} = {after}")
            env[n.var] = before
