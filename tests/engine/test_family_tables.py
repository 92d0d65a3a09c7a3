"""Families read through layout.Layout's per-family tables (codegen.family_key): `column[s, p]`
is `S.lay.zone_tables[n][s][p]`, one nested table per dimension, instead of a tuple looked up in
the flat IndexTable. The values are those of the flat table, and a missing index is the same
located error naming the whole index, whichever part of it is missing."""
from __future__ import annotations

import pickle

import pytest

from interpreter.errors import RuleRuntimeError
from interpreter.layout import IndexTable, nested
from interpreter.values import PLAYERS

from .helpers import load

GAME = """
components:
  chip:
    start: supply
    items:
      - {id: chip, count: 6}
zones:
  supply: {}
  column: {per: [{range: 3}, player]}
  hand: {per: [player]}
counters:
  score: {per: [{range: 3}, player], initial: 0}
variables:
  note: {per: [player, {values: [a, b]}], initial: none}
  out: {initial: none}
  probe: {initial: 0}
functions:
  size:
    params: [s, p]
    expr: "count(column[s, p])"
flow:
  rounds: 1
  phases:
    - id: p
      do: |
        move first(supply) to column[1, players[1]]
        move first(supply) to column[2, players[0]]
        move first(supply) to hand[players[1]]
        score[2, players[1]] = 5
        note[players[0], "b"] = "x"
        out = [size(1, players[1]), size(2, players[0]), size(0, players[0]),
               count(hand[players[1]]), score[2, players[1]], score[1, players[1]],
               note[players[0], "b"], note[players[1], "a"],
               flatten([[count(column[s, q]) for q in players] for s in range(3)])]
        let k = probe
        if k == 1:
          out = count(column[7, players[0]])
        if k == 2:
          out = count(column[1, 9])
        if k == 3:
          out = score[1, 9]
        if k == 4:
          out = count(column[size(7, players[0]), players[0]])
"""


def test_family_tables_read_what_the_flat_tables_hold(tmp_path):
    S = load(tmp_path, GAME).new_game(2, seed=1)
    assert S.is_terminal()
    assert S.vars["out"] == [1, 1, 0, 1, 5, 0, "x", None, [0, 0, 0, 1, 1, 0]]
    lay = S.lay
    for index, key in lay.zone_index["column"].items():  # nested: the same keys
        s, p = index
        assert lay.zone_tables[list(S.game.zones).index("column")][s][p] == key


@pytest.mark.parametrize("probe, index", [(1, "(7, Player(0))"), (2, "(1, 9)"), (3, "(1, 9)"),
                                          (4, "(7, Player(0))")])
def test_a_missing_index_is_the_flat_tables_error(tmp_path, probe, index):
    game = load(tmp_path, GAME.replace("probe: {initial: 0}", f"probe: {{initial: {probe}}}"))
    with pytest.raises(RuleRuntimeError) as err:
        game.new_game(2, seed=1)
    kind = "counter" if probe == 3 else "zone"
    name = "score" if probe == 3 else "column"
    assert f'{kind} "{name}" has no index {index}' in str(err.value)
    assert "game.yaml:" in str(err.value)  # located in the rule file


def test_nested_tables_of_three_dimensions_and_pickling():
    flat = IndexTable("zone", "cube")
    for i in range(2):
        for j in "ab":
            for k in PLAYERS[:2]:
                flat[(i, j, k)] = f"cube:{i}:{j}:{k}"
    table = nested(flat, 3)
    assert table[1]["b"][PLAYERS[0]] == flat[(1, "b", PLAYERS[0])]
    for probe in ((5, "a", PLAYERS[0]), (1, "z", PLAYERS[0]), (1, "a", 7)):
        with pytest.raises(RuleRuntimeError, match=r'zone "cube" has no index ' + repr(probe).replace("(", r"\(").replace(")", r"\)")):
            table[probe[0]][probe[1]][probe[2]]
    again = pickle.loads(pickle.dumps(table))
    assert again[0]["a"][PLAYERS[1]] == flat[(0, "a", PLAYERS[1])] and again[0].depth == 2
    with pytest.raises(RuleRuntimeError, match=r"has no index \(0, 'a', 9\)"):
        again[0]["a"][9]
    assert nested(flat, 1) is flat


CLAMPS = """
components: {}
zones: {}
counters:
  fixed: {initial: 2, min: 0, max: 5}
  floor: {per: [player], initial: 1, min: 0}
  ruled: {initial: 2, min: "0 * player_count", max: "5 + 0 * player_count"}
variables:
  seen: {initial: []}
flow:
  rounds: 1
  phases:
    - id: p
      do: |
        for v in [-3, 9, 4, 0, 6]:
          fixed = v
          ruled = v
          floor[players[1]] = v
          seen = seen + [[fixed, ruled, floor[players[1]]]]
        fixed += 10
        ruled += 10
        floor[players[0]] -= 10
        seen = seen + [[fixed, ruled, floor[players[0]]]]
"""


def test_counters_with_number_bounds_clamp_as_set_counter_does(tmp_path):
    """A counter whose min/max are numbers is clamped by generated code (compiler.s_Assign);
    one whose bounds are expressions goes through State.set_counter: the same values."""
    S = load(tmp_path, CLAMPS).new_game(2, seed=1)
    assert S.vars["seen"] == [[0, 0, 0], [5, 5, 9], [4, 4, 4], [0, 0, 0], [5, 5, 6], [5, 5, 0]]
