"""What the rule file says about the table, independent of any game's state.

Boards (graph nodes with their positions, edges with their attributes, fixed grids) and, for
every zone of this player count and these options, its owner and the board node it sits on.
Only rule data is read here (the same for every player); everything that changes during a
game comes from a player's view (interpreter.web.payload).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ..layout import get_layout
from ..values import Player


@dataclass
class BoardShape:
    id: str
    label: str
    nodes: dict  # node id -> {"label": str, "x": float, "y": float} (x, y in cell units)
    edges: list  # [(a, b, {attr: value})], each undirected edge once
    directed: bool = False
    is_grid: bool = False


@dataclass
class TableLayout:
    players: int
    boards: dict = field(default_factory=dict)  # board id -> BoardShape
    on_node: dict = field(default_factory=dict)  # zone key -> (board id, node id)
    owner: dict = field(default_factory=dict)  # zone key -> seat (int) or None
    grid_zones: set = field(default_factory=set)  # zone keys that are sparse grids


def table_layout(game: Any, players: int, options: dict) -> TableLayout:
    """The static table for `game` (an interpreter.Game) with this many players and options."""
    d = game.d
    out = TableLayout(players)
    for bid, board in d.boards.items():
        out.boards[bid] = _shape(bid, board)
    lay = get_layout(d, players, options)
    for key, info in lay.zones.items():
        out.owner[str(key)] = int(info.owner) if isinstance(info.owner, Player) else None
        if info.grid is not None:
            out.grid_zones.add(str(key))
        fam = d.zones.get(info.family)
        if fam is None:
            continue
        for dim, index in zip(fam.dims, info.index):
            if dim.kind == "board" and dim.board in out.boards:
                out.on_node[str(key)] = (dim.board, str(index))
                break
    return out


def _shape(bid: str, board: Any) -> BoardShape:
    names = list(board.nodes)
    is_grid = all(set(board.nodes[n]) >= {"x", "y"} and n == f"{board.nodes[n]['x']},{board.nodes[n]['y']}"
                  for n in names) and bool(names)
    positions = _positions(board.nodes)
    nodes = {n: {"label": str(board.nodes[n].get("label", n.replace("_", " "))),
                 "x": positions[n][0], "y": positions[n][1]} for n in names}
    seen = set()
    edges = []
    for (a, b), attrs in board.edges.items():
        pair = (a, b) if board.directed else tuple(sorted((a, b)))
        if pair in seen:
            continue
        seen.add(pair)
        shown = {k: v for k, v in attrs.items() if k not in ("a", "b", "between")}
        edges.append((a, b, shown))
    return BoardShape(bid, bid.replace("_", " "), nodes, edges, board.directed, is_grid)


def _positions(nodes: dict) -> dict:
    """Where to draw each node: its col/row or x/y attributes when every node has them (display
    data written by the designer), else evenly on a circle."""
    for xa, ya in (("col", "row"), ("x", "y")):
        if nodes and all(_number(a.get(xa)) is not None and _number(a.get(ya)) is not None
                         for a in nodes.values()):
            return {n: (float(a[xa]), float(a[ya])) for n, a in nodes.items()}
    count = max(1, len(nodes))
    radius = max(1.0, count / 3)
    return {n: (radius + radius * math.cos(2 * math.pi * i / count - math.pi / 2),
                radius + radius * math.sin(2 * math.pi * i / count - math.pi / 2))
            for i, n in enumerate(nodes)}


def _number(v: Any) -> float | None:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None
