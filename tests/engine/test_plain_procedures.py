"""Procedures that never stop the game run as plain Python functions (compiler.link).

Each behaviour is checked on the default form and on the VM form (every procedure unfused, so
calls push frames), which must agree: errors name the same statement, limits stop the same
programs with the same codes, `return` and `end_game` do the same thing.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from interpreter.compiler import unfuse
from interpreter.errors import RuleRuntimeError
from interpreter.game import Game

from .helpers import load

RULES = """
zones:
  deck: {ordered: true}
variables:
  v: {initial: none}
  reason: {initial: none}
functions:
  first_even:              # return from inside a loop
    params: [xs]
    do: |
      for x in xs:
        if x % 2 == 0:
          return x
      return -1
  collect:                 # calls another plain procedure in a loop
    params: [xs]
    do: |
      let out = []
      for x in xs:
        out = out + [first_even([x, x + 1])]
      return out
  ask:                     # asks a player: never plain
    params: [p]
    do: |
      choose x from [1, 2] by p
      v = x
  ask_twice:               # calls a procedure that asks: never plain
    params: [p]
    do: |
      call ask(p)
      call ask(p)
flow:
  rounds: 1
  phases:
    - id: p
      do: |
        v = collect([1, 3, 4])
        call ask_twice(0)
"""


def _forms(tmp_path, body):
    """The game as loaded, and the same rules in their VM form."""
    linked = load(tmp_path, body)
    vm = load(tmp_path, body)
    for proc in vm.d.procs.values():
        unfuse(proc)
    return linked, vm


def test_only_procedures_that_never_stop_are_plain(tmp_path):
    game = load(tmp_path, RULES)
    plain = {name for name, proc in game.d.procs.items() if proc.plain is not None}
    assert {"fn:first_even", "fn:collect"} <= plain
    assert not plain & {"fn:ask", "fn:ask_twice", "main"}


def test_returns_from_loops_and_nested_calls(tmp_path):
    for game in _forms(tmp_path, RULES):
        S = game.new_game(2)
        assert S.vars["v"] == [2, 4, 4]
        S.apply(0, 1)
        assert S.vars["v"] == 2 and S.current_players() == [0]


FAILING = """
zones:
  deck: {ordered: true}
functions:
  outer:
    params: [n]
    do: |
      let a = n
      call inner(a)
  inner:
    params: [n]
    do: |
      let b = n + 1
      let c = [1, 2][b]
flow:
  rounds: 1
  phases:
    - id: p
      do: "call outer(5)"
"""


def test_an_error_names_the_statement_inside_the_procedure(tmp_path):
    lines = set()
    for game in _forms(tmp_path, FAILING):
        with pytest.raises(RuleRuntimeError) as exc:
            game.new_game(2)
        assert exc.value.code == "E300"
        lines.add(exc.value.pos.line)
    assert lines == {19}  # `let c = [1, 2][b]` (the file is helpers.BASE, then FAILING)


ENDING = """
zones:
  deck: {ordered: true}
variables:
  n: {initial: 0}
functions:
  tick_or_end:
    params: [k]
    do: |
      n += 1
      if k == 3:
        end_game "stopped at {k}"
flow:
  rounds: 1
  phases:
    - id: p
      do: |
        for k in range(10):
          call tick_or_end(k)
"""


def test_end_game_inside_a_plain_procedure_ends_the_game_at_once(tmp_path):
    for game in _forms(tmp_path, ENDING):
        S = game.new_game(2)
        assert S.is_terminal()
        assert S.vars["n"] == 4 and S.vars["end_reason"] == "stopped at 3"


def test_end_game_inside_an_expression_is_refused(tmp_path):
    body = ENDING.replace("call tick_or_end(k)", "let x = tick_or_end(k) == none")
    for game in _forms(tmp_path, body):
        with pytest.raises(RuleRuntimeError, match="ended the game inside an expression"):
            game.new_game(2)


DEEP = """
zones:
  deck: {{ordered: true}}
limits: {{depth: 30}}
variables:
  v: {{initial: 0}}
functions:
  down:
    params: [n]
    do: |
      if n > 0:
        call down(n - 1)
      else:
        v = 1
flow:
  rounds: 1
  phases:
    - id: p
      do: "call down({n})"
"""


def test_nested_plain_calls_count_toward_the_depth_limit(tmp_path):
    for game in _forms(tmp_path, DEEP.format(n=20)):
        assert game.new_game(2).vars["v"] == 1
    for game in _forms(tmp_path, DEEP.format(n=40)):
        with pytest.raises(RuleRuntimeError, match="nested more than 30 deep") as exc:
            game.new_game(2)
        assert exc.value.code == "E311"


def test_endless_calls_in_a_loop_run_out_of_steps(tmp_path):
    body = ENDING.replace("for k in range(10):", "while true:").replace("call tick_or_end(k)",
                                                                         "call tick_or_end(0)")
    body = body.replace("zones:", "limits: {steps: 1000}\nzones:")
    for game in _forms(tmp_path, body):
        with pytest.raises(RuleRuntimeError) as exc:
            game.new_game(2)
        assert exc.value.code == "E310" and "limit `steps`" in exc.value.message


ROOT = Path(__file__).resolve().parents[2]


def _play(S, rng, stop=None):
    while not S.is_terminal() and (stop is None or S.decisions < stop):
        waiting = S.current_players()
        p = waiting[rng.randrange(len(waiting))]
        S.apply(p, rng.randrange(S.option_count(p)))
    return S


@pytest.mark.parametrize("entry, players", [("rules/chicago_poker/game.yaml", 3),
                                            ("rules/dice_town/game.yaml", 4),
                                            ("rules/tic_tac_toe/game.yaml", 2)])
def test_a_game_saved_on_one_form_goes_on_the_same_on_the_other(entry, players):
    """Program counters and locals mean the same on both forms: a state saved (or cloned) in the
    middle of a game continues to the same end as the game played through."""
    linked = Game.load(ROOT / entry)
    vm = Game.load(ROOT / entry)
    for proc in vm.d.procs.values():
        unfuse(proc)
    for seed in range(2):
        whole = _play(linked.new_game(players, {}, seed), random.Random(seed)).hash()
        for first, second in ((vm, linked), (linked, vm)):
            rng = random.Random(seed)
            S = _play(first.new_game(players, {}, seed), rng, stop=12)
            copy = random.Random()
            copy.setstate(rng.getstate())
            restored = second.restore(json.loads(json.dumps(S.to_json())))
            assert _play(restored, rng).hash() == whole
            assert _play(S.clone(), copy).hash() == whole
