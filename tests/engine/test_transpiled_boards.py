"""Generated programs (interpreter/transpile/) of the board game play the engine's games: the
same options offered at every decision, the same decisions, the same returns, the same final
state. Plus the constructs the board area adds, each on a small rule file: boards (graph
builtins, zone families indexed by a board's nodes, zone_index, a node's or an edge's
attributes), functions with a statement body called in expressions (and what their calls give),
`sort`/`keys`/`append`/`awards_by_place`, zones passed to procedures, and what is refused."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.transpile import Unsupported, transpile
from interpreter.transpile.compare import differing_seeds
from .helpers import write_valid as write

ROOT = Path(__file__).resolve().parents[2]
CHICAGO_DRY = ROOT / "rules" / "chicago_dry" / "game.yaml"
GENEROUS = ROOT / "rules" / "chicago_dry" / "variants" / "generous_mayor.yaml"
SIDES = ("police_side", "henchman_side", "queen_side", "jazzman_side", "mayor_side")


same_games = differing_seeds  # the seeds whose game or final state differs, with where


CONFIGS = ([(n, {}, ()) for n in range(2, 6)]
           + [(n, {side: "B"}, ()) for n in (2, 5) for side in SIDES]
           + [(n, {}, (GENEROUS,)) for n in (3, 4)]
           + [(3, {side: "B" for side in SIDES}, ())])
IDS = [f"{n}p-{'-'.join(o) or 'A'}{'-' + v[0].stem if v else ''}" for n, o, v in CONFIGS]


@pytest.mark.parametrize("players,options,variants", CONFIGS, ids=IDS)
def test_the_generated_program_plays_the_engines_games(players, options, variants):
    assert same_games(CHICAGO_DRY, players, options, range(4), variants) == []


@pytest.mark.slow
@pytest.mark.parametrize("players,options,variants", CONFIGS, ids=IDS)
def test_the_generated_program_plays_the_engines_games_long(players, options, variants):
    assert same_games(CHICAGO_DRY, players, options, range(200), variants) == []


# A ring of five places; each edge has a colour, closed by a variable; a marker per player walks
# the ring (neighbours, reach with blocked nodes and edges), stones are dropped per place and
# player and read back by zone_index. The edge attribute `colour` is also a piece attribute.
BOARD = """
boards:
  ring:
    nodes:
      a: {label: A, size: 1}
      b: {label: B, size: 2}
      c: {label: C, size: 3}
      d: {label: D, size: 1}
      e: {label: E, size: 2}
    edges:
      - {between: [a, b], colour: red}
      - {between: [b, c], colour: blue}
      - {between: [c, d], colour: red}
      - {between: [d, e], colour: blue}
      - {between: [e, a], colour: green}
      - {between: [a, c], colour: green}
components:
  stone:
    per_player: true
    start: bag
    items:
      - {id: stone, colour: red, count: 6}
  marker:
    per_player: true
    start: home
    items:
      - {id: marker}
zones:
  bag: {per: [player]}
  home: {per: [player]}
  stones_at: {per: [{board: ring}, player]}
  markers_at: {per: [{board: ring}]}
variables:
  closed: {initial: "'red'"}
  blocked: {initial: "'c'"}
counters:
  points: {per: [player], initial: 0}
setup:
  - id: start
    do: |
      for p in players:
        move first(home[p]) to markers_at[nodes(ring)[p]]
flow:
  rounds: 4
  phases:
    - id: walk
      turns: seat
      turn: |
        let m = first(filter(pieces(marker), x => x.owner == player))
        let here = zone_index(m.zone)
        choose to from reach(ring, here, 2, blocked_node=n => n == blocked, blocked_edge=e => e.colour == closed) prompt "Walk"
        move m to markers_at[to]
        choose q from [n for n in neighbors(ring, to) if edge(ring, to, n).colour != closed] prompt "Drop"
        if count(bag[player]) > 0:
          move first(bag[player]) to stones_at[q, player]
        points[player] += ring[q].size + count(edges(ring), e => e.a == q) + index_of(reach(ring, q, 2), to)
        let s = first(stones_at[q, player])
        if s != none and zone_index(s.zone)[0] == q:
          points[player] += 1
        closed = 'blue' if closed == 'red' else 'red'
        blocked = nodes(ring)[round % len(nodes(ring))]
scoring:
  score: "points[player] + sum(nodes(ring), n => count(stones_at[n, player]))"
