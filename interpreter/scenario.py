"""Scenario tests written in YAML: arrange a position, play decisions, check what happened.

See docs/dsl.md#scenario-tests for the format. Each scenario runs on a fresh game set up
normally with its seed; `arrange` statements then change it as a game master would.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import ast
from .budget import METER
from .compiler import Compiler
from .errors import IllegalDecision, InputError, Pos, RuleError, RuleErrors, RulebookError
from .game import Game
from .guard import describe, evaluate
from .model import Proc
from .parser import parse_block, parse_expr
from .source import YMap, YSeq, load_file
from .values import Piece
from .decisions import refresh_pending
from .vm import run_atomic


class ScenarioFailure(Exception):
    def __init__(self, message: str, pos: Pos):
        super().__init__(message)
        self.message = message
        self.pos = pos


@dataclass
class ScenarioResult:
    file: str
    name: str
    passed: bool
    message: str = ""
    pos: Pos | None = None

    def line(self) -> str:
        if self.passed:
            return f"PASS {self.name}"
        code = "" if re.search(r"\[E\d{3}\]$", self.message) else " [E600]"  # E600: an expectation failed
        return f"FAIL {self.pos}: {self.name}: {self.message}{code}"


_GAMES: dict = {}


def _load_game(path: Path, variants: list[Path]) -> Game:
    key = (str(path.resolve()), tuple(str(v.resolve()) for v in variants))
    if key not in _GAMES:
        _GAMES[key] = Game.load(path, variants)
    return _GAMES[key]


class ScenarioFile:
    """One scenario file, loaded and checked."""

    def __init__(self, path: str | Path):
        from .schema_check import validate

        self.path = Path(path)
        doc = load_file(self.path)
        if not isinstance(doc, YMap) or "scenarios" not in doc:
            raise RuleError("a scenario file is a mapping with `game` and `scenarios`", Pos(str(path), 1, 1), "E400")
        errors = validate(doc, "scenario.schema.json")
        if errors:
            raise RuleErrors(errors)
        self.doc = doc
        base = self.path.parent
        self.game_path = base / str(doc["game"])
        self.variants = [base / str(v) for v in doc.get("variants") or []]
        self.game = _load_game(self.game_path, self.variants)

    def scenarios(self) -> list[tuple[str, YMap, Pos]]:
        seq = self.doc["scenarios"]
        return [(str(s.get("name", f"scenario {i + 1}")), s, seq.item_pos(i)) for i, s in enumerate(seq)]

    def run(self, spec: YMap, pos: Pos) -> ScenarioResult:
        name = str(spec.get("name", "scenario"))
        try:
            _Runner(self, spec).run()
        except ScenarioFailure as exc:
            return ScenarioResult(str(self.path), name, False, exc.message, exc.pos)
        except RulebookError as exc:
            return ScenarioResult(str(self.path), name, False, f"{exc.message} (at {exc.pos}) [{exc.code}]", pos)
        except RecursionError:
            return ScenarioResult(str(self.path), name, False, "nested too deeply (endless recursion?) [E311]", pos)
        except Exception as exc:  # noqa: BLE001 - one broken scenario never stops the others
            return ScenarioResult(str(self.path), name, False,
                                  f"the scenario failed: {describe(exc)} [E300]", pos)
        return ScenarioResult(str(self.path), name, True, pos=pos)

    def run_all(self) -> list[ScenarioResult]:
        return [self.run(spec, pos) for _, spec, pos in self.scenarios()]


class _Runner:
    def __init__(self, file: ScenarioFile, spec: YMap):
        self.file = file
        self.spec = spec
        self.game = file.game
        self.compiler = Compiler(self.game.d)
        doc = file.doc
        players = spec.get("players", doc.get("players"))
        seed = spec.get("seed", doc.get("seed", 0))
        options = dict(doc.get("options") or {})
        options.update(spec.get("options") or {})
        self.refused = None
        try:
            self.S = self.game.new_game(players, options, seed)
        except InputError as exc:
            if "expect_setup_error" in spec:
                self.refused = exc.message
                return
            raise ScenarioFailure(f"cannot set up: {exc.message}", spec.pos) from None
        self.rng = random.Random(seed)

    def run(self) -> None:
        wanted = self.spec.get("expect_setup_error")
        if wanted is not None:  # this configuration must be refused, with this text in the message
            if self.refused is None:
                raise ScenarioFailure("the game started, but this setup should be refused", self.spec.pos)
            if str(wanted) not in self.refused:
                raise ScenarioFailure(f'refused with "{self.refused}", expected "{wanted}"', self.spec.pos)
            return
        steps = self._all_steps()
        for i, (step, pos) in enumerate(steps):
            (kind, value), = [(k, v) for k, v in step.items() if k != "note"]
            getattr(self, "step_" + kind)(value, pos, step)
            next_kind = next((k for k in steps[i + 1][0] if k != "note"), None) if i + 1 < len(steps) else None
            if kind == "arrange" and next_kind != "arrange":
                refresh_pending(self.S)  # settle the pending decision once the whole arrangement is done

    def _all_steps(self) -> list[tuple[YMap, Pos]]:
        """The file's shared background, then the scenario's own steps, each with its position."""
        out = []
        for seq, fallback in ((self.file.doc.get("background") or [], self.file.doc.pos),
                              (self.spec.get("steps") or [], self.spec.pos)):
            for i, step in enumerate(seq):
                out.append((step, seq.item_pos(i) if isinstance(seq, YSeq) else fallback))
        return out

    # ------------------------------------------------------------------ steps
    def step_arrange(self, text, pos, step):
        body = parse_block(text)
        proc = Proc(f"arrange@{pos.line}", [], decl_pos=pos)
        self.compiler.compile_proc(proc, body, chooser=None)
        self._raise_compile_errors()
        self.game.d.procs.setdefault(proc.name, proc)
        run_atomic(self.S, proc, {})

    def _raise_compile_errors(self):
        if self.compiler.errors:
            errors, self.compiler.errors = self.compiler.errors, []
            raise RuleErrors(errors)

    def step_play(self, decisions, pos, step):
        seq = decisions if isinstance(decisions, list) else [decisions]
        for i, d in enumerate(seq):
            dpos = seq.item_pos(i) if isinstance(seq, YSeq) else pos
            player, index = self._decision(d, dpos)
            try:
                self.S.apply(player, index)
            except IllegalDecision as exc:
                raise ScenarioFailure(f"decision rejected: {exc.message}", dpos) from None

    def _decision(self, d, pos) -> tuple[int, int]:
        if not isinstance(d, dict) or "player" not in d:
            raise ScenarioFailure("a decision is {player: N, choose: …} or {player: N, index: i}", pos)
        player = int(d["player"])
        if player not in self.S.current_players():
            waiting = [f"P{p + 1} (player {p})" for p in self.S.current_players()]
            state = "the game is over" if self.S.over else f"waiting for {', '.join(waiting) or 'nobody'}"
            raise ScenarioFailure(f"player {player} is not deciding now ({state})", pos)
        if "index" in d:
            return player, int(d["index"])
        return player, self._match(player, d.get("choose"), pos)

    def _aliases(self, player: int) -> list[set]:
        from .decisions import labels_of, pending_for
        th = pending_for(self.S, player)
        out = []
        for value, text in zip(th.pending.options, labels_of(self.S, th.pending)):
            names = {text, text.lower()}
            if type(value) is Piece:
                static = self.S.lay.static[value]
                if self.S.sees(player, value):
                    names.add(str(static["name"]))
                else:  # anonymous: matched by what can be seen of it (its kind, public attributes)
                    comp = self.S.game.components[static["kind"]]
                    names.add(str(static["kind"]))
                    names.add(comp.back)
                    names.update(str(static[a]) for a in comp.public if a in static)
            elif isinstance(value, (str, int)):
                names.add(str(value).lstrip("\x00"))
            out.append(names)
        return out

    def _match(self, player: int, wanted: Any, pos: Pos) -> int:
        wanted = str(wanted)
        aliases = self._aliases(player)
        hits = [i for i, names in enumerate(aliases) if wanted in names or wanted.lower() in names]
        if len(hits) == 1:
            return hits[0]
        labels = self.S.option_labels(player)
        if not hits:
            raise ScenarioFailure(f'P{player + 1} has no option "{wanted}"; options: {labels}', pos)
        raise ScenarioFailure(f'"{wanted}" matches {len(hits)} options of P{player + 1}: '
                              f"{[labels[i] for i in hits]}; use `index:`", pos)

    def step_expect(self, exprs, pos, step):
        seq = exprs if isinstance(exprs, list) else [exprs]
        for i, text in enumerate(seq):
            epos = seq.item_pos(i) if isinstance(seq, YSeq) else pos
            self._check(text, epos)

    def _check(self, text, pos):
        node = parse_expr(text) if isinstance(text, str) else ast.Const(pos, text)
        f = self.compiler.expr(node, _scope())
        self._raise_compile_errors()
        METER.start(self.game.d.limits)
        try:
            ok = f(self.S, {})
        except RulebookError as exc:  # a rule error raised by the expectation: point at the expectation
            raise ScenarioFailure(f"cannot evaluate {str(text).strip()}: {exc.message}", pos) from None
        except Exception as exc:  # noqa: BLE001 - a mistake in the expectation itself
            raise ScenarioFailure(f"cannot evaluate {str(text).strip()}: {describe(exc)}", pos) from None
        if ok:
            return
        detail = ""
        if isinstance(node, ast.Compare):
            left = self.compiler.expr(node.left, _scope())(self.S, {})
            right = self.compiler.expr(node.right, _scope())(self.S, {})
            detail = f" (left side is {_show(self.S, left)}, right side is {_show(self.S, right)})"
        raise ScenarioFailure(f"expected {str(text).strip()}{detail}", getattr(text, "src", None).pos if hasattr(text, "src") else pos)

    def step_expect_options(self, spec, pos, step):
        player = int(spec["player"])
        if player not in self.S.current_players():
            raise ScenarioFailure(f"player {player} is not deciding now", pos)
        aliases = self._aliases(player)
        labels = self.S.option_labels(player)

        def present(name):
            return any(str(name) in a or str(name).lower() in a for a in aliases)
        if "equal" in spec:
            wanted = [str(x) for x in spec["equal"]]
            if len(wanted) != len(labels) or not all(present(w) for w in wanted):
                raise ScenarioFailure(f"options of P{player + 1} are {labels}, expected exactly {wanted}", pos)
        for name in spec.get("include") or []:
            if not present(name):
                raise ScenarioFailure(f'options of P{player + 1} are {labels}; "{name}" is missing', pos)
        for name in spec.get("exclude") or []:
            if present(name):
                raise ScenarioFailure(f'options of P{player + 1} include "{name}": {labels}', pos)

    def step_reject(self, spec, pos, step):
        player = int(spec["player"])
        before = self.S.hash()
        try:
            if player not in self.S.current_players():
                return  # not deciding at all: any decision by them is rejected
            if "index" in spec:
                self.S.apply(player, int(spec["index"]))
            else:
                wanted = str(spec.get("choose"))
                hits = [i for i, names in enumerate(self._aliases(player)) if wanted in names or wanted.lower() in names]
                if not hits:
                    return  # not an option: rejected
                self.S.apply(player, hits[0])
        except IllegalDecision:
            if self.S.hash() != before:
                raise ScenarioFailure("a rejected decision changed the state", pos) from None
            return
        raise ScenarioFailure(f"the decision {dict(spec)} was accepted", pos)

    def step_play_until(self, spec, pos, step):
        until = spec.get("until") if isinstance(spec, dict) else spec
        pick = str(spec.get("pick", "first")) if isinstance(spec, dict) else "first"
        limit = int(spec.get("max", 10_000)) if isinstance(spec, dict) else 10_000
        cond = self.compiler.expr(parse_expr(until), _scope()) if until is not None else (lambda S, L: S.over)
        self._raise_compile_errors()
        steps = 0
        METER.start(self.game.d.limits)
        while not evaluate(cond, self.S, {}):
            if self.S.over:
                raise ScenarioFailure(f"the game ended before: {until}", pos)
            steps += 1
            if steps > limit:
                raise ScenarioFailure(f"not reached after {limit} decisions: {until}", pos)
            p = self.S.current_players()[0]
            n = len(self.S.legal_actions(p))
            index = 0 if pick == "first" else n - 1 if pick == "last" else self.rng.randrange(n)
            self.S.apply(p, index)


def _scope():
    from .compiler import Scope
    return Scope()


def _show(S: Any, value: Any) -> str:
    from .labels import label
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (int, float)) or value is None:
        return repr(value) if value is not None else "none"
    if isinstance(value, list):
        return "[" + ", ".join(_show(S, v) for v in value) + "]"
    return label(S, value)
