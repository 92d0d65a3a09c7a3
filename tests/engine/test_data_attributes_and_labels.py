"""Structured item attributes (effects as data) and distinct labels for look-alike options."""
from __future__ import annotations

from .helpers import errors_of, load, play_first

EFFECTS = """
components:
  card:
    per_player: true
    start: table
    steps: []
    items:
      - {id: miner, steps: [{gain: 2, note: dig}, {gain: 1, note: rest}]}
      - {id: idler}
zones:
  table: {}
counters:
  gold: {per: [player]}
flow:
  rounds: 1
  phases:
    - id: work
      do: |
        for c in table:
          for s in c.steps:
            gold[c.owner] += s.gain
scoring:
  score: gold[player]
"""


def test_keys_of_maps_nested_in_item_attributes_are_known(tmp_path):
    game = load(tmp_path, EFFECTS)
    S = play_first(game.new_game(2, seed=1))
    assert S.returns() == [3, 3]


def test_an_unknown_nested_key_is_still_an_error(tmp_path):
    errors = errors_of(tmp_path, EFFECTS.replace("s.gain", "s.gian"))
    assert any('unknown attribute "gian"' in e for e in errors)


LOOKALIKES = """
components:
  card:
    per_player: true
    start: row
    items:
      - {id: twin, label: Twin}
zones:
  row: {}
flow:
  rounds: 1
  phases:
    - id: pick
      turns: seat
      turn: |
        choose c from row prompt "Pick a card"
"""


def test_look_alike_visible_options_get_their_owner(tmp_path):
    game = load(tmp_path, LOOKALIKES)
    S = game.new_game(3, seed=1)
    labels = S.option_labels(S.current_players()[0])
    assert labels == ["Twin (P1)", "Twin (P2)", "Twin (P3)"]


def test_distinct_labels_are_left_alone(tmp_path):
    game = load(tmp_path, LOOKALIKES.replace("per_player: true", "per_player: false").replace(
        "- {id: twin, label: Twin}", "- {id: one}\n      - {id: two}"))
    S = game.new_game(2, seed=1)
    assert S.option_labels(S.current_players()[0]) == ["one", "two"]
