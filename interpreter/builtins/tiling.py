"""Tiling look-ahead: can the empty cells of a bounded grid still be filled exactly by the pieces
still to come, in the order they come?

Generic: games where a board must end up completely filled by pieces placed one at a time, each
touching the pieces already there (polyomino layouts, tile-laying puzzles). A shape is a list of
cells relative to its anchor; it may be translated but not rotated (pieces keep their printed
orientation). Pieces are listed in the order they arrive.

Single-cell pieces fit any empty cell that touches a piece, so only the larger shapes are
searched. A larger shape must touch a piece placed before it; the single-cell pieces that arrive
before it may first build a path towards its place (each cell of the path is one of them; the
paths of several shapes are counted separately, which is on the safe side). Whatever is left must
be joined to the pieces through empty cells, so that it can be filled at the end.
"""
from __future__ import annotations

import marshal
from typing import Any

from ..errors import RuleRuntimeError
from .grid import _at_origin, _cell, _cells, _grid, _link_map
from . import builtin, items
from .bitgrid import BitWindow, ShapeBits, shape_bits
from .tiling_witness import Completions, carry, costs_nothing, settle


def _shape(s: Any) -> tuple:
    cells = sorted(_cells(s), key=lambda c: (c[1], c[0]))
    if not cells:
        return ((0, 0),)
    x0, y0 = cells[0]
    return tuple((x - x0, y - y0) for x, y in cells)   # its first cell (row-major) at (0, 0)


class _Board(BitWindow):
    """One w × h window of the grid as bit masks, with the links between its cells."""

    __slots__ = ("linked",)

    def __init__(self, x0: int, y0: int, w: int, h: int, pairs: list):
        super().__init__(x0, y0, w, h)
        links: list = []
        for p, q in pairs:
            a, b = self.bit(p), self.bit(q)
            if a and b and a != b and (a, b) not in links and (b, a) not in links:
                links.append((a, b))    # each link once: the floods follow it both ways
        self.links = links
        self.linked = 0                 # the cells with a link, as one mask
        for a, b in links:
            self.linked |= a | b

    def rings(self, sources: int, free: int) -> list:
        """The free cells 1, 2, 3, … steps from the sources through free cells, as masks."""
        out = []
        seen = frontier = sources
        w, full, not_col0, not_last, links, linked = (self.w, self.full, self.not_col0, self.not_last, self.links,
                                                      self.linked)
        while True:  # expand(), inlined: the look-ahead's hot loop
            r = frontier
            frontier = ((r << 1) & not_col0) | ((r >> 1) & not_last) | ((r << w) & full) | (r >> w)
            if r & linked:
                for a, b in links:
                    if r & a:
                        frontier |= b
                    if r & b:
                        frontier |= a
            frontier &= free & ~seen
            if not frontier:
                return out
            out.append(frontier)
            seen |= frontier

    def reaches(self, sources: int, free: int, n: int) -> bool:
        """Whether at least n free cells lie any number of steps from the sources through free
        cells (rings(), stopped as soon as so many are found; its step written out again, as the
        look-ahead's hot loop cannot afford a call per ring)."""
        seen = frontier = sources
        w, full, not_col0, not_last, links, linked = (self.w, self.full, self.not_col0, self.not_last, self.links,
                                                      self.linked)
        while True:
            r = frontier
            frontier = ((r << 1) & not_col0) | ((r >> 1) & not_last) | ((r << w) & full) | (r >> w)
            if r & linked:
                for a, b in links:
                    if r & a:
                        frontier |= b
                    if r & b:
                        frontier |= a
            frontier &= free & ~seen
            if not frontier:
                return False
            n -= frontier.bit_count()
            if n <= 0:
                return True
            seen |= frontier


