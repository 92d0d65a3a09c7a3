"""Generated programs (interpreter/transpile/) of the grid games play the engine's games: the same
options offered at every decision, the same decisions, returns and final state (Between Two
Cities with its house rule, Capitals with each module off). Plus the constructs the grid area
added, each on a small rule file: grid zones (`move … at`, pieces leaving a grid), the grid
builtins, value-giving procedures called in expressions, a choice setting a local already bound,
tuples and the list builtins (get, ranking, awards_by_place, pass_zones, concat, range), and
what the generator refuses."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.game import Game
from interpreter.transpile import Unsupported, transpile
from interpreter.transpile.compare import differing_seeds
from .helpers import write_valid as write

ROOT = Path(__file__).resolve().parents[2]
BTC = ROOT / "rules" / "between_two_cities" / "game.yaml"
PARK_LOVERS = ROOT / "rules" / "between_two_cities" / "variants" / "park_lovers.yaml"
CAPITALS = ROOT / "rules" / "between_two_cities" / "capitals.yaml"


differences = differing_seeds  # the seeds whose game or final state differs, with where


CONFIGS = ([(BTC, n, {}, ()) for n in range(3, 8)] + [(BTC, n, {}, (PARK_LOVERS,)) for n in (3, 7)]
           + [(CAPITALS, n, {}, ()) for n in range(3, 8)]
           + [(CAPITALS, n, {"landscapes": False}, ()) for n in (3, 7)]
           + [(CAPITALS, n, {"districts": False}, ()) for n in (3, 6)]
           + [(CAPITALS, n, {"civic_buildings": False}, ()) for n in (3, 4)])
IDS = [f"{p.stem}-{n}p-{o}{'-' + v[0].stem if v else ''}" for p, n, o, v in CONFIGS]


@pytest.mark.parametrize("path,players,options,variants", CONFIGS, ids=IDS)
def test_the_generated_program_plays_the_engines_games(path, players, options, variants):
    assert differences(path, players, options, range(4), variants) == []


@pytest.mark.slow
@pytest.mark.parametrize("path,players,options,variants", CONFIGS, ids=IDS)
def test_the_generated_program_plays_the_engines_games_long(path, players, options, variants):
    assert differences(path, players, options, range(100), variants) == []


def same(path: Path, players: int = 2, seeds: int = 15) -> None:
    assert differences(path, players, {}, range(seeds)) == []


# Tiles of one or two squares, each square of a colour; every player builds a shared 3×3 grid,
# choosing where from the legal cells (a choice of cells), and scores by the grid builtins.
TILES = """
components:
  tile:
    kind: tile
    items:
      - {id: red, shape: [[0, 0]], colour: [red], count: 6}
      - {id: blue, shape: [[0, 0]], colour: [blue], count: 6}
      - {id: red_blue, shape: [[0, 0], [1, 0]], colour: [red, blue], count: 3}
      - {id: blue_red, shape: [[0, 0], [0, 1]], colour: [blue, red], count: 3}
zones:
  bag: {ordered: true, visibility: hidden}
  hand: {per: [player], visibility: owner}
  board: {grid: {max_width: 3, max_height: 3}}
  gone: {}
counters:
  points: {per: [player], initial: 0}
setup:
  - id: bag
    do: |
      move pieces(tile) to bag
      shuffle bag
flow:
  rounds: 4
  phases:
    - id: build
      turns: seat
      turn: |
        draw 1 from bag to hand[player]
        let t = first(hand[player])
        let cells = grid_placements(board, t, max_width=3, max_height=3, start=[(1, 1)])
        if len(cells) == 0:
          move t to gone
        else:
          choose c from cells
          points[player] += get(grid_tally(board, "colour"), "red", 0) + len(grid_cells_with(board, "colour", "blue"))
          move t to board at c face up
          let around = grid_neighbor_values(board, c, "colour")
          points[player] += len(around) + len(shape(t))
          points[player] += get(grid_tally(board, "colour"), "red", 0) * 3 + len(grid_cells_with(board, "colour", "blue"))
