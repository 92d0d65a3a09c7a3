"""A player's view: their observation (observation.py) laid out for display.

`view_of(observation)` is a function of the observation only: zones as lists of pieces with a
table of zone labels, counters as values with a table of their labels, the decision as a
prompt text and option labels. `State.view(p)` and `State.log_lines(p)` are built this way, so
every surface that uses them shows nothing the observation does not hold.
"""
from __future__ import annotations

from typing import Any

from .events import entry_event, event_text, line_for
from .observation import observe, slot_label  # noqa: F401 - slot_label re-exported


def view_of(obs: dict) -> dict:
    """The view (JSON-ready) made from an observation."""
    zones = {key: [p if "ref" not in p else {k: v for k, v in p.items() if k != "ref"} for p in z["pieces"]]
             for key, z in obs["zones"].items()}
    out = {
        "game": obs["game"], "players": obs["players"], "round": obs["round"], "phase": obs["phase"],
        "viewer": obs["viewer"], "zones": zones,
        "zone_labels": {key: z["label"] for key, z in obs["zones"].items()},
        "counters": {key: c["value"] for key, c in obs["counters"].items()},
        "counter_labels": {key: c["label"] for key, c in obs["counters"].items()},
        "variables": obs["variables"], "waiting_for": obs["waiting_for"], "over": obs["over"],
    }
    for key in ("board_places", "grids", "grid_shapes"):
        if key in obs:
            out[key] = obs[key]
    decision = obs.get("decision")
    if decision is not None:
        out["decision"] = {"prompt": prompt_text(decision), "options": option_labels(decision)}
    if "result" in obs:
        out["result"] = obs["result"]
    return out


def prompt_text(decision: dict) -> str | None:
    """The prompt of an observed decision as text."""
    prompt = decision.get("prompt")
    return None if prompt is None else event_text(prompt)


def option_labels(decision: dict) -> list[str]:
    return [o["label"] for o in decision["options"]]


def log_text(obs: dict) -> list[str]:
    """The log lines of an observation as text."""
    return [event_text(e) for e in obs.get("log", [])]


def view(S: Any, viewer: Any = None) -> dict:
    """The state as `viewer` may see it (None: everything), as JSON-ready data."""
    return view_of(observe(S, viewer, log_from=None))


def log_lines(S: Any, viewer: Any = None) -> list[str]:
    """The log as `viewer` may read it: each line's event (the observation's log) as text."""
    return [line_for(entry_event(e), viewer) for e in S.log]
