"""The load-time information-flow check: hidden data must not reach what a player sees.

Every expression of the rules is given the set of hidden *sources* it reads. A source is an
attribute (other than the component's `public:` ones) of a piece taken from a zone whose faces
some players cannot see: an owner-only zone (seen by its owner, the zone's player index), a
hidden zone (seen by nobody: deck order), a face-down zone. (Counters and variables are not
sources: what is stored in them is checked where it is set.) Sources flow through locals, expressions, comprehensions, lambdas and expression
functions (inlined at each call). Membership decided by hidden data (a filter, a `where`, a
sort key) taints the collection: its size, its order and which pieces it holds.

Sinks are what a player sees: log lines and the end-of-game reason (everyone), a choice's
prompt, option labels, option set (`from`, `where`, counts: the decider), public counters and
variables (everyone), owner counters and variables (their owner), the order of a public zone,
and statements run only when a hidden condition holds (their visible effect tells the outcome).

A flow is accepted when the source is disclosed in the same procedure before the next decision
(players only look between decisions): `reveal X to players` (everyone), `reveal X to p` (p),
`reveal X` or `flip X` face up in a zone showing face-up pieces to all, a move into a public
face-up zone, a `call` of a procedure that does one of these, or when the value is wrapped in
`disclose(…)` (an intended announcement).

Some flows can only be judged at run time: a zone with a `custom` visibility rule, a zone whose
owner is computed (`owner:`) read into what one player sees, a zone that shows face-up pieces to
all but may hold face-down ones, pieces found with `pieces(component)` when the component does
not start hidden, the end-of-game summary reading a zone that is revealed elsewhere, a statement
that may fail with an error message naming a hidden piece. Those are *warnings* (E246, shown by
`validate`, loading goes on); the run-time audit (interpreter/audit.py) decides them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Iterable

from . import ast
from .errors import Pos, RuleError
from .parser import parse_block, parse_expr
from .secrecy import Secrecy
from .source import SourceMap, YMap

EVERYONE = None  # a sink seen by every player
ANY_OWNER = "*"  # a source owned by "some player" (zones(hand), hand without index)

CODES = {
    "log": "E240", "end": "E240", "summary": "E240", "prompt": "E241", "label": "E241",
    "options": "E242", "slot": "E243", "condition": "E244", "ends": "E244", "order": "E245",
}
WARNING = "E246"  # a flow only play decides: shown by `validate`, loading goes on
LOCATION = {"zone", "index", "pos"}  # where a piece is (hidden when found with pieces(component))
KEEP_ORIGIN = {"top", "bottom", "first", "last", "filter", "sort", "unique", "reverse", "shuffled",
               "random_choice", "without", "remove", "append", "concat", "flatten", "argmax", "argmin",
               "min", "max", "get"}
SINGLE = {"top", "bottom", "first", "last", "random_choice", "min", "max", "get"}
SIZE_ONLY = {"count", "len", "empty"}


@dataclass(frozen=True)
class Source:
    family: str
    owner: str | None  # fingerprint of the player who sees it; None: nobody
    what: str
    pos: Pos
    handle: str | None = None  # the local holding the piece read, if any (disclosing it covers)
    runtime: str | None = None  # why only play decides whether a viewer sees it (a warning)
    computed_owner: bool = False  # `owner` is the text of a zone's computed owner


@dataclass(frozen=True)
class AV:
    """What an expression reads: hidden sources, and where its pieces come from."""

    taint: frozenset = frozenset()
    origin: tuple | None = None  # (zone family, owner fingerprint) of the piece(s) it gives
    single: bool = False  # one piece (shown masked when hidden), not a collection

    def __or__(self, other: "AV") -> "AV":
        return AV(self.taint | other.taint, self.origin or other.origin, False)

    def plain(self) -> "AV":
        return AV(self.taint)


CLEAN = AV()


def fingerprint(node: Any, subst: dict | None = None) -> str:
    """An expression as text, positions ignored: `hand[next_player(p)]` → next_player(p).
    `subst`: parameter name -> the caller's argument text (inside an inlined function)."""
    if subst:
        return _fingerprint(node, subst)
    return _fingerprint(node, {})


def _fingerprint(node: Any, subst: dict) -> str:
    if isinstance(node, ast.Name):
        return subst.get(node.id, node.id)
    if isinstance(node, ast.Const):
        return repr(node.value)
    if isinstance(node, ast.Call):
        args = ", ".join(_fingerprint(a, subst) for a in node.args)
        return f"{_fingerprint(node.func, {})}({args})"
    if isinstance(node, ast.Attr):
        return f"{_fingerprint(node.obj, subst)}.{node.name}"
    if isinstance(node, ast.Index):
        return f"{_fingerprint(node.obj, {})}[{', '.join(_fingerprint(k, subst) for k in node.keys)}]"
    if isinstance(node, ast.Node):
        parts = [_fingerprint(v, subst) for v in vars(node).values() if isinstance(v, ast.Node)]
        return f"{type(node).__name__}({', '.join(parts)})"
    return str(node)


@dataclass
class Marks:
    """Disclosures in one procedure, with the stretch between decisions (epoch) they happen in.
    A disclosure covers what comes after it, and what came before it in the same stretch (the
    first pass collects those): players only look between decisions."""

    epoch: int = 0
    everyone: dict = field(default_factory=dict)  # family -> epoch
    viewers: dict = field(default_factory=dict)  # (family, viewer fingerprint) -> epoch
    pre_everyone: dict = field(default_factory=dict)  # from the first pass
    pre_viewers: dict = field(default_factory=dict)

    def covers(self, family: Any, viewer: str | None) -> bool:
        """`family`: a zone family, "$local" (the piece(s) a local holds) or a Source."""
        if family in self.everyone or self.pre_everyone.get(family) == self.epoch:
            return True
        return viewer is not None and ((family, viewer) in self.viewers
                                       or self.pre_viewers.get((family, viewer)) == self.epoch)

    def shown_to_everyone(self) -> frozenset:
        """Zone families shown to everyone so far in this stretch (or before it)."""
        return frozenset(fam for fam in self.everyone if isinstance(fam, str)) | frozenset(
            fam for fam, epoch in self.pre_everyone.items() if epoch == self.epoch and isinstance(fam, str))

    def disclose(self, family: Any, viewer: str | None) -> None:
        if viewer is None:
            self.everyone.setdefault(family, self.epoch)
        else:
            self.viewers.setdefault((family, viewer), self.epoch)


