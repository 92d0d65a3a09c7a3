"""A search's world made again in place (interpreter/transpile/refills.py, the stepper's `restore`;
worlds.StepperWorlds.sample with a spent world): after a playout, the same list made the root's
copy again is the fresh clone's world slot for slot, its zone lists still the ones its program
holds, and it plays the same playout; where the program binds a state object again, or keeps
grid cells, no `restore` is written; a value clone would share is refused; MctsAgent's searches
(which reuse each iteration's world) stay the engine's."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter.agents.determinize import _open_block
from interpreter.agents.mcts import MctsAgent
from interpreter.transpile.refills import rebinds_objects
from interpreter.transpile.stepper import load_stepper
from interpreter.transpile.stepper_runtime import _refill
from interpreter.transpile.worlds import StepperWorlds
from tests.engine.test_transpiled_mcts import mid_games

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = [("dogs_day", 4, {}), ("chicago_poker", 4, {}), ("liars_dice", 2, {}), ("goofspiel", 2, {}),
           ("kuhn_poker", 2, {}), ("dice_town", 3, {})]


def slots(m, world: list) -> list:
    """The world's state as values (its generator function and running generator left out)."""
    return [("rng", v.state) if k == m.rng_slot else v for k, v in enumerate(world)
            if k != m.gen_slot and not callable(v)]


def played(m, worlds: StepperWorlds, world: list, seed: int, players: int) -> tuple:
    draw = random.Random(seed).random
    i = seed % len(m.options(world))
    worlds.play(world, i, [lambda options: int(draw() * len(options))] * players)
    returns, history, winners, rounds, reason = m.result(world)
    return list(returns), [list(h) for h in history], list(winners), rounds, reason, m.export(world)


@pytest.mark.parametrize("name,players,options", CONFIGS)
def test_a_spent_world_made_again_is_the_fresh_clone_and_plays_its_playout(name, players, options):
    checked = 0
    for S in mid_games(name, players, options, 4):
        player = S.current_players()[0]
        if _open_block(S, player) is not None:
            continue
        worlds = StepperWorlds.prepare(S, player)
        assert worlds is not None
        m = worlds.m
        assert m.restore is not None
        world = worlds.sample(random.Random(1))
        own = [id(z) for z in m.zones(world)]
        played(m, worlds, world, 0, players)
        for k in range(3):  # the world spent by a playout each time
            again, fresh = worlds.sample(random.Random(k + 2), world), worlds.sample(random.Random(k + 2))
            assert again is world and fresh is not world
            assert [id(z) for z in m.zones(again)] == own  # the lists its program holds
            loc = again[m.loc_slot]
            assert all(loc[p] is z for z in m.zones(again) for p in z)
            assert slots(m, again) == slots(m, fresh)
            assert m.export(again) == m.export(fresh)
            assert played(m, worlds, again, k + 7, players) == played(m, worlds, fresh, k + 7, players)
            checked += 1
    assert checked >= 3


@pytest.mark.parametrize("name,players,options", CONFIGS[:3])
def test_a_world_spent_at_another_decision_is_made_this_ones(name, players, options):
    """The next search's first world is made in the last search's (Stepper.spares)."""
    roots = [S for S in mid_games(name, players, options, 4) if _open_block(S, S.current_players()[0]) is None]
    made = [StepperWorlds.prepare(S, S.current_players()[0]) for S in roots]
    for before, after in zip(made, made[1:]):
        m = after.m
        world = before.sample(random.Random(3))
        played(m, before, world, 1, players)
        again, fresh = after.sample(random.Random(4), world), after.sample(random.Random(4))
        assert again is world
        assert slots(m, again) == slots(m, fresh) and m.export(again) == m.export(fresh)
        assert played(m, after, again, 5, players) == played(m, after, fresh, 5, players)


def test_a_program_keeping_grid_cells_has_no_restore():
    m = load_stepper(str(ROOT / "rules" / "between_two_cities" / "game.yaml"), 3)
    assert m.restore is None and m.restorer is None


def test_a_state_object_bound_again_is_found():
    source = '''
def _game(z_hand, z_deck, loc, M_x):
    def _gen(st, ans, _agents=None):
        try:
            if not pc:
                z_hand = [[], []]
                loc = [None] * 3
            %s
        except _GameEnds:
            pass
    return _gen
'''
    names, families = {"z_hand", "z_deck", "loc", "M_x"}, {"z_hand": 1, "z_deck": 0}
    assert not rebinds_objects(source % "M_x[c] = 1", names, families)
    assert not rebinds_objects(source % "z_hand[p][:] = []", names, families)
    assert not rebinds_objects(source % "z_deck[0:2] = []", names, families)
    assert not rebinds_objects(source % "local = z_hand", names, families)
    assert rebinds_objects(source % "loc = []", names, families)
    assert rebinds_objects(source % "z_hand[p] = []", names, families)
    assert rebinds_objects(source % "del z_hand[0]", names, families)
    assert rebinds_objects(source % "a, M_x = 1, []", names, families)


def test_a_list_clone_would_share_is_refused():
    src, dst, other = [1, [2]], [0, 0], [9]
    memo = {id(src): other}
    assert not _refill(dst, src, memo, False)
    memo = {}
    assert _refill(dst, src, memo, False) and dst == src and dst[1] is not src[1] and memo[id(src)] is dst
    assert _refill(None, None, {}, True) and not _refill(None, [1], {}, True)


def test_mcts_on_dogs_day_reusing_its_worlds_is_the_engines_search():
    on_stepper = 0
    for seed, S in enumerate(mid_games("dogs_day", 4, {}, 3, seed=5)):
        player = S.current_players()[0]
        engine, ours = MctsAgent(12, seed=seed, transpiled=False), MctsAgent(12, seed=seed)
        assert engine.choose(S, player) == ours.choose(S, player)
        assert engine.rng.getstate() == ours.rng.getstate()
        assert [(s.visits, s.total) for s in engine.last_stats] == [(s.visits, s.total) for s in ours.last_stats]
        assert ours.replayed == 0
        on_stepper += ours.on_stepper
    assert on_stepper >= 24


def test_searches_at_once_on_one_program_each_play_in_their_own_world():
    """Two searches on one program at the same time (the web server's threads) never make their
    worlds in the same list: each takes a spare world by pop and gives it back at its end."""
    from interpreter.agents.determinize import Determinizer
    from interpreter.agents.selection import Stats
    from interpreter.agents.transpiled import StepperIterations
    roots = [S for S in mid_games("dogs_day", 4, {}, 4, seed=5) if _open_block(S, S.current_players()[0]) is None]
    agent = MctsAgent(8, seed=1)

    def search(S):
        player = S.current_players()[0]
        fast = StepperIterations.prepare(Determinizer(S, player), agent.playout, agent.evaluate)
        return fast, [Stats() for _ in range(S.option_count(player))]

    (a, a_stats), (b, b_stats) = search(roots[0]), search(roots[1])
    assert a.worlds.m is b.worlds.m  # one program
    a.run(a_stats, agent.select, random.Random(2))
    b.run(b_stats, agent.select, random.Random(3))
    assert a.world is not None and b.world is not None and a.world is not b.world
    first = a.world
    a.done()
    assert a.world is None and a.worlds.m.spares[-1] is first
    c, c_stats = search(roots[0])  # a new search (from the first root again)
    assert c.world is first and c.world is not b.world  # the next search takes the world given back
    c.run(c_stats, agent.select, random.Random(4))
    assert c.world is first and not a.worlds.m.spares
