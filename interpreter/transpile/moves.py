"""A move of one piece, written in place: three list operations (the piece leaves its zone's
list, joins the end of the destination's, and `loc` records where it is), as runtime._move does
for it, without a call and without a one-piece list, and the face the destination forces on it
where looks are kept (looks.LooksWriter.mark_moved's line, for the one piece). Only where
nothing else happens to the piece on a move (nobody's sight of it cleared: looks.py; no grid in
the game: grids.py); every other move is the looks', the grids' or the statement writer's."""
from __future__ import annotations

from .. import ast
from .base import is_simple
from .piece_kinds import PIECE, PieceKindWriter


class MoveWriter(PieceKindWriter):
    """`move piece to zone [bottom]` in place (see the module docstring)."""

    def s_Move(self, n, env, depth, chooser):
        if (n.place not in (None, "bottom") or n.at is not None or not self.is_zone(n.to, env)
                or self.rely(n.what, env) != PIECE or not self.nothing_else_moves(n)):
            return super().s_Move(n, env, depth, chooser)
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
        forced = self.dest_face(n.face, n.to) if getattr(self, "looks", False) else None
        if forced is not None:
            self.emit(depth, f"FACE[{pc}] = {self.face_after(forced, pc)}")

    def nothing_else_moves(self, n: ast.Move) -> bool:
        """No sight cleared by this move (looks.LooksWriter.mark_moved; a forced face is
        written here), and no grid whose cells a piece may leave (grids.py's bookkeeping goes
        with every move)."""
        if getattr(self, "grid_names", None):
            return False
        return not getattr(self, "looks", False) or not self.seen_kept
