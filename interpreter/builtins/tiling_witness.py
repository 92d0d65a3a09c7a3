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
decide). A "no" from `carry` says nothing: the question is then searched as before. The same
holds when p0 is several single pieces (X their cells): tiling uses it for a grid whose own
completion is not kept but an earlier grid's is (Completions.lately).

Where completions come from: every search that passes with places of cost 0 (kept by the cells
it was asked about), every completion `carry` leaves, and a searched anchor's completion taken
back to the grid alone with the single in front (`settle` checks it there).
"""
from __future__ import annotations

from typing import Any

_LIMIT = 20000   # keys of completions kept (emptied when full): a game needs a few hundred
_WINDOWS = 2     # completions kept per key (in different windows)
_LATELY = 4      # completions of earlier grids kept per landscape


class Completions:
    """Completions by (the occupied cells' key, the number of the pieces after the first), a
    few windows each, the newest first: (the first piece's (size, steps), the window corner
    relative to the key's corner, the places by step, the occupied cells as a mask of the
    window)."""

    __slots__ = ("_kept", "_lately")

    def __init__(self):
        self._kept: dict = {}
        self._lately: dict = {}         # landscape -> the last grids' completions, newest first

    def lately(self, land: object, entry: tuple | None = None) -> list:
        """The last few completions of grids of this landscape (x0, y0, occ, places, the numbers
        of its pieces after its first j singles -> j), `entry` first kept among them: an earlier
        grid of a game, whose completion may answer for the grid it grew into."""
        kept = self._lately.get(land)
        if kept is None:
            kept = self._lately[land] = []
        if entry is not None:
            kept.insert(0, entry)
            del kept[_LATELY:]
        return kept

    def keep(self, cells: object, tail: int, head: tuple, corner: tuple, places: tuple, occ: int) -> None:
        """Keeps a completion of `cells` by pieces whose first piece is `head` (its size, its
        steps) and the rest the pieces numbered `tail` (in front of one of the same window)."""
        key = (cells, tail)
        kept = self._kept.get(key)
        if kept is None:
            if len(self._kept) >= _LIMIT:
                self._kept.clear()
            self._kept[key] = [(head, corner, places, occ)]
            return
        for k, old in enumerate(kept):
            if old[1] == corner:
                del kept[k]
                break
        kept.insert(0, (head, corner, places, occ))
        del kept[_WINDOWS:]

    def of(self, cells: object, pieces: int) -> list:
        """The completions kept of `cells` whose pieces after the first are `pieces`."""
        return self._kept.get((cells, pieces), ())

    def clear(self) -> None:
        self._kept.clear()
        self._lately.clear()


def carry(board: Any, blocked: int, occ: int, added: int, head_steps: int, places: tuple, steps: list,
          early_singles: int) -> tuple | None:
    """Places for `steps` (the pieces after the first) that pass the search's tests in the
    window `board` (a tiling._Board; `blocked` its blocked cells) once the first piece's cells
    `added` (free in the window) join the occupied cells `occ`, found from the completion's
    `places` (its first head_steps those of the first piece, 0 for a single cell; then theirs,
    in tiling._Question.steps' order); None when none is found so.

    `added` may also be the cells of several single pieces in front (head_steps 0), as many as
    they are. When `added` lies in none of their places and, for a larger first piece, inside
    its own places, they pass as they are: each still touches a free cell next to a piece (its
    own cell next to occ), and the early singles keep their room (single first pieces: as many
    fewer of them as cells in `added`, at most as many cells fewer to reach; a larger one: as
    many, its places free again around `added`). Otherwise places hit by `added` move, and
    every test is made."""
    rest = places[head_steps:]
    hit = False
    for place in rest:
        if place & added:
            hit = True
            break
    if not hit:
        if not head_steps:
            return rest
        head = 0
        for place in places[:head_steps]:
            head |= place
        if not added & ~head:
            return rest
    return settle(board, blocked, occ | added, added, rest, steps, early_singles)


def settle(board: Any, blocked: int, occ: int, avoid: int, places: tuple, steps: list,
           early_singles: int) -> tuple | None:
    """Places for `steps` that pass the search's tests with cost 0 for the occupied cells `occ`,
    found from `places` (inside the free cells, those of different pieces apart): a place on a
    cell of `avoid` or touching no free cell next to the pieces moves to another that does (the
    lowest), then the room for the early singles is checked; None when that fails."""
    free = board.full & ~occ & ~blocked
    next_to = board.expand(occ) & free          # the free cells next to the pieces
    new = list(places)
    for i, step in enumerate(steps):
        place = new[i]
        if place & avoid or not place & next_to:
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
