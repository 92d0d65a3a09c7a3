"""The JSON Schemas of rule files and scenario files, and how their errors are reported."""
from __future__ import annotations

import json
import re
from typing import Any, Iterator

import pytest
from jsonschema import Draft202012Validator

from interpreter.paths import repo_root, schema_path
from interpreter.schema_check import validate, validator_for
from interpreter.source import load_text

SCENARIO = "scenario.schema.json"

MINIMAL = """\
game: {id: tiny, name: Tiny, players: {min: 2, max: 4}}
flow:
  phases:
    - id: main
      turns: seat
      turn: "pass"
"""


def errors(text: str, schema: str = "rulebook.schema.json") -> list[str]:
    """`file:line:col: message` for every problem in a document."""
    return [f"{e.pos}: {e.message}" for e in validate(load_text(text, "t.yaml"), schema)]


def with_game(body: str) -> str:
    """A base file: a fixed `game:` on line 1, then `body` (which therefore starts at line 2)."""
    return "game: {id: g, name: G, players: {min: 2, max: 4}}\n" + body


# ------------------------------------------------------------------ the schema files

@pytest.mark.parametrize("name", ["rulebook.schema.json", SCENARIO])
def test_schema_files_are_valid_draft_2020_12(name: str) -> None:
    Draft202012Validator.check_schema(json.loads(schema_path(name).read_text(encoding="utf-8")))


