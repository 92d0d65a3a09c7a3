"""Flow, turns, choices, actions, triggers, end conditions and scoring on tiny games."""
from __future__ import annotations

import json

import pytest

from interpreter.errors import IllegalDecision, RuleRuntimeError

from .helpers import load, play_first

CARDS = """
components:
  card:
    start: deck
    items:
      - {id: a, rank: 1}
      - {id: b, rank: 2}
      - {id: c, rank: 3}
      - {id: d, rank: 4}
      - {id: e, rank: 5}
      - {id: f, rank: 6}
zones:
  deck: {ordered: true, visibility: hidden}
  hand: {per: [player], visibility: owner}
  table: {}
counters:
  points: {per: [player]}
"""


def test_rounds_phases_and_seat_turns_from_an_expression(tmp_path):
    game = load(tmp_path, CARDS + """
variables:
  order: {initial: "[]"}
flow:
  rounds: 2
  phases:
    - id: p
      turns: seat
      from: "player_of(round)"
      turn: |
        order = order + [[round, player, turn_index]]
scoring:
  score: "0"
""")
    S = game.new_game(3)
    assert S.is_terminal()
    assert S.vars["order"] == [[1, 1, 0], [1, 2, 1], [1, 0, 2], [2, 2, 0], [2, 0, 1], [2, 1, 2]]


def test_turn_order_computed_by_an_expression(tmp_path):
    game = load(tmp_path, CARDS + """
variables:
  seen: {initial: "[]"}
flow:
  rounds: 1
  phases:
    - id: p
      turns: {order: "reverse(players)"}
      turn: "seen = seen + [player]"
""")
    assert game.new_game(4).vars["seen"] == [3, 2, 1, 0]


def test_simultaneous_choices_are_secret_until_the_block_ends(tmp_path):
    game = load(tmp_path, CARDS + """
setup:
  - id: deal
    do: "deal 2 from deck to hand"
flow:
  rounds: 1
  phases:
    - id: pick
      turns: simultaneous
      turn: |
        choose c from hand[player]
        move c to table face down
    - id: reveal
      do: "flip table face up"
""")
    S = game.new_game(2)
    assert S.current_players() == [0, 1]
    S.apply(1, 0)
    assert S.current_players() == [0]
    # P1 cannot see what P2 committed, in the view or in the log
    table = S.view(0)["zones"]["table"]
    assert table == [{"hidden": True, "kind": "card"}]
    assert S.log_lines(0)[-1] == "P2 chooses (secret)"
    assert S.log_lines(1)[-1].startswith("P2 chooses ") and "(secret)" not in S.log_lines(1)[-1]
    S.apply(0, 1)
    assert S.is_terminal()
    assert all(not p.get("hidden") for p in S.view(0)["zones"]["table"])


def test_choose_exact_up_to_and_range(tmp_path):
    game = load(tmp_path, CARDS + """
variables:
  got: {initial: none}
setup:
  - id: deal
    do: "deal 3 from deck to hand"
flow:
  rounds: 1
  phases:
    - id: p
      turns: seat
      turn: |
        if player == 0:
          choose 2 cs from hand[player]
        else:
          choose up to 2 cs from hand[player]
        got = cs
""")
    S = game.new_game(2, seed=4)
    assert "done" not in S.option_labels(0)
    S.apply(0, 0)
    assert len(S.option_labels(0)) == 2  # one picked, two left
    S.apply(0, 0)
    assert S.current_players() == [1]
    assert S.option_labels(1)[-1] == "done"  # up to: may stop at once
    S.apply(1, len(S.option_labels(1)) - 1)
    assert S.vars["got"] == []


def test_optional_choice_and_empty_choice_error(tmp_path):
    game = load(tmp_path, CARDS + """
flow:
  rounds: 1
  phases:
    - id: p
      turns: seat
      turn: |
        choose c from hand[player] optional
        choose d from hand[player]
""")
    S = game.new_game(2)
    assert S.option_labels(0) == ["pass"]  # asked anyway: skipping would reveal an empty hand
    with pytest.raises(RuleRuntimeError, match='nothing to choose from for "d"'):
        S.apply(0, 0)


