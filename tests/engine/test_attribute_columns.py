"""Piece attributes read from a zone's elements come from per-attribute columns of the layout
(codegen + layout.AttrColumns): the values must be those of the items, none where an item has
no such attribute, the same as reading them from a piece held in a plain list."""
from __future__ import annotations

from .helpers import load

GAME = """
components:
  card:
    start: pile
    items:
      - {id: ace, rank: 1, suit: hearts}
      - {id: two, rank: 2, suit: spades}
      - {id: joker}
zones:
  pile: {}
variables:
  from_zone: {initial: none}
  from_list: {initial: none}
  counted: {initial: 0}
flow:
  rounds: 1
  phases:
    - id: p
      do: |
        from_zone = [[c.name, c.rank, c.suit] for c in pile]
        let copy = concat(pile, [])
        from_list = [[c.name, c.rank, c.suit] for c in copy]
        counted = count(pile, c => c.suit == "spades") + sum(pile, c => c.rank if c.rank != none else 10)
"""


def test_zone_elements_read_their_own_attributes(tmp_path):
    S = load(tmp_path, GAME).new_game(2, seed=3)
    assert S.is_terminal()
    assert sorted(S.vars["from_zone"]) == [["ace", 1, "hearts"], ["joker", None, None], ["two", 2, "spades"]]


def test_zone_and_plain_list_reads_agree(tmp_path):
    S = load(tmp_path, GAME).new_game(2, seed=3)
    assert S.vars["from_zone"] == S.vars["from_list"]
    assert S.vars["counted"] == 1 + (1 + 2 + 10)
