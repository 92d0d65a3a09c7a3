"""Whether a choice's `label EXPR` reads nothing but the option it labels: the option's fixed
attributes, tables, game options, constants, and expression functions that read no more.

Such labels are equal wherever the options are the same pieces, whatever else differs between
two states. transpile/rewinds.py relies on it: the engine keeps a rewound world only if the
player is offered the labels it sees now (agents/determinize.py), and the stepper makes no
labels; it compares the options instead, which says the same for such labels only.
"""
from __future__ import annotations

from typing import Any

from .. import ast

# builtins whose value is a function of their arguments alone (and `label`: a piece's label shows
# its name and its `value`, allowed where that attribute never changes)
_PLAIN_BUILTINS = {"str", "upper", "lower", "len", "count", "max", "min", "abs"}


def reads_only_the_option(writer: Any, node: ast.Node, names: set[str]) -> bool:
    """Whether `node` (a label expression; `names`: the option's and the parameters' names)
    reads nothing but what the module's docstring lists. A bare name at the top is refused:
    a piece's label depends on who sees it."""
    if isinstance(node, ast.Name):
        return False
    return _reads_only(writer, node, names, [])


def _reads_only(writer: Any, n: ast.Node, names: set[str], calling: list) -> bool:
    def only(*nodes: ast.Node) -> bool:
        return all(_reads_only(writer, x, names, calling) for x in nodes)

    if isinstance(n, ast.Const):
        return True
    if isinstance(n, ast.Name):
        return n.id in names or (n.id in writer.d.tables and n.id not in writer.d.variables)
    if isinstance(n, ast.Attr):
        if isinstance(n.obj, ast.Name) and n.obj.id == "option" and "option" not in names:
            return True
        fixed = n.name in writer.attrs and n.name not in writer.mutable
        return (fixed or n.name in writer.row_fields) and only(n.obj)
    if isinstance(n, ast.Index):
        return only(n.obj, *n.keys)
    if isinstance(n, (ast.ListLit, ast.TupleLit)):
        return only(*n.items)
    if isinstance(n, (ast.BinOp, ast.Compare, ast.BoolOp)):
        return only(n.left, n.right)
    if isinstance(n, (ast.Not, ast.Neg)):
        return only(n.operand)
    if isinstance(n, ast.Ternary):
        return only(n.cond, n.then, n.orelse)
    if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and not n.kwargs and only(*n.args):
        return _call_reads_only(writer, n.func.id, n.args, calling)
    return False


def _call_reads_only(writer: Any, name: str, args: list, calling: list) -> bool:
    fn = writer.d.functions.get(name)
    if fn is None:
        return name in _PLAIN_BUILTINS or (name == "label" and "value" not in writer.mutable)
    body = writer.L.fn_nodes.get(name)
    if fn.proc is not None or body is None or name in calling or len(args) != len(fn.params):
        return False
    return _reads_only(writer, body, set(fn.params), calling + [name])