def test_perform_offers_only_legal_actions_and_action_end(tmp_path):
    game = load(tmp_path, CARDS + """
actions:
  draw:
    when: "count(deck) > 0"
    do: "draw 1 from deck to hand[player]"
  score:
    when: "count(hand[player]) > 0"
    do: |
      choose c from hand[player]
      move c to table
      points[player] += c.rank
triggers:
  after:
    on: action_end
    when: "points[player] >= 4"
    do: "end_game \\"enough\\""
flow:
  phases:
    - id: turn
      turns: seat
      turn: "perform draw, score"
scoring:
  score: "points[player]"
""")
    S = game.new_game(2, seed=1)
    assert S.option_labels(0) == ["draw"]  # empty hand: cannot score
    play_first(S)
    assert S.is_terminal() and S.result["reason"] == "enough"


def test_illegal_decision_leaves_state_unchanged(tmp_path):
    game = load(tmp_path, CARDS + """
setup:
  - {id: deal, do: "deal 1 from deck to hand"}
flow:
  rounds: 1
  phases:
    - id: p
      turns: seat
      turn: "choose c from hand[player]"
""")
    S = game.new_game(2)
    before = S.hash()
    for bad in [(1, 0), (0, 5), (0, -1), (0, "x")]:
        with pytest.raises(IllegalDecision):
            S.apply(*bad)
        assert S.hash() == before


def test_choice_of_numbers_and_texts_offers_each_value_once_and_refuses_bad_indices(tmp_path):
    game = load(tmp_path, """
variables:
  got: {initial: "[]"}
flow:
  rounds: 1
  phases:
    - id: p
      turns: seat
      turn: |
        choose x from [3, 1, 3, "a", 1, "a"]
        got = got + [x]
scoring:
  score: "count(got)"
""")
    S = game.new_game(2)
    assert S.current_players() == [0]
    assert S.option_labels(0) == ["3", "1", "a"]
    before = S.hash()
    for bad in [(0, 3), (0, True), (0, 1.0), (1, 0)]:
        with pytest.raises(IllegalDecision):
            S.apply(*bad)
        assert S.hash() == before
    S.apply(0, 2)
    S.apply_unchecked(1, 1)
    assert S.is_terminal() and S.vars["got"] == ["a", 1]
    with pytest.raises(IllegalDecision):
        S.apply(0, 0)


def test_end_condition_checked_at_its_event_and_tiebreak(tmp_path):
    game = load(tmp_path, CARDS + """
flow:
  phases:
    - id: p
      turns: seat
      turn: "points[player] += player + 1"
end:
  - {id: enough, when: "max(players, p => points[p]) >= 4", at: round_end}
scoring:
  score: "points[player] // 4"
  tiebreak: ["points[player]"]
""")
    S = game.new_game(3)
    assert S.is_terminal() and S.vars["round"] == 2
    assert S.returns() == [0, 1, 1] and S.winners() == [2]


def test_save_restore_inside_a_simultaneous_block(tmp_path):
    game = load(tmp_path, CARDS + """
setup:
  - {id: deal, do: "deal 2 from deck to hand"}
flow:
  rounds: 2
  phases:
    - id: pick
      turns: simultaneous
      turn: |
        choose c from hand[player]
        move c to table
        points[player] += c.rank
scoring:
  score: "points[player]"
""")
    S = game.new_game(2, seed=9)
    S.apply(0, 1)
    data = json.loads(json.dumps(S.to_json()))
    R = game.restore(data)
    assert R.hash() == S.hash()
    for st in (S, R):
        play_first(st)
    assert S.hash() == R.hash() and S.returns() == R.returns()


def test_clone_evolves_independently(tmp_path):
    game = load(tmp_path, CARDS + """
setup:
  - {id: deal, do: "deal 3 from deck to hand"}
flow:
  rounds: 3
  phases:
    - id: p
      turns: seat
      turn: |
        choose c from hand[player]
        move c to table
""")
    S = game.new_game(2, seed=2)
    before = S.hash()
    C = S.clone()
    play_first(C)
    assert S.hash() == before and not S.is_terminal()


def test_loops_break_continue_repeat_while(tmp_path):
    game = load(tmp_path, CARDS + """
variables:
  out: {initial: "[]"}
flow:
  rounds: 1
  phases:
    - id: p
      do: |
        for i in range(10):
          if i == 1:
            continue
          if i == 4:
            break
          out = out + [i]
        let n = 0
        repeat 3:
          n += 2
        while n > 1:
          n -= 5
        out = out + [n]
""")
    assert game.new_game(2).vars["out"] == [0, 2, 3, 1]


