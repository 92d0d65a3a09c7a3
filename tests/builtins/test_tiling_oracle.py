"""The look-ahead (builtins/tiling.py) answers every question as its older search did
(tiling_oracle.py): random questions (hypothesis: windows, occupied, blocked, included and linked
cells, pieces of one or several shapes, paths on and off), and every question Between Two Cities
and Capitals ask in random games of their generated programs, at every player count (a few
games; --slow: many)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.builtins import tiling
from interpreter.transpile import RuleFile, grid_runtime, load_program

from tiling_oracle import completable as oracle

ROOT = Path(__file__).resolve().parents[2]
BTC = ROOT / "rules" / "between_two_cities" / "game.yaml"
CAPITALS = ROOT / "rules" / "between_two_cities" / "capitals.yaml"

SINGLE = [(0, 0)]
SHAPES2 = [[(0, 0), (1, 0)], [(0, 0), (0, 1)], [(0, 0), (-1, 1)]]
SHAPES3 = [[(0, 0), (1, 0), (2, 0)], [(0, 0), (0, 1), (1, 1)], [(0, 0), (1, 0), (0, 1)], [(1, 0), (0, 1), (1, 1)]]


@st.composite
def questions(draw):
    """A window's worth of free cells and pieces that cover them (so that the answer is not
    always no), in a w × h window at the origin, with cells of the grid around it."""
    w, h = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    cells = [(x, y) for y in range(-1, h + 1) for x in range(-1, w + 1)]
    inside = [c for c in cells if 0 <= c[0] < w and 0 <= c[1] < h]
    occupied = draw(st.sets(st.sampled_from(inside), min_size=1, max_size=len(inside)))
    if draw(st.booleans()):                     # now and then a cell outside the window
        occupied.add(draw(st.sampled_from(cells)))
    blocked = draw(st.sets(st.sampled_from(cells), max_size=4)) - occupied
    include = draw(st.lists(st.sampled_from(cells), max_size=2)) if draw(st.booleans()) else []
    links = draw(st.lists(st.lists(st.sampled_from(cells), min_size=2, max_size=2), max_size=2)) \
        if draw(st.booleans()) else []
    free = len([c for c in inside if c not in occupied and c not in blocked]) + draw(st.integers(-1, 1))
    pieces: list = []
    while True:
        kind = draw(st.sampled_from(["single", "single", "two", "either", "three", "either3"]))
        piece = {"single": SINGLE, "two": draw(st.sampled_from(SHAPES2)),
                 "either": draw(st.lists(st.sampled_from(SHAPES2), min_size=2, max_size=3, unique_by=tuple)),
                 "three": draw(st.sampled_from(SHAPES3)),
                 "either3": draw(st.lists(st.sampled_from(SHAPES3), min_size=2, max_size=3, unique_by=tuple))}[kind]
        size = len(piece) if kind in ("single", "two", "three") else len(piece[0])
        if size > free - sum(_size(p) for p in pieces):
            break
        pieces.append(piece)
    pieces += [SINGLE] * (free - sum(_size(p) for p in pieces))
    draw(st.randoms(use_true_random=False)).shuffle(pieces)
    return occupied, pieces, w, h, blocked, include, links, draw(st.booleans())


def _size(piece) -> int:
    return len(piece[0]) if isinstance(piece[0], list) else len(piece)


@settings(max_examples=400, deadline=None)
@given(questions())
def test_random_questions_are_answered_as_by_the_old_search(q):
    occupied, pieces, w, h, blocked, include, links, paths = q
    assert tiling.completable(occupied, pieces, w, h, blocked, include, links, paths) \
        == oracle(occupied, pieces, w, h, blocked, include, links, paths)


@settings(max_examples=200, deadline=None)
@given(questions(), st.sampled_from([SINGLE] + SHAPES2), st.booleans())
def test_random_anchors_are_answered_as_by_the_old_search(q, shape, first):
    occupied, pieces, w, h, blocked, include, links, paths = q
    grid = set(list(occupied)[1:])
    anchors = [(x, y) for y in range(-1, h + 1) for x in range(-1, w + 1)
               if not {(x + dx, y + dy) for dx, dy in shape} & grid]
    want = [a for a in anchors if oracle(grid | {(a[0] + dx, a[1] + dy) for dx, dy in shape}, pieces, w, h,
                                         blocked, include, links, paths)]
    got = tiling.completable_anchors(grid, pieces, shape, anchors, w, h, blocked, links, include, paths, first)
    assert got == (want[:1] if first else want)


def test_a_place_shut_off_from_the_sure_places_costs_what_it_costs_from_the_pieces():
    """Two vertical dominoes (sure places) shut in a corner: a later domino touching neither
    them nor the pieces is not joined (paths=false: no). The oracle once counted it as touching
    the sure places (the distance past no ring read as 0); the builtin never did."""
    H, V = SHAPES2[0], SHAPES2[1]
    occupied = {(-2, -2), (-1, -2), (0, -2), (0, -1), (0, 0)}
    pieces = [[H, V], V, V, [H, V], SINGLE, SINGLE]
    assert not tiling.completable(occupied, pieces, 5, 3, set(), [], None, False)
    assert not oracle(occupied, pieces, 5, 3, set(), [], None, False)


def _asked_in_games(path: Path, players: int, options: dict, games: int) -> int:
    """Plays random games of the rule file's generated program; every look-ahead question is
    checked against the oracle, anchor by anchor. Returns the questions checked."""
    engine = grid_runtime._engine_completable_anchors
    checked = [0]

    def check(g, shapes, shape, anchors, w, h, blocked, links, include, paths, first):
        out = engine(g, shapes, shape, anchors, w, h, blocked, links, include, paths, first)
        grid = set(g)
        want = [a for a in anchors if oracle(grid | {(a[0] + dx, a[1] + dy) for dx, dy in shape}, shapes, w, h,
                                             blocked, include, links, paths)]
        assert out == (want[:1] if first else want), (sorted(grid), shapes, shape, anchors, paths)
        checked[0] += 1
        return out

    grid_runtime._engine_completable_anchors = check
    grid_runtime._ANCHORS_AT.clear()  # answers kept by earlier games would not be asked again
    try:
        play = load_program(RuleFile(path, ()), players, options)
        for seed in range(games):
            rngs = [random.Random(seed * 1009 + p) for p in range(players)]
            play(seed, [lambda options, r=r: int(r.random() * len(options)) for r in rngs])
    finally:
        grid_runtime._engine_completable_anchors = engine
    return checked[0]


CONFIGS = ([(BTC, n, {}) for n in range(3, 8)] + [(CAPITALS, n, {}) for n in range(3, 8)]
           + [(CAPITALS, n, {"landscapes": False}) for n in (3, 5)])
IDS = [f"{p.stem}-{n}p-{o}" for p, n, o in CONFIGS]


@pytest.mark.parametrize("path,players,options", CONFIGS, ids=IDS)
def test_the_questions_of_a_game_are_answered_as_by_the_old_search(path, players, options):
    assert _asked_in_games(path, players, options, 1) > 0


@pytest.mark.slow
@pytest.mark.parametrize("path,players,options", CONFIGS, ids=IDS)
def test_the_questions_of_many_games_are_answered_as_by_the_old_search(path, players, options):
    assert _asked_in_games(path, players, options, 100) > 0