class _Search:
    """Places the larger pieces, in arrival order, on the free cells of one window. A piece may
    have several possible shapes (not known before it arrives): each gets its own place, and the
    places of different pieces never overlap, so that every combination fits. Places and sets of
    cells are bit masks of the window (_Board); a set of places of one shape is a mask of their
    anchors (bitgrid.ShapeBits), so that the places at a cost are found by a few shifts.

    The search runs over `steps` (_Question.steps): one per possible shape of each larger piece,
    in arrival order, as (the shape's ShapeBits, budget, alone, last): budget, the single pieces
    arriving before the piece that may build a path to it; alone, the piece has only this shape
    (its place is sure); last, the piece's last shape (after it, its places are taken for the
    later pieces).
    The answer is whether some choice of places passes; the order places are tried in only
    decides how soon one is found."""

    __slots__ = ("board", "free", "occupied", "steps", "early_singles", "from_pieces", "near", "levels",
                 "depth", "door", "chosen")

    def __init__(self, board: _Board, free: int, occupied: int, steps: list, early_singles: int,
                 rings: list, depth: int):
        self.board = board
        self.free = free
        self.occupied = occupied
        self.steps = steps
        # the single pieces arriving before the last larger piece need room outside their places
        self.early_singles = early_singles
        self.from_pieces = rings        # board.rings(occupied, free)
        self.depth = depth              # the largest budget: no place costs more
        # the cells the early single pieces may start from (any cell: -1, when there are none)
        self.door = (rings[0] if rings else 0) if early_singles else -1
        self.near: dict = {}            # places (a mask) -> rings of distances from them
        self.levels: dict = {}          # ShapeBits -> [anchors of its free places costing 0, 1, …]
        self.chosen = [0] * len(steps)  # each step's place (cells), once the search passes

    def _room_for_early_singles(self, places: int) -> bool:
        """The single pieces arriving before the larger ones are put first, each touching a piece,
        on cells none of the larger pieces' places may need."""
        if not self.early_singles:
            return True
        # the cells next to a piece are the reach's first step: often room enough already
        if self.from_pieces and (self.from_pieces[0] & ~places).bit_count() >= self.early_singles:
            return True
        return self.board.reaches(self.occupied, self.free & ~places, self.early_singles)

    def _levels(self, bits: ShapeBits) -> list:
        """A shape's free places by cost (the single pieces needed to join them to the pieces:
        the first ring of distances they touch), as anchor masks, up to the largest budget."""
        left = bits.within(self.free)
        levels = []
        for ring in self.from_pieces[:self.depth + 1]:
            at = bits.touching(ring) & left
            levels.append(at)
            left &= ~at
        self.levels[bits] = levels
        return levels

    def _near_levels(self, bits: ShapeBits, sure: int, slack: int) -> list:
        """The places touching the rings of distances from `sure` (places of earlier pieces whose
        shape is known), as anchor masks, up to `slack` steps."""
        rings = self.near.get(sure)
        if rings is None:
            rings = self.near[sure] = self.board.rings(sure, self.free)
        return [bits.touching(ring) for ring in rings[:slack + 1]]

    def first_path(self) -> bool:
        """run()'s first path alone, in one loop: each step's first place that leaves the early
        single pieces a way in (at the last step, any place that leaves them room). True: the
        pieces fit; False: not on this path (run() then tries the others). Most windows that
        fit do on the first path, and a loop costs less than run()'s calls."""
        used = mine = sure = spent = 0
        free, door, steps, known = self.free, self.door, self.steps, self.levels
        last_step = len(steps) - 1
        for i, (bits, budget, alone, last) in enumerate(steps):
            levels = known.get(bits)
            if levels is None:
                levels = self._levels(bits)
            slack = budget - spent
            if slack >= len(levels):
                slack = len(levels) - 1
            clear = bits.within(free & ~used) if used else -1
            near = self._near_levels(bits, sure, slack) if sure else ()
            taken = used | mine
            base, tried, cover = bits.base, 0, 0
            for d in range(slack + 1):
                at = levels[d]
                if d < len(near):
                    at |= near[d]
                at &= clear & ~tried
                tried |= at
                while at:
                    low = at & -at
                    at ^= low
                    place = base * low
                    if not door & ~(taken | place):
                        continue
                    if i < last_step:
                        cover = place
                        break
                    if not self.early_singles or self._room_for_early_singles(taken | place):
                        self.chosen[i] = place
                        return True
                if cover:
                    spent += d
                    break
            if not cover:
                return False
            self.chosen[i] = cover
            if alone:
                used |= cover
                sure |= cover
            elif last:
                used |= mine | cover
                mine = 0
            else:
                mine |= cover
        return self._room_for_early_singles(used)     # no steps

    def run(self, i: int = 0, used: int = 0, mine: int = 0, sure: int = 0, spent: int = 0) -> bool:
        """Step i on: `used`, the places of the pieces done; `mine`, those of the current piece's
        earlier shapes; `sure`, the places of pieces of one shape; `spent`, singles used for paths."""
        if i == len(self.steps):
            return self._room_for_early_singles(used)
        bits, budget, alone, last = self.steps[i]
        levels = self.levels.get(bits)
        if levels is None:
            levels = self._levels(bits)
        slack = budget - spent
        if slack >= len(levels):
            slack = len(levels) - 1
        # the places of the pieces done are not free for this one
        clear = bits.within(self.free & ~used) if used else -1
        near = self._near_levels(bits, sure, slack) if sure else ()
        # every place chosen stays taken to the end: the early single pieces then need a cell next
        # to a piece outside them (the room's first step), else no choice below can pass
        door = self.door
        taken = used | mine
        tried = 0
        base = bits.base
        final = i + 1 == len(self.steps)
        for d in range(slack + 1):
            # cost d: joined to the pieces in d steps, or (sure) to a sure place in d steps and no fewer
            at = levels[d]
            if d < len(near):
                at |= near[d]
            at &= clear & ~tried
            tried |= at
            if final and at:            # the last step: run(i + 1) is the room left, inlined
                if not self.early_singles:
                    self.chosen[i] = base * (at & -at)
                    return True
                while at:
                    low = at & -at
                    at ^= low
                    cover = base * low
                    if door & ~(taken | cover) and self._room_for_early_singles(taken | cover):
                        self.chosen[i] = cover
                        return True
                continue
            cost = spent + d
            while at:
                low = at & -at
                at ^= low
                cover = base * low
                if not door & ~(taken | cover):
                    continue
                self.chosen[i] = cover
                if alone:
                    found = self.run(i + 1, used | cover, 0, sure | cover, cost)
                elif last:
                    found = self.run(i + 1, used | mine | cover, 0, sure, cost)
                else:
                    found = self.run(i + 1, used, mine | cover, sure, cost)
                if found:
                    return True
        return False


