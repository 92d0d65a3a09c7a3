"""Static checks and compilation of the DSL.

Expressions become closures `f(S, L)` (S: the state, L: the frame's locals). Statement blocks
become procedures: flat lists of VM instructions (see vm.py) with jumps for control flow, so a
procedure can stop at a decision and resume later from plain data. Once every procedure is
compiled, `Compiler.link` turns each one that can never stop the game into one plain Python
function that its callers call directly (no frame, no VM dispatch).

Every name, attribute, arity and placement problem is reported with its `file:line:col` and,
where it helps, the nearest valid name. Errors are collected, not raised one at a time.
"""
from __future__ import annotations

import io
import itertools
import operator
import re
import textwrap
import tokenize
from ast import literal_eval as ast_literal
from typing import Any, Callable

from . import ast, budget
from .budget import METER
from .builtins import items, load_all
from .codegen import BUILTIN_NAMES, MAX_SUGGESTED, PIECE_ATTRS, ExprGen, Scope, fail
from .decisions import start_choice, start_perform
from .errors import Pos, RuleError, RuleRuntimeError, suggest
from .labels import label
from .events import arg_of, template_of
from .logs import log_entry
from .model import Function, GameDef, Proc
from .parser import parse_expr
from .pycode import make_function
from .source import SourceMap
from .threads import Frame
from .values import Family, Piece, ZoneRef
from .vm import FRAME, WAIT, GameEnds, calls_exceeded, count_loop, locate, new_thread, too_deep

RESERVED_VARS = {"round", "phase"}


def _as_pieces(S: Any, value: Any) -> list:
    t = type(value)
    if t is Piece:
        return [value]
    if t is ZoneRef:
        return list(S.zones[value])
    if value is None:
        raise RuleRuntimeError("expected a piece, a list of pieces or a zone; got none")
    out = list(items(S, value))
    for p in out:
        if type(p) is not Piece:
            raise RuleRuntimeError(f"expected pieces, got {p!r}")
    return out


_FR = re.compile(r"\bfr\b")


def prompt_of(S: Any, literal: list, values: list, template: str) -> tuple:
    """A prompt's text and its event ([template, args], events.py): `literal` holds the texts
    of the prompt with None where each value goes; `template` is made from it at compile time."""
    it = iter(values)
    text = "".join(s if s is not None else label(S, next(it)) for s in literal)
    return text, [template, [arg_of(S, v) for v in values]]


class _Source(str):
    """Generated Python source (not a literal text)."""


def _discard(S: Any, value: Any, face: bool | None) -> None:
    for p in _as_pieces(S, value):
        dest = S.lay.discard[p]
        if dest is None:
            raise RuleRuntimeError(f'{S.lay.static[p]["name"]} cannot be discarded: its component '
                                   f'"{S.lay.component[p]}" names no `discard:` zone')
        S.move([p], dest, None, None, face)


def _deal(S: Any, k: Any, source: Any, family: Any, face: bool | None) -> None:
    """`deal k from source to family`: one piece from the top to each player in turn, k times."""
    table = S.lay.zone_index.get(str(family))
    if type(family) is not Family or table is None:
        raise RuleRuntimeError(f"deal needs a per-player zone family (e.g. `hand`), got {family!r}")
    for _ in range(k):
        for p in S.players:
            zone = S.zones[source]
            if not zone:
                return
            S.move([zone[0]], table[p], None, None, face)


def _not_a_zone(value: Any) -> None:
    raise RuleRuntimeError(f"move needs a zone to move to, got {value!r}")


def _as_players(S: Any, value: Any) -> list:
    if value is None:
        raise RuleRuntimeError("expected a player or a list of players; got none")
    if isinstance(value, int):
        return [value]
    return list(items(S, value))


class _Loop:
    def __init__(self):
        self.breaks: list[int] = []
        self.continue_at: int | None = None
        self.continues: list[int] = []


class _ProcCtx:
    """Compilation state of one procedure."""

    def __init__(self, proc: Proc, scope: Scope, chooser: str | None, in_simultaneous: bool):
        self.proc = proc
        self.scope = scope
        self.chooser = chooser
        self.loops: list[_Loop] = []
        self.in_simultaneous = in_simultaneous
        self.control: set[int] = set()  # jumps and loop steps of if/for/while/repeat/break/continue
        self.shapes: dict[int, tuple] = {}  # first instruction of a control statement -> its shape
        # What Compiler.link needs to compile the procedure again once it knows which procedures
        # never stop the game: control statements to structure (innermost first), the shape of
        # the whole body, and the instructions that call, emit or return.
        self.deferred: list[tuple[int, int, tuple]] = []  # (start, end, shape)
        self.body: list = []
        self.calls: dict[int, tuple] = {}  # index -> (callee Proc, locals source, return slot)
        self.emits: dict[int, str] = {}  # index -> event procedure name
        self.returns: dict[int, str | None] = {}  # index -> value source (None: no value)
        self.performs: dict[int, tuple] = {}  # index of run_action -> (action procs, slot, who slot)
        self.saved: tuple | None = None  # (simple, control) before structuring

    def emit(self, ins: Callable, pos: Pos) -> int:
        self.proc.code.append(ins)
        self.proc.pos.append(pos)
        return len(self.proc.code) - 1

    def emit_simple(self, ins: Callable, pos: Pos) -> int:
        """An instruction that never jumps, calls or stops: runs of these are fused (see fuse)."""
        at = self.emit(ins, pos)
        self.proc.simple.add(at)
        return at

    def emit_code(self, body: str, pos: Pos, env: dict) -> int:
        """A simple instruction generated as Python source (`L` is the frame's locals)."""
        return self.emit_simple(make_instruction(body, pos, env), pos)

    def emit_control(self, ins: Callable | None, pos: Pos) -> int:
        """A jump or loop step of a control statement (see Compiler.structure)."""
        at = self.emit(ins, pos)
        self.control.add(at)
        return at

    def here(self) -> int:
        return len(self.proc.code)

    def patch_jump(self, at: int, target: int) -> None:
        self.proc.code[at] = _jump(target)


def _copy_items(target: str, src: str) -> str:
    """Source for `target = list(_items(S, src))` that copies a list without calling items()
    (its length counted as work by _charge, as items() counts it)."""
    return (f"{target} = {src}\n"
            f"{target} = _charge({target})[:] if type({target}) is list else list(_items(S, {target}))")


def make_instruction(body: str, pos: Pos, env: dict) -> Callable:
    """Compile `def ins(S, th, fr): L = fr.L; <body>`; keeps the body for fusing."""
    src = "def _ins(S, th, fr):\n    L = fr.L\n" + textwrap.indent(body, "    ") + "\n"
    ins = make_function(src, f"<rule {pos}>", env, "_ins")
    ins.body = body
    ins.env = env
    return ins


