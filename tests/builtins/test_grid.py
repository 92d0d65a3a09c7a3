"""Grid builtins on abstract data: a sparse board of coloured tiles, some two squares wide."""
from __future__ import annotations

import itertools
import random

import pytest

from interpreter.builtins import grid
from interpreter.errors import RuleRuntimeError
from interpreter.game import Game

BOARD = """
game: {id: t, name: T, players: {min: 2, max: 4}}
components:
  tile:
    shape: [[0, 0]]
    items:
      - {id: red, colours: [red], count: 30}
      - {id: blue, colours: [blue], count: 30}
  domino:
    shape: [[0, 0], [1, 0]]
    items:
      - {id: red_blue, colours: [red, blue], count: 4}
  tower:
    shape: [[0, 0], [0, 1]]
    items:
      - {id: blue_red, colours: [blue, red], count: 4}
zones:
  bag: {}
  board: {grid: {max_width: 9, max_height: 9}}
flow:
  rounds: 1
  phases:
    - id: wait
      do: |
        choose x from [1, 2] by first(players)
"""


@pytest.fixture()
def board(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(BOARD, encoding="utf-8")
    game = Game.load(path)
    S = game.new_game(2, {}, 1)
    zone = S.lay.zone_index["board"][()]
    pieces = {}
    for p, static in enumerate(S.lay.static):
        pieces.setdefault(static["name"], []).append(S.lay.pieces[p])

    def put(name, cell):
        S.move([pieces[name].pop()], zone, at=cell)

    return S, zone, put


def test_cell_values_of_multi_square_pieces(board):
    S, zone, put = board
    put("red_blue", (0, 0))
    put("blue_red", (2, 0))
    assert grid.grid_cell_value(S, zone, (0, 0), "colours") == "red"
    assert grid.grid_cell_value(S, zone, [1, 0], "colours") == "blue"
    assert grid.grid_cell_value(S, zone, (2, 1), "colours") == "red"
    assert grid.grid_cell_value(S, zone, (5, 5), "colours") is None
    assert grid.grid_cells_with(S, zone, "colours", "red") == [(0, 0), (2, 1)]
    assert grid.grid_cells_with(S, zone, "colours", ["red", "blue"]) == [(0, 0), (1, 0), (2, 0), (2, 1)]
    assert grid.grid_tally(S, zone, "colours") == {"red": 2, "blue": 2}


def test_neighbours_and_links(board):
    S, zone, put = board
    put("red", (0, 0))
    put("blue", (1, 0))
    put("red", (3, 0))
    links = [[[0, 0], [3, 0]]]
    assert sorted(grid.grid_neighbors(S, zone, (0, 0))) == [(-1, 0), (0, -1), (0, 1), (1, 0)]
    assert (3, 0) in grid.grid_neighbors(S, zone, (0, 0), links=links)
    assert grid.grid_neighbor_values(S, zone, (0, 0), "colours") == ["blue"]
    assert sorted(grid.grid_neighbor_values(S, zone, (0, 0), "colours", links=links)) == ["blue", "red"]
    assert (2, 0) in grid.grid_free_adjacent(S, zone)
    assert (0, 0) not in grid.grid_free_adjacent(S, zone)


def test_regions_and_components(board):
    S, zone, put = board
    for c in [(0, 0), (1, 0), (1, 1), (3, 0), (3, 1), (5, 5)]:
        put("red", c)
    put("blue", (2, 0))
    reds = grid.grid_regions(S, zone, lambda c: grid.grid_cell_value(S, zone, c, "colours") == "red")
    assert reds == [[(0, 0), (1, 0), (1, 1)], [(3, 0), (3, 1)], [(5, 5)]]
    linked = grid.grid_components(S, [(0, 0), (1, 0), (1, 1), (3, 0), (3, 1), (5, 5)], links=[[(1, 1), (3, 1)]])
    assert linked == [[(0, 0), (1, 0), (1, 1), (3, 0), (3, 1)], [(5, 5)]]
    assert grid.grid_components(S, []) == []


def test_bounding_box(board):
    S, _, _ = board
    assert grid.grid_bbox(S, [(1, 2), (-1, 4)]) == [-1, 2, 1, 4]
    assert grid.grid_bbox(S, []) is None
    assert grid.grid_fits_box(S, [(0, 0), (3, 3)], 4, 4)
    assert not grid.grid_fits_box(S, [(0, 0), (4, 0)], 4, 4)
    assert grid.grid_fits_box(S, [], 1, 1)


def test_placements_start_adjacency_bounds_blocked_links(board):
    S, zone, put = board
    tile = S.lay.pieces[0]
    domino = next(p for p in S.lay.pieces if S.lay.static[p]["name"] == "red_blue")
    tower = next(p for p in S.lay.pieces if S.lay.static[p]["name"] == "blue_red")
    # an empty zone: only the start cells
    assert grid.grid_placements(S, zone, tile) == [(0, 0)]
    assert grid.grid_placements(S, zone, tile, start=[(2, 2), (0, 1)], blocked=[(0, 1)]) == [(2, 2)]
    put("red", (0, 0))
    assert grid.grid_placements(S, zone, tile) == [(0, -1), (-1, 0), (1, 0), (0, 1)]
    # blocked cells and a link across them
    got = grid.grid_placements(S, zone, tile, blocked=[(1, 0)], links=[[(0, 0), (2, 0)]])
    assert got == [(0, -1), (-1, 0), (2, 0), (0, 1)]
    # bounds: a row of 3 in a 3-wide box
    put("red", (1, 0))
    put("red", (2, 0))
    got = grid.grid_placements(S, zone, tile, max_width=3, max_height=3)
    assert (3, 0) not in got and (-1, 0) not in got and (1, 1) in got
    # `include` cells count for the box although nothing covers them
    got = grid.grid_placements(S, zone, tile, max_width=3, max_height=3, include=[(0, 2)])
    assert (1, -1) not in got and (1, 1) in got
    # multi-square pieces: every square free, one square adjacent, the box respected
    got = grid.grid_placements(S, zone, domino, max_width=3, max_height=3)
    assert (0, 1) in got and (1, 1) in got and (2, 1) not in got and (-2, 0) not in got
    got = grid.grid_placements(S, zone, tower, max_width=3, max_height=3)
    assert (0, 1) in got and (0, -2) in got and (0, -3) not in got
    assert grid.grid_placements(S, zone, domino, max_width=1) == []


def test_placements_reject_a_non_grid_zone(board):
    S, _, _ = board
    bag = S.lay.zone_index["bag"][()]
    with pytest.raises(RuleRuntimeError):
        grid.grid_placements(S, bag, S.lay.pieces[0])


SCORES = [0, 2, 5, 10, 16, 18]


@pytest.mark.parametrize("cells,expected", [
    ([], 0),
    ([(0, 0)], 2),
    ([(0, 0), (1, 0)], 5),
    ([(0, 0), (2, 0)], 4),                                    # a gap: two lines
    ([(0, 0), (1, 1)], 4),                                    # a diagonal: two lines
    ([(0, 0), (1, 0), (2, 0), (1, 1), (1, 2)], 15),           # T: 3 + 2
    ([(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)], 14),           # plus: 3 + 1 + 1
    ([(0, 0), (1, 0), (0, 1), (1, 1)], 10),                   # block: 2 + 2
    ([(x, 0) for x in range(5)], 18),
    ([(x, 0) for x in range(7)], 26),                         # longer than the table: 4 + 3
    ([(x, y) for x in range(4) for y in range(4)], 64),
])
def test_line_partition(cells, expected):
    assert grid.line_partition(cells, SCORES) == expected


def test_line_partition_through_links():
    cells = [(-1, 0), (0, 0), (2, 0), (3, 0)]
    assert grid.line_partition(cells, SCORES) == 10
    assert grid.line_partition(cells, SCORES, links=[[(0, 0), (2, 0)]]) == 16
    # a link in a column, and a link that is not straight (ignored for lines)
    assert grid.line_partition([(0, 0), (0, 2)], SCORES, links=[[(0, 0), (0, 2)]]) == 5
    assert grid.line_partition([(0, 0), (1, 2)], SCORES, links=[[(0, 0), (1, 2)]]) == 4


def _brute(cells, scores, links=()):
    """Every horizontal/vertical assignment, runs split optimally: the reference."""
    cells = sorted(set(cells))
    right, down = grid._line_steps(set(cells), links)
    left = {b: a for a, b in right.items()}
    up = {b: a for a, b in down.items()}
    split = grid._split_values(len(cells) + 1, scores)
    best = 0
    for choice in itertools.product((0, 1), repeat=len(cells)):
        d = dict(zip(cells, choice))
        total = 0
        for c in cells:
            prev, nxt = (left, right) if d[c] == 0 else (up, down)
            p = prev.get(c)
            if p is not None and d[p] == d[c]:
                continue
            n, q = 1, nxt.get(c)
            while q is not None and d[q] == d[c]:
                n, q = n + 1, nxt.get(q)
            total += split[n]
        best = max(best, total)
    return best


def test_line_partition_matches_brute_force():
    rng = random.Random(7)
    for _ in range(300):
        cells = {(rng.randint(0, 3), rng.randint(0, 3)) for _ in range(rng.randint(0, 9))}
        scores = SCORES if rng.random() < 0.6 else [0, 3, 4, 5, 6, 7]
        links = [[(0, 0), (2, 0)]] if rng.random() < 0.5 and (1, 0) not in cells else []
        assert grid.line_partition(cells, scores, links) == _brute(cells, scores, links), cells


def test_line_partition_on_a_full_board():
    # (its speed is a benchmark matter, not a unit test's: no timing here)
    cells = [(x, y) for x in range(5) for y in range(5)]
    assert grid.line_partition(cells, SCORES) == 98      # six lines of 4 in a pinwheel, one single


def test_placements_fillable_keeps_every_free_cell_reachable(board):
    S, zone, put = board
    tile = S.lay.pieces[0]
    # blocked cells around (1, 2) except from below: a pocket that only row 3 can reach
    blocked = [(0, 2), (2, 2), (1, 1)]
    put("red", (1, 0))
    put("red", (1, -1))
    kw = dict(max_width=5, max_height=5, blocked=blocked, include=[(0, 0), (2, 2)])
    plain = grid.grid_placements(S, zone, tile, **kw)
    fill = grid.grid_placements(S, zone, tile, fillable=True, **kw)
    assert (1, -2) in plain            # fits the 5 × 5 box…
    assert (1, -2) not in fill         # …but rows -2..2 would leave (1, 2) unreachable forever
    assert set(fill) == set(plain) - {(1, -2)}
    # without blocked cells, fillable changes nothing
    assert grid.grid_placements(S, zone, tile, fillable=True, max_width=3, max_height=3) == \
        grid.grid_placements(S, zone, tile, max_width=3, max_height=3)


def test_grid_completable_reads_the_zone_and_a_considered_placement(board):
    from interpreter.builtins import tiling
    S, zone, put = board
    put("red", (0, 0))
    put("red", (1, 1))
    # a 2 x 2 window: (1, 0) and (0, 1) are free, not side by side
    assert tiling.grid_completable(S, zone, [[(0, 0)], [(0, 0)]], max_width=2, max_height=2,
                                   include=[(0, 0), (1, 1)])
    assert not tiling.grid_completable(S, zone, [[(0, 0), (1, 0)]], max_width=2, max_height=2,
                                       include=[(0, 0), (1, 1)])
    # considering a piece on (1, 0): one free cell is left, for one single
    assert tiling.grid_completable(S, zone, [[(0, 0)]], max_width=2, max_height=2,
                                   occupied=[(1, 0)])
    with pytest.raises(RuleRuntimeError):
        tiling.grid_completable(S, zone, [[(0, 0)]])


def test_placements_follow_the_grid_when_asked_again(board):
    # the same question before and after a tile is put: the answer is about the grid of now
    S, zone, put = board
    tile = S.lay.pieces[0]
    asked = dict(max_width=2, max_height=2, blocked=[(1, 1)])
    put("red", (0, 0))
    assert grid.grid_placements(S, zone, tile, **asked) == [(0, -1), (-1, 0), (1, 0), (0, 1)]
    put("red", (1, 0))
    assert grid.grid_placements(S, zone, tile, **asked) == [(0, -1), (1, -1), (0, 1)]
    # an answer handed out is the caller's own list
    grid.grid_placements(S, zone, tile, **asked).clear()
    assert grid.grid_placements(S, zone, tile, **asked) == [(0, -1), (1, -1), (0, 1)]


def test_a_piece_moved_off_the_grid_frees_its_cells_and_other_moves_leave_the_grid_alone(board):
    S, zone, put = board
    bag = S.lay.zone_index["bag"][()]
    put("red_blue", (0, 0))
    put("red", (2, 0))
    domino, tile = S.zones[zone]
    assert set(S.grid[zone]) == {(0, 0), (1, 0), (2, 0)}
    S.move(S.zones[bag][:2], bag, place="top")            # a move elsewhere: the grid stays
    assert set(S.grid[zone]) == {(0, 0), (1, 0), (2, 0)} and S.zones[zone] == [domino, tile]
    S.move([domino], bag, place="top")                    # off the grid: both its cells free
    assert set(S.grid[zone]) == {(2, 0)} and S.zones[bag][0] == domino
    assert S.loc[domino] == bag and domino not in S.dyn["pos"] and tile in S.dyn["pos"]
    put("red", (0, 0))                                    # a freed cell takes a piece again
    assert set(S.grid[zone]) == {(0, 0), (2, 0)}


def test_grid_completable_anchors_is_grid_completable_at_each_anchor_in_order(board):
    from interpreter.builtins import tiling
    S, zone, put = board
    put("red", (0, 0))
    asked = dict(max_width=3, max_height=2)
    domino = [(0, 0), (1, 0)]
    to_come = [[(0, 0)], [(0, 0)], [(0, 0)]]
    anchors = [(1, 0), (2, 0), (0, 1), (1, 1), (-2, 0), (0, -1)]
    each = [a for a in anchors
            if tiling.grid_completable(S, zone, to_come, occupied=[(a[0] + dx, a[1] + dy) for dx, dy in domino],
                                       **asked)]
    assert each == [(1, 0), (0, 1), (1, 1), (-2, 0), (0, -1)]     # at (2, 0): 4 cells wide
    assert tiling.grid_completable_anchors(S, zone, to_come, domino, anchors, **asked) == each
    assert tiling.grid_completable_anchors(S, zone, to_come, domino, anchors[::-1], **asked) == each[::-1]
    assert tiling.grid_completable_anchors(S, zone, to_come, domino, anchors[1:], first=True, **asked) == [(0, 1)]
    assert tiling.grid_completable_anchors(S, zone, to_come, domino, [], **asked) == []
    with pytest.raises(RuleRuntimeError):
        tiling.grid_completable_anchors(S, zone, to_come, domino, anchors)


def test_placements_of_a_city_built_elsewhere_are_those_found_at_the_origin_moved(board):
    # nothing fixes where the pieces are (no blocked, included or linked cells, a bounded box):
    # the answer is worked out for the cells moved to x, y >= 0 from 0, and moved back
    S, zone, put = board
    tile = S.lay.pieces[0]
    domino = next(p for p in S.lay.pieces if S.lay.static[p]["name"] == "red_blue")
    asked = dict(max_width=3, max_height=2)
    put("red", (4, -2))
    put("red", (5, -2))
    grid._ANSWERS.clear()
    got = grid.grid_placements(S, zone, domino, **asked)
    assert got == sorted(got, key=lambda c: (c[1], c[0]))
    at_origin = [(x - 4, y + 2) for x, y in got]
    assert [key[1] for key in grid._ANSWERS] == [frozenset({(0, 0), (1, 0)})]
    assert grid._ANSWERS[next(iter(grid._ANSWERS))] == at_origin
    # brute force: a domino's two squares free, one next to a tile, the box at most 3 x 2
    taken = {(4, -2), (5, -2)}
    want = []
    for ay in range(-5, 3):
        for ax in range(0, 9):
            cover = {(ax, ay), (ax + 1, ay)}
            xs = [c[0] for c in cover | taken]
            ys = [c[1] for c in cover | taken]
            touch = any((x + dx, y + dy) in taken for x, y in cover for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))
            if not cover & taken and touch and max(xs) - min(xs) < 3 and max(ys) - min(ys) < 2:
                want.append((ax, ay))
    assert got == want
    got.clear()  # an answer handed out is the caller's own list
    assert grid.grid_placements(S, zone, domino, **asked) == want
    # a blocked cell fixes the place: nothing is moved
    grid._ANSWERS.clear()
    got = grid.grid_placements(S, zone, tile, blocked=[(6, -2)], **asked)
    assert (6, -2) not in got and (3, -2) in got
    assert [key[1] for key in grid._ANSWERS] == [frozenset({(4, -2), (5, -2)})]


