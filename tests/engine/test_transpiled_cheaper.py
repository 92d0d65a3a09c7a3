"""Cheaper forms the generator writes (interpreter/transpile/, issue 12) play the engine's games
exactly, each on a small rule file that takes it, and each checked to be written: values of
expression functions kept per comprehension (call_cache.py), a simultaneous block with one
decision in two passes (blocks.py), `first(filter(xs, x => x.attr == v))` stopping at the
match, `filter(flatten(…))` and a sum of counts in one comprehension, `assignable` of no
element, a draw in one loop, a one-piece move with a forced face in place; and the runtime's
shortcuts (_assignable, _plain_options) against the engine's builtins."""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from interpreter.game import Game
from interpreter.transpile import transpile
from interpreter.transpile.compare import differing_seeds

GAME = """
game: {id: t, name: T, players: {min: 2, max: 4}}
components:
  gem:
    kind: token
    items:
      - {id: gem_1, value: 1, count: 5}
      - {id: gem_2, value: 2, count: 5}
  coin:
    kind: token
    items:
      - {id: coin_1, value: 1, count: 6}
  card:
    kind: card
    per_player: true
    start: deck
    items:
      - {id: ace, rank: 1}
      - {id: two, rank: 2}
      - {id: three, rank: 3}
      - {id: four, rank: 4}
zones:
  deck: {per: [player], ordered: true, visibility: hidden}
  hand: {per: [player], visibility: owner}
  table: {face: up}
  supply: {ordered: true, visibility: hidden}
  pot: {visibility: {face_up: all, face_down: none}}
  purse: {per: [player], visibility: {face_up: all, face_down: owner}}
counters:
  hits: {initial: 0}
variables:
  seen: {initial: "[]"}
functions:
  others:
    params: [p]
    expr: "filter(table, c => c.owner != p)"
  pool:
    params: [c]
    expr: "filter(flatten(zones(purse)), x => x.value == c.rank % 2 + 1)"
  gems_in:
    params: [zs]
    expr: "sum(zs, z => count(z, m => m.kind == gem))"
  first_worth:
    params: [z, v]
    expr: "first(filter(z, m => m.value == v))"
  take:
    params: [p, waiting]
    do: |
      let looks = [m for m in concat(pot, flatten(zones(purse))) if assignable(waiting, w => without(pool(w), [m]))]
      if count(looks) > 1:
        choose m from looks by p prompt "Take"
        move m to purse[p] face down
      elif count(looks) == 1:
        move first(looks) to purse[p]
setup:
  - id: s
    do: |
      move pieces(gem) to supply
      move pieces(coin) to supply
      shuffle supply
      for p in players:
        shuffle deck[p]
        draw 3 from deck[p] to hand[p]
        draw 2 from supply to purse[p] face down
      draw 4 from supply to pot face down
flow:
  rounds: 3
  phases:
    - id: pick
      turns: simultaneous
      turn: |
PICK
    - id: loot
      turns: seat
      turn: |
LOOT
scoring:
  score: "sum(purse[player], m => m.value) + hits"
"""

PICK = """
choose c from hand[player] prompt "Card"
move c to table
"""

LOOT = """
call take(player, others(player))
call take(player, [])
let gems = filter(flatten(zones(purse)), m => m.kind == gem)
seen = [m for m in gems]
hits = gems_in(zones(purse)) + sum(zones(purse), z => count(z))
let w = first_worth(pot, 2)
if w != none:
  move w to purse[player]
draw 1 from supply to pot face down
draw 1 from pot to pot
"""


def write(tmp_path: Path, pick: str = PICK, loot: str = LOOT, looks: str = "without(pool(w), [m])") -> Path:
    """The rule file above; `looks`: what `take` offers of each marker m for each card w waiting."""
    text = GAME.replace("without(pool(w), [m])", looks).replace("PICK", textwrap.indent(pick.strip("\n"), " " * 8))
    text = text.replace("LOOT", textwrap.indent(loot.strip("\n"), " " * 8))
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    Game.load(path)  # a valid rule file
    return path


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_cheaper_forms_play_the_engines_games(tmp_path, players):
    path = write(tmp_path)
    assert differing_seeds(path, players, None, range(25)) == []


