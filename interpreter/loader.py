"""From rule files to a compiled GameDef: the whole load-time pipeline.

YAML (with positions) → JSON Schema → overlay merge (extends, variants) → schema again on the
merged game → build the definition (components, zones, …) → parse and compile every DSL string
→ cross checks. All errors found are reported together, each at `file:line:col`.
"""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, Iterable

from . import ast
from .budget import resolve as resolve_limits
from .compiler import RESERVED_VARS, Compiler
from .errors import Pos, RuleError, RuleErrors, RulebookError, suggest
from .generate import generated_items
from .zone_use import reveal_warnings, zone_use_errors
from .model import (Action, Board, Check, ComponentDef, Dim, Function, GameDef, ItemDef,
                    OptionDef, Proc, Scoring, StateFamily, ZoneFamily)
from .loadcache import LoadCache
from .overlay import apply_overlay, merge_chain, read_chain, resolve_base
from .parser import memo, parse_block, parse_expr
from .pycode import memo as code_memo
from .source import YMap, YSeq, load_file
from .values import freeze

BUILTIN_EVENTS = {"game_start", "round_start", "round_end", "phase_start", "phase_end",
                  "turn_start", "turn_end", "action_end"}
ITEM_RESERVED = {"id", "count", "when", "label", "labels"}
COMPONENT_RESERVED = {"kind", "per_player", "public", "mutable", "items", "faces", "face",
                      "start", "label", "labels", "description", "discard", "generate"}  # `back` is also an attribute
DEFAULT_MAX_DECISIONS = 100_000


GRID_SIZES = ("width", "height", "max_width", "max_height")


def load_game(path: str | Path, variants: Iterable[str | Path] = (), check_only: bool = False) -> GameDef:
    """Load, check and compile a rule file (plus variant overlays). Raises RuleErrors.

    What an earlier load of the same bytes by the same engine established (parses, schema and
    information-flow checks passed) is taken from interpreter.loadcache. `check_only`: a load
    to report errors (`rulebook validate`): the generated Python is compiled only when first
    run (interpreter/pycode.py), the game still plays; the same errors are found."""
    doc, files, cache = _load_document(path, variants)
    if check_only:
        cache.keep_codes()
    try:
        with memo(cache.parses, cache.trees), code_memo(cache.codes, lazy=check_only):
            builder = _Builder(doc, files, flows=cache.flow_warnings is None)
            game = builder.build()
        if cache.flow_warnings is None:
            cache.flow_warnings = builder.flow_warnings
        else:  # the flow check passed on these bytes before: its warnings come last, as it runs last
            game.warnings.extend(cache.flow_warnings)
    finally:
        cache.save()
    return game


def load_with_trees(path: str | Path, variants: Iterable[str | Path] = ()) -> tuple[YMap, GameDef, _Builder]:
    """A rule file loaded as load_game does (no information-flow check, no load cache), its
    builder kept: the statement trees of every procedure (`builder.compiler.asts`) and the
    bodies of expression functions (`builder.compiler.gen.fn_nodes`), for interpreter/transpile/."""
    doc, files = load_document(path, variants)
    builder = _Builder(doc, files, flows=False)
    builder.compiler.asts = {}
    game = builder.build()
    return doc, game, builder


def load_document(path: str | Path, variants: Iterable[str | Path] = ()) -> tuple[YMap, list[Path]]:
    """The merged, schema-checked document of a rule file (plus variants) and its files."""
    doc, files, _ = _load_document(path, variants)
    return doc, files


