"""Procedures and events in generated programs: a procedure's body is inlined where it is
called, its parameters bound to the arguments; a `return` leaves it (a `break` out of a one-pass
loop around the body, or, from inside a loop of the procedure, an exception caught around it).
`emit` inlines the event's handlers (triggers, and the end conditions checked at round_end), as
the engine runs its `event:<name>` procedure with the emitting block's `player`."""
from __future__ import annotations

from .. import ast
from .piece_kinds import PieceKindWriter


class ProcedureWriter(PieceKindWriter):
    """`return` in inlined procedures, `emit` (see the module docstring)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.returns: list[str] = []  # how a `return` leaves each procedure being inlined

    def inline_proc(self, fn, call, env, depth) -> None:
        """A procedure's body, inlined; a `return` leaves it: `break` out of a one-pass loop, or
        (a return inside a loop of the procedure) an exception caught around the body."""
        stmts = self.L.procs[fn.proc.name]
        returns = [s for s in ast.walk(stmts) if isinstance(s, ast.Return)]
        if not returns:
            return self._inline_bound(fn, call, env, depth, stmts)
        if any(r.value is not None for r in returns):
            raise self.unsupported(f"`return` with a value in the procedure {fn.name} (called as a statement)",
                                   call)
        self.left_by_return(returns_in_loops(stmts), depth,
                            lambda: self._inline_bound(fn, call, env, depth + 1, stmts))

    def left_by_return(self, in_loop: bool, depth: int, write_body) -> None:
        """An inlined body that a `return` leaves: a one-pass loop left by `break`, or (a return
        inside a loop of the procedure) `_Return` raised and caught around the body.
        `write_body()` writes the body one level deeper."""
        self.emit(depth, "try:" if in_loop else "while True:")
        self.returns.append("raise _Return" if in_loop else "break")
        try:
            write_body()
        finally:
            self.returns.pop()
        self.emit(depth + 1, "pass" if in_loop else "break")
        if in_loop:
            self.emit(depth, "except _Return:")
            self.emit(depth + 1, "pass")

    def _inline_bound(self, fn, call, env, depth, stmts) -> None:
        """StatementWriter.inline_proc's binding of arguments, with their kinds recorded."""
        inner = self.bound_arguments(fn, call, env, depth)
        self.inlining.append(fn.proc.name)
        try:
            self.block(stmts, inner, depth, inner.get("player"))
        finally:
            self.inlining.pop()

    def bound_arguments(self, fn, call, env: dict, depth: int, guard: str | None = None) -> dict:
        """proc_arguments (statements.py), the kinds of the arguments recorded for the
        parameters' names (what a choice among them offers depends on it)."""
        kinds = [self.kind(arg, env) for arg in call.args]
        inner = self.proc_arguments(fn, call, env, depth, guard)
        for param, kind in zip(fn.params, kinds):
            code = inner[param]
            if code.isidentifier() and not code.startswith(("c_", "v_", "z_", "_PLAYERS")):
                self.bind_kind(code, kind, call)
        return inner

    def s_Return(self, n, env, depth, chooser):
        if not self.returns:
            raise self.unsupported("`return` outside a procedure", n)
        self.emit(depth, self.returns[-1])

    def s_Emit(self, n, env, depth, chooser):
        proc = f"event:{n.event}"
        if proc not in self.L.procs:
            return
        if proc in self.inlining:
            raise self.unsupported(f"the event {n.event} emitted by its own handler", n)
        stmts = self.L.procs[proc]
        if any(isinstance(s, ast.Return) for s in ast.walk(stmts)):
            raise self.unsupported(f"`return` in a handler of {n.event}", n)
        player = env.get("player", "None")  # the handler's `player`: the emitting block's, or none
        self.inlining.append(proc)
        try:
            self.block(stmts, {"player": player}, depth, None if player == "None" else player)
        finally:
            self.inlining.pop()


def returns_in_loops(stmts: list) -> bool:
    """Whether some `return` of these statements sits inside a loop of theirs."""
    for s in ast.walk(stmts):
        if isinstance(s, (ast.For, ast.While, ast.Repeat)):
            if any(isinstance(r, ast.Return) for r in ast.walk(s.body)):
                return True
    return False
