"""The load-time information-flow check (interpreter/infoflow.py)."""
from __future__ import annotations

import pytest

from interpreter.errors import RuleErrors, flatten
from interpreter.game import Game
from interpreter.infoflow import FlowCheck
from interpreter.loader import build_game, load_document
from interpreter.rulefiles import game_entry_files, variant_files

from tests.engine.helpers import write_game
from tests.hidden.corpus import CORPUS, DUEL, LEAKY, ROOT


def flow_errors(path, variants=()) -> list:
    doc, files = load_document(path, variants)
    return FlowCheck(doc, build_game(doc, files, flows=False)).run()


def _included() -> list:
    out = []
    for entry in game_entry_files(ROOT / "rules") + [ROOT / "tests" / "fixtures" / "tutorial" / "game.yaml"]:
        out.append((entry, ()))
        out += [(entry, (v,)) for v in variant_files(entry)]
    out += [(f, ()) for f in sorted((ROOT / "tests" / "fixtures").glob("*.yaml"))]
    return out + [(DUEL, ())]


@pytest.mark.parametrize("entry,variants", _included(),
                         ids=lambda x: "+".join(p.name for p in x) if isinstance(x, tuple) else str(x.relative_to(ROOT)))
def test_no_false_alarm_on_included_rule_files(entry, variants):
    assert flow_errors(entry, variants) == []


@pytest.mark.parametrize("overlay,base,players,code,sink", [c for c in CORPUS if c[3]], ids=lambda x: str(x))
def test_leaky_overlay_is_rejected_at_load(overlay, base, players, code, sink):
    with pytest.raises(RuleErrors) as info:
        Game.load(base, [LEAKY / overlay])
    errors = flatten([info.value])
    assert {e.code for e in errors} == {code}
    first = errors[0]
    assert first.pos.file.endswith(overlay)  # the position is in the file that leaks
    assert "hidden information reaches" in first.message and "seen by" in first.message


def test_finding_names_source_sink_position_and_hint():
    errors = flow_errors(DUEL, [LEAKY / "leaky_peek_log.yaml"])
    assert len(errors) == 1
    e = errors[0]
    assert (e.pos.line, e.pos.col) == (6, 49)  # the {…} inside the log text
    assert "a log line, seen by everyone" in e.message
    assert "the suit of a piece in hand[next_player(p)]" in e.message
    assert "seen by next_player(p)" in e.message
    assert "disclose(" in e.message and "reveal" in e.message


GAME = """
components:
  card:
    start: deck
    items: [{id: a, rank: 1}, {id: b, rank: 2}, {id: c, rank: 3}, {id: d, rank: 4}]
zones:
  deck: {ordered: true, visibility: hidden}
  hand: {per: [player], visibility: owner}
  table: {}
counters:
  score: {per: [player]}
  secret: {per: [player], visibility: owner}
setup:
  - id: deal
    do: |
      shuffle deck
      deal 1 from deck to hand
flow:
  rounds: 1
  phases:
    - id: p
      turns: seat
      turn: |
TURN
"""


def check_turn(tmp_path, turn: str) -> list:
    text = GAME.replace("TURN", "\n".join("        " + line for line in turn.strip().splitlines()))
    path = write_game(tmp_path, text)
    return [f"{e.code} {e.message}" for e in flow_errors(path)]


def test_own_hidden_data_may_reach_own_prompt_options_and_counter(tmp_path):
    assert check_turn(tmp_path, """
choose c from hand[player] where c.rank > 0 prompt "Your card: {top(hand[player]).rank}"
secret[player] = c.rank
move c to table
""") == []


def test_reveal_to_players_first_is_accepted(tmp_path):
    assert check_turn(tmp_path, """
reveal hand[next_player(player)] to players
log "{next_player(player)} holds {top(hand[next_player(player)]).rank}"
""") == []


def test_reveal_to_the_viewer_covers_that_viewer_only(tmp_path):
    prompt = 'choose c from hand[player] prompt "They hold {top(hand[next_player(player)]).rank}"'
    assert check_turn(tmp_path, "reveal hand[next_player(player)] to player\n" + prompt) == []
    found = check_turn(tmp_path, "reveal hand[next_player(player)] to player\n"
                       'log "{top(hand[next_player(player)]).rank}"')
    assert len(found) == 1 and found[0].startswith("E240")


def test_moving_into_a_public_zone_discloses(tmp_path):
    assert check_turn(tmp_path, """
let c = top(hand[player])
move c to table
log "{player} shows {c.rank}"
""") == []


def test_disclose_marks_an_intended_announcement(tmp_path):
    assert check_turn(tmp_path, 'log "{player} holds a high card: {disclose(top(hand[player]).rank > 2)}"') == []
    found = check_turn(tmp_path, 'log "{player} holds a high card: {top(hand[player]).rank > 2}"')
    assert len(found) == 1 and found[0].startswith("E240")


def test_a_disclosure_after_the_next_decision_does_not_cover_earlier_text(tmp_path):
    found = check_turn(tmp_path, """
log "{top(hand[player]).rank}"
choose c from hand[player]
reveal hand[player] to players
""")
    assert len(found) == 1 and found[0].startswith("E240")
    assert check_turn(tmp_path, """
log "{top(hand[player]).rank}"
reveal hand[player] to players
choose c from hand[player]
""") == []


def test_logging_a_hidden_piece_itself_is_fine(tmp_path):
    assert check_turn(tmp_path, 'log "{player} holds {top(hand[player])}, the deck has {count(deck)} cards"') == []


def test_condition_on_hidden_data_with_a_visible_effect(tmp_path):
    found = check_turn(tmp_path, """
if top(hand[next_player(player)]).rank > 2:
  score[player] += 1
""")
    assert len(found) == 1 and found[0].startswith("E244") and "decides whether it happens" in found[0]


def test_owner_counter_is_a_sink_for_its_owner_only(tmp_path):
    assert check_turn(tmp_path, "secret[player] = top(hand[player]).rank") == []
    found = check_turn(tmp_path, "secret[player] = top(hand[next_player(player)]).rank")
    assert len(found) == 1 and found[0].startswith("E243")


def test_expression_functions_are_followed_with_their_arguments(tmp_path):
    text = GAME.replace("counters:", "functions:\n  rank_of:\n    params: [q]\n    expr: \"top(hand[q]).rank\"\ncounters:")
    text = text.replace("TURN", '        choose c from hand[player] prompt "mine {rank_of(player)}, theirs {rank_of(next_player(player))}"')
    found = [f"{e.code} {e.message}" for e in flow_errors(write_game(tmp_path, text))]
    assert len(found) == 1 and found[0].startswith("E241") and "hand[next_player(player)]" in found[0]


def test_validate_reports_flows_with_other_load_errors_absent(tmp_path):
    path = write_game(tmp_path, GAME.replace("TURN", '        log "{top(deck).rank}"'))
    with pytest.raises(RuleErrors) as info:
        Game.load(path)
    assert [e.code for e in flatten([info.value])] == ["E240"]