def test_endless_loop_is_stopped_with_its_position(tmp_path):
    game = load(tmp_path, CARDS + """
flow:
  rounds: 1
  phases:
    - id: p
      do: |
        while true:
          pass
""")
    with pytest.raises(RuleRuntimeError) as exc:
        game.new_game(2)
    assert "loop iterations without a decision" in exc.value.message
    assert exc.value.pos.line > 0


def test_endless_recursion_is_stopped(tmp_path):
    game = load(tmp_path, CARDS + """
functions:
  f:
    params: [n]
    do: "call f(n + 1)"
flow:
  rounds: 1
  phases:
    - id: p
      do: "call f(0)"
""")
    with pytest.raises(RuleRuntimeError, match="nested more than"):
        game.new_game(2)


def test_procedures_return_values(tmp_path):
    game = load(tmp_path, CARDS + """
functions:
  double:
    params: [n]
    expr: "n * 2"
  total:
    params: [xs]
    do: |
      let t = 0
      for x in xs:
        t += double(x)
      return t
variables:
  v: {}
flow:
  rounds: 1
  phases:
    - id: p
      do: |
        let t = total([1, 2, 3])
        v = [t, total([5])]
""")
    assert game.new_game(2).vars["v"] == [12, 10]


def test_labels_in_the_rulebook_language_only_when_asked(tmp_path):
    game = load(tmp_path, """
components:
  card:
    start: deck
    labels: {pt: carta}
    items:
      - {id: lawyer, label: Lawyer, labels: {pt: Advogada}}
zones:
  deck: {}
  hand: {per: [player]}
actions:
  take:
    label: Take
    labels: {pt: Pegar}
    do: |
      choose c from deck
      move c to hand[player]
flow:
  rounds: 1
  phases:
    - id: p
      turns: seat
      turn: "perform take"
""")
    assert game.new_game(2).option_labels(0) == ["Take"]
    S = game.new_game(2, lang="pt")
    assert S.option_labels(0) == ["Pegar"]
    S.apply(0, 0)
    assert S.option_labels(0) == ["Advogada"]


@pytest.mark.parametrize("expr", ["range(10 ** 9)" , "[0] * 1000000000", "range(2000000)"])
def test_huge_lists_are_refused(tmp_path, expr):
    expr = expr.replace("10 ** 9", "1000000000")
    game = load(tmp_path, CARDS + f"""
variables:
  v: {{}}
flow:
  rounds: 1
  phases:
    - id: p
      do: "v = count({expr})"
""")
    with pytest.raises(RuleRuntimeError, match="limit `sequence`"):
        game.new_game(2)


def test_restoring_a_corrupt_save_is_an_input_error(tmp_path):
    from interpreter.errors import InputError
    game = load(tmp_path, CARDS + """
flow:
  rounds: 1
  phases:
    - id: p
      turns: seat
      turn: "choose c from deck by player"
""")
    data = game.new_game(2).to_json()
    for corrupt in ({**data, "zones": {"nowhere": [0]}}, {**data, "threads": [{"frames": "x"}]},
                    {**data, "rules_hash": "x"}, {**data, "game": "other"}):
        with pytest.raises(InputError):
            game.restore(corrupt)


def test_undo_of_an_unfinished_multiple_choice(tmp_path):
    from interpreter.decisions import undo_pick
    game = load(tmp_path, CARDS + """
setup:
  - {id: deal, do: "deal 3 from deck to hand"}
flow:
  rounds: 1
  phases:
    - id: p
      turns: seat
      turn: "choose 2 cs from hand[player]"
""")
    S = game.new_game(2, seed=1)
    start = S.hash()
    labels = S.option_labels(0)
    S.apply(0, 0)
    assert len(S.option_labels(0)) == 2
    assert undo_pick(S, 0)
    assert sorted(S.option_labels(0)) == sorted(labels) and S.history == []
    assert not undo_pick(S, 0)
    S.apply(0, 0)
    S.apply(0, 0)
    assert S.current_players() == [1] and not undo_pick(S, 0)
    assert S.hash() != start


