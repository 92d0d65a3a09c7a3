"""The virtual machine that runs compiled rule code.

Compiled procedures are lists of instructions: Python closures `ins(S, th, fr)` that return
None to go on, or a signal. Because the program counter and the locals live in plain frames
inside the state, a game can stop at any decision, be saved as JSON, restored, cloned, and go on.

Signals: SUSPEND (a decision is pending on this thread), FRAME (a frame was pushed or popped),
WAIT (the thread waits for the children of a simultaneous block), END (the game ended).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .budget import ATOMIC_WORK, METER, exceeded, how_to_raise, tick
from .errors import Pos, RuleRuntimeError
from .guard import describe as _describe
from .scoring import compute_result
from .threads import Frame, Thread, deciders_of
from .values import SEAT

if TYPE_CHECKING:
    from .state import State

DONE, SUSPEND, FRAME, WAIT, END = 0, 1, 2, 3, 4


class GameEnds(Exception):
    """`end_game` inside a procedure run as a plain Python function (see compiler.link): the
    VM turns it into END wherever the call was made."""


NO_THREAD = Thread(-1, [], None, -2)  # the thread of a plain procedure run from an expression


def new_thread(S: State, frames: list, player: Any = None, parent: int | None = None) -> Thread:
    th = Thread(S.next_tid, frames, player, parent)
    S.next_tid += 1
    S.threads.append(th)
    return th


def run(S: State) -> None:
    """Run every runnable thread until all wait for decisions, or the game is over."""
    S.steps = 0
    m = METER  # METER.start, inlined: the budget of expression work restarts at every decision
    m.work = 0
    m.limits = S.game.limits
    m.nest = 0
    while not S.over:
        threads = S.threads
        if len(threads) == 1 and threads[0].status == "run":  # the common case: one flow
            th = threads[0]
        else:
            for th in threads:
                if th.status == "run":
                    break
            else:
                S.deciders = deciders_of(threads)
                return
        sig = run_thread(S, th, 0)
        if sig == SUSPEND:
            th.status = "choose"
            if len(S.threads) == 1:  # the common case: the index is this one thread
                S.deciders = {SEAT[th.pending.player]: th}
                return
        elif sig == WAIT:
            th.status = "wait"
        elif sig == END:
            finish_game(S)
        else:
            _thread_done(S, th)
    S.deciders = {}


def _thread_done(S: State, th: Thread) -> None:
    th.status = "done"
    S.threads.remove(th)
    if th.parent is None or th.parent == -1:  # the main flow, or the final scoring block
        finish_game(S)
        return
    parent = next(t for t in S.threads if t.tid == th.parent)
    parent.waiting -= 1
    if parent.waiting == 0:
        parent.status = "run"


def finish_game(S: State) -> None:
    """The flow ended (or end_game ran): run the final scoring block, then score."""
    S.threads = []
    final = S.game.scoring.final
    if final is not None and not S.vars.get("$final"):
        S.vars["$final"] = True
        new_thread(S, [Frame(final, 0, {})], parent=-1)
        return
    S.result = compute_result(S)
    S.over = True


def run_thread(S: State, th: Thread, base: int) -> int:
    """Run `th` until it suspends, waits, ends the game, or its stack shrinks to `base`."""
    frames = th.frames
    fr = None
    limits = METER.limits  # set once per decision (run), the same for every call made within it
    try:
        while len(frames) > base:
            fr = frames[-1]
            code = fr.proc.code
            sig = None
            while sig is None:  # the hot loop: fetch, advance, execute
                pc = fr.pc
                fr.pc = pc + 1
                sig = code[pc](S, th, fr)
            if sig == FRAME:
                S.steps += 1  # calls count like loop iterations: call trees cannot explode
                if S.steps > limits.steps:
                    calls_exceeded(frames[-1])
                if len(frames) > limits.depth:
                    too_deep(frames[-1])
                continue
            return sig
    except GameEnds:  # end_game in a procedure called as a plain function
        return END
    except RuleRuntimeError as exc:
        if exc.pos.line <= 0 and fr is not None:
            exc.pos = code_pos(fr)
        raise
    except RecursionError:
        raise RuleRuntimeError("expression functions call each other too deeply (endless recursion?); "
                               "Python's own recursion limit stops them",
                               code_pos(fr) if fr else Pos("<rules>"), "E311") from None
    except Exception as exc:  # a rule did something impossible: say where
        raise RuleRuntimeError(_describe(exc), code_pos(fr) if fr else Pos("<rules>"), "E300") from None
    return DONE


def calls_exceeded(fr: Frame) -> None:
    raise RuleRuntimeError(exceeded("steps", METER.limits.steps, " (endless calls?)"), code_pos(fr), "E310")


def too_deep(fr: Frame) -> None:
    raise RuleRuntimeError(f"procedure calls nested more than {METER.limits.depth} deep "
                           f"(in {fr.proc.name}; endless recursion?) (limit `depth`); " + how_to_raise("depth"),
                           code_pos(fr), "E311")


def locate(exc: BaseException, fr: Frame) -> BaseException | None:
    """The error to raise for `exc` inside a plain procedure stopped at `fr.pc` (what run_thread
    makes of it for a frame on the VM's stack), or None to raise `exc` itself."""
    if isinstance(exc, RuleRuntimeError):
        if exc.pos.line <= 0:
            exc.pos = code_pos(fr)
        return None
    if isinstance(exc, RecursionError):
        return RuleRuntimeError("expression functions call each other too deeply (endless recursion?); "
                                "Python's own recursion limit stops them", code_pos(fr), "E311")
    if isinstance(exc, Exception):
        return RuleRuntimeError(_describe(exc), code_pos(fr), "E300")
    return None


def count_loop(S: State, pos: Pos) -> None:
    """Called on every loop back-edge: an endless loop is stopped, naming the loop."""
    S.steps += 1
    if S.steps > METER.limits.steps:
        S.steps = 0
        raise RuleRuntimeError(exceeded("steps", METER.limits.steps, " (a loop that never ends?)"),
                               pos, "E310")


def code_pos(fr: Frame) -> Pos:
    if fr is None or fr.proc is None:
        return Pos("<rules>")
    i = max(0, fr.pc - 1)
    pos = fr.proc.pos
    return pos[i] if i < len(pos) and pos[i] is not None else (fr.proc.decl_pos or Pos("<rules>"))


def run_atomic(S: State, proc, L: dict) -> Any:
    """Run a procedure that makes no decision to completion and return its value."""
    tick(ATOMIC_WORK)
    plain = proc.plain
    if plain is not None:
        try:
            return plain(S, NO_THREAD, L)
        except GameEnds:
            raise RuleRuntimeError(f"{proc.name} ended the game inside an expression", proc.decl_pos) from None
    holder = Frame(None, 0, {})
    th = Thread(-1, [holder, Frame(proc, 0, L, "$r")], None, -2)
    sig = run_thread(S, th, 1)
    if sig == SUSPEND or sig == WAIT:
        raise RuleRuntimeError(f"{proc.name} asked for a decision inside an expression", proc.decl_pos)
    if sig == END:
        raise RuleRuntimeError(f"{proc.name} ended the game inside an expression", proc.decl_pos)
    return holder.L.get("$r")