def _fillable_by_floods(anchor, shape, g, blocked, links, box, w, h):
    """The `fillable` rule read literally: some w × h window holding the box and the piece at
    `anchor` has every empty unblocked cell joined, through such cells, to a piece."""
    cover = {(anchor[0] + dx, anchor[1] + dy) for dx, dy in shape}
    taken = set(g) | cover
    xs = [box[0], box[2]] + [c[0] for c in cover]
    ys = [box[1], box[3]] + [c[1] for c in cover]
    adjacent = grid._link_map(links)
    for x0 in range(max(xs) - w + 1, min(xs) + 1):
        for y0 in range(max(ys) - h + 1, min(ys) + 1):
            inside = {(x, y) for x in range(x0, x0 + w) for y in range(y0, y0 + h)}
            free = inside - taken - set(blocked)
            reached, todo = set(), [c for c in taken]
            while todo:
                for n in grid._adjacent(todo.pop(), adjacent):
                    if n in free and n not in reached:
                        reached.add(n)
                        todo.append(n)
            if reached == free:
                return True
    return False


def test_the_fillable_filter_keeps_the_anchors_a_flood_finds_fillable():
    """grid._fillable_filter (dead groups of each window kept by window and cells, grown once)
    keeps exactly the anchors the rule read literally keeps, on 300 random grids."""
    rng = random.Random(3)
    square = [(x, y) for x in range(-1, 5) for y in range(-1, 5)]
    for _ in range(300):
        cells = frozenset(rng.sample(square, rng.randint(1, 8)))
        blocked = frozenset(rng.sample([c for c in square if c not in cells], rng.randint(1, 6)))
        links = [tuple(rng.sample(square, 2)) for _ in range(rng.randint(0, 2))]
        shape = rng.choice([((0, 0),), ((0, 0), (1, 0)), ((0, 0), (0, 1))])
        xs, ys = [c[0] for c in cells], [c[1] for c in cells]
        box = (min(xs), min(ys), max(xs), max(ys))
        w = h = 5
        if box[2] - box[0] >= w or box[3] - box[1] >= h:
            continue
        anchors = [a for a in square if not {(a[0] + dx, a[1] + dy) for dx, dy in shape} & (cells | blocked)
                   and max(box[2], a[0] + 1) - min(box[0], a[0]) < w and max(box[3], a[1] + 1) - min(box[1], a[1]) < h]
        if not anchors:
            continue
        grid._DEAD.clear()
        kept = grid._fillable_filter(list(anchors), shape, cells, blocked, links, box, w, h)
        assert kept == [a for a in anchors if _fillable_by_floods(a, shape, cells, blocked, links, box, w, h)]


