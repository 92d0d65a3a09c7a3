"""Functions that ask grid questions, kept across games by what they read
(interpreter/transpile/grid_memo.py): which functions are kept and by what key, on small rule
files (each played as the engine plays it, many seeds through one loaded program, so that kept
values are found again), and what is refused, on hand-written nested functions."""
from __future__ import annotations

import random

from interpreter.game import Game
from interpreter.transpile import load_program, transpile
from interpreter.transpile.compare import differing_seeds, engine_trace, fast_trace, first_difference
from interpreter.transpile.grid_memo import kept_functions
from interpreter.transpile.grid_runtime import _keep
from .helpers import write_valid as write
from .test_transpiled_grids import TILES

# best_cells asks the placements and the look-ahead (through spots) about the shared board; it
# reads the round, the shape of the tile, a hand's pieces (one of them, whether it is empty)
LOOKING = TILES.replace("""scoring:""", """functions:
  spots:
    params: [t, cells, n]
    do: |
      let pieces = [[(0, 0)] for k in range(n)]
      let good = grid_completable_anchors(board, pieces, shape(t), cells, max_width=3, max_height=3)
      if len(good) > 0:
        return [(round * (c[0] + 2 * c[1] + 1)) % 4 + 1 if c in good else 0 for c in cells]
      return [round * c[1] for c in cells]
  best_cells:
    params: [p, t]
    do: |
      let cells = grid_placements(board, t, max_width=3, max_height=3, start=[(1, 1)])
      if len(cells) <= 1:
        return cells
      let n = 9 - len(grid_cells(board)) - len(shape(t)) - (1 if first(hand[p]) != none else 0)
      let levels = spots(t, cells, max2(0, n))
      let best = max(levels)
      return [cells[k] for k in range(len(cells)) if levels[k] == best or (len(hand[p]) > 0 and k == 0)]
  walking:
    params: [p, t]
    do: |
      let cells = grid_placements(board, t, max_width=3, max_height=3, start=[(1, 1)])
      return [c for c in cells if count(hand[p], u => len(shape(u)) > 1) < len(cells)]
scoring:""").replace(
    "        let cells = grid_placements(board, t, max_width=3, max_height=3, start=[(1, 1)])\n",
    "        let cells = best_cells(player, t) if round % 2 == 1 else walking(player, t)\n")


def test_a_look_ahead_function_is_kept_by_what_it_reads(tmp_path):
    path = write(tmp_path, LOOKING)
    source = transpile(path, 2)
    assert "K_p_spots = {}" in source and "K_p_best_cells = {}" in source
    assert "K_p_walking" not in source  # it walks a zone: not kept
    key = next(line for line in source.splitlines() if "_k = " in line and "t_" in line and "z_hand" in line)
    # the tile by its shape, the board by its cells, the hand by its pieces, p not itself
    assert "SHAPE[t_" in key and "_grid_key(g_board)" in key and "tuple(z_hand[p_" in key
    spots = next(line for line in source.splitlines() if "_k = " in line and "v_round" in line)
    assert "cells_" in spots and "n_" in spots and "_grid_key(g_board)" in spots
    for players in (2, 3):
        assert differing_seeds(path, players, {}, range(40)) == []


def test_kept_values_found_again_give_the_engines_games(tmp_path):
    """The same seeds played twice through one program: the second time every kept function
    finds its values (nothing new is kept), and the games are still the engine's."""
    path = write(tmp_path, LOOKING)
    game, play = Game.load(path), load_program(path, 2)
    engine = [engine_trace(game, 2, {}, seed) for seed in range(30)]
    first = [fast_trace(play, 2, seed) for seed in range(30)]
    sizes = {k: len(v) for k, v in play.__globals__.items() if k.startswith("K_")}
    again = [fast_trace(play, 2, seed) for seed in range(30)]
    assert sizes and all(sizes.values())
    assert sizes == {k: len(v) for k, v in play.__globals__.items() if k.startswith("K_")}
    for e, f, g in zip(engine, first, again):
        assert first_difference(e, f) is None and first_difference(e, g) is None


