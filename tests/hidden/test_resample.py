"""Resampling from a player's information (interpreter/resample.py), an engine operation."""
from __future__ import annotations

import random

import pytest

from interpreter.game import Game
from interpreter.resample import Resampler, lookalike_groups, new_game_resampled, resample, shuffle
from tests.hidden.corpus import DUEL, LEAKY, ROOT


def test_resample_keeps_what_the_player_sees_and_moves_what_they_do_not():
    game = Game.load(DUEL)
    S = game.new_game(3, seed=2)
    moved = 0
    for seed in range(10):
        T, mapping = resample(S, 0, random.Random(seed))
        assert T.view(0) == S.view(0)  # the player cannot tell the two apart
        assert T.option_labels(0) == S.option_labels(0)
        assert {k: len(v) for k, v in T.zones.items()} == {k: len(v) for k, v in S.zones.items()}
        assert sorted(p for z in T.zones.values() for p in z) == sorted(p for z in S.zones.values() for p in z)
        assert all(not S.sees(0, p) for p in mapping)  # only hidden pieces move
        moved += T.zones["hand:1"] != S.zones["hand:1"]
    assert moved >= 8  # other hands really are resampled
    assert S.zones == game.new_game(3, seed=2).zones  # the original is untouched


def test_resample_follows_pending_decisions_and_continues_playing():
    game = Game.load(DUEL)
    S = game.new_game(3, seed=4)
    S.apply(0, 0)
    T, _ = resample(S, 0, random.Random(1))
    assert T.current_players() == S.current_players() == [1]
    # P2's options in the resampled world are P2's resampled hand
    assert sorted(T.option_labels(1)) == sorted(T.view(1)["zones"]["hand:1"][i]["label"] for i in range(3))
    while not T.is_terminal():
        p = T.current_players()[0]
        T.apply(p, 0)
    assert sum(T.returns()) >= 2


def test_lookalike_groups_respect_backs_and_per_player_sets():
    game = Game.load(ROOT / "rules" / "dogs_day" / "game.yaml")
    S = game.new_game(4, seed=1)
    for slots in lookalike_groups(S, 0):
        looks = {(S.lay.static[p]["kind"], S.lay.static[p].get("owner")) for _, _, p in slots}
        assert len(looks) == 1  # never a backpack for a briefcase, never P2's card for P3's


def test_hidden_dice_are_rolled_again():
    game = Game.load(ROOT / "rules" / "liars_dice" / "game.yaml")
    S = game.new_game(2, seed=3)
    mine = [S.dyn["value"][p] for p in S.zones["cup:0"]]
    theirs = set()
    for seed in range(20):
        T, _ = resample(S, 0, random.Random(seed))
        assert [T.dyn["value"][p] for p in T.zones["cup:0"]] == mine
        theirs.add(tuple(T.dyn["value"][p] for p in T.zones["cup:1"]))
    assert len(theirs) > 1


def test_new_game_resampled_before_setup_deals_other_cards_with_the_same_seed():
    game = Game.load(DUEL)
    S = game.new_game(3, seed=9)
    differs = 0
    for seed in range(10):
        R, mapping = new_game_resampled(game, 3, {}, 9, 0, random.Random(seed))
        assert R.view(0)["zones"].keys() == S.view(0)["zones"].keys()
        differs += R.zones["hand:1"] != S.zones["hand:1"] or R.zones["hand:0"] != S.zones["hand:0"]
    assert differs >= 8
    only = list(S.zones["deck"])  # restricted to pieces that end in the deck: hands are kept
    R, _ = new_game_resampled(game, 3, {}, 9, 0, random.Random(1), only=only)
    assert R.zones["hand:0"] == S.zones["hand:0"] and sorted(R.zones["deck"]) == sorted(S.zones["deck"])


def test_the_old_conformance_name_still_works():
    from interpreter.conformance import perturb
    game = Game.load(DUEL)
    T, mapping = perturb(game.new_game(2, seed=1), 0, random.Random(0))
    assert T.view(0) == game.new_game(2, seed=1).view(0)


