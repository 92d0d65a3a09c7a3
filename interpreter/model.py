"""The compiled definition of a game: what the loader builds from a rule file.

Everything here is fixed once the rule file is loaded. What depends on the player count and the
options (how many pieces, which zones exist) is instantiated by interpreter.layout.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from .budget import Limits, resolve as resolve_limits
from .errors import Pos

Closure = Callable[..., Any]  # compiled expression: f(S, L) -> value


@dataclass
class Dim:
    """One index dimension of a zone/counter/variable family."""

    kind: str  # player | range | values | board
    count: Optional[Closure] = None  # range: f(S, L) -> int
    values: Optional[list] = None  # values
    board: Optional[str] = None  # board


@dataclass
class ZoneFamily:
    name: str
    dims: list
    ordered: bool = False
    vis_up: str = "all"  # all | owner | none
    vis_down: str = "none"
    custom: Optional[Closure] = None  # f(S, L) with L = {"viewer", "piece"}
    face: Optional[bool] = None
    grid: Optional[dict] = None
    owner: Optional[Closure] = None
    label: str = ""
    labels: dict = field(default_factory=dict)
    pos: Pos = None


@dataclass
class StateFamily:
    """A counter (integers, clamped) or variable (any value) family."""

    name: str
    dims: list
    initial: Optional[Closure] = None
    is_counter: bool = True
    low: Optional[int] = None
    high: Optional[int] = None
    visibility: str = "public"  # public | owner | hidden
    label: str = ""
    pos: Pos = None
    internal: bool = False  # rule bookkeeping: never shown on a player's screen


@dataclass
class ItemDef:
    id: str
    attrs: dict
    count: Optional[Closure]
    when: Optional[Closure]
    label: str
    labels: dict


@dataclass
class ComponentDef:
    id: str
    kind: str
    per_player: bool
    items: list  # list[ItemDef]
    public: list  # attribute names visible while hidden
    mutable: dict  # name -> default
    face_up: bool
    start: Optional[str]
    faces: Optional[list]
    label: str
    labels: dict
    pos: Pos = None

    dyn_names: tuple = ()  # attributes of these pieces that can change during a game
    back: str = ""  # what a hidden piece shows: components with the same back look alike
    discard: Optional[str] = None  # the zone family `discard X` sends its pieces to


@dataclass
class Board:
    id: str
    nodes: dict  # node id -> attrs (dict)
    adj: dict  # node id -> list of neighbour ids
    edges: dict  # (a, b) -> attrs (both directions)
    directed: bool = False


@dataclass
class Proc:
    """A compiled statement block: VM instructions with their source positions."""

    name: str
    params: list
    code: list = field(default_factory=list)
    pos: list = field(default_factory=list)
    suspends: bool = False  # may ask for a decision (directly or through calls)
    calls: set = field(default_factory=set)  # names of procs it calls
    decl_pos: Pos = None
    simple: set = field(default_factory=set)  # indexes of instructions that never jump or signal
    originals: dict = field(default_factory=dict)  # index -> the instruction a fused/structured one replaced
    plain: Optional[Callable] = None  # plain(S, thread, locals) -> value, if it never stops (compiler.link)
    build: Any = None  # what compiler.link needs to compile it again (its compilation context)


@dataclass
class Function:
    name: str
    params: list
    expr: Optional[Closure] = None  # pure expression function
    proc: Optional[Proc] = None  # procedure (do:)
    pos: Pos = None


@dataclass
class Action:
    name: str
    label: str
    when: Optional[Closure]
    proc: Proc
    labels: dict = field(default_factory=dict)
    pos: Pos = None
    when_text: Any = None  # the `when` condition as written (perform compiles it inline)


@dataclass
class OptionDef:
    id: str
    type: str  # bool | int | choice
    default: Any
    values: Optional[list] = None
    low: Optional[int] = None
    high: Optional[int] = None
    description: str = ""
    pos: Pos = None


@dataclass
class Check:
    """A named expression: constraint, end condition, invariant."""

    id: str
    expr: Closure
    message: str = ""
    at: str = ""
    kind: str = ""  # invariants: constant | holds
    pos: Pos = None


@dataclass
class Scoring:
    score: Optional[Closure] = None
    tiebreak: list = field(default_factory=list)
    winners: Optional[Closure] = None
    final: Optional[Proc] = None
    lowest_wins: bool = False
    all_tied: str = "draw"  # every player tied after tie-breaks: "draw" (no winner) or "shared"


@dataclass
class GameDef:
    id: str
    name: str
    files: list  # every rule file that went into it (base first)
    rules_hash: str
    min_players: int
    max_players: int
    max_decisions: int
    options: dict  # id -> OptionDef
    constraints: list  # list[Check]
    tables: dict
    components: dict  # id -> ComponentDef
    boards: dict
    zones: dict  # name -> ZoneFamily
    counters: dict  # name -> StateFamily
    variables: dict
    functions: dict
    actions: dict
    procs: dict  # name -> Proc (main, events, functions, actions, blocks)
    scoring: Scoring
    invariants: list
    assumptions: list
    metadata: dict
    mutable_attrs: set = field(default_factory=set)
    known_attrs: set = field(default_factory=set)  # every attribute name the rules define
    code_env: dict = field(default_factory=dict)  # namespace of the generated Python code
    label_fns: dict = field(default_factory=dict)  # choose … label EXPR: key -> (function, slot)
    layouts: dict = field(default_factory=dict)  # cache: (n, options) -> Layout
    limits: Limits = field(default_factory=resolve_limits)  # resource budget (budget.py)
    warnings: list = field(default_factory=list)  # RuleErrors that do not stop loading (`validate` shows them)
    agent_evaluate: Optional[Closure] = None  # `agents: evaluate:` (player bound), or None
