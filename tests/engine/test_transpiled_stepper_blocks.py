"""The resumable generated program (interpreter/transpile/stepper.py) on simultaneous blocks
holding choices of several, `return` in procedures holding decisions and a `choose` rebinding a
local: whole games through `apply` are the engine's driven in the stepper's order (options at
every decision, history, returns, winners, final state); an engine history made in simulate's
order (one pick of each waiting chooser per pass) is replayed reordered inside the block
(worlds.replayed) and reaches the engine's decision; flat MCTS picks the engine's moves with the
engine's statistics on Dice Town, Cowboys and Dogs' Day."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter.agents.determinize import _open_block
from interpreter.agents.mcts import MctsAgent
from interpreter.game import Game
from interpreter.threads import waiting
from interpreter.transpile.compare import agent_seed, state_difference
from interpreter.transpile.rulefile import RuleFile
from interpreter.transpile.stepper import load_stepper
from interpreter.transpile.worlds import _reached, StepperWorlds, reach, replayed, replayed_from

ROOT = Path(__file__).resolve().parents[2]
DICE_TOWN = ROOT / "rules" / "dice_town" / "game.yaml"
COWBOYS = ROOT / "rules" / "dice_town" / "cowboys.yaml"
DOGS_DAY = ROOT / "rules" / "dogs_day" / "game.yaml"

HEADER = """game: {id: t, name: T, version: 1, players: {min: 2, max: 3}}
components:
  card:
    kind: card
    start: deck
    items: [{id: a, count: 6}, {id: b, count: 6}]
zones:
  deck: {ordered: true, visibility: hidden}
  stash: {per: [player], visibility: owner}
  kept: {per: [player]}
counters:
  score: {per: [player], initial: 0}
setup:
  - id: deal
    do: |
      shuffle deck
      deal 4 from deck to stash
"""
SEVERAL_IN_BLOCK = HEADER + """flow:
  rounds: 2
  phases:
    - id: pick
      do: |
        simultaneous p in players:
          choose (1) to (3) ks from stash[p]
          move ks to kept[p]
        for p in players:
          score[p] += count(kept[p])
          move kept[p] to stash[p]
scoring:
  score: "score[player]"
"""
RETURN_IN_PROC = HEADER + """functions:
  take:
    params: [p]
    do: |
      if count(stash[p]) < 2:
        return
      let t = first(stash[p])
      if count(stash[p]) > 2:
        choose t from stash[p] by p
      move t to kept[p]
      for i in range(2):
        choose u from stash[p] by p
        if u == first(stash[p]):
          return
        move u to kept[p]
      score[p] += 1
flow:
  rounds: 3
  phases:
    - id: take
      turns: seat
      turn: |
        call take(player)
        score[player] += count(kept[player])
scoring:
  score: "score[player]"
