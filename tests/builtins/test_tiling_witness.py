"""The look-ahead's kept completions (builtins/tiling_witness.py): questions asked on one grid as
it grows, piece by piece, each answered as by the old search (tiling_oracle.py), whether a kept
completion answers it or a search does; and the completions do answer some of them."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.builtins import tiling

from test_tiling_oracle import SINGLE, questions
from tiling_oracle import completable as oracle

H = [(0, 0), (1, 0)]
V = [(0, 0), (0, 1)]


def _empty_memos() -> None:
    for memo in (tiling._MEMO, tiling._AT, tiling._COMPLETIONS):
        memo.clear()


def _grow(grid: set, pieces: list, w: int, h: int, blocked, include, links, paths: bool,
          rng: random.Random, skip: float = 0.0) -> int:
    """Places the pieces one by one, each asked about at every anchor where it touches the grid
    (all answers checked against the oracle), at a random anchor that keeps the grid
    completable when there is one; now and then the grid alone is asked first (so that its
    completion is kept for the anchors); with `skip`, that share of the pieces is placed without
    asking the builtin (so that a later grid finds no completion of the grid before it, only
    of an earlier one). Returns the anchors answered yes."""
    yes = 0
    while pieces:
        if rng.random() < 0.5:  # the grid alone, asked with every piece to come: a completion kept
            assert tiling.completable(grid, pieces, w, h, blocked, include, links, paths) \
                == oracle(grid, pieces, w, h, blocked, include, links, paths)
        piece, rest = pieces[0], pieces[1:]
        shape = rng.choice(piece) if isinstance(piece[0], list) else piece
        around = {(x + dx, y + dy) for x, y in grid for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))} - grid
        anchors = sorted({(x - dx, y - dy) for x, y in around for dx, dy in shape
                          if not {(x - dx + ex, y - dy + ey) for ex, ey in shape} & grid}, key=lambda c: (c[1], c[0]))
        first = rng.random() < 0.2
        want = [a for a in anchors if oracle(grid | {(a[0] + dx, a[1] + dy) for dx, dy in shape}, rest, w, h,
                                             blocked, include, links, paths)]
        if rng.random() >= skip:
            got = tiling.completable_anchors(grid, rest, shape, anchors, w, h, blocked, links, include, paths, first)
            assert got == (want[:1] if first else want), (sorted(grid), rest, shape, paths)
            yes += len(got)
        if not anchors:
            return yes
        at = rng.choice(want or anchors)
        grid = grid | {(at[0] + dx, at[1] + dy) for dx, dy in shape}
        pieces = rest
    return yes


@settings(max_examples=60, deadline=None)
@given(questions(), st.randoms(use_true_random=False))
def test_a_growing_grid_is_answered_as_by_the_old_search(q, rng):
    """Every question on a grid that grows by the pieces' own order (the kept completion of
    the grid before is tried first), on random windows, blocked, included and linked cells."""
    occupied, pieces, w, h, blocked, include, links, paths = q
    _empty_memos()
    _grow(set(occupied), pieces, w, h, blocked, include, links, paths, rng)


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 4), st.integers(2, 4), st.randoms(use_true_random=False), st.booleans())
def test_a_growing_grid_of_dominoes_either_way_is_answered_as_by_the_old_search(w, h, rng, paths):
    """Between Two Cities' kind of question: singles, then dominoes of either orientation, then
    singles; the grid grows from one cell, every question checked."""
    free = w * h - 1
    doubles = rng.randrange(0, free // 2 + 1)
    before = rng.randrange(0, free - 2 * doubles + 1) if rng.random() < 0.5 else free - 2 * doubles
    pieces = [SINGLE] * before + [rng.choice([[H, V], H, V, [H, V, [(0, 0), (-1, 1)]]]) for _ in range(doubles)] \
        + [SINGLE] * (free - before - 2 * doubles)
    blocked = set() if rng.random() < 0.5 else {(rng.randrange(w), rng.randrange(h))}
    if blocked:
        pieces = pieces[1:] if pieces and pieces[-1] == SINGLE else pieces
    _empty_memos()
    _grow({(0, 0)} - blocked or {(w - 1, h - 1)}, pieces, w, h, blocked, [], [], paths, rng)


@settings(max_examples=100, deadline=None)
@given(st.integers(3, 5), st.integers(3, 4), st.randoms(use_true_random=False), st.booleans())
def test_a_grid_grown_by_singles_unasked_is_answered_as_by_the_old_search(w, h, rng, paths):
    """Singles placed without a question in between (a game's answers kept elsewhere): the
    completion of an earlier grid of the same blocked landscape stands in, checked against the
    oracle."""
    free = w * h - 2
    doubles = rng.randrange(1, 3)
    later = rng.randrange(0, 3)
    pieces = [SINGLE] * (free - 2 * doubles - later) + [[H, V]] * doubles + [SINGLE] * later
    _empty_memos()
    _grow({(0, 0)}, pieces, w, h, {(w - 1, h - 1)}, [], [], paths, rng, skip=0.5)


def test_kept_completions_answer_without_a_search():
    """On a 4 x 4 window with two dominoes of either orientation coming after singles, most
    anchors answered yes are answered by a kept completion (not searched), and every answer is
    the oracle's."""
    _empty_memos()
    found = []
    search = tiling._completion

    def counted(*args):
        out = search(*args)
        found.append(bool(out))
        return out
    tiling._completion = counted
    try:
        pieces = [SINGLE] * 6 + [[H, V], [H, V]] + [SINGLE] * 5
        yes = _grow({(0, 0)}, pieces, 4, 4, set(), [], [], False, random.Random(3))
    finally:
        tiling._completion = search
    assert yes > 10 and sum(found) < yes / 2, (sum(found), yes)


def test_a_completion_is_carried_only_where_its_rule_holds():
    """tiling_witness.carry on a 3 x 2 window, the piece at (0, 0), a domino of either
    orientation kept at (1, 0) (both shapes' places): a single placed off them keeps them as
    they are; a single on them moves them to places that pass; no room for the early singles
    gives no answer."""
    from interpreter.builtins.tiling_witness import carry
    board, blocked = tiling._Landscape(3, 2, frozenset(), []).window(0, 0)
    steps = tiling._question([[H, V]], 3, 2, set(), [], None, False).steps
    bit = {(x, y): 1 << (y * 3 + x) for y in range(2) for x in range(3)}
    v_place, h_place = bit[(1, 0)] | bit[(1, 1)], bit[(1, 0)] | bit[(2, 0)]   # steps: V, then H
    places = (v_place, h_place)
    assert carry(board, blocked, bit[(0, 0)], bit[(0, 1)], 0, places, steps, 0) == places
    moved = carry(board, blocked, bit[(0, 0)], bit[(1, 0)], 0, places, steps, 0)
    assert moved is not None and not (moved[0] | moved[1]) & (bit[(0, 0)] | bit[(1, 0)])
    assert moved[0] in (bit[(2, 0)] | bit[(2, 1)],) and moved[1] in (bit[(0, 1)] | bit[(1, 1)],
                                                                      bit[(1, 1)] | bit[(2, 1)])
    assert carry(board, blocked, bit[(0, 0)], bit[(1, 0)], 0, places, steps, 5) is None
    # and through the builtin: the grid alone asked first (its completion kept), then each anchor
    _empty_memos()
    pieces = [SINGLE, [H, V], SINGLE]
    assert tiling.completable({(0, 0)}, [SINGLE] + pieces, 3, 2, set(), []) == oracle(
        {(0, 0)}, [SINGLE] + pieces, 3, 2, set(), [])
    for anchor in [(1, 0), (0, 1), (2, 0), (1, 1), (2, 1)]:
        want = oracle({(0, 0), anchor}, pieces, 3, 2, set(), [])
        assert tiling.completable_anchors({(0, 0)}, pieces, [(0, 0)], [anchor], 3, 2) == ([anchor] if want else [])