@dataclass
class Flow:
    """Where the analysis is inside one procedure."""

    env: dict
    decider: str | None  # fingerprint of the default chooser (`player` in turns and actions)
    pc: frozenset = frozenset()  # sources the current branch depends on
    marks: Marks = field(default_factory=Marks)
    depth: int = 0
    subst: dict = field(default_factory=dict)  # parameter -> argument text (inlined functions)
    via: str = ""  # " (through the call of f at file:line:col)" inside an inlined procedure

    def child(self, env: dict | None = None, pc: frozenset | None = None) -> "Flow":
        return Flow(dict(self.env) if env is None else env, self.decider,
                    self.pc if pc is None else pc, self.marks, self.depth, self.subst, self.via)

    def fp(self, node: Any) -> str:
        return fingerprint(node, self.subst)


_EXPR_RULES: dict = {}  # node type -> FlowCheck.e_<type> (None: the children's sources joined)


class FlowCheck:
    """Runs the check over one merged rule document and its compiled definition."""

    def __init__(self, doc: YMap, game: Any):
        self.doc, self.game = doc, game
        self.errors: list[RuleError] = []
        self.warnings: list[RuleError] = []
        self.seen: set = set()
        self.expr_fns: dict = {}
        self.hiding = Secrecy(doc, game)  # what each zone hides, and from whom
        self.logs: list = []  # (text, pos) of every log statement (the audit finds rules by them)
        self.quiet = False  # passes that only collect (what gets disclosed, what slots hold)
        self.first_pass = False  # the pass of a block that collects what it discloses
        self.collecting = False  # a quiet round that also records what counters and variables hold
        self.proc_discloses: dict = {}  # procedure name -> (families, {family: viewers})
        self.proc_bodies: dict = {}  # procedure name -> (statements, params)
        self.inlining: set = set()  # procedures being followed with their callers' arguments
        self.inlined: set = set()  # ids of call nodes followed into their procedure
        self.parsed: dict = {}  # id(text) -> (text, parsed): every block is parsed once
        self.texts: dict = {}  # (text, where) -> its {expr} parts (text_parts)
        self.call_marks: dict = {}  # procedure name -> [families shown to everyone at a call site]
        self.entry: dict = {}  # procedure name -> families shown to everyone at every call site
        self.disclosed_anywhere: set = set()  # families some rule shows to everyone
        self.stored: dict = {}  # owner/hidden/internal counter or variable -> sources it may hold
        self.stored_version = 0  # counts the additions to `stored` (it only grows)
        self.calls: dict = {}  # (pure function, arguments, texts, depth, stored_version) -> AV
        self.pure: frozenset | None = None  # see _pure_fns

    # ------------------------------------------------------------------ definitions
    def _player_key(self, family: Any, keys: list, f: Flow | None = None) -> str:
        dims = family.dims
        if getattr(family, "owner", None) is not None:  # a zone whose owner is computed
            shown = ", ".join(f.fp(k) if f is not None else fingerprint(k) for k in keys)
            return f"the owner of {family.name}[{shown}]" if keys else f"the owner of {family.name}"
        for i, d in enumerate(dims):
            if d.kind == "player" and i < len(keys):
                return f.fp(keys[i]) if f is not None else fingerprint(keys[i])
        return ANY_OWNER

    # ------------------------------------------------------------------ expressions
    def ev(self, n: Any, f: Flow) -> AV:
        kind = type(n)
        try:
            method = _EXPR_RULES[kind]
        except KeyError:  # looked up once per node type (tens of thousands of calls per load)
            method = _EXPR_RULES[kind] = getattr(FlowCheck, "e_" + kind.__name__, None)
        if method is None:
            out = CLEAN
            for child in _children(n):
                out = out | self.ev(child, f).plain()
            return out
        return method(self, n, f)

    def e_Const(self, n, f):
        return CLEAN

    def e_Name(self, n, f):
        if n.id in f.env:
            return f.env[n.id]
        g = self.game
        if n.id in g.zones:
            z = g.zones[n.id]
            return AV(origin=(n.id, self._player_key(z, []) if z.owner is not None else ANY_OWNER))
        if n.id in g.variables or n.id in g.counters:
            return self._stored(n.id, [], f)
        return CLEAN

    def e_Index(self, n, f):
        keys = [self.ev(k, f) for k in n.keys]
        key_taint = frozenset().union(*(k.taint for k in keys)) if keys else frozenset()
        g = self.game
        if isinstance(n.obj, ast.Name) and n.obj.id not in f.env:
            name = n.obj.id
            if name in g.zones:
                return AV(key_taint, (name, self._player_key(g.zones[name], n.keys, f)))
            if name in g.counters or name in g.variables:
                held = self._stored(name, n.keys, f)
                return AV(key_taint | held.taint, held.origin, held.single)
        obj = self.ev(n.obj, f)
        return AV(obj.taint | key_taint, obj.origin, obj.origin is not None)

    def e_Attr(self, n, f):
        obj = self.ev(n.obj, f)
        taint = obj.taint
        if obj.origin is not None and n.name not in self.hiding.public_attrs and not (
                n.name in LOCATION | {"owner", "face_up"} and not obj.origin[0].startswith("pieces(")):
            family, owner = obj.origin  # (a piece taken from a known zone: where it is shows)
            secrecy, runtime = self.hiding.secrecy(family)
            handle = n.obj.id if isinstance(n.obj, ast.Name) and n.obj.id in f.env else None
            if secrecy == "pieces":
                src = self._pieces_source(family, n, runtime, handle)
                if src is not None:
                    taint = taint | {src}
            elif secrecy is not None:
                who = owner if secrecy == "owner" else None
                computed = who is not None and who.startswith("the owner of ")
                what = f"the {n.name} of a piece in {family}" + (
                    f"[{owner}]" if who and who != ANY_OWNER and not computed else "")
                taint = taint | {Source(family, who, what, n.pos, handle, runtime, computed)}
        return AV(taint)

    def _pieces_source(self, family: str, n: ast.Attr, runtime: str | None, handle: str | None) -> Source | None:
        """pieces(component): everyone knows which pieces exist, not where each one is nor the
        values that change during play (a die's face, a changeable attribute)."""
        comp_id = family[len("pieces("):-1]
        comp = self.game.components.get(comp_id)
        dynamic = set(comp.mutable) | ({"value"} if comp.faces else set()) if comp is not None else set()
        if n.name in LOCATION:
            what = f"where each {comp_id} piece is ({n.name})"
        elif n.name in dynamic:
            what = f"the {n.name} of a {comp_id} piece, wherever it is"
        else:
            return None
        owners = {self.hiding.secrecy(z)[0] for z in self.hiding.secret_families}
        return Source(family, ANY_OWNER if owners == {"owner"} else None, what, n.pos, handle, runtime)

    def e_Compare(self, n, f):
        """`piece.zone == public_zone` tells only what everyone sees (is it there or not)."""
        if n.op in ("==", "!="):
            for a, b in ((n.left, n.right), (n.right, n.left)):
                if isinstance(a, ast.Attr) and a.name == "zone" and self._public_zone(b, f):
                    return AV(self.ev(a.obj, f).taint | self.ev(b, f).taint)
        return AV(self.ev(n.left, f).taint | self.ev(n.right, f).taint)

    def _public_zone(self, node: Any, f: Flow) -> bool:
        family = self._to_family(node, f)
        return family is not None and self.hiding.zone_secrecy(family) is None

    def e_Lambda(self, n, f):
        return self.ev(n.body, f.child())

    def e_Comprehension(self, n, f):
        it = self.ev(n.iter, f)
        inner = f.child()
        inner.env[n.var] = AV(it.taint, it.origin, it.origin is not None)
        cond = self.ev(n.cond, inner) if n.cond is not None else CLEAN
        elt = self.ev(n.elt, inner)
        return AV(it.taint | cond.taint | elt.taint, elt.origin, False)

    def e_ListLit(self, n, f):
        items = [self.ev(x, f) for x in n.items]
        origins = {x.origin for x in items}
        taint = frozenset().union(*(x.taint for x in items)) if items else frozenset()
        return AV(taint, origins.pop() if len(origins) == 1 else None)

    e_TupleLit = e_ListLit

    def e_Ternary(self, n, f):
        cond = self.ev(n.cond, f)
        a, b = self.ev(n.then, f), self.ev(n.orelse, f)
        return AV(cond.taint | a.taint | b.taint, a.origin or b.origin, a.single and b.single)

    def e_Call(self, n, f):
        name = n.func.id if isinstance(n.func, ast.Name) else None
        if name == "disclose":
            return CLEAN
        args = [self.ev(a, f) if not isinstance(a, ast.Lambda) else None for a in n.args]
        first = next((a for a in args if a is not None), CLEAN)
        lambdas = CLEAN
        for a in n.args:
            if isinstance(a, ast.Lambda):
                inner = f.child()
                inner.env[a.param] = AV(first.taint, first.origin, first.origin is not None)
                lambdas = lambdas | self.ev(a.body, inner).plain()
        for v in n.kwargs.values():
            lambdas = lambdas | self.ev(v, f).plain()
        taint = frozenset().union(*(a.taint for a in args if a is not None)) | lambdas.taint
        fn = self.game.functions.get(name) if name else None
        if fn is not None:
            if fn.proc is None:
                return self._user_call(name, n, args, f)
            self.call_marks.setdefault(name, []).append(f.marks.shown_to_everyone())
            self._inline_proc(name, n, args, f)
            return AV(taint)
        if name == "zones" and n.args and isinstance(n.args[0], ast.Name):
            return AV(taint, (n.args[0].id, ANY_OWNER))
        if name == "pieces" and n.args and isinstance(n.args[0], ast.Name) \
                and n.args[0].id in self.game.components and n.args[0].id not in f.env:
            return AV(taint, (f"pieces({n.args[0].id})", ANY_OWNER))
        if name in SIZE_ONLY:
            return AV(taint)
        if name in KEEP_ORIGIN:
            origins = {a.origin for a in args if a is not None and a.origin is not None}
            origin = origins.pop() if len(origins) == 1 else None
            return AV(taint, origin, name in SINGLE and origin is not None)
        return AV(taint)

    def _user_call(self, name: str, n: ast.Call, args: list, f: Flow) -> AV:
        """An expression function, analysed with its arguments' sources (inlined)."""
        node = self.expr_fns.get(name)
        fn = self.game.functions[name]
        if node is None or f.depth > 8:
            return AV(frozenset().union(*(a.taint for a in args if a is not None)))
        env = {p: (args[i] if i < len(args) and args[i] is not None else CLEAN) for i, p in enumerate(fn.params)}
        subst = {p: f.fp(n.args[i]) for i, p in enumerate(fn.params) if i < len(n.args)}
        key = None
        if name in self._pure_fns():  # the same call analysed again gives the same answer
            key = (name, tuple(env.values()), tuple(subst.values()), f.depth, self.stored_version)
            known = self.calls.get(key)
            if known is not None:
                return known
        out = self.ev(node, Flow(env, f.decider, f.pc, f.marks, f.depth + 1, subst))
        if key is not None:
            self.calls[key] = out
        return out

    def _pure_fns(self) -> frozenset:
        """Expression functions whose analysis has no effect but its answer: no procedure is
        called in them, nor in the functions they call. The answer of such a call depends only
        on its arguments' sources and texts, its depth and what counters and variables hold."""
        if self.pure is None:
            calls = {name: {c.func.id for c in ast.walk(node)
                            if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)}
                     for name, node in self.expr_fns.items()}
            functions = self.game.functions
            impure = {name for name, called in calls.items()
                      if any(c in functions and functions[c].proc is not None for c in called)}
            while True:  # calling an impure function is impure
                more = {name for name, called in calls.items() if name not in impure and called & impure}
                if not more:
                    break
                impure |= more
            self.pure = frozenset(calls.keys() - impure)
        return self.pure

    def _inline_proc(self, name: str, n: ast.Call, args: list, f: Flow) -> None:
        """A `do:` procedure called with hidden data (or under a hidden condition) is followed
        with the caller's arguments, so what it shows of them is checked."""
        body = self.proc_bodies.get(name)
        if body is None or name in self.inlining or f.depth > 6:
            return
        hidden = [a for a in args if a is not None and (a.taint or (
            a.origin is not None and self.hiding.zone_secrecy(a.origin[0]) is not None))]
        if not hidden and not f.pc:
            return
        stmts, params = body
        env = {p: (args[i] if i < len(args) and args[i] is not None else CLEAN) for i, p in enumerate(params)}
        subst = {p: f.fp(n.args[i]) for i, p in enumerate(params) if i < len(n.args)}
        via = f.via or f" (through the call of {name}() at {n.pos})"
        self.inlining.add(name)
        self.inlined.add(id(n))
        try:
            self.block(stmts, Flow(env, f.decider, f.pc, f.marks, f.depth + 1, subst, via))
        finally:
            self.inlining.discard(name)

    # ------------------------------------------------------------------ sinks
    def leaks(self, av: AV, viewer: str | None, f: Flow, masked: bool = False) -> list[tuple]:
        """(source, why only play decides it or None) of every source `viewer` may not see."""
        taint = av.taint | f.pc
        if masked and av.single and av.origin is not None and self.hiding.zone_secrecy(av.origin[0]) is not None:
            taint = f.pc  # a hidden piece itself is shown masked: which one it is does not show
        out = []
        for src in taint:
            if self._covered(src, viewer, f.marks):
                continue
            if viewer is not EVERYONE and src.owner is not None and src.owner == viewer:
                continue
            runtime = src.runtime
            if runtime is None and src.computed_owner and viewer is not EVERYONE:
                runtime = f"{src.owner} is computed at run time and may be {viewer}"
            out.append((src, runtime))
        return sorted(out, key=lambda x: (x[1] is not None, x[0].pos.line, x[0].pos.col, x[0].what))

    def _covered(self, src: Source, viewer: str | None, marks: Marks) -> bool:
        if marks.covers(src.family, viewer) or marks.covers(src, viewer) or (
                src.handle is not None and marks.covers("$" + src.handle, viewer)):
            return True
        if src.family.startswith("pieces("):  # shown once every zone that hides pieces is shown
            return bool(self.hiding.secret_families) and all(marks.covers(z, viewer) for z in self.hiding.secret_families)
        return False

    def check(self, av: AV, sink: str, what: str, pos: Pos, viewer: str | None, f: Flow,
              masked: bool = False, runtime: str | None = None) -> None:
        if self.quiet:
            return
        found = self.leaks(av, viewer, f, masked)
        if runtime is not None:  # the sink itself is seen only if play goes a certain way
            found = [(s, why or runtime) for s, why in found]
        if not found:
            return
        direct = [x for x in found if x[0] in av.taint]
        src, why = (direct or found)[0]
        implicit = not direct
        key = (pos, sink, src.what)
        if key in self.seen:
            return
        self.seen.add(key)
        whom = "everyone" if viewer is EVERYONE else viewer
        seen_by = "nobody" if src.owner is None else (
            "each player only for their own" if src.owner == ANY_OWNER else src.owner)
        where = f" (read at {src.pos})" if src.pos != pos else ""
        how = "decides whether it happens" if implicit and sink != "ends" else "flows into it"
        hint = HINTS["condition" if implicit and sink != "ends" else sink]
        code = CODES["condition"] if implicit else CODES[sink]
        if why is not None:
            self.warnings.append(RuleError(
                f"warning: hidden information may reach {what}, seen by {whom}{f.via}: {src.what}"
                f"{where}, seen by {seen_by}, {how} unless play makes it visible first ({why}). "
                f"`rulebook audit` checks it at run time. {hint}", pos, WARNING))
            return
        self.errors.append(RuleError(
            f"hidden information reaches {what}, seen by {whom}{f.via}: {src.what}{where}, seen by "
            f"{seen_by}, {how}. {hint}", pos, code))

    # ------------------------------------------------------------------ text with {expr}
    def text_parts(self, text: str, base: Pos) -> list:
        """(tree, position) of every `{expr}` in a text (`{{` and `}}` are braces); the walks
        of run() ask for the same texts again, so each is read once."""
        key = (text, base.file, base.line, base.col)
        out = self.texts.get(key)
        if out is None:
            out = self.texts[key] = self._text_parts(text, base)
        return out

    def _text_parts(self, text: str, base: Pos) -> list:
        out, i = [], 0
        while True:
            brace = _BRACE.search(text, i)  # anything else is skipped a character at a time
            if brace is None:
                return out
            i = brace.start()
            if text.startswith("{{", i) or text.startswith("}}", i):
                i += 2
                continue
            if text[i] == "{":
                end = text.find("}", i)
                if end < 0:
                    return out
                src = SourceMap(base.file, base.line, base.col + 1 + i + 1, None, 0)
                try:
                    out.append((parse_expr(text[i + 1:end], src), src.at(1, 1)))
                except RuleError:
                    pass  # reported by the compiler
                i = end + 1
            else:
                i += 1

    def check_text(self, text: str, base: Pos, sink: str, what: str, viewer: str | None, f: Flow) -> None:
        for node, pos in self.text_parts(text, base):
            self.check(self.ev(node, f), sink, what, pos, viewer, f, masked=True)

    # ------------------------------------------------------------------ statements
    def block(self, stmts: list, f: Flow) -> None:
        for s in stmts:
            method = getattr(self, "s_" + type(s).__name__, None)
            if method is not None:
                method(s, f)

    def s_Let(self, n, f):
        value = self._with_pc(self.ev(n.value, f), f)
        if n.name in f.env:
            self._changed(n.name, f)
        f.env[n.name] = value
        self._alias(n.name, n.value, f)
        self._called(n.value, f)

    def _changed(self, name: str, f: Flow) -> None:
        """A local now names another player (`p = next_player(p)`, the next turn of a loop): what
        was read from the zones of the player it named before is not that player's any more."""
        pattern = re.compile(rf"(?<![\w.]){re.escape(name)}(?!\w)")

        def stale(owner: Any) -> Any:
            if isinstance(owner, str) and owner != ANY_OWNER and pattern.search(owner):
                return f"{owner} (before {name} changed)"
            return owner
        for key, av in list(f.env.items()):
            taint = frozenset(replace(src, owner=stale(src.owner)) for src in av.taint)
            origin = (av.origin[0], stale(av.origin[1])) if av.origin is not None else None
            if taint != av.taint or origin != av.origin:
                f.env[key] = AV(taint, origin, av.single)
        f.subst = {k: v for k, v in f.subst.items() if k == name or not pattern.search(v)}
        marks = f.marks  # what was revealed to the player it named is not revealed to the new one
        for shown in (marks.viewers, marks.pre_viewers):
            for key in [k for k in shown if isinstance(k[1], str) and pattern.search(k[1])]:
                del shown[key]

    def _alias(self, name: str, value: Any, f: Flow) -> None:
        """`let me = p`: `hand[me]` is p's hand (a local naming a player stands for that name)."""
        if isinstance(value, ast.Name) and value.id != name:
            f.subst = {**f.subst, name: f.fp(value)}
        elif name in f.subst:
            f.subst = {k: v for k, v in f.subst.items() if k != name}

    def _with_pc(self, av: AV, f: Flow) -> AV:
        return AV(av.taint | f.pc, av.origin, av.single) if f.pc else av

    def s_Assign(self, n, f):
        value = self.ev(n.value, f)
        t = n.target
        name = t.id if isinstance(t, ast.Name) else (t.obj.id if isinstance(t, ast.Index)
                                                     and isinstance(t.obj, ast.Name) else None)
        if name is not None and name in f.env and isinstance(t, ast.Name):
            self._changed(name, f)
            self._alias(name, n.value if n.op == "=" else None, f)
            old = f.env[name] if n.op != "=" else CLEAN
            f.env[name] = self._with_pc(AV(value.taint | old.taint, value.origin, value.single), f)
            return
        g = self.game
        fam = g.counters.get(name) or g.variables.get(name) if name else None
        keys = t.keys if isinstance(t, ast.Index) else []
        if fam is not None and (fam.visibility != "public" or getattr(fam, "internal", False)):
            self._store(name, fam, keys, value, f)  # (what a public slot holds is checked here)
        if fam is None or name in ("round", "phase") or getattr(fam, "internal", False):
            return  # internal variables are never shown
        av = value
        for k in keys:
            av = av | self.ev(k, f).plain()
        label = "counter" if name in g.counters else "variable"
        if fam.visibility == "public":
            self.check(av, "slot", f"the public {label} {name}", n.pos, EVERYONE, f, masked=True)
        elif fam.visibility == "owner":
            viewer = self._player_key(fam, keys, f)
            self.check(av, "slot", f"the {label} {name}[{viewer}]", n.pos, viewer, f, masked=True)

    def _slot(self, fam: Any, keys: list, f: Flow) -> str | None:
        """The player a per-player counter or variable slot belongs to (its text), if any."""
        if not keys or not any(d.kind == "player" for d in fam.dims):
            return None
        return self._player_key(fam, keys, f)

    def _store(self, name: str, fam: Any, keys: list, value: AV, f: Flow) -> None:
        """What a counter or variable not checked when written (owner, hidden, internal) may hold,
        over every assignment of the rules: read back later, it carries the sources not shown to
        everyone when it was written. The slot's own player is written "<slot>" so that a read of
        another slot names its own player."""
        if self.first_pass:
            return  # what is disclosed later in the same stretch is not known yet
        slot = self._slot(fam, keys, f)

        def norm(src: Source) -> Source:
            if slot is None or src.owner != slot:
                return replace(src, handle=None)
            return replace(src, owner="<slot>", what=src.what.replace(f"[{slot}]", "[<slot>]"), handle=None)
        held = self.stored.setdefault(name, set())
        before = len(held)
        held.update(norm(s) for s in value.taint | f.pc if not self._covered(s, EVERYONE, f.marks))
        if len(held) != before:
            self.stored_version += 1

    def _stored(self, name: str, keys: list, f: Flow) -> AV:
        """What reading a counter or variable slot carries (pieces it holds are shown masked;
        reading their attributes later is not followed)."""
        entry = self.stored.get(name)
        if entry is None:
            return CLEAN
        fam = self.game.counters.get(name) or self.game.variables.get(name)
        slot = self._slot(fam, keys, f)

        who = slot if slot is not None else f"the player of a {name} slot"

        def denorm(src: Source) -> Source:
            if src.owner != "<slot>":
                return src
            return replace(src, owner=who, what=src.what.replace("[<slot>]", f"[{who}]"))
        return AV(frozenset(denorm(s) for s in entry))

    def s_ExprStmt(self, n, f):
        self.ev(n.expr, f)
        self._called(n.expr, f)

    def _called(self, node: Any, f: Flow) -> None:
        """A `call f(…)` of a procedure discloses what that procedure discloses."""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            for family, viewer in self.proc_discloses.get(node.func.id, ()):
                f.marks.disclose(family, viewer)
            proc = self.game.procs.get("fn:" + node.func.id)
            if proc is not None and proc.suspends and id(node) not in self.inlined:
                f.marks.epoch += 1

    def s_Log(self, n, f):
        if not self.quiet and (n.text, n.text_pos or n.pos) not in self.logs:
            self.logs.append((n.text, n.text_pos or n.pos))
        self.check_text(n.text, n.text_pos or n.pos, "log", "a log line", EVERYONE, f)

    def s_EndGame(self, n, f):
        if n.reason:
            self.check_text(n.reason, n.text_pos or n.pos, "end", "the end-of-game reason", EVERYONE, f)

    def s_Choose(self, n, f):
        viewer = f.fp(n.by) if n.by is not None else f.decider
        source = self.ev(n.source, f)
        if n.by is not None:
            self.ev(n.by, f)
        element = AV(source.taint, source.origin, source.origin is not None)
        inner = f.child()
        inner.env[n.var] = element
        if viewer is not None:
            self.check(AV(source.taint), "options", "the options offered", n.source.pos, viewer, f)
            if n.where is not None:
                self.check(self.ev(n.where, inner), "options", "which options are legal (where)",
                           n.where.pos, viewer, f)
            for bound in (n.low, n.high):
                if bound is not None:
                    self.check(self.ev(bound, f), "options", "how many options may be picked",
                               bound.pos, viewer, f)
            if n.prompt:
                self.check_text(n.prompt, n.pos, "prompt", "the prompt", viewer, f)
            if n.label is not None:
                if isinstance(n.label, ast.Const) and isinstance(n.label.value, str):
                    self.check_text(n.label.value, n.label.pos, "label", "the option labels", viewer, inner)
                else:
                    self.check(self.ev(n.label, inner), "label", "the option labels", n.label.pos,
                               viewer, inner, masked=True)
        f.env[n.var] = element if n.count == "one" else AV(source.taint, source.origin)
        f.marks.epoch += 1

    def s_Perform(self, n, f):
        viewer = f.fp(n.by) if n.by is not None else f.decider
        if viewer is not None and n.prompt:
            self.check_text(n.prompt, n.pos, "prompt", "the prompt", viewer, f)
        f.marks.epoch += 1

    def s_If(self, n, f):
        pc = f.pc
        for cond, body in n.branches:
            c = self.ev(cond, f)
            pc = pc | c.taint
            self.block(body, f.child(env=f.env, pc=pc))
        self.block(n.orelse, f.child(env=f.env, pc=pc))

    def s_While(self, n, f):
        for _ in range(2):  # a second pass sees what the first one assigned
            c = self.ev(n.cond, f)
            self.block(n.body, f.child(env=f.env, pc=f.pc | c.taint))

    def s_For(self, n, f):
        it = self.ev(n.iter, f)
        f.env[n.var] = AV(frozenset(), it.origin, it.origin is not None)
        order = f.pc | it.taint  # the loop runs in an order (and a number of times) set by them
        for turn in range(2):  # a second pass sees what the first one assigned
            if turn:
                self._changed(n.var, f)  # the next element: another player, maybe
            self.block(n.body, f.child(env=f.env, pc=order))

    def s_Repeat(self, n, f):
        c = self.ev(n.count, f)
        self.block(n.body, f.child(env=f.env, pc=f.pc | c.taint))

    def s_Simultaneous(self, n, f):
        it = self.ev(n.iter, f)
        inner = f.child(env=f.env)
        inner.env[n.var] = AV(it.taint)
        inner.decider = n.var
        self.block(n.body, inner)
        f.marks.epoch += 1

    def _moved(self, what: Any, f: Flow) -> str | None:
        """The zone family whose whole contents `what` names, if it does."""
        if isinstance(what, ast.Index) and isinstance(what.obj, ast.Name) and what.obj.id in self.game.zones:
            return what.obj.id
        if isinstance(what, ast.Name) and what.id in self.game.zones and what.id not in f.env:
            return what.id
        if isinstance(what, ast.Call) and isinstance(what.func, ast.Name) and what.func.id == "zones" \
                and what.args and isinstance(what.args[0], ast.Name):
            return what.args[0].id
        return None

    def _disclose(self, what: Any, viewers: str | None, f: Flow) -> None:
        family = self._moved(what, f)
        target = what.obj if isinstance(what, ast.Index) else what
        if isinstance(target, ast.Name) and target.id not in f.env and (
                target.id in self.game.variables or target.id in self.game.counters):
            keys = what.keys if isinstance(what, ast.Index) else []
            for src in self._stored(target.id, keys, f).taint:  # the pieces a slot holds, in sight
                f.marks.disclose(src, viewers)
            return
        if isinstance(what, ast.Name) and what.id in f.env:
            f.marks.disclose("$" + what.id, viewers)  # the piece this local holds
            av = f.env[what.id]
            for src in av.taint:  # and what decided which pieces it holds, now in sight
                f.marks.disclose(src, viewers)
            if viewers is EVERYONE:
                f.env[what.id] = AV(frozenset(), None, av.single)
            if av.origin is not None and av.origin[0] and family is None:
                return
        if family is None:
            return
        f.marks.disclose(family, viewers)

    def _to_family(self, node: Any, f: Flow) -> str | None:
        if isinstance(node, ast.Index) and isinstance(node.obj, ast.Name):
            return node.obj.id if node.obj.id in self.game.zones else None
        if isinstance(node, ast.Name) and node.id in self.game.zones and node.id not in f.env:
            return node.id
        return None

    def _move_into(self, what: Any, dest: Any, face: bool | None, pos: Pos, f: Flow) -> None:
        moved = self.ev(what, f)
        family = self._to_family(dest, f)
        if family is None:
            return
        if self.hiding.zone_is_public(family, face):
            z = self.game.zones[family]
            if z.ordered:  # sorting the very pieces that become visible tells nothing more
                own = moved.origin[0] if moved.origin else None
                order = AV(frozenset(x for x in moved.taint if x.family != own))
                self.check(order, "order", f"the order of the public zone {family}", pos, EVERYONE, f)
            self._disclose(what, EVERYONE, f)

    def s_Move(self, n, f):
        self._move_into(n.what, n.to, n.face, n.pos, f)

    def s_Draw(self, n, f):
        self.ev(n.count, f)
        self._move_into(n.source, n.dest, n.face, n.pos, f)

    def s_Discard(self, n, f):
        """`discard X` fails, naming the piece to everyone, when its component has no `discard:` zone."""
        self._may_fail(n, "discard", lambda c: bool(c.discard), "no `discard:` zone",
                       "Give every component that can be discarded a `discard:` zone, or move the "
                       "pieces to a zone explicitly.", f)

    def s_Roll(self, n, f):
        """`roll X` fails, naming the piece to everyone, when it is not a die (no `faces`)."""
        self._may_fail(n, "roll", lambda c: bool(c.faces), "no `faces`, not a die",
                       "Roll only zones that hold dice (or `pieces(die)`).", f)

    def _may_fail(self, n: Any, verb: str, fits: Any, lack: str, hint: str, f: Flow) -> None:
        """A warning when a statement acts on pieces some players cannot see and may fail on one
        of them: its run-time error message names the piece (to everyone)."""
        what = self.ev(n.what, f)
        if self.quiet or what.origin is None:
            return
        family = what.origin[0]
        secrecy, _ = self.hiding.secrecy(family)
        if secrecy is None or self._covered(Source(family, None, "", n.pos), EVERYONE, f.marks):
            return
        held = {family[len("pieces("):-1]} if family.startswith("pieces(") else self.hiding.may_hold.get(family, set())
        lacking = sorted(c.id for c in self.game.components.values() if c.id in held and not fits(c))
        key = (n.pos, "error")
        if not lacking or key in self.seen:
            return
        self.seen.add(key)
        self.warnings.append(RuleError(
            f"warning: hidden information may reach a run-time error message, seen by everyone{f.via}: "
            f"this {verb}s pieces of {family}, which some players cannot see, and if one of them is a "
            f"{' or '.join(lacking)} ({lack}) the error names it. `rulebook audit` checks it at run "
            f"time. {hint}", n.pos, WARNING))

    def s_Reveal(self, n, f):
        what = self.ev(n.what, f)
        if n.to is None:
            self._turn_up(n.what, what, f)
        elif isinstance(n.to, ast.Name) and n.to.id == "players":
            self._disclose(n.what, EVERYONE, f)
        else:
            self._disclose(n.what, f.fp(n.to), f)

    def s_Flip(self, n, f):
        if n.face is not False:
            self._turn_up(n.what, self.ev(n.what, f), f)

    def _turn_up(self, node: Any, what: AV, f: Flow) -> None:
        """Face up shows a piece to whoever the zone shows face-up pieces to (E236 warns when
        that is not everyone)."""
        family = self._moved(node, f) or (what.origin[0] if what.origin else None)
        z = self.game.zones.get(family) if family else None
        if z is None or (z.custom is None and z.vis_up == "all"):
            self._disclose(node, EVERYONE, f)

    # ------------------------------------------------------------------ driving
    def run_block(self, text: Any, decider: str | None, params: Iterable[str] = (),
                  pc: frozenset = frozenset()) -> Flow | None:
        if not isinstance(text, str) or not text.strip():
            return None
        cached = self.parsed.get(id(text))
        if cached is None or cached[0] is not text:
            try:
                cached = self.parsed[id(text)] = (text, parse_block(text))
            except RuleError:
                return None  # reported by the loader
        return self.run_stmts(cached[1], decider, params, pc)

    def condition(self, text: Any, params: Iterable[str] = ()) -> frozenset:
        """The sources a `when:` condition reads (its body then runs under them)."""
        node = self.parse_condition(text)
        return self.ev(node, Flow({p: CLEAN for p in params}, None)).taint if node is not None else frozenset()

    def parse_condition(self, text: Any) -> Any:
        if not isinstance(text, str):
            return None
        cached = self.parsed.get(id(text))
        if cached is None or cached[0] is not text:
            try:
                cached = self.parsed[id(text)] = (text, parse_expr(text))
            except RuleError:
                return None
        return cached[1]

    def run_stmts(self, stmts: list, decider: str | None, params: Iterable[str] = (),
                  pc: frozenset = frozenset(), entry: frozenset = frozenset()) -> Flow | None:
        """Two passes: the first collects what the procedure discloses (a disclosure anywhere in
        it, before the next decision in practice, covers the whole procedure), the second checks
        (and records what counters and variables may hold)."""
        quiet, self.quiet, self.first_pass = self.quiet, True, True
        first = Flow({p: CLEAN for p in params}, decider, pc=pc, marks=Marks(everyone=dict.fromkeys(entry, -1)))
        self.block(stmts, first)
        self.quiet, self.first_pass = quiet, False
        if quiet and not self.collecting:
            return first
        marks = Marks(everyone=dict.fromkeys(entry, -1), pre_everyone=dict(first.marks.everyone),
                      pre_viewers=dict(first.marks.viewers))
        second = Flow({p: CLEAN for p in params}, decider, marks=marks, pc=pc)
        self.block(stmts, second)
        self.disclosed_anywhere |= {fam for fam in marks.everyone if isinstance(fam, str)}
        return second

    def _procedures(self) -> None:
        """Every `do:` procedure, starting from what all its callers have shown to everyone
        before calling it (`entry`); records what each discloses (a `call` discloses it too)."""
        for name, (stmts, params) in self.proc_bodies.items():
            f = self.run_stmts(stmts, None, params, entry=self.entry.get(name, frozenset()))
            if self.quiet:
                self.proc_discloses[name] = [(fam, None) for fam in f.marks.everyone] + list(f.marks.viewers)

    def run(self) -> list[RuleError]:
        doc = self.doc
        funcs = doc.get("functions") or {}
        for name, spec in funcs.items():
            if isinstance(spec, dict) and isinstance(spec.get("expr"), str):
                try:
                    self.expr_fns[str(name)] = parse_expr(spec["expr"])
                except RuleError:
                    pass
            elif isinstance(spec, dict) and isinstance(spec.get("do"), str):
                try:
                    self.proc_bodies[str(name)] = (parse_block(spec["do"]), [str(p) for p in spec.get("params") or []])
                except RuleError:
                    pass
        self.quiet = True
        for last in (False, False, True):  # what procedures disclose, what callers disclose first
            self.collecting = last
            self.call_marks = {}
            self._procedures()
            self._main_blocks()
            self.entry = {name: frozenset.intersection(*seen) for name, seen in self.call_marks.items()}
        self.quiet = False
        self._procedures()
        self._main_blocks()
        return self.errors

    def _main_blocks(self) -> None:
        doc = self.doc
        for name, spec in (doc.get("actions") or {}).items():
            if isinstance(spec, dict):
                self.run_block(spec.get("do"), "player", ["player"])
                when = self.parse_condition(spec.get("when"))
                if when is not None:
                    f = Flow({"player": CLEAN}, "player")
                    self.check(self.ev(when, f), "options", f"whether the action {name} is offered",
                               when.pos, "player", f)
        setup = doc.get("setup") or []
        for step in setup if isinstance(setup, list) else []:
            if isinstance(step, dict):
                self.run_block(step.get("do"), None, pc=self.condition(step.get("when")))
        flow = doc.get("flow") or {}
        if isinstance(flow, dict):
            for key in ("round_start", "round_end"):
                self.run_block(flow.get(key), None)
            for phase in flow.get("phases") or []:
                if not isinstance(phase, dict):
                    continue
                pc = self.condition(phase.get("when"))
                for key in ("start", "do", "end"):
                    self.run_block(phase.get(key), None, pc=pc)
                self.run_block(phase.get("turn"), "player", ["player", "turn_index"], pc=pc)
        for tid, spec in (doc.get("triggers") or {}).items():
            if isinstance(spec, dict):
                self.run_block(spec.get("do"), "player", ["player"], pc=self.condition(spec.get("when"), ["player"]))
        self._end_conditions(doc.get("end") or [])
        self._scoring(doc.get("scoring") or {})

    def _end_conditions(self, ends: Any) -> None:
        """Whether the game ends is seen by everyone."""
        for spec in ends if isinstance(ends, list) else []:
            when = self.parse_condition(spec.get("when")) if isinstance(spec, dict) else None
            if when is not None:
                f = Flow({}, None)
                self.check(self.ev(when, f), "ends", "whether the game ends", when.pos, EVERYONE, f)

    def _scoring(self, scoring: Any) -> None:
        """The end-of-game summary (every score, tie-break and the winners) is seen by everyone
        once `scoring.final` has run: what `final` reveals is covered; a zone revealed only
        elsewhere may or may not be shown by then (a warning)."""
        if not isinstance(scoring, dict):
            return
        f = self.run_block(scoring.get("final"), None) or Flow({}, None)
        exprs = [("score", scoring.get("score"))] + [("tiebreak", t) for t in scoring.get("tiebreak") or []]
        exprs.append(("winners", scoring.get("winners")))
        for label, text in exprs:
            node = self.parse_condition(text)
            if node is None:
                continue
            inner = f.child(env={"player": CLEAN})
            av = self.ev(node, inner)
            later = {src for src in av.taint if src.family in self.disclosed_anywhere}
            if later:
                fams = ", ".join(sorted({x.family for x in later}))
                self.check(AV(frozenset(later)), "summary", f"the end-of-game summary ({label})", node.pos,
                           EVERYONE, inner, runtime=f"{fams} is revealed by some rule, maybe before the end")
            self.check(AV(av.taint - later), "summary", f"the end-of-game summary ({label})", node.pos,
                       EVERYONE, inner)