scoring:
  final: |
    for p in players:
      points[p] += len(grid_cells_with(board, "colour", "red")) * (p + 1)
      points[p] += get(grid_tally(board, "colour"), "blue", 0)
      points[p] += len(grid_components(grid_cells_with(board, "colour", ["red"])))
      points[p] += grid_line_partition(grid_cells_with(board, "colour", "blue"), [0, 1, 3, 6])
      points[p] += 1 if grid_cell_value(board, (1, 1), "colour") == "red" else 0
      points[p] += len(grid_cells(board))
  score: "points[player]"
"""


def test_grid_zones_and_their_builtins(tmp_path):
    same(write(tmp_path, TILES), 2)
    same(write(tmp_path, TILES), 3)


def test_the_look_ahead_builtin(tmp_path):
    """grid_completable_anchors: only the cells after which the grid can still be filled."""
    text = TILES.replace(
        "          choose c from cells\n",
        "          let good = grid_completable_anchors(board, [[(0, 0)], [(0, 0), (1, 0)]], shape(t), cells,\n"
        "            max_width=3, max_height=3)\n"
        "          choose c from (good if len(good) > 0 else cells)\n")
    same(write(tmp_path, text), 2)


def test_a_piece_leaving_a_grid_frees_its_cells(tmp_path):
    """Every turn the last tile built goes back to the bag (its cells free again)."""
    text = TILES.replace("          points[player] += len(around) + len(shape(t))\n",
                         "          points[player] += len(around) + len(shape(t))\n"
                         "          if len(grid_cells(board)) > 3:\n"
                         "            move grid_at(board, c) to bag\n")
    path = write(tmp_path, text)
    assert "_off_grids" in transpile(path, 2)
    same(path, 2)


# A value-giving procedure (returns from inside a loop, a `let`, a call of another), a choice
# setting a local already bound under an `if`, tuples, get, ranking, awards_by_place,
# pass_zones, concat of three lists, two-argument range, previous_player.
PROCS = """
tables:
  bonus: {a: 1}
components:
  card:
    items:
      - {id: c1, rank: 1}
      - {id: c2, rank: 2}
      - {id: c3, rank: 3}
      - {id: c4, rank: 4}
      - {id: c5, rank: 5}
      - {id: c6, rank: 6}
      - {id: c7, rank: 7}
      - {id: c8, rank: 8}
zones:
  deck: {ordered: true, visibility: hidden}
  hand: {per: [player], visibility: owner}
  pile: {}
counters:
  points: {per: [player], initial: 0}
functions:
  best_rank:
    params: [p]
    do: |
      let best = -1
      for c in hand[p]:
        if c.rank > best:
          best = c.rank
        if c.rank == 8:
          return 100
      return best
  low_cards:
    params: [p]
    do: |
      if count(hand[p]) == 0:
        return []
      return [c for c in hand[p] if c.rank < best_rank(p)]
setup:
  - id: deal
    do: |
      move pieces(card) to deck
      shuffle deck
      deal 3 from deck to hand
flow:
  rounds: 2
  phases:
    - id: play
      turns: seat
      turn: |
        let c = first(hand[player])
        if len(low_cards(player)) > 1:
          choose c from low_cards(player)
        move c to pile
        let pair = (player, previous_player(player))
        points[pair[0]] += get(bonus, "a", 0) + get(bonus, "b", 2) + len(concat([1], [2], [pair[1]])) + sum(range(1, 3))
    - id: pass
      do: "pass_zones(hand, 1)"
scoring:
  final: |
    let places = ranking(players, p => best_rank(p), "dense")
    for p in players:
      points[p] += places[p]
    for pair in awards_by_place(players, p => points[p], [5, 2], "split_down"):
      points[pair[0]] += pair[1]
  score: "points[player]"
