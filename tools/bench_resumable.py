#!/usr/bin/env python3
"""What would compiling a procedure that CAN stop the game to one resumable Python function buy?

A measurement for the design of the decision path (docs/benchmarks.md), not a feature. It plays
rules/tic_tac_toe/game.yaml twice, alternately, with the same seeds and the same random agent:

* ``engine``: the engine as it is (``State.apply``: decisions.take → vm.run → fused blocks, the
  turn procedure called through a VM frame at every turn);
* ``resumable``: the code a compiler COULD generate for the flow and the turn procedure together,
  written out by hand: ONE Python function resumed at the decision's program counter, the rule's
  locals (player, turn index, the chosen cell) Python locals between decisions and saved into a
  frame-like record only at the decision (so that clone and save would still work), the same
  state (``State``), the same compiled expression functions, builtins and counter checks of the
  game, the same ``Pending`` decision. Everything else the engine does at a decision (the step
  budget, history, the decider index) is done too.

Both must produce the same games: the script checks that the final marks, winner and history of
every game agree, then prints the CPU time per decision of each and their ratio.

Usage:
    python tools/bench_resumable.py [--games 3000] [--rounds 3]
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter.budget import METER  # noqa: E402
from interpreter.game import Game  # noqa: E402
from interpreter.options import PLAIN_RECIPE  # noqa: E402
from interpreter.scoring import compute_result  # noqa: E402
from interpreter.threads import Pending  # noqa: E402
from interpreter.values import PLAYERS  # noqa: E402


class Resume:
    """The saved locals of the suspended function (what a frame's `L` holds in the engine)."""

    __slots__ = ("player", "seat", "turn", "pending")


def _ask(S, fr: Resume, seat: int, turn: int) -> None:
    """`choose c from empty_cells` for the player at `seat`: save the locals, make the decision."""
    player = S.players[seat]
    fr.player, fr.seat, fr.turn = player, seat, turn
    cands = list(S.vars["empty_cells"])
    pend = Pending(player, "choose", "Mark a cell (row * 3 + column)", cands, 1, 1, False, "c", False, None)
    pend.options = cands if len(set(cands)) == len(cands) else list(dict.fromkeys(cands))
    pend.labels, pend.recipe = None, PLAIN_RECIPE
    fr.pending = pend


def make_resume(game: Game):
    env = game.d.code_env
    completes_line = env["_f_completes_line"]
    remove = env["_k3"]
    set_counter = env["_setc"]

    def resume(S, fr: Resume, c) -> bool:
        """Run on from the decision with answer `c` to the next decision; True when the game ends."""
        player, seat, turn = fr.player, fr.seat, fr.turn
        marks = S.lay.counter_index["mark"]
        set_counter(S, marks[c], player + 1)
        cells = S.vars["empty_cells"] = remove(S, S.vars["empty_cells"], c)
        if len(cells) <= 4 and completes_line(S, c):
            S.vars["winner"] = player
            S.vars["end_reason"] = "three in a row"
            return True
        if cells == []:
            S.vars["end_reason"] = "the board is full"
            return True
        seat, turn = seat + 1, turn + 1  # the turn loop of the phase, then the round loop
        S.steps += 1
        if seat == S.n:
            S.vars["round"] += 1
            seat = turn = 0
        _ask(S, fr, seat, turn)
        return False

    return resume


def play_engine(game: Game, seed: int) -> tuple:
    rng = random.Random(seed)
    S = game.new_game(2, None, seed, logging=False)
    while not S.over:
        p = S.current_players()[0]
        S.apply(p, rng.randrange(len(S.legal_actions(p))))
    return S.counters, S.vars.get("winner"), S.history, S.returns()


def play_resumable(game: Game, resume, seed: int) -> tuple:
    rng = random.Random(seed)
    S = game.new_game(2, None, seed, logging=False)  # the same setup, up to the first decision
    fr = Resume()
    fr.player, fr.seat, fr.turn, fr.pending = PLAYERS[0], 0, 0, S.threads[0].pending
    over = False
    while not over:
        pend = fr.pending
        p = int(pend.player)
        index = rng.randrange(len(list(range(len(pend.options)))))
        if not 0 <= index < len(pend.options):  # the checks apply makes
            raise ValueError(index)
        S.history.append([p, index])
        S.decisions += 1
        S.steps = 0
        METER.work = 0
        over = resume(S, fr, pend.options[index])
    S.result = compute_result(S)
    S.over = True
    return S.counters, S.vars.get("winner"), S.history, S.returns()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args(argv)
    game = Game.load(ROOT / "rules" / "tic_tac_toe" / "game.yaml")
    resume = make_resume(game)
    for seed in range(200):
        if play_engine(game, seed) != play_resumable(game, resume, seed):
            print(f"the two disagree on seed {seed}", file=sys.stderr)
            return 1
    decisions = sum(len(play_engine(game, s)[2]) for s in range(args.games))
    times = {"engine": 0.0, "resumable": 0.0}
    for _ in range(args.rounds):
        t0 = time.process_time()
        for s in range(args.games):
            play_engine(game, s)
        t1 = time.process_time()
        for s in range(args.games):
            play_resumable(game, resume, s)
        t2 = time.process_time()
        times["engine"] += t1 - t0
        times["resumable"] += t2 - t1
    n = decisions * args.rounds
    per = {k: v / n * 1e6 for k, v in times.items()}
    print(f"tic-tac-toe, {args.games} games x {args.rounds} rounds, {decisions / args.games:.2f} decisions/game "
          f"(CPU per decision, new game and scoring included)")
    print(f"engine     {per['engine']:.2f} µs")
    print(f"resumable  {per['resumable']:.2f} µs")
    print(f"engine ÷ resumable: {per['engine'] / per['resumable']:.2f}×")
    return 0


if __name__ == "__main__":
    sys.exit(main())