def test_line_partition_answers_kept_are_those_worked_out():
    """line_partition keeps its answers (cells moved to the origin where no link fixes them,
    scores with their types): asked again, or for the same cells elsewhere, the answer worked
    out afresh, of the same type."""
    rng = random.Random(8)
    for _ in range(300):
        cells = sorted({(rng.randrange(-2, 4), rng.randrange(-2, 4)) for _ in range(rng.randrange(1, 9))})
        scores = rng.choice([[0, 2, 5, 10, 16], [0, 1.5, 4], [0, True, 3]])
        links = rng.choice([None, [[[0, 0], [2, 0]]]])
        dx = rng.randrange(-3, 4)
        moved = [(x + dx, y) for x, y in cells]
        for cs in (cells, moved, cells):
            grid._LINES.clear()
            fresh = grid.line_partition(cs, scores, links)
            for again in (cells, moved):
                got = grid.line_partition(again, scores, links)
                if again == cs or not links:
                    assert got == fresh and type(got) is type(fresh)
    # equal scores of other types are other questions: their totals keep their types
    grid._LINES.clear()
    assert type(grid.line_partition([(0, 0), (1, 0)], [0, 1, 3])) is int
    assert type(grid.line_partition([(0, 0), (1, 0)], [0, 1.0, 3.0])) is float