"""


def test_value_procedures_rebound_choices_and_list_builtins(tmp_path):
    path = write(tmp_path, PROCS)
    source = transpile(path, 3)
    assert "def p_best_rank(" in source and "def p_low_cards(" in source
    same(path, 2)
    same(path, 3)


def test_a_decision_inside_a_value_procedure_is_refused(tmp_path):
    """`let x = f(…)` of a procedure that asks a player (the engine allows it as a statement)."""
    text = PROCS.replace("  low_cards:\n", "  pick:\n    params: [p]\n    do: |\n      choose x from hand[p] by p\n"
                                           "      return x\n  low_cards:\n")
    text = text.replace("        move c to pile\n", "        let x = pick(player)\n        move x to pile\n")
    with pytest.raises(Unsupported, match="a decision inside the value-giving function pick"):
        transpile(write(tmp_path, text), 2)


def test_dealing_from_a_grid_zone_is_refused(tmp_path):
    text = TILES.replace("    - id: build\n", "    - id: take\n      do: \"draw 1 from board to gone\"\n"
                                                 "    - id: build\n")
    with pytest.raises(Unsupported, match="dealing or drawing from a grid zone"):
        transpile(write(tmp_path, text), 2)


def test_the_resumable_form_plays_grids_and_value_procedures_as_the_engine(tmp_path):
    """stepper.py: grid cells (and where each piece lies) copied by clone, value-giving
    functions nested in its generator over the copy's own state: a game and its copy made at
    each decision play as the engine's (lowest waiting seat first)."""
    import random
    from interpreter.game import Game
    from interpreter.transpile.stepper import load_stepper
    from tests.engine.test_transpiled_stepper import finish_both, lockstep
    for k, text in enumerate((TILES, PROCS)):
        folder = tmp_path / str(k)
        folder.mkdir()
        path = write(folder, text)
        game, m, played = Game.load(path), load_stepper(path, 2), 0
        for seed in range(4):
            for at in range(0, 12, 3):
                st, S = lockstep(m, game, 2, None, seed, at, random.Random(seed))
                if m.over(st):
                    continue
                played += 1
                copy, S_copy = m.clone(st), S.clone()
                for ours, theirs, draws in ((copy, S_copy, at), (st, S, at + 1)):
                    offered, engine = finish_both(m, ours, theirs, random.Random(draws))
                    assert offered == engine and m.history(ours) == [list(h) for h in theirs.history]
                    assert m.returns(ours) == theirs.returns()
        assert played >= 4


def test_kept_placements_are_the_engines_on_grids_of_any_width():
    """grid_runtime keeps answers by a grid's cells as a bit mask (64 bits a row): a grid wider
    than that must not share a key with another (cell (70, 0) is bit 70, as (6, 1) would be)."""
    from interpreter.builtins.grid import placements
    from interpreter.transpile.grid_runtime import _Cells, _placements
    for cells in ([(0, 0), (70, 0)], [(0, 0), (6, 1)], [(0, 0), (1, 0), (0, 1)]):
        g = _Cells()
        for k, c in enumerate(cells):
            g[c] = (k, 0)
        for shape in (((0, 0),), ((0, 0), (1, 0))):
            for bound in (3, 80):
                expected = placements(dict(g), shape, bound, bound)
                assert _placements(g, shape, bound, bound, [], [], [], None, False) == expected
                assert _placements(g, shape, bound, bound, [(5, 5)], [], [], None, True) == \
                    placements(dict(g), shape, bound, bound, [(5, 5)], None, None, None, True)


def test_placements_worked_out_by_the_program_are_the_engines():
    """grid_runtime works placements out from a grid's kept neighbour cells and box, with
    blocked, linked and included cells and the `fillable` rule: the engine's answers, on 300
    random grids (seeded)."""
    import random
    from interpreter.builtins.grid import placements
    from interpreter.transpile.grid_runtime import _Cells, _placements
    rng = random.Random(7)
    square = [(x, y) for x in range(-1, 5) for y in range(-1, 5)]
    for _ in range(300):
        cells = rng.sample(square, rng.randint(1, 9))
        blocked = [list(c) for c in rng.sample([c for c in square if c not in cells], rng.randint(0, 5))]
        free = [c for c in square if c not in cells and list(c) not in blocked]
        links = [[list(a), list(b)] for a, b in (rng.sample(square, 2) for _ in range(rng.randint(0, 2)))]
        include = [list(rng.choice(free))] if rng.random() < 0.3 else []
        g = _Cells()
        for k, c in enumerate(cells):
            g[c] = (k, 0)
        for shape in (((0, 0),), ((0, 0), (1, 0)), ((0, 0), (0, 1))):
            for bound in (4, 5, 7):
                for fillable in (False, True):
                    args = (blocked, links, include, None, fillable)
                    assert _placements(g, shape, bound, bound, *args) == \
                        placements(dict(g), shape, bound, bound, *args), (cells, args, shape, bound)


