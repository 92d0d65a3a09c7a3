"""Names as values and the families they index, in generated programs.

A component's (board's, action's) id read as a name is that text, as the engine reads it
(codegen.x_Name): `reserve[backpack]`, `m.kind == backpack`. A zone family indexed by names
(`per: [{values: [...]}]`) is a dict from each name to its list (program.state_init), so an
index computed at run time (`reserve[c.step.marker]`) reads the same zone as in the engine, and a
name it does not have raises as the engine's layout does. A zone handed to a procedure, or
named by a `let`, is that zone's list inside it (moves and draws reach it)."""
from __future__ import annotations

import re

from .. import ast
from .base import WriterBase
from .piece_kinds import VALUE

_ZONE_LIST = re.compile(r"^z_[A-Za-z_0-9]+$")


class FamilyWriter(WriterBase):
    """Ids of components, boards and actions as texts, and zones named by parameters and
    `let` (see the module docstring)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.zone_locals: dict[str, str] = {}  # Python name bound to a zone's list -> its family
        self._env: dict | None = None  # the names of the move or draw being written

    def zone_family(self, node: ast.Node, env: dict) -> str | None:
        """The family of the zone an expression names (a zone, one of a family, or a local
        bound to one); None if it names no zone."""
        if isinstance(node, ast.Name) and node.id in env:
            code = env[node.id]
            if code in self.zone_locals:
                return self.zone_locals[code]
            return code[2:] if _ZONE_LIST.match(code) and code[2:] in self.d.zones else None
        if super().is_zone(node, env):
            return node.id if isinstance(node, ast.Name) else node.obj.id
        return None

    def zone_local(self, node: ast.Node, env: dict) -> str | None:
        """The list of the zone a parameter or a `let` names (a plain zone's list is bound as
        its own name, `z_bank`; one of a family as a local)."""
        if isinstance(node, ast.Name) and node.id in env and self.zone_family(node, env) is not None:
            return env[node.id]
        return None

    def zone(self, node: ast.Node, env: dict) -> str:
        code = self.zone_local(node, env)
        return code if code is not None else super().zone(node, env)

    def is_zone(self, node: ast.Node, env: dict) -> bool:
        return self.zone_local(node, env) is not None or super().is_zone(node, env)

    def proc_arguments(self, fn, call, env: dict, depth: int, guard: str | None = None) -> dict:
        inner = super().proc_arguments(fn, call, env, depth, guard)
        for param, arg in zip(fn.params, call.args):
            family = self.zone_family(arg, env)
            if family is not None:
                self.zone_locals[inner[param]] = family
        return inner

    def s_Let(self, n, env, depth, chooser):
        family = self.zone_family(n.value, env)
        super().s_Let(n, env, depth, chooser)
        if family is not None:
            self.zone_locals[env[n.name]] = family

    def e_Compare(self, n, env):
        """A zone compared with none: never equal (the zone is a list, `is` says so)."""
        sides = (n.left, n.right)
        if n.op in ("==", "!=") and any(isinstance(x, ast.Const) and x.value is None for x in sides) \
                and any(self.zone_family(x, env) is not None for x in sides):
            op = "is" if n.op == "==" else "is not"
            return f"({self.expr(n.left, env)} {op} {self.expr(n.right, env)})"
        return super().e_Compare(n, env)

    def dest_face(self, face, dest: ast.Node):
        """The face a move to a zone local gives: its family's `face`, as a move to the zone."""
        if face is None and isinstance(dest, ast.Name) and self._env is not None:
            code = self.zone_local(dest, self._env)
            if code is not None:
                return self.d.zones[self.zone_family(dest, self._env)].face
        return super().dest_face(face, dest)

    def s_Move(self, n, env, depth, chooser):
        self._env = env  # for dest_face
        super().s_Move(n, env, depth, chooser)

    def s_Draw(self, n, env, depth, chooser):
        self._env = env  # for dest_face
        super().s_Draw(n, env, depth, chooser)

    def named_id(self, name: str, env: dict) -> bool:
        """Whether `name` reads as an id text here (nothing else of the rule file has that name)."""
        d = self.d
        if name in env or name in d.variables or name in d.zones or name in d.counters or name in d.tables:
            return False
        if name in ("players", "player_count", "game_over"):
            return False
        return name in d.components or name in d.boards or name in d.actions

    def e_Name(self, n, env):
        if self.named_id(n.id, env):
            return repr(n.id)
        return super().e_Name(n, env)

    def k_Name(self, n, env):
        if self.named_id(n.id, env):
            return VALUE
        return super().k_Name(n, env)