def test_placements_on_the_bit_board_are_those_worked_out_cell_by_cell():
    """grid_board.board_placements (every anchor and window as masks of one board) gives the
    answers grid._cell_placements works out cell by cell — blocked, linked and included cells,
    `fillable`, shapes of 1–3 squares, bounds 3–7 — on 400 random grids; it declines (None) a
    shape not drawn from (0, 0) and a box already over the bounds."""
    from interpreter.builtins.grid_board import board_placements
    rng = random.Random(11)
    square = [(x, y) for x in range(-1, 5) for y in range(-1, 5)]
    shapes = [((0, 0),), ((0, 0), (1, 0)), ((0, 0), (0, 1)), ((1, 0), (0, 1)), ((0, 0), (1, 0), (1, 1)),
              ((0, 0), (0, 1), (0, 2))]
    boarded = 0
    for _ in range(400):
        cells = frozenset(rng.sample(square, rng.randint(1, 9)))
        blocked = [list(c) for c in rng.sample([c for c in square if c not in cells], rng.randint(0, 6))]
        links = [[list(a), list(b)] for a, b in (rng.sample(square, 2) for _ in range(rng.randint(0, 2)))]
        include = [[0, 0], [2, 2]] if rng.random() < 0.4 else []
        parsed = grid._placement_args(blocked, links, include, None)
        box = grid._box_of(list(cells) + parsed[3])
        for shape in shapes:
            for bound in (3, 5, 7):
                for fillable in (False, True):
                    want = grid._cell_placements(cells, shape, bound, bound, parsed, fillable)
                    got = board_placements(cells, shape, bound, bound, parsed[0], parsed[2], box, fillable)
                    assert got is None or got == want, (cells, blocked, links, include, shape, bound, fillable)
                    boarded += got is not None
    assert boarded > 7000
    assert board_placements({(0, 0)}, ((0, 0), (-1, 0)), 4, 4, frozenset(), [], (0, 0, 0, 0), False) is None
    assert board_placements({(0, 0), (4, 0)}, ((0, 0),), 4, 4, frozenset(), [], (0, 0, 4, 0), False) is None


