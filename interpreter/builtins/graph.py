"""Graph boards: nodes, edges, neighbours and reach with blocked nodes and edges.

A board (rule file `boards:`) is named in the DSL by its id (`map`); nodes are strings, edges are
attribute maps (the YAML edge minus `between`, plus `a` and `b`, its two ends). Generic: any game
with a map of places joined by borders, roads or paths.
"""
from __future__ import annotations

from collections import deque

from ..errors import RuleRuntimeError
from . import builtin


def _board(S, board):
    b = S.game.boards.get(str(board)) if isinstance(board, str) else None
    if b is None:
        raise RuleRuntimeError(f"expected a board, got {board!r}")
    return b


def _node(b, n):
    if n not in b.nodes:
        raise RuleRuntimeError(f'board "{b.id}" has no node {n!r}')
    return n


@builtin(min_args=1)
def nodes(S, board):
    """nodes(board): every node id, in declaration order."""
    return list(_board(S, board).nodes)


@builtin(min_args=1)
def edges(S, board):
    """edges(board): every edge's attribute map (with its ends `a` and `b`), in declaration order."""
    b = _board(S, board)
    seen, out = set(), []
    for attrs in b.edges.values():
        if id(attrs) not in seen:
            seen.add(id(attrs))
            out.append(attrs)
    return out


@builtin(min_args=2)
def neighbors(S, board, n):
    """neighbors(board, n): the nodes joined to n by an edge, in edge declaration order."""
    b = _board(S, board)
    return list(b.adj[_node(b, n)])


@builtin(min_args=3)
def edge(S, board, a, b_):
    """edge(board, a, b): the attribute map of the edge from a to b, or none if they are not joined."""
    return _board(S, board).edges.get((a, b_))


@builtin(min_args=3, kwargs=("blocked_node", "blocked_edge"))
def reach(S, board, start, steps, blocked_node=None, blocked_edge=None):
    """reach(board, start, steps, blocked_node=n => …, blocked_edge=e => …): nodes within `steps`
    moves of start (start included), nearest first; a move never crosses an edge whose
    blocked_edge(e) holds nor enters a node whose blocked_node(n) holds (start itself is not tested)."""
    b = _board(S, board)
    return reach_order(b.adj, b.edges, _node(b, start), steps, blocked_node, blocked_edge)


def reach_order(adj: dict, edges: dict, start, steps: int, blocked_node=None, blocked_edge=None) -> list:
    """reach's breadth-first walk over plain maps (node -> neighbours, (a, b) -> edge attributes):
    also what generated programs call with a board's module constants."""
    dist = {start: 0}
    order = [start]
    queue = deque([start])
    while queue:
        n = queue.popleft()
        d = dist[n]
        if d >= steps:
            continue
        for m in adj[n]:
            if m in dist:
                continue
            if blocked_edge is not None and blocked_edge(edges[(n, m)]):
                continue
            if blocked_node is not None and blocked_node(m):
                continue
            dist[m] = d + 1
            order.append(m)
            queue.append(m)
    return order


@builtin(min_args=3, kwargs=("blocked_node", "blocked_edge"))
def distance(S, board, a, b_, blocked_node=None, blocked_edge=None):
    """distance(board, a, b, blocked_node=…, blocked_edge=…): fewest moves from a to b under the same
    rules as reach, or none if b cannot be reached."""
    b = _board(S, board)
    a, b_ = _node(b, a), _node(b, b_)
    dist = {a: 0}
    queue = deque([a])
    while queue:
        n = queue.popleft()
        if n == b_:
            return dist[n]
        for m in b.adj[n]:
            if m in dist:
                continue
            if blocked_edge is not None and blocked_edge(b.edges[(n, m)]):
                continue
            if blocked_node is not None and blocked_node(m):
                continue
            dist[m] = dist[n] + 1
            queue.append(m)
    return None
