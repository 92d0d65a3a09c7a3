"""A procedure's locals as the engine keeps them: one slot per name in the procedure's frame
(compiler: `L[name]`), so a `let` or a `choose` that binds a name the procedure already bound
writes that same slot, inside an `if` or a loop too, and the value is read after the block.

The generator writes each binding as a fresh Python name and gives nested blocks a copy of the
names in scope; a binding of a name already bound in the same procedure is therefore written
back to the earlier Python name (`m_1 = m_2`). A name the procedure received as a parameter is
the caller's code, not a slot of this procedure: it is bound anew as before. A loop over a name
the procedure bound before is refused (after the loop the engine's slot holds the last element)."""
from __future__ import annotations

from .piece_kinds import PieceKindWriter


class FrameWriter(PieceKindWriter):
    """Rebinding a procedure's own locals (see the module docstring)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.own_locals: dict[str, int] = {}  # Python name -> the inlining depth that bound it

    def _own(self, name: str, env: dict) -> str | None:
        code = env.get(name)
        if code is not None and self.own_locals.get(code) == len(self.inlining):
            return code
        return None

    def _rebound(self, name: str, env: dict, earlier: str | None, depth: int) -> None:
        code = env[name]
        if earlier is None:
            self.own_locals[code] = len(self.inlining)
            return
        self.emit(depth, f"{earlier} = {code}")
        self.bind_kind(earlier, self.code_kinds.get(code))
        env[name] = earlier

    def s_Let(self, n, env, depth, chooser):
        earlier = self._own(n.name, env)
        super().s_Let(n, env, depth, chooser)
        self._rebound(n.name, env, earlier, depth)

    def s_For(self, n, env, depth, chooser):
        if self._own(n.var, env) is not None:  # the engine's slot keeps the last element
            raise self.unsupported(f"a loop over {n.var}, a local the procedure bound before", n)
        super().s_For(n, env, depth, chooser)

    def s_Choose(self, n, env, depth, chooser):
        earlier = self._own(n.var, env)
        super().s_Choose(n, env, depth, chooser)
        self._rebound(n.var, env, earlier, depth)
