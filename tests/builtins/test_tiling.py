"""tiling.py on abstract data: windows of free cells and dominoes that must still fit, in order."""
from interpreter.builtins.tiling import completable

S1 = [(0, 0)]
H = [(0, 0), (1, 0)]
V = [(0, 0), (0, 1)]


def test_singles_fill_any_free_cells_when_the_count_matches():
    occupied = {(0, 0), (1, 0)}
    assert completable(occupied, [S1, S1], 2, 2, set(), [])
    assert not completable(occupied, [S1], 2, 2, set(), [])          # one cell would stay empty
    assert not completable(occupied, [S1, S1, S1], 2, 2, set(), [])  # one piece too many


def test_a_domino_needs_two_free_cells_side_by_side_in_its_orientation():
    # a 3 x 1 strip pinned by `include`, the middle taken: two free cells, not adjacent
    assert not completable({(1, 0)}, [H], 3, 1, set(), [(0, 0), (2, 0)])
    # a 2 x 2 square with one corner taken: an L of 3 free cells holds H + 1 and V + 1
    assert completable({(0, 0)}, [H, S1], 2, 2, set(), [])
    assert completable({(0, 0)}, [V, S1], 2, 2, set(), [])
    # ... but not two dominoes and nothing else
    assert not completable({(0, 0)}, [H, V], 2, 2, set(), [])


def test_blocked_cells_are_never_free():
    # 3 x 3 with a blocked centre and one corner taken: 7 free cells in a ring
    occupied = {(0, 0)}
    blocked = {(1, 1)}
    assert completable(occupied, [H, H, V, S1], 3, 3, blocked, [])
    assert not completable(occupied, [H, H, H, S1], 3, 3, blocked, [])


def test_a_domino_must_touch_a_piece_or_be_reached_by_singles_arriving_first():
    # 3 x 2, the piece at (0, 0), (0, 1) and (1, 1) blocked: free (1, 0), (2, 0), (2, 1); the only
    # place for a vertical domino is (2, 0)-(2, 1), one cell away from the piece
    blocked = {(0, 1), (1, 1)}
    assert completable({(0, 0)}, [S1, V], 3, 2, blocked, [(2, 1)])      # the single goes first
    assert not completable({(0, 0)}, [V, S1], 3, 2, blocked, [(2, 1)])  # the domino cannot wait
    # paths=false: no single may prepare the way, the domino must touch the piece already there
    assert not completable({(0, 0)}, [S1, V], 3, 2, blocked, [(2, 1)], paths=False)
    assert completable({(0, 0)}, [H], 3, 1, set(), [(2, 0)], paths=False)


def test_free_cells_no_piece_can_reach_make_the_window_fail():
    # 3 x 1: pieces at x=0; x=2 is free but walled off by a blocked x=1
    assert not completable({(0, 0)}, [S1], 3, 1, {(1, 0)}, [(2, 0)])
    # a link (a bridge) over the blocked cell joins it
    assert completable({(0, 0)}, [S1], 3, 1, {(1, 0)}, [(2, 0)], links=[[(0, 0), (2, 0)]])


def test_the_window_may_slide_but_must_hold_everything():
    assert completable({(5, 5)}, [V, S1], 2, 2, set(), [])
    assert completable({(5, 5)}, [H, S1], 2, 2, set(), [(6, 6)])
    assert not completable({(5, 5)}, [S1], 2, 2, set(), [(7, 5)])    # 3 wide: no window


def test_identical_shapes_are_searched_once_each():
    # a 2 x 4 board, empty but for one corner: 7 cells, three horizontal dominoes and a single
    occupied = {(0, 0)}
    assert completable(occupied, [S1, H, H, H], 2, 4, set(), [])
    assert not completable(occupied, [H, H, H, H], 2, 4, set(), [])  # 8 cells needed


def test_nothing_occupied_and_nothing_included_cannot_be_placed():
    assert not completable(set(), [S1], 2, 2, set(), [])


HV = [H, V]     # a piece that will be one or the other, not known in advance


