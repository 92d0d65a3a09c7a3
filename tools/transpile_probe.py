#!/usr/bin/env python3
"""Checks and measures interpreter/transpile/ (issue #12): the generated program of a rule file
against the engine (same games?) and against hand-written Python and OpenSpiel (how fast?).

Usage:
    python tools/transpile_probe.py --source tic_tac_toe          # print the generated program
    python tools/transpile_probe.py --check 2000 [--games ...]       # same games as the engine?
    python tools/transpile_probe.py --bench --seconds 1 --repeat 5  # games/s, alternating, CPU time
    python tools/transpile_probe.py --poker-check 300               # Chicago Poker: the engine's games?
    python tools/transpile_probe.py --poker-bench 6                 # µs/decision beside hand-written
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path
from typing import Any, Callable

TOOLS = Path(__file__).resolve().parent
ROOT = TOOLS.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(TOOLS))

from interpreter.rng import Rng  # noqa: E402

from interpreter.transpile import load_program, transpile  # noqa: E402

GAMES = ("tic_tac_toe", "kuhn_poker")


# ------------------------------------------------------------------ checking and measuring
_MOVES = ("pass", "bet")
_LINES_THROUGH = [[(0, 1, 2), (0, 3, 6), (0, 4, 8)], [(0, 1, 2), (1, 4, 7)], [(0, 1, 2), (2, 5, 8), (2, 4, 6)],
                  [(3, 4, 5), (0, 3, 6)], [(3, 4, 5), (1, 4, 7), (0, 4, 8), (2, 4, 6)], [(3, 4, 5), (2, 5, 8)],
                  [(6, 7, 8), (0, 3, 6), (2, 4, 6)], [(6, 7, 8), (1, 4, 7)], [(6, 7, 8), (2, 5, 8), (0, 4, 8)]]


def handwritten_tic_tac_toe(seed: int, agents: list) -> tuple[list, list]:
    """A reference written by hand, as a programmer would: the same games as the rule file."""
    board, empty, history = [0] * 9, list(range(9)), []
    while True:
        for p in (0, 1):
            i = agents[p](empty)
            history.append([p, i])
            c = empty.pop(i)
            board[c] = p + 1
            if len(empty) <= 4 and any(board[a] == board[b] == board[d] for a, b, d in _LINES_THROUGH[c]):
                return ([1, -1] if p == 0 else [-1, 1]), history
            if not empty:
                return [0, 0], history


def handwritten_kuhn_poker(seed: int, agents: list) -> tuple[list, list]:
    """Kuhn poker by hand, dealing with the engine's Rng as the rule file does."""
    deck = [0, 1, 2]
    Rng(seed).shuffle(deck)
    stake, history, p, bets, passes = [1, 1], [], 0, 0, 0
    while True:
        i = agents[p](_MOVES)
        history.append([p, i])
        if i == 1:
            stake[p] += 1
            bets += 1
            if bets == 2:
                break
        elif bets == 1:
            return ([-stake[0], stake[0]] if p == 0 else [stake[1], -stake[1]]), history
        else:
            passes += 1
            if passes == 2:
                break
        p = 1 - p
    w = 0 if deck[0] > deck[1] else 1
    return [stake[1 - w] if q == w else -stake[q] for q in (0, 1)], history


HANDWRITTEN = {"tic_tac_toe": handwritten_tic_tac_toe, "kuhn_poker": handwritten_kuhn_poker}


def rule_file(game: str) -> Path:
    return ROOT / "rules" / game / "game.yaml"


def engine_game(game: Any, seed: int) -> tuple[list, list, list]:
    """(returns, history, options offered) of one engine game with random agents
    (tools/bench_peers.py's rulebook_player)."""
    from interpreter.threads import waiting
    rng = random.Random(seed)
    S = game.new_game(2, None, seed)
    offered = []
    while not S.over:
        for p in S.current_players():
            offered.append(list(waiting(S)[p].pending.options))
            S.apply(p, rng.randrange(len(S.legal_actions(p))))
            if S.over:
                break
    return S.returns(), [list(h) for h in S.history], offered


def transpiled_game(play: Callable, seed: int) -> tuple[list, list, list]:
    rng = random.Random(seed)
    offered = []

    def agent(options: list) -> int:
        offered.append(list(options))
        return rng.randrange(len(options))

    returns, history = play(seed, [agent, agent])[:2]
    return returns, history, offered


POKER = "chicago_poker"
POKER_PLAYERS, POKER_OPTIONS = 4, {"no_special_cards": True}


