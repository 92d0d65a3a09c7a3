"""Final scores and winners, from the rule file's `scoring` section."""
from __future__ import annotations

from typing import Any

from .errors import UNKNOWN, RuleRuntimeError, RulebookError, rule_position
from .values import SEAT, Player


def _number(v: Any) -> Any:
    if type(v) is int:
        return v
    if isinstance(v, bool):
        return int(v)
    if v is None:
        return 0
    return v


def compute_result(S: Any) -> dict:
    """{"scores", "winners", "reason"} of a finished game, from the rule file's scoring."""
    try:
        return _result(S, S.game.scoring)
    except RulebookError:
        raise
    except Exception as exc:  # a scoring rule did something impossible (e.g. divided by zero)
        raise RuleRuntimeError(f"while scoring: {type(exc).__name__}: {exc}", rule_position(exc), "E300") from None


def _result(S: Any, sc: Any) -> dict:
    score = sc.score
    if sc.winners is not None:  # winners given: no ranking, no tie-breaks
        scores = [_number(score(S, {"player": p})) for p in S.players] if score is not None else [0] * S.n
        winners = _seats(sc.winners(S, {}), sc)
    else:
        scores, keys = [], []
        for p in S.players:
            value = _number(score(S, {"player": p})) if score is not None else 0
            scores.append(value)
            keys.append(tuple([value] + [_number(t(S, {"player": p})) for t in sc.tiebreak]))
        best = min(keys) if sc.lowest_wins else max(keys)
        winners = [i for i, k in enumerate(keys) if k == best]
        if len(winners) == len(keys) > 1 and sc.all_tied == "draw":
            winners = []  # everyone tied after every tie-break: nobody won
    for s in scores:
        if not isinstance(s, (int, float)):
            raise RuleRuntimeError(f"a score must be a number, got {s!r}", getattr(sc.score, "pos", None)
                                   or UNKNOWN, "E300")
    return {"scores": scores, "winners": winners, "reason": S.vars.get("end_reason")}


def _seats(chosen: Any, sc: Any) -> list:
    """The `winners` expression's value as sorted, distinct seat numbers."""
    if type(chosen) is list and len(chosen) < 2:  # the usual case: one winner (a player) or none
        if not chosen:
            return []
        if type(chosen[0]) is Player:
            return [SEAT[chosen[0]]]
    if chosen is None:
        return []
    if isinstance(chosen, int):
        chosen = [chosen]
    try:
        return sorted({int(p) for p in chosen})
    except (TypeError, ValueError):
        raise RuleRuntimeError(f"winners must be players, got {chosen!r}", getattr(sc.winners, "pos", None)
                               or UNKNOWN, "E300") from None


def outcome_of(winners: list) -> str:
    """"win" (one winner), "shared" (several winners) or "draw" (no winner)."""
    if not winners:
        return "draw"
    return "win" if len(winners) == 1 else "shared"
