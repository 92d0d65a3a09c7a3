"""Terminal output with rich: game logs, results, a player's view."""
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