def fuse(proc: Proc, env: dict) -> None:
    """Replace each run of simple instructions by one call that runs them all.

    The original instructions stay at their indexes (a jump into the middle of a run still works);
    only the run's first slot becomes the fused block, which then jumps past the run. If one of
    them fails, the program counter is set so the error names that instruction's position. A
    structured control statement (see Compiler.structure) counts as one simple instruction
    that covers its whole span.
    """
    code, simple = proc.code, proc.simple
    i, n = 0, len(code)
    while i < n:
        if i not in simple:
            i += 1
            continue
        units, j = [], i
        while j < n and j in simple:
            units.append(j)
            j = getattr(code[j], "span_end", j + 1)
        tail = _tail_of(code[j], j, env) if j < n else None
        if tail is not None:
            tail += _loop_head_source(code, getattr(code[j], "loop_head", None))
            if getattr(code[j], "is_step", False):  # entering a loop: its first iteration too
                tail += _after_step_source(code, j)
        if len(units) >= 2 or tail is not None:
            proc.originals.setdefault(i, code[i])
            code[i] = _fused_source([(k, _body_of(code[k], env)) for k in units], j, env, tail)
        i = j
    for j in range(n):  # a jump back to a loop's head that no run absorbed: with the head too
        ins = code[j]
        head = getattr(ins, "loop_head", None)
        if head is not None and getattr(code[head], "is_step", False):
            proc.originals.setdefault(j, ins)
            code[j] = _fused_source([], j, env, ins.tail_src + _loop_head_source(code, head))


def unfuse(proc: Proc) -> None:
    """Put back every instruction that a fused run or a structured statement replaced, so each
    statement is dispatched by the VM on its own (slower, same game): for tools that watch
    single instructions, such as rule coverage. Nothing counts as fused afterwards."""
    for i, ins in proc.originals.items():
        proc.code[i] = ins
    proc.originals.clear()
    proc.simple.clear()
    proc.plain = None  # callers push a frame again (run_action, emit, run_atomic look here)
    proc.build = None  # nothing links it again


def _body_of(ins: Callable, env: dict) -> str:
    """Python source running one simple instruction: its own source, or a call to it."""
    body = getattr(ins, "body", None)
    if body is None:
        name = f"_ins{len(env.setdefault('_instructions', []))}"
        env["_instructions"].append(ins)
        env[name] = ins
        body = ins.body = f"{name}(S, th, fr)"
    return body


def _tail_of(ins: Callable, at: int, env: dict) -> str | None:
    """Source that runs the instruction after a run of simple ones exactly as the VM would
    (its program counter already advanced) and returns its signal: a jump or test inline,
    anything else as a call."""
    if ins is None:
        return None
    src = getattr(ins, "tail_src", None)
    if src is not None:
        return src
    target = getattr(ins, "jump_to", None)
    if target is not None:
        return f"fr.pc = {target}"
    if getattr(ins, "env", None) is not None:  # generated source (an `if` test, a `return`)
        return ins.body
    name = f"_tail{len(env.setdefault('_instructions', []))}"
    env["_instructions"].append(ins)
    env[name] = ins
    return f"return {name}(S, th, fr)"


def _loop_head_source(code: list, head: int | None) -> str:
    """After a jump back to a loop's head: the head's step (next element, or leave the loop)
    and, if the loop goes on, the instruction after it when it has source (a call, a jump),
    run inline as the VM would run them, so the next iteration costs no dispatch."""
    if head is None or not getattr(code[head], "is_step", False):
        return ""
    return f"\nfr.pc = {head + 1}\n_k = {head + 1}\n{code[head].tail_src}" + _after_step_source(code, head)


def _after_step_source(code: list, head: int) -> str:
    """After a loop's step at `head` ran: if the loop goes on, the instruction after the step
    when it has source (a call, a jump), as the VM would run it."""
    after = getattr(code[head + 1], "tail_src", None) if head + 1 < len(code) else None
    if after is None:
        return ""
    return (f"\nif fr.pc == {head + 1}:\n    fr.pc = {head + 2}\n    _k = {head + 2}\n"
            + textwrap.indent(after, "    "))


def _fused_source(run: list, end: int, env: dict, tail: str | None = None) -> Callable:
    """One generated function for a run of simple instructions and the instruction after them
    (no VM dispatch in between). With a tail, `end` is the tail's index."""
    lines = ["def _blk(S, th, fr):", "    L = fr.L", "    try:"]
    for at, body in run:
        lines.append(f"        _k = {at + 1}")
        lines.append(textwrap.indent(body, "        "))
    if tail is not None:
        lines += [f"        fr.pc = {end + 1}", f"        _k = {end + 1}", textwrap.indent(tail, "        ")]
    lines += ["    except BaseException:", "        fr.pc = _k", "        raise"]
    if tail is None:
        lines.append(f"    fr.pc = {end}")
    return make_function("\n".join(lines) + "\n", "<rule block>", env, "_blk")


def _loop_back(target: int, pos: Pos) -> Callable:
    """The jump at the end of a loop body: counts iterations against the step budget."""
    def loop_back(S, th, fr):
        count_loop(S, pos)
        fr.pc = target
    return loop_back


def _jump(target: int) -> Callable:
    def jump(S, th, fr):
        fr.pc = target
    jump.jump_to = target
    return jump


def _return_none(S, th, fr):
    """The end of a procedure (or `return` without a value)."""
    frames = th.frames
    frames.pop()
    if fr.ret is not None and frames:
        frames[-1].L[fr.ret] = None
    return FRAME


# The same as source, for the end of a fused run (see _tail_of): 2 is FRAME.
_return_none.tail_src = ("frames = th.frames\nframes.pop()\nif fr.ret is not None and frames:\n"
                         "    frames[-1].L[fr.ret] = None\nreturn 2")


