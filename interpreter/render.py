"""Terminal output with rich: game logs, results, a player's view.

What a player is shown is made from their observation (State.observation) only:
`print_observation` (the table), `print_decision` (prompt and numbered options) and
`observation_log` (log lines) take nothing else."""
from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from .views import log_text, option_labels, prompt_text, view_of

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)


def print_log(lines: list[str]) -> None:
    for line in lines:
        console.print(line, markup=False)


def print_result(game: Any, S: Any) -> None:
    console.print(f"{game.name}: final scores", markup=False)
    table = Table()
    table.add_column("player")
    table.add_column("score", justify="right")
    table.add_column("")
    winners = set(S.winners())
    for i, score in enumerate(S.returns()):
        table.add_row(f"P{i + 1}", str(score), "winner" if i in winners else "")
    console.print(table)
    from .scoring import outcome_of
    outcome = outcome_of(S.winners()) if S.result else None
    if outcome == "draw":
        console.print("a draw: nobody wins", markup=False)
    elif outcome == "shared":
        console.print("a shared win: " + ", ".join(f"P{w + 1}" for w in sorted(winners)), markup=False)
    reason = (S.result or {}).get("reason")
    if reason:
        console.print(f"game ended: {reason}", markup=False)


def dsl_text(value: Any) -> str:
    """A value written the way the DSL writes it: true/false, none, [a, b]."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(dsl_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {dsl_text(v)}" for k, v in value.items()) + "}"
    return str(value)


def _piece_text(p: dict) -> str:
    if p.get("hidden"):
        kind = p["kind"]
        extra = [dsl_text(v) for k, v in p.items() if k not in ("hidden", "kind") and v != kind]
        shown = escape(kind.replace("_", " ")) + (f" ({escape(', '.join(extra))})" if extra else "")
        return f"[dim]hidden {shown}[/dim]"
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


def cell_text(text: str, owner: Any, width: int) -> str:
    """A cell's text, ending with its owner's number when the piece belongs to a player."""
    if owner is None:
        return str(text)[:width - 1]
    mark = str(owner + 1)
    return str(text)[:max(1, width - 1 - len(mark))] + mark


def grid_lines(cells: list, shape: dict | None = None, width: int = 6) -> list[str]:
    """A grid zone's cells ([x, y, text, owner]) as text rows with column and row numbers.

    A grid with a declared width/height is drawn whole; otherwise the occupied area is.
    `origin` is the number shown for the first column/row; `y_up` puts row 0 at the bottom.
    """
    shape = shape or {}
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    x0, x1 = (0, shape["width"] - 1) if "width" in shape else (min(xs), max(xs))
    y0, y1 = (0, shape["height"] - 1) if "height" in shape else (min(ys), max(ys))
    shift = shape.get("origin", 0)
    at = {(c[0], c[1]): cell_text(c[2], c[3] if len(c) > 3 else None, width) for c in cells}
    header = ("    " + "".join(f"{x + shift:<{width}}" for x in range(x0, x1 + 1))).rstrip()
    rows = range(y1, y0 - 1, -1) if shape.get("y_up") else range(y0, y1 + 1)
    lines = [header]
    for y in rows:
        row = "".join(f"{at.get((x, y), '.'):<{width}}" for x in range(x0, x1 + 1))
        lines.append(f"{y + shift:>3} {row.rstrip()}")
    if shape.get("y_up"):
        lines.append(header)
    return lines


def _counter_rows(view: dict) -> tuple[dict, list]:
    """Per-player counters as {family: {player: value}}, and the other counters as text."""
    names = view.get("counter_labels", {})
    per_player: dict = {}
    others = []
    for key, value in view["counters"].items():
        name = names.get(key, key)
        family, _, index = name.partition(" [")
        if index.startswith("P") and index[1:-1].isdigit() and index.endswith("]"):
            per_player.setdefault(family, {})[int(index[1:-1]) - 1] = value
        else:
            others.append(f"{name} = {dsl_text(value)}")
    return per_player, others


def print_counters(view: dict) -> None:
    per_player, others = _counter_rows(view)
    if per_player:
        table = Table(box=None, pad_edge=False, title_justify="left")
        table.add_column("")
        for p in range(view["players"]):
            table.add_column(f"P{p + 1}", justify="right")
        for family, values in per_player.items():
            table.add_row(escape(family), *[dsl_text(values[p]) if p in values else "" for p in range(view["players"])])
        console.print(table)
    if others:
        console.print("[bold]counters[/bold]: " + escape(", ".join(others)))


def print_grids(view: dict) -> None:
    for key, cells in (view.get("grids") or {}).items():
        name = view.get("zone_labels", {}).get(key, key)
        console.print(f"[bold]{escape(name)}[/bold] (map):")
        for line in grid_lines(cells, (view.get("grid_shapes") or {}).get(key)):
            console.print("   " + line, markup=False, highlight=False)


def print_board_places(view: dict) -> set:
    """Graph boards as one row per place: its neighbours and everything on it. Returns the
    zone keys shown, so they are not listed again."""
    shown: set = set()
    labels = view.get("zone_labels", {})
    for board_id, places in (view.get("board_places") or {}).items():
        name = board_id.replace("_", " ")
        table = Table(title=name if "map" in name else f"{name} (map)", title_justify="left")
        table.add_column("place", style="bold")
        table.add_column("next to")
        table.add_column("here")
        for place in places:
            here = []
            for key in place["zones"]:
                shown.add(key)
                name = labels.get(key, key)
                family, _, index = name.partition(" [")
                rest = [part for part in index.rstrip("]").split(", ") if part and part != place["label"]]
                owner = f" {' '.join(rest)}" if rest else ""
                here.append(f"{escape(family)}{escape(owner)}: " + ", ".join(_grouped(view["zones"][key])))
            table.add_row(escape(place["label"]), escape(", ".join(place["neighbors"])), "\n".join(here))
        console.print(table)
    return shown


def print_view(view: dict, player: int) -> None:
    phase = view.get("phase")
    console.rule(f"P{player + 1} — round {view.get('round')}" + (f", phase {phase}" if phase else ", setup"))
    on_maps = print_board_places(view)
    for key, pieces in view["zones"].items():
        if key in on_maps:
            continue
        name = view.get("zone_labels", {}).get(key, key)
        console.print(f"[bold]{escape(name)}[/bold]: " + ", ".join(_grouped(pieces)))
    print_grids(view)
    if view["counters"]:
        print_counters(view)
    shown_vars = {k: v for k, v in view["variables"].items() if v is not None}
    if shown_vars:
        console.print("[bold]variables[/bold]: " + escape(", ".join(f"{k} = {dsl_text(v)}"
                                                                     for k, v in shown_vars.items())))


def print_observation(obs: dict) -> None:
    """The table as the observation's viewer sees it."""
    print_view(view_of(obs), obs["viewer"])


def observation_log(obs: dict) -> list[str]:
    """The observation's log lines (its events as text)."""
    return log_text(obs)


def print_decision(obs: dict) -> tuple[str, list[str]]:
    """The viewer's numbered options; returns (prompt, option labels)."""
    decision = obs["decision"]
    labels = option_labels(decision)
    for i, text in enumerate(labels, 1):
        console.print(f"  [bold]{i}[/bold]. {escape(text)}", highlight=False)
    return prompt_text(decision) or "Choose", labels