def test_a_piece_of_unknown_shape_must_fit_whichever_it_is():
    # a 2 x 1 strip beside the piece: a horizontal domino fits, a vertical one does not
    assert completable({(0, 0)}, [H], 3, 1, set(), [(2, 0)])
    assert not completable({(0, 0)}, [HV], 3, 1, set(), [(2, 0)])
    # an L of 3 free cells: either domino fits, with the single on the cell left over
    assert completable({(0, 0)}, [HV, S1], 2, 2, set(), [])


def test_two_pieces_of_unknown_shape_need_places_that_never_overlap():
    # a free 2 x 2 square beside the pieces: two horizontal or two vertical dominoes fit, but a
    # horizontal and a vertical one always cross
    occupied = {(0, 0), (0, 1)}
    assert completable(occupied, [H, H], 3, 2, set(), [])
    assert completable(occupied, [V, V], 3, 2, set(), [])
    assert not completable(occupied, [HV, HV], 3, 2, set(), [])


def test_singles_arriving_first_build_one_set_of_paths_for_every_shape():
    # a 4 x 2 window, pieces on the left column; the 6 free cells hold one domino of unknown
    # shape and 4 singles; with one single first, either domino can be reached
    occupied = {(0, 0), (0, 1)}
    assert completable(occupied, [S1, HV, S1, S1, S1], 4, 2, set(), [])
    assert completable(occupied, [HV, S1, S1, S1, S1], 4, 2, set(), [])


def test_singles_arriving_first_cannot_take_the_place_a_larger_piece_needs():
    # a column 1 wide and 4 high, the piece on top: free (0, 1), (0, 2), (0, 3)
    column = dict(w=1, h=4, blocked=set(), include=[(0, 3)])
    occupied = {(0, 0)}
    # domino first, touching the piece; the single fills the bottom afterwards
    assert completable(occupied, [V, S1], **column)
    # a single first goes under the piece, the domino below it
    assert completable(occupied, [S1, V], **column)
    # ... which needs the single's path: without it the domino must touch the piece, and the
    # single, put first, would then have nowhere to go but the domino's place
    assert not completable(occupied, [S1, V], paths=False, **column)


def test_answers_to_different_pieces_on_one_grid_are_kept_apart():
    # the parsed pieces are remembered per question: a 3 x 1 strip with its middle taken keeps
    # taking two singles but never a horizontal domino, whichever was asked first, and asking
    # again gives the same answers
    for _ in range(2):
        assert not completable({(1, 0)}, [H], 3, 1, set(), [(0, 0), (2, 0)])
        assert completable({(1, 0)}, [S1, S1], 3, 1, set(), [(0, 0), (2, 0)])
        assert not completable({(1, 0)}, [[H, V]], 3, 1, set(), [(0, 0), (2, 0)])


def test_pieces_wider_or_taller_than_the_window_fit_nowhere():
    assert not completable({(0, 0), (3, 0)}, [S1, S1], 3, 3, set(), [])     # 4 wide
    assert not completable({(0, 0), (0, 3)}, [S1, S1], 3, 3, set(), [])     # 4 tall
    assert not completable({(0, 0)}, [S1], 2, 2, set(), [(-2, 1)])         # include too far left


def test_a_question_asked_as_lists_or_tuples_gets_the_same_answer():
    # the parsed question is found again by the arguments' exact text, or else by their content
    as_lists = [[[0, 0], [1, 0]], [[0, 0]]]
    as_tuples = (((0, 0), (1, 0)), ((0, 0),))
    for shapes in (as_lists, as_tuples, as_lists):
        assert completable({(0, 0)}, shapes, 2, 2, set(), [])
        assert not completable({(0, 0)}, shapes, 3, 1, set(), [(2, 0)])


def test_values_without_an_exact_text_are_still_parsed():
    class Cell(tuple):  # a tuple subclass: marshal cannot write it, the content still counts
        pass
    bridge = [[(0, 0), (2, 0)]]
    assert completable({(0, 0)}, [S1], 3, 1, {Cell((1, 0))}, [(2, 0)], links=bridge)
    assert not completable({(0, 0)}, [S1], 3, 1, {Cell((5, 5))}, [(2, 0)], links=bridge)


