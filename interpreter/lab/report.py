"""Reports with pictures (extra [sim]: matplotlib): one self-contained HTML file (plots embedded
as PNG data) or a single PNG figure.

Plots: win rate per seat with 95 % interval bars (per arm side by side when comparing), score
distributions per seat, game-length histograms; the HTML adds the tables, the comparison in
words, failed games with their `rulebook play` command, and rule coverage.
"""
from __future__ import annotations

import base64
import html
import io
from pathlib import Path
from typing import Any

from ..errors import InputError


def require_plotting() -> None:
    from importlib.util import find_spec
    if find_spec("matplotlib") is None:
        raise InputError("--report needs the sim extra: pip install 'rulebook[sim]'")


def _pyplot():
    require_plotting()
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _arms(data: dict) -> list[dict]:
    return data.get("arms") or [dict(data, label="base")]


def write_report(path: str, data: dict, name: str) -> None:
    plt = _pyplot()
    if path.lower().endswith(".png"):
        fig, axes = plt.subplots(1, 3, figsize=(15, 4.5))
        plot_win_rates(axes[0], data)
        plot_scores(axes[1], data)
        plot_lengths(axes[2], data)
        fig.suptitle(f"{name}: {data['games']} games")
        fig.tight_layout()
        fig.savefig(path, dpi=100)
        plt.close(fig)
        return
    Path(path).write_text(_html(plt, data, name), encoding="utf-8")


def plot_win_rates(ax: Any, data: dict) -> None:
    arms = _arms(data)
    seats = data["players"]
    width = 0.8 / len(arms)
    for k, arm in enumerate(arms):
        xs = [s + (k - (len(arms) - 1) / 2) * width for s in range(seats)]
        rates = [100 * r for r in arm["win_rate"]]
        lo = [100 * (r - ci[0]) for r, ci in zip(arm["win_rate"], arm["win_rate_ci"])]
        hi = [100 * (ci[1] - r) for r, ci in zip(arm["win_rate"], arm["win_rate_ci"])]
        ax.bar(xs, rates, width, yerr=[lo, hi], capsize=4, label=arm["label"])
    ax.axhline(100 / seats, color="grey", linestyle="--", linewidth=1, label="fair share")
    ax.set_xticks(range(seats), [f"P{s + 1}" for s in range(seats)])
    ax.set_ylabel("win rate (%), 95 % interval")
    ax.set_title("Win rate by seat")
    ax.legend(fontsize="small")


def plot_scores(ax: Any, data: dict) -> None:
    arm = _arms(data)[0]
    _histograms(ax, [(f"P{seat + 1}", hist) for seat, hist in enumerate(arm["distributions"]["scores"])])
    ax.set_xlabel("final score")
    ax.set_ylabel("games")
    ax.set_title("Score distribution" + (f" ({arm['label']})" if "arms" in data else ""))
    ax.legend(fontsize="small")


def plot_lengths(ax: Any, data: dict) -> None:
    arms = _arms(data)
    _histograms(ax, [(arm["label"], arm["distributions"]["decisions"]) for arm in arms])
    ax.set_xlabel("decisions per game")
    ax.set_ylabel("games")
    ax.set_title("Game length")
    if len(arms) > 1:
        ax.legend(fontsize="small")


def _histograms(ax: Any, series: list) -> None:
    """Several [value, count] histograms on one axis: bars side by side when there are few
    distinct values, else one line each."""
    distinct = sorted({v for _, hist in series for v, _ in hist})
    if not distinct:
        return
    step = min((b - a for a, b in zip(distinct, distinct[1:])), default=1)
    if len(distinct) > 25:  # many values: 25 bins, one outline per series
        bins = [distinct[0] + (distinct[-1] - distinct[0]) * k / 25 for k in range(26)]
        for label, hist in series:
            if hist:
                xs, counts = zip(*hist)
                ax.hist(xs, bins=bins, weights=counts, histtype="step", linewidth=2, label=label)
        return
    width = 0.8 * step / max(1, len(series))
    for k, (label, hist) in enumerate(series):
        if hist:
            xs, counts = zip(*hist)
            shift = (k - (len(series) - 1) / 2) * width
            ax.bar([x + shift for x in xs], counts, width, label=label)


