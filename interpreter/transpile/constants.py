"""Expression functions without parameters that read only tables and constants (as the
engine's codegen.fold_constants finds them) are computed once, when the program is written, and
written as their value: `duplex_round()` becomes `2`. Found from the written code: it must name
nothing but tables (T_…), Python's builtins and runtime helpers that read only their
arguments (a function it calls with a computed argument, written as a nested function, is
inlined for this: folded_inline); what fails to compute is left as written (an error stays
where it was, at play)."""
from __future__ import annotations

import builtins
import dis
from types import CodeType
from typing import Any

from .. import ast
from . import runtime
from .base import WriterBase

_PURE = {"_first", "_last", "_extreme_of", "_extreme", "_get", "_index_of", "_listed", "_mod", "_top_n",
         "_bottom_n", "_clamp", "_remove", "_argmax", "_argmax_keys"}
_PLAIN = (int, str, bool, type(None))


class ConstantWriter(WriterBase):
    """Constant expression functions written as their values (see the module docstring)."""

    def e_Call(self, n, env):
        code = super().e_Call(n, env)
        if isinstance(n.func, ast.Name) and n.func.id not in env and not n.args and not n.kwargs:
            fn = self.d.functions.get(n.func.id)
            if fn is not None and not fn.params and fn.proc is None:
                value = self.folded(code)
                if value is None and not self.fold_inline and "f_" in code:
                    value = self.folded_inline(n.func.id)
                if value is not None:
                    return value
        return code

    def folded_inline(self, name: str) -> str | None:
        """folded() of the function's body written with every function it calls inlined, even
        where an argument is computed (a nested function f_… stops folded()): written by a
        writer of its own (fold_inline: inline every call), never into the program; only its
        value counts, and a pure expression's value does not depend on how often or in which
        order its parts are computed. Kept by function."""
        kept = self.__dict__.setdefault("_inline_folds", {})
        if name not in kept:
            try:
                sub = type(self)(self.L, self.n, self.options)
                sub.fold_inline = True
                kept[name] = self.folded(sub.expr(self.L.fn_nodes[name], {}))
            except Exception:  # noqa: BLE001 - not folded: written as it is
                kept[name] = None
        return kept[name]

    def folded(self, code: str) -> str | None:
        """The code's value as a literal, if it reads only tables and pure helpers; else None."""
        try:
            compiled = compile(code, "<constant>", "eval")
        except SyntaxError:
            return None
        names = _global_names(compiled)
        if not all((name.startswith("T_") and name[2:] in self.d.tables) or name in _PURE
                   or (hasattr(builtins, name) and not name.startswith("_")) for name in names):
            return None
        scope = {f"T_{k}": v for k, v in self.d.tables.items()} | {k: getattr(runtime, k) for k in _PURE}
        try:
            value = eval(compiled, scope)
        except Exception:  # noqa: BLE001 - left as written: the engine reports it when played
            return None
        return repr(value) if _literal(value) else None


_READS = frozenset({"get", "__getitem__", "fromkeys", "index", "count", "keys", "values", "items"})


def _global_names(code: CodeType) -> set:
    """The global names the code reads, and every attribute it reads that is not one of the
    read-only methods of lists and maps (_READS: a row's field is `row.get('f')`)."""
    out = set()
    for ins in dis.get_instructions(code):
        if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME") or (ins.opname in ("LOAD_ATTR", "LOAD_METHOD")
                                                           and ins.argval not in _READS):
            out.add(ins.argval)
    for const in code.co_consts:
        if isinstance(const, CodeType):
            out |= _global_names(const)
    return out


def _literal(value: Any) -> bool:
    if type(value) in _PLAIN:
        return True
    if type(value) in (list, tuple):
        return all(_literal(v) for v in value)
    return False
