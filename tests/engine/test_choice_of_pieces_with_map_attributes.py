"""Offering pieces whose mutable attribute holds a map (a table row) or a list.

Identical visible pieces in one unordered zone are offered once; the key that compares them
includes the pieces' mutable attributes, which may hold maps and lists (not hashable in Python).
"""
from __future__ import annotations

from .helpers import load

GAME = """
tables:
  steps: [{take: 1, source: bank}, {take: 2, source: bank}]
components:
  card:
    start: hand
    mutable: {step: none, seen: "[]"}
    items: [{id: a}, {id: b}, {id: c}]
zones:
  hand: {visibility: public}
  pile: {visibility: public}
setup:
  - id: mark
    do: |
      for c in hand:
        if c.name != "c":
          c.step = steps[0]
          c.seen = [1, [2, 3]]
flow:
  rounds: 1
  phases:
    - id: p
      turns: seat
      turn: |
        choose c from hand prompt "Pick a card"
        move c to pile
"""


def test_pieces_with_map_and_list_attributes_can_be_offered(tmp_path):
    S = load(tmp_path, GAME).new_game(2)
    labels = S.option_labels(S.current_players()[0])
    assert sorted(labels) == ["a", "b", "c"]


def test_equal_map_attributes_still_compare_equal(tmp_path):
    # two cards of one name with the same map attribute are one option
    body = GAME.replace("items: [{id: a}, {id: b}, {id: c}]", "items: [{id: a, count: 2}, {id: c}]")
    S = load(tmp_path, body).new_game(2)
    assert sorted(S.option_labels(S.current_players()[0])) == ["a", "c"]
