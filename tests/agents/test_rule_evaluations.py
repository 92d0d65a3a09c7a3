"""The `agents: evaluate:` expressions of the shipped rule files judge what the rulebook scores.

Chicago Dry scores only when a season ends (after rounds 3 and 7): each district pays its
scoring tile's places by influence. Its evaluation is the score plus what the board would pay if
the season were scored now, so right before a season scoring the evaluation must be exactly the
score the scoring gives (plus Mayor points scored in the same step, which the log names).
"""
from __future__ import annotations

import random
import re
from pathlib import Path

from interpreter.agents.evaluation import heuristic
from interpreter.game import Game

RULES = Path(__file__).resolve().parents[2] / "rules"
MAYOR = re.compile(r"^(P\d+) scores (\d+) with the Mayor")


def _scores(state) -> list[float]:
    return [state.game.scoring.score(state, {"player": p}) for p in state.players]


def test_chicago_dry_evaluation_is_the_score_the_next_season_scoring_gives():
    game = Game.load(RULES / "chicago_dry" / "game.yaml")
    checked = 0
    for seed in range(6):
        state = game.new_game(2, seed=seed)
        rng = random.Random(seed)
        while not state.over:
            p = state.current_players()[0]
            labels = state.option_labels(p)
            if "pass" in labels:  # a step that moves no drink: does the season get scored after it?
                world = state.clone()
                seen = len(world.log_lines())
                world.apply(p, labels.index("pass"))
                new = [str(line) for line in world.log_lines()[seen:]]
                if any(line.startswith("Scoring of the") for line in new):
                    expected = heuristic(state)
                    for line in new:
                        if m := MAYOR.match(line):
                            expected[int(m.group(1)[1:]) - 1] += int(m.group(2))  # P1 is seat 0
                    assert _scores(world) == expected, (seed, new)
                    checked += 1
            state.apply(p, int(rng.random() * len(labels)))
    assert checked >= 3  # winter and summer scorings, over several games


def test_chicago_dry_evaluation_moves_before_any_scoring():
    """The score is 0 for both until the winter scoring (Mayor aside); the evaluation is not."""
    game = Game.load(RULES / "chicago_dry" / "game.yaml")
    state = game.new_game(2, seed=1)
    rng = random.Random(1)
    seen = set()
    while not any(str(line).startswith("Scoring of the") for line in state.log_lines()):
        seen.add(tuple(a - b for a, b in zip(heuristic(state), _scores(state))))
        p = state.current_players()[0]
        state.apply(p, int(rng.random() * state.option_count(p)))
    assert len(seen) > 3


def test_between_two_cities_evaluation_is_the_final_score_when_the_game_ends():
    """The cities are scored only at the end; the evaluation scores them as they stand, so on
    the final board it must give every player's final score, and before it must not be all 0."""
    game = Game.load(RULES / "between_two_cities" / "game.yaml")
    for seed in range(2):
        state = game.new_game(3, seed=seed)
        rng = random.Random(seed)
        moved = False
        while not state.over:
            moved = moved or any(v != 0 for v in heuristic(state))
            assert _scores(state) == [0, 0, 0]  # nothing is scored during play
            p = state.current_players()[0]
            state.apply(p, int(rng.random() * state.option_count(p)))
        assert heuristic(state) == _scores(state) and max(_scores(state)) > 0
        assert moved
