"""Flat MCTS inside an open simultaneous block on the resumable generated program: the engine's
rewound worlds (agents/determinize.py) made on the stepper (transpile/rewinds.py), each chooser's
first stop taking over the engine's waiting decision (transpile/adoption.py), the labels'
comparison made on the options where the labels read only the option (transpile/label_reads.py).
Each world is the engine's (state, options, the agent's generator), each playout too; MCTS
picks the engine's moves with the engine's statistics and generator state."""
from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from interpreter.agents.determinize import Determinizer, _kept, _open_block
from interpreter.agents.mcts import MctsAgent
from interpreter.agents.playout import RandomPlayout
from interpreter.game import Game
from interpreter.state import State
from interpreter.threads import waiting
from interpreter.transpile.adoption import adopt, waiting_decisions
from interpreter.transpile.compare import state_difference
from interpreter.transpile.rewinds import StepperRewinds
from interpreter.transpile.worlds import Parted, StepperWorlds, stepper_for

ROOT = Path(__file__).resolve().parents[2]

HEADER = """game: {id: t, name: T, version: 1, players: {min: 2, max: 4}}
components:
  card:
    kind: card
    start: deck
    items: [{id: a, count: 8, points: 1}, {id: b, count: 8, points: 2}, {id: c, count: 8, points: 3}]
zones:
  deck: {ordered: true, visibility: hidden}
  stash: {per: [player], visibility: owner}
  kept: {per: [player], visibility: owner}
  shown: {per: [player]}
counters:
  score: {per: [player], initial: 0}
functions:
  tag:
    params: [c]
    expr: "label(c) + ' (' + str(c.points) + ')'"
setup:
  - id: deal
    do: |
      shuffle deck
      deal 5 from deck to stash
"""
FLOW = """flow:
  rounds: 2
  phases:
    - id: pick
      do: |
        simultaneous p in players:
          {choice}
          move ks to kept[p]
        for p in players:
          score[p] += sum([k.points for k in kept[p]])
          move kept[p] to shown[p]
          draw 2 from deck to stash[p]
scoring:
  score: "score[player]"
"""
SEVERAL = HEADER + FLOW.replace("{choice}", "choose (1) to (2) ks from stash[p]")
LABELLED = HEADER + FLOW.replace("{choice}", "choose ks from stash[p] label tag(ks)")
LABEL_READS_A_ZONE = HEADER + FLOW.replace("{choice}", "choose ks from stash[p] label tag(ks) + str(count(shown[p]))")


