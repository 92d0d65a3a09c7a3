"""The JSON a page receives: made from one player's observation (State.observation: zones,
counters, their decision, the log as events), never from the raw state. `payload_of` is a
function of the observation only; the hidden-information tests resample what a player cannot
see and check that this JSON does not change."""
from __future__ import annotations

from typing import Any

from ..views import log_text, option_labels, prompt_text, view_of
from .cards import counters_html, variables_html, zones_html
from .svg import boards_html

LOG_TAIL = 400  # log lines sent to a page (the newest)


def seat_payload(S: Any, table: Any, seat: int | None, *, version: int, game_name: str,
                 seats: list[dict]) -> dict:
    """What seat `seat` may see now (None: everyone's view, for replays of finished games)."""
    obs = S.observation(seat)
    total = len(obs["log"])
    obs["log"] = obs["log"][-LOG_TAIL:]
    return payload_of(obs, table, version=version, game_name=game_name, seats=seats, log_total=total)


def payload_of(obs: dict, table: Any, *, version: int, game_name: str, seats: list[dict],
               log_total: int) -> dict:
    """The page's JSON, from one observation (its log: the newest lines, `log_total` in all)."""
    view = view_of(obs)
    seat = obs["viewer"]
    decision = obs.get("decision")
    out = {
        "game": game_name, "seat": seat, "seats": seats, "version": version,
        "round": obs.get("round"), "phase": obs.get("phase"),
        "waiting_for": list(obs.get("waiting_for") or []),
        "decision": {"prompt": prompt_text(decision), "options": option_labels(decision)} if decision else None,
        "over": bool(obs["over"]),
        "log": log_text(obs)[-LOG_TAIL:], "log_total": log_total,
        "html": {
            "boards": boards_html(table, view),
            "zones": zones_html(table, view, seat),
            "counters": counters_html(view),
            "variables": variables_html(view),
        },
    }
    if out["over"]:
        result = obs.get("result") or {}
        out["result"] = {"scores": list(result.get("scores") or [0] * obs["players"]),
                         "winners": list(result.get("winners") or []), "reason": result.get("reason")}
    return out
