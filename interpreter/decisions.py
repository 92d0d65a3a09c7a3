"""Decisions: starting one, who must decide, and applying one.

A `choose` or `perform` statement stops its thread with a Pending decision (threads.py) whose
options are built for the deciding player (options.py). The VM keeps an index player -> waiting
thread (State.deciders), so finding a player's decision is a lookup. Applying an option records
it, then runs the game on to the next decision (vm.py). A choice of several things is a sequence
of single picks.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import vm as _vm  # module import (not `from .vm import run` per call: a hot path)
from .errors import IllegalDecision, RuleRuntimeError
from .labels import player_label
from .logs import decision_entry
from .options import DONE, PASS, build_options, labels_of, single_pick  # noqa: F401 - re-exported
from .threads import Pending, waiting
from .values import PLAYERS, SEAT, Player
from .vm import SUSPEND

if TYPE_CHECKING:
    from .state import State

_ready = Pending.ready


def start_choice(S: State, th, fr, who, candidates: list, mode: str, low: int, high: int,
                 optional: bool, slot: str, prompt: str | None, prompt_event: list | None, pos,
                 label_key: str | None = None) -> int | None:
    if who is None:
        raise RuleRuntimeError("a choice has no player to decide (`by` gave none)")
    n = len(candidates)
    if mode == "one" and not optional and n:  # the common cases, made here
        player = who if type(who) is Player else PLAYERS[int(who)]
        made = single_pick(S, candidates, player, label_key, fr.L)
        if made is not None:
            th.pending = _ready(player, "choose", prompt, candidates, made[0], False, slot,
                                th.player is not None, pos, prompt_event, made[1], label_key)
            return SUSPEND
    # An optional choice is asked even with nothing to pick ("pass" only): skipping it would
    # tell everyone that this player holds nothing eligible.
    if mode == "one":
        if n == 0 and not optional:
            raise RuleRuntimeError(f'nothing to choose from for "{slot}" (add `optional`, or check first)')
        kind = "choose"
    else:
        if high is None or high > n:
            high = n if mode != "exact" else high
        if n < low and not optional:
            raise RuleRuntimeError(f'"{slot}" must choose {low} but only {n} option'
                                   f"{'s are' if n != 1 else ' is'} available")
        if (high <= 0 or n == 0) and not optional:
            fr.L[slot] = []
            return None
        kind = "choose_many"
    pend = Pending(PLAYERS[int(who)], kind, prompt, candidates, low, high, optional, slot,
                   th.player is not None, pos)
    pend.label_key = label_key
    pend.prompt_event = prompt_event
    build_options(S, pend, fr.L)
    th.pending = pend
    return SUSPEND


def start_perform(S: State, th, fr, who, legal: list, optional: bool, slot: str,
                  prompt: str | None, prompt_event: list | None, pos) -> int | None:
    if not legal:
        if optional:
            fr.L[slot] = None
            return None
        raise RuleRuntimeError("no action is possible here (add `optional`, or check first)")
    names = [a.name for a in legal]
    # labels stay None: made when read (labels_of)
    th.pending = _ready(PLAYERS[int(who)], "perform", prompt, names, names + [PASS] if optional else names[:],
                        optional, slot, th.player is not None, pos, prompt_event, ("perform", legal), None)
    return SUSPEND


def pending_for(S: State, player: int):
    """The thread waiting for `player`'s decision, or None (a lookup: the VM keeps the index)."""
    return waiting(S).get(player)


def current_players(S: State) -> list:
    """Players who must decide now (several at once inside a simultaneous block)."""
    if S.over:
        return []
    return sorted(waiting(S))


def options_of(S: State, player: int) -> list[str]:
    th = pending_for(S, player)
    return list(labels_of(S, th.pending)) if th else []


def apply_decision(S: State, player: int, index: int) -> None:
    """Apply option `index` of `player`'s pending decision; illegal input changes nothing."""
    if type(index) is not int and isinstance(index, int) and not isinstance(index, bool):
        index = int(index)  # an int subclass (an IntEnum's member) counts as its number
    th = None if S.over else (S.deciders or waiting(S)).get(player)
    if th is not None and type(index) is int and 0 <= index < len(th.pending.options):
        take(S, th, index)
        return
    _refuse(S, player, index, th)


def _refuse(S: State, player: int, index, th) -> None:
    """Raise the IllegalDecision that says why `index` cannot be applied."""
    if S.over:
        raise IllegalDecision("the game is over")
    if th is None:
        others = ", ".join(player_label(p) for p in current_players(S)) or "nobody"
        raise IllegalDecision(f"{player_label(player)} has no decision to make (waiting for {others})")
    raise IllegalDecision(f"option {index!r} is not one of the {len(th.pending.options)} options of "
                          f"{player_label(player)}")


def apply_unchecked(S: State, player: int, index: int) -> None:
    """apply_decision without the checks, for agents and simulations that only pass indices
    they were offered (an index out of range still fails, but the state may then be broken)."""
    take(S, waiting(S)[player], index)


def take(S: State, th, index: int) -> None:
    """Record option `index` of the decision `th` waits for, then run the game on."""
    pend = th.pending
    value = pend.options[index]
    S.history.append([SEAT[pend.player], index])
    S.decisions += 1
    if S.logging:
        S.log.append(decision_entry(S, pend, value, index))
    if pend.kind == "choose_many":
        fr = th.frames[-1]
        if value != DONE and value != PASS:
            pend.picked.append(value)  # this state's own copy: clones copy pending decisions
            rest = list(pend.candidates)
            rest.remove(value)
            pend.candidates = rest
            if len(pend.picked) < pend.high and rest:
                build_options(S, pend, fr.L)
                return
        fr.L[pend.var] = list(pend.picked)
    else:
        th.frames[-1].L[pend.var] = None if value == PASS else value
    th.pending = None
    th.status = "run"
    _vm.run(S)


def refresh_pending(S: State) -> None:
    """Ask every pending decision again (after a scenario rearranged the table)."""
    for th in S.threads:
        if th.status == "choose":
            th.frames[-1].pc -= 1  # back onto the choose/perform instruction
            th.pending = None
            th.status = "run"
    _vm.run(S)


def undo_pick(S: State, player: int) -> bool:
    """Take back the last pick of `player`'s unfinished multiple choice (before it is complete).

    Only when that pick is the last decision taken in the game, so the history stays a valid
    replay. Returns whether something was undone.
    """
    th = pending_for(S, player)
    if th is None or th.pending.kind != "choose_many" or not th.pending.picked:
        return False
    if not S.history or S.history[-1][0] != int(player):
        return False
    pend = th.pending.copy()
    value = pend.picked.pop()
    pend.candidates = list(pend.candidates) + [value]
    build_options(S, pend, th.frames[-1].L)
    th.pending = pend
    S.history.pop()
    S.decisions -= 1
    if S.logging and S.log:
        S.log.pop()
    return True
