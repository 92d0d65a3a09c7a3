"""Names as values and the families they index, in generated programs.

A component's (board's, action's) id read as a name is that text, as the engine reads it
(codegen.x_Name): `reserve[backpack]`, `m.kind == backpack`. A zone family indexed by names
(`per: [{values: [...]}]`) is a dict from each name to its list (program.state_init), so an
index computed at run time (`reserve[c.step.marker]`) reads the same zone as in the engine, and a
name it does not have raises as the engine's layout does. A zone handed to a procedure as its
plain list's name is that zone inside it (moves and draws reach it)."""
from __future__ import annotations

import re

from .. import ast
from .base import WriterBase
from .piece_kinds import VALUE

_ZONE_LIST = re.compile(r"^z_[A-Za-z_0-9]+$")


class FamilyWriter(WriterBase):
    """Ids of components, boards and actions as texts, and zones passed to procedures (see the
    module docstring)."""

    def zone_local(self, node: ast.Node, env: dict) -> str | None:
        """The list of the zone a parameter names, when the argument was a zone written as its
        list's plain name (proc_arguments binds such an argument as the name itself)."""
        if isinstance(node, ast.Name) and node.id in env and _ZONE_LIST.match(env[node.id]):
            return env[node.id]
        return None

    def zone(self, node: ast.Node, env: dict) -> str:
        code = self.zone_local(node, env)
        return code if code is not None else super().zone(node, env)

    def is_zone(self, node: ast.Node, env: dict) -> bool:
        return self.zone_local(node, env) is not None or super().is_zone(node, env)

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