class Compiler:
    """Compiles DSL ASTs of one game, collecting every error it finds."""

    def __init__(self, game: GameDef):
        load_all()
        self.game = game
        self.errors: list[RuleError] = []
        self.uniq = itertools.count()
        game.known_attrs.update(PIECE_ATTRS | {"value", "shape"})
        self.known_attrs = game.known_attrs
        self.events_emitted: set[str] = set()
        self.events_heard: set[str] | None = None  # events with triggers/end conditions (None: unknown)
        self.asts: dict[str, list] | None = None  # procedures' statement trees, kept when asked (transpile/)
        self.gen = ExprGen(game, self.errors)
        self.gen.env["_setc"] = set_counter_checked
        self.gen.env["_count_loop"] = count_loop
        self.gen.env["_METER"] = METER
        self.gen.env["_Frame"] = Frame
        self.gen.env.update({"_ZoneRef": ZoneRef, "_Piece": Piece, "_not_a_zone": _not_a_zone, "_as_pieces": _as_pieces,
                             "_log_entry": log_entry, "_discard": _discard, "_deal": _deal,
                             "_as_pieces_or_zones": _as_pieces_or_zones, "_as_players": _as_players,
                             "_start_choice": start_choice, "_start_perform": start_perform, "_label": label, "_prompt_of": prompt_of})
        self.gen.env.update({"_GameEnds": GameEnds, "_locate": locate, "_calls_exceeded": calls_exceeded,
                             "_too_deep": too_deep})

    @property
    def atomic_calls(self) -> list:
        return self.gen.atomic_calls

    # ------------------------------------------------------------------ errors
    def error(self, message: str, pos: Pos, code: str = "E210") -> None:
        self.errors.append(RuleError(message, pos, code))

    # ------------------------------------------------------------------ entry points
    def compile_expr(self, text: Any, scope_names: list[str] = ()) -> Callable:
        """A YAML string (or number/bool) holding an expression → closure f(S, L)."""
        if isinstance(text, (bool, int, float)) or text is None:
            value = text
            return lambda S, L: value
        try:
            node = parse_expr(text)
        except RuleError as exc:
            self.errors.append(exc)
            return fail
        scope = Scope()
        for name in scope_names:
            scope.names[name] = name
        return self.expr(node, scope)

    def compile_proc(self, proc: Proc, body: list, scope_names: list[str] = (),
                     chooser: str | None = None) -> Proc:
        if self.asts is not None:
            self.asts[proc.name] = body
        scope = Scope()
        for name in list(proc.params) + list(scope_names):
            scope.names[name] = name
        if chooser is None and "player" in scope.names:
            chooser = "player"
        ctx = _ProcCtx(proc, scope, chooser, False)
        ctx.body = self.block(body, ctx)
        ctx.emit(_return_none, proc.decl_pos)
        self.finish(ctx)
        return proc

    def finish(self, ctx: _ProcCtx) -> None:
        """Structure the control statements that cannot stop, then fuse runs (see fuse)."""
        proc = ctx.proc
        proc.build = ctx
        if ctx.saved is None:
            ctx.saved = (set(proc.simple), set(ctx.control))
        for start, end, shape in ctx.deferred:
            self._structure_now(ctx, start, end, shape)
        fuse(proc, self.gen.env)

    # ------------------------------------------------------------------ linking
    def link(self) -> None:
        """Once every procedure is compiled: each procedure that can never stop the game (no
        decision, no simultaneous block, calling and emitting only such procedures) becomes ONE
        plain Python function `plain(S, thread, locals) -> value`, its whole body (control
        flow, `return`, `end_game`) written as Python. Calls to it, `emit`s of it, actions
        and calls from expressions then run it directly, with no frame and no VM dispatch, and
        the statements around such calls can be fused and structured too. Budget: a call
        counts 2 steps (a frame's push and pop in the VM) and its nesting counts toward `depth`
        (METER.nest). `unfuse` undoes all of it (the VM form stays complete).
        First, expression functions that are constants are computed once (ExprGen.fold_constants)."""
        self.gen.fold_constants()
        procs = self.game.procs
        ctxs = {name: p.build for name, p in procs.items() if p.build is not None}
        wanted: set[str] = set()  # procedures something may run directly
        for ctx in ctxs.values():
            wanted.update(c.name for c, _, _ in ctx.calls.values())
            wanted.update(ctx.emits.values())
        wanted.update(name for name in procs if name.startswith(("action:", "event:")))
        wanted.update(p.name for p, _ in self.gen.atomic_calls)
        plain = {name for name in wanted if name in ctxs and not procs[name].suspends}
        touched_before: set[str] = set()
        while True:
            changed = True
            while changed:  # a procedure is plain only if all it calls and emits is
                changed = False
                for name in list(plain):
                    ctx = ctxs[name]
                    if any(c.name not in plain for c, _, _ in ctx.calls.values()) or \
                            any(e in procs and e not in plain for e in ctx.emits.values()):
                        plain.discard(name)
                        changed = True
            touched = [ctx for name, ctx in ctxs.items() if self._relink(ctx, plain, name in touched_before)]
            touched_before = {ctx.proc.name for ctx in touched}
            made, failed = {}, set()
            for ctx in touched:
                if ctx.proc.name in plain:
                    fn = self._plain_function(ctx)
                    if fn is None:
                        failed.add(ctx.proc.name)
                    made[ctx.proc.name] = fn
            if not failed:
                break
            plain -= failed  # e.g. nested deeper than Python allows: the VM runs it
        for ctx in touched:
            ctx.proc.plain = made.get(ctx.proc.name)
            self.finish(ctx)

    def _plain_name(self, proc: Proc) -> str:
        return f"_pp{self.gen.const(proc)}"

    def _relink(self, ctx: _ProcCtx, plain: set, again: bool) -> bool:
        """Put back the procedure's original instructions, then turn its calls and emits of
        plain procedures into simple instructions. False if there is nothing to do (`again`:
        it was relinked before, against a larger `plain`)."""
        procs = self.game.procs
        calls = {k: v for k, v in ctx.calls.items() if v[0].name in plain}
        emits = {k: e for k, e in ctx.emits.items() if e not in procs or e in plain}
        performs = {k: v for k, v in ctx.performs.items() if any(a.name in plain for a in v[0])}
        if not calls and not emits and not performs and ctx.proc.name not in plain and not again:
            return False
        proc = ctx.proc
        for i, ins in proc.originals.items():
            proc.code[i] = ins
        proc.originals.clear()
        proc.simple, ctx.control = set(ctx.saved[0]), set(ctx.saved[1])
        env = self.gen.env
        for k, (callee, src, ret) in calls.items():
            body = f"{self._plain_name(callee)}(S, th, {src})"
            self._replace(proc, k, f"L[{ret!r}] = {body}" if ret is not None else body)
        for k, event in emits.items():
            self._replace(proc, k, "pass" if event not in procs else
                          f"{self._plain_name(procs[event])}(S, th, {{'player': L.get('player')}})")
        for k, (actions, slot, who_slot) in performs.items():
            self._link_actions(proc, k, actions, slot, who_slot, plain)
        return True

    def _link_actions(self, proc: Proc, k: int, actions: list, slot: str, who_slot: str,
                      plain: set) -> None:
        """run_action of a `perform` as source: a plain action is called directly, another
        pushes its frame (as run_action does); simple (fused with what follows) if all are plain."""
        lines = [f"_n = L.pop({slot!r}, None)", "if _n is not None:", f"    _a = {{'player': L[{who_slot!r}]}}"]
        for i, act in enumerate(actions):
            run = f"{self._plain_name(act)}(S, th, _a)" if act.name in plain else \
                f"th.frames.append(_Frame({self.gen.const(act)}, 0, _a))\n        return {FRAME}"
            lines.append(f"    {'if' if i == 0 else 'elif'} _n == {act.name.split(':', 1)[1]!r}:\n        {run}")
        if all(a.name in plain for a in actions):
            self._replace(proc, k, "\n".join(lines))
        else:
            proc.originals.setdefault(k, proc.code[k])
            proc.code[k] = make_instruction("\n".join(lines), proc.pos[k], self.gen.env)

    def _replace(self, proc: Proc, k: int, body: str) -> None:
        proc.originals.setdefault(k, proc.code[k])
        proc.code[k] = make_instruction(body, proc.pos[k], self.gen.env)
        proc.simple.add(k)

    def _plain_function(self, ctx: _ProcCtx) -> Callable | None:
        """The plain Python function of a procedure that never stops (see link), or None."""
        lines: list[str] = []
        if not self._block_source(ctx.body, ctx, lines, 0, "", whole=True):
            return None
        proc = ctx.proc
        frame = f"_Frame({self.gen.const(proc)}, _k, L)"
        # a frame only for instructions that take one (closures), else made when an error needs it
        eager = any(_FR.search(line) for line in lines)
        if not eager:  # nothing reads the frame: the locals can be Python variables
            lines = _python_locals(lines, proc.params)
        src = "\n".join([
            "def _plain(S, th, L):",
            "    _k = 0",
            f"    fr = {frame if eager else 'None'}",
            "    S.steps += 2  # a call and its return, as in the VM",
            "    _m = _METER",
            "    if S.steps > _m.limits.steps:",
            f"        _calls_exceeded({frame})",
            "    _m.nest += 1",
            "    try:",
            "        if len(th.frames) + _m.nest > _m.limits.depth:",
            f"            _too_deep({frame})",
            textwrap.indent("\n".join(lines), "        "),
            "    except _GameEnds:",
            "        raise",
            "    except BaseException as _e:",
            f"        fr = {frame}",
            "        _x = _locate(_e, fr)",
            "        if _x is None:",
            "            raise",
            "        raise _x from None",
            "    finally:",
            "        _m.nest -= 1",
            ""])
        try:
            fn = make_function(src, f"<rule {proc.decl_pos}>", self.gen.env, "_plain")
        except (SyntaxError, RecursionError):  # too deeply nested for Python
            return None
        self.gen.env[self._plain_name(proc)] = fn
        return fn

    # ------------------------------------------------------------------ expressions
    def expr(self, n: ast.Node, sc: Scope) -> Callable:
        """A compiled function f(S, L) for an expression node (see codegen.py)."""
        return self.gen.function(n, sc)

    # ------------------------------------------------------------------ statements
    def block(self, stmts: list, ctx: _ProcCtx) -> list:
        """Compile statements; returns their shape (see structure): per statement, the shape of
        a control statement, or ("ins", index) for each instruction it emitted."""
        shape: list = []
        for stmt in stmts:
            method = getattr(self, "s_" + type(stmt).__name__, None)
            if method is None:
                self.error(f"{type(stmt).__name__} is not a statement", stmt.pos, "E220")
                continue
            start = ctx.here()
            try:
                method(stmt, ctx)
            except RuleError as exc:
                self.errors.append(exc)
            if start in ctx.shapes:
                shape.append(ctx.shapes[start])
            else:
                shape.extend(("ins", k) for k in range(start, ctx.here()))
        return shape

    # ------------------------------------------------------------------ structured code
    def structure(self, ctx: _ProcCtx, start: int, shape: tuple) -> None:
        """Record a control statement; `finish` tries to structure it (see _structure_now)."""
        ctx.shapes[start] = shape
        ctx.deferred.append((start, ctx.here(), shape))

    def _structure_now(self, ctx: _ProcCtx, start: int, end: int, shape: tuple) -> None:
        """Compile a control statement that cannot stop (no decision, VM call, return or emit
        of a trigger that may stop inside) into ONE generated Python function with real if/for/while, so the VM dispatches
        once for the whole statement. Its instructions stay in place: their indexes give error
        positions (`_k`), and the statement falls back to them if it cannot be structured."""
        proc = ctx.proc
        if any(k not in proc.simple and k not in ctx.control for k in range(start, end)):
            return
        lines: list[str] = []
        if not self._shape_source(shape, ctx, lines, 0):
            return
        body = "\n".join(lines)
        src = ("def _ins(S, th, fr):\n    L = fr.L\n    try:\n" + textwrap.indent(body, "        ")
               + "\n    except BaseException:\n        fr.pc = _k\n        raise\n"
               + f"    fr.pc = {end}\n")
        try:
            ins = make_function(src, f"<rule {proc.pos[start]}>", self.gen.env, "_ins")
        except (SyntaxError, RecursionError):  # e.g. too deeply nested for Python: keep the VM form
            return
        ins.body, ins.span_end = body, end
        proc.originals.setdefault(start, proc.code[start])
        proc.code[start] = ins
        proc.simple.add(start)
        ctx.control.discard(start)

    def _shape_source(self, shape: tuple, ctx: _ProcCtx, out: list, loops: int, whole: bool = False) -> bool:
        """Append Python lines for `shape` to `out`; False if it cannot be written as Python.
        `whole`: the lines are the body of the procedure's own plain function (see link), so
        `return` can be written too."""
        kind = shape[0]
        if kind == "ins":
            k = shape[1]
            if k in ctx.control:
                return False
            if whole and k in ctx.returns:
                out += [f"_k = {k + 1}", f"return {ctx.returns[k] or 'None'}"]
                return True
            if k not in ctx.proc.simple:
                return False
            out.append(f"_k = {k + 1}")
            out.extend(_body_of(ctx.proc.code[k], self.gen.env).splitlines())
            return True
        if kind in ("break", "continue"):
            out.append(kind)
            return loops > 0
        if kind == "if":
            _, branches, orelse = shape
            indent = ""
            for test, cond, body in branches:
                out.append(f"{indent}_k = {test + 1}")
                out.append(f"{indent}if {cond}:")
                if not self._block_source(body, ctx, out, loops, indent + "    ", whole):
                    return False
                out.append(f"{indent}else:")
                indent += "    "
            return self._block_source(orelse, ctx, out, loops, indent, whole)
        budget = ["    S.steps += 1", "    if S.steps > _METER.limits.steps:",
                  f"        _count_loop(S, {self.gen.const(shape[-1])})"]
        k = next(self.uniq)
        if kind == "for":
            _, first, test, seq, var, body, _pos = shape
            out += [f"_k = {first + 1}", *_copy_items(f"_sq{k}", seq).splitlines(),
                    f"for _sv{k} in _sq{k}:", f"    _k = {test + 1}"]
            out += budget + [f"    L[{var!r}] = _sv{k}"]
        elif kind == "while":
            _, test, cond, body, _pos = shape
            out += ["while True:", f"    _k = {test + 1}", f"    if not ({cond}):", "        break"]
            out += budget
        else:  # repeat
            _, first, test, count, body, _pos = shape
            out += [f"_k = {first + 1}", f"_sr{k} = {count}", "while True:", f"    _k = {test + 1}",
                    f"    if _sr{k} <= 0:", "        break", f"    _sr{k} = _sr{k} - 1"]
            out += budget
        return self._block_source(body, ctx, out, loops + 1, "    ", whole)

    def _block_source(self, shapes: list, ctx: _ProcCtx, out: list, loops: int, indent: str,
                      whole: bool = False) -> bool:
        lines: list[str] = []
        for shape in shapes:
            if not self._shape_source(shape, ctx, lines, loops, whole):
                return False
        out.extend(indent + line for line in (lines or ["pass"]))
        return True

    def s_Let(self, n, ctx):
        if n.name in BUILTIN_NAMES:  # locals may shadow functions (new builtins never break rules)
            raise RuleError(f'"{n.name}" is a built-in name; choose another', n.pos, "E221")
        call = self._proc_call_target(n.value)
        if call is not None:
            ctx.scope.names[n.name] = n.name
            self._emit_proc_call(call, n.value, ctx, ret=n.name)
            return
        value = self.gen.source(n.value, ctx.scope)
        ctx.scope.names[n.name] = n.name
        ctx.emit_code(f"L[{n.name!r}] = {value}", n.pos, self.gen.env)

    def _proc_call_target(self, node) -> Function | None:
        """The procedure a statement-level call runs through the VM (None: evaluate normally)."""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            fn = self.game.functions.get(node.func.id)
            if fn is not None and fn.proc is not None:
                return fn
        return None

    def _emit_proc_call(self, fn: Function, call: ast.Call, ctx: _ProcCtx, ret: str | None) -> None:
        if call.kwargs or len(call.args) != len(fn.params):
            self.expr(call, ctx.scope)  # reports the arity error
            return
        proc = fn.proc
        ctx.proc.calls.add(proc.name)
        # one generated function builds the callee's locals: {param: argument, …}
        src = "{" + ", ".join(f"{p!r}: {self.gen.source(a, ctx.scope)}" for p, a in zip(fn.params, call.args)) + "}"
        push = f"th.frames.append(_Frame({self.gen.const(proc)}, 0, {src}, {ret!r}))\nreturn {FRAME}"
        ins = make_instruction(push, call.pos, self.gen.env)  # generated: no helper call
        ins.tail_src = push
        ctx.calls[ctx.emit(ins, call.pos)] = (proc, src, ret)

    def s_Assign(self, n, ctx):
        target, sc = n.target, ctx.scope
        op = n.op
        if isinstance(target, ast.Name) and sc.get(target.id) is not None:
            slot = sc.get(target.id)
            call = self._proc_call_target(n.value) if op == "=" else None
            if call is not None:
                self._emit_proc_call(call, n.value, ctx, ret=slot)
                return
            value = self.gen.source(n.value, sc)
            ctx.emit_code(f"L[{slot!r}] = {_combine_src(f'L[{slot!r}]', value, op)}", n.pos, self.gen.env)
            return
        name = target.id if isinstance(target, ast.Name) else (
            target.obj.id if isinstance(target, ast.Index) and isinstance(target.obj, ast.Name) else None)
        keys = target.keys if isinstance(target, ast.Index) else []
        g = self.game
        if name is not None and name in g.counters and not (isinstance(target, ast.Index) and sc.bound(name)):
            key = self.gen.family_key("counter", name, keys, target.pos, sc)
            value = self.gen.source(n.value, sc)
            fam = g.counters[name]
            if fam.low is None and fam.high is None:  # no bounds: an integer is stored as it is
                ctx.emit_code(f"_t = {key}\n_v = {_combine_src('S.counters[_t]', value, op)}\n"
                              "if type(_v) is int:\n    S.counters[_t] = _v\nelse:\n    _setc(S, _t, _v)",
                              n.pos, self.gen.env)
                return
            if all(b is None or type(b) is int for b in (fam.low, fam.high)):
                # bounds that are numbers (the same in every layout): State.set_counter's clamp,
                # written out
                clamp = "".join(f"\n    if _v {cmp} {b}:\n        _v = {b}" for cmp, b in (("<", fam.low), (">", fam.high))
                                if b is not None)
                ctx.emit_code(f"_t = {key}\n_v = {_combine_src('S.counters[_t]', value, op)}\n"
                              f"if type(_v) is int:{clamp}\n    S.counters[_t] = _v\nelse:\n    _setc(S, _t, _v)",
                              n.pos, self.gen.env)
                return
            ctx.emit_code(f"_t = {key}\n_v = {_combine_src('S.counters[_t]', value, op)}\n"
                          "if type(_v) is int:\n    S.set_counter(_t, _v)\nelse:\n    _setc(S, _t, _v)",
                          n.pos, self.gen.env)
            return
        if name is not None and name in g.variables:
            key = self.gen.family_key("variable", name, keys, target.pos, sc)
            value = self.gen.source(n.value, sc)
            ctx.emit_code(f"_t = {key}\nS.vars[_t] = {_combine_src('S.vars[_t]', value, op)}",
                          n.pos, self.gen.env)
            return
        value = self.expr(n.value, sc)
        if isinstance(target, ast.Attr):
            self._assign_attr(target, value, op, n, ctx)
            return
        if isinstance(target, ast.Name):
            raise RuleError(f'cannot assign to "{target.id}": declare a local with `let {target.id} = …` '
                            "or assign a counter or variable"
                            f"{self.gen.suggest(target.id, sc.all_names() | set(g.counters) | set(g.variables)) if len(self.errors) < MAX_SUGGESTED else ''}",
                            target.pos, "E222")
        if name is not None and not sc.bound(name):
            raise RuleError(f'unknown counter or variable "{name}"'
                            f"{suggest(name, set(g.counters) | set(g.variables))}", target.pos, "E222")
        raise RuleError("cannot assign to this expression (assign a counter, a variable, a local or a "
                        "piece's mutable attribute)", target.pos, "E222")

    def _assign_attr(self, target: ast.Attr, value, op, n, ctx):
        name = target.name
        obj = self.expr(target.obj, ctx.scope)
        if name == "face_up":
            def set_face(S, th, fr):
                for p in _as_pieces(S, obj(S, fr.L)):
                    S.set_face(p, bool(value(S, fr.L)))
            ctx.emit_simple(set_face, n.pos)
            return
        if name not in self.game.mutable_attrs:
            raise RuleError(f'attribute "{name}" cannot be changed: declare it under the component\'s '
                            f"`mutable:`{suggest(name, self.game.mutable_attrs)}", target.pos, "E223")
        combine = _combiner(op)

        def set_attr(S, th, fr):
            p = obj(S, fr.L)
            if type(p) is not Piece:
                raise RuleRuntimeError(f'only pieces have changeable attributes (setting "{name}")')
            v = value(S, fr.L)
            if combine is not None:
                d = S.dyn[name]
                v = combine(d[p] if p in d else S.lay.static[p].get(name), v)
            S.dyn[name][p] = v
        ctx.emit_simple(set_attr, n.pos)

    def s_ExprStmt(self, n, ctx):
        call = self._proc_call_target(n.expr)
        if call is not None:
            self._emit_proc_call(call, n.expr, ctx, ret=None)
            return
        if not isinstance(n.expr, ast.Call):
            raise RuleError("this expression does nothing as a statement (did you mean `=` or a call?)",
                            n.pos, "E224")
        ctx.emit_code(self.gen.source(n.expr, ctx.scope), n.pos, self.gen.env)

    def s_Move(self, n, ctx):
        sc = ctx.scope
        what, to = self.gen.source(n.what, sc), self.gen.source(n.to, sc)
        at = self.gen.source(n.at, sc) if n.at is not None else "None"
        # a family's zone or a named zone is surely a zone: no test; one piece needs no call
        check = "" if _surely_zone(to, self.gen.env) else "if type(_d) is not _ZoneRef:\n    _not_a_zone(_d)\n"
        ctx.emit_code(f"_d = {to}\n{check}_w = {what}\n"
                      f"_w = [_w] if type(_w) is _Piece else _as_pieces(S, _w)\n"
                      f"S.move(_w, _d, {n.place!r}, {at}, {n.face!r})", n.pos, self.gen.env)

    def s_Draw(self, n, ctx):
        count, src, dst = (self.gen.source(x, ctx.scope) for x in (n.count, n.source, n.dest))
        ctx.emit_code(f"_c = {count}\n_s = {src}\n_d = {dst}\n"
                      f"S.move(S.zones[_s][:max(0, _c)], _d, None, None, {n.face!r})", n.pos, self.gen.env)

    def s_Deal(self, n, ctx):
        count, src, fam = (self.gen.source(x, ctx.scope) for x in (n.count, n.source, n.family))
        ctx.emit_code(f"_deal(S, {count}, {src}, {fam}, {n.face!r})", n.pos, self.gen.env)

    def s_Discard(self, n, ctx):
        ctx.emit_code(f"_discard(S, {self.gen.source(n.what, ctx.scope)}, {n.face!r})", n.pos, self.gen.env)

    def s_Shuffle(self, n, ctx):
        ctx.emit_code(f"S.shuffle({self.gen.source(n.zone, ctx.scope)})", n.pos, self.gen.env)

    def s_Flip(self, n, ctx):
        what = self.gen.source(n.what, ctx.scope)
        face = "not S.face_up(_p)" if n.face is None else repr(n.face)
        ctx.emit_code(f"for _p in _as_pieces(S, {what}):\n    S.set_face(_p, {face})", n.pos, self.gen.env)

    def s_Reveal(self, n, ctx):
        what = self.gen.source(n.what, ctx.scope)
        if n.to is None:
            body = f"for _p in _as_pieces_or_zones(S, {what}):\n    S.set_face(_p, True)"
        else:
            body = (f"_ps = _as_pieces_or_zones(S, {what})\n_ws = _as_players(S, {self.gen.source(n.to, ctx.scope)})\n"
                    "for _p in _ps:\n    S.reveal_to(_p, _ws)")
        ctx.emit_code(body, n.pos, self.gen.env)

    def s_Roll(self, n, ctx):
        what = self.expr(n.what, ctx.scope)
        game = self.game

        def roll(S, th, fr):
            values = S.dyn.setdefault("value", {})
            for p in _as_pieces(S, what(S, fr.L)):
                faces = game.components[S.lay.component[p]].faces
                if not faces:
                    raise RuleRuntimeError(f"{S.lay.static[p]['name']} is not a die (no faces)")
                values[p] = faces[S.rng.below(len(faces))]
        ctx.emit_simple(roll, n.pos)

    def _chooser(self, by, ctx, pos) -> Callable:
        if by is not None:
            return self.expr(by, ctx.scope)
        if ctx.chooser is None:
            raise RuleError("who decides? add `by <player>` (no `player` is defined here)", pos, "E225")
        slot = ctx.chooser
        return lambda S, L: L[slot]

    def _chooser_source(self, by, ctx, pos) -> str:
        if by is not None:
            return self.gen.source(by, ctx.scope)
        if ctx.chooser is None:
            raise RuleError("who decides? add `by <player>` (no `player` is defined here)", pos, "E225")
        return f"L[{ctx.chooser!r}]"

    def s_Choose(self, n, ctx):
        """Generated source: the candidates, the bounds, the chooser and the prompt are computed
        inline, then decisions.start_choice suspends (or not: a choice of nothing)."""
        sc, gen = ctx.scope, self.gen
        source = gen.source(n.source, sc)
        slot = n.var
        sc.names[n.var] = slot
        where = gen.source(n.where, sc) if n.where is not None else None
        who = self._chooser_source(n.by, ctx, n.pos)
        mode = n.count
        bounds = {"one": "_lo = _hi = 1", "exact": f"_lo = _hi = {gen.source(n.low, sc) if n.low else None}",
                  "up_to": f"_lo = 0\n_hi = {gen.source(n.high, sc) if n.high else None}"}.get(mode)
        if bounds is None:
            bounds = f"_lo = {gen.source(n.low, sc)}\n_hi = {gen.source(n.high, sc)}"
        prompt = self._prompt_source(n.prompt, n.pos, ctx) if n.prompt else "None, None"
        ctx.proc.suspends = True
        label_key = None
        if n.label is not None:
            label_key = f"{ctx.proc.name}@{n.pos.line}:{n.pos.col}"
            self.game.label_fns[label_key] = (self._label_function(n.label, ctx), slot)
        if where is None:
            lines = [_copy_items("_c", source)]
        else:
            lines = ["_c = []", f"for _w in _items(S, {source}):", f"    L[{slot!r}] = _w",
                     f"    if {where}:", "        _c.append(_w)"]
        lines += [bounds, f"return _start_choice(S, th, fr, {who}, _c, {mode!r}, _lo, _hi, {n.optional!r}, "
                          f"{slot!r}, {prompt}, {gen.const(n.pos)}, {label_key!r})"]
        ctx.emit(make_instruction("\n".join(lines), n.pos, gen.env), n.pos)

    def s_Perform(self, n, ctx):
        actions = []
        for name, pos in n.actions:
            act = self.game.actions.get(name)
            if act is None:
                self.error(f'unknown action "{name}"{suggest(name, self.game.actions)}', pos, "E226")
            else:
                actions.append(act)
        who = self._chooser(n.by, ctx, n.pos)
        slot = f"$act{next(self.uniq)}"
        who_slot = slot + "who"
        optional, pos = n.optional, n.pos
        prompt_fn = self._text_function(n.prompt, pos, ctx) if n.prompt else None
        ctx.proc.suspends = True
        for act in actions:
            ctx.proc.calls.add(act.proc.name)

        def perform(S, th, fr):
            p = who(S, fr.L)
            fr.L[who_slot] = p
            env = {"player": p}  # `when` conditions only read it: one dict for all of them
            legal = [a for a in actions if a.when is None or a.when(S, env)]
            return start_perform(S, th, fr, p, legal, optional, slot,
                                 *(prompt_fn(S, fr.L) if prompt_fn else (None, None)), pos)
        source = self._perform_source(n, ctx, actions, who_slot, slot)
        if source is not None:  # the same, generated: fused with the statements before it
            perform = make_instruction(source, pos, self.gen.env)

        procs = {a.name: a.proc for a in actions}

        def run_action(S, th, fr):
            name = fr.L.pop(slot, None)
            if name is None:
                return None
            proc = procs[name]
            if proc.plain is not None:  # never stops: a plain Python call (see link)
                proc.plain(S, th, {"player": fr.L[who_slot]})
                return None
            th.frames.append(Frame(proc, 0, {"player": fr.L[who_slot]}))
            return FRAME

        def action_end(S, th, fr):
            proc = S.game.procs.get("event:action_end")
            if proc is None:
                return None
            if proc.plain is not None:
                proc.plain(S, th, {"player": fr.L[who_slot]})
                return None
            th.frames.append(Frame(proc, 0, {"player": fr.L[who_slot]}))
            return FRAME
        ctx.emit(perform, n.pos)
        ctx.performs[ctx.emit(run_action, n.pos)] = ([a.proc for a in actions], slot, who_slot)
        if self.events_heard is None or "action_end" in self.events_heard:
            ctx.emit(action_end, n.pos)

    def _perform_source(self, n, ctx, actions: list, who_slot: str, slot: str) -> str | None:
        """`perform` as generated source: the chooser, each action's `when` (compiled again
        with `player` a Python variable) and the prompt inline, then decisions.start_perform.
        None when a condition does not compile here (its error is reported where it is written)."""
        gen = self.gen
        saved, gen.errors, before = gen.errors, [], len(self.errors)
        try:
            lines = [f"_p = {self._chooser_source(n.by, ctx, n.pos)}", f"L[{who_slot!r}] = _p", "_l = []"]
            inner = Scope()
            inner.py["player"] = "_p"
            for act in actions:
                if act.when_text is None:
                    lines.append(f"_l.append({gen.const(act)})")
                    continue
                if not isinstance(act.when_text, str):
                    return None
                cond = gen.source(parse_expr(act.when_text), inner)
                lines.append(f"if {cond}:\n    _l.append({gen.const(act)})")
            prompt = self._prompt_source(n.prompt, n.pos, ctx) if n.prompt else "None, None"
            lines.append(f"return _start_perform(S, th, fr, _p, _l, {n.optional!r}, {slot!r}, {prompt}, "
                         f"{gen.const(n.pos)})")
        except RuleError:
            return None
        finally:
            failed, gen.errors = gen.errors or len(self.errors) > before, saved
            del self.errors[before:]  # reported once, by the closure form's compilation
        return None if failed else "\n".join(lines)

    def s_Log(self, n, ctx):
        # generated source: with logging off (simulations) a log line costs one test
        segments = self._log_segments(n, ctx, source=True)
        parts = [s if type(s) is _Source else repr(s) for s in segments]
        holes = self.gen.const(frozenset(i for i, s in enumerate(segments) if type(s) is _Source))
        template = template_of([None if type(s) is _Source else s for s in segments])
        ctx.emit_code(f"if S.logging:\n    S.log.append(_log_entry(S, [{', '.join(parts)}], th, {holes}, "
                      f"{template!r}))", n.pos, self.gen.env)

    def _log_segments(self, n: ast.Log, ctx: _ProcCtx, source: bool = False) -> list:
        """Literal texts and, for each {expr}, a compiled function (or its _Source)."""
        text, out, i, buf = n.text, [], 0, []
        base = n.text_pos or n.pos
        while i < len(text):
            ch = text[i]
            if ch == "{" and text[i:i + 2] == "{{":
                buf.append("{")
                i += 2
            elif ch == "}" and text[i:i + 2] == "}}":
                buf.append("}")
                i += 2
            elif ch == "{":
                end = text.find("}", i)
                if end < 0:
                    raise RuleError('unclosed "{" in log text', base, "E227")
                if buf:
                    out.append("".join(buf))
                    buf = []
                src = SourceMap(base.file, base.line, base.col + 1 + i + 1, None, 0)
                node = parse_expr(text[i + 1:end], src)
                out.append(_Source(self.gen.source(node, ctx.scope)) if source else self.expr(node, ctx.scope))
                i = end + 1
            else:
                buf.append(ch)
                i += 1
        if buf:
            out.append("".join(buf))
        return out

    def _text_function(self, text: str, pos: Pos, ctx: _ProcCtx) -> Callable:
        """A prompt: plain text, or text with {expr} filled in like a log line. Returns
        f(S, L) -> (text, event): the event ([template, args], events.py) None without values."""
        if "{" not in text:
            return lambda S, L: (text, None)
        segments = self._log_segments(ast.Log(pos, text, pos), ctx)
        if all(type(s) is str for s in segments):  # only escaped braces
            plain = "".join(segments)
            return lambda S, L: (plain, None)
        template = template_of([s if type(s) is str else None for s in segments])
        literal = [None if type(s) is not str else s for s in segments]
        return lambda S, L: prompt_of(S, literal, [s(S, L) for s in segments if type(s) is not str],
                                      template)

    def _prompt_source(self, text: str, pos: Pos, ctx: _ProcCtx) -> str:
        """Generated source for a choose's prompt: `text, event` (see _text_function)."""
        segments = self._log_segments(ast.Log(pos, text, pos), ctx, source=True)
        values = [s for s in segments if type(s) is _Source]
        if not values:
            return f"{''.join(segments)!r}, None"
        parts = [None if type(s) is _Source else s for s in segments]
        literal, template = self.gen.const(parts), self.gen.const(template_of(parts))
        return f"*_prompt_of(S, {literal}, [{', '.join(values)}], {template})"

    def _label_function(self, node: ast.Node, ctx: _ProcCtx) -> Callable:
        """`label EXPR`, or `label "text {expr}"` filled in like a log line."""
        if isinstance(node, ast.Const) and isinstance(node.value, str) and "{" in node.value:
            segments = self._log_segments(ast.Log(node.pos, node.value, node.pos), ctx)
            return lambda S, L: "".join(s if type(s) is str else label(S, s(S, L)) for s in segments)
        return self.expr(node, ctx.scope)

    def s_EndGame(self, n, ctx):
        segments = self._log_segments(ast.Log(n.pos, n.reason, n.text_pos), ctx) if n.reason else []

        def end_reason(S, L):
            S.vars["end_reason"] = "".join(s if type(s) is str else label(S, s(S, L)) for s in segments) or None
        # a simple instruction: GameEnds stops the run wherever it is (run_thread returns END),
        # so an `if … end_game` does not break a fused run or a structured loop
        ctx.emit_code(f"{self.gen.const(end_reason)}(S, L)\nraise _GameEnds()", n.pos, self.gen.env)

    def s_Return(self, n, ctx):
        if n.value is None:
            ctx.returns[ctx.emit(_return_none, n.pos)] = None
            return
        value = self.gen.source(n.value, ctx.scope)
        ctx.returns[ctx.here()] = value
        ctx.emit(make_instruction(f"result = {value}\nframes = th.frames\nframes.pop()\n"
                                  "if fr.ret is not None and frames:\n    frames[-1].L[fr.ret] = result\n"
                                  "return 2  # FRAME", n.pos, self.gen.env), n.pos)

    def s_Emit(self, n, ctx):
        event = "event:" + n.event
        self.events_emitted.add(n.event)
        if self.events_heard is not None and n.event not in self.events_heard:
            return  # nobody listens: no instruction at all

        def emit(S, th, fr):
            proc = S.game.procs.get(event)
            if proc is None:
                return None
            th.frames.append(Frame(proc, 0, {"player": fr.L.get("player")}))
            return FRAME
        ctx.emits[ctx.emit(emit, n.pos)] = event

    def s_Pass(self, n, ctx):
        pass

    def s_Break(self, n, ctx):
        if not ctx.loops:
            raise RuleError("`break` outside a loop", n.pos, "E228")
        at = ctx.emit_control(None, n.pos)
        ctx.loops[-1].breaks.append(at)
        ctx.shapes[at] = ("break",)

    def s_Continue(self, n, ctx):
        if not ctx.loops:
            raise RuleError("`continue` outside a loop", n.pos, "E228")
        at = ctx.emit_control(None, n.pos)
        ctx.loops[-1].continues.append(at)
        ctx.shapes[at] = ("continue",)

    def s_If(self, n, ctx):
        ends, branches = [], []
        start = ctx.here()
        for cond_node, body in n.branches:
            cond = self.gen.source(cond_node, ctx.scope)
            test = ctx.emit_control(None, cond_node.pos)
            branches.append((test, cond, self.block(body, ctx)))
            ends.append(ctx.emit_control(None, cond_node.pos))
            ctx.proc.code[test] = make_instruction(f"if not ({cond}):\n    fr.pc = {ctx.here()}",
                                                   cond_node.pos, self.gen.env)
        orelse = self.block(n.orelse, ctx)
        for at in ends:
            ctx.patch_jump(at, ctx.here())
        self.structure(ctx, start, ("if", branches, orelse))

    def s_For(self, n, ctx):
        it_src = self.gen.source(n.iter, ctx.scope)
        k = next(self.uniq)
        seq_slot, i_slot, var = f"$seq{k}", f"$i{k}", n.var
        ctx.scope.names[var] = var

        first = ctx.emit_code(f"{_copy_items('_cl', it_src)}\nL[{seq_slot!r}] = _cl\nL[{i_slot!r}] = 0", n.pos,
                              self.gen.env)
        head = ctx.here()
        test = ctx.emit_control(None, n.pos)
        exit_target: list[int] = []

        def step(S, th, fr, _t=exit_target):
            L = fr.L
            i = L[i_slot]
            seq = L[seq_slot]
            if i >= len(seq):
                del L[seq_slot], L[i_slot]
                fr.pc = _t[0]
                return None
            L[var] = seq[i]
            L[i_slot] = i + 1
        step.is_step = True
        ctx.proc.code[test] = step
        body = self._loop_with_cleanup(ctx, head, n.body, exit_target, [seq_slot, i_slot])
        step.tail_src = (f"_i = L[{i_slot!r}]\n_s = L[{seq_slot!r}]\nif _i >= len(_s):\n"
                         f"    del L[{seq_slot!r}], L[{i_slot!r}]\n    fr.pc = {exit_target[0]}\nelse:\n"
                         f"    L[{var!r}] = _s[_i]\n    L[{i_slot!r}] = _i + 1")
        self.structure(ctx, first, ("for", first, test, it_src, var, body, n.pos))

    def _loop_back(self, head: int, pos: Pos) -> Callable:
        """The jump back to a loop's head, also as source for the end of a fused run."""
        ins = _loop_back(head, pos)
        ins.loop_head = head
        ins.tail_src = ("S.steps += 1\nif S.steps > _METER.limits.steps:\n"
                        f"    _count_loop(S, {self.gen.const(pos)})\nfr.pc = {head}")
        return ins

    def _function(self, src: str, pos: Pos) -> Callable:
        """f(S, L) from generated expression source (see ExprGen.function)."""
        if src == "_fail(S, L)":
            return fail
        return make_function(f"lambda S, L: {src}", f"<rule {pos}>", self.gen.env)

    def _loop_with_cleanup(self, ctx, head, body, exit_target, slots):
        loop = _Loop()
        ctx.loops.append(loop)
        shape = self.block(body, ctx)
        ctx.loops.pop()
        ctx.emit_control(self._loop_back(head, ctx.proc.pos[head]), ctx.proc.pos[head])
        exit_target.append(ctx.here())
        if loop.breaks:  # a break skips the loop's own cleanup: do it here
            after = ctx.here()

            def cleanup(S, th, fr):
                for s in slots:
                    fr.L.pop(s, None)
            for at in loop.breaks:
                ctx.proc.code[at] = _jump(after)
            ctx.emit_control(cleanup, None)
            exit_target[0] = ctx.here()
        for at in loop.continues:
            ctx.proc.code[at] = self._loop_back(head, ctx.proc.pos[head])
        return shape

    def s_Repeat(self, n, ctx):
        count_src = self.gen.source(n.count, ctx.scope)
        count = self._function(count_src, n.count.pos)
        k = next(self.uniq)
        slot = f"$rep{k}"
        first = ctx.emit_simple(lambda S, th, fr: fr.L.__setitem__(slot, count(S, fr.L)), n.pos)
        head = ctx.here()
        test = ctx.emit_control(None, n.pos)
        exit_target: list[int] = []

        def step(S, th, fr, _t=exit_target):
            left = fr.L[slot]
            if left <= 0:
                del fr.L[slot]
                fr.pc = _t[0]
                return None
            fr.L[slot] = left - 1
        step.is_step = True
        ctx.proc.code[test] = step
        body = self._loop_with_cleanup(ctx, head, n.body, exit_target, [slot])
        step.tail_src = (f"_l = L[{slot!r}]\nif _l <= 0:\n    del L[{slot!r}]\n    fr.pc = {exit_target[0]}\n"
                         f"else:\n    L[{slot!r}] = _l - 1")
        self.structure(ctx, first, ("repeat", first, test, count_src, body, n.pos))

    def s_While(self, n, ctx):
        cond_src = self.gen.source(n.cond, ctx.scope)
        cond = self._function(cond_src, n.cond.pos)
        head = ctx.here()
        test = ctx.emit_control(None, n.pos)
        exit_target: list[int] = []

        def step(S, th, fr, _t=exit_target):
            if not cond(S, fr.L):
                fr.pc = _t[0]
        step.is_step = True
        ctx.proc.code[test] = step
        body = self._loop_with_cleanup(ctx, head, n.body, exit_target, [])
        step.tail_src = f"if not ({cond_src}):\n    fr.pc = {exit_target[0]}"
        self.structure(ctx, head, ("while", test, cond_src, body, n.pos))

    def s_Simultaneous(self, n, ctx):
        if ctx.in_simultaneous:
            raise RuleError("a simultaneous block cannot be inside another one", n.pos, "E229")
        it = self.expr(n.iter, ctx.scope)
        body_proc = Proc(f"{ctx.proc.name}/simultaneous@{n.pos.line}:{n.pos.col}", [], decl_pos=n.pos)
        self.game.procs[body_proc.name] = body_proc
        inner = Scope(ctx.scope)
        inner.names[n.var] = n.var
        body_ctx = _ProcCtx(body_proc, inner, n.var, True)
        body_ctx.body = self.block(n.body, body_ctx)
        body_ctx.emit(_return_none, n.pos)
        self.finish(body_ctx)
        ctx.proc.suspends = True
        var = n.var

        def spawn(S, th, fr):
            players = items(S, it(S, fr.L))
            if not players:
                return None
            for p in players:
                L = fr.L.copy()
                L[var] = p
                new_thread(S, [Frame(body_proc, 0, L)], player=p, parent=th.tid)
            th.waiting = len(players)
            th.since = len(S.history)
            return WAIT
        ctx.emit(spawn, n.pos)


