"""Code specialised at load time (codegen.py): builtins written out for the kind of their
arguments, reads of constant tables, expression functions that are constants computed once.
Each must give what the builtin gives (docs/dsl.md), including the edge cases (an empty zone,
a missing key or field)."""
from __future__ import annotations

import pytest

from interpreter.errors import RuleRuntimeError

from .helpers import load

GAME = """
components:
  card:
    start: pile
    items:
      - {id: ace, rank: 1}
      - {id: two, rank: 2}
      - {id: three, rank: 3}
zones:
  pile: {}
  empty_pile: {}
tables:
  rounds:
    - {round: 1, supply: singles}
    - {round: 2, supply: duplexes}
    - {round: 3, supply: duplexes, note: last}
  pattern: {a: [up, down], b: [down, down]}
  sizes: [4, 5, 6]
counters:
  level: {initial: 2}
variables:
  out: {initial: none}
  counted: {initial: none}
functions:
  duplex_round:                       # reads a table only: a constant
    expr: "first([r.round for r in rounds if r.supply == 'duplexes'])"
  last_round:
    expr: "last([r.round for r in rounds])"
  level_plus_one:                     # reads a counter: not a constant
    expr: "level + 1"
  high_cards:                         # surely a list
    params: [n]
    expr: "[c for c in pile if c.rank >= n]"
  some_cards:                         # a list on both branches
    params: [n]
    expr: "high_cards(n) if n > 0 else []"
flow:
  rounds: 1
  phases:
    - id: p
      do: |
        let before = level_plus_one()
        level = 10
        out = [duplex_round(), last_round(), before, level_plus_one(),
               first(empty_pile), last(empty_pile), first(pile).name, last(pile).name,
               count(high_cards(2)), len(some_cards(0)), first(some_cards(3)).name,
               [c.name for c in concat(high_cards(3), pile, [])],
               min2(level, 3), max2(2, level), min2(4, 4),
               pattern["a"][1], pattern["zzz"], sizes[2], [r.note for r in rounds]]
        let zs = [pile, empty_pile]
        let lists = [[1, 2], [], [3]]
        counted = [[count(z) for z in zs], [count(x) for x in lists],
                   len(flatten(zs)), flatten(lists), flatten([pile, [7]])[3]]
"""


def test_specialised_reads_give_the_builtins_values(tmp_path):
    S = load(tmp_path, GAME).new_game(2, seed=1)
    assert S.is_terminal()
    order = [c for c in ("ace", "two", "three")]
    first_name, last_name = S.vars["out"][6], S.vars["out"][7]
    assert {first_name, last_name} <= set(order) and first_name != last_name
    assert S.vars["out"][:6] == [2, 3, 3, 11, None, None]
    assert S.vars["out"][8:11] == [2, 0, "three"]
    assert S.vars["out"][11][0] == "three" and sorted(S.vars["out"][11][1:]) == sorted(order)
    assert S.vars["out"][12:] == [3, 10, 4, "down", None, 6, [None, None, "last"]]
    assert S.vars["counted"] == [[3, 0], [2, 0, 1], 3, [1, 2, 3], 7]  # zones and lists alike


def test_a_function_of_tables_only_is_folded_one_reading_state_is_not(tmp_path):
    game = load(tmp_path, GAME)
    env = game.d.code_env
    assert env["_f_duplex_round"].__code__.co_names == ()  # returns its value: no name looked up
    assert env["_f_last_round"].__code__.co_names == ()
    assert env["_f_duplex_round"](None) == 2  # a constant: needs no state
    with pytest.raises(AttributeError):
        env["_f_level_plus_one"](None)  # reads the state every time


def test_first_of_a_non_list_is_still_a_located_error(tmp_path):
    bad = GAME.replace("let before = level_plus_one()", "let before = first(level)")
    with pytest.raises(RuleRuntimeError) as exc:
        load(tmp_path, bad).new_game(2, seed=1)
    assert "expected a list or a zone" in str(exc.value)
    assert "game.yaml:" in str(exc.value)


ACTIONS = """
components:
  card: {start: pile, items: [{id: a}, {id: b}]}
zones:
  pile: {}
  taken: {}
counters:
  turns: {initial: 0}
actions:
  take:
    label: Take a card
    when: "count(pile) > 0 and player == 0"
    do: "move first(pile) to taken"
  wait:
    label: Wait
    do: "turns += 1"
flow:
  rounds: 1
  phases:
    - id: p
      do: |
        repeat 3:
          perform take, wait by 0
        repeat 1:
          perform take, wait by 1
"""