"""


@pytest.mark.parametrize("players", [2, 3, 4])
def test_boards_nodes_edges_reach_and_zones_by_node(tmp_path, players):
    path = write(tmp_path, BOARD)
    assert same_games(path, players, {}, range(20)) == []
    source = transpile(path, players)
    assert "N_ring = " in source and "ADJ_ring = " in source and "_reach(ADJ_ring" in source
    assert "ZK[id(" in source and "z_stones_at['a'][0]" in source
    assert "RC_ring_2[" in source and "EA_ring_colour[" in source  # constant tables where they can be


def test_an_edges_attribute_named_like_a_piece_attribute_is_the_edges(tmp_path):
    source = transpile(write(tmp_path, BOARD), 2)
    assert ".get('colour')" in source and "A_colour[" not in source.split("def play")[1]


# Functions with a statement body called in expressions: one returning values (options of a
# choice), one returning pieces (a choice among pieces: its kind comes from its `return`s), one
# falling off its end (none), with locals, loops and an early return.
BODIES = """
components:
  chip:
    per_player: true
    start: pool
    items:
      - {id: small, value: 1, count: 2}
      - {id: big, value: 3, count: 1}
zones:
  pool: {per: [player]}
  kept: {per: [player]}
counters:
  points: {per: [player], initial: 0}
functions:
  steps:
    params: [k]
    do: |
      let out = []
      for i in range(k + 2):
        if i == 3:
          return out
        out = append(out, i * 2)
      return out
  mine:
    params: [p]
    do: |
      if count(pool[p]) == 0:
        return []
      return [x for x in pool[p] if x.value >= 1]
  nothing:
    params: [x]
    do: |
      if x > 100:
        return 1
  total:
    params: [p]
    do: |
      let t = 0
      for x in kept[p]:
        t = t + x.value
      return t
flow:
  rounds: 3
  phases:
    - id: pick
      turns: seat
      turn: |
        choose n from steps(round) prompt "Steps"
        points[player] += n + (1 if nothing(n) == none else 0)
        if count(mine(player)) > 0:
          choose x from mine(player) prompt "Keep"
          move x to kept[player]
        points[player] += total(player)
scoring:
  score: "points[player]"
"""


@pytest.mark.parametrize("players", [2, 3])
def test_functions_with_a_statement_body_in_expressions(tmp_path, players):
    path = write(tmp_path, BODIES)
    assert same_games(path, players, {}, range(20)) == []
    source = transpile(path, players)
    assert "def p_steps(" in source and "def p_mine(" in source and "_look_options(" in source


def test_a_function_body_that_changes_the_state_in_an_expression(tmp_path):
    """value_procs.py's: a body that moves pieces or changes a counter, called in an expression."""
    text = BODIES.replace("      let t = 0\n", "      let t = 0\n      points[p] += 1\n")
    assert same_games(write(tmp_path, text), 2, {}, range(10)) == []
    text = BODIES.replace("      let t = 0\n", "      let t = 0\n      move kept[p] to pool[p]\n")
    assert same_games(write(tmp_path, text), 2, {}, range(10)) == []


# sort (with and without a key, descending), keys of a table, append, awards_by_place (every
# tie policy), and a zone passed to a procedure that moves pieces into it.
LISTS = """
tables:
  loads: {small: 1, big: 1}
  numbers: {bonus: 2, names: [a, b]}
components:
  chip:
    per_player: true
    start: pool
    items:
      - {id: small, value: 1, count: 3}
      - {id: big, value: 3, count: 2}
zones:
  pool: {per: [player]}
  kept: {per: [player]}
  side: {per: [player]}
counters:
  points: {per: [player], initial: 0}
functions:
  take:
    params: [p, kind, z]
    do: |
      move top(filter(pool[p], x => x.name == kind), loads[kind]) to z
flow:
  rounds: 2
  phases:
    - id: pick
      turns: seat
      turn: |
        for kind in keys(loads):
          if round == 1:
            call take(player, kind, kept[player])
          else:
            call take(player, kind, side[player])
        let order = sort(players, p => 0 - count(kept[p]))
        choose q from append(order, player) prompt "Whom"
        let best = sort(kept[player], x => x.value, desc=true)
        points[q] += count(best) + first(sort([3, 1, 2])) + numbers.bonus + len(numbers['names'])
        for policy in ['share', 'skip_next', 'dense', 'split_down', 'drop']:
          for pair in awards_by_place(players, p => count(kept[p]) + count(side[p]), [5, 3, 1], policy):
            points[pair[0]] += pair[1]
        for pair in awards_by_place(players, p => points[p], [2, 1]):
          points[pair[0]] += pair[1]
scoring:
  score: "points[player]"
"""


@pytest.mark.parametrize("players", [2, 3, 4])
def test_sort_keys_append_awards_and_zones_passed_to_procedures(tmp_path, players):
    path = write(tmp_path, LISTS)
    assert same_games(path, players, {}, range(12)) == []
    source = transpile(path, players)
    assert "_sort(" in source
    body = source.split("def play")[1]
    # a number folded, a list kept (a dict of the tables read by key: .get, none for a key it lacks)
    assert "T_numbers.get('names')" in body and "'bonus'" not in body


def test_a_graph_builtin_not_covered_is_refused_by_name(tmp_path):
    text = BOARD.replace("points[player] += ring[q].size", "points[player] += distance(ring, q, to) + ring[q].size")
    with pytest.raises(Unsupported, match="distance"):
        transpile(write(tmp_path, text), 2)
