"""graph.py builtins on an abstract board (no game): a square with a tail.

    a -x- b
    |     |
    y     x
    |     |
    c -y- d -z- e
"""
from types import SimpleNamespace

import pytest

from interpreter.builtins import graph
from interpreter.errors import RuleRuntimeError
from interpreter.model import Board


def make_board():
    nodes = {n: {} for n in "abcde"}
    adj = {n: [] for n in nodes}
    edges = {}
    for a, b, kind in [("a", "b", "x"), ("a", "c", "y"), ("b", "d", "x"), ("c", "d", "y"), ("d", "e", "z")]:
        attrs = {"kind": kind, "a": a, "b": b}
        adj[a].append(b)
        adj[b].append(a)
        edges[(a, b)] = edges[(b, a)] = attrs
    return Board("g", nodes, adj, edges)


S = SimpleNamespace(game=SimpleNamespace(boards={"g": make_board()}))


def test_nodes_and_edges_in_declaration_order():
    assert graph.nodes(S, "g") == ["a", "b", "c", "d", "e"]
    assert [(e["a"], e["b"]) for e in graph.edges(S, "g")] == [("a", "b"), ("a", "c"), ("b", "d"), ("c", "d"), ("d", "e")]


def test_neighbors_and_edge():
    assert graph.neighbors(S, "g", "d") == ["b", "c", "e"]
    assert graph.edge(S, "g", "c", "d")["kind"] == "y"
    assert graph.edge(S, "g", "a", "e") is None


def test_reach_counts_steps_and_includes_start():
    assert graph.reach(S, "g", "a", 0) == ["a"]
    assert graph.reach(S, "g", "a", 1) == ["a", "b", "c"]
    assert graph.reach(S, "g", "a", 2) == ["a", "b", "c", "d"]
    assert graph.reach(S, "g", "a", 3) == ["a", "b", "c", "d", "e"]


def test_reach_blocked_edges_force_detours():
    no_x = graph.reach(S, "g", "a", 3, blocked_edge=lambda e: e["kind"] == "x")
    assert no_x == ["a", "c", "d", "e"]
    assert "b" not in graph.reach(S, "g", "a", 9, blocked_edge=lambda e: e["kind"] == "x")
    a_b = lambda e: {e["a"], e["b"]} == {"a", "b"}
    assert "b" not in graph.reach(S, "g", "a", 2, blocked_edge=a_b)
    assert "b" in graph.reach(S, "g", "a", 3, blocked_edge=a_b)


def test_reach_blocked_nodes_are_not_entered_nor_passed_but_can_be_left():
    assert graph.reach(S, "g", "a", 4, blocked_node=lambda n: n == "d") == ["a", "b", "c"]
    assert graph.reach(S, "g", "d", 1, blocked_node=lambda n: n == "d") == ["d", "b", "c", "e"]


def test_distance():
    assert graph.distance(S, "g", "a", "e") == 3
    assert graph.distance(S, "g", "a", "e", blocked_edge=lambda e: e["kind"] == "z") is None
    assert graph.distance(S, "g", "b", "c", blocked_node=lambda n: n == "d") == 2


def test_unknown_board_or_node_is_a_rule_error():
    with pytest.raises(RuleRuntimeError):
        graph.nodes(S, "nope")
    with pytest.raises(RuleRuntimeError):
        graph.reach(S, "g", "z", 1)