def _figure(plt: Any, draw: Any, data: dict, size=(6.4, 4.2)) -> str:
    fig, ax = plt.subplots(figsize=size)
    draw(ax, data)
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=90)
    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _table(header: list[str], rows: list[list[Any]]) -> str:
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td{_align(c)}>{html.escape(str(c))}</td>" for c in row) + "</tr>"
                   for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _align(cell: Any) -> str:
    text = str(cell)
    numeric = isinstance(cell, (int, float)) or text[:1] in "[+-−" or text[:1].isdigit()
    return ' class="n"' if numeric else ""


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def _arm_section(arm: dict, titled: bool) -> str:
    parts = [f"<h2>{html.escape(arm['label'])}</h2>" if titled else ""]
    rows = [[f"P{i + 1}", w, _pct(arm["win_rate"][i]),
             f"[{_pct(arm['win_rate_ci'][i][0])}, {_pct(arm['win_rate_ci'][i][1])}]",
             f"{arm['mean_scores'][i]:.2f}", f"[{arm['mean_score_ci'][i][0]:.2f}, {arm['mean_score_ci'][i][1]:.2f}]"]
            for i, w in enumerate(arm["wins_by_seat"])]
    parts.append(_table(["seat", "wins", "win rate", "95 % interval", "mean score", "95 % interval"], rows))
    if "wins_by_agent" in arm:
        parts.append(_table(["agent", "seat-games", "wins", "win rate", "95 % interval"],
                            [[k, g, arm["wins_by_agent"][k], _pct(arm["win_rate_by_agent"][k]),
                              f"[{_pct(arm['win_rate_by_agent_ci'][k][0])}, {_pct(arm['win_rate_by_agent_ci'][k][1])}]"]
                             for k, g in arm["games_by_agent"].items()]))
    d, r = arm["length"]["decisions"], arm["length"]["rounds"]
    parts.append(f"<p>Draws (no winner): {arm['draws']}; shared wins: {arm['shared_wins']}; "
                 f"failed games: {arm['errors']}.</p>")
    parts.append(_table(["length", "mean", "min", "10 %", "median", "90 %", "max"],
                        [["decisions", d["mean"], d["min"], d["p10"], d["median"], d["p90"], d["max"]],
                         ["rounds", r["mean"], r["min"], r["p10"], r["median"], r["p90"], r["max"]]]))
    parts.append(f"<p>First seat: {html.escape(arm['first_seat']['verdict'])}.</p>")
    if arm.get("coverage"):
        parts.append(_coverage(arm["coverage"]))
    return "\n".join(parts)


def _coverage(cov: dict) -> str:
    rows = []
    for section, fired in cov["fired"].items():
        if section == "statements":
            continue
        for name in cov["never_fired"][section]:
            rows.append([section, name, "never fired", ""])
        for row in fired:
            rows.append([section, row["name"], row["count"], row["where"]])
    summary = ", ".join(f"{k} {v}" for k, v in cov["summary"].items())
    dead_lines = cov["never_fired"]["statements"]
    return (f"<h3>Rule coverage</h3><p>Fired / all: {html.escape(summary)}.</p>"
            + _table(["kind", "rule", "times", "where"], rows)
            + (f"<p>Lines of rule code never run: {html.escape(', '.join(dead_lines))}</p>" if dead_lines else ""))


def _comparison_row(r: dict) -> list:
    if r["metric"].endswith("rate"):
        value, diff = (lambda x: f"{100 * x:.1f} %"), (lambda x: f"{100 * x:+.1f}")
    else:
        value, diff = (lambda x: f"{x:.2f}"), (lambda x: f"{x:+.2f}")
    return [r["metric"], value(r["base"]), value(r["variant"]), diff(r["difference"]),
            f"[{diff(r['ci'][0])}, {diff(r['ci'][1])}]", "significant" if r["significant"] else ""]


def _html(plt: Any, data: dict, name: str) -> str:
    images = [_figure(plt, plot_win_rates, data), _figure(plt, plot_scores, data),
              _figure(plt, plot_lengths, data)]
    arms = _arms(data)
    body = [f"<h1>{html.escape(name)}</h1>",
            f"<p>{data['games']} games, {data['players']} players, seed {data['seed']}, agents "
            f"{html.escape(', '.join(data['agents']))}{' (rotated)' if data['rotate'] else ''}; "
            f"{data['errors']} failed.</p>",
            '<div class="plots">' + "".join(f'<img alt="plot" src="{src}">' for src in images) + "</div>"]
    for c in data.get("comparisons", []):
        body.append(f"<h2>{html.escape(c['variant'])} vs base</h2><p><b>{html.escape(c['verdict'])}</b></p>")
        body.append(_table(["metric", "base", "variant", "difference", "95 % interval", ""],
                           [_comparison_row(r) for r in c["metrics"]]))
    for arm in arms:
        body.append(_arm_section(arm, "arms" in data))
    if data["failed_games"]:
        body.append("<h2>Failed games</h2>" + _table(
            ["game", "seed", "error", "reproduce"],
            [[f["game"] + 1, f["seed"], f["error"], f["command"]] for f in data["failed_games"]]))
    style = ("body{font-family:sans-serif;margin:2em;max-width:1300px} table{border-collapse:collapse;margin:1em 0}"
             "td,th{border:1px solid #ccc;padding:3px 8px;text-align:left} td.n{text-align:right}"
             ".plots img{margin:4px;border:1px solid #eee}")
    return (f"<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>{html.escape(name)} — rulebook report"
            f"</title><style>{style}</style></head><body>{''.join(body)}</body></html>\n")