def test_the_resumable_form_keeps_them_too(tmp_path):
    from interpreter.transpile.stepper import load_stepper, stepper_source
    from tests.engine.test_transpiled_stepper import finish_both, lockstep
    path = write(tmp_path, LOOKING)
    assert "K_p_spots = {}" in stepper_source(path, 2)
    game, m, played = Game.load(path), load_stepper(path, 2), 0
    for seed in range(12):
        st, S = lockstep(m, game, 2, None, seed, 3, random.Random(seed))
        if m.over(st):
            continue
        played += 1
        offered, engine = finish_both(m, st, S, random.Random(seed + 1))
        assert offered == engine and m.history(st) == [list(h) for h in S.history]
        assert m.returns(st) == S.returns()
    assert played >= 6


# The same board asked about in two rounds (a tile is built every other round), by hands of
# different sizes (one or two tiles drawn, by the bag's top tile): a key without the round, the
# hand or the tile's shape would hand out another question's cells
AGAIN = """
components:
  tile:
    kind: tile
    items:
      - {id: red, shape: [[0, 0]], colour: [red], count: 16}
      - {id: blue, shape: [[0, 0]], colour: [blue], count: 16}
      - {id: red_blue, shape: [[0, 0], [1, 0]], colour: [red, blue], count: 8}
      - {id: blue_red, shape: [[0, 0], [0, 1]], colour: [blue, red], count: 8}
zones:
  bag: {ordered: true, visibility: hidden}
  hand: {per: [player], visibility: owner}
  board: {grid: {max_width: 3, max_height: 3}}
  gone: {}
functions:
  asked:
    params: [p, t]
    do: |
      let cells = grid_placements(board, t, max_width=3, max_height=3, start=[(1, 1)])
      let good = grid_completable_anchors(board, [[(0, 0)]], shape(t), cells, max_width=3, max_height=3)
      let h = len(hand[p])
      return [cells[k] for k in range(len(cells)) if (k + round + h) % 3 != 0 or cells[k] in good]
setup:
  - id: bag
    do: |
      move pieces(tile) to bag
      shuffle bag
flow:
  rounds: 6
  phases:
    - id: build
      turns: seat
      turn: |
        draw (3 - len(shape(first(bag)))) from bag to hand[player]
        let t = first(hand[player])
        let cells = asked(player, t)
        if len(cells) == 0:
          move t to gone
        else:
          choose c from cells
          if round % 2 == 0:
            move t to board at c face up
scoring:
  score: "len(grid_cells(board)) + len(hand[player])"
"""


def test_a_key_names_what_the_function_reads(tmp_path):
    key = next(line for line in transpile(write(tmp_path, AGAIN), 2).splitlines() if "_k = " in line)
    assert "SHAPE[t_" in key and "_grid_key(g_board)" in key and "tuple(z_hand[p_" in key and "v_round" in key


def test_a_key_tells_apart_what_the_function_reads(tmp_path):
    path = write(tmp_path, AGAIN)
    for players in (2, 3):
        assert differing_seeds(path, players, {}, range(60)) == []


def kept(text: str) -> tuple[list[str], str]:
    """The names kept_functions keeps among nested functions written at depth 1, and the code."""
    lines = ["    " + line for line in text.strip("\n").split("\n")]
    out, header = kept_functions(lines, 1, {"A_colour"})
    return [h.split(" ")[0][2:] for h in header], "\n".join(out)


ASKS = """
def f(i, t, cells):
    return _completable_anchors(g_city[i], [[(0, 0)]], list(SHAPE[t]), _listed(cells), 4, 4, [], [], [], True, False)
"""


def test_what_a_kept_function_may_read():
    names, code = kept(ASKS)
    assert names == ["f"] and "_value_text((cells, SHAPE[t], _grid_key(g_city[i])), 2)" in code
    # the same through a caller: its index given on, a play variable, a fixed attribute
    names, code = kept(ASKS + "def g(j, u):\n    return [A_colour[u], v_round, f(j, u, [(0, 0)])]\n")
    assert names == ["f", "g"] and "_value_text((A_colour[u], SHAPE[u], _grid_key(g_city[j]), v_round), 2)" in code
    # a function asking nothing is not kept (its key would cost more than it)
    assert kept("def h(i):\n    return len(g_city[i]) + v_round\n")[0] == []


