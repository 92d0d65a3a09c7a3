"""Flat MCTS on the resumable generated program (interpreter/agents/transpiled.py,
interpreter/transpile/worlds.py): a determinized world made on the stepper is the engine's world
(same Rng, zones, counters, variables, options), a playout from it with the same draws is the
engine's playout, and MctsAgent picks the same moves with the same statistics and the same
generator state whichever form runs its iterations; where the stepper cannot make the engine's
world (a state arranged by hand) the engine plays."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter.agents.determinize import Determinizer, _open_block
from interpreter.agents.mcts import MctsAgent
from interpreter.agents.playout import RandomPlayout
from interpreter.game import Game
from interpreter.threads import waiting
from interpreter.transpile.compare import state_difference
from interpreter.transpile.rewinds import StepperRewinds
from interpreter.transpile.worlds import StepperWorlds, stepper_for
from tests.agents.games import BAD_DRAW, load

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = [("kuhn_poker", 2, {}), ("tic_tac_toe", 2, {}), ("chicago_poker", 4, {"no_special_cards": True}),
           ("chicago_poker", 3, {"no_special_cards": True}), ("chicago_poker", 4, {}), ("liars_dice", 2, {}),
           ("goofspiel", 2, {})]
_GAMES: dict = {}


def game_of(name: str) -> Game:
    if name not in _GAMES:
        _GAMES[name] = Game.load(ROOT / "rules" / name / "game.yaml")
    return _GAMES[name]


def mid_games(name: str, players: int, options: dict, count: int, seed: int = 7) -> list:
    """Engine states at a decision with more than one option, at random depths."""
    game, rng, out = game_of(name), random.Random(seed), []
    opts = game.resolve_options(options)
    for s in range(count * 3):
        S = game.new_game(players, opts, s, logging=False)
        target, kept = rng.randrange(1, 60), None
        while not S.over and S.decisions < target:
            p = S.current_players()[0]
            if S.option_count(p) > 1:
                kept = S.clone()  # short games end early: the last decision among several
            S.apply(p, rng.randrange(S.option_count(p)))
        if not S.over and S.option_count(S.current_players()[0]) > 1:
            kept = S
        if kept is not None:
            out.append(kept)
        if len(out) == count:
            break
    return out


def engine_playout(world, player: int, i: int, rng: random.Random):
    world.apply(player, i)
    RandomPlayout().run(world, rng)
    return world


def same_worlds_and_playouts(S, player: int, worlds: StepperWorlds | StepperRewinds, samples: int) -> None:
    """The stepper's worlds and playouts are the engine's, draw for draw."""
    m, engine = worlds.m, Determinizer(S, player)
    for k in range(samples):
        ours, theirs = random.Random(k), random.Random(k)
        W, world = engine.sample(theirs), worlds.sample(ours)
        assert state_difference(W, m.export(world)) is None
        assert m.seat(world) == player
        assert list(m.options(world)) == list(waiting(W)[player].pending.options)
        assert ours.getstate() == theirs.getstate()
        i = k % len(m.options(world))
        engine_playout(W, player, i, theirs)
        draw = ours.random
        worlds.play(world, i, [lambda options: int(draw() * len(options))] * S.n)
        returns, history, winners, _, _ = m.result(world)
        assert history == [list(h) for h in W.history]
        assert list(returns) == W.returns() and list(winners) == W.winners()
        assert ours.getstate() == theirs.getstate()


@pytest.mark.parametrize("name,players,options", CONFIGS)
def test_a_world_on_the_stepper_is_the_engines_world_and_plays_the_engines_playout(name, players, options):
    made = followed = rolled = waiting = 0
    for S in mid_games(name, players, options, 8):
        player = S.current_players()[0]
        if _open_block(S, player) is not None:
            continue  # the engine's determinization rewinds the block: the agent does not ask here
        worlds = StepperWorlds.prepare(S, player)
        assert worlds is not None, S.history
        made += 1
        followed += bool(worlds.in_frame or worlds.scalars)
        rolled += bool(worlds.rolls)
        waiting += len(worlds.waiting) > 1
        same_worlds_and_playouts(S, player, worlds, 4)
    assert made >= 3
    if name == "chicago_poker":
        assert followed  # some root held hidden pieces in a local, renamed as the engine renames them
    if name == "liars_dice":
        assert rolled == made  # others' dice under their cups: rolled again in every world
    if name == "goofspiel":
        assert waiting == made  # the other bid, offered among hidden cards: taken over in the playout


@pytest.mark.parametrize("name,players,options", CONFIGS)
def test_mcts_picks_the_engines_moves_with_the_engines_statistics(name, players, options):
    on_stepper = 0
    for seed, S in enumerate(mid_games(name, players, options, 6, seed=11)):
        player = S.current_players()[0]
        engine, ours = MctsAgent(40, seed=seed, transpiled=False), MctsAgent(40, seed=seed)
        assert engine.choose(S, player) == ours.choose(S, player)
        assert engine.rng.getstate() == ours.rng.getstate()  # every draw the same, in the same order
        assert [(s.visits, s.total) for s in engine.last_stats] == [(s.visits, s.total) for s in ours.last_stats]
        assert engine.iterations_done == ours.iterations_done and ours.replayed == 0
        on_stepper += ours.on_stepper
    assert on_stepper >= 40  # at least one decision wholly on the generated program


@pytest.mark.parametrize("name,players,options,decisions", [
    ("kuhn_poker", 2, {}, None), ("tic_tac_toe", 2, {}, None), ("chicago_poker", 3, {"no_special_cards": True}, 25)])
def test_games_of_mcts_agents_are_the_same_either_way(name, players, options, decisions):
    """Every seat an MctsAgent: the same game (whole, or its first `decisions`) either way."""
    game = game_of(name)
    opts = game.resolve_options(options)
    for seed in range(3 if decisions is None else 1):
        histories = []
        for transpiled in (False, True):
            agents = [MctsAgent(8, seed=seed * 10 + p, transpiled=transpiled) for p in range(players)]
            S = game.new_game(players, opts, seed, logging=False)
            while not S.over and (decisions is None or S.decisions < decisions):
                p = S.current_players()[0]
                S.apply(p, agents[p].choose(S, p))
            histories.append(list(S.history))
            if transpiled:
                assert sum(a.on_stepper for a in agents) > 0 and sum(a.replayed for a in agents) == 0
        assert histories[0] == histories[1]


def test_a_state_arranged_by_hand_is_searched_by_the_engine():
    """The stepper replays the seed and the history: a state changed by other means is not
    reached, and the agent uses the engine (same move as the engine-only agent)."""
    S = mid_games("chicago_poker", 4, {"no_special_cards": True}, 1)[0]
    player = S.current_players()[0]
    assert StepperWorlds.prepare(S, player) is not None
    deck = next(key for key in S.zones if str(key) == "deck")
    S.zones[deck] = list(reversed(S.zones[deck]))
    assert StepperWorlds.prepare(S, player) is None
    engine, ours = MctsAgent(10, seed=1, transpiled=False), MctsAgent(10, seed=1)
    assert engine.choose(S, player) == ours.choose(S, player) and ours.on_stepper == 0


def test_options_that_are_not_the_defaults_and_the_opt_out():
    S = mid_games("chicago_poker", 4, {"no_special_cards": True}, 1)[0]
    assert stepper_for(S) is not None
    agent = MctsAgent(5, seed=0, transpiled=False)
    agent.choose(S, S.current_players()[0])
    assert agent.on_stepper == 0


def test_the_command_lines_setting_generated_no():
    from interpreter.agents.registry import parse_agents
    assert parse_agents("mcts:5")[0].build(1, 0).transpiled is True
    assert parse_agents("mcts:5,generated=no")[0].build(1, 0).transpiled is False


def test_an_iteration_the_stepper_fails_is_replayed_by_the_engine(tmp_path):
    """Worlds with the bad card on top fail (nothing to choose from): the stepper's failing
    iterations are played again by the engine from the same generator state, which drops them
    as the engine-only agent does; the result and the generator afterwards are the engine's."""
    game = load(tmp_path, BAD_DRAW % {"second": "{id: bad1, bad: 1}"})
    S = game.new_game(2, seed=1)
    engine, ours = MctsAgent(40, seed=2, transpiled=False), MctsAgent(40, seed=2)
    assert engine.choose(S, 0) == ours.choose(S, 0)
    assert engine.rng.getstate() == ours.rng.getstate()
    assert ours.replayed > 0 and ours.on_stepper > 0
    assert ours.failures.count == engine.failures.count == ours.replayed