def engine_poker_game(game: Any, seed: int, logging: bool = True) -> tuple[list, list, list]:
    """(returns, history, options offered) of one engine Chicago Poker game, no special cards, 4
    players, with tools/bench_speed.py's agents: seat p draws `int(rngs[p].random() * count)`."""
    from interpreter.threads import waiting
    rngs = [random.Random(seed * 31 + i) for i in range(POKER_PLAYERS)]
    S = game.new_game(POKER_PLAYERS, POKER_OPTIONS, seed, logging=logging)
    offered = []
    while not S.over:
        p = S.current_players()[0]
        offered.append(list(waiting(S)[p].pending.options))
        S.apply(p, int(rngs[p].random() * S.option_count(p)))
    return S.returns(), [list(h) for h in S.history], offered


def seat_agents(seed: int, offered: list | None = None) -> list[Callable]:
    """bench_speed's agents for a generated program, each recording what it is offered."""
    rngs = [random.Random(seed * 31 + i) for i in range(POKER_PLAYERS)]

    def agent_of(r: random.Random) -> Callable:
        def agent(options: list) -> int:
            if offered is not None:
                offered.append(list(options))
            return int(r.random() * len(options))
        return agent
    return [agent_of(r) for r in rngs]


def transpiled_poker_game(play: Callable, seed: int) -> tuple[list, list, list]:
    offered: list = []
    returns, history = play(seed, seat_agents(seed, offered))[:2]
    return returns, history, offered


def load_poker() -> Callable:
    return load_program(rule_file(POKER), POKER_PLAYERS, POKER_OPTIONS)


def check_poker(seeds: int) -> int:
    """How many of `seeds` Chicago Poker games differ between the engine and the program."""
    from interpreter.game import Game
    game, play = Game.load(rule_file(POKER)), load_poker()
    bad = 0
    for seed in range(seeds):
        engine, transpiled = engine_poker_game(game, seed), transpiled_poker_game(play, seed)
        if engine != transpiled:
            bad += 1
            if bad <= 3:
                first = next((i for i, (a, b) in enumerate(zip(engine[2], transpiled[2])) if a != b), None)
                print(f"{POKER} seed {seed}: returns {engine[0]} / {transpiled[0]}, decisions "
                      f"{len(engine[1])} / {len(transpiled[1])}, first different options at {first}")
    return bad


def bench_poker(rounds: int, games: int) -> dict:
    """CPU µs per decision of the generated program, the engine (as tools/bench_speed.py runs it:
    logging off, apply_unchecked) and tools/handwritten_poker.py, alternating in this process,
    the order turned each round; the same seeds and agents for all three."""
    import time

    from handwritten_poker import play_games

    from interpreter.game import Game
    from interpreter.state import State
    game, play = Game.load(rule_file(POKER)), load_poker()

    def transpiled(seeds: range) -> int:
        decisions = 0
        for seed in seeds:
            rngs = [random.Random(seed * 31 + i) for i in range(POKER_PLAYERS)]
            agents = [lambda options, r=r: int(r.random() * len(options)) for r in rngs]
            decisions += len(play(seed, agents)[1])
        return decisions

    def engine(seeds: range) -> int:
        decisions = 0
        for seed in seeds:
            S = game.new_game(POKER_PLAYERS, POKER_OPTIONS, seed, logging=False)
            rngs = [random.Random(seed * 31 + i) for i in range(POKER_PLAYERS)]
            while not S.over:
                p = S.current_players()[0]
                State.apply_unchecked(S, p, int(rngs[p].random() * S.option_count(p)))
            decisions += S.decisions
        return decisions

    runs = {"transpiled": transpiled, "engine": engine, "handwritten": lambda seeds: play_games(4, seeds)}
    cpu, dec = dict.fromkeys(runs, 0.0), dict.fromkeys(runs, 0)
    for r in range(rounds):
        seeds = range(r * games, (r + 1) * games)
        order = list(runs)[r % 3:] + list(runs)[:r % 3]
        for k in order:
            t = time.process_time()
            dec[k] += runs[k](seeds)
            cpu[k] += time.process_time() - t
    us = {k: cpu[k] / dec[k] * 1e6 for k in runs}
    return {"us": us, "decisions_per_game": {k: dec[k] / (rounds * games) for k in runs}}


