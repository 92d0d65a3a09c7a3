"""The load-time information-flow check (interpreter/infoflow.py)."""
from __future__ import annotations

import pytest

from interpreter.errors import RuleErrors, flatten
from interpreter.game import Game
from interpreter.infoflow import FlowCheck
from interpreter.loader import build_game, load_document
from interpreter.rulefiles import game_entry_files, variant_files

from tests.engine.helpers import write_game
from tests.hidden.corpus import CORPUS, DUEL, LEAKY, ROOT, WARNING


def flow_errors(path, variants=()) -> list:
    doc, files = load_document(path, variants)
    return FlowCheck(doc, build_game(doc, files, flows=False)).run()


def _included() -> list:
    out = []
    for entry in game_entry_files(ROOT / "rules") + [ROOT / "tests" / "fixtures" / "tutorial" / "game.yaml"]:
        out.append((entry, ()))
        out += [(entry, (v,)) for v in variant_files(entry)]
    out += [(f, ()) for f in sorted((ROOT / "tests" / "fixtures").glob("*.yaml"))]
    out += [(f, ()) for f in sorted((ROOT / "tests" / "fixtures" / "table").glob("*.yaml"))]
    lab = ROOT / "tests" / "lab" / "fixtures"
    out += [(f, ()) for f in sorted(lab.glob("*.yaml"))]
    out += [(lab / "coin.yaml", (v,)) for v in sorted((lab / "variants").glob("*.yaml"))]
    return out + [(DUEL, ())]


@pytest.mark.parametrize("entry,variants", _included(),
                         ids=lambda x: "+".join(p.name for p in x) if isinstance(x, tuple) else str(x.relative_to(ROOT)))
def test_no_false_alarm_on_included_rule_files(entry, variants):
    """Neither an error nor a warning on any included rule file or variant."""
    doc, files = load_document(entry, variants)
    check = FlowCheck(doc, build_game(doc, files, flows=False))
    check.run()
    assert [str(e) for e in check.errors + check.warnings] == []


@pytest.mark.parametrize("overlay,base,players,code,sink", [c for c in CORPUS if c[3] != WARNING], ids=lambda x: str(x))
def test_leaky_overlay_is_rejected_at_load(overlay, base, players, code, sink):
    with pytest.raises(RuleErrors) as info:
        Game.load(base, [LEAKY / overlay])
    errors = flatten([info.value])
    assert {e.code for e in errors} == {code}
    first = errors[0]
    assert first.pos.file.endswith(overlay)  # the position is in the file that leaks
    assert "hidden information reaches" in first.message and "seen by" in first.message


@pytest.mark.parametrize("overlay,base,players,code,sink", [c for c in CORPUS if c[3] == WARNING], ids=lambda x: str(x))
def test_flow_only_play_decides_is_a_warning(overlay, base, players, code, sink):
    game = Game.load(base, [LEAKY / overlay])  # loads: a warning does not stop it
    warnings = game.d.warnings
    assert [w.code for w in warnings] == [WARNING]
    assert warnings[0].pos.file.endswith(overlay)
    assert "may reach" in warnings[0].message and "`rulebook audit` checks it at run time" in warnings[0].message


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


def findings(tmp_path, text: str) -> list:
    doc, files = load_document(write_game(tmp_path, text))
    check = FlowCheck(doc, build_game(doc, files, flows=False))
    check.run()
    return [f"{e.code} {e.message}" for e in check.errors] + [f"W{e.code} {e.message}" for e in check.warnings]


def test_zone_with_a_computed_owner_error_for_everyone_warning_for_one(tmp_path):
    text = GAME.replace("  table: {}", '  table: {}\n  stash: {visibility: owner, owner: "first(players)"}')
    logged = findings(tmp_path, text.replace("TURN", '        log "{top(stash).rank}"'))
    assert len(logged) == 1 and logged[0].startswith("E240") and "seen by the owner of stash" in logged[0]
    prompted = findings(tmp_path, text.replace("TURN", '        choose c from hand[player] prompt "{top(stash).rank}"'))
    assert len(prompted) == 1 and prompted[0].startswith("WE246") and "may be player" in prompted[0]


