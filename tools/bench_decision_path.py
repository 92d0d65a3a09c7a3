#!/usr/bin/env python3
"""How much of a decision is the path AROUND the rule code? A ceiling, not a feature.

Plays a game twice, alternately, with the same seeds and the same random agents (CPU time):

* ``engine``: what an agent calls (``current_players()[0]``, ``option_count``, ``apply_unchecked``:
  decisions.take → vm.run → vm.run_thread → the rule code);
* ``stripped``: the same rule code reached by the shortest path this engine could have: the
  decider index read directly, no forward-model method calls, no log/multiple-choice/budget
  bookkeeping beyond what the game needs, vm.run_thread called directly.

engine ÷ stripped bounds what ANY rework of the path from "agent picks option i" to "next decision
pending" can gain; the rest of a decision is the rule code, its builtins and its options. The
stripped form reaches into vm.py's internals (it is a measurement) and checks that both forms
end every game with the same history.

Usage:
    python tools/bench_decision_path.py [--rounds 8] [--scale 1.0]
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter import vm  # noqa: E402
from interpreter.budget import METER  # noqa: E402
from interpreter.game import Game  # noqa: E402
from interpreter.options import PASS  # noqa: E402
from interpreter.threads import waiting  # noqa: E402
from interpreter.values import SEAT  # noqa: E402

GAMES = [("rules/tic_tac_toe/game.yaml", 2, {}, 1500), ("rules/kuhn_poker/game.yaml", 2, {}, 3000),
         ("rules/chicago_poker/game.yaml", 4, {"no_special_cards": True}, 8)]


def stripped_apply(S, player: int, index: int) -> None:
    """decisions.take + vm.run for a plain single pick, without their generality."""
    th = S.deciders[player]
    pend = th.pending
    value = pend.options[index]
    S.history.append([SEAT[pend.player], index])
    S.decisions += 1
    th.frames[-1].L[pend.var] = None if value == PASS else value
    th.pending = None
    th.status = "run"
    S.steps = 0
    METER.work, METER.limits, METER.nest = 0, S.game.limits, 0
    sig = vm.run_thread(S, th, 0)
    if sig == vm.SUSPEND and len(S.threads) == 1:
        th.status = "choose"
        S.deciders = {SEAT[th.pending.player]: th}
        return
    if sig == vm.SUSPEND:
        th.status = "choose"
    elif sig == vm.WAIT:
        th.status = "wait"
    elif sig == vm.END:
        vm.finish_game(S)
    else:
        vm._thread_done(S, th)
    vm.run(S)  # the uncommon cases: several threads, the end of the game (budget restarts: a measurement)


def play(game, n: int, opts: dict, seeds: range, stripped: bool) -> list:
    histories = []
    for seed in seeds:
        S = game.new_game(n, opts, seed, logging=False)
        rngs = [random.Random(seed * 31 + i) for i in range(n)]
        if stripped:
            while not S.over:
                d = S.deciders or waiting(S)
                p = next(iter(d)) if len(d) == 1 else min(d)
                stripped_apply(S, p, int(rngs[p].random() * len(d[p].pending.options)))
        else:
            while not S.over:
                p = S.current_players()[0]
                S.apply_unchecked(p, int(rngs[p].random() * S.option_count(p)))
        histories.append(S.history)
    return histories


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--scale", type=float, default=1.0, help="multiply the games per round")
    args = ap.parse_args(argv)
    for path, n, opts, count in GAMES:
        game = Game.load(ROOT / path)
        count = max(1, int(count * args.scale))
        if play(game, n, opts, range(count), False) != play(game, n, opts, range(count), True):
            print(f"{path}: the two forms played different games")
            return 1
        cpu = [0.0, 0.0]
        for r in range(args.rounds):
            for form in ((False, True) if r % 2 == 0 else (True, False)):
                t = time.process_time()
                play(game, n, opts, range(r * count, (r + 1) * count), form)
                cpu[form] += time.process_time() - t
        print(f"{path}: engine ÷ stripped = {cpu[0] / cpu[1]:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
