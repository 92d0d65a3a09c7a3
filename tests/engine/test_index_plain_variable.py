"""A variable without `per:` that holds a list or a map can be indexed like any value."""
from __future__ import annotations

from .helpers import errors_of, load

GAME = """
variables:
  names: {initial: "['a', 'b', 'c']"}
  table: {per: [player], initial: 0}
  picked: {initial: none}
flow:
  rounds: 1
  phases:
    - id: p
      do: |
        picked = names[1] + names[2]
"""


def test_plain_variable_holding_a_list_can_be_indexed(tmp_path):
    S = load(tmp_path, GAME).new_game(2)
    assert S.is_terminal()
    assert S.vars["picked"] == "bc"


def test_per_player_variable_still_takes_its_index(tmp_path):
    errors = errors_of(tmp_path, GAME.replace("names[1] + names[2]", "table[0, 1]"))
    assert any("takes 1 index" in e for e in errors), errors
