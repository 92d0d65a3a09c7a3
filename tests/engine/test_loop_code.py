"""Generated code written as statements (codegen.py, compiler.py): an expression function whose
body is `any(xs, x => …)` or `all(…)` is a `for` loop, a table's cell known to be a list is
indexed directly, and a `choose` or a `for` copies a list without calling items(). Each gives
what the general form gives and counts the same work (the `work` limit trips at the same point)."""
from __future__ import annotations

import pytest

from interpreter import budget
from interpreter.errors import RuleRuntimeError

from interpreter.game import Game

from .helpers import load, write_game

GAME = """
components:
  card: {start: pile, items: [{id: a, rank: 1}, {id: b, rank: 2}, {id: c, rank: 3}]}
zones:
  pile: {}
tables:
  lines: [[[0, 1], [1, 2]], [[0, 2]], []]
variables:
  cells: {initial: [3, 1, 2]}
  out: {initial: none}
  seen: {initial: []}
functions:
  some_line:
    params: [i]
    expr: "any(lines[i], l => l[0] + l[1] == 3)"
  every_line:
    params: [i]
    expr: "all(lines[i], l => l[1] > l[0])"
  any_truthy:
    params: [xs]
    expr: "any(xs, x => x)"
  all_truthy:
    params: [xs]
    expr: "all(xs, x => x)"
  high_card:
    params: [n]
    expr: "any(pile, c => c.rank >= n)"
  mixed:
    params: [n]
    expr: "n or (any(cells, x => x > n) and not all(cells, x => x > 1))"
  guarded:
    params: [n]
    expr: "n > 0 and any(pile, c => c.rank == n) or n"
flow:
  rounds: 1
  phases:
    - id: p
      do: |
        out = [some_line(0), some_line(1), some_line(2), every_line(0), every_line(1), every_line(2),
               any_truthy([0, 0]), any_truthy([0, 2]), all_truthy([1, 0]), all_truthy([]),
               high_card(3), high_card(4), lines[0][1][0],
               any(lines[0], l => l[0] + l[1] == 3), all([1, 0], x => x),
               mixed(5), mixed(0), mixed(-1), mixed(false), guarded(2), guarded(7), guarded(0),
               count(lines[0]), first(lines[1]), empty(lines[2]), count(players), first(players)]
        for c in cells:
          seen = seen + [c]
        choose x from cells by 0
        cells = []
        out = out + [x]
"""


def test_loops_give_what_the_builtins_give(tmp_path):
    S = load(tmp_path, GAME).new_game(2, seed=1)
    assert S.vars["out"] == [True, False, False, True, True, True, False, True, False, True,
                             True, False, 1, True, False, 5, True, -1, True, True, 7, 0,
                             2, [0, 2], True, 2, 0]
    assert S.vars["seen"] == [3, 1, 2]
    assert S.option_labels(0) == ["3", "1", "2"]
    S.apply(0, 1)
    assert S.vars["out"][-1] == 1  # the candidates were a copy: emptying `cells` changed nothing


def test_generated_forms(tmp_path):
    env = load(tmp_path, GAME).d.code_env
    for name in ("some_line", "every_line", "any_truthy", "high_card", "mixed", "guarded"):
        names = env[f"_f_{name}"].__code__.co_names
        assert "any" not in names and "all" not in names  # a loop, no generator
    assert "_index" not in env["_f_some_line"].__code__.co_names  # a cell: a list, indexed directly
    assert "_items" not in env["_f_some_line"].__code__.co_names


def test_the_same_work_is_counted(tmp_path):
    game = load(tmp_path, GAME)
    game.new_game(2, seed=1)
    # the expressions and the loop above visit this many elements and call no counted function
    # (the same number as with any() over a generator and list(_items(...)) before)
    assert budget.METER.work == 53


@pytest.mark.parametrize("limit, where", [(10, "out = [some_line(0)"), (49, "for c in cells"),
                                          (52, "choose x from cells")])
def test_the_work_limit_stops_the_loop_forms_where_it_did(tmp_path, limit, where):
    path = write_game(tmp_path, GAME + f"limits: {{work: {limit}}}\n")
    with pytest.raises(RuleRuntimeError) as exc:
        Game.load(path).new_game(2, seed=1)
    assert exc.value.code == "E310"
    assert where in path.read_text().splitlines()[exc.value.pos.line - 1]