def test_what_keeps_a_function_from_being_kept():
    refused = [
        "def f(i):\n    nonlocal v_round\n    v_round = 1\n    return _placements(g_city[i], (), 4, 4, [], [], [], [], False)\n",
        "def f(i, xs):\n    xs[0] = 1\n    return _placements(g_city[i], (), 4, 4, [], [], [], [], False)\n",
        "def f(i):\n    return _placements(g_city[i], FACE, 4, 4, [], [], [], [], False)\n",  # the looks
        "def f(i):\n    return [_placements(g_city[i], (), 4, 4, [], [], [], [], False), _tally(g_city[i], A_colour)]\n",
        "def f(i):\n    return _placements(g_city[i + 1], (), 4, 4, [], [], [], [], False)\n",  # a computed index
        "def f(i):\n    return [len([u for u in z_city[i]]), _placements(g_city[i], (), 4, 4, [], [], [], [], False)]\n",
        "def f(i):\n    return [z_city[i], _placements(g_city[i], (), 4, 4, [], [], [], [], False)]\n",  # the list itself
        "def f(i):\n    xs = []\n    xs.append(1)\n    return _placements(g_city[i], (), 4, 4, [], [], [], [], False)\n",
        "def f(i):\n    yield _placements(g_city[i], (), 4, 4, [], [], [], [], False)\n",
        "def f(i):\n    return _placements(g_city[i], (), 4, 4, [], [], [], [], False) + [rng.below(2)]\n",
        "def f(i):\n    return _placements(g_city[i], A_value, 4, 4, [], [], [], [], False)\n",  # a changing attribute
    ]
    for text in refused:
        assert kept(text)[0] == [], text
    # a caller of a function that may not be kept, or that gives it a computed grid index
    assert kept(refused[0] + "def g(i):\n    return f(i)\n")[0] == []
    assert kept(ASKS + "def g(i, t):\n    return f(i - 1, t, [])\n")[0] == ["f"]


def test_kept_values_are_copies_and_plain():
    memo: dict = {}
    levels = [1, 2]
    assert _keep(memo, b"k", levels, 10) is levels
    levels.append(3)
    assert memo[b"k"] == [1, 2]
    assert _keep(memo, b"n", [[1], [2]], 10) == [[1], [2]] and b"n" not in memo  # lists inside: not kept
    assert _keep(memo, b"c", [(0, 1), (2, 3)], 10) and memo[b"c"] == [(0, 1), (2, 3)]
    assert _keep(memo, b"z", None, 10) is None and b"z" not in memo
    small: dict = {}
    for k in range(5):
        _keep(small, k, k, 3)
    assert len(small) <= 3


def test_a_grids_key_and_kept_placements_follow_each_placement():
    """_grid_key (the kept mask and corner, found without _mask_of's call) names exactly the
    cells covered, and _placements' kept answers found by it are the engine's, while pieces are
    put on a grid in random order (its corner moving left and up) and taken off again."""
    from interpreter.builtins.grid import placements
    from interpreter.transpile.grid_runtime import _STRIDE, _Cells, _grid_key, _off_grid, _place, _placements
    rng = random.Random(11)
    shapes = [((0, 0),), ((0, 0), (1, 0)), ((0, 0), (0, 1))]
    spec = {"max_width": 4, "max_height": 4}
    for _ in range(200):
        g, z, gpos = _Cells(), [], [None] * 20
        src = list(range(20))
        loc = [src] * 20
        for pc in range(rng.randint(1, 7)):
            shape = rng.choice(shapes)
            spots = placements(dict(g), shape, 4, 4, None, None, None, [(0, 0)], False) if g else [(0, 0)]
            if not spots:
                break
            _place(pc, rng.choice(spots), shape, g, z, spec, loc, gpos)
            if rng.random() < 0.2 and len(z) > 1:  # one taken off: the cells free again
                gone = rng.choice(z)
                _off_grid(gone, gpos)
                z.remove(gone)
            mask, x0, y0 = _grid_key(g)
            assert {(x0 + b % _STRIDE, y0 + b // _STRIDE) for b in range(mask.bit_length()) if mask >> b & 1} == set(g)
            for shape in shapes:
                for _ in range(2):  # the second time from the kept answer
                    out = _placements(g, shape, 4, 4, [], [], [], [(0, 0)], True)
                    assert out == placements(dict(g), shape, 4, 4, None, None, None, [(0, 0)], True)
                    assert len(set(out)) == len(out)  # each anchor once (distinct_options.py)