def test_rankings_worked_out_by_the_program_are_the_engines():
    """grid_runtime._ranking works out rankings of whole-number values itself: the engine's
    answers (builtins.majority.ranking) on random lists, every tie policy, values of other
    types (floats, true) and repeated elements included, f called as often as there."""
    import random
    from interpreter.builtins.majority import ranking
    from interpreter.transpile.grid_runtime import _ranking
    rng = random.Random(13)
    for _ in range(3000):
        n = rng.randint(0, 6)
        xs = rng.sample(range(10), n) if rng.random() < 0.8 else [rng.randint(0, 3) for _ in range(n)]
        kinds = [None, 0, 1, 2, 3] + ([-1, 2.0, True] if rng.random() < 0.2 else [])
        values = {x: rng.choice(kinds) for x in xs}
        policy = rng.choice(["share", "skip_next", "dense", "drop"])
        calls = []
        got = _ranking(list(xs), lambda x: calls.append(x) or values[x], policy)
        assert got == ranking(None, tuple(xs), values.get, policy) and calls == list(xs), (xs, values, policy)


def test_link_maps_kept_by_the_runtime_follow_a_changed_list():
    """grid_runtime._link_map finds the link map of the last few links again by their content
    when asked: the engine's map, and a list changed since is read anew."""
    from interpreter.builtins.grid import _link_map as engine_link_map
    from interpreter.transpile.grid_runtime import _link_map
    links = [[[0, 0], [2, 0]]]
    assert _link_map(links) == engine_link_map(links)
    assert _link_map(links) is _link_map(links)
    links.append([[0, 1], [2, 1]])
    assert _link_map(links) == engine_link_map(links) and (2, 1) in _link_map(links)


def test_cells_with_a_value_read_from_the_grouped_cells_are_the_engines():
    """grid_runtime._cells_with answers from the grid's cells grouped by value once
    (_groups_of): the cells builtins.grid_cells_with's reading keeps (each square's value, a
    list attribute's element for its part, none past its end; 1 and true alike), sorted, for
    scalar and list arguments, on random grids, and again after the grid changes."""
    import random
    from interpreter.transpile.grid_runtime import _Cells, _cells_with, _place
    rng = random.Random(9)
    values = [rng.choice(["a", "b", 1, True, None, ["a", "b"], ("b",), [1, "c"]]) for _ in range(40)]

    def literal(g, wanted):
        want = set(wanted) if isinstance(wanted, (list, tuple)) else {wanted}
        out = []
        for c, (pc, part) in g.items():
            v = values[pc]
            if type(v) in (list, tuple):
                v = v[part] if part < len(v) else None
            if v in want:
                out.append(c)
        return sorted(out)

    for _ in range(100):
        g, loc, gpos, z = _Cells(), [None] * 40, [None] * 40, []
        pieces = list(range(40))
        rng.shuffle(pieces)
        home = list(pieces)
        for pc in home:
            loc[pc] = home
        for pc in pieces[:rng.randint(1, 12)]:
            at = (rng.randint(0, 5) * 2, rng.randint(0, 5))
            if at in g or (at[0] + 1, at[1]) in g:
                continue
            for wanted in ("a", "b", 1, None, ["a", "c"], [True, None], ()):
                assert _cells_with(g, values, wanted) == literal(g, wanted)
            _place(pc, at, ((0, 0), (1, 0)), g, z, {}, loc, gpos)
