"""The options of distinct pieces the chooser sees whole (options.open_zone: each piece its own
option, no grouping key per piece, entries made when labels are read) are the options and
labels the general path (a grouping key per piece) makes, and the shortcut is not taken where
pieces are hidden, can look alike or lie in several zones."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter.game import Game
from interpreter.labels import piece_label
from interpreter.options import PASS, build_options, labels_of, open_zone
from interpreter.resample import relabel
from interpreter.threads import waiting

from .helpers import load

ROOT = Path(__file__).resolve().parents[2]

CARDS = """
components:
  card:
    start: deck
    items:
      - {id: ace, count: 1}
      - {id: king, count: 1}
      - {id: queen, count: 1}
      - {id: pawn, count: 3}
zones:
  deck: {visibility: hidden}
  hand: {per: [player], visibility: owner}
  line: {per: [player], ordered: true, visibility: owner}
  table: {}
setup:
  - id: deal
    do: |
      for p in players:
        draw 3 from deck to hand[p]
flow:
  rounds: 1
  phases:
    - id: p
      turns: seat
      turn: |
        choose c from hand[player] prompt "Play"
        move c to table
"""


def _general(S, pend, L: dict):
    """Options and labels of `pend` made by the general path (a grouping key per piece)."""
    ref = pend.copy()
    ref.options, ref.labels, ref.recipe = [], None, None
    ref.cache = {}  # a later pick's cache: skips the shortcuts, keys every piece
    build_options(S, ref, L)
    return ref.options, labels_of(S, ref)


@pytest.mark.parametrize("name,players,opts", [("chicago_poker", 4, {"no_special_cards": True}),
                                               ("goofspiel", 2, {}), ("dice_town", 3, {}),
                                               ("dogs_day", 4, {})])
def test_every_choice_of_random_games_matches_the_general_path(name, players, opts):
    game = Game.load(ROOT / "rules" / name / "game.yaml")
    opened = 0
    for seed in range(2):
        S = game.new_game(players, opts, seed, logging=False)
        rng = random.Random(seed)
        while not S.over:
            p = S.current_players()[0]
            th = waiting(S)[p]
            pend = th.pending
            if pend.kind != "perform" and pend.candidates:
                opened += pend.recipe[1] is None and pend.recipe[3] not in (False, True)
                assert _general(S, pend, dict(th.frames[-1].L)) == (pend.options, labels_of(S, pend))
            S.apply(p, rng.randrange(S.option_count(p)))
    assert opened  # the shortcut was taken


def test_shortcut_only_for_distinct_visible_pieces_of_one_zone(tmp_path):
    S = load(tmp_path, CARDS).new_game(2, seed=1)
    mine, theirs = list(S.zones["hand:0"]), list(S.zones["hand:1"])
    assert open_zone(S, mine, 0) == "hand:0"
    assert open_zone(S, theirs, 0) is None  # hidden from the chooser: offered anonymously
    assert open_zone(S, mine + theirs, 1) is None  # two zones
    pawns = [p for p in S.zones["deck"] + mine + theirs if S.lay.visible_key[p][1] == "pawn"]
    S.move([pawns[0], pawns[1]], "table")
    assert open_zone(S, S.zones["table"], 0) is None  # pawns look alike: grouped
    S.move([pawns[0], pawns[1]], "line:0")
    assert open_zone(S, S.zones["line:0"], 0) == "line:0"  # ordered: each pawn is itself
    S.move(mine, "table")
    assert open_zone(S, mine, 1) == "table"  # face up on a public table
    S.move(mine[:1], "table", face=False)
    assert open_zone(S, mine, 1) is None  # one of them face down: offered anonymously


def test_a_repeated_candidate_is_offered_once_with_the_labels_of_the_general_path(tmp_path):
    S = load(tmp_path, CARDS).new_game(2, seed=1)
    pend = waiting(S)[0].pending
    hand = S.zones["hand:0"]
    assert pend.options == hand and pend.recipe == (False, None, None, "hand:0", None)
    twice = pend.copy()
    twice.candidates = hand + hand[:1]
    twice.cache = None
    build_options(S, twice, {})
    assert twice.options == hand and labels_of(S, twice) == labels_of(S, pend)
    assert _general(S, twice, {}) == (twice.options, labels_of(S, twice))


def test_relabelled_state_labels_the_pieces_that_stand_in(tmp_path):
    S = load(tmp_path, CARDS).new_game(2, seed=1)
    before = labels_of(S, waiting(S)[0].pending)
    a, b = S.zones["hand:0"][0], S.zones["hand:1"][0]
    T = relabel(S, {a: b, b: a})
    pend = waiting(T)[0].pending
    assert pend.options[0] == b and T.loc[b] == "hand:0"
    assert labels_of(T, pend) == _general(T, pend, {})[1]
    assert labels_of(T, pend)[0] == piece_label(T, b) and labels_of(T, pend)[1:] == before[1:]


VALUES = """
components:
  card:
    start: deck
    items: [{id: ace}, {id: king}]
zones:
  deck: {}
  hand: {per: [player], visibility: owner}
flow:
  rounds: 1
  phases:
    - id: p
      turns: seat
      turn: |
        choose w from [next_player(player), player, next_player(player)] prompt "Whom?"
        choose c from [(1, 2), (0, 0), (1, 2), (3,)] prompt "Where?"
        choose m from [1, "a", w, (0, 1), none, false] optional prompt "Which?"
        choose l from [[1, 2], [1, 2], [3]] prompt "A list"
"""


def test_values_that_are_no_pieces_are_their_own_options_labelled_as_the_grouping_loop_would():
    from interpreter.labels import label
    from interpreter.options import VALUES as SHOWN, single_pick
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        S = load(Path(tmp), VALUES).new_game(2, seed=1)
    def pend():
        return waiting(S)[0].pending
    # players, cells, a mix: each value once, in order; labels by label() (P2, (1, 2), none)
    assert pend().options == [1, 0] and labels_of(S, pend()) == ["P2", "P1"]
    assert pend().recipe[3] == SHOWN and pend().recipe[1] is None
    S.apply(0, 0)
    assert pend().options == [(1, 2), (0, 0), (3,)]
    assert labels_of(S, pend()) == ["(1, 2)", "(0, 0)", "(3)"] == [label(S, v, 0) for v in pend().options]
    S.apply(0, 0)
    # w is P2, equal to 1: a repeat, as false would be of 0
    assert pend().options[:-1] == [1, "a", (0, 1), None, False] and pend().options[-1] == PASS
    assert labels_of(S, pend()) == ["1", "a", "(0, 1)", "none", "false", "pass"]
    assert single_pick(S, [1, "a"], 0, None, {}) == ([1, "a"], (False, None, None, False, None))
    assert single_pick(S, [(0, 1), 2], 0, None, {})[1][3] == SHOWN
    S.apply(0, 0)
    # lists are grouped by a key each, as before
    assert pend().options == [[1, 2], [3]] and labels_of(S, pend()) == ["1, 2", "3"]
    assert single_pick(S, [[1, 2]], 0, None, {}) is None
