"""Many random games, in parallel worker processes, with aggregate statistics."""
from __future__ import annotations

import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from .errors import RulebookError
from .metrics import compute as compute_metrics

_WORKER: dict = {}


def _init_worker(file: str, variants: list[str], limits: dict | None = None) -> None:
    from .budget import set_cli_limit
    from .game import Game
    for name, value in (limits or {}).items():  # `rulebook --limit …` reaches every worker
        set_cli_limit(name, value)
    _WORKER["game"] = Game.load(file, variants)


def play_one(args: tuple) -> dict:
    """Play game number `i` (seed = base seed + i) with random agents; never raises."""
    players, options, seed = args
    from .agents import RandomAgent
    from .runner import play_game

    game = _WORKER["game"]
    agents = [RandomAgent(seed * 1009 + i) for i in range(players)]
    options_seen = [0]

    def count_options(S, p, choice):
        options_seen[0] += len(S.legal_actions(p))
    try:
        played = play_game(game, players, options, seed, agents, on_decision=count_options, logging=False)
    except RulebookError as exc:
        return {"seed": seed, "error": str(exc)}
    S = played.state
    return {"seed": seed, "scores": S.returns(), "winners": S.winners(), "decisions": len(played.decisions),
            "options": options_seen[0]}


def run_simulation(file: str, variants: list[str], players: int, options: dict, seed: int,
                   games: int, jobs: int, progress: bool = True) -> dict:
    jobs = jobs if jobs > 0 else (os.cpu_count() or 1)
    tasks = [(players, options, seed + i) for i in range(games)]
    started = time.perf_counter()
    results: list[dict] = []
    show = progress and sys.stderr.isatty()
    if jobs == 1:
        _init_worker(file, variants)
        iterator = map(play_one, tasks)
        results = _collect(iterator, games, show)
    else:
        chunk = max(1, games // (jobs * 8))
        from .budget import cli_limits
        with ProcessPoolExecutor(jobs, initializer=_init_worker,
                                 initargs=(file, variants, cli_limits())) as pool:
            results = _collect(pool.map(play_one, tasks, chunksize=chunk), games, show)
    elapsed = time.perf_counter() - started
    return summarise(results, players, elapsed)


def _collect(iterator: Any, total: int, show: bool) -> list[dict]:
    if not show:
        return list(iterator)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
    out = []
    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), transient=True) as bar:
        task = bar.add_task("simulating", total=total)
        for r in iterator:
            out.append(r)
            bar.advance(task)
    return out


def summarise(results: list[dict], players: int, elapsed: float) -> dict:
    ok = [r for r in results if "error" not in r]
    errors = [r for r in results if "error" in r]
    wins = [0] * players
    totals = [0.0] * players
    shared = 0
    for r in ok:
        for w in r["winners"]:
            wins[w] += 1
        if len(r["winners"]) > 1:
            shared += 1
        for i, s in enumerate(r["scores"]):
            totals[i] += s
    n = max(1, len(ok))
    return {
        "games": len(results), "errors": len(errors), "wins_by_seat": wins,
        "mean_scores": [t / n for t in totals], "shared_wins": shared,
        "mean_decisions": sum(r["decisions"] for r in ok) / n,
        "games_per_second": len(results) / elapsed if elapsed > 0 else 0.0,
        "seconds": elapsed, "players": players,
        "error_messages": [f"seed {r['seed']}: {r['error']}" for r in errors[:20]],
        "metrics": compute_metrics(ok),
    }
