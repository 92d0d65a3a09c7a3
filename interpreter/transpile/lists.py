"""List builtins in generated programs: `zones(family)` (the family's lists, in the layout's
order), `sort`, `reverse`, `without`, `append`, `get` (a map's or list's entry with a default)
and `assignable` (a matching: builtins.matching). Each gives the engine's value on plain lists;
where the engine's builtin does more than a line of Python, runtime.py calls it."""
from __future__ import annotations

from .. import ast
from .piece_kinds import _LIST_OF, LISTS, PIECES, VALUE, PieceKindWriter, join


class ListWriter(PieceKindWriter):
    """The builtins above (see the module docstring)."""

    def family_lists(self, node: ast.Node, env: dict) -> str:
        """`zones(family)`: every zone of the family as its list, in the layout's order."""
        if not (isinstance(node, ast.Name) and node.id not in env and node.id in self.d.zones
                and self.d.zones[node.id].dims):
            raise self.unsupported("zones() of something not known to be a zone family", node)
        codes = [self.zone_list_code(self.lay.zones[key]) for key in self.lay.family_zones[node.id]]
        return "[" + ", ".join(codes) + "]"

    def builtin(self, name: str, args: list, env: dict, n: ast.Node) -> str:
        if n.kwargs and name in ("zones", "sort", "reverse", "without", "append", "get", "assignable"):
            raise self.unsupported(f"this call of {name} with named arguments", n)
        if name == "zones" and len(args) == 1:
            return self.family_lists(args[0], env)
        if name == "sort" and len(args) in (1, 2):
            if len(args) == 1:
                return f"_sort({self.expr(args[0], env)})"
            var, body = self.lam(args[1], env)
            return f"_sort({self.expr(args[0], env)}, lambda {var}: {body})"
        if name == "assignable" and len(args) == 2:
            xs = self.expr(args[0], env)
            if xs == "[]":  # no element: true without calling the function
                return "True"
            each = getattr(self, "each", None)  # listfns.py: the variable takes the pieces' kind
            pieces = each is not None and self.kind(args[0], env) == PIECES
            var, body = each(args[0], args[1], env) if pieces else self.lam(args[1], env)
            return f"_assignable({xs}, lambda {var}: {body})"
        plain = {("reverse", 1): "list(reversed({0}))", ("without", 2): "_without({0}, {1})",
                 ("append", 2): "(list({0}) + [{1}])", ("get", 2): "_get({0}, {1})", ("get", 3): "_get({0}, {1}, {2})"}
        form = plain.get((name, len(args)))
        if form is not None:
            return form.format(*(self.expr(a, env) for a in args))
        return super().builtin(name, args, env, n)

    def k_Call(self, n, env):
        if isinstance(n.func, ast.Name) and n.func.id not in env and n.func.id not in self.d.functions:
            name = n.func.id
            if name == "zones":
                return LISTS
            if name == "without" and n.args:
                return self.kind(n.args[0], env)
            if name == "append" and len(n.args) == 2:
                return join(self.kind(n.args[0], env), _LIST_OF.get(self.kind(n.args[1], env)))
            if name == "assignable":
                return VALUE
        return super().k_Call(n, env)
