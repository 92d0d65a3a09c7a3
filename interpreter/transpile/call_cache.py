"""Calls of expression functions computed once per comprehension instead of once per element.

A function `x => …` written inside a comprehension is called again for every element the
comprehension visits: `[m for m in looks(c) if assignable(ws, w => without(pool(w), [m])))]`
works out `pool(w)` for each `w` once per `m`. While an expression is evaluated nothing in the
game changes (no statement runs), so an expression function's value depends on its arguments
alone; where its arguments are only the parameters of such an inner function, its value is
kept for the rest of that evaluation of the comprehension, in a dict keyed by the arguments
(`(c[w] if w in c else c.setdefault(w, pool(w)))`, the dict a fresh one each time the
comprehension is evaluated). Not where the comprehension can change the game or draw from the
Rng (a value-giving procedure, `random_choice`, `random_int`, `shuffled`, also inside the
functions it calls), and only for arguments known to be pieces (keys of a dict)."""
from __future__ import annotations

from .. import ast
from .piece_kinds import PIECE, PieceKindWriter

_RANDOM = {"random_choice", "random_int", "shuffled"}


class CallCacheWriter(PieceKindWriter):
    """Expression functions' values kept per comprehension (see the module docstring)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._scopes: list = []  # ("comp", var, [cache names]) or ("lam", param) being written
        self._volatile: dict[str, bool] = {}  # expression function -> may change the game or draw

    def e_Comprehension(self, n, env):
        if any(s[0] == "off" for s in self._scopes) or self.may_change(n):
            self._scopes.append(("off",))
        else:
            self._scopes.append(("comp", n.var, []))
        try:
            code = super().e_Comprehension(n, env)
        finally:
            scope = self._scopes.pop()
        if scope[0] == "comp" and scope[2]:
            names = ", ".join(scope[2])
            return f"(lambda {names}: {code})({', '.join('{}' for _ in scope[2])})"
        return code

    def lam(self, node, env):
        if not isinstance(node, ast.Lambda):
            return super().lam(node, env)
        self._scopes.append(("lam", node.param))
        try:
            return super().lam(node, env)
        finally:
            self._scopes.pop()

    def e_Call(self, n, env):
        code = super().e_Call(n, env)
        cache = self._cache_for(n, env)
        if cache is None:
            return code
        key = ", ".join(env[a.id] for a in n.args)
        key = f"({key},)" if len(n.args) > 1 else key
        return f"({cache}[{key}] if {key} in {cache} else {cache}.setdefault({key}, {code}))"

    def _cache_for(self, n, env) -> str | None:
        """The name of the dict keeping this call's values, or None where it is not kept: a
        call of an expression function whose arguments are parameters of functions written
        inside the innermost comprehension around them."""
        if not (isinstance(n.func, ast.Name) and n.func.id not in env and n.args and not n.kwargs):
            return None
        fn = self.d.functions.get(n.func.id)
        if fn is None or fn.proc is not None or n.func.id not in self.L.fn_nodes or len(n.args) != len(fn.params):
            return None
        comp = None
        for arg in n.args:
            if not isinstance(arg, ast.Name) or arg.id not in env or self.code_kind(env[arg.id]) != PIECE:
                return None
            found = self._binder(arg.id)
            if found is None or (comp is not None and found is not comp):
                return None
            comp = found
        name = self.fresh("_cc")
        comp[2].append(name)
        return name

    def _binder(self, name: str):
        """The comprehension scope in which the function whose parameter is `name` is written
        (the innermost binding of the name must be that parameter), or None."""
        for i in range(len(self._scopes) - 1, -1, -1):
            scope = self._scopes[i]
            if scope[0] == "off":
                return None
            if scope[0] == "lam" and scope[1] == name:
                for outer in reversed(self._scopes[:i]):
                    if outer[0] == "comp":
                        return outer
                    if outer[0] == "off":
                        return None
                return None
            if scope[0] == "comp" and scope[1] == name:
                return None
        return None

    def may_change(self, node) -> bool:
        """Whether evaluating `node` may change the game or draw from the Rng."""
        for x in ast.walk(node):
            if isinstance(x, ast.Call) and isinstance(x.func, ast.Name):
                name = x.func.id
                fn = self.d.functions.get(name)
                if fn is not None and fn.proc is not None:
                    return True
                if fn is not None and name in self.L.fn_nodes:
                    if name not in self._volatile:
                        self._volatile[name] = True  # while being looked at (recursion)
                        self._volatile[name] = self.may_change(self.L.fn_nodes[name])
                    if self._volatile[name]:
                        return True
                elif fn is None and name in _RANDOM:
                    return True
        return False