def test_perform_offers_the_actions_whose_when_holds(tmp_path):
    S = load(tmp_path, ACTIONS).new_game(2, seed=1)
    assert S.option_labels(0) == ["Take a card", "Wait"]
    S.apply(0, 0)
    S.apply(0, 0)
    assert S.option_labels(0) == ["Wait"]  # the pile is empty
    S.apply(0, 0)
    assert S.option_labels(1) == ["Wait"]  # `player == 0` is false for player 1
    S.apply(1, 0)
    assert S.is_terminal() and S.counters["turns"] == 2


def test_a_bad_when_is_reported_once_and_a_failing_one_is_located(tmp_path):
    from .helpers import errors_of
    errors = errors_of(tmp_path, ACTIONS.replace("count(pile) > 0", "count(piles) > 0"))
    assert len([e for e in errors if 'unknown name "piles"' in e]) == 1
    failing = ACTIONS.replace("count(pile) > 0", "count(pile) // count(taken) > 0")
    with pytest.raises(RuleRuntimeError) as exc:
        load(tmp_path, failing).new_game(2, seed=1)
    line = failing.splitlines().index("          perform take, wait by 0") + 1 + 5  # + helpers.BASE
    assert f"game.yaml:{line}:" in str(exc.value)


SHARED = """
components:
  card: {start: pile, items: [{id: a, rank: 1}, {id: b, rank: 2}, {id: c, rank: 3}]}
zones:
  pile: {}
  taken: {}
  hand: {per: [player]}
variables:
  out: {initial: none}
functions:
  grab:                     # a procedure: changes a hand in the middle of an expression
    do: |
      move first(pile) to hand[1]
      return 1
  around_a_grab:            # the hand is read before and after the grab
    expr: "count(hand[1]) + grab() + count(hand[1])"
  twice:                    # the same read twice, behind a test that protects it
    params: [p]
    expr: "0 if p == none else count(hand[p]) * 10 + count(hand[p])"
  ranks:                    # the same attribute read in several branches
    params: [c]
    expr: "'low' if c.rank == 1 else 'mid' if c.rank == 2 else c.rank"
flow:
  rounds: 1
  phases:
    - id: p
      do: |
        move first(pile) to hand[0]
        out = [around_a_grab(), twice(none), twice(0), twice(1), [ranks(c) for c in hand[1]], ranks(first(hand[0]))]
"""


def test_reads_made_once_give_what_each_read_gives(tmp_path):
    S = load(tmp_path, SHARED).new_game(2, seed=1)
    around, none_, mine, theirs, taken, held = S.vars["out"]
    assert around == 0 + 1 + 1  # an empty hand, one card grabbed: read again after the grab
    assert none_ == 0  # `hand[none]` is never read: no error
    assert (mine, theirs) == (11, 11)
    rank_name = {1: "low", 2: "mid", 3: 3}
    assert len(taken) == 1 and taken[0] in rank_name.values() and held in rank_name.values()
    assert held != taken[0]


def test_a_function_that_runs_a_procedure_shares_no_read(tmp_path):
    env = load(tmp_path, SHARED).d.code_env
    assert "_h0" not in env["_f_around_a_grab"].__code__.co_varnames
    assert "_h0" in env["_f_twice"].__code__.co_varnames  # the shared read (count of a hand)


LOCALS = """
variables:
  out: {initial: none}
  noticed_by: {initial: none}
functions:
  total:                    # plain: its locals become Python variables
    params: [xs]
    do: |
      let s = 0
      for x in xs:
        if x < 0:
          continue
        s += x
      let t = s
      s = t * 2
      return s
  told:                     # plain, but an `emit` reads the locals' dictionary: kept as it is
    params: [player]
    do: |
      emit noticed
      return player
triggers:
  seen:
    on: noticed
    do: "noticed_by = player"
flow:
  rounds: 1
  phases:
    - id: p
      do: |
        out = total([1, -5, 2, 3])
        out = [out, total([]), told(1)]
"""


def test_plain_procedure_locals_as_python_variables(tmp_path):
    game = load(tmp_path, LOCALS)
    S = game.new_game(2, seed=1)
    assert S.vars["out"] == [12, 0, 1] and S.vars["noticed_by"] == 1
    assert "_l_s" in game.d.procs["fn:total"].plain.__code__.co_varnames
    assert "_l_player" not in game.d.procs["fn:told"].plain.__code__.co_varnames
