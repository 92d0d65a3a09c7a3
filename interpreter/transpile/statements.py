"""Statements of the rule file's procedures, written as Python lines (one `s_<Node>` per kind)."""
from __future__ import annotations

import re
from typing import Any

from .. import ast
from .base import WriterBase, is_simple

# an argument whose value cannot fail to compute and changes nothing (a seat's index among the
# players, as a turn's `turn_index`): not computed for a parameter the procedure never reads
_TOTAL = re.compile(r"^_index_of\(_PLAYERS, [A-Za-z_]\w*\)$")


class StatementWriter(WriterBase):
    def block(self, stmts: list, env: dict, depth: int, chooser: str | None) -> None:
        for stmt in stmts:
            method = getattr(self, "s_" + type(stmt).__name__, None)
            if method is None:
                raise self.unsupported(f"the statement {type(stmt).__name__}", stmt)
            method(stmt, env, depth, chooser)

    def body(self, stmts: list, env: dict, depth: int, chooser: str | None) -> None:
        before = len(self.lines)
        self.block(stmts, env, depth, chooser)
        if len(self.lines) == before:
            self.emit(depth, "pass")

    def s_Emit(self, n, env, depth, chooser):
        if f"event:{n.event}" in self.d.procs:
            raise self.unsupported(f"a handler of the event {n.event}", n)

    def s_Log(self, n, env, depth, chooser):
        pass  # no log in this probe

    def s_Reveal(self, n, env, depth, chooser):
        pass  # visibility only matters to views, which this probe does not keep

    def s_Pass(self, n, env, depth, chooser):
        self.emit(depth, "pass")

    def s_Break(self, n, env, depth, chooser):
        self.emit(depth, "break")

    def s_Continue(self, n, env, depth, chooser):
        self.emit(depth, "continue")

    def s_EndGame(self, n, env, depth, chooser):
        self.emit(depth, "raise _GameEnds")

    def s_Let(self, n, env, depth, chooser):
        value = self.expr(*self.args_bound(n.value, env, depth))
        env[n.name] = name = self.fresh(n.name)
        self.emit(depth, f"{name} = {value}")

    def args_bound(self, node: ast.Node, env: dict, depth: int) -> tuple[ast.Node, dict]:
        """`let x = f(args)`, f a rule-file function and some argument computed: each such
        argument into a local first, in order (as a call computes its arguments before the
        body), so that f is written inline instead of as a nested function called here.
        Answers the node and the names to write it with."""
        fn = self.d.functions.get(node.func.id) if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                                                   and node.func.id not in env) else None
        if (fn is None or fn.proc is not None or node.kwargs or node.func.id not in self.L.fn_nodes
                or len(node.args) != len(fn.params)):
            return node, env
        mark = len(self.lines)
        codes = [self.expr(arg, env) for arg in node.args]
        if all(is_simple(code) for code in codes):
            del self.lines[mark:]  # written again with the call (nothing written twice)
            return node, env
        inner, args = dict(env), []
        for i, (arg, code) in enumerate(zip(node.args, codes)):
            if is_simple(code):
                args.append(arg)
                continue
            local = self.fresh("a")
            self.emit(depth, f"{local} = {code}")
            if hasattr(self, "bind_kind"):
                self.bind_kind(local, self.kind(arg, env), arg)
            inner[f"\x00arg{i}"] = local
            args.append(ast.Name(arg.pos, f"\x00arg{i}"))
        return ast.Call(node.pos, node.func, args, node.kwargs), inner

    def s_Assign(self, n, env, depth, chooser):
        if n.op not in ("=", "+=", "-=", "*="):
            raise self.unsupported(f"the assignment {n.op}", n)
        value = self.expr(n.value, env)
        t = n.target
        if isinstance(t, ast.Name):
            if t.id in env:
                self.emit(depth, _rebound(env[t.id], n.op, value))
            elif t.id in self.d.variables and not self.d.variables[t.id].dims:
                self.emit(depth, _rebound(f"v_{t.id}", n.op, value))
            elif t.id in self.d.counters and not self.d.counters[t.id].dims:
                self.counter_store(f"c_{t.id}", t.id, n.op, value, depth)
            else:
                raise self.unsupported(f"assigning to {t.id}", n)
            return
        if isinstance(t, ast.Index) and isinstance(t.obj, ast.Name) and len(t.keys) == 1 and t.obj.id not in env:
            key = self.expr(t.keys[0], env)
            if not is_simple(key):
                k = self.fresh("k")
                self.emit(depth, f"{k} = {key}")
                key = k
            if t.obj.id in self.d.counters and len(self.d.counters[t.obj.id].dims) == 1:
                self.counter_store(f"c_{t.obj.id}[{key}]", t.obj.id, n.op, value, depth)
                return
            if t.obj.id in self.d.variables and len(self.d.variables[t.obj.id].dims) == 1:
                self.emit(depth, _rebound(f"v_{t.obj.id}[{key}]", n.op, value))
                return
        raise self.unsupported("this assignment target", n)

    def counter_store(self, place: str, counter: str, op: str, value: str, depth: int) -> None:
        """A counter keeps its bounds (State.set_counter clamps)."""
        low, high = self.bounds(counter)
        if low is None and high is None:
            self.emit(depth, f"{place} {op} {value}")
            return
        v = self.fresh("v")
        self.emit(depth, f"{v} = {value}" if op == "=" else f"{v} = {place} {op[0]} ({value})")
        if low is not None:
            self.emit(depth, f"if {v} < {low!r}:")
            self.emit(depth + 1, f"{v} = {low!r}")
        if high is not None:
            self.emit(depth, f"if {v} > {high!r}:")
            self.emit(depth + 1, f"{v} = {high!r}")
        self.emit(depth, f"{place} = {v}")

    def s_If(self, n, env, depth, chooser):
        for i, (cond, stmts) in enumerate(n.branches):
            self.emit(depth, f"{'if' if i == 0 else 'elif'} {self.expr(cond, env)}:")
            self.body(stmts, dict(env), depth + 1, chooser)
        if n.orelse:
            self.emit(depth, "else:")
            self.body(n.orelse, dict(env), depth + 1, chooser)

    def s_While(self, n, env, depth, chooser):
        # counted over the whole game, not since the last decision as the engine does: stops every
        # endless loop (and a very long game, which the caller then replays in the engine)
        self.emit(depth, f"while {self.expr(n.cond, env)}:")
        self.emit(depth + 1, "_steps += 1")
        self.emit(depth + 1, f"if _steps > {self.d.limits.steps}:")
        self.emit(depth + 2, f"_over_steps({self.d.limits.steps}, {str(n.pos)!r})")
        self.body(n.body, dict(env), depth + 1, chooser)

    def s_For(self, n, env, depth, chooser):
        seq = self.iterated(n.iter, env)
        if self.is_zone(n.iter, env):
            seq = f"list({seq})"
        inner = dict(env)
        inner[n.var] = var = self.fresh(n.var)
        self.emit(depth, f"for {var} in {seq}:")
        self.body(n.body, inner, depth + 1, chooser)

    def s_Repeat(self, n, env, depth, chooser):
        self.emit(depth, f"for _ in range({self.expr(n.count, env)}):")
        self.body(n.body, dict(env), depth + 1, chooser)

    def s_Shuffle(self, n, env, depth, chooser):
        self.emit(depth, f"rng.shuffle({self.zone(n.zone, env)})")

    def s_Deal(self, n, env, depth, chooser):
        fam = n.family
        if not (isinstance(fam, ast.Name) and fam.id in self.d.zones and len(self.d.zones[fam.id].dims) == 1
                and self.d.zones[fam.id].dims[0].kind == "player"):
            raise self.unsupported("deal to something other than a per-player zone family", n)
        self.emit(depth, f"_deal({self.expr(n.count, env)}, {self.zone(n.source, env)}, z_{fam.id}, loc)")

    # faces are not kept: they only decide what views show (and which hidden pieces look alike,
    # which no choice of the covered games meets: every piece offered is visible to its chooser)
    def s_Move(self, n, env, depth, chooser):
        if n.place is not None or n.at is not None:
            raise self.unsupported("move to a place (top/bottom/at)", n)
        self.emit(depth, f"_move({self.expr(n.what, env)}, {self.zone(n.to, env)}, loc)")

    def s_Draw(self, n, env, depth, chooser):
        self.emit(depth, f"_draw({self.expr(n.count, env)}, {self.zone(n.source, env)}, "
                         f"{self.zone(n.dest, env)}, loc)")

    def s_Flip(self, n, env, depth, chooser):
        pass  # faces are not kept (see s_Move)

    def decide(self, options: str, who: str, depth: int) -> str:
        """An agent's pick among `options` (a local list): the index's variable."""
        index = self.fresh("i")
        self.emit(depth, f"if not {options}:")
        self.emit(depth + 1, "raise RuntimeError('nothing to choose from')")
        self.emit(depth, f"{index} = agents[{who}]({options})")
        self.emit(depth, f"history.append([{who}, {index}])")
        return index

    def chooser_of(self, by: Any, env: dict, depth: int, chooser: str | None, n: ast.Node) -> str:
        who = self.expr(by, env) if by is not None else chooser
        if who is None:
            raise self.unsupported("a choice without a player", n)
        if not is_simple(who):
            w = self.fresh("who")
            self.emit(depth, f"{w} = {who}")
            who = w
        return who

    def s_Choose(self, n, env, depth, chooser):
        if n.optional or n.where is not None:
            raise self.unsupported("an optional choice or one with `where`", n)
        who = self.chooser_of(n.by, env, depth, chooser, n)
        env[n.var] = var = self.fresh(n.var)
        if n.count != "one":  # picks one at a time: not covered; generated so the rest is
            self.emit(depth, f"raise NotImplementedError('transpile: the choice of several {n.var} at {n.pos}')")
            self.emit(depth, f"{var} = None")
            return
        options = self.fresh("options")
        # each distinct value is an option, in order (options.build_options); pieces too, which
        # is the engine's grouping only while no two offered pieces look alike to the chooser
        self.offer(options, self.expr(n.source, env), depth)  # choices.py
        index = self.decide(options, who, depth)
        self.emit(depth, f"{var} = {options}[{index}]")

    def s_Perform(self, n, env, depth, chooser):
        if n.optional or n.where is not None:
            raise self.unsupported("an optional perform or one with `where`", n)
        who = self.chooser_of(n.by, env, depth, chooser, n)
        options = self.fresh("actions")
        self.emit(depth, f"{options} = []")
        acts = [self.d.actions[name] for name, _ in n.actions]
        for act in acts:
            if act.when_text is None:
                self.emit(depth, f"{options}.append({act.name!r})")
                continue
            cond = self.expr(self.L.parse_expr(act.when_text, act.pos), {"player": who})
            self.emit(depth, f"if {cond}:")
            self.emit(depth + 1, f"{options}.append({act.name!r})")
        name = self.fresh("action")
        self.perform_pick(n, options, who, name, depth)  # choices.py: also optional ones
        for i, act in enumerate(acts):
            self.emit(depth, f"{'if' if i == 0 else 'elif'} {name} == {act.name!r}:")
            self.inline_action(act, who, depth + 1, n)

    def inline_action(self, act, who: str, depth: int, n) -> None:
        """A performed action's body, here, for the player `who` (recursion is refused)."""
        proc = "action:" + act.name
        if proc in self.inlining:
            raise self.unsupported(f"the recursive action {act.name}", n)
        self.inlining.append(proc)
        self.body(self.L.procs[proc], {"player": who}, depth, who)
        self.inlining.pop()

    def s_Simultaneous(self, n, env, depth, chooser):
        # every chooser decides in seat order (the engine's current_players), each seeing
        # only what its own block did: right while the blocks touch no one else's state
        inner = dict(env)
        inner[n.var] = var = self.fresh(n.var)
        self.emit(depth, f"for {var} in sorted({self.expr(n.iter, env)}):")
        self.sequential_block = True  # a choice of several here would be asked out of order
        self.body(n.body, inner, depth + 1, var)
        self.sequential_block = False

    def s_ExprStmt(self, n, env, depth, chooser):
        e = n.expr
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id not in env:
            fn = self.d.functions.get(e.func.id)
            if fn is not None and fn.proc is not None:
                self.inline_proc(fn, e, env, depth)
                return
        self.emit(depth, self.expr(e, env))

    def inline_proc(self, fn, call, env, depth) -> None:
        """A procedure's body, here, its parameters bound to the arguments (no call)."""
        stmts = self.L.procs[fn.proc.name]
        if any(isinstance(s, ast.Return) for s in ast.walk(stmts)):
            raise self.unsupported(f"`return` in the procedure {fn.name}", call)
        inner = self.proc_arguments(fn, call, env, depth)
        self.inlining.append(fn.proc.name)
        self.block(stmts, inner, depth, inner.get("player"))
        self.inlining.pop()

    def proc_arguments(self, fn, call, env: dict, depth: int, guard: str | None = None) -> dict:
        """An inlined procedure's parameters -> the code of its arguments (each computed once,
        into a fresh local unless it is a name or a constant; under `guard` when given)."""
        if fn.proc.name in self.inlining:
            raise self.unsupported(f"the recursive procedure {fn.name}", call)
        if call.kwargs or len(call.args) != len(fn.params):
            raise self.unsupported(f"this call of {fn.name}", call)
        inner: dict = {}
        stmts = self.L.procs[fn.proc.name]
        for param, arg in zip(fn.params, call.args):
            code = self.expr(arg, env)
            if code == "[]" and not _rebinds(stmts, param):  # a new empty list wherever it is read
                inner[param] = code
                continue
            if _TOTAL.match(code) and not any(isinstance(x, ast.Name) and x.id == param for x in ast.walk(stmts)):
                inner[param] = code  # never read, and computing it has no effect and cannot fail
                continue
            if not is_simple(code):
                name = self.fresh(param)
                if guard is None:
                    self.emit(depth, f"{name} = {code}")
                else:
                    self.emit(depth, guard)
                    self.emit(depth + 1, f"{name} = {code}")
                code = name
            inner[param] = code
        return inner


def _rebound(place: str, op: str, value: str) -> str:
    """`place op value` as the engine does it: a NEW value bound to the place (`x += [..]` on a
    list must not change another name holding the same list, as Python's in-place `+=` would)."""
    return f"{place} = {value}" if op == "=" else f"{place} = {place} {op[0]} ({value})"


def _rebinds(stmts: list, name: str) -> bool:
    """Whether these statements bind `name` again (assign it, or bind it by let, choose or for)."""
    for s in ast.walk(stmts):
        if isinstance(s, ast.Assign) and isinstance(s.target, ast.Name) and s.target.id == name:
            return True
        if getattr(s, "name" if isinstance(s, ast.Let) else "var", None) == name and isinstance(
                s, (ast.Let, ast.Choose, ast.For)):
            return True
    return False
