"""Look-alike pieces of one zone the chooser sees (dice of a cup: options.open_lookalikes, one
look per piece without the zone, no cache kept) are offered as the general path (a grouping key
per piece, zone included) offers them, with the same labels; the shortcut is not taken where
pieces are hidden, lie in several zones or sit in an ordered zone."""
from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace

import pytest

from interpreter.game import Game
from interpreter.options import Looks, build_options, labels_of, open_lookalikes
from interpreter.threads import waiting
from interpreter.values import Piece

from .helpers import load

ROOT = Path(__file__).resolve().parents[2]

PAWNS = """
components:
  pawn:
    start: bag
    mutable: {pips: 0}
    items:
      - {id: red, count: 3}
      - {id: blue, count: 1}
zones:
  bag: {visibility: hidden}
  cup: {per: [player], visibility: owner}
  row: {ordered: true}
  table: {}
setup:
  - id: fill
    do: |
      for c in bag:
        c.pips = 0
      for p in players:
        draw 2 from bag to cup[p]
flow:
  rounds: 1
  phases:
    - id: p
      turns: seat
      turn: |
        choose c from cup[player] prompt "Pick"
        move c to table
"""


def _pend() -> SimpleNamespace:
    return SimpleNamespace(cache=None)  # what open_lookalikes uses of a pending decision


def _general(S, pend, L: dict):
    """Options and labels of `pend` made by the general path (a grouping key per piece)."""
    ref = pend.copy()
    ref.options, ref.labels, ref.recipe = [], None, None
    ref.cache = {}  # a later pick's cache: skips the shortcuts, keys every piece
    build_options(S, ref, L)
    return ref.options, labels_of(S, ref)


@pytest.mark.parametrize("name,players", [("dice_town", 2), ("dice_town", 5),
                                          ("between_two_cities", 3), ("chicago_dry", 4)])
def test_every_choice_of_random_games_matches_the_general_path(name, players):
    game = Game.load(ROOT / "rules" / name / "game.yaml")
    grouped = 0
    for seed in range(2):
        S = game.new_game(players, {}, seed, logging=False)
        rng = random.Random(seed)
        while not S.over:
            p = S.current_players()[0]
            th = waiting(S)[p]
            pend = th.pending
            if pend.kind != "perform" and pend.candidates:
                options, labels = _general(S, pend, dict(th.frames[-1].L))
                assert (options, labels) == (pend.options, labels_of(S, pend))
                if type(pend.candidates[0]) is Piece:
                    zone, found = open_lookalikes(S, pend.copy(), pend.candidates, pend.player)
                    grouped += found is not None and len(found) < len(set(pend.candidates))
            S.apply(p, rng.randrange(S.option_count(p)))
    if name == "dice_town":
        assert grouped  # the shortcut was taken, and some look-alikes were offered once


def test_shortcut_only_for_visible_pieces_of_one_unordered_zone(tmp_path):
    S = load(tmp_path, PAWNS).new_game(2, seed=1)
    reds = [Piece(p) for p in range(len(S.lay.visible_key)) if S.lay.visible_key[p][1] == "red"]
    blue = next(Piece(p) for p in range(len(S.lay.visible_key)) if S.lay.visible_key[p][1] == "blue")
    S.move(reds + [blue], "table")
    pend = _pend()
    zone, options = open_lookalikes(S, pend, reds + [blue], 0)
    assert zone == "table" and options == [reds[0], blue]  # three red pawns look alike
    assert pend.cache[reds[2]] == pend.cache[reds[0]] != pend.cache[blue]  # for the later picks
    assert "pips" in S.lay.dyn_names[reds[1]]
    S.dyn["pips"][reds[1]] = 4
    assert open_lookalikes(S, _pend(), reds, 0)[1] == [reds[0], reds[1]]  # a changed value: apart
    S.dyn["pips"][reds[2]] = [1, 2]  # a list value: made hashable, as the general path does
    S.dyn["pips"][reds[0]] = [1, 2]
    assert open_lookalikes(S, _pend(), reds, 0)[1] == [reds[0], reds[1]]
    S.move(reds[:1], "row")
    assert open_lookalikes(S, _pend(), reds, 0) == (None, None)  # two zones
    assert open_lookalikes(S, _pend(), S.zones["row"], 0) == (None, None)  # ordered: open_zone's case
    S.move(reds, "cup:1")
    assert open_lookalikes(S, _pend(), reds, 0) == (None, None)  # another player's cup: hidden
    assert open_lookalikes(S, _pend(), reds, 1)[0] == "cup:1"


def test_a_later_pick_reuses_the_looks_or_looks_again_when_one_is_missing(tmp_path):
    S = load(tmp_path, PAWNS).new_game(2, seed=1)
    pend = waiting(S)[0].pending.copy()
    cup = list(S.zones["cup:0"])
    assert type(pend.cache) is Looks and pend.cache.zone == "cup:0" and set(pend.cache) == set(cup)
    expected = pend.options, labels_of(S, pend)
    pend.cache[cup[0]] = pend.cache[cup[1]] = ("anything", "alike")
    build_options(S, pend, {})
    assert pend.options == cup[:1]  # the kept looks are used as they are
    del pend.cache[cup[1]]
    build_options(S, pend, {})
    assert (pend.options, labels_of(S, pend)) == expected == _general(S, pend, {})
    assert type(pend.cache) is Looks and set(pend.cache) == set(cup)
