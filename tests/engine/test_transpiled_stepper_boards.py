"""The resumable generated program (interpreter/transpile/stepper.py) on boards (Chicago Dry):
zone families indexed by a board's nodes and several other dimensions, copied by `clone` into
the same nesting, and `zone_index` (ZK, keyed by the ids of the zone lists: each copy makes its
own from its lists). Whole games through `apply` are the engine's (options at every decision, the
state at every decision, history, returns, winners) at every player count and setting; a copy
continues as the engine's copy and leaves its original; the worlds and playouts flat MCTS makes
on it are the engine's, and MctsAgent picks the engine's moves with the engine's statistics and
generator state."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter.agents.mcts import MctsAgent
from interpreter.builtins.majority import awards_by_place
from interpreter.game import Game
from interpreter.transpile.compare import state_difference
from interpreter.transpile.runtime import _awards
from interpreter.transpile.rulefile import RuleFile
from interpreter.transpile.stepper import load_stepper
from interpreter.transpile.worlds import StepperWorlds

from tests.engine.test_transpiled_boards import BOARD, CHICAGO_DRY, CONFIGS, GENEROUS, IDS, SIDES, write
from tests.engine.test_transpiled_mcts import same_worlds_and_playouts
from tests.engine.test_transpiled_stepper import finish_both, snapshot
from tests.engine.test_transpiled_stepper_blocks import lockstep

ALL_CONFIGS = [(n, opts, variants) for variants in ((), (GENEROUS,)) for n in range(2, 6)
               for opts in [{}] + [{side: "B"} for side in SIDES]]
ALL_IDS = [f"{n}p-{'-'.join(o) or 'A'}{'-' + v[0].stem if v else ''}" for n, o, v in ALL_CONFIGS]
_LOADED: dict = {}


def loaded(players: int, options: dict, variants: tuple = ()):
    """Chicago Dry's engine definition and its stepper for one configuration (kept per test run)."""
    key = (players, repr(sorted(options.items())), variants)
    if key not in _LOADED:
        game = Game.load(CHICAGO_DRY, list(variants))
        _LOADED[key] = game, load_stepper(RuleFile(CHICAGO_DRY, list(variants)), players,
                                          game.resolve_options(options))
    return _LOADED[key]


def walked(m, game: Game, players: int, options: dict, seed: int, decisions: int):
    """The stepper and the engine after `decisions` equal random picks (the lowest waiting seat)."""
    rng = random.Random(seed)
    st, S = m.new(seed), game.new_game(players, game.resolve_options(options), seed, logging=False)
    for _ in range(decisions):
        if m.over(st):
            break
        i = int(rng.random() * len(m.options(st)))
        m.apply(st, i)
        S.apply(S.current_players()[0], i)
    return st, S


def positions(game: Game, players: int, options: dict, count: int, seed: int = 7) -> list:
    """Engine states at a decision among several options, at random depths."""
    rng, out = random.Random(seed), []
    for s in range(count * 3):
        S = game.new_game(players, game.resolve_options(options), s, logging=False)
        target = rng.randrange(3, 90)
        while not S.over and (S.decisions < target or S.option_count(S.current_players()[0]) < 2):
            p = S.current_players()[0]
            S.apply(p, rng.randrange(S.option_count(p)))
        if not S.over:
            out.append(S)
        if len(out) == count:
            break
    return out


# ------------------------------------------------------------------ a small board rule file
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_small_board_file_through_apply_is_the_engines(tmp_path, players):
    path = write(tmp_path, BOARD)
    game, m = Game.load(path), load_stepper(path, players)
    assert "ZK[id(" in m.source  # zone_index read through the copy's own table
    assert sum(lockstep(game, m, players, {}, seed) for seed in range(12)) > 0


def test_a_copy_of_a_small_board_file_keys_zone_index_by_its_own_lists(tmp_path):
    """A copy's zone_index reads its own zone lists (a table keyed by the original's would
    raise or answer wrong once pieces move in the copy)."""
    path = write(tmp_path, BOARD)
    game, m = Game.load(path), load_stepper(path, 3)
    for seed in range(6):
        st, S = walked(m, game, 3, {}, seed, 2 + seed)
        before = snapshot(m.plain(st))
        copy, S_copy = m.clone(st), S.clone()
        S_copy.logging = False
        offered, engine = finish_both(m, copy, S_copy, random.Random(seed))
        assert offered == engine and m.history(copy) == [list(h) for h in S_copy.history]
        assert m.returns(copy) == S_copy.returns()
        assert snapshot(m.plain(st)) == before
        offered, engine = finish_both(m, st, S, random.Random(50 + seed))
        assert offered == engine and m.returns(st) == S.returns()


