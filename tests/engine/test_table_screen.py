"""What a person at the terminal sees: boards drawn whole and the right way up, owners marked,
values written as the DSL writes them, counters grouped by player, help, the end of the game."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.errors import RuleRuntimeError
from interpreter.game import Game
from interpreter.render import dsl_text, grid_lines

from .helpers import load

ROOT = Path(__file__).resolve().parents[2]
DROP = ROOT / "tests" / "fixtures" / "table" / "drop_four.yaml"


def test_a_declared_grid_is_drawn_whole_counted_from_its_origin_with_row_one_at_the_bottom():
    lines = grid_lines([[0, 0, "disc", 0], [0, 1, "disc", 1]],
                       {"width": 3, "height": 2, "origin": 1, "y_up": True})
    assert lines[0].split() == ["1", "2", "3"]
    assert lines[1].split() == ["2", "disc2", ".", "."]   # the top row is y = 1, shown as 2
    assert lines[2].split() == ["1", "disc1", ".", "."]


def test_an_undeclared_grid_shows_the_occupied_area_from_zero():
    lines = grid_lines([[2, 5, "tile", None]])
    assert lines[0].split() == ["2"]
    assert lines[1].split() == ["5", "tile"]


def test_grid_sizes_may_come_from_tables_and_placing_outside_is_refused(tmp_path):
    game = load(tmp_path, """
tables: {size: 2}
components:
  stone: {start: pile, items: [{id: stone, count: 3}]}
zones:
  pile: {}
  board: {grid: {width: size, height: size}}
flow:
  rounds: 1
  phases:
    - id: place
      turns: seat
      turn: |
        choose x from [0, 1, 5] by player
        move top(pile) to board at (x, 0)
scoring:
  score: "0"
""")
    state = game.new_game(players=2, seed=1)
    state.apply(0, 0)
    with pytest.raises(RuleRuntimeError, match=r"outside .*2×2 grid"):
        state.apply(1, 2)


def test_a_bounding_box_limit_is_enforced_when_placing(tmp_path):
    game = load(tmp_path, """
components:
  stone: {start: pile, items: [{id: stone, count: 3}]}
zones:
  pile: {}
  area: {grid: {max_width: 2, max_height: 1}}
flow:
  rounds: 1
  phases:
    - id: place
      turns: seat
      turn: |
        choose x from [0, 1, 60] by player
        move top(pile) to area at (x, 0)
scoring:
  score: "0"
""")
    state = game.new_game(players=2, seed=1)
    state.apply(0, 0)
    with pytest.raises(RuleRuntimeError, match="wider than its bounds"):
        state.apply(1, 2)


def test_values_are_written_the_way_the_dsl_writes_them():
    assert dsl_text(True) == "true"
    assert dsl_text(None) == "none"
    assert dsl_text([1, False, "x"]) == "[1, false, x]"


def test_internal_variables_stay_off_the_screen_and_own_hands_are_not_called_face_down(tmp_path):
    game = load(tmp_path, """
components:
  card: {face: down, start: deck, items: [{id: a}, {id: b}, {id: c}, {id: d}]}
zones:
  deck: {ordered: true, visibility: hidden}
  hand: {per: [player], visibility: owner}
  played: {per: [player], face: down, visibility: {face_up: all, face_down: owner}}
variables:
  took: {initial: "false", internal: true}
  leader: {initial: none}
setup:
  - id: deal
    do: |
      deal 1 from deck to hand
      move top(deck) to played[0]
flow:
  rounds: 1
  phases:
    - id: pick
      turns: seat
      turn: "choose c from hand[player] by player"
scoring:
  score: "0"
""")
    view = game.new_game(players=2, seed=1).view(0)
    assert "took" not in view["variables"] and "leader" in view["variables"]
    own = view["zones"]["hand:0"][0]
    assert "face_down" not in own and not own.get("hidden")
    assert view["zones"]["played:0"][0]["face_down"] is True  # face down where others would see it face up


def _play_as_human(answers: str) -> str:
    run = subprocess.run([sys.executable, "-m", "interpreter", "play", str(DROP), "--agents", "human,first",
                          "--seed", "1"], input=answers, capture_output=True, text=True, timeout=120,
                         env={"COLUMNS": "120", "PATH": "/usr/bin:/bin", "TERM": "dumb"})
    assert run.returncode == 0, run.stderr
    return run.stdout


def test_help_key_lists_the_keys_and_the_options_and_the_end_of_the_game_is_shown():
    out = _play_as_human("?\n" + "1\n" * 21)
    assert "undo your last pick" in out and "column 7" in out      # the help, then the options
    after_last_prompt = out.rsplit("P1: ", 1)[1]
    assert "P2 chooses column" in after_last_prompt                # the log after the last decision
    assert "board (map)" in after_last_prompt                      # the final position
    assert after_last_prompt.index("board (map)") < after_last_prompt.index("final")


def test_counters_are_grouped_by_player(tmp_path):
    from interpreter.render import _counter_rows
    view = {"counters": {"money:0": 3, "money:1": 5, "pot": 2},
            "counter_labels": {"money:0": "money [P1]", "money:1": "money [P2]", "pot": "pot"}}
    per_player, others = _counter_rows(view)
    assert per_player == {"money": {0: 3, 1: 5}}
    assert others == ["pot = 2"]


def test_a_graph_board_is_shown_place_by_place_with_neighbours_and_what_is_there(tmp_path, capsys):
    from interpreter.render import print_view
    game = load(tmp_path, """
boards:
  streets:
    nodes:
      harbour: {label: Harbour}
      market: {label: Market}
      hill: {label: Hill}
    edges:
      - {between: [harbour, market]}
      - {between: [market, hill]}
components:
  cart: {per_player: true, start: yard, items: [{id: cart}]}
zones:
  yard: {per: [player]}
  street: {per: [{board: streets}, player]}
setup:
  - id: carts
    do: |
      move yard[0] to street["market", players[0]]
      move yard[1] to street["hill", players[1]]
flow:
  rounds: 1
  phases:
    - {id: p, turns: seat, turn: "choose x from [1, 2] by player"}
scoring:
  score: "0"
""")
    view = game.new_game(players=2, seed=1).view(0)
    places = {p["label"]: p for p in view["board_places"]["streets"]}
    assert places["Market"]["neighbors"] == ["Harbour", "Hill"]
    assert places["Hill"]["zones"] == ["street:hill:1"] and places["Harbour"]["zones"] == []
    print_view(view, 0)
    out = capsys.readouterr().out
    market_row = next(line for line in out.splitlines() if line.startswith("│ Market"))
    assert "street P1: cart" in market_row
    assert "street [Market" not in out  # not listed a second time as a flat zone
