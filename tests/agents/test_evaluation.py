"""The rule file's `agents:` section: checked at load, and the evaluation agents read from it."""
from __future__ import annotations

import pytest

from interpreter.agents.evaluation import Evaluation, heuristic
from interpreter.errors import RulebookError, flatten

from .games import GAIN, load


def load_errors(tmp_path, body: str) -> list[str]:
    try:
        load(tmp_path, body)
    except RulebookError as exc:
        return [str(e) for e in flatten([exc])]
    return []


def test_the_evaluation_defaults_to_the_score(tmp_path):
    game = load(tmp_path, GAIN % {"extra": ""})
    S = game.new_game(2, seed=1)
    S.apply(0, S.option_labels(0).index("gain"))
    assert heuristic(S) == [1.0, 0.0]


def test_the_evaluation_expression_replaces_the_score(tmp_path):
    game = load(tmp_path, GAIN % {"extra": 'agents:\n  evaluate: "10 - 3 * points[player]"'})
    S = game.new_game(2, seed=1)
    S.apply(0, S.option_labels(0).index("gain"))
    assert heuristic(S) == [7.0, 10.0]


def test_rewards_before_the_end_favour_the_leader_and_sum_to_even_at_a_tie(tmp_path):
    game = load(tmp_path, GAIN % {"extra": ""})
    S = game.new_game(2, seed=1)
    tied = Evaluation().rewards(S)
    assert tied[0] == tied[1] == 0.5
    S.apply(0, S.option_labels(0).index("gain"))
    ahead, behind = Evaluation().rewards(S)
    assert ahead > 0.5 > behind


def test_rewards_at_the_end_are_the_win_share(tmp_path):
    game = load(tmp_path, GAIN % {"extra": ""})
    S = game.new_game(2, seed=1)
    while not S.over:
        p = S.current_players()[0]
        S.apply(p, S.option_labels(p).index("gain" if p == 0 else "wait"))
    winner, loser = Evaluation(score_weight=0).rewards(S)
    assert (winner, loser) == (1.0, 0.0)


def test_an_unknown_name_in_the_evaluation_is_a_load_error_with_its_position(tmp_path):
    errors = load_errors(tmp_path, GAIN % {"extra": 'agents:\n  evaluate: "pointz[player]"'})
    assert len(errors) == 1
    assert ":17:14:" in errors[0] and "pointz" in errors[0] and 'did you mean "points"' in errors[0]


def test_an_unknown_key_in_the_agents_section_is_a_schema_error(tmp_path):
    errors = load_errors(tmp_path, GAIN % {"extra": 'agents:\n  evalute: "points[player]"'})
    assert errors and "evalute" in errors[0] and "evaluate" in errors[0]


def test_an_evaluation_that_is_not_a_number_is_reported(tmp_path):
    game = load(tmp_path, GAIN % {"extra": 'agents:\n  evaluate: "[1, 2]"'})
    with pytest.raises(RulebookError, match="evaluation must be a number"):
        heuristic(game.new_game(2, seed=1))


def test_a_house_rule_can_set_the_evaluation(tmp_path):
    """The `agents:` section is data like any other: an overlay adds or replaces it."""
    base = load(tmp_path, GAIN % {"extra": ""})
    assert base.d.agent_evaluate is None
    variant = tmp_path / "cautious.yaml"
    variant.write_text('extends: game.yaml\nchanges:\n  - add: agents\n    value: {evaluate: "0 - points[player]"}\n',
                       encoding="utf-8")
    from interpreter.game import Game
    game = Game.load(tmp_path / "game.yaml", [variant])
    S = game.new_game(2, seed=1)
    S.apply(0, S.option_labels(0).index("gain"))
    assert heuristic(S) == [-1.0, 0.0]


def test_a_draw_is_worth_an_even_share(tmp_path):
    game = load(tmp_path, GAIN % {"extra": ""})  # all tied at the end: a draw (no winner)
    S = game.new_game(2, seed=1)
    while not S.over:
        p = S.current_players()[0]
        S.apply(p, S.option_labels(p).index("wait"))
    assert S.winners() == []
    assert Evaluation(score_weight=0).rewards(S) == [0.5, 0.5]
