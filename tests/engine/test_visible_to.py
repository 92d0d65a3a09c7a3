"""visible_to(piece, p): whether player p sees a piece's face (zone visibility, reveal … to)."""
from __future__ import annotations

from .helpers import errors_of, load

GAME = """
components:
  card:
    start: deck
    items: [{id: a}, {id: b}]
zones:
  deck: {ordered: true, visibility: hidden}
  hand: {per: [player], visibility: owner}
variables:
  seen: {initial: "[]"}
setup:
  - id: deal
    do: "deal 1 from deck to hand"
flow:
  rounds: 1
  phases:
    - id: p
      do: |
        seen = seen + [[visible_to(top(hand[0]), 0), visible_to(top(hand[0]), 1)]]
        reveal hand[0] to players
        seen = seen + [[visible_to(top(hand[0]), 0), visible_to(top(hand[0]), 1)]]
"""


def test_visible_to_follows_zone_visibility_and_reveal(tmp_path):
    S = load(tmp_path, GAME).new_game(2)
    assert S.vars["seen"] == [[True, False], [True, True]]


def test_visible_to_needs_the_player(tmp_path):
    errors = errors_of(tmp_path, GAME.replace("visible_to(top(hand[0]), 0),", "visible_to(top(hand[0])),", 1))
    assert any("visible_to() takes 2 arguments" in e for e in errors), errors
