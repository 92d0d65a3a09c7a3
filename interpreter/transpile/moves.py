"""A move of one piece, written in place: three list operations (the piece leaves its zone's
list, joins the end of the destination's, and `loc` records where it is), as runtime._move does
for it, without a call and without a one-piece list, then what looks.py marks on a moved piece
(a face forced on it, nobody's sight of it), written for that piece. Not in a game with grids
(grids.py's bookkeeping goes with every move); every other move is the looks', the grids' or
the statement writer's."""
from __future__ import annotations

from .base import is_simple
from .piece_kinds import PIECE, PieceKindWriter


class MoveWriter(PieceKindWriter):
    """`move piece to zone [bottom]` in place (see the module docstring)."""

    def s_Move(self, n, env, depth, chooser):
        if (n.place not in (None, "bottom") or n.at is not None or not self.is_zone(n.to, env)
                or self.rely(n.what, env) != PIECE or getattr(self, "grid_names", None)):
            return super().s_Move(n, env, depth, chooser)
        looks = getattr(self, "looks", False)
        forced = self.dest_face(n.face, n.to) if looks else None
        pc = self.expr(n.what, env)
        if not is_simple(pc):
            name = self.fresh("pc")
            self.emit(depth, f"{name} = {pc}")
            pc = name
        dest = self.zone(n.to, env)
        if not is_simple(dest):
            name = self.fresh("dest")
            self.emit(depth, f"{name} = {dest}")
            dest = name
        self.emit(depth, f"loc[{pc}].remove({pc})")
        self.emit(depth, f"{dest}.append({pc})")
        self.emit(depth, f"loc[{pc}] = {dest}")
        if looks:
            for line in self.moved_marks(pc, forced):
                self.emit(depth, line)