_PIECES: dict = {}        # _piece by the entry's text


def _piece(entry: Any) -> tuple:
    """A piece to come: its possible shapes (a shape, or a list of shapes)."""
    text = repr(entry)
    out = _PIECES.get(text)
    if out is None:
        out = _parse_piece(entry)
        if len(_PIECES) < 1000:
            _PIECES[text] = out
    return out


def _parse_piece(entry: Any) -> tuple:
    items = list(entry)
    if items and isinstance(items[0], (list, tuple)) and items[0] and isinstance(items[0][0], (list, tuple)):
        return tuple(sorted({_shape(s) for s in items}))
    return (_shape(items),)


class _Landscape:
    """A window size with its blocked cells and links: the boards of its windows, built once."""

    __slots__ = ("w", "h", "blocked", "pairs", "windows")

    def __init__(self, w: int, h: int, blocked: frozenset, pairs: list):
        self.w, self.h, self.blocked, self.pairs = w, h, blocked, pairs
        self.windows: dict = {}         # (x0, y0) -> (_Board, its blocked cells as a mask)

    def window(self, x0: int, y0: int) -> tuple:
        out = self.windows.get((x0, y0))
        if out is None:
            board = _Board(x0, y0, self.w, self.h, self.pairs)
            out = self.windows[(x0, y0)] = (board, board.mask(self.blocked))
        return out


class _Question:
    """The fixed part of a question (pieces to come, window, blocked, included and linked cells),
    parsed once; `number` names it in the memo of answers."""

    __slots__ = ("number", "need", "steps", "early_singles", "include", "land", "anywhere", "last_window",
                 "depth", "include_box", "pieces", "tail", "head", "after_singles")

    def __init__(self, number: int, pieces: list, include: list, land: _Landscape, paths: bool):
        self.number, self.include, self.land = number, include, land
        # the box (x0, y0, x1, y1) of the included cells, None without any
        self.include_box = (min(c[0] for c in include), min(c[1] for c in include),
                            max(c[0] for c in include), max(c[1] for c in include)) if include else None
        self.last_window = None  # (box x0 - window x0, box y0 - window y0) of the last window filled
        # nothing fixes where the pieces are (no blocked, included or linked cells): the answer
        # is the same for the occupied cells moved anywhere, so they are asked about moved to
        # the origin (completable, grid_completable_anchors): one memo entry for them all
        self.anywhere = not land.blocked and not land.pairs and not include
        self.need, big = _plan(pieces)
        # the single pieces arriving before the last larger piece need room outside their places
        self.early_singles = big[-1][1] if big else 0
        self.steps = [(shape_bits(land.w, land.h, shape), budget if paths else 0, len(shapes) == 1,
                       a == len(shapes) - 1) for shapes, budget in big for a, shape in enumerate(shapes)]
        self.depth = max([step[1] for step in self.steps], default=0)  # no place costs more
        # for kept completions (tiling_witness): the number of these pieces (with the landscape
        # and included cells), of the pieces after the first (None: no pieces), and the first
        # piece's (size, steps)
        self.pieces = _content_number(tuple(pieces), land, include)
        self.tail = _content_number(tuple(pieces[1:]), land, include) if pieces else None
        size = len(pieces[0][0]) if pieces else 0
        self.head = (size, len(pieces[0]) if size > 1 else 0)
        # the number of the pieces after its first j single cells -> j (those j all singles)
        self.after_singles = {}
        for j, piece in enumerate(pieces[:-1], 1):
            if len(piece[0]) != 1:
                break
            self.after_singles[_content_number(tuple(pieces[j:]), land, include)] = j


