"""Resampling from a player's information (OpenSpiel's ResampleFromInfostate), an engine operation.

A player's information is what their view shows: where every piece they can see is, and for the
pieces they cannot see only how they look (their component's back, whose set it belongs to for a
per-player component, its public attributes, face up or down, who else was shown the piece). Any state that differs only by which hidden piece sits at
which of those look-alike places is as likely, for that player, as the real one. A resample swaps
hidden pieces among look-alike places; everything that refers to a physical piece (locals of
running rule code, pending decisions, variables) follows the swap, and a piece's changeable
attributes travel with it, and hidden dice are rolled again, so hidden values are resampled too.
The random generator is reseeded: the future is hidden from everyone.

Used by search agents (interpreter/agents/mcts.py: determinization), by the hidden-information
audit (interpreter/audit.py) and by adapters that need a world consistent with a player's view.
"""
from __future__ import annotations

import random
from typing import Any, Iterable

from .state import VISIBLE_TO_ALL
from .values import Piece

Mapping = dict  # piece -> piece now in its place


def lookalike_groups(S: Any, viewer: int, only: Iterable | None = None) -> list[list[tuple]]:
    """Places (zone key, index, piece) of pieces hidden from `viewer`, grouped by how they look.
    `only`: restrict to these pieces (e.g. the ones `viewer` never saw during a game)."""
    if viewer is None:
        return []  # the omniscient view sees every piece
    allowed = None if only is None else set(only)
    lay = S.lay
    static_looks, initial_up, face, seen = _static_looks(lay), lay.face_up, S.face, S.seen
    groups: dict = {}
    for key, zone in S.zones.items():
        info = lay.zones[key]
        if not zone or info.grid is not None:
            continue  # a grid cell shape shows through the back
        shown_up, shown_down = _shown(info, viewer, info.vis_up), _shown(info, viewer, info.vis_down)
        if shown_up and shown_down and info.custom is None:
            continue  # every piece here is seen, whatever its face
        for i, p in enumerate(zone):
            if allowed is not None and p not in allowed:
                continue
            up = face.get(p)
            up = initial_up[p] if up is None else up
            if info.custom is not None:
                if S.sees(viewer, p):
                    continue
            elif shown_up if up else shown_down:
                continue
            else:
                who = seen.get(p)
                if who is not None and viewer in who:
                    continue
            # how it looks: `_static_looks`, its face, who else was shown it
            groups.setdefault((static_looks[p], up, seen.get(p)), []).append((key, i, p))
    return [slots for slots in groups.values() if len(slots) > 1]


_STATIC_LOOKS: dict = {}  # id of a Layout -> (the Layout, kept alive with its id; its pieces' numbers)


def _static_looks(lay: Any) -> list[int]:
    """Per piece, a number for how it looks that never changes (made once per layout): its
    component's back and public attributes (Layout.hidden_key) and whose set it belongs to for
    a per-player component (its colour). Equal numbers, equal looks."""
    hit = _STATIC_LOOKS.get(id(lay))
    if hit is None:
        numbers: dict = {}
        looks = [numbers.setdefault((hidden, visible[2]), len(numbers))
                 for hidden, visible in zip(lay.hidden_key, lay.visible_key)]
        hit = _STATIC_LOOKS[id(lay)] = (lay, looks)
    return hit[1]


def _shown(info: Any, viewer: int, rule: str) -> bool:
    """Whether a zone's visibility rule for one face shows every piece so lying to `viewer`
    (State.sees without a piece's own reveals)."""
    return rule == VISIBLE_TO_ALL or (rule == "owner" and info.owner is not None and info.owner == viewer)


def draw_mapping(S: Any, viewer: int, rng: random.Random, only: Iterable | None = None) -> Mapping:
    """A random permutation of the pieces hidden from `viewer` among look-alike places. The result
    depends only on what `viewer` can see and on `rng`."""
    return Resampler(S, viewer, only).mapping(rng)


class Resampler:
    """Resampling of one state for one viewer, prepared once: which places look alike is found
    when made, so drawing many worlds (a search agent's determinizations of one decision) costs
    a shuffle per group, a clone and the relabelling each. Draws exactly what `draw_mapping` and
    `resample` draw from the same generator. S must not change while the Resampler is used."""

    def __init__(self, S: Any, viewer: int, only: Iterable | None = None):
        self.S, self.viewer, self.only = S, viewer, only
        # per group: its places, and its pieces in canonical order (shuffled at each draw)
        self.groups = [(slots, sorted([p for _, _, p in slots])) for slots in lookalike_groups(S, viewer, only)]

    def mapping(self, rng: random.Random) -> Mapping:
        """A random permutation of the hidden pieces among look-alike places."""
        mapping: Mapping = {}
        for slots, canonical in self.groups:
            pieces = canonical[:]
            shuffle(rng, pieces)
            for (_, _, old), new in zip(slots, pieces):
                if old != new:
                    mapping[old] = new
        return mapping

    def sample(self, rng: random.Random, reseed: bool = True) -> tuple[Any, Mapping]:
        """A state the viewer cannot tell from S, and the mapping used (see `resample`)."""
        mapping = self.mapping(rng)
        T = relabel(self.S, mapping)
        reroll_hidden(T, self.viewer, rng, self.only)
        if reseed:
            T.rng.state = rng.getrandbits(64)
        return T, mapping