def _properties(node: Any, where: str = "#") -> Iterator[tuple[str, Any]]:
    if isinstance(node, dict):
        for key, value in node.get("properties", {}).items():
            yield f"{where}/properties/{key}", value
        for key, value in node.items():
            yield from _properties(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _properties(value, f"{where}/{i}")


@pytest.mark.parametrize("name", ["rulebook.schema.json", SCENARIO])
def test_every_property_has_a_description(name: str) -> None:
    schema = json.loads(schema_path(name).read_text(encoding="utf-8"))
    root = schema["$defs"]
    for where, prop in _properties(schema):
        if "if" in where or "then" in where or "else" in where or "allOf" in where:
            continue  # conditional refinements of properties described elsewhere
        described = "description" in prop or (
            "$ref" in prop and "description" in root[prop["$ref"].rsplit("/", 1)[1]])
        assert described, where


def test_validator_is_cached() -> None:
    assert validator_for() is validator_for("rulebook.schema.json")


# ------------------------------------------------------------------ valid documents

def test_minimal_base_file_is_valid() -> None:
    assert errors(MINIMAL) == []


def test_overlay_is_valid() -> None:
    assert errors("""\
extends: ../game.yaml
game: {id: tiny_easy, name: "Tiny, easy"}
changes:
  - replace: options.hand_size.default
    value: 5
  - add: flow.phases.bonus
    after: main
    value: {id: bonus, do: "pass"}
  - remove: actions.old_thing
assumptions:
  - {id: easy, kind: decision, text: "Bigger hands."}
""") == []


def test_full_base_file_is_valid() -> None:
    assert errors(with_game("""\
max_decisions: 5000
options:
  short: {type: bool, default: false, label: Short game, labels: {pt: Jogo curto}}
  mode: {type: choice, values: [a, b], default: a}
  size: {type: int, default: 4, min: 1, max: 9}
constraints:
  - {id: not_short_with_two, check: "player_count > 2 or not option.short", message: "no"}
tables:
  ranking: [{id: pair, rank: 1}, {id: flush, rank: 2}]
  "track": {1: 5, 2: 8}
components:
  card:
    kind: card
    per_player: true
    public: [back]
    mutable: {flagged: false}
    back: red
    start: deck
    face: down
    items:
      - {id: lawyer, label: Lawyer, labels: {pt: Advogada, pt-BR: Advogada}, number: 0}
      - {id: raid, count: "player_count + 1", when: "not option.short"}
boards:
  map:
    directed: true
    nodes: {a: {row: 0}, b: {}}
    edges: [{between: [a, b], symbol: triangle}]
  square: {grid: {width: 3, height: 3, diagonal: true}}
zones:
  deck: {per: [player], ordered: true, visibility: hidden}
  column: {per: [{range: 4}, player], visibility: {face_up: all, face_down: owner}}
  spot: {per: [{values: [x, y]}, {board: map}], owner: "none", face: up, label: Spot}
  secret: {visibility: {custom: "viewer == piece.owner"}}
  city: {per: [player], grid: {max_width: 4, max_height: "option.size"}}
  table: {grid: true}
counters:
  money: {per: [player], initial: 8, min: 0, max: "10 * player_count", visibility: owner}
variables:
  sheriff: {initial: none}
  order: {initial: [0, 1], visibility: hidden}
functions:
  value_of: {params: [p], expr: "money[p]", description: "What p has."}
  pay: {params: [p, n], do: "money[p] -= n"}
actions:
  take: {label: Take, labels: {es: Tomar}, when: "true", do: "pass"}
setup:
  - {id: deal, do: "pass", when: "true", label: Deal}
flow:
  rounds: "3 + player_count"
  round_start: "pass"
  round_end: ""
  phases:
    - {id: pick, turns: simultaneous, turn: "pass", start: "pass", end: "pass"}
    - {id: act, turns: {order: "players"}, turn: "pass", when: "round > 1"}
    - {id: seat, turns: seat, from: "players[0]", turn: "pass", do: "pass"}
triggers:
  bonus: {on: cowboy_taken, when: "true", do: "pass"}
end:
  - {id: out_of_cards, when: "count(deck[0]) == 0", at: round_end, message: Done}
scoring:
  final: "pass"
  score: "money[player]"
  tiebreak: ["0", 1]
  lowest_wins: false
invariants:
  - {id: money_kept, constant: "sum(players, p => money[p])"}
  - {id: hand_limit, holds: "true", message: too many}
assumptions:
  - {id: a1, kind: fact, text: "Printed.", where: components.card, source: "p. 3"}
""")) == []


# ------------------------------------------------------------------ invalid documents

def test_unknown_key_is_reported_at_the_key_with_a_suggestion() -> None:
    assert errors(with_game("""\
flow:
  phases:
    - {id: a, do: x}
    - {id: b, do: x}
    - id: c
      tunrs: seat
      turn: x
""")) == ['t.yaml:7:7: unknown key "tunrs" in flow.phases[2] (did you mean "turns"?)']


def test_unknown_top_level_key() -> None:
    assert errors(MINIMAL + "optoins: {}\n") == [
        't.yaml:7:1: unknown top-level key "optoins" (did you mean "options"?)']


def test_wrong_type_is_reported_at_the_value() -> None:
    assert errors("game:\n  id: g\n  name: G\n  players: {min: two, max: 4}\n"
                  "flow: {phases: [{id: a, do: x}]}\n") == [
        "t.yaml:4:18: game.players.min: expected an integer, got a string"]


def test_bad_enum_names_the_allowed_values() -> None:
    assert errors(with_game("options:\n  x: {type: boolean, default: false}\n"
                            "flow: {phases: [{id: a, do: x}]}\n")) == [
        't.yaml:3:13: options.x.type: "boolean" is not one of bool, int, choice '
        '(did you mean "bool"?)']


def test_option_default_must_fit_its_type() -> None:
    assert errors(with_game("options:\n  n: {type: int, default: \"3\", min: 1}\n"
                            "  c: {type: choice, default: a}\n"
                            "flow: {phases: [{id: a, do: x}]}\n")) == [
        "t.yaml:3:27: options.n.default: an int option's default must be an integer, got a string",
        't.yaml:4:3: options.c: missing required key "values"']


def test_missing_game_id_is_reported_at_game() -> None:
    assert errors("flow: {phases: [{id: a, do: x}]}\n"
                  "game:\n  name: G\n  players: {min: 2, max: 4}\n") == [
        't.yaml:2:1: game: missing required key "id"']


def test_base_file_needs_game_and_flow() -> None:
    assert errors("options: {}\n") == [
        't.yaml:1:1: missing required top-level key "flow"',
        't.yaml:1:1: missing required top-level key "game"']


def test_bad_visibility() -> None:
    assert errors(with_game("zones:\n  hand: {per: [player], visibility: ownr}\n"
                            "  pile: {visibility: {face_up: al}}\n"
                            "flow: {phases: [{id: a, do: x}]}\n")) == [
        "t.yaml:3:37: zones.hand.visibility: expected one of public, owner, hidden, or a map "
        'with face_up/face_down/custom (did you mean "owner"?)',
        't.yaml:4:32: zones.pile.visibility.face_up: "al" is not one of all, owner, none '
        '(did you mean "all"?)']


def test_bad_per_entries() -> None:
    assert errors(with_game("zones:\n  a: {per: [players]}\n  b: {per: [{rnage: 4}]}\n"
                            "  c: {per: [{range: 2, board: m}]}\n"
                            "flow: {phases: [{id: a, do: x}]}\n")) == [
        "t.yaml:3:13: zones.a.per[0]: expected player, {range: expr}, {values: [...]} or "
        '{board: id} (did you mean "player"?)',
        't.yaml:4:14: unknown key "rnage" in zones.b.per[0] (did you mean "range"?)',
        "t.yaml:5:13: zones.c.per[0]: a dimension has exactly one of range:, values: or board:"]


def test_bad_turn_order_and_incomplete_phases() -> None:
    assert errors(with_game("flow:\n  phases:\n    - {id: a, turns: sim, turn: x}\n"
                            "    - {id: b, from: x}\n    - {id: c, turn: x}\n")) == [
        "t.yaml:4:22: flow.phases[0].turns: expected simultaneous, seat, or {order: expr}",
        "t.yaml:5:7: flow.phases[1]: a phase needs do: (runs once) and/or turns: + turn: "
        "(runs per player)",
        't.yaml:5:15: flow.phases[1]: "from" needs "turns" too',
        't.yaml:6:15: flow.phases[2]: "turn" needs "turns" too']


def test_change_without_a_path() -> None:
    assert errors("extends: ../game.yaml\nchanges:\n  - value: 3\n  - {remove: a.b, value: 1}\n"
                  "  - {replace: a..b, value: 1}\n") == [
        "t.yaml:3:5: changes[0]: a change needs exactly one of add:, replace: or remove: "
        "(a dotted path)",
        "t.yaml:4:19: changes[1].value: remove: takes no value:",
        't.yaml:5:15: changes[2].replace: "a..b" is not a dotted path '
        "(e.g. options.hand_size.default, flow.phases.heist)"]


def test_changes_need_extends() -> None:
    assert errors("changes: []\n") == ['t.yaml:1:1: "changes" needs "extends" too']


def test_overlay_cannot_set_players_in_game() -> None:
    assert errors("extends: ../game.yaml\ngame: {players: {min: 1, max: 2}}\n") == [
        "t.yaml:2:8: game.players: an overlay cannot set game.players here; use a change: "
        "{replace: game.players, value: {min: .., max: ..}}"]


def test_duplicate_phase_ids() -> None:
    assert errors(with_game("flow:\n  phases:\n    - {id: a, do: x}\n    - {id: a, do: y}\n")) == [
        't.yaml:5:12: flow.phases[1].id: duplicate id "a" (first at line 4)']


def test_duplicate_list_items() -> None:
    assert errors(with_game("functions:\n  f: {params: [p, q, p], expr: p}\n"
                            "flow: {phases: [{id: a, do: x}]}\n")) == [
        't.yaml:3:22: functions.f.params[2]: "p" is listed twice']


def test_function_needs_exactly_one_body() -> None:
    assert errors(with_game("functions:\n  f: {expr: x, do: y}\n  g:\n    params: [p]\n"
                            "flow: {phases: [{id: a, do: x}]}\n")) == [
        "t.yaml:3:3: functions.f: a function has exactly one of expr: or do:",
        "t.yaml:4:3: functions.g: a function has exactly one of expr: or do:"]


def test_ids_must_be_snake_case() -> None:
    assert errors(with_game("counters:\n  Money: {initial: 0}\n"
                            "flow: {phases: [{id: Main, do: x}]}\n")) == [
        't.yaml:3:3: counters: "Money" is not a valid id: use snake_case (lowercase letters, '
        "digits and _, starting with a letter)",
        't.yaml:4:22: flow.phases[0].id: "Main" is not a valid id: use snake_case (lowercase '
        "letters, digits and _, starting with a letter)"]


def test_expression_of_the_wrong_kind() -> None:
    assert errors(with_game("actions:\n  a:\n    when: {x: 1}\n    do: x\n"
                            "flow: {phases: [{id: a, do: x}]}\n")) == [
        "t.yaml:4:11: actions.a.when: expected an expression (a DSL string, a number or a "
        "boolean), got a map"]


def test_board_is_a_graph_or_a_grid() -> None:
    assert errors(with_game("boards:\n  m: {grid: {width: 3, height: 3}, nodes: {a: {}}}\n"
                            "  n: {edges: [{between: [a]}]}\n"
                            "flow: {phases: [{id: a, do: x}]}\n")) == [
        "t.yaml:3:3: boards.m: a board has either grid: or nodes:/edges:/directed:, not both",
        "t.yaml:4:3: boards.n: a board needs nodes: (and edges:) or grid:",
        "t.yaml:4:25: boards.n.edges[0].between: expected exactly two nodes: [a, b]"]


def test_item_attributes_are_free_but_not_built_in_names() -> None:
    assert errors(with_game("components:\n  c:\n    items:\n"
                            "      - {id: a, owner: 3, any_thing: [1, {x: y}], count: -1}\n"
                            "flow: {phases: [{id: a, do: x}]}\n")) == [
        't.yaml:5:17: components.c.items[0]: "owner" is a built-in attribute of every piece '
        "(name, owner, zone, index, face_up, pos); choose another name",
        "t.yaml:5:58: components.c.items[0].count: -1 is less than the minimum 0"]


def test_misspelt_reserved_component_keys() -> None:
    assert errors(with_game("components:\n  c:\n    per_playr: true\n    stars: 2\n"
                            "    items: [{id: a, cuont: 3}]\n"
                            "flow: {phases: [{id: a, do: x}]}\n")) == [
        't.yaml:4:5: components.c: "per_playr" looks like a misspelt "per_player" '
        "(keys that are not reserved are attributes; rename it if it is one)",
        't.yaml:6:21: components.c.items[0]: "cuont" looks like a misspelt "count" '
        "(keys that are not reserved are attributes; rename it if it is one)"]


def test_boolean_keys_are_explained() -> None:
    assert errors(with_game("tables:\n  flags: {true: 1, on: 2}\n"
                            "flow: {phases: [{id: a, do: x}]}\n")) == [
        't.yaml:3:11: tables.flags: key true is a YAML boolean: quote it ("true":)']


def test_trigger_event_key_on_is_a_word() -> None:
    assert errors(with_game("triggers:\n  t:\n    on: turn_end\n    do: x\n"
                            "flow: {phases: [{id: a, do: x}]}\n")) == []


def test_top_level_must_be_a_map() -> None:
    assert errors("- 1\n") == [
        "t.yaml:1:1: expected a map of top-level keys (game, options, flow, …), got a list"]


def test_one_error_per_problem_sorted_by_position() -> None:
    found = errors(with_game("options:\n  a: {type: bool, default: 1}\n"
                             "  b: {type: nope, default: 1}\n"
                             "flow: {phases: [{id: a, do: x}]}\n"))
    assert found == [
        "t.yaml:3:28: options.a.default: a bool option's default must be true or false, "
        "got an integer",
        't.yaml:4:13: options.b.type: "nope" is not one of bool, int, choice']


# ------------------------------------------------------------------ scenario files

SCENARIO_TEXT = """\
game: ../game.yaml
players: 4
seed: 1
options: {bank_never_empty: false}
scenarios:
  - name: the Lawyer takes everything
    steps:
      - arrange: |
          move hand[0] to deck[0]
      - play:
          - {player: 0, choose: lawyer}
          - {player: 1, index: 2}
      - expect: "count(prison) == 0"
      - expect: ["round == 1", "phase == 'heist'"]
      - expect_options: {player: 1, include: [mastermind], exclude: [3]}
      - reject: {player: 1, choose: lawyer}
      - play_until: {until: "phase == 'twist'", pick: random, max: 50}
"""


def test_valid_scenario_file() -> None:
    assert errors(SCENARIO_TEXT, SCENARIO) == []


def test_invalid_scenario_steps() -> None:
    assert errors("""\
game: ../game.yaml
scenarios:
  - name: x
    steps:
      - exepct: "a"
      - {expect: a, arrange: b}
      - play: [{player: 0}, {player: 0, choose: true}]
      - expect_options: {player: 1}
      - play_until: {until: x, pick: frist}
""", SCENARIO) == [
        't.yaml:5:9: unknown key "exepct" in scenarios[0].steps[0] (did you mean "expect"?)',
        "t.yaml:6:9: scenarios[0].steps[1]: a step has exactly one of arrange, play, expect, "
        "expect_options, reject, play_until (write each as its own `- ` item)",
        "t.yaml:7:16: scenarios[0].steps[2].play[0]: a decision has exactly one of choose: or "
        "index:",
        "t.yaml:7:49: scenarios[0].steps[2].play[1].choose: expected an option's label or value "
        "(a string or a number), got a boolean (quote it to make it a string)",
        "t.yaml:8:9: scenarios[0].steps[3].expect_options: expect_options needs equal:, "
        "include: or exclude:",
        't.yaml:9:38: scenarios[0].steps[4].play_until.pick: "frist" is not one of first, '
        'last, random (did you mean "first"?)']


# ------------------------------------------------------------------ the documentation's examples

def _snippets(doc: str) -> list[str]:
    text = (repo_root() / "docs" / doc).read_text(encoding="utf-8")
    return re.findall(r"```yaml\n(.*?)```", text, flags=re.S)


def _as_rule_file(snippet: str) -> str:
    """Complete a rule-format.md fragment into a file: add `game:`/`flow:` when it lacks them."""
    if re.search(r"^extends:", snippet, re.M):
        return snippet
    if not re.search(r"^game:", snippet, re.M):
        snippet = "game: {id: g, name: G, players: {min: 2, max: 4}}\n" + snippet
    if not re.search(r"^flow:", snippet, re.M):
        snippet += "\nflow: {phases: [{id: main, do: x}]}\n"
    return snippet


@pytest.mark.parametrize("snippet", _snippets("rule-format.md"),
                         ids=lambda s: s.split(":", 1)[0].strip("# \n"))
def test_rule_format_examples_are_valid(snippet: str) -> None:
    if load_text(snippet, "doc.yaml") is None:
        return  # the comment-only editor line
    assert errors(_as_rule_file(snippet)) == []


def test_dsl_scenario_example_is_valid() -> None:
    scenarios = [s for s in _snippets("dsl.md") if s.lstrip().startswith("# yaml-language-server")
                 and "scenario.schema.json" in s]
    assert scenarios
    for snippet in scenarios:
        assert errors(snippet, SCENARIO) == []