def test_a_failed_iteration_after_passed_ones_rewinds_the_generator_through_them(tmp_path, monkeypatch):
    """The generator's state is kept every REMARK iterations only (transpiled.StepperIterations
    .keep): a failure after passed iterations puts it back by playing those again from the mark;
    the search is still the engine's, and it fails without that replay."""
    from interpreter.agents import transpiled

    replayed = []
    rewind = transpiled.StepperIterations.rewind

    def counted(self, select, rng):
        replayed.append(len(self.since))
        rewind(self, select, rng)

    monkeypatch.setattr(transpiled.StepperIterations, "rewind", counted)
    game = load(tmp_path, BAD_DRAW % {"second": "{id: bad1, bad: 1}"})
    S = game.new_game(2, seed=1)
    engine, ours = MctsAgent(60, seed=2, transpiled=False), MctsAgent(60, seed=2)
    assert engine.choose(S, 0) == ours.choose(S, 0) and engine.rng.getstate() == ours.rng.getstate()
    assert [(s.visits, s.total) for s in engine.last_stats] == [(s.visits, s.total) for s in ours.last_stats]
    assert any(replayed)  # some failure came after passed iterations

    def forgetful(self, select, rng):
        rng.setstate(self.mark[0])  # the mark's state alone: the passed iterations' draws lost
        self.mark, self.since = None, []

    monkeypatch.setattr(transpiled.StepperIterations, "rewind", forgetful)
    again = MctsAgent(60, seed=2)
    again.choose(S, 0)
    assert again.rng.getstate() != engine.rng.getstate()


