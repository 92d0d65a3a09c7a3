"""Agents never use what their player cannot see: with the same agent seed, a decision does not
change when only things hidden from the deciding player change (other hands, deck order,
face-down pieces, the random generator's future), on every rule file with hidden information."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter.agents import parse_agents
from interpreter.conformance import _comparable, _seen_by
from interpreter.resample import resample
from interpreter.decisions import DONE, PASS, pending_for
from interpreter.game import Game

ROOT = Path(__file__).resolve().parents[2]
RULE_FILES = sorted(p for p in (ROOT / "rules").glob("*/*.yaml") if p.parent.name != "tests")
NO_HIDDEN = {"tic_tac_toe"}  # a board fully in view: nothing to change
AGENTS = ["random", "first", "last", "greedy", "mcts:8,depth=6", "ismcts:8,depth=6",
          "mcts:4,depth=3,playout=greedy", "ismcts:6,depth=3,playout=greedy,eps=0.5",
          "ismcts:8,depth=6,ucb=plain,secret=no"]


def hidden_twin(S, player: int, rng: random.Random):
    """A copy of S where only what `player` cannot see is different (the engine's resampling:
    running rule code follows the swapped pieces); None if nothing is hidden."""
    T, _ = resample(S, player, rng)
    if T.hash() == S.hash():
        return None
    assert _seen_by(S, player) == _seen_by(T, player), "the twin must look the same to the player"
    return T


def decision_points(game: Game, seed: int, count: int = 3) -> list:
    """`count` states of a random game, spread over it, at a decision."""
    S = game.new_game(game.default_players, seed=seed, logging=False)
    rng = random.Random(seed)
    states = []
    while not S.over:
        if rng.random() < 0.08 or S.decisions == 1:
            states.append(S.clone())
        p = S.current_players()[0]
        S.apply(p, rng.randrange(S.option_count(p)))
    picked = random.Random(seed).sample(states, min(count, len(states)))
    return sorted(picked, key=lambda s: s.decisions)


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_decisions_ignore_hidden_information(path: Path) -> None:
    if path.parent.name in NO_HIDDEN:
        pytest.skip("no hidden information")
    game = Game.load(path)
    rng = random.Random(4)
    compared = 0
    for S in decision_points(game, seed=11):
        for player in S.current_players():
            T = hidden_twin(S, player, rng)
            if T is None:
                continue
            compared += 1
            for spec in AGENTS:
                agent_seed = 7
                a = parse_agents(spec)[0].build(agent_seed, player).choose(S.clone(), player)
                b = parse_agents(spec)[0].build(agent_seed, player).choose(T, player)
                assert a == b, (f"{spec} as P{player + 1} after {S.decisions} decisions chose "
                                f"option {a}, but {b} when only hidden things changed")
    assert compared > 0, "no decision point had anything hidden from the decider"


SIMULTANEOUS = ["dice_town/game", "between_two_cities/game", "dogs_day/game", "goofspiel/game"]
SENTINELS = (DONE, PASS)


def _kinds(game: Game, S) -> list:
    """For every decision of S's history: was it a stop/pass (how many picks is seen)?"""
    R = game.new_game(S.n, S.options, S.seed, logging=False)
    kinds = []
    for author, index in S.history:
        kinds.append(pending_for(R, author).pending.options[index] in SENTINELS)
        R.apply(author, index)
    return kinds


def secret_twin(game: Game, S, viewer: int, rng: random.Random):
    """The same game, except that another player picked something else in secret earlier in the
    still open simultaneous block (same number of picks); None if there is no such point."""
    blocks = [t for t in S.threads if t.status == "wait" and t.since is not None]
    if not blocks:
        return None
    history, kinds = S.history, _kinds(game, S)
    points = [i for i in range(blocks[-1].since, len(history))
              if history[i][0] != viewer and not kinds[i]]
    if not points:
        return None
    i = rng.choice(points)
    author = history[i][0]
    R = game.new_game(S.n, S.options, S.seed, logging=False)
    for p, k in history[:i]:
        R.apply(p, k)
    others = [j for j, o in enumerate(pending_for(R, author).pending.options)
              if j != history[i][1] and o not in SENTINELS]
    if not others:
        return None
    R.apply(author, rng.choice(others))
    for (p, k), stop in zip(history[i + 1:], kinds[i + 1:]):
        if p not in R.current_players():
            return None
        options = pending_for(R, p).pending.options
        if p == author:  # the same kind of step: another pick, or the stop
            fits = [j for j, o in enumerate(options) if (o in SENTINELS) == stop]
            k = k if k in fits else (fits[0] if fits else -1)
        if not 0 <= k < len(options):
            return None
        R.apply(p, k)
    if viewer not in R.current_players() or _comparable(S, viewer, author) != _comparable(R, viewer, author):
        return None
    return R


@pytest.mark.parametrize("name", SIMULTANEOUS)
def test_decisions_ignore_secret_choices_already_made(name: str) -> None:
    """Inside a simultaneous block, what others already picked in secret is not used."""
    game = Game.load(ROOT / "rules" / f"{name}.yaml")
    rng = random.Random(3)
    compared = 0
    for seed in range(8):
        for S in decision_points(game, seed, count=6):
            for viewer in S.current_players():
                R = secret_twin(game, S, viewer, rng)
                if R is None:
                    continue
                compared += 1
                for spec in AGENTS:
                    a = parse_agents(spec)[0].build(5, viewer).choose(S.clone(), viewer)
                    b = parse_agents(spec)[0].build(5, viewer).choose(R, viewer)
                    assert a == b, (f"{spec} as P{viewer + 1} after {S.decisions} decisions chose "
                                    f"{a}, but {b} when another player's secret pick changed")
        if compared >= 6:
            break
    assert compared > 0, "no point inside a simultaneous block after another player's pick"


def test_a_hidden_change_is_visible_to_an_agent_that_cheats() -> None:
    """The check has teeth: an agent reading the raw state (the next card of a hidden deck)
    does change its decision between the twins at some point."""
    game = Game.load(ROOT / "rules" / "kuhn_poker" / "game.yaml")

    class Cheater:
        def choose(self, state, player):
            return int(state.hash(), 16) % state.option_count(player)  # not hash(): salted per process

    rng = random.Random(2)
    differs = 0
    for seed in range(6):
        for S in decision_points(game, seed):
            for player in S.current_players():
                T = hidden_twin(S, player, rng)
                if T is not None and S.option_count(player) > 1:
                    differs += Cheater().choose(S, player) != Cheater().choose(T, player)
    assert differs > 0
