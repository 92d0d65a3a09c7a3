#!/usr/bin/env python3
"""Could flat MCTS playouts use generated programs? (issue 12, stop 26; measured, not wired.)

A generated program cannot start from a mid-game State: it plays from the seed. So a playout
from decision d would replay the game's first d decisions (the agents hand back the recorded
indices), then play at random to the end. This compares, per playout, at early / mid / late
positions of Chicago Poker without special cards (4 players):

  * engine: `S.clone()` of the position, then agents/playout.py's RandomPlayout to the end;
  * program: `play(seed, agents)` replaying the d decisions, then random to the end.

CPU time in this process, the two alternating per position; same games (the replay reaches the
engine's position: checked). Perfect information only: the replay uses the true seed, so an
information-set search would need a determinised seed the program could start from.

    python tools/bench_transpiled_replay.py [--games 8] [--playouts 20]
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

POKER = ROOT / "rules" / "chicago_poker" / "game.yaml"
POSITIONS = {"early (10 %)": 0.1, "mid (50 %)": 0.5, "late (90 %)": 0.9}


def replaying(prefix: list, draw) -> object:
    """One agent for every seat: the recorded indices first (the program asks in the engine's
    order), then uniformly random."""
    at = [0]

    def agent(options: list) -> int:
        i = at[0]
        if i < len(prefix):
            at[0] = i + 1
            return prefix[i]
        return int(draw() * len(options))
    return agent


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--playouts", type=int, default=20, help="playouts per position and form")
    args = ap.parse_args()

    from interpreter.agents.playout import RandomPlayout
    from interpreter.game import Game
    from interpreter.transpile import load_program

    game = Game.load(POKER)
    opts = game.resolve_options({"no_special_cards": True})
    play = load_program(POKER, 4, opts)
    playout = RandomPlayout()
    cpu = {name: {"engine": 0.0, "program": 0.0, "n": 0, "d": 0} for name in POSITIONS}
    for seed in range(args.games):
        S = game.new_game(4, opts, seed, logging=False)
        rng = random.Random(seed)
        states = [S.clone()]
        while not S.over:
            p = S.current_players()[0]
            S.apply(p, int(rng.random() * S.option_count(p)))
            states.append(S.clone())
        history = [h[1] for h in S.history]
        for k, (name, share) in enumerate(POSITIONS.items()):
            d = int(share * len(history))
            position = states[d]
            probe: list = []
            agent = replaying(history[:d], random.Random(0).random)
            out = play(seed, [agent] * 4)
            probe = [list(h) for h in out[1][:d]]
            assert probe == [list(h) for h in S.history[:d]], "the replay left the engine's game"
            for form in (("engine", "program") if (seed + k) % 2 == 0 else ("program", "engine")):
                t = time.process_time()
                if form == "engine":
                    for i in range(args.playouts):
                        playout.run(position.clone(), random.Random(i))
                else:
                    for i in range(args.playouts):
                        agent = replaying(history[:d], random.Random(i).random)
                        play(seed, [agent] * 4)
                cpu[name][form] += time.process_time() - t
            cpu[name]["n"] += args.playouts
            cpu[name]["d"] += d
    print("| position (Chicago Poker, no special cards, 4p) | decisions replayed (mean) | engine clone + playout (ms) "
          "| program replay + playout (ms) | engine ÷ program |")
    print("|---|---:|---:|---:|---:|")
    for name, c in cpu.items():
        e, p = c["engine"] / c["n"] * 1e3, c["program"] / c["n"] * 1e3
        print(f"| {name} | {c['d'] / args.games:.0f} | {e:.2f} | {p:.2f} | {e / p:.2f}× |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