def _load_document(path: str | Path, variants: Iterable[str | Path]) -> tuple[YMap, list[Path], LoadCache]:
    def validate(raw):
        if not check:
            return []
        from .schema_check import validate
        return validate(raw)

    path = Path(path)
    variants = list(variants)
    chain = read_chain(path)
    cache = LoadCache.open([(raw.pos.file, p) for p, raw in chain] +
                           [(str(v), Path(v).resolve()) for v in variants])
    check = not cache.schema_ok
    doc, files, raws = merge_chain(chain, check)
    errors: list[RulebookError] = []
    for raw in raws:
        errors.extend(validate(raw))
    if errors:
        raise RuleErrors(errors)
    for variant in variants:
        vpath = Path(variant).resolve()
        raw = load_file(vpath, display=str(variant))
        if not isinstance(raw, YMap) or "extends" not in raw:
            raise RuleError("a variant must say which file it `extends:`", Pos(str(variant), 1, 1), "E038")
        errs = validate(raw)
        if errs:
            raise RuleErrors(errs)
        base = resolve_base(vpath, raw)
        if base not in files:
            raise RuleError(f'this variant extends {raw["extends"]}, which is not part of '
                            f"{path} ({', '.join(f.name for f in files)})", raw.value_pos("extends"), "E039")
        doc = apply_overlay(doc, raw, str(variant))
        files.append(vpath)
    if len(files) > 1:
        errors = validate(doc)
        if errors:
            raise RuleErrors(errors)
    cache.schema_ok = True
    return doc, files, cache


