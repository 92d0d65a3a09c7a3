"""game_over(), game_winners(), game_scores(): the outcome readable from the DSL."""
from __future__ import annotations

import textwrap

from interpreter.builtins import load_all
from interpreter.game import Game

GAME = """
game: {id: t, name: T, players: {min: 2, max: 4}}
counters:
  points: {per: [player], initial: 0}
components:
  token:
    start: pool
    items: [{id: t, count: 6}]
zones:
  pool: {}
  mine: {per: [player]}
flow:
  rounds: 1
  phases:
    - id: take
      turns: seat
      turn: |
        choose n from [0, 1, 2] prompt "How many?"
        points[player] += n
scoring:
  score: points[player]
"""


def load(tmp_path, text):
    path = tmp_path / "game.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return Game.load(path)


def play_first(S):
    while not S.is_terminal():
        S.apply(S.current_players()[0], 0)
    return S


def test_registered():
    reg = load_all()
    for name in ("game_over", "game_winners", "game_scores"):
        assert name in reg and reg[name].min_args == 0 and reg[name].max_args == 0


def test_provisional_then_final(tmp_path):
    game = load(tmp_path, GAME)
    reg = load_all()
    S = game.new_game(3, {}, 1)
    assert reg["game_over"].fn(S) is False
    # nobody has scored: everyone is tied, which would be a draw (no winner) if the game ended now
    assert reg["game_scores"].fn(S) == [0, 0, 0]
    assert reg["game_winners"].fn(S) == []
    S.apply(S.current_players()[0], 2)   # P1 takes 2
    assert reg["game_scores"].fn(S) == [2, 0, 0]
    assert reg["game_winners"].fn(S) == [0]
    S.apply(S.current_players()[0], 2)   # P2 takes 2: a tie
    S.apply(S.current_players()[0], 0)
    assert S.is_terminal()
    assert reg["game_over"].fn(S) is True
    assert reg["game_scores"].fn(S) == [2, 2, 0]
    assert reg["game_winners"].fn(S) == [0, 1] == S.winners()


def test_usable_in_rule_code(tmp_path):
    game = load(tmp_path, GAME.replace('points[player] += n', 'points[player] += n\n        log "{game_over()} {game_winners()}"'))
    S = play_first(game.new_game(2, {}, 1))
    assert S.is_terminal()
