"""`rulebook serve` refuses bad input with exit 1 (or 2 for usage) before touching the database."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from interpreter.cli import main

from .conftest import TTT


@pytest.mark.parametrize("args, code, words", [
    (["/no/such/game.yaml"], 1, "no such file"),
    ([TTT, "--seats", "human,radnom"], 1, 'did you mean "random"'),
    ([TTT, "--seats", "random,random"], 1, "at least one human"),
    ([TTT, "--seats", "human,human,human"], 1, "3 seats for 2 players"),
    ([TTT, "--seats", "human,mcts:8,deep=3"], 1, 'unknown agent setting "deep"'),
    ([TTT, "--seats", "human,random,depth=3"], 1, "a setting of mcts and ismcts"),
    ([TTT, "--players", "5"], 1, "not 5"),
    ([TTT, "--option", "nope=1"], 1, "unknown option"),
    ([], 2, "give a rule file"),
])
def test_bad_setups_are_refused_and_nothing_is_written(tmp_path, args, code, words):
    db = tmp_path / "games.sqlite3"
    result = CliRunner().invoke(main, ["serve", *args, "--db", str(db)])
    assert result.exit_code == code, result.output
    assert words in result.output
    assert not db.exists()


def test_a_replay_of_a_missing_log_is_refused(tmp_path):
    result = CliRunner().invoke(main, ["serve", "--replay", str(tmp_path / "none.json")])
    assert result.exit_code == 1 and "no such log file" in result.output


def test_seat_settings_stay_with_their_agent_as_the_command_line_splits_them():
    """`--seats human,ismcts:20,depth=3,c=0.5` is two seats: the settings belong to ismcts."""
    from interpreter.web.sessions import _seat_kinds, check_setup

    seats = "human,ismcts:20,depth=3,c=0.5".split(",")
    check_setup(TTT, [], None, {}, 1, seats)
    assert _seat_kinds(seats, 2) == ["human", "ismcts:20,depth=3,c=0.5"]
    assert _seat_kinds(["mcts:8,depth=2", "human"], 2) == ["mcts:8,depth=2", "human"]  # the JSON API's list