def test_each_cheaper_form_is_written(tmp_path):
    source = transpile(write(tmp_path), 3)
    assert "_cc_" in source  # pool(w) kept per evaluation of the comprehension (call_cache.py)
    assert "_simultaneous(" not in source  # the pick in two passes (blocks.py)
    assert "_first_eq(" in source  # first(filter(z, m => m.value == v))
    assert "for _xs in " in source and " if (A_kind[" in source  # filter over flatten, one pass
    assert "sum(map(len, " in source
    assert "del " in source and ".extend(" in source  # draws in one loop
    assert "_move([" not in source


def test_assignable_of_no_element_is_true_without_a_call(tmp_path):
    """`call take(player, [])`: the parameter is the empty list wherever it is read, and
    `assignable([], …)` is written `True`."""
    source = transpile(write(tmp_path), 2)
    assert not re.search(r"^\s+waiting_\d+ = \[\]$", source, re.M)
    assert source.count("_assignable(") == 1  # only the call with the other players


def test_a_simultaneous_block_whose_decision_is_in_an_if_keeps_the_generators(tmp_path):
    pick = """
if count(hand[player]) > 1:
  choose c from hand[player] prompt "Card"
  move c to table
"""
    path = write(tmp_path, pick)
    assert "_simultaneous(" in transpile(path, 3)
    assert differing_seeds(path, 3, None, range(15)) == []


def test_a_block_reading_its_locals_after_the_decision(tmp_path):
    """A local set before the decision and read after it is kept per player between the
    passes (each player's own value, not the last player's)."""
    pick = """
let n = count(hand[player]) + player
choose c from hand[player] prompt "Card"
move c to table
if n > 3:
  draw 1 from supply to purse[player] face down
"""
    path = write(tmp_path, pick)
    assert "_simultaneous(" not in transpile(path, 3)
    assert differing_seeds(path, 3, None, range(20)) == []


def test_a_call_whose_argument_is_no_parameter_of_the_inner_function_is_not_kept(tmp_path):
    """pool(first(table)): its argument is not the inner function's parameter w (it is
    computed once per call, as before)."""
    path = write(tmp_path, looks="without(pool(first(table)), [m, w])")
    assert "_cc_" not in transpile(path, 2)
    assert differing_seeds(path, 2, None, range(15)) == []


def test_a_comprehension_that_draws_keeps_no_value(tmp_path):
    """random_choice inside the comprehension: every call made, as the engine makes them."""
    path = write(tmp_path, looks="without(pool(w), [m, random_choice([1, 2])])")
    assert "_cc_" not in transpile(path, 2)
    assert differing_seeds(path, 2, None, range(15)) == []


def test_the_runtimes_assignable_answers_as_the_builtin():
    """runtime._assignable's shortcut (enough distinct options for every element) and its
    fall-backs (repeated options, options that are lists) against builtins.matching."""
    from interpreter.builtins.matching import assignable
    from interpreter.transpile.runtime import _assignable

    options = {1: [7, 7], 2: [7, 7], 3: [7, 8], 4: [8, 9], 5: [[1], [2]], 6: [[1], [1]], 7: []}
    for xs in ([], [1], [1, 2], [3, 4], [3, 4, 1], [1, 3], [5, 6], [6, 6], [4, 7], [4, 4]):
        assert _assignable(xs, options.get) == assignable(None, xs, options.get), xs


def test_plain_options_of_hidden_and_face_down_pieces_are_the_piece_options(tmp_path):
    """_plain_options now answers hidden pieces (one per zone, back and face) and plain
    pieces whatever their face: the same options as _piece_options, on a mid-game program
    state (every purse and the pot, as each player sees them)."""
    from interpreter.transpile import program_of
    from interpreter.transpile.runtime import _piece_options, _plain_options

    source = transpile(write(tmp_path), 3)
    source = source.replace("    return scores, history", "    _seen.append((PS, PLAIN, z_purse, z_pot))\n"
                                                         "    return scores, history")
    names = {}
    play = program_of(source, "t")
    play.__globals__["_seen"] = seen = names.setdefault("seen", [])
    for seed in range(5):
        play(seed, [lambda options: 0] * 3)
    for ps, plain, purses, pot in seen:
        cands = [m for z in purses + [pot] for m in z]
        for who in range(3):
            assert _plain_options(cands, who, ps, plain) == _piece_options(cands, who, ps)



