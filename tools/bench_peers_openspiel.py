#!/usr/bin/env python3
"""Random-playout throughput of peer implementations (OpenSpiel C++ and Python).

For each game and each peer, plays complete games with uniformly random
actions (chance nodes sampled by their probabilities, simultaneous nodes by one
uniform action per player) for a fixed wall-clock budget, and reports games
per second.

Peers are a registry (:data:`PEERS`): each maps a game name to a
``play_one(seed)`` callable, or to None when it has no implementation of that
game. Adding our engine later is one more ``Peer`` entry; the table and JSON
grow a column automatically.

Usage:
    python tools/bench_peers_openspiel.py [--seconds 3] [--games kuhn_poker ...] [--json]
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import random
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable, Optional

PlayOne = Callable[[int], None]

GAMES: dict[str, dict[str, Any]] = {
    "tic_tac_toe": {},
    "kuhn_poker": {"players": 2},
    "goofspiel": {"num_cards": 13, "players": 2, "points_order": "random", "returns_type": "win_loss"},
    "liars_dice": {"players": 2, "numdice": 1, "dice_sides": 6},
}


@dataclass(frozen=True)
class Peer:
    """A column of the benchmark: ``make(game)`` gives ``play_one`` or None."""

    name: str
    make: Callable[[str], Optional[PlayOne]]


def bench(play_one: PlayOne, seconds: float) -> float:
    """Call ``play_one(seed)`` with seeds 0, 1, ... for ``seconds``; return games/s."""
    play_one(-1)  # warm-up (lazy imports, caches); not timed
    games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        play_one(games)
        games += 1
        now = time.perf_counter()
        if now >= deadline:
            return games / (now - start)


def _sample(rng: random.Random, outcomes: list[tuple[int, float]]) -> int:
    """Draw a chance outcome by probability."""
    threshold = rng.random()
    cumulative = 0.0
    for action, prob in outcomes:
        cumulative += prob
        if threshold < cumulative:
            return action
    return outcomes[-1][0]


def openspiel_player(game: Any) -> PlayOne:
    """A ``play_one(seed)`` that plays one random game of a loaded OpenSpiel game."""
    players = range(game.num_players())

    def play_one(seed: int) -> None:
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(_sample(rng, state.chance_outcomes()))
            elif state.is_simultaneous_node():
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in players])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        state.returns()

    return play_one


def _pyspiel() -> Any | None:
    """The ``pyspiel`` module, or None if OpenSpiel is not installed."""
    try:
        return importlib.import_module("pyspiel")
    except ImportError:
        return None


def make_openspiel_cpp(game_name: str) -> Optional[PlayOne]:
    """OpenSpiel's C++ game through the pyspiel bindings."""
    pyspiel = _pyspiel()
    if pyspiel is None:
        return None
    return openspiel_player(pyspiel.load_game(game_name, GAMES[game_name]))


def make_openspiel_python(game_name: str) -> Optional[PlayOne]:
    """OpenSpiel's pure-Python game (``python_<name>``) if the package ships one."""
    pyspiel = _pyspiel()
    if pyspiel is None:
        return None
    importlib.import_module("open_spiel.python.games")  # registers python_* games
    name = f"python_{game_name}"
    if name not in pyspiel.registered_names():
        return None
    return openspiel_player(pyspiel.load_game(name))


PEERS: list[Peer] = [
    Peer("openspiel_cpp", make_openspiel_cpp),
    Peer("openspiel_python", make_openspiel_python),
]


def run(games: list[str], peers: list[Peer], seconds: float) -> dict[str, dict[str, Optional[float]]]:
    """games/s for every (game, peer); None where a peer lacks the game."""
    results: dict[str, dict[str, Optional[float]]] = {}
    for game in games:
        results[game] = {}
        for peer in peers:
            play_one = peer.make(game)
            results[game][peer.name] = None if play_one is None else bench(play_one, seconds)
    return results


def _cpu_model() -> str | None:
    """The CPU model name from /proc/cpuinfo (Linux), if readable."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def machine_info() -> dict[str, Any]:
    """What the numbers were measured on."""
    try:
        version = importlib.import_module("importlib.metadata").version("open_spiel")
    except Exception:  # noqa: BLE001 - metadata lookup is best effort
        version = None
    return {
        "cpus": os.cpu_count(),
        "cpu_model": _cpu_model(),
        "machine": platform.machine(),
        "python": platform.python_version(),
        "open_spiel": version,
    }


def format_table(results: dict[str, dict[str, Optional[float]]], peers: list[Peer]) -> str:
    """A Markdown table: one row per game, one games/s column per peer."""
    header = "| game | " + " | ".join(f"{p.name} (games/s)" for p in peers) + " |"
    rule = "|" + " --- |" * (len(peers) + 1)
    rows = [
        "| " + game + " | "
        + " | ".join("—" if row[p.name] is None else f"{row[p.name]:,.0f}" for p in peers)
        + " |"
        for game, row in results.items()
    ]
    return "\n".join([header, rule, *rows])


def parse_args(argv: list[str]) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="wall-clock budget per game and peer")
    parser.add_argument("--games", nargs="+", choices=sorted(GAMES), default=list(GAMES))
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print a table or JSON."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if _pyspiel() is None:
        print("open_spiel is not installed (pip install open_spiel)", file=sys.stderr)
    results = run(args.games, PEERS, args.seconds)
    info = machine_info()
    if args.json:
        print(json.dumps({"machine": info, "seconds": args.seconds, "results": results}, indent=2))
    else:
        print(f"# {info} — {args.seconds:g} s per cell")
        print(format_table(results, PEERS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
