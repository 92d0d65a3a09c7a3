"""Terminal output with rich: game logs, results, statistics, a player's view."""
from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)


def print_log(lines: list[str]) -> None:
    for line in lines:
        console.print(line, markup=False)


def print_result(game: Any, S: Any) -> None:
    table = Table(title=f"{game.name}: final scores", title_justify="left")
    table.add_column("player")
    table.add_column("score", justify="right")
    table.add_column("")
    winners = set(S.winners())
    for i, score in enumerate(S.returns()):
        table.add_row(f"P{i + 1}", str(score), "winner" if i in winners else "")
    console.print(table)
    reason = (S.result or {}).get("reason")
    if reason:
        console.print(f"game ended: {reason}", markup=False)


def print_stats(game: Any, stats: dict) -> None:
    console.print(f"{game.name}: {stats['games']} games, {stats['errors']} errors, "
                  f"{stats['games_per_second']:.1f} games/s", markup=False)
    table = Table(title_justify="left")
    table.add_column("seat")
    table.add_column("wins", justify="right")
    table.add_column("win %", justify="right")
    table.add_column("mean score", justify="right")
    games = max(1, stats["games"] - stats["errors"])
    for i, (wins, mean) in enumerate(zip(stats["wins_by_seat"], stats["mean_scores"])):
        table.add_row(f"P{i + 1}", str(wins), f"{100 * wins / games:.1f}", f"{mean:.2f}")
    console.print(table)
    console.print(f"mean decisions per game: {stats['mean_decisions']:.1f}; shared wins: {stats['shared_wins']}",
                  markup=False)
    for message in stats.get("error_messages", [])[:5]:
        err_console.print(message, markup=False)


def print_view(view: dict, player: int) -> None:
    console.rule(f"P{player + 1} — round {view.get('round')}, phase {view.get('phase')}")
    for key, pieces in view["zones"].items():
        shown = []
        for p in pieces:
            if p.get("hidden"):
                extra = " ".join(str(v) for k, v in p.items() if k not in ("hidden", "kind"))
                shown.append(f"[dim]hidden {p['kind']}{(' ' + extra) if extra else ''}[/dim]")
            else:
                shown.append(p["label"] + (" (face down)" if p.get("face_down") else ""))
        console.print(f"[bold]{key}[/bold]: " + ", ".join(shown))
    if view["counters"]:
        console.print("[bold]counters[/bold]: " + ", ".join(f"{k}={v}" for k, v in view["counters"].items()))
    shown_vars = {k: v for k, v in view["variables"].items() if v is not None}
    if shown_vars:
        console.print("[bold]variables[/bold]: " + ", ".join(f"{k}={v}" for k, v in shown_vars.items()))
