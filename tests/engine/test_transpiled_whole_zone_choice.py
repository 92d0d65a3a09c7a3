"""A choice among a zone's whole list that shows both faces to the chooser (visibility all, or
owner where the chooser owns it; plain_looks.seen_whole) is written as the list itself when
every piece in it is alone of its kind, else the usual options: the engine's options and games
exactly, and the form written only where the chooser sees both faces."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from interpreter.game import Game
from interpreter.transpile import transpile
from interpreter.transpile.compare import differing_seeds

GAME = """
game: {id: t, name: T, players: {min: 2, max: 4}}
components:
  gem:
    kind: token
    items:
      - {id: gem_1, value: 1, count: 4}
      - {id: gem_2, value: 2, count: 4}
  card:
    kind: card
    items:
      - {id: c1, rank: 1}
      - {id: c2, rank: 2}
      - {id: c3, rank: 3}
      - {id: c4, rank: 4}
      - {id: c5, rank: 5}
      - {id: c6, rank: 6}
      - {id: c7, rank: 7}
      - {id: c8, rank: 8}
      - {id: c9, rank: 9}
      - {id: c10, rank: 10}
      - {id: c11, rank: 11}
      - {id: c12, rank: 12}
      - {id: c13, rank: 13}
      - {id: c14, rank: 14}
      - {id: c15, rank: 15}
      - {id: c16, rank: 16}
      - {id: c17, rank: 17}
      - {id: c18, rank: 18}
      - {id: c19, rank: 19}
      - {id: c20, rank: 20}
      - {id: c21, rank: 21}
zones:
  deck: {ordered: true, visibility: hidden}
  hand: {per: [player], visibility: owner}
  shown: {per: [player], visibility: {face_up: all, face_down: none}}
  table: {visibility: public}
  supply: {visibility: {face_up: all, face_down: all}}
  purse: {per: [player], visibility: owner}
counters:
  points: {initial: 0}
setup:
  - id: s
    do: |
      move pieces(card) to deck
      shuffle deck
      move pieces(gem) to supply
      for p in players:
        draw 3 from deck to hand[p]
        draw 2 from deck to shown[p] face down
flow:
  rounds: 3
  phases:
    - id: play
      turns: seat
      turn: |
TURN
scoring:
  score: "count(purse[player]) + count(table)"
"""

TURN = """
choose c from hand[player] prompt "Card"
move c to table
if count(supply) > 0:
  choose g from supply prompt "Gem"
  move g to purse[player]
if count(purse[player]) > 0:
  choose g from purse[player] prompt "Give back"
  move g to supply
choose s from shown[player] prompt "Peek"
if count(table) > 2:
  choose t from table prompt "Take"
  move t to hand[player]
"""


def write(tmp_path: Path, turn: str = TURN) -> Path:
    path = tmp_path / "game.yaml"
    path.write_text(GAME.replace("TURN", textwrap.indent(turn.strip("\n"), " " * 8)), encoding="utf-8")
    Game.load(path)  # a valid rule file
    return path


@pytest.mark.parametrize("players", [2, 3, 4])
def test_whole_zone_choices_play_the_engines_games(tmp_path, players):
    assert differing_seeds(write(tmp_path), players, None, range(25)) == []


def test_the_list_is_offered_only_where_the_chooser_sees_both_faces(tmp_path):
    source = transpile(write(tmp_path), 3)
    whole = [line.strip() for line in source.splitlines() if "SINGULAR.__getitem__" in line]
    # the own hand, the supply (both faces shown to all) and the own purse (gems: not alone of
    # their kind, so the usual options at run time); not the own shown cards (face down: hidden
    # from everyone) nor the public table (a face-down piece there is hidden)
    assert any("list(z_hand[" in line for line in whole)
    assert any("list(z_supply)" in line for line in whole)
    assert any("list(z_purse[" in line for line in whole)
    assert not any("z_shown" in line or "z_table" in line for line in whole)
