"""Final scores and winners, from the rule file's `scoring` section."""
from __future__ import annotations

from typing import Any

from .errors import UNKNOWN, RuleRuntimeError, RulebookError, rule_position


def _number(v: Any) -> Any:
    if isinstance(v, bool):
        return int(v)
    if v is None:
        return 0
    return v


def compute_result(S: Any) -> dict:
    try:
        return _compute_result(S)
    except RulebookError:
        raise
    except Exception as exc:  # a scoring rule did something impossible (e.g. divided by zero)
        raise RuleRuntimeError(f"while scoring: {type(exc).__name__}: {exc}", rule_position(exc), "E300") from None


def _compute_result(S: Any) -> dict:
    sc = S.game.scoring
    scores = []
    keys = []
    tiebreak = sc.tiebreak if sc.winners is None else []  # winners given: no ranking needed
    for p in S.players:
        L = {"player": p}
        score = _number(sc.score(S, L)) if sc.score is not None else 0
        tie = [_number(t(S, {"player": p})) for t in tiebreak]
        scores.append(score)
        keys.append(tuple([score] + tie))
    if sc.winners is not None:
        chosen = sc.winners(S, {})
        if chosen is None:
            chosen = []
        if isinstance(chosen, int):
            chosen = [chosen]
        try:
            winners = sorted({int(p) for p in chosen})
        except (TypeError, ValueError):
            raise RuleRuntimeError(f"winners must be players, got {chosen!r}", getattr(sc.winners, "pos", None)
                                   or UNKNOWN, "E300") from None
    else:
        if sc.lowest_wins:
            best = min(keys)
        else:
            best = max(keys)
        winners = [i for i, k in enumerate(keys) if k == best]
        if len(winners) == len(keys) > 1 and sc.all_tied == "draw":
            winners = []  # everyone tied after every tie-break: nobody won
    for s in scores:
        if not isinstance(s, (int, float)):
            raise RuleRuntimeError(f"a score must be a number, got {s!r}", getattr(sc.score, "pos", None)
                                   or UNKNOWN, "E300")
    return {"scores": scores, "winners": winners, "reason": S.vars.get("end_reason")}


def outcome_of(winners: list) -> str:
    """"win" (one winner), "shared" (several winners) or "draw" (no winner)."""
    if not winners:
        return "draw"
    return "win" if len(winners) == 1 else "shared"
