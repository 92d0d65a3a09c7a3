#!/usr/bin/env python3
"""Strength benchmark of the search agents; writes docs/agents.md.

For each of the five games at its default player count, one seat is played by IS-MCTS and every
other seat by the opponent (random, then flat MCTS at the same budget and depth). The IS-MCTS
seat rotates over the seats from game to game; both pairings use the same game seeds. A game's
win counts 1/k when k players share it. The table gives IS-MCTS's win share with a 95 % Wilson
interval against the share an equal player would get (1 / players), and CPU time per decision.

Usage:
    python tools/bench_agents.py                         # the full protocol: 100 games per pairing
    python tools/bench_agents.py --games 20 --budget 50 --depth 10
    python tools/bench_agents.py --games 100 --results out.jsonl   # resumable: done games skipped
    python tools/bench_agents.py --report-only --results out.jsonl # only rewrite docs/agents.md
    python tools/bench_agents.py --jobs 8                          # 8 games at a time
    python tools/bench_agents.py --games 30 --first-seed 1000 --out /tmp/tune.md  # a tuning run

Every finished game is appended to the results file at once, so a long run can be stopped and
resumed. The report (the part of docs/agents.md between the two `measured by` markers) is\nrewritten after every round of games.
"""
from __future__ import annotations

import argparse
import json
import math
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.agents import parse_agents  # noqa: E402
from interpreter.game import Game  # noqa: E402
from interpreter.runner import play_game  # noqa: E402

GAMES = ["chicago_dry", "dogs_day", "chicago_poker", "dice_town", "between_two_cities"]
Z95 = 1.959964
START = "<!-- measured by tools/bench_agents.py: start -->"
END = "<!-- measured by tools/bench_agents.py: end -->"


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (successes may be fractional: shared wins)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


class Timed:
    """Wraps an agent: counts its decisions and the CPU time it spends choosing."""

    def __init__(self, agent):
        self.agent = agent
        self.decisions = 0
        self.seconds = 0.0

    def choose(self, state, player):
        start = time.process_time()
        choice = self.agent.choose(state, player)
        self.seconds += time.process_time() - start
        self.decisions += 1
        return choice


def play_one(game: Game, players: int, seed: int, tested: str, opponent: str) -> dict:
    seat = seed % players
    specs = [tested if i == seat else opponent for i in range(players)]
    agents = [Timed(parse_agents(s)[0].build(seed, i)) for i, s in enumerate(specs)]
    played = play_game(game, players, {}, seed, agents, logging=False)
    winners = played.state.winners()
    others = [a for i, a in enumerate(agents) if i != seat]
    return {
        "seed": seed, "seat": seat, "players": players, "winners": winners,
        "share": (1.0 / len(winners)) if seat in winners else 0.0,
        "decisions": played.state.decisions,
        "tested_decisions": agents[seat].decisions, "tested_seconds": agents[seat].seconds,
        "opponent_decisions": sum(a.decisions for a in others),
        "opponent_seconds": sum(a.seconds for a in others),
    }


def pairing_key(game: str, tested: str, opponent: str) -> str:
    return f"{game} | {tested} | {opponent}"


def load_results(path: Path) -> dict:
    results: dict = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line cut short when a run was stopped: that game is played again
            results.setdefault(row["pairing"], {})[row["seed"]] = row
    return results


def summary(rows: list) -> dict:
    n = len(rows)
    share = sum(r["share"] for r in rows)
    lo, hi = wilson(share, n)
    players = rows[0]["players"] if rows else 1
    td, ts = sum(r["tested_decisions"] for r in rows), sum(r["tested_seconds"] for r in rows)
    od, os_ = sum(r["opponent_decisions"] for r in rows), sum(r["opponent_seconds"] for r in rows)
    return {"games": n, "rate": share / n if n else 0.0, "lo": lo, "hi": hi, "even": 1 / players,
            "players": players, "tested_ms": 1000 * ts / td if td else 0.0,
            "opponent_ms": 1000 * os_ / od if od else 0.0,
            "decisions": sum(r["decisions"] for r in rows) / n if n else 0.0}


def verdict(s: dict) -> str:
    if s["lo"] > s["even"]:
        return "**stronger**"
    if s["hi"] < s["even"]:
        return "weaker"
    return "not separated"


