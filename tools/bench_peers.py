#!/usr/bin/env python3
"""Random games per second: this project's rule files beside OpenSpiel, in one run.

Four classic games (tic-tac-toe, Kuhn poker, Goofspiel with 13 cards, Liar's Dice with one die
each) are played with uniformly random moves until they end, for a fixed wall-clock budget per
cell, by:

* ``rulebook``: our generic interpreter playing ``rules/<game>/game.yaml`` (as ``rulebook
  simulate`` does: the game log is switched off after setup; chance comes from the in-state seeded
  generator: shuffles and dice rolls written in the rule file);
* ``rulebook_log``: the same with the game log on (as ``rulebook play`` does);
* ``rulebook_transpiled``: the same rule file as one generated plain-Python program
  (interpreter/transpile/, as ``rulebook simulate`` runs it with random agents) where the
  generator covers it; the same games as ``rulebook`` (same seeds, same draws);
* ``openspiel_cpp``: OpenSpiel's C++ game through ``pyspiel`` (driven from a Python loop);
* ``openspiel_python``: OpenSpiel's pure-Python game (``python_<name>``) where one ships.

The OpenSpiel columns come from the peer registry of ``tools/bench_peers_openspiel.py`` (chance
nodes sampled by probability, decisions and each player's simultaneous move uniformly with
``random.Random(seed)``). All cells are measured in the same process, round-robin, ``--repeat``
times; the table shows the median of the rounds. By default the budget and the rate use this
process's CPU time (``--clock cpu``), so that other work on a shared machine does not count;
``--clock wall`` uses elapsed time.

With ``--base DIR`` (a checkout of an older engine, e.g. ``git worktree add /tmp/base <commit>``)
a column ``rulebook_base`` plays the same rule files with that engine, in a worker process that
gets its turn in the same round-robin and reports its own clock.

Usage:
    python tools/bench_peers.py [--seconds 2] [--repeat 3] [--clock cpu|wall] [--games ...] [--json]
    python tools/bench_peers.py --base /tmp/base --seconds 1 --repeat 3 --games kuhn_poker tic_tac_toe
    python tools/bench_peers.py --profile kuhn_poker [--profile-games 3000] [--top 20]
"""
from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import random
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Optional

TOOLS = Path(__file__).resolve().parent
ROOT = TOOLS.parent
ENGINE = Path(os.environ.get("BENCH_PEERS_ENGINE", ROOT))  # a --base worker: the older checkout
sys.path.insert(0, str(ENGINE))
sys.path.insert(0, str(TOOLS))

from bench_peers_openspiel import (GAMES, PEERS as OPENSPIEL_PEERS, Peer, PlayOne,  # noqa: E402
                                   _pyspiel, machine_info)

from interpreter.game import Game  # noqa: E402

RULES = {game: ENGINE / "rules" / game / "game.yaml" for game in GAMES}


def rulebook_player(game: Game, logging: bool) -> PlayOne:
    """A ``play_one(seed)``: set up a new game with that seed, random moves until it ends."""

    def play_one(seed: int) -> None:
        rng = random.Random(seed)
        state = game.new_game(2, None, seed)
        state.logging = logging
        while not state.over:
            for p in state.current_players():
                state.apply(p, rng.randrange(len(state.legal_actions(p))))
                if state.over:
                    break
        state.returns()

    return play_one


def make_rulebook(logging: bool) -> Callable[[str], Optional[PlayOne]]:
    def make(game_name: str) -> Optional[PlayOne]:
        path = RULES.get(game_name)
        if path is None or not path.exists():
            return None
        return rulebook_player(Game.load(path), logging)
    return make


def make_transpiled(game_name: str) -> Optional[PlayOne]:
    """rulebook_player's games played by the rule file's generated program (None if the
    generator does not cover it)."""
    path = RULES.get(game_name)
    if path is None or not path.exists():
        return None
    try:
        from interpreter.transpile import Unsupported, load_program
    except ImportError:  # an engine from before the generator
        return None
    try:
        play = load_program(path, 2, Game.load(path).resolve_options({}))
    except Unsupported:
        return None

    def play_one(seed: int) -> None:
        randrange = random.Random(seed).randrange
        agent = lambda options: randrange(len(options))  # noqa: E731
        play(seed, [agent, agent])
    return play_one


PEERS: list[Peer] = [
    Peer("rulebook", make_rulebook(logging=False)),
    Peer("rulebook_log", make_rulebook(logging=True)),
    Peer("rulebook_transpiled", make_transpiled),
    *OPENSPIEL_PEERS,
]


CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def base_peer(base: Path, clock: str) -> Peer:
    """``rulebook`` played by the engine of the checkout `base`, in a worker process: its
    ``play_one`` is a stand-in that the round-robin recognises (see ``measure``)."""
    env = dict(os.environ, BENCH_PEERS_ENGINE=str(base.resolve()))
    proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--worker", "--clock", clock],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=str(base))

    def make(game_name: str) -> Optional[PlayOne]:
        def remote(seconds: float) -> float:
            proc.stdin.write(json.dumps({"game": game_name, "seconds": seconds}) + "\n")
            proc.stdin.flush()
            return float(json.loads(proc.stdout.readline())["rate"])
        remote.remote = True  # type: ignore[attr-defined]
        return remote
    return Peer("rulebook_base", make)


def serve(clock: str) -> None:
    """The --base worker: one JSON task a line ({"game", "seconds"}), one rate a line back."""
    players: dict = {}
    for line in sys.stdin:
        task = json.loads(line)
        if task["game"] not in players:
            players[task["game"]] = make_rulebook(logging=False)(task["game"])
        print(json.dumps({"rate": bench(players[task["game"]], task["seconds"], clock)}), flush=True)


def bench(play_one: PlayOne, seconds: float, clock: str = "cpu") -> float:
    """Call ``play_one(seed)`` with seeds 0, 1, ... for ``seconds`` of the clock; games/s.

    ``cpu`` counts this process's CPU time (robust on a shared machine: time spent waiting for
    the CPU is not counted); ``wall`` is elapsed time (as tools/bench_peers_openspiel.py).
    """
    now = CLOCKS[clock]
    play_one(-1)  # warm-up (lazy imports, caches); not timed
    games = 0
    start = now()
    deadline = start + seconds
    while True:
        play_one(games)
        games += 1
        t = now()
        if t >= deadline:
            return games / (t - start)


def measure(play_one: Any, seconds: float, clock: str) -> float:
    """games/s of one cell: here, or in the --base worker."""
    if getattr(play_one, "remote", False):
        return play_one(seconds)
    return bench(play_one, seconds, clock)


def sample_rounds(games: list[str], peers: list[Peer], seconds: float, repeat: int,
                  clock: str = "cpu") -> dict[tuple, list]:
    """games/s of every (game, peer name) in each of `repeat` round-robin rounds."""
    players = {(g, p.name): p.make(g) for g in games for p in peers}
    samples: dict[tuple, list] = {key: [] for key in players}
    for _ in range(repeat):
        for key, play_one in players.items():
            if play_one is not None:
                samples[key].append(measure(play_one, seconds, clock))
    return samples


def medians(samples: dict[tuple, list], games: list[str], peers: list[Peer]) -> dict[str, dict[str, Optional[float]]]:
    return {g: {p.name: (statistics.median(samples[(g, p.name)]) if samples[(g, p.name)] else None)
                for p in peers} for g in games}


def run_rounds(games: list[str], peers: list[Peer], seconds: float, repeat: int,
               clock: str = "cpu") -> dict[str, dict[str, Optional[float]]]:
    """Median games/s over `repeat` round-robin rounds, for every (game, peer)."""
    return medians(sample_rounds(games, peers, seconds, repeat, clock), games, peers)


def _ratio(a: Optional[float], b: Optional[float], per_round: tuple = ((), ())) -> str:
    """a ÷ b, and with `per_round` (both cells' rates round by round) the range of the rounds'
    ratios: on a shared machine one median hides how far the rounds spread."""
    if a is None or b is None:
        return "—"
    text = f"{a / b:.2f}"
    pairs = list(zip(*per_round))
    if len(pairs) > 1:
        ratios = [x / y for x, y in pairs]
        text += f" ({min(ratios):.2f}–{max(ratios):.2f})"
    return text


