"""The outcome of the game, readable from the DSL: whether it has ended, its winners and scores.

Meant for designers' scenario tests (`expect: "game_over() and game_winners() == [0]"`) and for
rule code that needs the provisional standing (e.g. a catch-up rule). While the game runs,
`game_winners()` and `game_scores()` compute the standing as if the game ended now, from the rule
file's `scoring`.
"""
from __future__ import annotations

from typing import Any

from . import builtin


def _result(S: Any) -> dict:
    if S.over and S.result:
        return S.result
    from ..scoring import compute_result
    return compute_result(S)


@builtin(min_args=0, max_args=0)
def game_over(S: Any) -> bool:
    """game_over(): true once the game has ended."""
    return bool(S.over)


@builtin(min_args=0, max_args=0)
def game_winners(S: Any) -> list:
    """game_winners(): the winning players (several when shared); provisional while the game runs."""
    return list(_result(S)["winners"])


@builtin(min_args=0, max_args=0)
def game_scores(S: Any) -> list:
    """game_scores(): every player's score in seat order; provisional while the game runs."""
    return list(_result(S)["scores"])