def write_report(out: Path, results: dict, args) -> None:
    lines = [
        START,
        "",
        "Measured by `tools/bench_agents.py` (see docs/rule-format.md for `agents: evaluate:` and",
        "the agent kinds below). Each game is played at its default player count; one seat is",
        "IS-MCTS, every other seat the opponent; the IS-MCTS seat rotates over the seats; both",
        "pairings use the same seeds. A shared win counts 1/k. **Even** is the share an equally",
        "strong player would get (1 / players); IS-MCTS is **stronger** when the lower bound of",
        "its 95 % Wilson interval is above it. Time is CPU time per decision of that agent",
        "(decisions with one option included), on a machine shared with other jobs.",
        "",
        f"Settings of this run: budget `{args.budget}` iterations per decision, playouts cut after "
        f"`{args.depth}` decisions and judged by the evaluation, {args.games} games per pairing "
        f"asked. Python {platform.python_version()}.",
        "",
        "| game | players | IS-MCTS vs | games | IS-MCTS win share | 95 % interval | even | result "
        "| ms/decision IS-MCTS | ms/decision opponent | decisions/game |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for key in sorted(results, key=_order):
        game, tested, opponent = key.split(" | ")
        rows = list(results[key].values())
        if not rows:
            continue
        s = summary(rows)
        lines.append(
            f"| {game} | {s['players']} | `{opponent}` | {s['games']} | {s['rate']:.3f} | "
            f"{s['lo']:.3f}–{s['hi']:.3f} | {s['even']:.3f} | {verdict(s)} | {s['tested_ms']:.1f} | "
            f"{s['opponent_ms']:.1f} | {s['decisions']:.0f} |")
    lines += ["", f"IS-MCTS was `{_tested(args)}`. Reproduce with:", "",
              "```", f"python tools/bench_agents.py --games {args.games} --budget {args.budget} "
              f"--depth {args.depth}" + (f" --settings {args.settings}" if args.settings else ""),
              "```", ""]
    lines.append(END)
    section = "\n".join(lines)
    text = out.read_text(encoding="utf-8") if out.exists() else "# Agents\n\n" + START + END + "\n"
    if START in text and END in text:
        head, rest = text.split(START, 1)
        text = head + section + rest.split(END, 1)[1]
    else:
        text = text.rstrip() + "\n\n" + section + "\n"
    out.write_text(text, encoding="utf-8")


def _order(key: str) -> tuple:
    game, _, opponent = key.split(" | ")
    return (GAMES.index(game) if game in GAMES else 99, game, not opponent.startswith("random"))


def _tested(args) -> str:
    extra = "".join("," + part for part in args.settings.split(",") if part.strip())
    return f"ismcts:{args.budget},depth={args.depth}{extra}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=100, help="games per pairing (default 100)")
    ap.add_argument("--budget", type=int, default=200, help="iterations per decision for both searches")
    ap.add_argument("--depth", type=int, default=20, help="cut playouts after this many decisions")
    ap.add_argument("--settings", default="", help="more IS-MCTS settings, e.g. playout=greedy,eps=0.3")
    ap.add_argument("--first-seed", type=int, default=0,
                    help="seed of the first game (tuning runs use seeds the protocol does not)")
    ap.add_argument("--only", nargs="*", default=GAMES, help="games to run (ids under rules/)")
    ap.add_argument("--opponents", nargs="*", default=["random", "mcts"], choices=["random", "mcts"])
    ap.add_argument("--results", default="agents-results.jsonl", help="per-game results (appended)")
    ap.add_argument("--out", default=str(ROOT / "docs" / "agents.md"), help="the report to write")
    ap.add_argument("--jobs", type=int, default=1, help="games played in parallel (processes)")
    ap.add_argument("--report-only", action="store_true", help="only rewrite the report")
    args = ap.parse_args(argv)
    results_path = Path(args.results)
    results = load_results(results_path)
    tested = _tested(args)
    if not args.report_only:
        tasks = _tasks(args, results, tested)
        print(f"{len(tasks)} games to play", file=sys.stderr, flush=True)
        with _pool(args.jobs) as pool:
            for n, row in enumerate(pool.imap_unordered(_play_task, tasks), 1):
                done = results.setdefault(row["pairing"], {})
                done[row["seed"]] = row
                with results_path.open("a", encoding="utf-8") as f:
                    f.write(json.dumps(row) + "\n")
                s = summary(list(done.values()))
                print(f"{row['pairing']}: {s['games']} games, share {s['rate']:.3f} "
                      f"[{s['lo']:.3f}, {s['hi']:.3f}], {s['tested_ms']:.1f} ms/decision",
                      file=sys.stderr, flush=True)
                if n % 10 == 0:
                    write_report(Path(args.out), _mine(results, tested), args)
    write_report(Path(args.out), _mine(results, tested), args)
    return 0


def _tasks(args, results: dict, tested: str) -> list:
    """Games still to play, round-robin over pairings so a stopped run covers them evenly."""
    tasks = []
    for seed in range(args.first_seed, args.first_seed + args.games):
        for name in args.only:
            for opp in args.opponents:
                opponent = "random" if opp == "random" else f"mcts:{args.budget},depth={args.depth}"
                if seed not in results.get(pairing_key(name, tested, opponent), {}):
                    tasks.append((name, seed, tested, opponent))
    return tasks


_GAMES: dict = {}


def _play_task(task: tuple) -> dict:
    name, seed, tested, opponent = task
    if name not in _GAMES:
        _GAMES[name] = Game.load(ROOT / "rules" / name / "game.yaml")
    game = _GAMES[name]
    row = play_one(game, game.default_players, seed, tested, opponent)
    row["pairing"] = pairing_key(name, tested, opponent)
    return row


class _Serial:
    """A pool of one: plays in this process (no start-up cost, simpler tracebacks)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def imap_unordered(self, fn, items):
        return map(fn, items)


def _pool(jobs: int):
    if jobs <= 1:
        return _Serial()
    import multiprocessing
    return multiprocessing.get_context("spawn").Pool(jobs)


def _mine(results: dict, tested: str) -> dict:
    """The pairings of this IS-MCTS setting (a results file may hold several)."""
    return {k: v for k, v in results.items() if k.split(" | ")[1] == tested}


if __name__ == "__main__":
    sys.exit(main())