HINTS = {
    "log": "Log the piece itself (each reader sees it as they may), `reveal … to players` before "
           "logging, or wrap the value in disclose(…) if the rules announce it.",
    "end": "Reveal what the reason names first, or wrap the value in disclose(…).",
    "prompt": "Build the prompt from what the decider sees (their own zones), `reveal … to` them "
              "first, or wrap the value in disclose(…).",
    "label": "Label options with what the decider sees, or `reveal … to` them first.",
    "options": "Offer options that do not depend on what the decider cannot see (let an illegal "
               "pick fail visibly instead), or `reveal … to` the decider first.",
    "slot": "Keep the value in a counter or variable with `visibility: owner` or `hidden`, reveal the "
            "source first, or wrap the value in disclose(…).",
    "condition": "Reveal what the condition reads first, or wrap it in disclose(…).",
    "order": "Move the pieces in an order that does not depend on hidden data (e.g. shuffle the "
             "zone after), or reveal the data first.",
    "ends": "End the game on what everyone sees (counts, public counters), or reveal what the "
            "condition reads first.",
    "summary": "Reveal what the scores read in `scoring.final` (e.g. `reveal zones(hand) to players`), "
               "or wrap the value in disclose(…).",
}


_BRACE = re.compile(r"[{}]")


def _children(n: Any) -> list:
    out = []
    for value in vars(n).values() if isinstance(n, ast.Node) else []:
        if isinstance(value, ast.Node):
            out.append(value)
        elif isinstance(value, (list, tuple)):
            out.extend(v for v in value if isinstance(v, ast.Node))
    return out


def check_flows(doc: YMap, game: Any) -> list[RuleError]:
    """Information-flow errors of a loaded game (empty when nothing hidden reaches a player)."""
    return FlowCheck(doc, game).run()


def flow_findings(doc: YMap, game: Any) -> tuple[list[RuleError], list[RuleError]]:
    """(errors, warnings): warnings (E246) are flows only play decides; loading goes on."""
    check = FlowCheck(doc, game)
    check.run()
    return check.errors, check.warnings


def log_statements(path: Any, variants: Iterable = ()) -> list[tuple[str, Pos]]:
    """(text, position) of every log statement of a rule file (plus variants)."""
    from .loader import build_game, load_document
    doc, files = load_document(path, variants)
    check = FlowCheck(doc, build_game(doc, files, flows=False))
    check.run()
    return check.logs