def format_table(results: dict, peers: list[Peer], samples: dict | None = None) -> str:
    """Median games/s per cell; ratios of medians, with the per-round range when `samples`."""
    names = [p.name for p in peers]
    ratios = [("rulebook", "openspiel_python"), ("rulebook", "openspiel_cpp"),  # (numerator, denominator)
              ("rulebook_transpiled", "openspiel_python"), ("rulebook_transpiled", "openspiel_cpp")]
    if "rulebook_base" in names:
        ratios = [("rulebook", "rulebook_base"), *ratios,
                  ("rulebook_base", "openspiel_python"), ("rulebook_base", "openspiel_cpp")]
    title = {"rulebook": "rulebook", "rulebook_base": "base", "rulebook_transpiled": "transpiled", "openspiel_python": "OpenSpiel Python",
             "openspiel_cpp": "OpenSpiel C++"}
    header = ("| game | " + " | ".join(f"{n} (games/s)" for n in names) + " | "
              + " | ".join(f"{title[a]} ÷ {title[b]}" for a, b in ratios) + " |")
    rule = "|" + " --- |" * (len(names) + len(ratios) + 1)
    rows = []
    for game, row in results.items():
        cells = ["—" if row[n] is None else f"{row[n]:,.0f}" for n in names]
        cells += [_ratio(row.get(a), row.get(b),
                         (samples.get((game, a), ()), samples.get((game, b), ())) if samples else ((), ()))
                  for a, b in ratios]
        rows.append(f"| {game} | " + " | ".join(cells) + " |")
    return "\n".join([header, rule, *rows])


def profile(game_name: str, games: int, top: int) -> str:
    """cProfile of our random playouts of one game: own time by module, then top functions."""
    play_one = make_rulebook(logging=False)(game_name)
    play_one(-1)
    prof = cProfile.Profile()
    prof.enable()
    for seed in range(games):
        play_one(seed)
    prof.disable()
    stats = pstats.Stats(prof)
    total = sum(row[2] for row in stats.stats.values())  # own time of every function
    calls = sum(row[1] for row in stats.stats.values())  # every call, recursive ones included
    by_module: dict[str, float] = {}
    for (filename, _line, _name), row in stats.stats.items():
        path = Path(filename)
        module = (f"interpreter/{path.relative_to(ROOT / 'interpreter')}"
                  if ROOT / "interpreter" in path.parents else
                  "builtins (C)" if filename.startswith("~") else
                  "rule expressions (generated by codegen.py)" if filename.startswith("<") and
                  ".yaml:" in filename else
                  "benchmark loop + random" if path.name in ("bench_peers.py", "random.py") else path.name)
        by_module[module] = by_module.get(module, 0.0) + row[2]
    lines = [f"{game_name}: {games} random games, {total:.3f} s own time under cProfile, "
             f"{calls / games:.1f} calls per game (the benchmark's own loop and Random included)", "",
             "| module | share of own time |", "| --- | --- |"]
    for module, t in sorted(by_module.items(), key=lambda kv: -kv[1])[:12]:
        lines.append(f"| {module} | {100 * t / total:.1f} % |")
    out = io.StringIO()
    pstats.Stats(prof, stream=out).strip_dirs().sort_stats("tottime").print_stats(top)
    return "\n".join(lines) + "\n\n" + out.getvalue()


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="wall-clock budget per cell and round")
    parser.add_argument("--repeat", type=int, default=3, help="round-robin rounds (median reported)")
    parser.add_argument("--games", nargs="+", choices=sorted(GAMES), default=list(GAMES))
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu",
                        help="cpu: process CPU time (default, robust on a shared machine); wall: elapsed")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--base", type=Path, help="a checkout of an older engine: adds a rulebook_base column")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--profile", choices=sorted(GAMES), help="profile our playouts of one game instead")
    parser.add_argument("--profile-games", type=int, default=2000)
    parser.add_argument("--top", type=int, default=20)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.worker:
        serve(args.clock)
        return 0
    if args.profile:
        print(profile(args.profile, args.profile_games, args.top))
        return 0
    if _pyspiel() is None:
        print("open_spiel is not installed (pip install open_spiel): OpenSpiel columns are empty",
              file=sys.stderr)
    peers = PEERS if args.base is None else [PEERS[0], base_peer(args.base, args.clock), *PEERS[1:]]
    samples = sample_rounds(args.games, peers, args.seconds, args.repeat, args.clock)
    results = medians(samples, args.games, peers)
    info = machine_info()
    if args.json:
        print(json.dumps({"machine": info, "seconds": args.seconds, "repeat": args.repeat,
                          "clock": args.clock, "results": results,
                          "rounds": {f"{g} {name}": rates for (g, name), rates in samples.items()}}, indent=2))
    else:
        print(f"# {info} — {args.seconds:g} s of {args.clock} time per cell, median of {args.repeat} rounds "
              "(ratios: of the medians, and in brackets the range of the rounds' ratios)")
        print(format_table(results, peers, samples))
    return 0


if __name__ == "__main__":
    sys.exit(main())