def test_windows_of_different_blocked_cells_are_kept_apart():
    # one window size, two landscapes: the windows' blocked cells are remembered per landscape
    for _ in range(2):
        assert completable({(0, 0)}, [S1, S1], 3, 1, {(1, 0)}, [(2, 0)], links=[[(0, 0), (2, 0)]]) is False
        assert completable({(0, 0)}, [S1], 3, 1, {(1, 0)}, [(2, 0)], links=[[(0, 0), (2, 0)]])
        assert completable({(0, 0)}, [S1, S1], 3, 1, {(5, 0)}, [(2, 0)])
        assert not completable({(0, 0)}, [S1], 3, 1, {(5, 0)}, [(2, 0)])


def test_cells_moved_anywhere_share_one_answer_only_where_nothing_fixes_their_place():
    from interpreter.builtins import tiling
    tiling._MEMO.clear()
    # nothing blocked, included or linked: asked for the cells moved to x, y >= 0 from 0, so the
    # same cells anywhere else find that answer
    L = {(0, 0), (1, 0), (0, 1)}
    for dx, dy in ((5, -3), (0, 0), (-7, 2)):
        moved = {(x + dx, y + dy) for x, y in L}
        assert completable(moved, [S1], 2, 2, set(), [])
        assert not completable(moved, [H], 2, 2, set(), [])
    assert {key[0] for key in tiling._MEMO} == {tiling._union_key(tiling._cells_key(frozenset(L)), ())} \
        and len(tiling._MEMO) == 2
    # a blocked cell fixes the place: the cells are asked where they are, and answered apart
    tiling._MEMO.clear()
    assert completable(L, [S1], 2, 2, {(1, 1)}, []) is False           # the free cell is blocked
    assert completable({(x + 5, y) for x, y in L}, [S1], 2, 2, {(1, 1)}, [])  # not there
    assert len(tiling._MEMO) == 2
    # included cells fix it too
    assert completable({(0, 0)}, [S1], 2, 1, set(), [(1, 0)])
    assert completable({(5, 0)}, [S1], 2, 1, set(), [(1, 0)]) is False  # too far apart


