"""Evaluation: how good a state is for each player, as rewards in [0, 1].

At the end of a game the reward is the win share (1/k for a win shared by k, 1/n each for a
draw) plus a small bonus for the score. Before the end (a playout cut short) it comes from the rule file's heuristic:
`agents: evaluate:` per player, or the current score when the file gives none. A heuristic
reward is a logistic of the player's lead over the best other player.
"""
from __future__ import annotations

import math
from typing import Any

from ..errors import RuleRuntimeError


def heuristic(state: Any) -> list[float]:
    """The rule file's evaluation of `state` for every player (higher is better)."""
    game = state.game
    fn = game.agent_evaluate
    sign = 1.0
    if fn is None:
        fn = game.scoring.score
        if fn is None:
            return [0.0] * state.n
        if game.scoring.lowest_wins:
            sign = -1.0
    return [sign * _number(fn(state, {"player": p})) for p in state.players]


def lead(values: list[float], player: int) -> float:
    """`player`'s value minus the best other player's (the value itself when playing alone)."""
    others = [v for i, v in enumerate(values) if i != player]
    return values[player] - (max(others) if others else 0.0)


WIN = 1e9


def judged_lead(state: Any, player: int) -> float:
    """`player`'s heuristic lead, with a win above every lead and a loss below every one (a
    draw, no winner, counts as the lead alone): what greedy choices compare."""
    value = lead(heuristic(state), player)
    winners = state.winners() if state.over else None
    if winners:
        value += WIN if player in winners else -WIN
    return value


class Evaluation:
    """Rewards per player: win share at the end, the heuristic's logistic lead before it."""

    def __init__(self, score_weight: float = 0.01):
        self.score_weight = score_weight

    def rewards(self, state: Any) -> list[float]:
        if state.over:
            return self.final(state)
        values = heuristic(state)
        scale = max(1.0, max(abs(v) for v in values) / 4) if values else 1.0
        return [1.0 / (1.0 + math.exp(-lead(values, p) / scale)) for p in range(state.n)]

    def final(self, state: Any) -> list[float]:
        winners = state.winners()
        scores = state.returns()
        low, high = min(scores), max(scores)
        spread = (high - low) or 1
        if not winners:  # a draw: as if everyone shared the win
            winners = list(range(state.n))
        share = 1.0 / len(winners)
        return [(share if p in winners else 0.0) + self.score_weight * (scores[p] - low) / spread
                for p in range(state.n)]

    def value(self, state: Any, player: int) -> float:
        return self.rewards(state)[player]


def _number(v: Any) -> float:
    if isinstance(v, bool) or v is None:
        return float(v or 0)
    if isinstance(v, (int, float)):
        return float(v)
    raise RuleRuntimeError(f"an agent evaluation must be a number, got {v!r}")
