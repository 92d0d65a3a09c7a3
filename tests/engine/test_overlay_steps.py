"""House rules that add a step before/after a named step of a block, and sizes read from tables
so that one change resizes a board."""
from __future__ import annotations

from interpreter.game import Game

from .helpers import write_game

BASE = """
tables: {size: 3}
boards:
  board: {grid: {width: size, height: size}}
counters:
  points: {per: [player]}
variables:
  trail: {initial: "[]"}
flow:
  rounds: 1
  phases:
    - id: main
      turns: seat
      turn:
        - id: draw
          do: "trail = trail + ['draw']"
        - id: score
          do: |
            trail = trail + ['score']
            points[player] += 1
scoring:
  score: "points[player]"
"""


def test_a_block_of_named_steps_runs_in_order(tmp_path):
    state = Game.load(write_game(tmp_path, BASE)).new_game(players=2, seed=1)
    assert state.vars["trail"] == ["draw", "score", "draw", "score"]


def test_an_overlay_adds_a_step_after_a_named_step_and_resizes_the_board_in_one_place(tmp_path):
    write_game(tmp_path, BASE)
    variant = tmp_path / "variant.yaml"
    variant.write_text("""
extends: game.yaml
changes:
  - add: flow.phases.main.turn.bonus
    after: draw
    value: {do: "trail = trail + ['bonus']"}
  - add: flow.phases.main.turn.warm_up
    before: draw
    value: {do: "trail = trail + ['warm']"}
  - replace: tables.size
    value: 5
""", encoding="utf-8")
    game = Game.load(tmp_path / "game.yaml", [variant])
    state = game.new_game(players=2, seed=1)
    assert state.vars["trail"][:4] == ["warm", "draw", "bonus", "score"]
    assert len(game.d.boards["board"].nodes) == 25


def test_a_step_anchor_that_does_not_exist_is_located_with_a_suggestion(tmp_path):
    from interpreter.errors import RulebookError, flatten
    write_game(tmp_path, BASE)
    variant = tmp_path / "variant.yaml"
    variant.write_text("""extends: game.yaml
changes:
  - add: flow.phases.main.turn.bonus
    after: drow
    value: {do: "trail = trail + ['bonus']"}
""", encoding="utf-8")
    try:
        Game.load(tmp_path / "game.yaml", [variant])
    except RulebookError as exc:
        messages = [str(e) for e in flatten([exc])]
    else:
        raise AssertionError("the bad anchor was accepted")
    assert any("variant.yaml:3:" in m and 'no element "drow"' in m and "draw" in m for m in messages)