def _python_locals(lines: list, params: list) -> list:
    """A plain procedure's body with its locals (`L['x']`) as Python variables, the parameters
    read from `L` on entry; unchanged if the body uses `L` any other way (`L.get`, `del L[…]`)."""
    text = "\n".join(lines)
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text + "\n").readline))
    except (tokenize.TokenError, SyntaxError):
        return lines
    starts = [0]
    for line in text.split("\n"):
        starts.append(starts[-1] + len(line) + 1)
    names: dict[str, str] = {}
    spans = []
    for i, tok in enumerate(tokens):
        if tok.type != tokenize.NAME or tok.string != "L":
            continue
        near = tokens[i + 1:i + 4]
        if len(near) < 3 or near[0].string != "[" or near[1].type != tokenize.STRING or near[2].string != "]":
            return lines  # another use of the dictionary
        key = ast_literal(near[1].string)
        if not isinstance(key, str):
            return lines
        ident = names.setdefault(key, f"_l_{key}" if key.isidentifier() else f"_l{len(names)}")
        (r0, c0), (r1, c1) = tok.start, near[2].end
        spans.append((starts[r0 - 1] + c0, starts[r1 - 1] + c1, ident))
    for a, b, ident in reversed(spans):
        text = text[:a] + ident + text[b:]
    entry = [f"{names[p]} = L[{p!r}]" for p in params if p in names]
    return entry + text.split("\n")