def test_roll_leaves_the_rng_as_below_would_and_asks_another_generator():
    """runtime._roll (test_transpiled_memo.py checks its draws): a piece without faces midway
    raises TypeError with the Rng where a loop of Rng.below calls leaves it (the dice before it
    rolled); a generator of another type is asked below() once per die."""
    from interpreter.rng import Rng
    from interpreter.transpile.runtime import _roll

    faces = [tuple(range(6))] * 12 + [None]
    rng, mine, values = Rng(5), Rng(5), [None] * 13
    rng.below(6)
    with pytest.raises(TypeError):
        _roll(mine, [0, 12, 1], faces, values)
    assert mine.state == rng.state and values[0] is not None and values[1] is None

    class Counting(Rng):
        calls = 0

        def below(self, n):
            Counting.calls += 1
            return n - 1
    values = [None] * 13
    _roll(Counting(1), [0, 1, 2], faces, values)
    assert Counting.calls == 3 and values[:3] == [5, 5, 5]


RANGES = LOOT + """
let k = count(hand[player]) + 2
for j in range(k):
  hits += j
hits += sum(range(1, k), j => j * 2) + count(range(k), j => j > 1)
seen = concat([j for j in range(k) if j != 1], map(range(k), j => j + 1), filter(range(2, k), j => j > 2))
"""


@pytest.mark.parametrize("players", [2, 4])
def test_a_range_only_iterated_over_is_no_list(tmp_path, players):
    """`range(…)` iterated by a for loop, a comprehension, sum/count/map/filter is Python's
    range itself (expressions.iterated): no list made; the same games as the engine."""
    path = write(tmp_path, loot=RANGES)
    assert differing_seeds(path, players, None, range(20)) == []
    source = transpile(path, players)
    assert re.search(r"for j_\d+ in range\(k_\d+\):", source)
    assert re.search(r"for j_\d+ in range\(1, k_\d+\)\]", source)
    assert re.search(r"for j_\d+ in range\(2, k_\d+\) if", source)
    assert "list(range(" not in source


FOLDED = """
game: {id: f, name: F, version: 1, players: {min: 2, max: 3}}
options:
  double: {type: bool, default: true, description: "Twice the rank."}
tables:
  rows:
    - {round: 1, size: 3}
    - {round: 2, size: 2}
    - {round: 3, size: 4}
components:
  card:
    kind: card
    start: deck
    items:
      - {id: a, rank: 1, count: 9}
      - {id: b, rank: 2, count: 9}
zones:
  deck: {ordered: true, visibility: hidden}
  hand: {per: [player]}
counters:
  points: {per: [player], initial: 0}
functions:
  size_in:
    params: [r]
    expr: "rows[r - 1].size * 2 if r > 0 else 0"
  later_total:
    expr: "sum([size_in(row.round) for row in rows if row.round > 1])"
setup:
  - id: deal
    do: |
      shuffle deck
      deal 2 from deck to hand
flow:
  rounds: 3
  phases:
    - id: play
      turns: seat
      turn: |
        choose c from hand[player] prompt "Card"
        move c to deck
        draw 1 from deck to hand[player]
        points[player] += c.rank + later_total() + size_in(round)
        points[player] += c.rank * 2 if option.double else c.rank - 1
scoring:
  score: "points[player]"
"""


@pytest.mark.parametrize("players", [2, 3])
def test_a_constant_function_calling_one_with_a_computed_argument_is_folded(tmp_path, players):
    """`later_total()` reads only a table through `size_in(row.round)` (an argument computed,
    so size_in is a nested function where it is called): folded all the same (constants.py's
    folded_inline), to its value 12; `size_in(round)` is still computed; the engine's games."""
    path = tmp_path / "game.yaml"
    path.write_text(FOLDED, encoding="utf-8")
    Game.load(path)
    assert differing_seeds(path, players, None, range(20)) == []
    source = transpile(path, players)
    assert re.search(r"\(A_rank\[c_\d+\] \+ 12\)", source)
    assert "T_rows[(v_round - 1)]" in source


@pytest.mark.parametrize("double", [True, False])
def test_a_condition_known_when_the_program_is_written_leaves_one_branch(tmp_path, double):
    """`x if option.double else y`: the option is known when the program is written, so only
    the branch it takes is written (expressions.e_Ternary); the engine's games either way."""
    path = tmp_path / "game.yaml"
    path.write_text(FOLDED, encoding="utf-8")
    Game.load(path)
    assert differing_seeds(path, 2, {"double": double}, range(15)) == []
    source = transpile(path, 2, {"double": double})
    assert " if True else " not in source and " if False else " not in source
    assert re.search(r"\+= \(A_rank\[c_\d+\] \* 2\)" if double else r"\+= \(A_rank\[c_\d+\] - 1\)", source)