_MEMO: dict = {}          # answers by question: a rule asks the same one for several options
_MEMO_LIMIT = 20000
_ANSWERS_LIMIT = 100000  # _MEMO's keys are small (_union_key)
_AT: dict = {}            # (grid at the origin, question number, piece's cells) -> {anchor: answer}
# for questions `anywhere`: the same grid shape recurs across grids and games, and an anchor's
# answer is then found without making the occupied cells
_COMPLETIONS = Completions()  # completions found, by occupied cells: tiling_witness
_CONTENTS: dict = {}      # (pieces, landscape, included cells) -> its number (_Question.pieces)
_QUESTIONS: dict = {}     # the question's fixed part by content -> its _Question
_BY_TEXT: dict = {}       # the same by the arguments' exact text (marshal): no parsing to find it
_LANDSCAPES: dict = {}    # _Landscape by (w, h, blocked cells, link pairs)
_RECENT: list = []        # the last few [arguments, their _Question]: a rule asks about one
# window with the same pieces to come for every spot of a tile


def completable(occupied: set | frozenset, shapes: list, w: int, h: int, blocked: set, include: list,
                links: Any = None, paths: bool = True) -> bool:
    """Plain-Python core of grid_completable (see there)."""
    question = _asked(shapes, w, h, blocked, include, links, paths)
    occupied = occupied if type(occupied) is frozenset else frozenset(occupied)
    if question.anywhere and occupied:
        occupied = _at_origin(occupied)[0]
    return _answer(occupied, question)


def _asked(shapes: list, w: int, h: int, blocked: Any, include: Any, links: Any,
           paths: bool) -> _Question:
    """The question of these arguments: one of the last few asked (a rule asks about one window
    with the same pieces to come for every spot of a tile), else _question."""
    args = (shapes, w, h, blocked, include, links, paths)
    for recent in _RECENT:
        if recent[0] == args:
            return recent[1]
    question = _question(shapes, w, h, blocked, include, links, paths)
    _RECENT.insert(0, (args, question))
    del _RECENT[4:]
    return question


def _answer(occupied: frozenset, question: _Question) -> bool:
    return _answer_of(_union_key(_cells_key(occupied), ()), occupied, (), question)


def _answer_of(key: tuple | None, occupied: frozenset, more: list, question: _Question,
               kept: _GridCompletions | None = None) -> bool:
    """Whether the occupied cells and `more` can still be filled (_completable), kept in _MEMO
    by `key` (_union_key of the cells; None: by the cells themselves). `kept`: the completions
    of the occupied cells alone, which may answer without a search (tiling_witness)."""
    if key is None:
        cells = occupied.union(more) if more else occupied
        key = (cells, question.number)
        hit = _MEMO.get(key)
        if hit is None:
            hit = _keep(key, _completable(*_cells_mask(cells), question))
        return hit
    memo_key = (key, question.number)
    hit = _MEMO.get(memo_key)
    if hit is None:
        if kept is not None and kept.follows(key, more):
            return _keep(memo_key, True)
        found = _completion(key[0], key[1], key[2], _ROW, question)
        if found is not True and found is not False:
            x0, y0, places, occ = found
            if question.tail is not None:
                _COMPLETIONS.keep(key[2] if question.anywhere else key, question.tail, question.head,
                                  (x0 - key[0], y0 - key[1]), places, occ)
            if kept is not None and len(more) == 1:
                kept.learn(found, more[0])
        hit = _keep(memo_key, bool(found))
    return hit