def _surely_zone(code: str, env: dict) -> bool:
    """Is generated `code` surely a zone (ZoneRef): a family's zone or a named zone's constant?"""
    if code.startswith(("S.lay.zone_index[", "S.lay.zone_tables[")) and code.count("S.") == 1:  # zones only
        return True
    return re.fullmatch(r"_k\d+", code) is not None and type(env.get(code)) is ZoneRef


def _as_pieces_or_zones(S, value):
    if isinstance(value, list) and value and all(type(v) is ZoneRef for v in value):
        return [p for z in value for p in S.zones[z]]
    return _as_pieces(S, value)


def _combiner(op: str):
    return {"=": None, "+=": budget.add, "-=": operator.sub, "*=": budget.times}[op]


_INT_LITERAL = re.compile(r"\(?-?\d+\)?")


def _combine_src(current: str, value: str, op: str) -> str:
    """Source of `current <op>= value`."""
    if op == "=":
        return value
    if op == "*=":
        return f"_times({current}, {value})"
    # texts and lists: bounded sizes. Adding a whole number (`x += 1`) can only give a number or
    # fail as a text or list would, so it needs no check.
    if op == "+=" and not current.startswith("S.counters") and not _INT_LITERAL.fullmatch(value):
        return f"_add({current}, {value})"
    return f"({current} {op[0]} {value})"


def set_counter_checked(S: Any, key: str, v: Any) -> None:
    if type(v) is not int and (not isinstance(v, int) or isinstance(v, bool)):
        raise RuleRuntimeError(f"counter {key} must hold an integer, got {v!r}")
    S.set_counter(key, v)
