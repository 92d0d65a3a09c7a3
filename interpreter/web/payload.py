"""The JSON a page receives: built from one player's view and log (the forward-model API),
never from the raw state. The hidden-information test resamples what a player cannot see and
checks that this JSON does not change."""
from __future__ import annotations

from typing import Any

from .cards import counters_html, variables_html, zones_html
from .svg import boards_html

LOG_TAIL = 400  # log lines sent to a page (the newest)


def seat_payload(S: Any, table: Any, seat: int | None, *, version: int, game_name: str,
                 seats: list[dict]) -> dict:
    """What seat `seat` may see now (None: everyone's view, for replays of finished games)."""
    view = S.view(seat)
    log = S.log_lines(seat)
    decision = view.get("decision")
    out = {
        "game": game_name, "seat": seat, "seats": seats, "version": version,
        "round": view.get("round"), "phase": view.get("phase"),
        "waiting_for": list(view.get("waiting_for") or []),
        "decision": {"prompt": decision.get("prompt"), "options": list(decision["options"])} if decision else None,
        "over": bool(S.is_terminal()),
        "log": log[-LOG_TAIL:], "log_total": len(log),
        "html": {
            "boards": boards_html(table, view),
            "zones": zones_html(table, view, seat),
            "counters": counters_html(view),
            "variables": variables_html(view),
        },
    }
    if out["over"]:
        result = view.get("result") or {}
        out["result"] = {"scores": list(S.returns()), "winners": list(S.winners()),
                         "reason": result.get("reason")}
    return out
