"""Decks from suits × ranks: `generate` makes one item per combination, with templates and
computed attributes, and reports bad templates at their position."""
from __future__ import annotations

from pathlib import Path

from interpreter.game import Game

from .helpers import errors_of, load

DECK = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "table" / "deck52.yaml"


def test_a_52_card_deck_from_two_tables():
    state = Game.load(DECK).new_game(players=2, seed=1)
    cards = [state.lay.static[p] for p in range(len(state.lay.pieces))]
    assert len(cards) == 52
    names = {c["name"] for c in cards}
    assert len(names) == 52 and "hearts_10" in names and "spades_a" in names
    ace = next(c for c in cards if c["name"] == "spades_a")
    assert ace["value"] == 14 and ace["rank"] == "A" and ace["suit"] == "spades" and ace["red"] is False
    two = next(c for c in cards if c["name"] == "diamonds_2")
    assert two["value"] == 2 and two["red"] is True and two["label"] == "2 of diamonds"
    assert two["labels"] == {"pt": "2 de diamonds"}


GEN = """
components:
  card:
    start: pile
    generate:
      each: {colour: [red, blue], n: [1, 2, 3]}
      id: "{colour}_{n}"
      count: 2
zones:
  pile: {}
flow:
  rounds: 1
  phases:
    - {id: nothing, do: "log 'done'"}
scoring:
  score: "0"
"""


def test_first_name_varies_slowest_and_count_copies_each(tmp_path):
    state = load(tmp_path, GEN).new_game(players=2, seed=1)
    names = [state.lay.static[p]["name"] for p in range(len(state.lay.pieces))]
    assert names == ["red_1", "red_1", "red_2", "red_2", "red_3", "red_3",
                     "blue_1", "blue_1", "blue_2", "blue_2", "blue_3", "blue_3"]


def test_a_template_naming_an_unknown_name_is_located(tmp_path):
    errors = errors_of(tmp_path, GEN.replace('id: "{colour}_{n}"', 'id: "{color}_{n}"'))
    assert len(errors) == 1
    assert ":12:11:" in errors[0] and "{colour}, {n}" in errors[0]


def test_an_id_that_starts_with_a_digit_is_refused_with_a_fix(tmp_path):
    errors = errors_of(tmp_path, GEN.replace('id: "{colour}_{n}"', 'id: "{n}_{colour}"'))
    assert len(errors) == 1 and '"1_red" is not a valid id' in errors[0]


def test_an_unknown_table_is_located(tmp_path):
    errors = errors_of(tmp_path, GEN.replace("n: [1, 2, 3]", "n: numbers"))
    assert len(errors) == 1 and '"numbers" is not a table' in errors[0] and ":11:38:" in errors[0]
