"""Authoring slips caught at load with the fix in the message (not mid-game, not with internal names)."""
from __future__ import annotations

from click.testing import CliRunner

from interpreter.cli import main

from .helpers import errors_of, write_game

CARDS = """
components:
  card: {start: deck, items: [{id: a, count: 10}]}
zones:
  deck: {ordered: true, visibility: hidden}
  hand: {per: [player], visibility: owner}
  played: {per: [player]}
  discard: {}
counters:
  tricks: {per: [player]}
scoring:
  score: "0"
flow:
  rounds: 1
  phases:
    - id: p
      turns: seat
      turn: |
"""


def _errors(tmp_path, body: str) -> list[str]:
    return errors_of(tmp_path, CARDS + "".join(f"        {line}\n" for line in body.strip().split("\n")))


def test_a_misspelt_counter_names_the_counter_and_suggests_the_right_one(tmp_path):
    errors = _errors(tmp_path, "trick[player] += 1")
    assert len(errors) == 1
    assert 'unknown counter or variable "trick"' in errors[0] and 'did you mean "tricks"' in errors[0]


def test_a_single_equals_in_a_condition_suggests_double_equals(tmp_path):
    errors = _errors(tmp_path, 'if player = 0:\n  log "x"')
    assert len(errors) == 1 and 'write "=="' in errors[0]


def test_over_indentation_points_at_the_indented_line(tmp_path):
    errors = _errors(tmp_path, 'log "a"\n  log "b"')
    assert len(errors) == 1 and "unexpected indentation" in errors[0]
    assert ":25:11:" in errors[0]  # the second line of the block, at its first character


def test_moving_a_whole_per_player_family_is_refused_with_the_fix(tmp_path):
    errors = _errors(tmp_path, "move played to discard")
    assert len(errors) == 1
    assert "played is a zone per player" in errors[0] and "played[player]" in errors[0]
    assert "E235" in errors[0]


def test_dealing_to_one_players_zone_is_refused_with_the_fix(tmp_path):
    errors = _errors(tmp_path, "deal 2 from deck to hand[0]")
    assert len(errors) == 1 and "deal … to hand" in errors[0] and "draw … from … to hand[…]" in errors[0]


def test_a_local_named_like_a_zone_is_not_mistaken_for_the_zone(tmp_path):
    assert _errors(tmp_path, "let played = hand[player]\nmove played to discard") == []


def test_a_reveal_in_an_owner_zone_is_a_warning_and_validate_still_passes(tmp_path):
    path = write_game(tmp_path, CARDS + "        reveal hand[player]\n")
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 0
    assert "warning: this reveal turns pieces of hand face up" in result.output
    assert "reveal … to players" in result.output and "E236" in result.output


def test_a_reveal_to_players_is_not_warned_about(tmp_path):
    path = write_game(tmp_path, CARDS + "        reveal hand[player] to players\n")
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 0 and "warning" not in result.output
