"""Completions kept by the look-ahead (tiling.py): a search that finds the pieces to come fill a
window also shows where (the places it gave the larger pieces); kept, that completion answers
questions about the same grid with the first of those pieces placed, mostly without a search.

The rule, exact for the search of tiling._Search. Let the occupied cells O fill window W with
pieces p0, p1, … (the search passed: W's free cells F are as many as the pieces cover, and
every one reaches O through F), with places P of cost 0 (each touching a free cell next to O).
Place p0's cells X on free cells of W (X inside F, as many as p0 covers). Then for O ∪ X and
the pieces p1, …, in W:
  - the free cells F \\ X are as many as p1, … cover, and every one still reaches O ∪ X (a path
    from O, cut where it last enters X);
so the search passes in W if some places for p1, … pass its other tests, which `carry` checks
directly: each inside F \\ X, those of different pieces apart, each touching a free cell next
to O ∪ X (cost 0: no budget binds, paths on or off), and room for the early singles. P's
places of p1, … are tried, a place that lost its footing moved to another (any: the tests
decide). A "no" from `carry` says nothing: the question is then searched as before.
"""
from __future__ import annotations

_LIMIT = 100000  # completions kept (emptied when full), like tiling's answers


class Completions:
    """Completions by (the occupied cells' key, the number of the pieces after the first):
    (the first piece's (size, steps), the window corner relative to the key's corner, the places
    by step, the occupied cells as a mask of the window)."""

    __slots__ = ("_kept",)

    def __init__(self):
        self._kept: dict = {}

    def keep(self, cells: object, tail: int, head: tuple, corner: tuple, places: tuple, occ: int) -> None:
        """Keeps a completion of `cells` by pieces whose first piece is `head` (its size, its
        steps) and the rest the pieces numbered `tail`."""
        if len(self._kept) >= _LIMIT:
            self._kept.clear()
        self._kept[(cells, tail)] = (head, corner, places, occ)

    def of(self, cells: object, pieces: int) -> tuple | None:
        """The completion kept of `cells` whose pieces after the first are `pieces`, or None."""
        return self._kept.get((cells, pieces))

    def clear(self) -> None:
        self._kept.clear()


def carry(board, blocked: int, occ: int, added: int, places: tuple, steps: list, early_singles: int) -> tuple | None:
    """Places for `steps` (the pieces after the first) that pass the search's tests once the
    cells `added` (free in the window, the first piece's) join the occupied cells `occ`, found
    from `places` (theirs before, tiling._Question.steps' order); None when none is found so."""
    occ |= added
    free = board.full & ~occ & ~blocked
    next_to = board.expand(occ) & free          # the free cells next to the pieces
    new = list(places)
    for i, step in enumerate(steps):
        place = new[i]
        if place & added or not place & next_to:
            bits = step[0]
            at = bits.within(free & ~_other_pieces(steps, new, i)) & bits.touching(next_to)
            if not at:
                return None
            new[i] = bits.base * (at & -at)
    if early_singles:
        used = 0
        for place in new:
            used |= place
        if (next_to & ~used).bit_count() < early_singles and not board.reaches(occ, free & ~used, early_singles):
            return None
    return tuple(new)


def _other_pieces(steps: list, places: list, i: int) -> int:
    """The places of the pieces other than step i's (a piece's steps end at its `last`)."""
    start = i
    while start and not steps[start - 1][3]:
        start -= 1
    end = i
    while not steps[end][3]:
        end += 1
    out = 0
    for k, place in enumerate(places):
        if k < start or k > end:
            out |= place
    return out


def costs_nothing(places: list, next_to_pieces: int) -> bool:
    """Whether every place touches a free cell next to the pieces (the first ring): a
    completion `carry` may carry on."""
    for place in places:
        if not place & next_to_pieces:
            return False
    return True
