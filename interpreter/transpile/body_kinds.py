"""What a call of a function with a statement body gives (a piece, pieces, other values:
piece_kinds.py), worked out from its statements without writing them: the kinds of its `return`
values joined, its locals followed in order. value_procs.py learns the same kind by writing the
function at its first call; asked while other kinds are still being worked out (a variable's,
from every procedure), writing it would read names whose kinds are not known yet (a `.zone`
refused), so the kind is read from the statements instead."""
from __future__ import annotations

from typing import Any

from .. import ast
from .piece_kinds import EMPTY, PieceKindWriter, element, join


class BodyKindWriter(PieceKindWriter):
    """The kind of a call of a value-giving `do:` function (see the module docstring)."""

    def k_Call(self, n, env):
        fn = self.d.functions.get(n.func.id) if isinstance(n.func, ast.Name) and n.func.id not in env else None
        if fn is None or fn.proc is None or len(n.args) != len(fn.params):
            return super().k_Call(n, env)
        stmts = self.L.procs[fn.proc.name]
        if not any(isinstance(s, ast.Return) and s.value is not None for s in ast.walk(stmts)):
            return super().k_Call(n, env)
        if fn.proc.name in self.inlining:
            return None
        local = {p: f"<kind:{self.kind(a, env)}>" for p, a in zip(fn.params, n.args)}
        self.inlining.append(fn.proc.name)
        try:
            return self.body_kind(stmts, local, EMPTY)
        finally:
            self.inlining.pop()

    def body_kind(self, stmts: list, local: dict, out: Any) -> Any:
        """`out` joined with the kind of every value these statements return, their locals'
        kinds followed in order (as piece_kinds._assigned_kind follows them)."""
        for st in stmts:
            if out is None:
                return None
            if isinstance(st, ast.Let):
                local[st.name] = f"<kind:{self.kind(st.value, local)}>"
            elif isinstance(st, ast.Assign) and isinstance(st.target, ast.Name) and st.target.id in local:
                both = join(self.code_kind(local[st.target.id]), self.kind(st.value, local))
                local[st.target.id] = f"<kind:{both}>"
            elif isinstance(st, ast.Return):
                out = join(out, EMPTY if st.value is None else self.kind(st.value, local))
            elif isinstance(st, (ast.For, ast.Simultaneous)):
                local[st.var] = f"<kind:{element(self.kind(st.iter, local))}>"
                out = self.body_kind(st.body, local, out)
            elif isinstance(st, ast.Choose):
                kind = element(self.kind(st.source, local))
                local[st.var] = f"<kind:{kind if st.count == 'one' else self.kind(st.source, local)}>"
            elif isinstance(st, ast.If):
                for _, body in st.branches:
                    out = self.body_kind(body, local, out)
                out = self.body_kind(st.orelse or [], local, out)
            elif isinstance(st, (ast.While, ast.Repeat)):
                out = self.body_kind(st.body, local, out)
        return out
