"""A function's value kept from one statement to the next where nothing can change it: the
engine computes `f(p)` at each statement that reads it; a program may read it once.

A window is a run of statements in one block where the state cannot change between them: an
`if` whose branch always leaves the block (break, continue, end_game) and has no `else` (what
follows runs only when the branch did not), and a `perform`'s conditions (its actions run after
them, and end the window). A call of a rule-file function at a place evaluated every time its
statement runs (the statement's whole expression, the left side of and/or, the operand of not,
disclose's argument, an inlined function's body there) is written `(m := …)` and read as `m` by
the same call (same function, same argument names) later in the window. Only functions whose
bodies, and the functions they call, use builtins that read only their arguments and the state
(no draw of the Rng) are kept; a rule file with procedures that give values (they may change the
game in the middle of an expression) keeps none. Every other statement closes the window.

The values are the engine's: each is computed where the engine first computes it, from the same
state, and nothing changes the state before the engine would compute it again."""
from __future__ import annotations

from typing import Any

from .. import ast
from .base import WriterBase

# builtins whose value depends only on their arguments and the state they read
_PURE = frozenset({
    "count", "any", "all", "sum", "len", "first", "top", "bottom", "empty", "last", "disclose",
    "range", "unique", "min2", "max2", "index_of", "concat", "pieces", "map", "filter", "max",
    "min", "argmax", "next_player", "players_from", "remove", "hand_rank", "str", "clamp",
    "flatten", "get", "sort", "without"})
_LEAVING = (ast.Break, ast.Continue, ast.EndGame)


class MemoWriter(WriterBase):
    """Function values kept over a window of statements (see the module docstring)."""

    memo_windows = True  # False in a writer whose statements are not written one after the other

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.memo: dict | None = None  # (function, argument codes) -> local, in an open window
        self.memo_root: Any = None  # the node the next expression written is, if evaluated surely
        self.memo_here: Any = None  # the node being written, if evaluated surely
        self.memo_body: Any = None  # the call whose inlined body is evaluated surely
        self.expr_depth = 0
        self._memo_fns: dict[str, bool] = {}
        self._memo_ok: bool | None = None

    # ------------------------------------------------------------------ windows
    def block(self, stmts: list, env: dict, depth: int, chooser: str | None) -> None:
        if not self.memo_windows or not self.memo_allowed():
            return super().block(stmts, env, depth, chooser)
        outer = self.memo
        try:
            self.memo = {}
            for stmt in stmts:
                kept = self.transparent(stmt)
                if not kept:
                    self.memo = None
                super().block([stmt], env, depth, chooser)
                self.memo = self.memo if kept and not isinstance(stmt, ast.Perform) else {}
        finally:
            self.memo = outer

    def transparent(self, stmt: ast.Node) -> bool:
        """A statement after which the window stays open (see the module docstring), or a
        perform (its conditions read the window; its actions close it)."""
        if isinstance(stmt, ast.Perform):
            return not stmt.optional and stmt.where is None
        return (isinstance(stmt, ast.If) and len(stmt.branches) == 1 and not stmt.orelse
                and bool(stmt.branches[0][1]) and isinstance(stmt.branches[0][1][-1], _LEAVING))

    def memo_allowed(self) -> bool:
        """No procedure giving a value (it could change the game inside an expression)."""
        if self._memo_ok is None:
            is_value_proc = getattr(self, "is_value_proc", None)
            self._memo_ok = not any(fn.proc is not None and (is_value_proc is None or is_value_proc(name))
                                    for name, fn in self.d.functions.items())
        return self._memo_ok

    def memo_fn(self, name: str, seen: frozenset = frozenset()) -> bool:
        """A function whose value may be kept: an expression using only _PURE builtins and
        functions that may be kept."""
        if name in self._memo_fns:
            return self._memo_fns[name]
        fn = self.d.functions.get(name)
        ok = fn is not None and fn.proc is None and name in self.L.fn_nodes and name not in seen
        if ok:
            for node in ast.walk(self.L.fn_nodes[name]):
                if isinstance(node, ast.Call):
                    callee = node.func.id if isinstance(node.func, ast.Name) else None
                    if callee is None or not (callee in _PURE and callee not in self.d.functions
                                              or self.memo_fn(callee, seen | {name})):
                        ok = False
                        break
        self._memo_fns[name] = ok
        return ok

    # ------------------------------------------------------------------ where a call is surely evaluated
    def expr(self, n: ast.Node, env: dict) -> str:
        if self.memo is None:
            return super().expr(n, env)
        sure = self.expr_depth == 0 or self.memo_root is n
        self.memo_root = None
        self.memo_here = n if sure else None
        self.expr_depth += 1
        try:
            return super().expr(n, env)
        finally:
            self.expr_depth -= 1
            self.memo_root = None

    def e_BoolOp(self, n, env):
        if self.memo is not None and self.memo_here is n:
            self.memo_root = n.left  # the right side only sometimes
        return super().e_BoolOp(n, env)

    def e_Not(self, n, env):
        if self.memo is not None and self.memo_here is n:
            self.memo_root = n.operand
        return super().e_Not(n, env)

    def inlined(self, call: ast.Call, body: ast.Node) -> None:
        if self.memo_body is call:
            self.memo_body = None
            self.memo_root = body
        super().inlined(call, body)

    def e_Call(self, n, env):
        sure = self.memo is not None and self.memo_here is n
        name = n.func.id if isinstance(n.func, ast.Name) and n.func.id not in env else None
        if not sure or name is None:
            return super().e_Call(n, env)
        if name == "disclose" and name not in self.d.functions and len(n.args) == 1:
            self.memo_root = n.args[0]
            return super().e_Call(n, env)
        if (n.kwargs or not self.memo_fn(name)
                or not all(isinstance(a, (ast.Name, ast.Const)) for a in n.args)):
            return super().e_Call(n, env)
        key = (name, *(self.expr(a, env) for a in n.args))
        kept = self.memo.get(key)
        if kept is not None:
            return kept
        self.memo_body = n
        try:
            code = super().e_Call(n, env)
        finally:
            self.memo_body = None
        var = self.fresh("m")
        self.memo[key] = var
        return f"({var} := {code})"