def test_components_are_the_groups_a_pairwise_union_finds():
    """grid._components (each group gathered from its first cell): the groups of cells joined
    orthogonally or by a link, found by merging every joined pair, each sorted, in the order
    of their first cells; on 300 random sets of cells and links."""
    rng = random.Random(5)
    square = [(x, y) for x in range(-2, 5) for y in range(-2, 5)]
    for _ in range(300):
        cells = set(rng.sample(square, rng.randint(0, 20)))
        links = [tuple(rng.sample(square, 2)) for _ in range(rng.randint(0, 3))]
        lmap = grid._link_map(links)
        group = {c: {c} for c in cells}
        for a in cells:
            for b in cells:
                if (abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 or b in lmap.get(a, ())) and group[a] is not group[b]:
                    merged = group[a] | group[b]
                    for c in merged:
                        group[c] = merged
        want = sorted({id(g): sorted(g) for g in group.values()}.values())
        assert grid._components(cells, lmap) == want


def test_placement_arguments_changed_after_a_call_are_read_again():
    """grid._placement_args finds the last few arguments again by their content when the call
    was made (the generated programs key placements by its number): a list changed since is
    read anew."""
    blocked = [[1, 0]]
    first = grid._placement_args(blocked, [], [], None)
    assert grid._placement_args(blocked, [], [], None) is first
    blocked.append([2, 0])
    again = grid._placement_args(blocked, [], [], None)
    assert again[0] == frozenset({(1, 0), (2, 0)}) and again[5] != first[5]
