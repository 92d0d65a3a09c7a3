"""Expressions of the rule file, written as Python expressions (one `e_<Node>` per kind, and the
builtins the generator knows in `builtin`)."""
from __future__ import annotations

import re

from .. import ast
from .base import WriterBase, is_simple

# a constant as the generator writes it: a text without quotes inside, a whole number, a flag, none
_LITERAL = re.compile(r"'[^'\\]*'|-?\d+|None|True|False")


class ExpressionWriter(WriterBase):
    def is_zone(self, node: ast.Node, env: dict) -> bool:
        if isinstance(node, ast.Name):
            return node.id not in env and node.id in self.d.zones
        return (isinstance(node, ast.Index) and isinstance(node.obj, ast.Name) and node.obj.id not in env
                and node.obj.id in self.d.zones)

    def zone(self, node: ast.Node, env: dict) -> str:
        """A zone as its list (z_name, z_name[i], z_name[i][j])."""
        if isinstance(node, ast.Name) and node.id in self.d.zones and not self.d.zones[node.id].dims:
            return f"z_{node.id}"
        if (isinstance(node, ast.Index) and isinstance(node.obj, ast.Name) and node.obj.id in self.d.zones
                and len(self.d.zones[node.obj.id].dims) == len(node.keys) in (1, 2)):
            return f"z_{node.obj.id}" + "".join(f"[{self.expr(k, env)}]" for k in node.keys)
        raise self.unsupported("this zone expression", node)

    def expr(self, n: ast.Node, env: dict) -> str:
        method = getattr(self, "e_" + type(n).__name__, None)
        if method is None:
            raise self.unsupported(f"the expression {type(n).__name__}", n)
        return method(n, env)

    def e_Const(self, n, env):
        if type(n.value) not in (int, str, bool, type(None)):
            raise self.unsupported(f"the constant {n.value!r}", n)
        return repr(n.value)

    def e_Name(self, n, env):
        name, d = n.id, self.d
        if name in env:
            return env[name]
        if name in d.variables:
            return f"v_{name}"
        if name in d.counters:
            return f"c_{name}"
        if name in d.zones:
            return self.zone(n, env)
        if name in d.tables:
            return f"T_{name}"
        if name == "players":
            return "_PLAYERS"
        if name == "player_count":
            return repr(self.n)
        raise self.unsupported(f"the name {name}", n)

    def e_Index(self, n, env):
        if isinstance(n.obj, ast.Name) and n.obj.id not in env and n.obj.id in self.d.zones:
            return self.zone(n, env)
        if len(n.keys) != 1:
            raise self.unsupported("an index with several keys", n)
        if self.is_keyed_table(n.obj, env):  # a key it lacks reads none, as in the engine (codegen.index_rt)
            return f"{self.expr(n.obj, env)}.get({self.expr(n.keys[0], env)})"
        return f"{self.expr(n.obj, env)}[{self.expr(n.keys[0], env)}]"

    def is_keyed_table(self, node: ast.Node, env: dict) -> bool:
        """Whether `node` is always a dict of the tables: a table that is one, or an element of a
        table whose elements all are (its rows, a dict of dicts)."""
        values = self.table_values(node, env)
        return bool(values) and all(isinstance(v, dict) for v in values)

    def table_values(self, node: ast.Node, env: dict) -> list:
        """Every value `node` can have when it is a table or an index into one; [] if it is not."""
        if isinstance(node, ast.Name):
            return [self.d.tables[node.id]] if node.id not in env and node.id in self.d.tables else []
        if isinstance(node, ast.Index) and len(node.keys) == 1:
            out = []
            for value in self.table_values(node.obj, env):
                if not isinstance(value, (dict, list)):
                    return []
                out.extend(value.values() if isinstance(value, dict) else value)
            return out
        return []

    def e_Attr(self, n, env):
        if isinstance(n.obj, ast.Name) and n.obj.id == "option" and "option" not in env:
            if n.name not in self.options:
                raise self.unsupported(f"the option {n.name}", n)
            return repr(self.options[n.name])
        if n.name in self.attrs:  # a piece's fixed attribute
            if n.name in self.row_fields:
                raise self.unsupported(f".{n.name}, both a piece attribute and a table row's field", n)
            return f"A_{n.name}[{self.expr(n.obj, env)}]"
        # a table row's field; a row without it reads none, as in the engine (codegen.getattr_rt)
        return f"{self.expr(n.obj, env)}.get({n.name!r})"

    def e_Comprehension(self, n, env):
        inner = dict(env)
        inner[n.var] = var = self.fresh(n.var)
        cond = f" if {self.expr(n.cond, inner)}" if n.cond is not None else ""
        if cond == " if True":  # a condition known true (lists.py's assignable of no element)
            cond = ""
        elt = self.expr(n.elt, inner)
        if not cond and elt == var:  # every element as it is: a copy, made by list()
            return f"list({self.expr(n.iter, env)})"
        return f"[{elt} for {var} in {self.iterated(n.iter, env)}{cond}]"

    def iterated(self, node: ast.Node, env: dict) -> str:
        """The code of a sequence that is only iterated over (by a comprehension or a for loop):
        a call of the builtin `range` as Python's range itself, with no list made of it (the
        same numbers in the same order; its arguments evaluated, and refused, alike)."""
        code = self.expr(node, env)
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range"
                and "range" not in env and "range" not in self.d.functions
                and code.startswith("list(range(") and code.endswith("))")):
            return code[len("list("):-1]
        return code

    def e_BinOp(self, n, env):
        if n.op in ("/", "//", "%"):
            return self.division(n, env)  # arithmetic.py
        if n.op not in ("+", "-", "*"):
            raise self.unsupported(f"the operator {n.op}", n)
        return f"({self.expr(n.left, env)} {n.op} {self.expr(n.right, env)})"

    def e_Compare(self, n, env):
        op = {"not_in": "not in"}.get(n.op, n.op)
        if op not in ("==", "!=", "<", "<=", ">", ">=", "in", "not in"):
            raise self.unsupported(f"the comparison {n.op}", n)
        return f"({self.expr(n.left, env)} {op} {self.expr(n.right, env)})"

    def e_BoolOp(self, n, env):
        return f"({self.expr(n.left, env)} {n.op} {self.expr(n.right, env)})"

    def e_Not(self, n, env):
        return f"(not {self.expr(n.operand, env)})"

    def e_Neg(self, n, env):
        return f"(-{self.expr(n.operand, env)})"

    def e_Ternary(self, n, env):
        then = self.expr(n.then, env)
        cond = self.expr(n.cond, env)
        if cond == "True":  # a condition known when the program is written (an option, say)
            return then
        orelse = self.expr(n.orelse, env)
        return orelse if cond == "False" else f"({then} if {cond} else {orelse})"

    def e_ListLit(self, n, env):
        return "[" + ", ".join(self.expr(x, env) for x in n.items) + "]"

    def lam(self, node: ast.Node, env: dict) -> tuple[str, str]:
        """(variable, body) of a `x => body` argument."""
        if not isinstance(node, ast.Lambda):
            raise self.unsupported("a function argument that is not `x => …`", node)
        inner = dict(env)
        inner[node.param] = var = self.fresh(node.param)
        return var, self.expr(node.body, inner)

    def any_equal(self, args: list, env: dict) -> str | None:
        """`any(xs, x => T[x] == c)`, where x's side is one lookup by x in a list or map T and c
        a constant (a text, a whole number, true/false, none; also an inlined function's parameter
        whose argument is one: `has(e)` with `any(xs, x => x.k == e)` called as `has("a")`), as
        `c in map(T.__getitem__, xs)`:
        the same comparisons (element == c, each element in order, stopping at the first equal)
        in one loop in C instead of a generator's steps. None when `any` is not of that form."""
        lam = args[1]
        if not (isinstance(lam, ast.Lambda) and isinstance(lam.body, ast.Compare) and lam.body.op == "=="):
            return None
        right = lam.body.right
        if isinstance(right, ast.Const) and type(right.value) in (str, int, bool, type(None)):
            const = self.expr(right, env)
        elif isinstance(right, ast.Name) and right.id in env and right.id != lam.param:
            const = env[right.id]  # an inlined function's parameter: a constant argument only
            if not _LITERAL.fullmatch(const):
                return None
        else:
            return None
        var, body = self.lam(lam, env)
        looked = re.fullmatch(rf"\(([A-Za-z_]\w*)\[{re.escape(var)}\] == (.+)\)", body)
        if looked is None or looked.group(2) != const or not is_simple(const):
            return None
        return f"({const} in map({looked.group(1)}.__getitem__, {self.expr(args[0], env)}))"

    def inlined(self, call: ast.Call, body: ast.Node) -> None:
        """Called as `call`'s function is written inline as `body` (its next expression): a hook
        (memo.py marks where the body is surely evaluated)."""

    def e_Call(self, n, env):
        if not isinstance(n.func, ast.Name) or n.func.id in env:
            raise self.unsupported("this call", n)
        name, args = n.func.id, n.args
        fn = self.d.functions.get(name)
        if n.kwargs and (fn is not None or name not in ("max", "min") or set(n.kwargs) != {"default"}):
            raise self.unsupported(f"this call of {name} with named arguments", n)
        if fn is not None:
            if fn.proc is not None or name not in self.L.fn_nodes or len(args) != len(fn.params):
                raise self.unsupported(f"calling {name} in an expression", n)
            codes = [self.expr(arg, env) for arg in args]
            if not all(is_simple(c) for c in codes) and not self.fold_inline:  # a nested function of play()
                self.needed.setdefault(name, f"f_{name}")
                return f"f_{name}({', '.join(codes)})"
            inner = dict(zip(fn.params, codes))  # inlined: its body with the arguments
            if name in self.inlining:
                raise self.unsupported(f"the recursive function {name}", n)
            self.inlining.append(name)
            try:
                self.inlined(n, self.L.fn_nodes[name])
                return self.expr(self.L.fn_nodes[name], inner)
            finally:
                self.inlining.pop()
        return self.builtin(name, args, env, n)

    def builtin(self, name: str, args: list, env: dict, n: ast.Node) -> str:
        if name == "any" and len(args) == 2:
            found = self.any_equal(args, env)
            if found is not None:
                return found
        if name in ("count", "any", "all", "sum") and len(args) == 2:
            seq = self.iterated(args[0], env)
            var, body = self.lam(args[1], env)
            if name == "count":  # list comprehensions: cheaper than generators on short lists
                return f"len([0 for {var} in {seq} if {body}])"
            if name == "sum":
                if body == f"len({var})":  # the lengths: map() calls len without a frame
                    return f"sum(map(len, {seq}))"
                counted = re.match(rf"^len\(\[0 for ([A-Za-z_]\w*) in {var} if (.*)\]\)$", body)
                if counted:  # a sum of counts: one count over all the lists, one comprehension
                    return f"len([0 for {var} in {seq} for {counted.group(1)} in {var} if {counted.group(2)}])"
                table = body.split("[", 1)[0]
                if body == f"{table}[{var}]" and table[:2] in ("A_", "M_") and table.isidentifier():
                    # a piece attribute's list read per element: no comprehension
                    return f"sum(map({table}.__getitem__, {seq}))"
                return f"sum([{body} for {var} in {seq}])"
            return f"{name}({body} for {var} in {seq})"
        if len(args) == 1 and name in ("count", "len", "sum", "any", "all", "first", "top"):
            seq = self.expr(args[0], env)
            return {"count": "len", "len": "len", "first": "_first", "top": "_first"}.get(name, name) + f"({seq})"
        if name == "remove" and len(args) == 2:
            return f"_remove({self.expr(args[0], env)}, {self.expr(args[1], env)})"
        if name == "argmax" and len(args) == 2:
            var, body = self.lam(args[1], env)
            seq = self.expr(args[0], env)
            if is_simple(seq):  # the keys in a comprehension: no call of a lambda per element
                return f"_argmax_keys({seq}, [{body} for {var} in {seq}])"
            return f"_argmax({seq}, lambda {var}: {body})"
        if name == "next_player" and len(args) == 1:
            return f"(({self.expr(args[0], env)} + 1) % {self.n})"
        one = {"empty": "(not {0})", "last": "_last({0})", "disclose": "{0}", "range": "list(range({0}))",
               "unique": "list(dict.fromkeys({0}))", "shuffled": "_shuffled(rng, {0})",
               "random_choice": "rng.choice(list({0}))",
               "players_from": f"[({{0}} + _k) % {self.n} for _k in range({self.n})]"}
        two = {"min2": "min({0}, {1})", "max2": "max({0}, {1})", "index_of": "_index_of({0}, {1})",
               "concat": "(list({0}) + list({1}))"}
        if name in one and len(args) == 1:
            return one[name].format(self.expr(args[0], env))
        if name in two and len(args) == 2:
            return two[name].format(self.expr(args[0], env), self.expr(args[1], env))
        if name == "pieces" and len(args) == 1 and isinstance(args[0], ast.Name):
            if not any(s["kind"] == args[0].id for s in self.lay.static):
                raise self.unsupported(f"pieces of {args[0].id}", n)
            return f"P_{args[0].id}"
        if name in ("map", "filter") and len(args) == 2:
            var, body = self.lam(args[1], env)
            seq = self.iterated(args[0], env)
            return f"[{body} for {var} in {seq}]" if name == "map" else f"[{var} for {var} in {seq} if {body}]"
        if name in ("max", "min") and len(args) == 1:
            default = self.expr(n.kwargs["default"], env) if n.kwargs else "None"
            return f"_extreme_of({self.expr(args[0], env)}, {default}, {name})"
        if name in ("max", "min") and len(args) == 2:
            var, body = self.lam(args[1], env)
            default = self.expr(n.kwargs["default"], env) if n.kwargs else "None"
            return f"_extreme({self.expr(args[0], env)}, lambda {var}: {body}, {default}, {name})"
        if name == "hand_rank" and len(args) == 2 and {"value", "colour"} <= set(self.attrs):
            return f"_hand_rank({self.expr(args[0], env)}, {self.expr(args[1], env)}, A_value, A_colour)"
        raise self.unsupported(f"the builtin {name}/{len(args)}", n)