def rules_hash(files: list[Path]) -> str:
    h = hashlib.sha256()
    for f in files:
        h.update(f.name.encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


class _Builder:
    """Builds one GameDef; collects errors instead of stopping at the first."""

    def __init__(self, doc: YMap, files: list[Path], flows: bool = True):
        self.doc = doc
        self.flows = flows  # run the information-flow check (interpreter/infoflow.py)
        self.files = files
        meta = doc.get("game") or {}
        players = meta.get("players") or {}
        self.game = GameDef(
            id=str(meta.get("id", "game")), name=str(meta.get("name", meta.get("id", "game"))),
            files=[str(f) for f in files], rules_hash=rules_hash(files),
            min_players=int(players.get("min", 1)), max_players=int(players.get("max", 8)),
            max_decisions=int(doc.get("max_decisions", DEFAULT_MAX_DECISIONS)),
            options={}, constraints=[], tables={}, components={}, boards={}, zones={},
            counters={}, variables={}, functions={}, actions={}, procs={}, scoring=Scoring(),
            invariants=[], assumptions=list(doc.get("assumptions") or []), metadata=dict(meta),
            limits=resolve_limits(doc.get("limits")))
        self.compiler = Compiler(self.game)
        self.errors: list[RulebookError] = []
        self.defined: dict[str, tuple[str, Pos]] = {}
        self.flow_warnings: list[RulebookError] = []  # warnings of the information-flow check

    # ------------------------------------------------------------------ helpers
    def err(self, message: str, pos: Pos, code: str = "E100") -> None:
        self.errors.append(RuleError(message, pos, code))

    def section(self, key: str) -> Any:
        value = self.doc.get(key)
        return value if value is not None else (YMap(pos=self.doc.pos) if key not in ("setup", "end", "invariants", "constraints") else YSeq(pos=self.doc.pos))

    def define(self, name: str, what: str, pos: Pos) -> bool:
        if name in self.defined:
            other, where = self.defined[name]
            self.err(f'"{name}" is already defined as a {other} at line {where.line}; names must be '
                     "unique across zones, counters, variables, tables, components, boards, functions "
                     "and actions", pos, "E101")
            return False
        if name in RESERVED_VARS or name in ("players", "player_count", "option", "player", "box"):
            self.err(f'"{name}" is a built-in name; choose another', pos, "E101")
            return False
        self.defined[name] = (what, pos)
        return True

    def _bound(self, value: Any) -> Any:
        """A counter's min/max: a number, or an expression evaluated per layout (options, tables)."""
        return self.expr(value, ["index"]) if isinstance(value, str) else value

    def expr(self, value: Any, scope: list[str] = ()) -> Any:
        return self.compiler.compile_expr(value, list(scope))

    def parse(self, text: Any) -> list:
        if isinstance(text, list):  # a block written as named steps: [{id, do}, …]
            return [stmt for step in text for stmt in self.parse(step.get("do"))]
        if text is None or (isinstance(text, str) and not text.strip()):
            return []
        try:
            stmts = parse_block(text)
        except RuleError as exc:
            self.errors.append(exc)
            return []
        self.errors.extend(zone_use_errors(stmts, self.game.zones))
        self.game.warnings.extend(reveal_warnings(stmts, self.game.zones))
        return stmts

    def parse_expr_node(self, value: Any, pos: Pos) -> ast.Node:
        if not isinstance(value, str):
            return ast.Const(pos, value)
        try:
            return parse_expr(value)
        except RuleError as exc:
            self.errors.append(exc)
            return ast.Const(pos, None)

    # ------------------------------------------------------------------ sections
    def build(self) -> GameDef:
        self.compiler.events_heard = self.listened_events()
        self.options()
        self.tables()
        self.boards()
        self.register_functions()  # before anything that may call them (counts, initial values)
        self.register_actions()
        self.components()
        self.families("zones")
        self.families("counters")
        self.families("variables")
        self.compile_functions()
        self.compile_actions()
        self.main_proc()
        self.events()
        self.scoring()
        self.agents()
        self.checks()
        self.compiler_checks()
        self.errors.extend(self.compiler.errors)
        if not self.errors:
            self.compiler.link()  # procedures that never stop become plain Python functions
        if self.flows and not self.errors:
            from .infoflow import flow_findings
            errors, warnings = flow_findings(self.doc, self.game)
            self.errors.extend(errors)
            self.game.warnings.extend(warnings)
            self.flow_warnings = warnings
        if self.errors:
            raise RuleErrors(self.errors)
        return self.game

    def options(self) -> None:
        opts = self.section("options")
        for oid, spec in opts.items():
            pos = opts.key_pos(oid)
            kind = spec.get("type", "bool")
            default = spec.get("default")
            values = list(spec["values"]) if "values" in spec else None
            o = OptionDef(str(oid), kind, default, values, spec.get("min"), spec.get("max"),
                          str(spec.get("description", "")), pos)
            if kind == "choice" and (not values or default not in values):
                self.err(f'option "{oid}": the default {default!r} is not one of its values {values}', pos, "E102")
            if kind == "bool" and not isinstance(default, bool):
                self.err(f'option "{oid}": a bool option needs default true or false', pos, "E102")
            if kind == "int" and (not isinstance(default, int) or isinstance(default, bool)):
                self.err(f'option "{oid}": an int option needs an integer default', pos, "E102")
            self.game.options[str(oid)] = o

    def tables(self) -> None:
        tables = self.section("tables")
        for tid, value in tables.items():
            if self.define(str(tid), "table", tables.key_pos(tid)):
                self.game.tables[str(tid)] = freeze(value)
                self._collect_keys(value)

    def _collect_keys(self, value: Any) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                if isinstance(k, str):
                    self.compiler.known_attrs.add(k)
                self._collect_keys(v)
        elif isinstance(value, list):
            for v in value:
                self._collect_keys(v)

    def boards(self) -> None:
        boards = self.section("boards")
        for bid, spec in boards.items():
            pos = boards.key_pos(bid)
            if not self.define(str(bid), "board", pos):
                continue
            board = self._grid_board(str(bid), spec["grid"]) if "grid" in spec else self._graph_board(str(bid), spec, pos)
            self.game.boards[str(bid)] = board

    def _graph_board(self, bid: str, spec: YMap, pos: Pos) -> Board:
        nodes = {str(n): dict(freeze(a or {})) for n, a in (spec.get("nodes") or {}).items()}
        for attrs in nodes.values():
            self.compiler.known_attrs.update(attrs)
        adj: dict = {n: [] for n in nodes}
        edges: dict = {}
        directed = bool(spec.get("directed", False))
        raw_edges = spec.get("edges") or []
        for i, e in enumerate(raw_edges):
            epos = raw_edges.item_pos(i) if isinstance(raw_edges, YSeq) else pos
            a, b = (str(x) for x in e["between"])
            for end in (a, b):
                if end not in nodes:
                    self.err(f'edge between unknown node "{end}"{suggest(end, nodes)}', epos, "E103")
            if a not in nodes or b not in nodes:
                continue
            attrs = {k: freeze(v) for k, v in e.items() if k != "between"}
            attrs.update(a=a, b=b)  # an edge's ends
            self.compiler.known_attrs.update(attrs)
            adj[a].append(b)
            edges[(a, b)] = attrs
            if not directed:
                adj[b].append(a)
                edges[(b, a)] = attrs
        return Board(bid, nodes, adj, edges, directed)

    def _grid_board(self, bid: str, grid: YMap) -> Board:
        w, h = self._size(grid, "width"), self._size(grid, "height")
        diagonal = bool(grid.get("diagonal", False))
        nodes = {f"{x},{y}": {"x": x, "y": y} for y in range(h) for x in range(w)}
        adj: dict = {n: [] for n in nodes}
        edges: dict = {}
        steps = [(1, 0), (0, 1), (-1, 0), (0, -1)] + ([(1, 1), (1, -1), (-1, 1), (-1, -1)] if diagonal else [])
        for n, a in nodes.items():
            for dx, dy in steps:
                m = f"{a['x'] + dx},{a['y'] + dy}"
                if m in nodes:
                    adj[n].append(m)
                    edges[(n, m)] = {"a": n, "b": m}
        self.compiler.known_attrs.update({"x", "y"})
        return Board(bid, nodes, adj, edges, False)

    def components(self) -> None:
        comps = self.section("components")
        for cid, spec in comps.items():
            pos = comps.key_pos(cid)
            if not self.define(str(cid), "component", pos):
                continue
            self.game.components[str(cid)] = self._component(str(cid), spec, pos)

    def _component(self, cid: str, spec: YMap, pos: Pos) -> ComponentDef:
        shared = {k: freeze(v) for k, v in spec.items() if k not in COMPONENT_RESERVED}
        mutable = {str(k): freeze(v) for k, v in (spec.get("mutable") or {}).items()}
        faces = list(freeze(spec["faces"])) if "faces" in spec else None
        if faces:
            mutable.setdefault("value", None)
        self.game.mutable_attrs.update(mutable)
        items = []
        raw_items = list(spec.get("items") or [])
        if "generate" in spec:
            raw_items += self._generated(spec["generate"])
        raw_items = raw_items or [YMap({"id": cid})]
        for i, item in enumerate(raw_items):
            attrs = dict(shared)
            attrs.update(mutable)
            attrs.update({k: freeze(v) for k, v in item.items() if k not in ITEM_RESERVED})
            self.compiler.known_attrs.update(attrs)
            self._collect_keys(attrs)  # keys of maps nested in attributes (effect steps as data)
            count = self.expr(item["count"], ["owner"]) if "count" in item else None
            when = self.expr(item["when"], ["owner"]) if "when" in item else None
            iid = str(item.get("id", cid))
            items.append(ItemDef(iid, attrs, count, when, str(item.get("label", iid.replace("_", " "))),
                                 dict(item.get("labels") or {})))
        public = [str(a) for a in spec.get("public") or []]
        self.compiler.known_attrs.update(mutable)
        return ComponentDef(cid, str(spec.get("kind", "piece")), bool(spec.get("per_player", False)),
                            items, public, mutable, spec.get("face", "up") != "down",
                            str(spec["start"]) if spec.get("start") else None, faces,
                            str(spec.get("label", cid.replace("_", " "))), dict(spec.get("labels") or {}), pos,
                            tuple(mutable) + ("pos",), str(spec.get("back", cid)),
                            str(spec["discard"]) if spec.get("discard") else None)

    def _size(self, spec: YMap, key: str) -> int:
        """A board size: a number, or an expression over the tables (evaluated now)."""
        value = spec[key]
        if isinstance(value, str):
            from .layout import StaticContext
            known = len(self.compiler.errors)
            fn = self.expr(value)
            if len(self.compiler.errors) > known:
                return 1
            try:
                value = fn(StaticContext(self.game, 0, {}), {})
            except Exception as exc:  # noqa: BLE001 - reported at the value's position
                self.err(f"{key}: {exc}", spec.value_pos(key), "E104")
                return 1
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            self.err(f"{key} must be a whole number of at least 1, got {value!r}", spec.value_pos(key), "E104")
            return 1
        return value

    def _generated(self, spec: YMap) -> list:
        from .layout import StaticContext
        known = len(self.compiler.errors)
        try:
            return generated_items(spec, self.game.tables, self.expr, StaticContext(self.game, 0, {}))
        except RuleError as exc:
            if len(self.compiler.errors) == known:  # else: already reported where it was written
                self.errors.append(exc)
            return []

    def _dims(self, spec: YMap, pos: Pos) -> list[Dim]:
        dims = []
        for d in spec.get("per") or []:
            if d == "player":
                dims.append(Dim("player"))
            elif isinstance(d, dict) and "range" in d:
                dims.append(Dim("range", count=self.expr(d["range"])))
            elif isinstance(d, dict) and "values" in d:
                dims.append(Dim("values", values=list(freeze(d["values"]))))
            elif isinstance(d, dict) and "board" in d:
                if str(d["board"]) not in self.game.boards:
                    self.err(f'unknown board "{d["board"]}"{suggest(str(d["board"]), self.game.boards)}', pos, "E104")
                    continue
                dims.append(Dim("board", board=str(d["board"])))
            else:
                self.err(f"per: expected player, {{range: n}}, {{values: [...]}} or {{board: id}}, got {d!r}", pos, "E104")
        return dims

    def families(self, section: str) -> None:
        entries = self.section(section)
        for name, spec in entries.items():
            pos = entries.key_pos(name)
            spec = spec or YMap(pos=pos)
            if not self.define(str(name), section[:-1], pos):
                continue
            dims = self._dims(spec, pos)
            if section == "zones":
                self.game.zones[str(name)] = self._zone(str(name), spec, dims, pos)
            else:
                initial = spec.get("initial", 0 if section == "counters" else None)
                low, high = (self._bound(spec.get(k)) for k in ("min", "max"))
                fam = StateFamily(str(name), dims, self.expr(initial, ["index"]), section == "counters",
                                  low, high, str(spec.get("visibility", "public")),
                                  str(spec.get("label", "")), pos, bool(spec.get("internal", False)))
                (self.game.counters if section == "counters" else self.game.variables)[str(name)] = fam
        if section == "variables":
            for reserved in RESERVED_VARS:
                self.game.variables[reserved] = StateFamily(reserved, [], None, False)

    def _zone(self, name: str, spec: YMap, dims: list, pos: Pos) -> ZoneFamily:
        vis = spec.get("visibility", "public")
        up, down, custom = "all", "none", None
        if vis == "owner":
            up, down = "owner", "owner"
        elif vis == "hidden":
            up, down = "none", "none"
        elif isinstance(vis, dict):
            if "custom" in vis:
                custom = self.expr(vis["custom"], ["viewer", "piece"])
            up = str(vis.get("face_up", "all"))
            down = str(vis.get("face_down", "none"))
        face = spec.get("face")
        grid = spec.get("grid")
        if grid is True:
            grid = {}
        if isinstance(grid, dict):  # sizes may be expressions (tables, options, player_count)
            grid = {k: (self.expr(v) if k in GRID_SIZES and isinstance(v, str) else v) for k, v in grid.items()}
        owner = self.expr(spec["owner"], ["index"]) if "owner" in spec else None
        return ZoneFamily(name, dims, bool(spec.get("ordered", False)), up, down, custom,
                          None if face is None else face == "up", dict(grid) if isinstance(grid, dict) else None,
                          owner, str(spec.get("label", "")), dict(spec.get("labels") or {}), pos)

    # ------------------------------------------------------------------ code
    def register_functions(self) -> None:
        funcs = self.section("functions")
        for name, spec in funcs.items():
            pos = funcs.key_pos(name)
            if not self.define(str(name), "function", pos):
                continue
            params = [str(p) for p in spec.get("params") or []]
            fn = Function(str(name), params, pos=pos)
            if "do" in spec:
                fn.proc = Proc(f"fn:{name}", params, decl_pos=pos)
                self.game.procs[fn.proc.name] = fn.proc
            self.game.functions[str(name)] = fn

    def compile_functions(self) -> None:
        funcs = self.section("functions")
        todo = []
        for name, spec in funcs.items():
            fn = self.game.functions.get(str(name))
            if fn is None or (fn.proc is None and fn.expr is not None):
                continue
            body = None if fn.proc is not None else self.parse_expr_node(spec.get("expr"), fn.pos)
            if body is not None:  # every body known before any is compiled (what each returns)
                self.compiler.gen.fn_nodes[fn.name] = body
            todo.append((fn, spec, body))
        for fn, spec, body in todo:
            if fn.proc is not None:
                self.compiler.compile_proc(fn.proc, self.parse(spec["do"]))
            else:
                fn.expr = self.compiler.gen.function_def(fn, body)

    def register_actions(self) -> None:
        acts = self.section("actions")
        for name, spec in acts.items():
            pos = acts.key_pos(name)
            if not self.define(str(name), "action", pos):
                continue
            proc = Proc(f"action:{name}", ["player"], decl_pos=pos)
            self.game.procs[proc.name] = proc
            self.game.actions[str(name)] = Action(str(name), str(spec.get("label", name)), None, proc,
                                                  dict(spec.get("labels") or {}), pos, spec.get("when"))

    def compile_actions(self) -> None:
        acts = self.section("actions")
        for name, spec in acts.items():
            act = self.game.actions.get(str(name))
            if act is None:
                continue
            if "when" in spec:
                act.when = self.expr(spec["when"], ["player"])
            self.compiler.compile_proc(act.proc, self.parse(spec.get("do")))

    def _synthetic(self, name: str, params: list, body: list, pos: Pos) -> Function:
        proc = Proc(f"fn:{name}", params, decl_pos=pos)
        fn = Function(name, params, proc=proc, pos=pos)
        self.game.procs[proc.name] = proc
        self.game.functions[name] = fn
        self.compiler.compile_proc(proc, body)
        return fn

    def main_proc(self) -> None:
        pos = self.doc.pos
        body: list = []
        setup = self.section("setup")
        for i, step in enumerate(setup):
            stmts = self.parse(step.get("do"))
            if "when" in step:
                spos = setup.item_pos(i)
                stmts = [ast.If(spos, [(self.parse_expr_node(step["when"], spos), stmts)], [])]
            body.extend(stmts)
        body.append(ast.Emit(pos, "game_start"))
        body.extend(self.flow_stmts())
        proc = Proc("main", [], decl_pos=pos)
        self.game.procs["main"] = proc
        self.compiler.compile_proc(proc, body)

    def flow_stmts(self) -> list:
        flow = self.doc.get("flow") or YMap(pos=self.doc.pos)
        pos = flow.pos if isinstance(flow, YMap) else self.doc.pos
        rnd = ast.Name(pos, "round")
        loop: list = [ast.Assign(pos, rnd, ast.Const(pos, 1), "+=")]
        loop += self.parse(flow.get("round_start")) + [ast.Emit(pos, "round_start")]
        phases = flow.get("phases") or []
        for i, phase in enumerate(phases):
            ppos = phases.item_pos(i) if isinstance(phases, YSeq) else pos
            loop += self.phase_stmts(phase, ppos)
        loop += self.parse(flow.get("round_end")) + [ast.Emit(pos, "round_end")]
        rounds = flow.get("rounds")
        if rounds is None:
            cond: ast.Node = ast.Const(pos, True)
        else:
            cond = ast.Compare(pos, "<", rnd, self.parse_expr_node(rounds, flow.value_pos("rounds")))
        return [ast.While(pos, cond, loop)]

    def phase_stmts(self, phase: YMap, pos: Pos) -> list:
        pid = str(phase.get("id"))
        body: list = [ast.Assign(pos, ast.Name(pos, "phase"), ast.Const(pos, pid), "="),
                      ast.Emit(pos, "phase_start")]
        body += self.parse(phase.get("start"))
        body += self.parse(phase.get("do"))
        if "turn" in phase or "turns" in phase:
            body += self.turn_stmts(pid, phase, pos)
        body += self.parse(phase.get("end"))
        body.append(ast.Emit(pos, "phase_end"))
        if "when" in phase:
            return [ast.If(pos, [(self.parse_expr_node(phase["when"], phase.value_pos("when")), body)], [])]
        return body

    def turn_stmts(self, pid: str, phase: YMap, pos: Pos) -> list:
        turn_body = [ast.Emit(pos, "turn_start")] + self.parse(phase.get("turn")) + [ast.Emit(pos, "turn_end")]
        fn = self._synthetic(f"__turn_{pid}", ["player", "turn_index"], turn_body, pos)
        p, ti = ast.Name(pos, "__p"), ast.Name(pos, "__ti")
        turns = phase.get("turns", "seat")
        players = ast.Name(pos, "players")
        if turns == "simultaneous":
            index = ast.Call(pos, ast.Name(pos, "index_of"), [players, p], {})
            call = ast.ExprStmt(pos, ast.Call(pos, ast.Name(pos, fn.name), [p, index], {}))
            return [ast.Simultaneous(pos, "__p", players, [call])]
        if isinstance(turns, dict) and "order" in turns:
            order = self.parse_expr_node(turns["order"], turns.value_pos("order"))
        elif turns == "seat":
            if "from" in phase:
                start = self.parse_expr_node(phase["from"], phase.value_pos("from"))
                order = ast.Call(pos, ast.Name(pos, "players_from"), [start], {})
            else:
                order = players
        else:
            self.err(f'turns: expected seat, simultaneous or {{order: expr}}, got {turns!r}', pos, "E105")
            return []
        call = ast.ExprStmt(pos, ast.Call(pos, ast.Name(pos, fn.name), [p, ti], {}))
        return [ast.Let(pos, "__ti", ast.Const(pos, 0)),
                ast.For(pos, "__p", order, [call, ast.Assign(pos, ti, ast.Const(pos, 1), "+=")])]

    def listened_events(self) -> set[str]:
        """Events some trigger or end condition listens to (emits of others compile to nothing)."""
        heard = {str(spec.get("on")) for spec in self.section("triggers").values() if isinstance(spec, dict)}
        heard |= {str(spec.get("at", "round_end")) for spec in self.section("end") if isinstance(spec, dict)}
        return heard

    def events(self) -> None:
        handlers: dict[str, list] = {}
        triggers = self.section("triggers")
        for tid, spec in triggers.items():
            pos = triggers.key_pos(tid)
            fn = self._synthetic(f"__trigger_{tid}", ["player"], self.parse(spec.get("do")), pos)
            call = ast.ExprStmt(pos, ast.Call(pos, ast.Name(pos, fn.name), [ast.Name(pos, "player")], {}))
            stmt: ast.Node = call
            if "when" in spec:
                stmt = ast.If(pos, [(self.parse_expr_node(spec["when"], spec.value_pos("when")), [call])], [])
            handlers.setdefault(str(spec["on"]), []).append((stmt, pos, spec.value_pos("on")))
        ends = self.section("end")
        for i, spec in enumerate(ends):
            pos = ends.item_pos(i)
            cond = self.parse_expr_node(spec["when"], spec.value_pos("when"))
            stop = ast.EndGame(pos, str(spec.get("message") or spec.get("id")))
            at = str(spec.get("at", "round_end"))
            handlers.setdefault(at, []).append((ast.If(pos, [(cond, [stop])], []), pos, spec.value_pos("at") if "at" in spec else pos))
        self.compiler.events_emitted |= BUILTIN_EVENTS
        for event, entries in handlers.items():
            proc = Proc(f"event:{event}", ["player"], decl_pos=entries[0][1])
            self.game.procs[proc.name] = proc
            self.compiler.compile_proc(proc, [e[0] for e in entries])
        self._event_check = handlers

    def scoring(self) -> None:
        spec = self.doc.get("scoring") or {}
        sc = self.game.scoring
        if "score" in spec:
            sc.score = self.expr(spec["score"], ["player"])
        sc.tiebreak = [self.expr(t, ["player"]) for t in spec.get("tiebreak") or []]
        if "winners" in spec:
            sc.winners = self.expr(spec["winners"])
        sc.lowest_wins = bool(spec.get("lowest_wins", False))
        sc.all_tied = str(spec.get("all_tied", "draw"))
        if spec.get("final"):
            proc = Proc("scoring:final", [], decl_pos=spec.value_pos("final"))
            self.game.procs[proc.name] = proc
            self.compiler.compile_proc(proc, self.parse(spec["final"]))
            sc.final = proc

    def agents(self) -> None:
        evaluate = (self.doc.get("agents") or {}).get("evaluate")
        if evaluate is not None:
            self.game.agent_evaluate = self.expr(evaluate, ["player"])

    def checks(self) -> None:
        for i, c in enumerate(self.section("constraints")):
            pos = self.doc["constraints"].item_pos(i)
            self.game.constraints.append(Check(str(c.get("id", f"constraint_{i}")), self.expr(c["check"]),
                                               str(c.get("message", "")), pos=pos))
        for i, c in enumerate(self.section("invariants")):
            pos = self.doc["invariants"].item_pos(i)
            kind = "constant" if "constant" in c else "holds"
            self.game.invariants.append(Check(str(c.get("id", f"invariant_{i}")), self.expr(c[kind]),
                                              str(c.get("message", "")), kind=kind, pos=pos))

    def compiler_checks(self) -> None:
        procs = list(self.game.procs.values())
        changed = True
        while changed:  # a procedure suspends if anything it calls suspends
            changed = False
            for proc in procs:
                if not proc.suspends and any(self.game.procs.get(c) and self.game.procs[c].suspends
                                             for c in proc.calls):
                    proc.suspends = changed = True
        for proc, pos in self.compiler.atomic_calls:
            if proc.suspends:
                self.err(f'{proc.name.split(":", 1)[-1]}() asks players to decide, so it cannot be used inside '
                         "an expression: call it as a statement (`call f(…)` or `let x = f(…)`)", pos, "E230")
        for event, entries in getattr(self, "_event_check", {}).items():
            if event not in self.compiler.events_emitted:
                self.err(f'no rule emits the event "{event}"'
                         f"{suggest(event, self.compiler.events_emitted)}", entries[0][2], "E231")
        for name, act in self.game.actions.items():
            if act.when is None and not act.proc.code:
                continue
        comps = self.game.components
        for comp in comps.values():
            for what, zone in (("starts in", comp.start), ("discards to", comp.discard)):
                if zone and zone not in self.game.zones:
                    self.err(f'component "{comp.id}" {what} unknown zone "{zone}"'
                             f"{suggest(zone, self.game.zones)}", comp.pos, "E106")
        if "main" in self.game.procs and not self.doc.get("flow"):
            self.err("a game needs a `flow`", self.doc.pos, "E107")


def build_game(doc: YMap, files: list[Path], flows: bool = True) -> GameDef:
    return _Builder(doc, files, flows).build()