def test_a_prepared_resampler_draws_each_world_afresh():
    """A search agent prepares one Resampler per decision and draws many worlds from it, playing
    each to the end: a world played on, or an earlier draw, must not leak into the next one."""
    game = Game.load(ROOT / "rules" / "dogs_day" / "game.yaml")
    S = game.new_game(4, seed=5)
    S.apply(S.current_players()[0], 0)
    before = S.to_json()
    prepared = Resampler(S, 0)
    rng = random.Random(11)
    hands = set()
    for _ in range(6):
        state = rng.getstate()
        T, mapping = prepared.sample(rng)
        rng.setstate(state)
        fresh, fresh_mapping = resample(S, 0, rng)  # what an unprepared draw gives from here
        assert (T.to_json(), mapping) == (fresh.to_json(), fresh_mapping)
        assert T.view(0) == S.view(0)
        hands.add(tuple(T.zones["hand:1"]))
        while not T.is_terminal():  # played to the end: must not touch S or later draws
            p = T.current_players()[0]
            T.apply_unchecked(p, 0)
    assert S.to_json() == before
    assert len(hands) > 1


def _groups_by_sees(S, viewer, only=None) -> list:
    """lookalike_groups as first written (the reference): each piece's State.sees, its looks read
    off its component (back, owner, public attributes), its face and who else saw it."""
    allowed = None if only is None else set(only)
    groups: dict = {}
    for key, zone in S.zones.items():
        if S.lay.zones[key].grid is not None:
            continue
        for i, p in enumerate(zone):
            if (allowed is None or p in allowed) and not S.sees(viewer, p):
                static = S.lay.static[p]
                comp = S.game.components[static["kind"]]
                looks = (comp.back, static.get("owner"), tuple(static.get(a) for a in comp.public), S.face_up(p),
                         S.seen.get(p))
                groups.setdefault(looks, []).append((key, i, p))
    return [slots for slots in groups.values() if len(slots) > 1]


RESAMPLED = [(DUEL, [], 3), (DUEL, [LEAKY / "leaky_custom_visibility.yaml"], 3),
             (ROOT / "rules" / "dogs_day" / "game.yaml", [], 4), (ROOT / "rules" / "dice_town" / "game.yaml", [], 3),
             (ROOT / "rules" / "chicago_poker" / "game.yaml", [], 4), (ROOT / "rules" / "kuhn_poker" / "game.yaml", [], 2),
             (ROOT / "rules" / "between_two_cities" / "game.yaml", [], 3)]


@pytest.mark.parametrize("path,overlays,players", RESAMPLED, ids=lambda v: getattr(v, "stem", None))
def test_lookalike_groups_are_the_grouping_by_sees_and_looks(path, overlays, players):
    """lookalike_groups reads each zone's visibility once and a per-layout number for a piece's
    unchanging looks: the same groups, places and order as each piece's State.sees and looks
    (every viewer, the omniscient one, a restriction to some pieces), along whole games."""
    game = Game.load(path, overlays)
    checked = 0
    for seed in range(3):
        rng = random.Random(seed)
        S = game.new_game(players, seed=seed)
        while not S.over:
            if S.decisions % 4 == 0:
                some = [p for zone in S.zones.values() for p in zone][::2]
                for viewer in [None, *range(players)]:
                    assert lookalike_groups(S, viewer) == _groups_by_sees(S, viewer), (S.decisions, viewer)
                    assert lookalike_groups(S, viewer, some) == _groups_by_sees(S, viewer, some)
                    checked += bool(lookalike_groups(S, viewer))
            p = S.current_players()[0]
            S.apply(p, rng.randrange(S.option_count(p)))
    assert checked >= 3


def test_shuffle_draws_as_random_shuffle():
    """resample.shuffle (random.Random.shuffle with its draws written out) leaves the list and
    the generator as rng.shuffle does; another kind of generator shuffles with its own."""
    for seed in range(20):
        for size in (0, 1, 2, 3, 7, 31, 33, 64, 65, 100):
            ours, theirs = random.Random(seed), random.Random(seed)
            a, b = list(range(size)), list(range(size))
            shuffle(ours, a)
            theirs.shuffle(b)
            assert a == b and ours.getstate() == theirs.getstate()

    class Reversing(random.Random):
        def shuffle(self, x):
            x.reverse()

    x = [1, 2, 3]
    shuffle(Reversing(0), x)
    assert x == [3, 2, 1]
