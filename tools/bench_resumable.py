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

`--parts` also times the resumable form with parts of the engine put back one at a time (the
candidates read through `items`, the decision made by `decisions.start_choice`, a frame pushed
and popped per turn with the turn's locals in its dict), to see what the rest of the gap is.

Usage:
    python tools/bench_resumable.py [--games 3000] [--rounds 3] [--parts]
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
from interpreter.builtins import items  # noqa: E402
from interpreter.decisions import start_choice  # noqa: E402
from interpreter.game import Game  # noqa: E402
from interpreter.options import PLAIN_RECIPE  # noqa: E402
from interpreter.scoring import compute_result  # noqa: E402
from interpreter.threads import Frame, Pending  # noqa: E402
from interpreter.values import PLAYERS  # noqa: E402


class Resume:
    """The saved locals of the suspended function (what a frame's `L` holds in the engine), and
    the engine's frames where a variant keeps them."""

    __slots__ = ("who", "seat", "turn", "pending", "frames", "status", "player")


PARTS = ("items", "start_choice", "frame")  # parts of the engine a variant puts back


def make_resume(game: Game, parts: frozenset = frozenset()):
    """The resumable function (and its `ask`), with some of the engine's parts put back:
    `items` reads the candidates through the builtins' `items`, `start_choice` makes the
    decision with decisions.start_choice, `frame` pushes and pops a frame per turn and keeps the
    turn's locals in its dict."""
    env = game.d.code_env
    completes_line = env["_f_completes_line"]
    remove = env["_k3"]
    set_counter = env["_setc"]
    turn_proc = game.d.procs["fn:__turn_move"]
    use_items, use_start, use_frame = (p in parts for p in PARTS)

    def ask(S, fr: Resume, seat: int, turn: int) -> None:
        """`choose c from empty_cells` for the player at `seat`: save the locals, make the decision."""
        player = S.players[seat]
        if use_frame:
            fr.frames.append(Frame(turn_proc, 1, {"player": player, "turn_index": turn}, None))
        fr.who, fr.seat, fr.turn = player, seat, turn
        cands = list(items(S, S.vars["empty_cells"])) if use_items else list(S.vars["empty_cells"])
        if use_start:
            start_choice(S, fr, fr.frames[-1], player, cands, "one", 1, 1, False, "c",
                         "Mark a cell (row * 3 + column)", None, None)
            return
        pend = Pending(player, "choose", "Mark a cell (row * 3 + column)", cands, 1, 1, False, "c", False, None)
        pend.options = cands if len(set(cands)) == len(cands) else list(dict.fromkeys(cands))
        pend.labels, pend.recipe = None, PLAIN_RECIPE
        fr.pending = pend

    def resume(S, fr: Resume, c) -> bool:
        """Run on from the decision with answer `c` to the next decision; True when the game ends."""
        if use_frame:
            L = fr.frames[-1].L
            L["c"] = c
            player = L["player"]
        else:
            player = fr.who
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
        if use_frame:
            fr.frames.pop()
        seat, turn = fr.seat + 1, fr.turn + 1  # the turn loop of the phase, then the round loop
        S.steps += 1
        if seat == S.n:
            S.vars["round"] += 1
            seat = turn = 0
        ask(S, fr, seat, turn)
        return False

    return resume, ask


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
    fr.who, fr.seat, fr.turn, fr.pending = PLAYERS[0], 0, 0, S.threads[0].pending
    fr.player = None  # the thread's own player (set inside simultaneous blocks only)
    fr.frames, fr.status = [Frame(None, 0, {})], "run"
    fr.frames.append(Frame(None, 1, {"player": PLAYERS[0], "turn_index": 0}))
    resume, _ = resume
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
    ap.add_argument("--parts", action="store_true",
                    help="also time the resumable form with parts of the engine put back")
    args = ap.parse_args(argv)
    game = Game.load(ROOT / "rules" / "tic_tac_toe" / "game.yaml")
    forms = {"resumable function, Python locals": frozenset()}
    if args.parts:
        forms.update({f"+ {part}": frozenset([part]) for part in PARTS})
        forms["+ all three"] = frozenset(PARTS)
    made = {name: make_resume(game, parts) for name, parts in forms.items()}
    for seed in range(200):
        expected = play_engine(game, seed)
        for name, resume in made.items():
            if play_resumable(game, resume, seed) != expected:
                print(f"{name} and the engine disagree on seed {seed}", file=sys.stderr)
                return 1
    decisions = sum(len(play_engine(game, s)[2]) for s in range(args.games))
    times = dict.fromkeys(list(made) + ["the engine"], 0.0)
    for _ in range(args.rounds):
        for name, resume in made.items():
            t0 = time.process_time()
            for s in range(args.games):
                play_resumable(game, resume, s)
            times[name] += time.process_time() - t0
        t0 = time.process_time()
        for s in range(args.games):
            play_engine(game, s)
        times["the engine"] += time.process_time() - t0
    n = decisions * args.rounds
    print(f"tic-tac-toe, {args.games} games x {args.rounds} rounds, {decisions / args.games:.2f} decisions/game "
          f"(CPU per decision, new game and scoring included)")
    for name, t in times.items():
        print(f"{name:40s} {t / n * 1e6:6.2f} µs")
    first = next(iter(made))
    print(f"the engine ÷ the resumable function: {times['the engine'] / times[first]:.2f}×")
    return 0


if __name__ == "__main__":
    sys.exit(main())