# ------------------------------------------------------------------ Chicago Dry
@pytest.mark.parametrize("players,options,variants", CONFIGS, ids=IDS)
def test_chicago_dry_through_apply_is_the_engines(players, options, variants):
    game, m = loaded(players, options, variants)
    assert min(lockstep(game, m, players, options, seed) for seed in range(3)) > 20


@pytest.mark.slow
@pytest.mark.parametrize("players,options,variants", ALL_CONFIGS, ids=ALL_IDS)
def test_chicago_dry_through_apply_is_the_engines_every_setting(players, options, variants):
    game, m = loaded(players, options, variants)
    assert min(lockstep(game, m, players, options, seed) for seed in range(20)) > 20


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_chicago_dry_copy_continues_as_the_engines_and_leaves_its_original(players):
    game, m = loaded(players, {})
    differing = 0
    for seed in range(4):
        st, S = walked(m, game, players, {}, seed, 15 + 11 * seed)
        assert not m.over(st)
        assert state_difference(S, m.export(st)) is None
        before = snapshot(m.plain(st))
        copy, S_copy = m.clone(st), S.clone()
        S_copy.logging = False
        assert snapshot(m.plain(copy)) == before
        offered, engine = finish_both(m, copy, S_copy, random.Random(100 + seed))
        assert offered == engine and m.history(copy) == [list(h) for h in S_copy.history]
        assert m.returns(copy) == S_copy.returns()
        assert snapshot(m.plain(st)) == before  # the copy's moves left the original's zones
        offered, engine = finish_both(m, st, S, random.Random(200 + seed))
        assert offered == engine and m.history(st) == [list(h) for h in S.history]
        assert m.returns(st) == S.returns() and m.result(st)[2] == S.winners()
        differing += m.history(st) != m.history(copy)
    assert differing >= 3


@pytest.mark.parametrize("players,options,variants", [(2, {}, ()), (3, {}, ()), (4, {}, ()), (5, {}, ()),
                                                      (3, {}, (GENEROUS,)), (4, {"mayor_side": "B"}, ())])
def test_chicago_dry_worlds_playouts_and_mcts_are_the_engines(players, options, variants):
    game, _ = loaded(players, options, variants)
    on_stepper = 0
    for seed, S in enumerate(positions(game, players, options, 4, seed=players)):
        player = S.current_players()[0]
        worlds = StepperWorlds.prepare(S, player)
        assert worlds is not None, S.history
        same_worlds_and_playouts(S, player, worlds, 2)
        engine, ours = MctsAgent(12, seed=seed, transpiled=False), MctsAgent(12, seed=seed)
        assert engine.choose(S, player) == ours.choose(S, player)
        assert engine.rng.getstate() == ours.rng.getstate()
        assert [(s.visits, s.total) for s in engine.last_stats] == [(s.visits, s.total) for s in ours.last_stats]
        assert engine.iterations_done == ours.iterations_done and ours.replayed == 0
        on_stepper += ours.on_stepper
    assert on_stepper == 4 * 12  # every iteration on the generated program


# ------------------------------------------------------------------ helpers the programs call
@pytest.mark.parametrize("policy", ["share", "skip_next", "dense", "split_down", "drop"])
def test_awards_over_plain_lists_are_the_builtins(policy):
    """runtime's _awards (numbers placed without the builtin) against builtins.majority's, on
    random values with ties, nones, booleans and fewer or more points than places."""
    rng = random.Random(policy)
    for _ in range(400):
        xs = list(range(rng.randrange(0, 7)))
        pool = rng.choice([[0, 1, 2, 3], [None, 2, 5], [True, False, 1], [1.5, 2, 2.0]])
        values = {x: rng.choice(pool) for x in xs}
        points = [rng.randrange(-2, 9) for _ in range(rng.randrange(0, 5))]
        calls: list = []

        def f(x):
            calls.append(x)
            return values[x]
        ours = _awards(xs, f, points, policy)
        assert calls == xs  # once per element, in order
        assert ours == awards_by_place(None, tuple(xs), values.get, tuple(points), policy), (xs, values, points)
