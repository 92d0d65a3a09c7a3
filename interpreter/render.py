"""Terminal output with rich: game logs, results, statistics, a player's view."""
from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
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
    metrics = stats.get("metrics") or {}
    if metrics:
        console.print("metrics: " + ", ".join(f"{k} = {v}" for k, v in metrics.items()), markup=False)
    import click
    for message in stats.get("error_messages", [])[:5]:
        click.echo(message, err=True)  # one unwrapped `file:line:col: message` line each


def _piece_text(p: dict) -> str:
    if p.get("hidden"):
        extra = " ".join(str(v) for k, v in p.items() if k not in ("hidden", "kind"))
        return f"[dim]hidden {escape(p['kind'].replace('_', ' '))}{(' ' + escape(extra)) if extra else ''}[/dim]"
    return escape(p["label"]) + (" (face down)" if p.get("face_down") else "")


def _grouped(pieces: list) -> list[str]:
    """Runs of identical-looking pieces as "3× bottle"."""
    out: list[str] = []
    last, count = None, 0
    for p in pieces:
        text = _piece_text(p)
        if text == last:
            count += 1
            continue
        if last is not None:
            out.append(last if count == 1 else f"{count}× {last}")
        last, count = text, 1
    if last is not None:
        out.append(last if count == 1 else f"{count}× {last}")
    return out


def grid_lines(cells: list, width: int = 6) -> list[str]:
    """A grid zone's cells ([x, y, text]) as text rows, with column and row numbers."""
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    at = {(c[0], c[1]): str(c[2])[:width - 1] for c in cells}
    lines = ["    " + "".join(f"{x:<{width}}" for x in range(min(xs), max(xs) + 1))]
    for y in range(min(ys), max(ys) + 1):
        row = "".join(f"{at.get((x, y), '.'):<{width}}" for x in range(min(xs), max(xs) + 1))
        lines.append(f"{y:>3} {row}")
    return lines


def print_view(view: dict, player: int) -> None:
    console.rule(f"P{player + 1} — round {view.get('round')}, phase {view.get('phase')}")
    for key, pieces in view["zones"].items():
        name = view.get("zone_labels", {}).get(key, key)
        console.print(f"[bold]{escape(name)}[/bold]: " + ", ".join(_grouped(pieces)))
    for key, cells in (view.get("grids") or {}).items():
        name = view.get("zone_labels", {}).get(key, key)
        console.print(f"[bold]{escape(name)}[/bold] (map):")
        for line in grid_lines(cells):
            console.print("   " + line, markup=False, highlight=False)
    if view["counters"]:
        names = view.get("counter_labels", {})
        console.print("[bold]counters[/bold]: " + escape(", ".join(f"{names.get(k, k)} = {v}"
                                                                    for k, v in view["counters"].items())))
    shown_vars = {k: v for k, v in view["variables"].items() if v is not None}
    if shown_vars:
        console.print("[bold]variables[/bold]: " + ", ".join(f"{k}={v}" for k, v in shown_vars.items()))
