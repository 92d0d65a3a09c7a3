"""Decisions: who must decide, the legal options, and applying one.

A `choose` or `perform` statement stops its thread with a Pending decision. Options are built
for the deciding player only: pieces that player cannot see are offered anonymously (grouped by
where they are and what can be seen of them), and identical visible pieces in the same unordered
place are offered once. A choice of several things is a sequence of single picks.
"""
from __future__ import annotations

from typing import Any

from .errors import IllegalDecision, RuleRuntimeError
from .guard import evaluate
from .labels import label, piece_label, player_label, translated, zone_label
from .logs import decision_entry
from .state import Pending, State
from .values import PLAYERS, Piece
from . import vm as _vm  # module import (not `from .vm import run` per call: a hot path)

DONE = "\x00done"
PASS = "\x00pass"
SUSPEND = 1


def start_choice(S: State, th, fr, who, candidates: list, mode: str, low: int, high: int,
                 optional: bool, slot: str, prompt: str | None, pos, label_key: str | None = None
                 ) -> int | None:
    if who is None:
        raise RuleRuntimeError("a choice has no player to decide (`by` gave none)")
    n = len(candidates)
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
    build_options(S, pend, fr.L)
    th.pending = pend
    return SUSPEND


def start_perform(S: State, th, fr, who, legal: list, optional: bool, slot: str,
                  prompt: str | None, pos) -> int | None:
    if not legal:
        if optional:
            fr.L[slot] = None
            return None
        raise RuleRuntimeError("no action is possible here (add `optional`, or check first)")
    pend = Pending(PLAYERS[int(who)], "perform", prompt, [a.name for a in legal], 1, 1, optional,
                   slot, th.player is not None, pos)
    pend.options = [a.name for a in legal]
    pend.labels = [translated(S, a.labels, a.label or a.name) for a in legal]
    if optional:
        pend.options.append(PASS)
        pend.labels.append("pass")
    th.pending = pend
    return SUSPEND


def _piece_key(S: State, p: Piece, viewer: Any, visible: bool) -> tuple:
    """Pieces with the same key are interchangeable for this viewer."""
    zone = S.loc[p]
    static = S.lay.static[p]
    if not visible:
        comp = S.game.components[static["kind"]]
        return ("h", zone, comp.back, tuple(static.get(a) for a in comp.public), S.face_up(p))
    if S.lay.zones[zone].ordered:
        return ("p", int(p))
    names = S.game.components[static["kind"]].dyn_names
    dyn = tuple(_hashable(S.dyn[a].get(p)) for a in names if a in S.dyn)  # maps, lists too
    return ("v", zone, static["kind"], static["name"], static.get("owner"), S.face.get(p), dyn,
            S.seen.get(p))


def _disambiguate(S: State, entries: list, labels: list) -> None:
    """Distinct visible pieces that read the same (two players' copies of one card) get their
    owner, or else their zone, appended, so that every option of a decision reads differently."""
    by_text: dict = {}
    for i, text in enumerate(labels):
        by_text.setdefault(text, []).append(i)
    for text, hits in by_text.items():
        if len(hits) < 2:
            continue
        for i in hits:
            entry = entries[i]
            if type(entry) is not tuple or not entry[1]:  # not a piece, or a hidden one
                continue
            owner = S.lay.static[entry[0]].get("owner")
            extra = player_label(owner) if owner is not None else zone_label(S, entry[2])
            labels[i] = f"{text} ({extra})"


def build_options(S: State, pend: Pending, L: dict | None = None) -> None:
    """The options of a pending decision. Their labels are made only when someone reads them
    (labels_of), from what was recorded here, so simulations never spend time on text; a rule's
    own `label` expression is evaluated here, with the choosing block's locals `L`."""
    viewer = pend.player
    candidates = pend.candidates
    options, entries, keys = [], [], set()
    pieces = [c for c in candidates if type(c) is Piece]
    many_zones = len({S.loc[c] for c in pieces}) > 1 if pieces else False
    cache = pend.cache
    if cache is None and pieces:
        cache = pend.cache = {}  # the table does not change between the picks of one choice
    for v in candidates:
        if type(v) is Piece:
            hit = cache.get(v)
            if hit is None:
                visible = S.sees(viewer, v)
                hit = cache[v] = (_piece_key(S, v, viewer, visible), visible)
            key, visible = hit
            if key in keys:
                continue
            keys.add(key)
            entry: Any = (v, visible, S.loc[v])
        else:
            plain = type(v) is int or type(v) is str
            key = ("x", v if plain else _hashable(v))
            if key in keys:
                continue
            keys.add(key)
            entry = str(v) if plain else [v]  # [value]: labelled when read
        options.append(v)
        entries.append(entry)
    tail = None
    if pend.kind == "choose_many" and (len(pend.picked) >= pend.low or pend.optional):
        options.append(DONE)
        tail = "done"
    elif pend.kind == "choose" and pend.optional:
        options.append(PASS)
        tail = "pass"
    custom = None
    if pend.label_key is not None:  # the rule's `label`: evaluated when read, with these locals
        custom = (options[:len(entries)], dict(L or {}))
    pend.options = options
    pend.labels = None
    pend.recipe = (many_zones, entries, tail, bool(pieces), custom)


