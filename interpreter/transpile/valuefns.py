"""Functions with a statement body (`do:`) called in an expression: each becomes a function
nested in play() (`g_<name>`), its statements written by the statement writer and each
`return value` a Python `return` (falling off the end gives none, as in the engine).

Covered when the body only computes: locals (`let`, assignments to them), `if`, loops,
`return`, `log`, `pass`. A body that changes the state (moves, counters, variables, pieces'
attributes), asks a decision or calls a procedure is refused by name: the nested function
would see the program's state as a closure, but not set it.

What such a call gives (a piece, pieces, other values: piece_kinds.py) is the kinds of its
`return` values joined, its locals followed in order ("body kinds", `body_kind`)."""
from __future__ import annotations

from typing import Any

from .. import ast
from .piece_kinds import EMPTY, PieceKindWriter, element, join

_COMPUTING = (ast.Let, ast.Assign, ast.If, ast.For, ast.While, ast.Repeat, ast.Return, ast.Break,
              ast.Continue, ast.Pass, ast.Log)
_VALUE_RETURN = "\x00return value"  # on self.returns while a nested function's body is written


class ValueFunctionWriter(PieceKindWriter):
    """`do:` functions called in expressions (see the module docstring)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.value_fns: dict[str, str] = {}  # name -> the nested function's name
        self.value_fns_written: set[str] = set()

    def is_value_fn(self, name: str, env: dict) -> bool:
        fn = self.d.functions.get(name)
        return name not in env and fn is not None and fn.proc is not None and any(
            isinstance(s, ast.Return) and s.value is not None for s in ast.walk(self.L.procs[fn.proc.name]))

    def e_Call(self, n, env):
        if not (isinstance(n.func, ast.Name) and self.is_value_fn(n.func.id, env)):
            return super().e_Call(n, env)
        name, fn = n.func.id, self.d.functions[n.func.id]
        if n.kwargs or len(n.args) != len(fn.params):
            raise self.unsupported(f"this call of {name}", n)
        self.check_computing(name, n)
        self.value_fns.setdefault(name, f"g_{name}")
        return f"g_{name}({', '.join(self.expr(a, env) for a in n.args)})"

    def check_computing(self, name: str, n: ast.Node) -> None:
        """Refuse a body that does more than compute (see the module docstring)."""
        fn = self.d.functions[name]
        stmts = self.L.procs[fn.proc.name]
        own = set(fn.params) | {s.name for s in ast.walk(stmts) if isinstance(s, ast.Let)}
        for s in ast.walk(stmts):
            if type(s).__name__ in _STATEMENTS and not isinstance(s, _COMPUTING):
                raise self.unsupported(f"the statement {type(s).__name__} in {name}, called in an expression", n)
            if isinstance(s, ast.Assign) and not (isinstance(s.target, ast.Name) and s.target.id in own):
                raise self.unsupported(f"an assignment to the state in {name}, called in an expression", n)

    def nested_functions(self, depth: int) -> list[str]:
        """Expression functions (program.py) and `do:` functions, until every one needed is written."""
        out: list[str] = []
        while True:
            out += self.expression_functions(depth)  # program.py
            pending = sorted(set(self.value_fns) - self.value_fns_written)
            if not pending:
                return out
            for name in pending:
                self.value_fns_written.add(name)
                self.lines = []
                self.write_value_fn(name, depth)
                out += self.lines

    def write_value_fn(self, name: str, depth: int) -> None:
        fn = self.d.functions[name]
        env = {param: self.fresh(param) for param in fn.params}
        for code in env.values():
            self.bind_kind(code, None)
        self.emit(depth, f"def g_{name}({', '.join(env[p] for p in fn.params)}):")
        self.inlining.append(fn.proc.name)
        saved, self.returns = self.returns, [_VALUE_RETURN]
        try:
            self.block(self.L.procs[fn.proc.name], env, depth + 1, None)
        finally:
            self.returns = saved
            self.inlining.pop()
        self.emit(depth + 1, "return None")

    def s_Return(self, n, env, depth, chooser):
        if not self.returns or self.returns[-1] != _VALUE_RETURN:
            return super().s_Return(n, env, depth, chooser)
        self.emit(depth, f"return {'None' if n.value is None else self.expr(n.value, env)}")

    # ------------------------------------------------------------------ body kinds
    def k_Call(self, n, env):
        if isinstance(n.func, ast.Name) and self.is_value_fn(n.func.id, env):
            fn = self.d.functions[n.func.id]
            if fn.proc.name in self.inlining or len(n.args) != len(fn.params):
                return None
            local = {p: f"<kind:{self.kind(a, env)}>" for p, a in zip(fn.params, n.args)}
            self.inlining.append(fn.proc.name)
            try:
                return self.body_kind(self.L.procs[fn.proc.name], local, EMPTY)
            finally:
                self.inlining.pop()
        return super().k_Call(n, env)

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
            elif isinstance(st, ast.For):
                local[st.var] = f"<kind:{element(self.kind(st.iter, local))}>"
                out = self.body_kind(st.body, local, out)
            elif isinstance(st, ast.If):
                for _, body in st.branches:
                    out = self.body_kind(body, local, out)
                out = self.body_kind(st.orelse or [], local, out)
            elif isinstance(st, (ast.While, ast.Repeat)):
                out = self.body_kind(st.body, local, out)
        return out


_STATEMENTS = {"Emit", "Log", "Reveal", "Pass", "Break", "Continue", "EndGame", "Let", "Assign", "If", "While",
               "For", "Repeat", "Shuffle", "Deal", "Move", "Draw", "Flip", "Choose", "Perform", "Simultaneous",
               "ExprStmt", "Return", "Roll"}
