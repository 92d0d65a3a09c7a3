"""The entry point for programs: load a rule file, start games, restore saved ones.

    from interpreter import Game
    game = Game.load("my_game/game.yaml")
    state = game.new_game(players=4, seed=1)
    while not state.is_terminal():
        p = state.current_players()[0]
        state.apply(p, 0)
    print(state.returns(), state.winners())
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

from .budget import METER
from .errors import InputError, Pos, RuleRuntimeError, suggest
from .guard import evaluate
from .layout import StaticContext, get_layout
from .loader import load_game
from .model import GameDef
from .rng import Rng
from .starts import Recorder, Starts
from .state import State
from .threads import Frame
from .vm import new_thread, run


class Game:
    """A checked, compiled rule file (plus variants)."""

    def __init__(self, definition: GameDef):
        self.d = definition
        self._setup_checked: dict = {}  # (players, options) -> layout, once the setup is checked
        self._default_setup: dict = {}  # players -> (default options, layout), checked too
        self._starts: dict = {}  # (players, [options,] lang, logging) -> Starts (starts.py)
        self._usual: dict = {}  # (players as given, lang, logging) -> Starts, default options
        self._keep_starts = True  # see keep_starts

    def keep_starts(self, on: bool) -> None:
        """Whether new games may be copied from prepared starts (starts.py). Off, every new game
        runs its setup: for tools that instrument the compiled rules (rule coverage), or compare
        the two. Either way, the starts kept so far are forgotten."""
        self._keep_starts = on
        self._starts.clear()
        self._usual.clear()

    @classmethod
    def load(cls, path: str | Path, variants: Iterable[str | Path] = ()) -> "Game":
        return cls(load_game(path, variants))

    @property
    def id(self) -> str:
        return self.d.id

    @property
    def name(self) -> str:
        return self.d.name

    @property
    def player_range(self) -> tuple[int, int]:
        return self.d.min_players, self.d.max_players

    @property
    def default_players(self) -> int:
        players = self.d.metadata.get("players") or {}
        return int(players.get("default", self.d.min_players))

    # ------------------------------------------------------------------ options
    def resolve_options(self, given: dict[str, Any] | None = None) -> dict[str, Any]:
        """Defaults plus `given` (strings from a command line are converted); checked."""
        out = {oid: o.default for oid, o in self.d.options.items()}
        for key, value in (given or {}).items():
            spec = self.d.options.get(key)
            if spec is None:
                raise InputError(f'unknown option "{key}"{suggest(key, self.d.options)}; '
                                 f"options: {', '.join(self.d.options) or 'none'}")
            out[key] = _convert(spec, value)
        return out

    def option_combinations(self) -> list[dict[str, Any]]:
        """Every combination of bool and choice options (int options at their default)."""
        combos: list[dict[str, Any]] = [{}]
        for oid, spec in self.d.options.items():
            values = [False, True] if spec.type == "bool" else (spec.values if spec.type == "choice" else [spec.default])
            combos = [dict(c, **{oid: v}) for c in combos for v in values]
        return combos

    def check_setup(self, players: int, options: dict[str, Any]) -> list[str]:
        """Problems with this player count and these options (empty if fine)."""
        lo, hi = self.player_range
        if not lo <= players <= hi:
            return [f"{self.d.name} is for {lo}–{hi} players, not {players}"]
        ctx = StaticContext(self.d, players, options)
        problems = []
        for check in self.d.constraints:
            try:
                ok = check.expr(ctx, {})
            except Exception as exc:  # noqa: BLE001 - reported as a rule problem
                problems.append(f"{check.pos}: constraint {check.id} could not be evaluated: {exc}")
                continue
            if not ok:
                problems.append(check.message or f"constraint {check.id} is not met")
        return problems

    # ------------------------------------------------------------------ games
    def new_game(self, players: int | None = None, options: dict[str, Any] | None = None,
                 seed: int = 0, lang: str | None = None, logging: bool = True,
                 rng: Rng | None = None, prepare: Any = None) -> State:
        """Set up a new game and run it to the first decision. `lang` (e.g. "pt") shows labels
        in that language where the rules give them. `rng` replaces the seeded generator with
        another one of the same interface (adapters use it to turn random draws into explicit
        chance outcomes). `prepare(state)`, if given, runs before the setup (interpreter.resample
        uses it to resample hidden pieces from the very start)."""
        usual = None  # the usual call (default options, a seeded game): its starts found at once
        if not options and rng is None and prepare is None and (players is None or type(players) is int):
            usual = (players, lang, logging)
            starts = self._usual.get(usual)
            if starts is not None:
                S = starts.start(seed)
                if S is not None:
                    return S
        n = self.default_players if players is None else int(players)
        if not options and n in self._default_setup:  # the usual case: every option at its default
            defaults, layout = self._default_setup[n]
            opts = dict(defaults)
        else:
            opts = self.resolve_options(options)
            key = (n, tuple(opts.values()))  # resolve_options keeps the rule file's option order
            ready = self._setup_checked.get(key)
            if ready is None:
                problems = self.check_setup(n, opts)
                if problems:
                    raise InputError("; ".join(problems))
                ready = self._setup_checked[key] = get_layout(self.d, n, opts)
            layout = ready
            if not options:
                self._default_setup[n] = (dict(opts), layout)
        starts = None
        if rng is None and prepare is None and self._keep_starts:
            key = (n, lang, logging) if not options else (n, tuple(opts.values()), lang, logging)
            starts = self._starts.get(key)
            if starts is None:
                starts = self._starts[key] = Starts()
            if starts.closed:
                if usual is not None:
                    self._usual.pop(usual, None)  # nothing is kept for this setting: no shortcut
                starts = None
            else:
                if usual is not None:
                    self._usual[usual] = starts
                S = starts.start(seed)
                if S is not None:
                    return S
        S = State(self.d, layout, opts, seed)
        if rng is not None:
            S.rng = rng
        elif starts is not None:
            S.rng = Recorder(seed)
        S.lang = lang
        S.logging = logging  # off: no log lines are made at all (simulations)
        if layout.initial_slots is None:  # else State() copied them already
            _initialise_slots(S)
        if prepare is not None:
            prepare(S)
        new_thread(S, [Frame(self.d.procs["main"], 0, {})])
        run(S)
        if starts is not None:
            recorder = S.rng
            S.rng = recorder.plain()
            starts.keep(S, recorder.draws)
        return S

    def restore(self, data: dict) -> State:
        """A state from State.to_json() data (checked against these rules)."""
        if data.get("game") != self.d.id:
            raise InputError(f"this save is of game {data.get('game')!r}, not {self.d.id!r}")
        if data.get("rules_hash") != self.d.rules_hash:
            raise InputError("this save was made with different rule files "
                             f"(hash {data.get('rules_hash')}, now {self.d.rules_hash})")
        opts = self.resolve_options(data.get("options"))
        layout = get_layout(self.d, int(data["players"]), opts)
        try:
            return State.from_json(self.d, layout, data)
        except Exception as exc:  # noqa: BLE001 - any failure to read a save means it is corrupt
            raise InputError(f"corrupt save: {type(exc).__name__}: {exc}") from None


def _initialise_slots(S: State) -> None:
    """Counters and variables at their `initial` values. Computed once per layout and copied,
    unless computing them drew random numbers (then every game computes its own)."""
    cached = S.lay.initial_slots
    if cached is not None:
        S.counters, S.vars = dict(cached[0]), dict(cached[1])
        return
    rng_before = S.rng.state
    _compute_slots(S)
    if S.rng.state == rng_before:
        S.lay.initial_slots = (dict(S.counters), dict(S.vars))


def _compute_slots(S: State) -> None:
    METER.start(S.game.limits)
    for key, info in S.lay.counters.items():
        fam = S.game.counters[info.family]
        value = evaluate(fam.initial, S, {"index": _index(info)})
        if type(value) in (bool, float):
            value = int(value)
        if type(value) is not int:
            raise RuleRuntimeError(f"counter {key} starts at {value!r}: a counter holds a whole number",
                                   getattr(fam.initial, "pos", None) or Pos("<rules>"), "E300")
        S.set_counter(key, value)
    for key, info in S.lay.variables.items():
        fam = S.game.variables[info.family]
        if fam.initial is not None:
            S.vars[key] = evaluate(fam.initial, S, {"index": _index(info)})


def _index(info: Any) -> Any:
    return info.index[0] if len(info.index) == 1 else list(info.index)


def _convert(spec: Any, value: Any) -> Any:
    if spec.type == "bool":
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("true", "yes", "1", "on"):
            return True
        if text in ("false", "no", "0", "off"):
            return False
        raise InputError(f'option "{spec.id}" is true or false, not {value!r}')
    if spec.type == "int":
        try:
            number = int(value)
        except (TypeError, ValueError):
            raise InputError(f'option "{spec.id}" is a whole number, not {value!r}') from None
        if (spec.low is not None and number < spec.low) or (spec.high is not None and number > spec.high):
            raise InputError(f'option "{spec.id}" must be between {spec.low} and {spec.high}, not {number}')
        return number
    for allowed in spec.values or []:
        if str(allowed) == str(value):
            return allowed
    raise InputError(f'option "{spec.id}" is one of {", ".join(map(str, spec.values or []))}, not {value!r}'
                     f"{suggest(str(value), map(str, spec.values or []))}")