class _GridCompletions:
    """The kept completions of one grid for one question's pieces with a piece of `size`
    cells in front (tiling_witness), each with its window: found once for all the anchors of a
    grid_completable_anchors call. Where none is kept for the grid itself, one of an earlier
    grid it grew into by single pieces (Completions.lately) stands in, with those singles' cells
    (`pre`) placed with the piece."""

    __slots__ = ("grid_key", "question", "size", "windows")

    def __init__(self, grid_key: tuple, question: _Question, size: int, grid: frozenset):
        self.grid_key, self.question, self.size = grid_key, question, size
        self.windows = []               # (x0, y0, board, blocked, occ, first piece's steps, places, pre)
        land = question.land
        for (head_size, steps), (rx, ry), places, occ in _COMPLETIONS.of(
                grid_key[2] if question.anywhere else grid_key, question.pieces):
            if head_size == size:
                x0, y0 = grid_key[0] + rx, grid_key[1] + ry
                board, blocked = land.window(x0, y0)
                self.windows.append((x0, y0, board, blocked, occ, steps, places, 0))
        if question.anywhere or size != 1:
            return
        if self.windows:
            x0, y0, _, _, occ, steps, places, _ = self.windows[0]
            if not steps:
                _COMPLETIONS.lately(land, (x0, y0, occ, places, self._after_single()))
            return
        for x0, y0, occ, places, after in _COMPLETIONS.lately(land):
            j = after.get(question.pieces)
            if j is None:
                continue
            board, blocked = land.window(x0, y0)
            cells = board.mask(grid)
            pre = cells & ~occ
            if cells.bit_count() == len(grid) and not occ & ~cells and pre.bit_count() + 1 == j \
                    and not pre & blocked:
                self.windows.append((x0, y0, board, blocked, occ, 0, places, pre))
                return

    def _after_single(self) -> dict:
        """after_singles of a single followed by this question's pieces."""
        question = self.question
        out = {question.pieces: 1}
        for number, j in question.after_singles.items():
            out[number] = j + 1
        return out

    def follows(self, key: tuple, more: list) -> bool:
        """Whether a completion shows the grid with the piece of cells `more` completable
        (tiling_witness.carry: the rule, and why it is exact); the completion it leaves is
        kept in turn, for the grid with the piece (`key`)."""
        question = self.question
        single = len(more) == 1
        for x0, y0, board, blocked, occ, steps, places, pre in self.windows:
            if single:
                x, y = more[0][0] - x0, more[0][1] - y0
                if not (0 <= x < board.w and 0 <= y < board.h):
                    continue
                added = 1 << (y * board.w + x)
            else:
                added = board.mask(more)
                if added.bit_count() != self.size:
                    continue
            if added & (blocked | occ | pre):
                continue                # a cell outside the window, blocked or occupied
            added |= pre
            rest = carry(board, blocked, occ, added, steps, places, question.steps, question.early_singles)
            if rest is not None:
                if question.tail is not None:
                    _COMPLETIONS.keep(key[2] if question.anywhere else key, question.tail, question.head,
                                      (x0 - key[0], y0 - key[1]), rest, occ | added)
                return True
        return False

    def learn(self, found: tuple, cell: tuple) -> None:
        """A completion of the grid and one single cell on it is one of the grid alone with that
        single in front of the pieces, when the cell and every place touch the grid's own cells
        (the free cells gain the cell, next to the grid, and the early singles one more, with
        that cell for room; a place touching only cells next to the single is moved, and the
        room checked: tiling_witness.settle): kept so, and tried first for the next anchors."""
        x0, y0, places, occ = found
        question = self.question
        board, blocked = question.land.window(x0, y0)
        bit = board.bit(cell)
        grid = occ & ~bit
        next_to_grid = board.expand(grid) & ~grid & ~blocked
        if not bit & next_to_grid:
            return
        if not costs_nothing(places, next_to_grid):  # places joined through the single: moved
            places = settle(board, blocked, grid, 0, places, question.steps,
                            question.early_singles + 1 if question.steps else 0)
            if places is None:
                return
        key = self.grid_key
        _COMPLETIONS.keep(key[2] if question.anywhere else key, question.pieces, (1, 0), (x0 - key[0], y0 - key[1]),
                          places, grid)
        if self.size == 1:
            self.windows = [w for w in self.windows if (w[0], w[1]) != (x0, y0)]
            self.windows.insert(0, (x0, y0, board, blocked, grid, 0, places, 0))
            del self.windows[2:]
            if not question.anywhere:
                _COMPLETIONS.lately(question.land, (x0, y0, grid, places, self._after_single()))