def _custom_labels(S: State, pend: Pending, values: list, L: dict) -> list:
    fn, slot = S.game.label_fns[pend.label_key]
    texts = []
    for v in values:
        L[slot] = v
        texts.append(label(S, evaluate(fn, S, L), pend.player))  # read outside the VM: errors located
    return texts


def labels_of(S: State, pend: Pending) -> list:
    """The option labels of a pending decision, as its player sees them."""
    if pend.labels is not None:
        return pend.labels
    many_zones, entries, tail, has_pieces, custom = pend.recipe
    viewer = pend.player
    if custom is not None:
        labels = _custom_labels(S, pend, *custom)
        if tail is not None:
            labels.append(tail)
        pend.labels = labels
        return labels
    labels = []
    for entry in entries:
        if type(entry) is tuple:
            piece, visible, zone = entry
            text = piece_label(S, piece, None if visible else viewer)
            if many_zones or not visible:
                text += f" ({zone_label(S, zone)})"
            labels.append(text)
        elif type(entry) is list:
            labels.append(label(S, entry[0], viewer))
        else:
            labels.append(entry)
    if has_pieces:
        _disambiguate(S, entries, labels)
    if tail is not None:
        labels.append(tail)
    pend.labels = labels
    return labels


def _hashable(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_hashable(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, _hashable(x)) for k, x in v.items()))
    return v


def pending_for(S: State, player: int):
    for th in S.threads:
        if th.status == "choose" and th.pending.player == player:
            return th
    return None


def current_players(S: State) -> list:
    """Players who must decide now (several at once inside a simultaneous block)."""
    if S.over:
        return []
    return sorted({int(th.pending.player) for th in S.threads if th.status == "choose"})


def options_of(S: State, player: int) -> list[str]:
    th = pending_for(S, player)
    return list(labels_of(S, th.pending)) if th else []


def apply_decision(S: State, player: int, index: int) -> None:
    """Apply option `index` of `player`'s pending decision; illegal input changes nothing."""
    if S.over:
        raise IllegalDecision("the game is over")
    th = pending_for(S, player)
    if th is None:
        waiting = ", ".join(player_label(p) for p in current_players(S)) or "nobody"
        raise IllegalDecision(f"{player_label(player)} has no decision to make (waiting for {waiting})")
    pend = th.pending
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(pend.options):
        raise IllegalDecision(f"option {index!r} is not one of the {len(pend.options)} options of "
                              f"{player_label(player)}")
    value = pend.options[index]
    S.history.append([int(player), index])
    S.decisions += 1
    if S.logging:
        S.log.append(decision_entry(S, pend, value, index))
    fr = th.frames[-1]
    if pend.kind == "choose_many" and value not in (DONE, PASS):
        pend.picked.append(value)  # this state's own copy: clones copy pending decisions
        rest = list(pend.candidates)
        rest.remove(value)
        pend.candidates = rest
        if len(pend.picked) < pend.high and rest:
            build_options(S, pend, fr.L)
            return
        value = DONE
    if pend.kind == "choose_many":
        fr.L[pend.var] = list(pend.picked)
    else:
        fr.L[pend.var] = None if value == PASS else value
    th.pending = None
    th.status = "run"
    _vm.run(S)


def refresh_pending(S: State) -> None:
    """Ask every pending decision again (after a scenario rearranged the table)."""
    from .vm import run

    for th in S.threads:
        if th.status == "choose":
            th.frames[-1].pc -= 1  # back onto the choose/perform instruction
            th.pending = None
            th.status = "run"
    run(S)


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
