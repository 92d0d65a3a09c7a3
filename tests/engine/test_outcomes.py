"""Outcomes: one winner, a shared win, or a draw (nobody wins) — three distinct results."""
from __future__ import annotations

from interpreter.scoring import outcome_of

from .helpers import load

# Each player in turn picks how many points to take; scores decide the winner.
PICK = """
counters:
  points: {per: [player]}
flow:
  rounds: 1
  phases:
    - id: pick
      turns: seat
      turn: |
        choose n from [0, 1, 2] by player
        points[player] += n
scoring:
  score: "points[player]"
"""


def _play(tmp_path, body, picks, players=2):
    state = load(tmp_path, body).new_game(players=players, seed=1)
    for choice in picks:
        state.apply(state.current_players()[0], choice)
    assert state.is_terminal()
    return state


def test_a_single_best_score_is_a_win(tmp_path):
    state = _play(tmp_path, PICK, [2, 1])
    assert state.winners() == [0]
    assert outcome_of(state.winners()) == "win"


def test_everyone_tied_is_a_draw_by_default(tmp_path):
    state = _play(tmp_path, PICK, [1, 1])
    assert state.winners() == []
    assert outcome_of(state.winners()) == "draw"


def test_everyone_tied_shares_the_win_when_the_file_says_so(tmp_path):
    body = PICK + "  all_tied: shared\n"
    state = _play(tmp_path, body, [1, 1])
    assert state.winners() == [0, 1]
    assert outcome_of(state.winners()) == "shared"


def test_some_players_tied_for_best_share_the_win(tmp_path):
    state = _play(tmp_path, PICK, [2, 2, 0], players=3)
    assert state.winners() == [0, 1]
    assert outcome_of(state.winners()) == "shared"


def test_a_tiebreak_separates_tied_scores(tmp_path):
    body = PICK + '  tiebreak: ["0 - index_of(players, player)"]\n'
    state = _play(tmp_path, body, [1, 1])
    assert state.winners() == [0]


def test_an_explicit_empty_winner_list_is_a_draw(tmp_path):
    body = PICK.replace('  score: "points[player]"', '  score: "points[player]"\n  winners: "[]"')
    state = _play(tmp_path, body, [2, 0])
    assert state.winners() == []
    assert outcome_of(state.winners()) == "draw"
