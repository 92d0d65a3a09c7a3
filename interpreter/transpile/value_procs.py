"""Functions with a `do:` body that give a value (`return x`), called inside an expression: each
is written once as a function nested in play() (`p_<name>`), its `return`s Python returns. Such a
body may read and change the game (moves, counters) but may not ask a player anything: a
decision inside an expression is refused by name. The kind of what it returns (pieces or other
values: piece_kinds.py) is the join of its `return`s' kinds, known once it is written, so it is
written at its first call."""
from __future__ import annotations

from typing import Any

from .. import ast
from .blocks import _assigned_names
from .piece_kinds import EMPTY, PieceKindWriter, join

_VALUE_RETURN = "\x00value return"  # on self.returns: a `return` here is a Python return


class ValueProcWriter(PieceKindWriter):
    """`p_<name>` nested functions for value-giving procedures (see the module docstring)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.proc_defs: list[str] = []  # the nested functions' lines (program.py places them)
        self.proc_kinds: dict[str, Any] = {}  # name -> the kind its returns give (None: unknown)
        self.value_proc: list[str] = []  # the value procedures being written
        self._return_kinds: list[list] = []

    def is_value_proc(self, name: str) -> bool:
        fn = self.d.functions.get(name)
        return fn is not None and fn.proc is not None and any(
            isinstance(s, ast.Return) and s.value is not None for s in ast.walk(self.L.procs[fn.proc.name]))

    def e_Call(self, n, env):
        if isinstance(n.func, ast.Name) and n.func.id not in env and self.is_value_proc(n.func.id):
            name = n.func.id
            fn = self.d.functions[name]
            if n.kwargs or len(n.args) != len(fn.params):
                raise self.unsupported(f"this call of {name}", n)
            self.write_value_proc(name, n)
            return f"p_{name}({', '.join(self.expr(a, env) for a in n.args)})"
        return super().e_Call(n, env)

    def k_Call(self, n, env):
        if isinstance(n.func, ast.Name) and n.func.id not in env and self.is_value_proc(n.func.id):
            self.write_value_proc(n.func.id, n)
            return self.proc_kinds.get(n.func.id)
        return super().k_Call(n, env)

    def write_value_proc(self, name: str, call: ast.Node) -> None:
        """Write p_<name> now (once), aside from the lines being written."""
        if name in self.proc_kinds or name in self.value_proc:
            return  # written, or being written (a recursive call: its kind is not known yet)
        fn = self.d.functions[name]
        saved = (self.lines, self.returns, self.inlining, getattr(self, "in_block", None))
        self.lines, self.returns, self.inlining = [], [_VALUE_RETURN], [fn.proc.name]
        if hasattr(self, "in_block"):
            self.in_block = None
        self.value_proc.append(name)
        self._return_kinds.append([])
        try:
            env = {p: self.fresh(p) for p in fn.params}
            self.emit(1, f"def p_{name}({', '.join(env[p] for p in fn.params)}):")
            start = len(self.lines)
            self.body(self.L.procs[fn.proc.name], env, 2, None)
            self.emit(2, "return None")
            state = {f"c_{c}" for c in self.d.counters} | {f"v_{v}" for v in self.d.variables} | {"_steps", "_reason"}
            shared = sorted(_assigned_names(self.lines[start:]) & state)  # play()'s own names
            if shared:
                self.lines.insert(start, "        " + f"nonlocal {', '.join(shared)}")
            kind: Any = EMPTY
            for k in self._return_kinds[-1]:
                kind = join(kind, k) if kind is not None else None
            self.proc_kinds[name] = kind
            self.proc_defs.extend(self.lines)
        finally:
            self.value_proc.pop()
            self._return_kinds.pop()
            self.lines, self.returns, self.inlining = saved[:3]
            if hasattr(self, "in_block"):
                self.in_block = saved[3]

    def s_Return(self, n, env, depth, chooser):
        if not self.returns or self.returns[-1] != _VALUE_RETURN:
            return super().s_Return(n, env, depth, chooser)
        if n.value is None:
            self.emit(depth, "return None")
            self._return_kinds[-1].append(EMPTY)
            return
        self._return_kinds[-1].append(self.kind(n.value, env))
        self.emit(depth, f"return {self.expr(n.value, env)}")

    def decide(self, options: str, who: str, depth: int) -> str:
        if self.value_proc:
            raise self.unsupported(f"a decision inside the value-giving function {self.value_proc[-1]}")
        return super().decide(options, who, depth)
