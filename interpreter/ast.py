"""The DSL's syntax tree. Every node knows where the author wrote it."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from .errors import Pos


@dataclass
class Node:
    pos: Pos


# ---------------------------------------------------------------- expressions
@dataclass
class Const(Node):
    value: Any


@dataclass
class Name(Node):
    id: str


@dataclass
class Attr(Node):
    obj: Node
    name: str


@dataclass
class Index(Node):
    obj: Node
    keys: list


@dataclass
class Call(Node):
    func: Node
    args: list
    kwargs: dict


@dataclass
class ListLit(Node):
    items: list


@dataclass
class TupleLit(Node):
    items: list


@dataclass
class Comprehension(Node):
    elt: Node
    var: str
    iter: Node
    cond: Optional[Node]


@dataclass
class Lambda(Node):
    param: str
    body: Node


@dataclass
class BinOp(Node):
    op: str
    left: Node
    right: Node


@dataclass
class Compare(Node):
    op: str  # == != < <= > >= in not_in
    left: Node
    right: Node


@dataclass
class BoolOp(Node):
    op: str  # and / or
    left: Node
    right: Node


@dataclass
class Not(Node):
    operand: Node


@dataclass
class Neg(Node):
    operand: Node


@dataclass
class Ternary(Node):
    cond: Node
    then: Node
    orelse: Node


# ---------------------------------------------------------------- statements
@dataclass
class Let(Node):
    name: str
    value: Node


@dataclass
class Assign(Node):
    target: Node
    value: Node
    op: str  # "=", "+=", "-=", "*="


@dataclass
class ExprStmt(Node):
    expr: Node


@dataclass
class Move(Node):
    what: Node
    to: Node
    place: Optional[str] = None  # "top" | "bottom" | "at" | None
    at: Optional[Node] = None
    face: Optional[bool] = None  # True face up, False face down, None unchanged


@dataclass
class Draw(Node):
    count: Node
    source: Node
    dest: Node
    face: Optional[bool] = None


@dataclass
class Deal(Node):
    count: Node
    source: Node
    family: Node
    face: Optional[bool] = None


@dataclass
class Shuffle(Node):
    zone: Node


@dataclass
class Discard(Node):
    what: Node
    face: Optional[bool] = None


@dataclass
class Flip(Node):
    what: Node
    face: Optional[bool] = None


@dataclass
class Reveal(Node):
    what: Node
    to: Optional[Node] = None


@dataclass
class Roll(Node):
    what: Node


@dataclass
class Choose(Node):
    var: str
    source: Node
    count: str = "one"  # one | exact | up_to | range
    low: Optional[Node] = None
    high: Optional[Node] = None
    where: Optional[Node] = None
    by: Optional[Node] = None
    prompt: Optional[str] = None
    optional: bool = False
    label: Optional[Node] = None  # how each option is shown (the chosen name bound to it)


@dataclass
class Perform(Node):
    actions: list  # list[(name, Pos)]
    where: Optional[Node] = None
    by: Optional[Node] = None
    prompt: Optional[str] = None
    optional: bool = False


@dataclass
class Log(Node):
    text: str
    text_pos: Pos = None  # position of the opening quote


@dataclass
class EndGame(Node):
    reason: Optional[str] = None
    text_pos: Pos = None  # position of the opening quote


@dataclass
class Return(Node):
    value: Optional[Node] = None


@dataclass
class Emit(Node):
    event: str


@dataclass
class Pass(Node):
    pass


@dataclass
class Break(Node):
    pass


@dataclass
class Continue(Node):
    pass


@dataclass
class If(Node):
    branches: list  # list[(cond, body)]
    orelse: list = field(default_factory=list)


@dataclass
class For(Node):
    var: str
    iter: Node
    body: list


@dataclass
class Repeat(Node):
    count: Node
    body: list


@dataclass
class While(Node):
    cond: Node
    body: list


@dataclass
class Simultaneous(Node):
    var: str
    iter: Node
    body: list


def walk(node: Any):
    """Every AST node below (and including) `node`, depth first."""
    if isinstance(node, list):
        for item in node:
            yield from walk(item)
        return
    if isinstance(node, tuple):
        for item in node:
            yield from walk(item)
        return
    if not isinstance(node, Node):
        return
    yield node
    for value in vars(node).values():
        if isinstance(value, (Node, list, tuple)):
            yield from walk(value)
        elif isinstance(value, dict):
            yield from walk(list(value.values()))