def check(game_name: str, seeds: int) -> int:
    """How many of `seeds` games differ between the engine and the generated program."""
    from interpreter.game import Game
    game, play = Game.load(rule_file(game_name)), load_program(rule_file(game_name))
    bad = 0
    for seed in range(seeds):
        if engine_game(game, seed)[:2] != transpiled_game(HANDWRITTEN[game_name], seed)[:2]:
            raise AssertionError(f"the hand-written {game_name} differs from the engine on seed {seed}")
        if engine_game(game, seed) != transpiled_game(play, seed):
            bad += 1
            if bad <= 3:
                print(f"{game_name} seed {seed}: engine {engine_game(game, seed)} "
                      f"transpiled {transpiled_game(play, seed)}")
    return bad


def program_player(play: Callable) -> Callable[[int], None]:
    """``play_one(seed)`` of a program ``play(seed, agents)``: random agents as bench_peers'."""

    def play_one(seed: int) -> None:
        rng = random.Random(seed)

        def agent(options: list) -> int:
            return rng.randrange(len(options))
        play(seed, (agent, agent))
    return play_one


def bench_all(games: list[str], seconds: float, repeat: int) -> str:
    from bench_peers import bench, make_rulebook
    from bench_peers_openspiel import make_openspiel_cpp, make_openspiel_python
    makers = {"transpiled": lambda g: program_player(load_program(rule_file(g))),
              "handwritten": lambda g: program_player(HANDWRITTEN[g]), "engine": make_rulebook(logging=False),
              "openspiel_cpp": make_openspiel_cpp, "openspiel_python": make_openspiel_python}
    rows = []
    for g in games:
        players = {k: make(g) for k, make in makers.items()}
        samples: dict = {k: [] for k, p in players.items() if p is not None}
        for _ in range(repeat):  # alternating, one process, CPU time
            for k in samples:
                samples[k].append(bench(players[k], seconds, "cpu"))
        rate = {k: statistics.median(v) for k, v in samples.items()}
        cells = [f"{rate.get(k, 0):,.0f}" if k in rate else "—" for k in makers]
        ratios = [f"{rate['transpiled'] / rate[k]:.2f}" if k in rate else "—"
                  for k in ("engine", "handwritten", "openspiel_python", "openspiel_cpp")]
        rows.append(f"| {g} | " + " | ".join(cells + ratios) + " |")
    head = ("| game | " + " | ".join(f"{k} (games/s)" for k in makers)
            + " | transpiled ÷ engine | ÷ handwritten | ÷ OpenSpiel Python | ÷ OpenSpiel C++ |")
    return "\n".join([head, "|" + " --- |" * 10, *rows])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", choices=GAMES, default=list(GAMES))
    parser.add_argument("--source", choices=GAMES, help="print the generated program of one game")
    parser.add_argument("--check", type=int, metavar="SEEDS", help="compare with the engine on seeds 0…SEEDS-1")
    parser.add_argument("--bench", action="store_true", help="games/s beside the engine and OpenSpiel")
    parser.add_argument("--poker-check", type=int, metavar="SEEDS",
                        help="Chicago Poker (no special cards, 4 players) against the engine on seeds 0…SEEDS-1")
    parser.add_argument("--poker-bench", type=int, metavar="ROUNDS",
                        help="µs per decision: generated Chicago Poker, engine, tools/handwritten_poker.py")
    parser.add_argument("--poker-games", type=int, default=20, help="games per round of --poker-bench")
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    if args.source:
        print(transpile(rule_file(args.source)))
    status = 0
    if args.check:
        for g in args.games:
            bad = check(g, args.check)
            print(f"{g}: {args.check - bad}/{args.check} games identical (history, options offered, returns)")
            status |= bad != 0
    if args.poker_check:
        bad = check_poker(args.poker_check)
        print(f"{POKER}: {args.poker_check - bad}/{args.poker_check} games identical "
              "(history, options offered, returns)")
        status |= bad != 0
    if args.poker_bench:
        res = bench_poker(args.poker_bench, args.poker_games)
        us, per_game = res["us"], res["decisions_per_game"]
        print(" | ".join(f"{k} {us[k]:.2f} µs/decision ({per_game[k]:.0f}/game)" for k in us))
        print(f"transpiled ÷ hand-written {us['transpiled'] / us['handwritten']:.2f}×, "
              f"engine ÷ hand-written {us['engine'] / us['handwritten']:.2f}×, "
              f"engine ÷ transpiled {us['engine'] / us['transpiled']:.2f}×")
    if args.bench:
        print(bench_all(args.games, args.seconds, args.repeat))
    return status


if __name__ == "__main__":
    sys.exit(main())
