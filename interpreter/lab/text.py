"""A run's summary as tables on the terminal."""
from __future__ import annotations

from rich.console import Console
from rich.table import Table

console = Console(highlight=False)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def _ci(pair: list, pct: bool = True) -> str:
    lo, hi = pair
    return f"[{_pct(lo)}, {_pct(hi)}]" if pct else f"[{lo:.2f}, {hi:.2f}]"


def print_summary(data: dict, name: str) -> None:
    head = (f"{name}: {data['games']} games, {data['errors']} failed, {data['games_per_second']:.1f} games/s"
            + (" (stopped by Ctrl-C)" if data["interrupted"] else "")
            + (f", {data['resumed']} from the results file" if data["resumed"] else ""))
    console.print(head, markup=False)
    for arm in data.get("arms") or [data]:
        if "arms" in data:
            console.print(f"\n{arm['label']}", markup=False, style="bold")
        _print_arm(arm)
    for comparison in data.get("comparisons", []):
        _print_comparison(comparison)


def _print_arm(arm: dict) -> None:
    table = Table(title_justify="left")
    for col, right in (("seat", False), ("wins", True), ("win %", True), ("95 % interval", True),
                       ("mean score", True), ("95 % interval ", True)):
        table.add_column(col, justify="right" if right else "left")
    for i, wins in enumerate(arm["wins_by_seat"]):
        table.add_row(f"P{i + 1}", str(wins), _pct(arm["win_rate"][i]), _ci(arm["win_rate_ci"][i]),
                      f"{arm['mean_scores'][i]:.2f}", _ci(arm["mean_score_ci"][i], pct=False))
    console.print(table)
    if "wins_by_agent" in arm:
        agents = Table(title_justify="left")
        for col in ("agent", "seat-games", "wins", "win %", "95 % interval", "mean score"):
            agents.add_column(col, justify="left" if col == "agent" else "right")
        for kind, games in arm["games_by_agent"].items():
            agents.add_row(kind, str(games), str(arm["wins_by_agent"][kind]), _pct(arm["win_rate_by_agent"][kind]),
                           _ci(arm["win_rate_by_agent_ci"][kind]), f"{arm['mean_score_by_agent'][kind]:.2f}")
        console.print(agents)
    d, r = arm["length"]["decisions"], arm["length"]["rounds"]
    console.print(f"draws (no winner): {arm['draws']}; shared wins: {arm['shared_wins']}", markup=False)
    console.print(f"length: {d['mean']:.1f} decisions (10 % ≤ {d['p10']}, median {d['median']}, 90 % ≤ {d['p90']}); "
                  f"{r['mean']:.1f} rounds (median {r['median']}, max {r['max']})", markup=False)
    console.print(f"first seat: {arm['first_seat']['verdict']}", markup=False)
    metrics = arm.get("metrics") or {}
    if metrics:
        console.print("metrics: " + ", ".join(f"{k} = {v}" for k, v in metrics.items()), markup=False)
    coverage = arm.get("coverage")
    if coverage:
        console.print("rule coverage (fired/all): " + ", ".join(f"{k} {v}" for k, v in coverage["summary"].items()),
                      markup=False)
        for section, names in coverage["never_fired"].items():
            if names and section != "statements":
                console.print(f"  never fired — {section}: {', '.join(names[:12])}"
                              + (f" … (+{len(names) - 12})" if len(names) > 12 else ""), markup=False)


def _print_comparison(c: dict) -> None:
    console.print(f"\n{c['variant']} vs base: {c['verdict']}", markup=False, style="bold",
                  soft_wrap=True)  # one line, however long the path: the verdict stays greppable
    table = Table(title_justify="left")
    for col in ("metric", "base", c["variant"], "difference", "95 % interval", ""):
        table.add_column(col, justify="left" if col == "metric" else "right")
    for row in c["metrics"]:
        rate = row["metric"].endswith("rate")
        fmt = (lambda x: f"{100 * x:.1f} %") if rate else (lambda x: f"{x:.2f}")
        dfmt = (lambda x: f"{100 * x:+.1f}") if rate else (lambda x: f"{x:+.2f}")
        table.add_row(row["metric"], fmt(row["base"]), fmt(row["variant"]), dfmt(row["difference"]),
                      f"[{dfmt(row['ci'][0])}, {dfmt(row['ci'][1])}]", "significant" if row["significant"] else "")
    console.print(table)
    if c["unpaired_games"]:
        console.print(f"{c['unpaired_games']} games failed in one of the two and are not compared", markup=False)