def shuffle(rng: random.Random, x: list) -> None:
    """``rng.shuffle(x)``: the same draws from rng and the same order of x (random.Random's
    shuffle with its _randbelow written out, a Python call less per element: a search draws a
    shuffle of every look-alike group for each world). Another kind of generator: its own."""
    if type(rng) is not random.Random:
        rng.shuffle(x)
        return
    getrandbits = rng.getrandbits
    for i, n, k in _shuffle_steps(len(x)):
        j = getrandbits(k)  # Random._randbelow_with_getrandbits(n)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


_STEPS: dict = {}  # a list's length -> its shuffle's steps


def _shuffle_steps(size: int) -> list[tuple[int, int, int]]:
    """Random.shuffle's steps for a list of `size`: (the place swapped, how many places it
    draws among, the bits drawn for that: n.bit_length()) each, in its order."""
    steps = _STEPS.get(size)
    if steps is None:
        steps = _STEPS[size] = [(i, i + 1, (i + 1).bit_length()) for i in reversed(range(1, size))]
    return steps


def relabel(S: Any, mapping: Mapping) -> Any:
    """A clone of S where the piece `mapping[p]` stands wherever `p` stood (zones and every
    reference held by running rule code, pending decisions and variables)."""
    T = S.clone()
    if not mapping:
        return T
    for key, zone in T.zones.items():
        if any(p in mapping for p in zone):
            T.zones[key] = [mapping.get(p, p) for p in zone]
            for p in T.zones[key]:
                T.loc[p] = key
    T.vars = {k: map_pieces(v, mapping) for k, v in T.vars.items()}
    for th in T.threads:
        for fr in th.frames:
            fr.L = {k: map_pieces(v, mapping) for k, v in fr.L.items()}
        pend = th.pending
        if pend is not None:
            pend.candidates = map_pieces(list(pend.candidates), mapping)
            pend.options = map_pieces(list(pend.options), mapping)
            pend.picked = map_pieces(list(pend.picked), mapping)
            pend.cache = None
            if pend.recipe is not None and pend.recipe[0] != "perform":  # actions name no pieces
                many, entries, tail, has_pieces, custom = pend.recipe
                if entries is not None:  # None: plain numbers or texts, nothing to relabel
                    entries = [(mapping.get(e[0], e[0]),) + tuple(e[1:]) if isinstance(e, tuple)
                               else [map_pieces(e[0], mapping)] if isinstance(e, list) else e
                               for e in entries]
                if custom is not None:
                    custom = (map_pieces(custom[0], mapping), {k: map_pieces(v, mapping) for k, v in custom[1].items()})
                pend.recipe = (many, entries, tail, has_pieces, custom)
                pend.labels = None  # made again from the recipe when read
    return T


def map_pieces(value: Any, mapping: Mapping) -> Any:
    """`value` with every piece p in it (nested lists, tuples, dict values) replaced by mapping[p]."""
    t = type(value)
    if t is Piece:
        return mapping.get(value, value)
    if t is list:
        return [map_pieces(v, mapping) for v in value]
    if t is tuple:
        return tuple(map_pieces(v, mapping) for v in value)
    if t is dict:
        return {k: map_pieces(v, mapping) for k, v in value.items()}
    return value


def reroll_hidden(S: Any, viewer: int, rng: random.Random, only: Iterable | None = None) -> int:
    """Give every rolled die hidden from `viewer` a fresh face (in place); returns how many."""
    values = S.dyn.get("value")
    if not values:
        return 0
    allowed = None if only is None else set(only)
    changed = 0
    for p in list(values):
        if allowed is not None and p not in allowed:
            continue
        faces = S.game.components[S.lay.static[p]["kind"]].faces
        if faces and not S.sees(viewer, p):
            values[p] = faces[rng.randrange(len(faces))]
            changed += 1
    return changed


def resample(S: Any, viewer: int, rng: random.Random, only: Iterable | None = None,
             reseed: bool = True) -> tuple[Any, Mapping]:
    """A state `viewer` cannot tell from S: hidden pieces swapped among look-alike places, hidden
    dice rolled again, and (with `reseed`) a fresh random future. Returns the state and the piece
    mapping used. (Many worlds of one state: a `Resampler`.)"""
    return Resampler(S, viewer, only).sample(rng, reseed)


def new_game_resampled(game: Any, players: int, options: dict, seed: int, viewer: int,
                       rng: random.Random, only: Iterable | None = None) -> tuple[Any, Mapping]:
    """A new game whose pieces hidden from `viewer` are swapped among look-alike places BEFORE the
    setup runs (same seed): replaying a recorded history on it regenerates every log line, prompt
    and label from the resampled hidden data."""
    drawn: dict = {}

    def prepare(S: Any) -> None:
        mapping = draw_mapping(S, viewer, rng, only)
        drawn.update(mapping)
        for key, zone in S.zones.items():
            if any(p in mapping for p in zone):
                S.zones[key] = [mapping.get(p, p) for p in zone]
                for p in S.zones[key]:
                    S.loc[p] = key
    S = game.new_game(players, options, seed, prepare=prepare)
    return S, drawn