def test_pieces_of_a_component_where_and_changing_values(tmp_path):
    assert check_turn(tmp_path, 'log "{count(pieces(card), c => c.rank > 2)} high cards exist"') == []
    assert check_turn(tmp_path, 'log "{count(pieces(card), c => c.zone == table)} on the table"') == []
    found = check_turn(tmp_path, 'log "{count(pieces(card), c => c.zone == deck)} in the deck"')
    assert len(found) == 1 and found[0].startswith("E240") and "where each card piece is" in found[0]


def test_procedure_arguments_are_followed_and_a_reveal_by_every_caller_covers(tmp_path):
    text = GAME.replace("counters:", """functions:
  show:
    params: [c]
    do: 'log "worth {c.rank}"'
counters:""")
    found = findings(tmp_path, text.replace("TURN", "        call show(top(hand[next_player(player)]))"))
    assert len(found) == 1 and found[0].startswith("E240") and "through the call of show()" in found[0]
    assert findings(tmp_path, text.replace("TURN", "        reveal hand[next_player(player)] to players\n"
                                                   "        call show(top(hand[next_player(player)]))")) == []


def test_statements_of_a_procedure_called_under_a_hidden_condition(tmp_path):
    text = GAME.replace("counters:", "functions:\n  bump:\n    params: [q]\n    do: 'score[q] += 1'\ncounters:")
    found = findings(tmp_path, text.replace("TURN", "        if top(hand[next_player(player)]).rank > 2:\n"
                                                    "          call bump(player)"))
    assert len(found) == 1 and found[0].startswith("E244")


def test_action_condition_end_condition_and_trigger_condition(tmp_path):
    base = GAME.replace("TURN", "        perform peek optional")
    action = base.replace("setup:", "actions:\n  peek:\n    when: \"top(hand[next_player(player)]).rank > 2\"\n"
                                    "    do: 'pass'\nsetup:")
    found = findings(tmp_path, action)
    assert len(found) == 1 and found[0].startswith("E242") and "whether the action peek is offered" in found[0]
    ending = GAME.replace("TURN", "        pass") + 'end:\n  - id: high\n    when: "top(deck).rank > 3"\n'
    found = findings(tmp_path, ending)
    assert len(found) == 1 and found[0].startswith("E244") and "whether the game ends" in found[0]
    trigger = GAME.replace("TURN", "        pass").replace("setup:", """triggers:
  lucky:
    on: turn_end
    when: "top(hand[next_player(player)]).rank > 3"
    do: 'score[player] += 1'
setup:""")
    found = findings(tmp_path, trigger)
    assert len(found) == 1 and found[0].startswith("E244")


def test_end_of_game_summary(tmp_path):
    scored = GAME.replace("TURN", "        pass") + 'scoring:\n  score: "sum(hand[player], c => c.rank)"\n'
    found = findings(tmp_path, scored)
    assert len(found) == 1 and found[0].startswith("E240") and "end-of-game summary (score)" in found[0]
    revealed = scored.replace("scoring:\n", "scoring:\n  final: 'reveal zones(hand) to players'\n")
    assert findings(tmp_path, revealed) == []
    elsewhere = scored.replace("        pass", "        if round == 9:\n          reveal zones(hand) to players")
    found = findings(tmp_path, elsewhere)
    assert len(found) == 1 and found[0].startswith("WE246") and "revealed by some rule" in found[0]


def test_zone_that_may_hold_face_down_pieces_warns(tmp_path):
    text = GAME.replace("  table: {}", "  table: {visibility: {face_up: all, face_down: none}}")
    face_up = text.replace("TURN", '        move top(hand[player]) to table\n        log "{top(table).rank}"')
    assert findings(tmp_path, face_up) == []
    face_down = text.replace("TURN", '        move top(hand[player]) to table face down\n        log "{top(table).rank}"')
    found = findings(tmp_path, face_down)
    assert len(found) == 1 and found[0].startswith("WE246") and "may lie face up" in found[0]


