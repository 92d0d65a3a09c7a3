"""tools/bench_speed.py's games table (issue 12): this checkout plays in the form `rulebook
simulate` would choose (lab/execution.py in `auto` mode), and the generated form plays the
engine's games (same seeds, same draws: the same number of decisions), so that the table's
after ÷ before compares the same games."""
from __future__ import annotations

import sys
from pathlib import Path

from interpreter.game import Game
from interpreter.lab.execution import SHORT_RUN

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import bench_speed as bs  # noqa: E402  (a script in tools/)

TIC_TAC_TOE = str(ROOT / "rules" / "tic_tac_toe" / "game.yaml")


def test_a_long_run_is_played_by_the_generated_program():
    start = bs._simulate_start(TIC_TAC_TOE, 2, {}, 10 ** 6)
    assert start["form"] == "transpiled" and start["why"] == ""
    assert start["cpu"] > 0


def test_a_short_run_is_left_to_the_engine_as_simulate_leaves_it():
    start = bs._simulate_start(TIC_TAC_TOE, 2, {}, 2)
    assert start["form"] == "engine"
    assert f"under {SHORT_RUN:g} s" in start["why"]


def test_the_generated_games_are_the_engines():
    game = Game.load(TIC_TAC_TOE)
    seeds = range(40)
    generated = bs._transpiled_games(game, TIC_TAC_TOE, 2, {}, seeds)
    assert generated["form"] == "generated" and generated["fell_back"] == 0
    per_seed = [bs._engine_game(game, 2, {}, seed) for seed in seeds]
    assert generated["decisions"] == sum(per_seed)
    assert len(set(per_seed)) > 1  # games of different lengths: not a constant count


def test_the_games_table_says_which_form_played():
    row = {"file": "rules/x/game.yaml", "players": 2, "base_gps": 10.0, "new_gps": 40.0, "speedup": 4.0,
           "round_ratios": [3.5, 4.5], "start_ms": 100.0, "run_games": 1000, "speedup_run": 3.9,
           "form": "generated"}
    header, _, line = bs._games_table([row])
    assert "after played by" in header and "start (ms CPU)" in header
    assert line == "| rules/x/game.yaml | 2 | 10.0 | 40.0 | 4.00× | 3.50–4.50 | 100 | 3.90× (1000) | generated |"


def test_same_files_reads_every_rule_file_from_the_other_checkout(tmp_path):
    """`--same-files`: the worker of this checkout plays the other checkout's version of the
    file (here a tic-tac-toe on five cells: no game can last more than five decisions)."""
    small = tmp_path / "rules" / "tic_tac_toe" / "game.yaml"
    small.parent.mkdir(parents=True)
    text = Path(TIC_TAC_TOE).read_text()
    assert "cells: [0, 1, 2, 3, 4, 5, 6, 7, 8]" in text
    small.write_text(text.replace("cells: [0, 1, 2, 3, 4, 5, 6, 7, 8]", "cells: [0, 1, 2, 3, 4]"))
    own, other = bs.Worker(ROOT), bs.Worker(ROOT, files_from=tmp_path)
    try:
        task = {"kind": "games", "file": "rules/tic_tac_toe/game.yaml", "players": 2, "games": 20, "seed": 0}
        assert other.ask(**task)["decisions"] <= 5 * 20
        assert own.ask(**task)["decisions"] > 5 * 20  # random tic-tac-toe games mostly run past five marks
    finally:
        own.close()
        other.close()


def test_an_mcts_row_takes_the_option_its_player_count_needs():
    assert bs._mcts_options("dogs_day", {}, 4) == {}
    assert bs._mcts_options("dogs_day", {}, 2) == {"two_players": True}
    assert bs._mcts_options("dogs_day", {}, 9) is None
    assert bs._mcts_options("chicago_poker", {"no_special_cards": True}, 4) == {"no_special_cards": True}