"""


def lockstep(game: Game, m, players: int, options: dict, seed: int) -> int:
    """A whole game through new/apply, the engine applying each pick for the stepper's seat;
    every option list, the state at each decision outside a block (Rng, zones, counters,
    variables), the history, returns and winners equal. Its decisions."""
    rngs = [random.Random(agent_seed(seed, p)) for p in range(players)]
    S = game.new_game(players, game.resolve_options(options), seed, logging=False)
    st = m.new(seed)
    while not m.over(st):
        p = m.seat(st)
        assert not S.over and p in S.current_players(), (seed, S.decisions)
        assert list(m.options(st)) == list(waiting(S)[p].pending.options), (seed, S.decisions)
        if st[0] not in m.block_sites:  # in a block the engine ran every chooser's start already
            assert state_difference(S, m.export(st)) is None, (seed, S.decisions)
        i = int(rngs[p].random() * len(m.options(st)))
        S.apply(p, i)
        m.apply(st, i)
    returns, history, winners, _, _ = m.result(st)
    assert S.over and list(returns) == list(S.returns()) and list(winners) == list(S.winners())
    assert [list(h) for h in history] == [list(h) for h in S.history]
    return S.decisions


def passes_game(game: Game, players: int, options: dict, seed: int, stop: int):
    """An engine game driven as simulate drives it (each waiting player once per pass, in seat
    order), stopped at its first decision of several options after `stop` decisions."""
    rng = random.Random(seed)
    S = game.new_game(players, game.resolve_options(options), seed, logging=False)
    while not S.over:
        for p in S.current_players():
            if S.decisions >= stop and S.option_count(p) > 1 and _open_block(S, p) is None:
                return S, p
            S.apply(p, rng.randrange(S.option_count(p)))
            if S.over:
                break
    return None, None


def written(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "game.yaml"
    path.write_text(text)
    return path


@pytest.mark.parametrize("text", [SEVERAL_IN_BLOCK, RETURN_IN_PROC], ids=["several-in-block", "return"])
@pytest.mark.parametrize("players", [2, 3])
def test_small_rule_files_through_apply_are_the_engines(tmp_path, text, players):
    path = written(tmp_path, text)
    game, m = Game.load(path), load_stepper(path, players)
    assert sum(lockstep(game, m, players, {}, seed) for seed in range(15)) > 0


def test_a_history_made_pass_by_pass_is_replayed_inside_the_block(tmp_path):
    path = written(tmp_path, SEVERAL_IN_BLOCK)
    game, m = Game.load(path), load_stepper(path, 3)
    reordered = 0
    for seed in range(10):
        S, p = passes_game(game, 3, {}, seed, 4)  # the second round's first pick
        if S is None:  # no choice there (four cards alike)
            continue
        st = reach(m, S, p)
        assert st is not None, seed
        reordered += [list(h) for h in m.history(st)] != [list(h) for h in S.history]
    assert reordered >= 5
    # a lower seat's pick cannot be passed over: that history is not the stepper's
    st = m.new(0)
    assert m.seat(st) == 0 and not replayed(m, st, [[1, 0], [0, 0]])


@pytest.mark.parametrize("path,players,options", [(DICE_TOWN, n, {}) for n in (2, 3, 4, 5)]
                         + [(COWBOYS, n, {"first_expansion": x}) for n in (2, 4) for x in (False, True)]
                         + [(DOGS_DAY, n, {}) for n in (3, 4, 5, 6)] + [(DOGS_DAY, 2, {"two_players": True})])
def test_real_games_through_apply_are_the_engines(path, players, options):
    game, m = Game.load(path), load_stepper(RuleFile(path), players, options)
    assert min(lockstep(game, m, players, options, seed) for seed in range(8)) > 10


@pytest.mark.parametrize("path,players,options", [(DICE_TOWN, 3, {}), (COWBOYS, 2, {"first_expansion": True}),
                                                  (DOGS_DAY, 3, {})])
def test_mcts_picks_the_engines_moves_with_the_engines_statistics(path, players, options):
    game, on_stepper, reached = Game.load(path), 0, 0
    for seed in range(6):
        S, player = passes_game(game, players, options, seed, 3 + 7 * seed)
        if S is None:
            continue
        reached += StepperWorlds.prepare(S, player) is not None
        engine, ours = MctsAgent(30, seed=seed, transpiled=False), MctsAgent(30, seed=seed)
        assert engine.choose(S, player) == ours.choose(S, player)
        assert engine.rng.getstate() == ours.rng.getstate()
        assert [(s.visits, s.total) for s in engine.last_stats] == [(s.visits, s.total) for s in ours.last_stats]
        assert engine.iterations_done == ours.iterations_done and ours.replayed == 0
        on_stepper += ours.on_stepper
    assert reached >= 2 and on_stepper >= 40


@pytest.mark.parametrize("path,players", [(DOGS_DAY, 4), (DICE_TOWN, 3), ("several", 3)])
def test_a_history_replayed_from_a_kept_prefix_is_the_replay_from_the_start(tmp_path, path, players):
    """replayed_from starts from the kept state of a prefix of the history (the previous
    decisions of the same game, driven pass by pass, so reordered inside blocks): the same
    state, seat and options as a replay from new(seed), and it plays on the same."""
    path = written(tmp_path, SEVERAL_IN_BLOCK) if path == "several" else path
    game, m = Game.load(path), load_stepper(path, players)
    for seed in range(3):
        rng = random.Random(seed)
        S = game.new_game(players, game.resolve_options({}), seed, logging=False)
        while not S.over:
            for p in S.current_players():
                st, fresh = replayed_from(m, seed, S.history), m.new(seed)
                assert (st is not None) == replayed(m, fresh, S.history)  # None where it does not replay
                i = rng.randrange(S.option_count(p))
                S.apply(p, i)
                if st is None:
                    break
                assert m.export(st) == m.export(fresh) and m.history(st) == m.history(fresh)
                assert (m.seat(st), m.options(st)) == (m.seat(fresh), m.options(fresh))
                if i < len(m.options(st)) and not m.over(st):
                    m.apply(st, i)
                    m.apply(fresh, i)
                    assert m.export(st) == m.export(fresh)
                if S.over:
                    break
    assert len(_reached[m]) > 1  # states were kept (and so started from)


@pytest.mark.parametrize("path,players", [(DOGS_DAY, 4), (DICE_TOWN, 3)])
def test_a_decision_searched_again_starts_from_the_very_kept_state_which_its_worlds_leave_alone(path, players):
    """reach answers the kept replayed state itself (no copy) when the whole history was kept;
    the worlds of the decision and their playouts change a copy of it only: the kept state
    still is the replay from new(seed), and MCTS searches the decision again the same."""
    game = Game.load(path)
    m = StepperWorlds.prepare(*passes_game(game, players, {}, 0, 9)).m
    searched = 0
    for seed in range(4):
        S, p = passes_game(game, players, {}, seed, 9 + 3 * seed)
        if S is None:
            continue
        st = reach(m, S, p)
        assert st is not None and reach(m, S, p) is st
        first = MctsAgent(10, seed=seed)
        move = first.choose(S, p)
        assert reach(m, S, p) is st
        fresh = m.new(S.seed)
        assert replayed(m, fresh, S.history) and m.export(st) == m.export(fresh)
        again = MctsAgent(10, seed=seed)
        assert again.choose(S, p) == move and [(s.visits, s.total) for s in again.last_stats] == \
            [(s.visits, s.total) for s in first.last_stats]
        searched += first.on_stepper == 10
    assert searched >= 2