def written(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "game.yaml"
    path.write_text(text)
    return path


def block_positions(game: Game, players: int, options: dict, count: int) -> list:
    """(state, player) at decisions of several options inside an open simultaneous block
    others already chose in, the lowest waiting seat asked first as playouts ask."""
    out = []
    for seed in range(count * 6):
        rng = random.Random(seed)
        S = game.new_game(players, game.resolve_options(options), seed, logging=False)
        while not S.over:
            p = S.current_players()[0]
            if S.option_count(p) > 1 and S.decisions > 2 and _open_block(S, p) is not None and rng.random() < 0.3:
                out.append((S, p))
                break
            S.apply(p, rng.randrange(S.option_count(p)))
        if len(out) == count:
            break
    return out


def same_rewound_worlds_and_playouts(S, player: int, samples: int) -> int:
    """The stepper's rewound worlds and playouts are the engine's, draw for draw (where the
    engine keeps no rewound world, the stepper parts). The worlds made."""
    engine = Determinizer(S, player)
    ours = StepperRewinds.prepare(S, player, engine.block, engine.block_resampler())
    assert ours is not None, S.history
    m, made = ours.m, 0
    for k in range(samples):
        mine, theirs = random.Random(k), random.Random(k)
        W = engine._rewound(theirs)
        if W is None:
            with pytest.raises(Parted):
                ours.sample(mine)
            continue
        world = ours.sample(mine)
        made += 1
        assert state_difference(W, m.export(world)) is None
        assert m.seat(world) == player and list(m.options(world)) == list(waiting(W)[player].pending.options)
        assert mine.getstate() == theirs.getstate()
        i = k % len(m.options(world))
        W.apply(player, i)
        RandomPlayout().run(W, theirs)
        draw = mine.random
        ours.play(world, i, [lambda options: int(draw() * len(options))] * S.n)
        returns, history, winners, _, _ = m.result(world)
        assert history == [list(h) for h in W.history]
        assert list(returns) == W.returns() and list(winners) == W.winners()
        assert mine.getstate() == theirs.getstate()
    return made


def same_mcts(S, player: int, seed: int, iterations: int) -> int:
    """MctsAgent picks the engine's move with the engine's statistics; its iterations on the
    generated program."""
    engine, ours = MctsAgent(iterations, seed=seed, transpiled=False), MctsAgent(iterations, seed=seed)
    assert engine.choose(S, player) == ours.choose(S, player)
    assert engine.rng.getstate() == ours.rng.getstate()
    assert [(s.visits, s.total) for s in engine.last_stats] == [(s.visits, s.total) for s in ours.last_stats]
    assert engine.iterations_done == ours.iterations_done and ours.replayed == 0
    return ours.on_stepper


@pytest.mark.parametrize("text", [SEVERAL, LABELLED], ids=["several", "labelled"])
@pytest.mark.parametrize("players", [2, 4])
def test_small_files_rewound_worlds_and_mcts_are_the_engines(tmp_path, text, players):
    game = Game.load(written(tmp_path, text))
    positions = block_positions(game, players, {}, 4)
    assert len(positions) >= 3
    made = on_stepper = 0
    for k, (S, player) in enumerate(positions):
        made += same_rewound_worlds_and_playouts(S, player, 4)
        on_stepper += same_mcts(S, player, k, 12)
    assert made >= 8 and on_stepper == 12 * len(positions)


def test_labels_that_read_more_than_the_option_keep_the_rewind_on_the_engine(tmp_path):
    game = Game.load(written(tmp_path, LABEL_READS_A_ZONE))
    for k, (S, player) in enumerate(block_positions(game, 3, {}, 3)):
        engine = Determinizer(S, player)
        assert StepperRewinds.prepare(S, player, engine.block, engine.block_resampler()) is None
        assert same_mcts(S, player, k, 6) == 0


def test_which_labels_read_only_the_option(tmp_path):
    for text, expected in ((SEVERAL, True), (LABELLED, True), (LABEL_READS_A_ZONE, False)):
        game = Game.load(written(tmp_path, text))
        m = stepper_for(game.new_game(3, {}, 0, logging=False))
        flags = {parts[-1] for parts in m.site_parts[1:] if parts is not None}
        assert flags == {expected}, text


def test_a_stop_that_is_not_the_engines_waiting_decision_is_not_taken_over(tmp_path):
    game = Game.load(written(tmp_path, SEVERAL))
    S, player = block_positions(game, 3, {}, 1)[0]
    engine = Determinizer(S, player)
    base = engine.block[0]
    worlds = StepperWorlds.prepare(base, player, engine.block_resampler(), any_seat=True)
    m, seat = worlds.m, worlds.m.seat(worlds.root)
    w = waiting_decisions(base)[seat]
    assert adopt(m, m.clone(worlds.root), w, {})
    assert not adopt(m, m.clone(worlds.root), replace(w, pos=w.pos[:2] + (w.pos[2] + 1,)), {})  # another decision
    assert not adopt(m, m.clone(worlds.root), replace(w, low=7), {})  # other bounds


@pytest.mark.parametrize("name,players", [("dice_town/game", 3), ("dice_town/game", 4), ("dice_town/cowboys", 4),
                                          ("between_two_cities/game", 5), ("dogs_day/game", 3),
                                          ("goofspiel/game", 2)])
def test_real_games_rewound_worlds_and_mcts_are_the_engines(name, players):
    game = Game.load(ROOT / "rules" / f"{name}.yaml")
    positions = block_positions(game, players, {}, 3)
    assert len(positions) >= 2
    made = on_stepper = 0
    for k, (S, player) in enumerate(positions):
        made += same_rewound_worlds_and_playouts(S, player, 2)
        on_stepper += same_mcts(S, player, k, 8)
    assert made >= 2 and on_stepper >= 8 * (len(positions) - 1)


@pytest.mark.parametrize("name,players", [("dogs_day/game", 4), ("dice_town/game", 3)])
def test_open_block_start_replayed_unchecked_is_the_checked_replay(name, players):
    """_open_block replays the state's own history unchecked: the block's start is the one a
    checked replay makes (whole state, waiting decisions) and its steps are the block's."""
    game = Game.load(ROOT / "rules" / f"{name}.yaml")
    positions = block_positions(game, players, {}, 3)
    assert positions
    for S, player in positions:
        base, steps = _open_block(S, player)
        since = len(S.history) - len(steps)
        checked = game.new_game(S.n, S.options, S.seed, logging=False)
        for author, index in S.history[:since]:
            checked.apply(author, index)
        assert checked.to_json() == base.to_json()  # every zone, counter, variable, thread and the Rng
        assert [(a, i) for a, i, _ in steps] == [tuple(h) for h in S.history[since:]]
        assert all(checked.option_labels(p) == base.option_labels(p) for p in checked.current_players())


@pytest.mark.parametrize("name,players,options", [("dogs_day/game", 2, {"two_players": True}),
                                                  ("dice_town/game", 3, {})])
def test_open_block_start_from_a_kept_prefix_is_the_replay_from_the_start(name, players, options, monkeypatch):
    """_open_block replays the block's start from the kept state of the longest prefix of its
    history (replays.KeptReplays): along games driven pass by pass, at every decision inside an
    open block, the same start (whole state) and steps as a new game with the history replayed,
    for far fewer decisions applied than replays from the start would apply."""
    game = Game.load(ROOT / "rules" / f"{name}.yaml")
    opts = game.resolve_options(options)
    _kept.entries.clear()
    applied = [0]
    unchecked = State.apply_unchecked

    def counted(self, *args):
        applied[0] += 1
        return unchecked(self, *args)

    blocks = from_start = 0
    for seed in range(3):
        rng = random.Random(seed)
        S = game.new_game(players, opts, seed, logging=False)
        while not S.over:
            for p in S.current_players():
                with monkeypatch.context() as patch:
                    patch.setattr(State, "apply_unchecked", counted)
                    block = _open_block(S, p)
                if block is not None:
                    base, steps = block
                    since = len(S.history) - len(steps)
                    fresh = game.new_game(S.n, S.options, S.seed, logging=False)
                    for author, index in S.history[:since]:
                        fresh.apply(author, index)
                    assert fresh.to_json() == base.to_json()
                    assert [(a, i) for a, i, _ in steps] == [tuple(h) for h in S.history[since:]]
                    assert _kept.entries[-1][1] == [tuple(h) for h in S.history[:since]]  # kept, the last used
                    blocks += 1
                    from_start += len(S.history)
                S.apply(p, rng.randrange(S.option_count(p)))
                if S.over:
                    break
    assert blocks >= 10 and applied[0] < from_start / 3