def _keep(key: tuple, answer: bool) -> bool:
    """The answer, kept in _MEMO by `key` (emptied when full)."""
    if len(_MEMO) >= _ANSWERS_LIMIT:
        _MEMO.clear()
    _MEMO[key] = answer
    return answer


def _cells_mask(cells: frozenset) -> tuple:
    """(min x, min y, the cells as bits (y - min y) * stride + x - min x, stride): _completable's
    arguments for cells too wide for a memo key's row (or none: mask 0)."""
    if not cells:
        return 0, 0, 0, 1
    xs, ys = [c[0] for c in cells], [c[1] for c in cells]
    x0, y0 = min(xs), min(ys)
    stride = max(xs) - x0 + 1
    mask = 0
    for x, y in cells:
        mask |= 1 << ((y - y0) * stride + x - x0)
    return x0, y0, mask, stride


_ROW = 64  # bits per row of a memo key's mask


def _cells_key(cells: frozenset) -> tuple | None:
    """(min x, min y, max x, the cells as bits (y - min y) * _ROW + x - min x), None for no
    cells or cells wider than a row: a small exact key (a frozenset costs ten times the memory)."""
    if not cells:
        return None
    xs, ys = [c[0] for c in cells], [c[1] for c in cells]
    x0, y0, x1 = min(xs), min(ys), max(xs)
    if x1 - x0 >= _ROW:
        return None
    mask = 0
    for x, y in cells:
        mask |= 1 << ((y - y0) * _ROW + x - x0)
    return (x0, y0, x1, mask)


def _union_key(key: tuple | None, more: Any) -> tuple | None:
    """The memo key (min x, min y, mask) of the cells of `key` (_cells_key) and the cells
    `more`: the same for the same cells however they are split; None when it cannot be made."""
    if key is None:
        return None
    x0, y0, x1, mask = key
    if more:
        nx0, ny0, nx1 = x0, y0, x1
        for x, y in more:
            if x < nx0:
                nx0 = x
            if x > nx1:
                nx1 = x
            if y < ny0:
                ny0 = y
        if nx1 - nx0 >= _ROW:
            return None
        if nx0 != x0 or ny0 != y0:
            mask <<= (y0 - ny0) * _ROW + x0 - nx0
            x0, y0 = nx0, ny0
        for x, y in more:
            mask |= 1 << ((y - y0) * _ROW + x - x0)
    return (x0, y0, mask)


def _question(shapes: list, w: int, h: int, blocked: Any, include: Any, links: Any,
              paths: bool) -> _Question:
    """The parsed fixed part of a question: found by the arguments' text (marshal: the exact
    values, quick to make), else by their content, else parsed."""
    try:
        text = (marshal.dumps((shapes, blocked, include, links), 2), w, h, paths)
    except ValueError:              # a value marshal cannot write: look it up by content
        text = None
    question = _BY_TEXT.get(text) if text is not None else None
    if question is None:
        question = _question_by_content(shapes, w, h, blocked, include, links, paths)
        if text is not None:
            if len(_BY_TEXT) >= _MEMO_LIMIT:  # many texts of one content: start again
                _BY_TEXT.clear()
            _BY_TEXT[text] = question
    return question


def _question_by_content(shapes: list, w: int, h: int, blocked: Any, include: Any, links: Any,
                         paths: bool) -> _Question:
    fixed = (_shapes_key(shapes), w, h, frozenset(_cells(blocked)), tuple(_cells(include)),
             repr(links), paths)
    question = _QUESTIONS.get(fixed)
    if question is None:
        if len(_QUESTIONS) >= _MEMO_LIMIT:
            _QUESTIONS.clear()
            _BY_TEXT.clear()
            _LANDSCAPES.clear()
            _CONTENTS.clear()
            _COMPLETIONS.clear()
            _MEMO.clear()
            _AT.clear()
            _RECENT.clear()
        pairs = [(a, b) for a, bs in _link_map(links).items() for b in bs]
        land_key = (w, h, fixed[3], tuple(pairs))
        land = _LANDSCAPES.get(land_key)
        if land is None:
            land = _LANDSCAPES[land_key] = _Landscape(w, h, fixed[3], pairs)
        question = _QUESTIONS[fixed] = _Question(len(_QUESTIONS), [_piece(e) for e in shapes],
                                                 list(fixed[4]), land, paths)
    return question


