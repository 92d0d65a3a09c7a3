"""Bad rule files give file:line:col errors with suggestions, never tracebacks."""
from __future__ import annotations

from .helpers import errors_of

FLOW = """
zones:
  deck: {ordered: true}
  hand: {per: [player], visibility: owner}
counters:
  points: {per: [player]}
flow:
  rounds: 1
  phases:
    - id: main
      turns: seat
      turn: |
"""


def test_unknown_name_in_dsl_points_inside_the_string(tmp_path):
    errs = errors_of(tmp_path, FLOW + "        points[player] += cuont(hand[player])\n")
    assert len(errs) == 1
    assert 'unknown function "cuont" (did you mean "count"?)' in errs[0]
    # line 19 of the file, column where `cuont` starts inside the block scalar
    assert ":18:27:" in errs[0]


def test_unknown_zone_suggests_nearest(tmp_path):
    errs = errors_of(tmp_path, FLOW + "        move top(deck) to hnd[player]\n")
    assert any('unknown name "hnd"' in e and 'did you mean "hand"' in e for e in errs)


def test_syntax_error_position(tmp_path):
    errs = errors_of(tmp_path, FLOW + "        if points[player] > 2\n          pass\n")
    assert len(errs) == 1 and 'expected ":"' in errs[0] and ":18:30:" in errs[0]


def test_several_errors_reported_together(tmp_path):
    errs = errors_of(tmp_path, FLOW + "        let a = foo\n        let b = bar\n")
    assert len(errs) == 2
    assert ":18:" in errs[0] and ":19:" in errs[1]


def test_wrong_index_count(tmp_path):
    errs = errors_of(tmp_path, FLOW + "        points[player, 1] += 1\n")
    assert any("takes 1 index" in e for e in errs)


def test_unknown_attribute(tmp_path):
    errs = errors_of(tmp_path, FLOW + "        let x = top(deck).nubmer\n")
    assert any('unknown attribute "nubmer"' in e for e in errs)


def test_assign_to_undeclared_local(tmp_path):
    errs = errors_of(tmp_path, FLOW + "        totl = 3\n")
    assert any('cannot assign to "totl"' in e for e in errs)


def test_break_outside_loop(tmp_path):
    errs = errors_of(tmp_path, FLOW + "        break\n")
    assert any("`break` outside a loop" in e for e in errs)


def test_wrong_arity(tmp_path):
    errs = errors_of(tmp_path, FLOW + "        let n = count()\n")
    assert any("count() takes 1 to 2 arguments, got 0" in e for e in errs)


def test_choose_without_a_decider(tmp_path):
    body = FLOW.replace("turns: seat\n      turn: |", "do: |") + "        choose c from deck\n"
    errs = errors_of(tmp_path, body)
    assert any("who decides?" in e for e in errs)


def test_unknown_option(tmp_path):
    errs = errors_of(tmp_path, "options:\n  fast: {type: bool, default: false}\n" + FLOW
                     + "        if option.fsat:\n          pass\n")
    assert any('unknown option "fsat" (did you mean "fast"?)' in e for e in errs)


def test_duplicate_names_across_sections(tmp_path):
    errs = errors_of(tmp_path, FLOW + "        pass\nvariables:\n  deck: {}\n")
    assert any('"deck" is already defined' in e for e in errs)


def test_trigger_on_an_event_nobody_raises(tmp_path):
    errs = errors_of(tmp_path, FLOW + "        emit scored\ntriggers:\n  t: {on: scord, do: pass}\n")
    assert any('no rule emits the event "scord" (did you mean "scored"?)' in e for e in errs)


def test_deciding_procedure_in_expression(tmp_path):
    body = FLOW + "        let x = pick(player) + 1\nfunctions:\n  pick:\n    params: [p]\n    do: |\n      choose c from deck by p\n      return c.id\n"
    errs = errors_of(tmp_path, body)
    assert any("asks players to decide" in e for e in errs)


def test_yaml_syntax_error(tmp_path):
    errs = errors_of(tmp_path, "zones: {deck: [\n")
    assert errs and "YAML syntax error" in errs[0]


def test_duplicate_yaml_key(tmp_path):
    errs = errors_of(tmp_path, FLOW + "        pass\nzones:\n  x: {}\n")
    assert any('duplicate key "zones"' in e for e in errs)