def _key_cells(key):
    """The cells of a _MEMO key (tiling._union_key: min x, min y, a mask of 64 bits a row)."""
    x0, y0, mask = key
    return {(x0 + b % 64, y0 + b // 64) for b in range(mask.bit_length()) if mask >> b & 1}


def test_anchors_are_asked_about_the_grid_moved_to_the_origin(tmp_path):
    from interpreter.builtins import tiling
    from test_grid import BOARD
    from interpreter.game import Game
    path = tmp_path / "game.yaml"
    path.write_text(BOARD, encoding="utf-8")
    S = Game.load(path).new_game(2, {}, 1)
    zone = S.lay.zone_index["board"][()]
    tiles = [p for p in S.lay.pieces if S.lay.static[p]["name"] == "red"]
    S.move(tiles[:1], zone, at=(4, -2))
    S.move(tiles[1:2], zone, at=(4, -1))
    tiling._MEMO.clear()
    tiling._AT.clear()
    to_come = [[(0, 0)], [(0, 0)], [(0, 0)]]          # a 2 x 3 window: 3 free cells after the tile
    anchors = [(5, -2), (3, -2), (4, 0), (6, -2)]
    got = tiling.grid_completable_anchors(S, zone, to_come, [(0, 0)], anchors, max_width=2, max_height=3)
    assert got == [(5, -2), (3, -2), (4, 0)]     # (6, -2): three columns wide
    assert all({(0, 0), (0, 1)} <= _key_cells(key[0]) for key in tiling._MEMO)   # the grid, moved
    each = [a for a in anchors if tiling.grid_completable(S, zone, to_come, occupied=[a], max_width=2, max_height=3)]
    assert each == got
    # the answers by anchor are kept for the grid at the origin: the same city elsewhere finds them
    assert [key[0] for key in tiling._AT] == [frozenset({(0, 0), (0, 1)})]
    S.move(tiles[:1], zone, at=(0, 0))
    S.move(tiles[1:2], zone, at=(0, 1))
    answers = dict(next(iter(tiling._AT.values())))
    moved = [(x - 4, y + 2) for x, y in anchors]
    assert tiling.grid_completable_anchors(S, zone, to_come, [(0, 0)], moved, max_width=2, max_height=3) \
        == [(x - 4, y + 2) for x, y in got]
    assert len(tiling._AT) == 1 and next(iter(tiling._AT.values())) == answers
    # where a blocked cell fixes the place, nothing is kept by anchor
    tiling._AT.clear()
    assert tiling.grid_completable_anchors(S, zone, to_come, [(0, 0)], moved, max_width=2, max_height=3,
                                           blocked=[(9, 9)]) == [(x - 4, y + 2) for x, y in got]
    assert not tiling._AT


def test_moved_answers_equal_the_search_on_random_cells():
    import random
    from interpreter.builtins import tiling
    rng = random.Random(5)
    for _ in range(300):
        cells = {(rng.randrange(3), rng.randrange(3)) for _ in range(rng.randrange(1, 7))}
        shapes = [rng.choice([S1, H, V, [H, V]]) for _ in range(rng.randrange(1, 4))]
        dx, dy = rng.randrange(-4, 5), rng.randrange(-4, 5)
        question = tiling._question(shapes, 3, 3, set(), [], None, True)
        assert question.anywhere
        moved = frozenset((x + dx, y + dy) for x, y in cells)
        tiling._MEMO.clear()  # the search where the cells are, and where they are moved to
        assert completable(moved, shapes, 3, 3, set(), []) == tiling._completable(*tiling._cells_mask(moved), question) \
            == tiling._completable(*tiling._cells_mask(frozenset(cells)), question)


def test_the_window_tried_first_never_changes_the_answer():
    """_completable tries first the window (by its place against the cells' box) that was filled
    last time: on random grids, with every such place tried first and none, the same answers."""
    import random
    from interpreter.builtins import tiling
    rng = random.Random(11)
    for _ in range(200):
        cells = frozenset((rng.randrange(4), rng.randrange(4)) for _ in range(rng.randrange(1, 9)))
        blocked = {(rng.randrange(-1, 5), rng.randrange(-1, 5)) for _ in range(rng.randrange(0, 3))} - cells
        shapes = [rng.choice([S1, H, V, [H, V]]) for _ in range(rng.randrange(1, 5))]
        shapes += [S1] * max(0, 16 - len(blocked & {(x, y) for x in range(4) for y in range(4)}) - len(cells)
                             - sum(len(s[0]) if isinstance(s[0], list) else len(s) for s in shapes))
        question = tiling._question(shapes, 4, 4, blocked, [], None, True)
        answers = set()
        for last in [None] + [(dx, dy) for dx in range(4) for dy in range(4)]:
            question.last_window = last
            answers.add(tiling._completable(*tiling._cells_mask(cells), question))
        assert len(answers) == 1, (sorted(cells), blocked, shapes)


def test_memo_keys_are_the_same_for_the_same_cells_however_they_are_split():
    """_MEMO's small keys (_union_key: a corner and a bit mask): the same cells give one key
    whichever part is the grid and which the piece; different cells, different keys; cells
    wider than a mask's row give none (kept by the cells themselves)."""
    import random
    from interpreter.builtins import tiling
    rng = random.Random(2)
    seen: dict = {}
    for _ in range(2000):
        cells = frozenset((rng.randrange(-3, 4), rng.randrange(-3, 4)) for _ in range(rng.randrange(1, 8)))
        part = frozenset(rng.sample(sorted(cells), rng.randrange(0, len(cells))))
        rest = frozenset(cells) - part
        key = tiling._union_key(tiling._cells_key(part or cells), list(rest) if part else [])
        assert seen.setdefault(key, cells) == cells
    assert tiling._cells_key(frozenset({(0, 0), (64, 0)})) is None
    assert tiling._union_key(tiling._cells_key(frozenset({(0, 0)})), [(64, 0)]) is None