def _content_number(pieces: tuple, land: _Landscape, include: list) -> int:
    """The number of these pieces to come (parsed) with this landscape and included cells."""
    key = (pieces, land, tuple(include))
    number = _CONTENTS.get(key)
    if number is None:
        number = _CONTENTS[key] = len(_CONTENTS)
    return number


def _shapes_key(shapes: Any) -> Any:
    """A dictionary key for the pieces to come: lists made tuples, all the way down (a list and
    a tuple of the same things are parsed alike), or their text when that is not hashable."""
    key = _tuples(shapes)
    try:
        hash(key)
    except TypeError:
        return repr(shapes)
    return key


def _tuples(v: Any) -> Any:
    if type(v) is list:
        return tuple([_tuples(x) if type(x) is list else x for x in v])
    return v


def _plan(pieces: list) -> tuple:
    """(cells the pieces cover, [(possible shapes, singles before it)] of the larger pieces)."""
    need = 0
    big, singles = [], 0
    for p in pieces:
        size = len(p[0])
        if any(len(s) != size for s in p):
            raise RuleRuntimeError("the possible shapes of one piece must cover as many cells")
        need += size
        if size == 1:
            singles += 1
        else:
            big.append((p, singles))
    return need, big


def _completable(mx: int, my: int, mask: int, stride: int, question: _Question) -> bool:
    """Whether some window holding the occupied cells (bit (y - my) * stride + x - mx of `mask`
    for cell (x, y)) can be filled by the pieces to come."""
    return bool(_completion(mx, my, mask, stride, question))


def _completion(mx: int, my: int, mask: int, stride: int, question: _Question) -> bool | tuple:
    """_completable's answer: False, True, or a completion whose places cost nothing
    (_window_fills), which tiling_witness may carry on."""
    need, land = question.need, question.land
    w, h = land.w, land.h
    room = w * h - mask.bit_count()     # every occupied cell is inside every window below
    if not land.blocked and room != need:
        return False                    # no window has as many free cells as the pieces need
    rows = []                           # the occupied cells row by row from my, as bits from mx
    if mask:
        if mask.bit_length() > h * stride:
            return False                # more rows than a window has
        full_row = (1 << stride) - 1
        wide = 0
        while mask:
            row = mask & full_row
            rows.append(row)
            wide |= row
            mask >>= stride
        bx0, by0, bx1, by1 = mx, my, mx + wide.bit_length() - 1, my + len(rows) - 1
        box = question.include_box
        if box is not None:
            bx0, by0, bx1, by1 = min(bx0, box[0]), min(by0, box[1]), max(bx1, box[2]), max(by1, box[3])
    elif question.include_box is None:
        return False
    else:
        bx0, by0, bx1, by1 = question.include_box
    # so a cell's bit in the window at (x0, y0) is its bit on a board of row length w from the
    # first window's corner (X, Y), shifted right by (y0 - Y) * w + x0 - X
    if bx1 - bx0 >= w or by1 - by0 >= h:
        return False                    # no window holds them all
    X, Y = bx1 - w + 1, by1 - h + 1
    occ_all = 0
    shift = (my - Y) * w + mx - X
    for row in rows:
        occ_all |= row << shift
        shift += w
    # the answer is true if some window can be filled, whichever is tried first: the window
    # that could be filled last time (where the box lies in it) first, as the same is often asked
    # again with one more piece
    last = question.last_window
    if last is not None:
        x0, y0 = bx0 - last[0], by0 - last[1]
        if X <= x0 <= bx0 and Y <= y0 <= by0:
            found = _window_fills(land, x0, y0, occ_all >> ((y0 - Y) * w + x0 - X), room, need, question)
            if found:
                return found
    for x0 in range(X, bx0 + 1):
        for y0 in range(Y, by0 + 1):
            if last is not None and (bx0 - x0, by0 - y0) == last:
                continue                # tried above
            found = _window_fills(land, x0, y0, occ_all >> ((y0 - Y) * w + x0 - X), room, need, question)
            if found:
                question.last_window = (bx0 - x0, by0 - y0)
                return found
    return False