def test_id_of_a_table_row_is_its_key(tmp_path):
    game = load(tmp_path, CARDS + """
tables:
  rows: [{id: first, n: 1}, {id: second, n: 2}]
variables:
  v: {}
flow:
  rounds: 1
  phases:
    - id: p
      do: "v = [r.id for r in rows] + [disclose(top(deck).id >= 0)]"   # (a hidden card: see infoflow)
""")
    assert game.new_game(2).vars["v"] == ["first", "second", True]


def test_choose_with_a_label_expression_and_end_game_text(tmp_path):
    game = load(tmp_path, CARDS + """
tables:
  names: ["north", "south", "east"]
flow:
  rounds: 1
  phases:
    - id: p
      turns: seat
      turn: |
        choose s from range(3) label names[s] + " district"
        if s == 2:
          end_game "{player} chose {names[s]}"
""")
    S = game.new_game(2)
    assert S.option_labels(0) == ["north district", "south district", "east district"]
    data = S.to_json()
    assert game.restore(data).option_labels(0) == S.option_labels(0)
    S.apply(0, 2)
    assert S.is_terminal() and S.result["reason"] == "P1 chose east"


def test_runtime_error_names_the_failing_statement_inside_a_block(tmp_path):
    game = load(tmp_path, CARDS + """
variables:
  v: {}
flow:
  rounds: 1
  phases:
    - id: p
      do: |
        let a = 1
        let b = 2
        v = a // (b - 2)
        let c = 3
""")
    with pytest.raises(RuleRuntimeError) as exc:
        game.new_game(2)
    assert exc.value.message == "division by zero"
    text = (tmp_path / "game.yaml").read_text().splitlines()
    assert "v = a // (b - 2)" in text[exc.value.pos.line - 1]


def test_label_expression_on_optional_and_multiple_choices(tmp_path):
    game = load(tmp_path, CARDS + """
tables:
  names: ["north", "south", "east"]
flow:
  rounds: 1
  phases:
    - id: p
      turns: seat
      turn: |
        choose s from range(3) optional label names[s]
        choose 1 to 2 xs from range(3) label names[xs]
""")
    S = game.new_game(2)
    assert S.option_labels(0) == ["north", "south", "east", "pass"]
    S.apply(0, 1)
    assert S.option_labels(0) == ["north", "south", "east"]
    S.apply(0, 0)
    assert S.option_labels(0) == ["south", "east", "done"]


def test_initial_values_and_counts_may_call_rule_functions(tmp_path):
    game = load(tmp_path, """
functions:
  start_money:
    expr: "3 * player_count"
components:
  coin:
    start: pool
    items: [{id: coin, count: "start_money()"}]
zones:
  pool: {}
variables:
  purse: {initial: "start_money() + 1"}
flow:
  rounds: 1
  phases:
    - id: p
      do: "pass"
""")
    S = game.new_game(3)
    assert S.vars["purse"] == 10 and len(S.zones["pool"]) == 9


def test_prompt_text_with_values_unique_of_nested_lists_and_len_of_text(tmp_path):
    game = load(tmp_path, CARDS + """
variables:
  v: {}
flow:
  rounds: 1
  phases:
    - id: p
      turns: seat
      turn: |
        v = [len(unique([[1, [2]], [1, [2]], [3]])), len("abc")]
        choose c from [1, 2] prompt "{player}, pick a number"
""")
    S = game.new_game(2)
    assert S.prompt(0) == "P1, pick a number" and S.vars["v"] == [2, 3]


DISCARDS = """
components:
  card:
    start: hand
    per_player: true
    discard: used
    items: [{id: a}, {id: b}]
  coin:
    start: bank
    items: [{id: coin, count: 2}]
zones:
  hand: {per: [player]}
  used: {per: [player]}
  bank: {}
  discard: {}
variables:
  v: {}
flow:
  rounds: 1
  phases:
    - id: p
      do: |
        discard hand[0] face down
        move top(bank) to discard
        v = [count(used[0]), count(hand[1]), count(discard), all(used[0], c => not c.face_up)]
"""


def test_discard_sends_pieces_to_their_components_discard_zone(tmp_path):
    # `discard` is a statement and still a zone name in expressions
    assert load(tmp_path, DISCARDS).new_game(2).vars["v"] == [2, 2, 1, True]


def test_discard_of_a_component_without_a_discard_zone_is_an_error(tmp_path):
    game = load(tmp_path, DISCARDS + "        discard bank\n")
    with pytest.raises(RuleRuntimeError, match="names no `discard:` zone"):
        game.new_game(2)
