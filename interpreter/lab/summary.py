"""The summary of a run as one JSON-ready dict (what `--json` prints and reports draw)."""
from __future__ import annotations

from typing import Any

from .runner import Run


def summarise(result: Run, games: list, with_agents: bool, comparison: Any = None) -> dict:
    plan = result.plan
    arms = []
    for i, arm in enumerate(plan.arms):
        tally = result.tallies[i]
        data = {"label": arm.label, "game": games[i].id, "options": dict(arm.options),
                "variants": list(arm.variants), **tally.summary(with_agents),
                "distributions": tally.distributions()}
        if result.coverage:
            data["coverage"] = result.coverage[i].report(games[i])
        arms.append(data)
    base = arms[0]
    out: dict[str, Any] = {k: v for k, v in base.items() if k not in ("label", "variants")} if len(arms) == 1 else {}
    failed = [dict(f, arm=a["label"]) if len(arms) > 1 else f for a in arms for f in a["failed_games"]]
    out.update({
        "games": result.tallies[0].games,
        "errors": sum(a["errors"] for a in arms),
        "failed_games": failed,
        "players": plan.players, "seed": plan.seed, "agents": list(plan.agents), "rotate": plan.rotate,
        "games_per_second": round(result.games_per_second, 2), "seconds": round(result.seconds, 3),
        "played_now": result.played, "resumed": result.resumed, "interrupted": result.interrupted,
        "backend": result.backend, "workers": result.workers,
    })
    if len(arms) > 1:
        out["game"] = games[0].id
        out["arms"] = arms
        out["comparisons"] = comparison.result() if comparison is not None else []
    return out