def _window_fills(land: _Landscape, x0: int, y0: int, occ: int, room: int, need: int,
                  question: _Question) -> bool | tuple:
    """Whether the pieces to come can fill the window at (x0, y0) holding the occupied cells
    `occ` (a mask of the window): False, True, or (x0, y0, the places the search found, occ)
    when every place touches the pieces (a completion tiling_witness may carry on)."""
    board, blocked = land.window(x0, y0)
    if blocked:                         # the blocked cells no piece covers are not free
        if room - (blocked & ~occ).bit_count() != need:
            return False
        free = board.full & ~occ & ~blocked
    elif room != need:
        return False
    else:
        free = board.full & ~occ
    rings = board.rings(occ, free)
    reached = 0
    for ring in rings:
        reached |= ring
    if reached != free:                 # a free cell no piece can ever reach
        return False
    search = _Search(board, free, occ, question.steps, question.early_singles, rings, question.depth)
    if not (search.first_path() or search.run()):
        return False
    if costs_nothing(search.chosen, rings[0] if rings else 0):
        return x0, y0, tuple(search.chosen), occ
    return True


@builtin(min_args=2, kwargs=("max_width", "max_height", "blocked", "links", "include", "occupied",
                             "paths"))
def grid_completable(S, zone, shapes, max_width=None, max_height=None, blocked=None, links=None,
                     include=None, occupied=None, paths=True):
    """grid_completable(zone, shapes, max_width=, max_height=, blocked=[], links=[], include=[], occupied=[], paths=true): true when the pieces still to come (shapes: lists of cells, in arrival order, translated, never rotated; an entry may be a list of shapes when the piece's shape is not known in advance: it must fit whichever it is) can fill exactly the empty, unblocked cells of some max_width × max_height window holding every occupied, `include` and `occupied` cell, each piece touching (or linked to) one placed before it; single-cell pieces arriving earlier may build a path to a larger one (not with paths=false: every larger piece must then fit touching the pieces already there). `occupied`: cells counted as taken (a placement being considered)."""
    if max_width is None or max_height is None:
        raise RuleRuntimeError("grid_completable needs max_width= and max_height=")
    taken = frozenset([*_grid(S, zone), *_cells(occupied)])
    return completable(taken, shapes, int(max_width), int(max_height), blocked, include, links,
                       bool(paths))


@builtin(min_args=4, kwargs=("max_width", "max_height", "blocked", "links", "include", "paths",
                             "first"))
def grid_completable_anchors(S, zone, shapes, shape, anchors, max_width=None, max_height=None,
                             blocked=None, links=None, include=None, paths=True, first=False):
    """grid_completable_anchors(zone, shapes, shape, anchors, max_width=, max_height=, blocked=[], links=[], include=[], paths=true, first=false): the anchors (of `anchors`, in their order) at which a piece of `shape` (its cells relative to the anchor) keeps the grid completable: grid_completable of the same arguments with the piece's cells as `occupied`; with first=true, at most the first such anchor."""
    if max_width is None or max_height is None:
        raise RuleRuntimeError("grid_completable_anchors needs max_width= and max_height=")
    return completable_anchors(_grid(S, zone), shapes, shape, items(S, anchors), max_width, max_height, blocked,
                               links, include, paths, first)


def completable_anchors(occupied: Any, shapes: Any, shape: Any, seq: list, max_width: Any, max_height: Any,
                        blocked: Any = None, links: Any = None, include: Any = None, paths: Any = True,
                        first: Any = False) -> list:
    """Plain-Python core of grid_completable_anchors (see there): `occupied` the occupied cells
    (a dict or set of cells), `seq` the anchors as a list."""
    grid = frozenset(occupied)
    offsets = _cells(shape)
    if not seq:
        return []
    question = _asked(shapes, int(max_width), int(max_height), blocked, include, links, bool(paths))
    ox = oy = 0
    at = None
    if question.anywhere and grid:  # asked about the grid moved to the origin (see _AT)
        grid, ox, oy = _at_origin(grid)
        key = (grid, question.number, tuple(offsets))
        at = _AT.get(key)
        if at is None:
            if len(_AT) >= _MEMO_LIMIT:
                _AT.clear()
            at = _AT[key] = {}
    out = []
    key = _cells_key(grid)
    kept = _GridCompletions(_union_key(key, ()), question, len(offsets), grid) if grid and key is not None else None
    for anchor in seq:
        x, y = _cell(anchor)
        x -= ox
        y -= oy
        hit = None if at is None else at.get((x, y))
        if hit is None:
            more = [(x + dx, y + dy) for dx, dy in offsets]
            hit = _answer_of(_union_key(key, more), grid, more, question, kept)
            if at is not None:
                at[(x, y)] = hit
        if hit:
            out.append(anchor)
            if first:
                break
    return out
