"""Zones passed as values: a procedure's parameter bound to a zone (`call f(…, hand[p])`) is
the zone's list itself in a generated program (the same list, so moves to it and reads of it
are the zone's), and may be used wherever a zone is (`move … to z`). Known by the code of the
local they are bound to, with the zone family they come from (for its default face)."""
from __future__ import annotations

from .. import ast
from .piece_kinds import PIECES, PieceKindWriter


def _family(node: ast.Node) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Index) and isinstance(node.obj, ast.Name):
        return node.obj.id
    return None


class ZoneValueWriter(PieceKindWriter):
    """Locals holding a zone (see the module docstring)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.zone_locals: dict[str, str] = {}  # local's code -> its zone family

    def proc_arguments(self, fn, call, env: dict, depth: int, guard: str | None = None) -> dict:
        inner = super().proc_arguments(fn, call, env, depth, guard)
        for param, arg in zip(fn.params, call.args):
            if self.is_zone(arg, env) and inner[param].isidentifier():
                fam = _family(arg)
                self.zone_locals[inner[param]] = self.zone_locals.get(env.get(fam), fam) if fam in env else fam
        return inner

    def local_zone(self, node: ast.Node, env: dict) -> str | None:
        """The code of a local holding a zone, or None."""
        if isinstance(node, ast.Name) and node.id in env and env[node.id] in self.zone_locals:
            return env[node.id]
        return None

    def is_zone(self, node: ast.Node, env: dict) -> bool:
        return self.local_zone(node, env) is not None or super().is_zone(node, env)

    def zone(self, node: ast.Node, env: dict) -> str:
        code = self.local_zone(node, env)
        return code if code is not None else super().zone(node, env)

    def dest_face(self, face, dest: ast.Node):
        code = self.__dict__.get("_env_dest")
        if face is None and isinstance(dest, ast.Name) and code is not None and dest.id in code:
            return self.d.zones[self.zone_locals[code[dest.id]]].face
        return super().dest_face(face, dest)

    def s_Move(self, n, env, depth, chooser):
        self._env_dest = {k: v for k, v in env.items() if v in self.zone_locals}
        try:
            super().s_Move(n, env, depth, chooser)
        finally:
            self._env_dest = None

    def k_Name(self, n, env):
        if self.local_zone(n, env) is not None:
            return PIECES
        return super().k_Name(n, env)