def test_validate_shows_warnings_and_exits_0(tmp_path):
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-m", "interpreter", "validate", str(DUEL.parent / "duel.yaml")],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0 and "E246" not in out.stderr
    overlay = LEAKY / "leaky_custom_visibility.yaml"
    out = subprocess.run([sys.executable, "-m", "interpreter", "validate", str(overlay)],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert "leaky_custom_visibility.yaml:12:37: warning: hidden information may reach a log line" in out.stderr
    assert "[E246]" in out.stderr


def test_a_local_naming_the_same_player_is_that_player(tmp_path):
    assert check_turn(tmp_path, """
let me = player
choose c from hand[me] prompt "Your card: {top(hand[me]).rank}"
""") == []
    found = check_turn(tmp_path, """
let me = player
me = next_player(player)
choose c from hand[player] prompt "Their card: {top(hand[me]).rank}"
""")
    assert len(found) == 1 and found[0].startswith("E241")


def test_a_statement_that_may_fail_naming_a_hidden_piece_warns(tmp_path):
    rolled = findings(tmp_path, GAME.replace("TURN", "        roll hand[next_player(player)]"))
    assert len(rolled) == 1 and rolled[0].startswith("WE246") and "if one of them is a card (no `faces`" in rolled[0]
    discarded = findings(tmp_path, GAME.replace("TURN", "        discard top(deck)"))
    assert len(discarded) == 1 and "run-time error message" in discarded[0] and "no `discard:` zone" in discarded[0]
    with_pile = GAME.replace("    start: deck\n", "    start: deck\n    discard: table\n")
    assert findings(tmp_path, with_pile.replace("TURN", "        discard top(deck)")) == []


def test_a_value_read_for_one_player_is_not_theirs_once_the_local_names_another(tmp_path):
    found = check_turn(tmp_path, """
let q = next_player(player)
let x = top(hand[q]).rank
q = next_player(q)
choose c from hand[q] by q prompt "A card worth {x}"
""")
    assert len(found) == 1 and found[0].startswith("E241") and "before q changed" in found[0]
    looped = check_turn(tmp_path, """
let last = 0
for q in players:
  choose c from hand[q] by q prompt "The previous card was worth {last}"
  last = c.rank
""")
    assert len(looped) == 1 and looped[0].startswith("E241")
    assert check_turn(tmp_path, """
for q in players:
  let mine = top(hand[q]).rank
  choose c from hand[q] by q prompt "Yours is worth {mine}"
""") == []


def test_a_reveal_to_a_player_does_not_cover_the_next_one(tmp_path):
    found = check_turn(tmp_path, """
let q = next_player(player)
reveal hand[player] to q
q = next_player(q)
choose c from hand[q] by q prompt "P1's card is worth {top(hand[player]).rank}"
""")
    assert len(found) == 1 and found[0].startswith("E241")


def test_what_an_owner_counter_holds_is_hidden_when_read_back(tmp_path):
    found = check_turn(tmp_path, """
secret[player] = top(hand[player]).rank
log "{player} noted {secret[player]}"
""")
    assert len(found) == 1 and found[0].startswith("E240") and "the rank of a piece in hand[player]" in found[0]
    assert check_turn(tmp_path, """
secret[player] = top(hand[player]).rank
choose c from hand[player] prompt "You noted {secret[player]}"
""") == []
    found = check_turn(tmp_path, """
secret[player] = top(hand[player]).rank
choose c from hand[player] prompt "They noted {secret[next_player(player)]}"
""")
    assert len(found) == 1 and found[0].startswith("E241") and "hand[next_player(player)]" in found[0]
    assert check_turn(tmp_path, 'secret[player] = count(deck)\nlog "{secret[player]} cards left"') == []


def test_a_function_reading_a_counter_sees_what_any_rule_stores_in_it(tmp_path):
    """The analysis of an expression function call is remembered (infoflow's `calls`), but not
    past a change of what counters hold: here the log reads the counter through the function
    before the rule that stores a hidden rank in it has been analysed."""
    text = GAME.replace("counters:", "functions:\n  noted:\n    params: [q]\n    expr: \"secret[q]\"\ncounters:")
    turn = 'log "{player} noted {noted(player)}"\nsecret[player] = top(hand[player]).rank'
    text = text.replace("TURN", "\n".join("        " + line for line in turn.splitlines()))
    found = [f"{e.code} {e.message}" for e in flow_errors(write_game(tmp_path, text))]
    assert len(found) == 1 and found[0].startswith("E240") and "the rank of a piece in hand[player]" in found[0]