HELD = """
game: {id: held, name: Held, players: {min: 2, max: 3}}
components:
  card:
    kind: card
    start: deck
    items:
%s
zones:
  deck: {ordered: true, visibility: hidden}
  hand: {per: [player], visibility: owner}
  table: {ordered: true}
variables:
  marked: {initial: none}
  kept: {initial: []}
counters:
  points: {per: [player], initial: 0}
setup:
  - id: deal
    do: |
      shuffle deck
      deal 2 from deck to hand
flow:
  rounds: 3
  phases:
    - id: play
      turns: seat
      turn: |
        let mine = top(deck)
        let pair = [top(deck), bottom(deck)]
        marked = bottom(deck)
        kept = [top(deck)]
        choose c from hand[player]
        move c to table
        points[player] += disclose(c.value * mine.value + pair[1].value + marked.value + kept[0].value)
        draw 1 from deck to hand[player]
scoring:
  score: "points[player]"
""" % "\n".join(f"      - {{id: c{v}, value: {v}}}" for v in range(1, 25))


def test_locals_and_variables_holding_hidden_pieces_are_renamed_as_the_engine_renames_them(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(HELD, encoding="utf-8")
    game = Game.load(path)
    followed = 0
    for players in (2, 3):
        for seed in range(4):
            S = game.new_game(players, seed=seed, logging=False)
            for _ in range(seed % 3):
                S.apply(S.current_players()[0], 0)
            player = S.current_players()[0]
            worlds = StepperWorlds.prepare(S, player)
            assert worlds is not None
            followed += len(worlds.in_frame) + len(worlds.scalars)
            same_worlds_and_playouts(S, player, worlds, 6)
    assert followed >= 8 * 3  # mine, pair, marked and kept: each renamed


def test_a_decision_whose_iterations_the_stepper_all_fails_goes_to_the_engine(monkeypatch):
    """After GIVE_UP failures and no success the generated form is not tried again in that
    decision; the result is still the engine's."""
    from interpreter.agents import mcts, transpiled

    def fails(self, stats, select, rng):
        rng.random()  # a draw, put back by the agent
        raise RuntimeError("not today")

    S = mid_games("kuhn_poker", 2, {}, 1)[0]
    player = S.current_players()[0]
    engine = MctsAgent(30, seed=4, transpiled=False)
    expected = engine.choose(S, player)
    monkeypatch.setattr(transpiled.StepperIterations, "run", fails)
    ours = MctsAgent(30, seed=4)
    assert ours.choose(S, player) == expected and ours.rng.getstate() == engine.rng.getstate()
    assert ours.replayed == mcts.GIVE_UP and ours.on_stepper == 0


def test_a_variant_is_found_by_its_rules_hash():
    """The stepper of a game loaded with a variant overlay is the overlay's (stepper_for finds
    the entry file and overlays among the definition's files by the rules hash)."""
    game = Game.load(ROOT / "rules" / "chicago_poker" / "game.yaml",
                     [ROOT / "rules" / "chicago_poker" / "variants" / "big_hands.yaml"])
    S, rng = game.new_game(4, None, 3, logging=False), random.Random(2)
    for _ in range(20):
        p = S.current_players()[0]
        S.apply(p, rng.randrange(S.option_count(p)))
    player = S.current_players()[0]
    engine, ours = MctsAgent(10, seed=1, transpiled=False), MctsAgent(10, seed=1)
    assert engine.choose(S, player) == ours.choose(S, player) and engine.rng.getstate() == ours.rng.getstate()
    assert ours.on_stepper == 10


def test_a_rule_file_whose_simultaneous_blocks_interact_is_searched_by_the_engine():
    """Each player takes from one pool in a simultaneous block: the engine offers the second
    player the pool as the block found it, the resumable form (block by block) without the
    first player's card. The checked start sees it; the search keeps to the engine there."""
    from interpreter.transpile.stepper import load_stepper
    from interpreter.transpile.worlds import plays_the_engines

    path = ROOT / "tests" / "engine" / "data" / "interacting_simultaneous.yaml"
    assert not plays_the_engines(load_stepper(path, 2, None), str(path), [], 2, {})
    S = Game.load(path).new_game(2, None, 1, logging=False)
    assert stepper_for(S) is None
    agent = MctsAgent(budget=6, seed=3)
    agent.choose(S, S.current_players()[0])
    assert agent.on_stepper == 0


def test_the_checked_start_passes_where_the_stepper_plays_the_engines_games():
    from interpreter.transpile.stepper import load_stepper
    from interpreter.transpile.worlds import plays_the_engines

    path = ROOT / "rules" / "chicago_poker" / "game.yaml"
    assert plays_the_engines(load_stepper(path, 4, None), str(path), [], 4, {}, range(4))
