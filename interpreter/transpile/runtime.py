"""What generated programs call (interpreter/transpile/): small helpers over plain lists.

A zone is a Python list of piece numbers; `loc[piece]` is the list the piece is in. Everything
here is plain Python on purpose: the generated program's namespace takes these functions as
they are (see program.RUNTIME_NAMES)."""
from __future__ import annotations

from ..builtins.poker import evaluate as _poker_evaluate  # noqa: F401 - used by generated code
from ..rng import Rng as _Rng  # noqa: F401 - used by generated code


class _GameEnds(Exception):
    """`end_game`: leaves the flow for the scoring."""


def _remove(xs, x):
    out = list(xs)
    if x in out:
        out.remove(x)
    return out


def _first(xs):
    return xs[0] if xs else None


def _argmax(xs, f):
    return _argmax_keys(xs, [f(x) for x in xs])


def _argmax_keys(xs, keys):
    """argmax(xs, f) from its keys already worked out (keys[i] = f(xs[i])): the elements with
    the greatest key, in order."""
    if not keys:
        return []
    best = max(keys)
    return [x for x, k in zip(xs, keys) if k == best]


def _deal(k, source, dests, loc):
    for _ in range(k):
        for dest in dests:
            if not source:
                return
            pc = source.pop(0)
            dest.append(pc)
            loc[pc] = dest


def _move(w, dest, loc):
    """`move`: a piece (an int) or every piece of a list/zone, each to the end of `dest`."""
    if type(w) is int:
        loc[w].remove(w)
        dest.append(w)
        loc[w] = dest
        return
    for pc in list(w):
        loc[pc].remove(pc)
        dest.append(pc)
        loc[pc] = dest


def _draw(k, source, dest, loc):
    for pc in source[:max(0, k)]:
        loc[pc].remove(pc)
        dest.append(pc)
        loc[pc] = dest


def _first_eq(xs, attr, value):
    """first(filter(xs, x => x.attr == value)) for a fixed attribute (`attr`: its list by piece),
    stopping at the first match."""
    for x in xs:
        if attr[x] == value:
            return x
    return None


def _last(xs):
    return xs[-1] if xs else None


def _extreme(xs, f, default, pick):
    return default if not xs else pick(map(f, xs))


def _index_of(xs, x):
    return xs.index(x) if x in xs else -1


def _shuffled(rng, xs):
    out = list(xs)
    rng.shuffle(out)
    return out


def _roll(rng, pcs, faces, values):
    """`roll`: each piece of `pcs` in order gets one of its faces, values[pc] =
    faces[pc][rng.below(len(faces[pc]))] (Rng.choice_each: the draws in one call)."""
    rng.choice_each(pcs, faces, values)


def _hand_rank(cards, table, values, colours):
    return _poker_evaluate([values[c] for c in cards], [colours[c] for c in cards], table)[1]


def _number(v):
    return 0 if v is None else int(v) if isinstance(v, bool) else v




# ---------------------------------------------------------------- dice (transpile/dice.py)
class _Return(Exception):
    """`return` from inside a loop of an inlined procedure."""


def _top_n(xs, k):
    return list(xs[:max(0, k)])


def _bottom_n(xs, k):
    return list(xs[-k:]) if k > 0 else []


def _clamp(x, lo, hi):
    return max(lo, min(hi, x))


_INT = frozenset((int,))


_VALUE_RANKS: dict = {}  # (id(table), sorted values) -> (table, the rank key as a tuple)


def _values_rank(values, table):
    """hand_rank of plain numbers (no suits), as builtins.poker._hand reads them. The answer
    depends on the table and the sorted values only (no suits: one suit, or none when there
    are no values), so it is kept here by them: one dict look-up instead of poker.evaluate's
    table look-up, suit set and answer look-up. A fresh list each time, as evaluate gives."""
    if not _INT.issuperset(map(type, values)):  # every value a whole number: one test in C
        for v in values:
            if type(v) is not int:
                raise TypeError(f"hand_rank: {v!r} is not a whole number")
    hand = (id(table), tuple(sorted(values)))
    hit = _VALUE_RANKS.get(hand)
    if hit is None or hit[0] is not table:
        if len(_VALUE_RANKS) >= _VALUE_RANKS_LIMIT:
            _VALUE_RANKS.clear()
        hit = _VALUE_RANKS[hand] = (table, tuple(_poker_evaluate(values, [None] * len(values), table)[1]))
    return list(hit[1])


_VALUE_RANKS_LIMIT = 50000


def _seen_by(before, players):
    """State.reveal_to: who has seen a piece, as a sorted tuple."""
    who = {players} if isinstance(players, int) else set(players)
    if before:
        who.update(before)
    return tuple(sorted(who))


def _hashable_look(v):
    if isinstance(v, list):
        return tuple(_hashable_look(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, _hashable_look(x)) for k, x in v.items()))
    return v


def _piece_options(cands, who, ps):
    """options.build_options for a choice among pieces: each candidate once, but pieces that
    look alike to `who` (the same key as options._piece_key) only the first time. `hkey` and
    `vkey` number the layout's hidden and visible keys (equal keys, equal numbers)."""
    if cands:
        options = _open_options(cands, who, ps)
        if options is not None:
            return options
    return _looked_options(cands, who, ps)


def _looked_options(cands, who, ps):
    """_piece_options by each candidate's look, whatever zones the candidates lie in."""
    loc, zi, face, seen, up0, singular, hkey, vkey, dyn, one = ps
    options, keys = [], set()
    last = None
    for v in cands:
        z = loc[v]
        if z is not last:  # what the zone shows `who`, worked out once per run of one zone
            last = z
            ordered, vis_up, vis_down, owner = zi[id(z)]
            up_seen = vis_up == "all" or (vis_up == "owner" and owner == who)
            down_seen = vis_down == "all" or (vis_down == "owner" and owner == who)
        f = face[v]
        up = up0[v] if f is None else f
        s = seen[v] if seen is not None else None
        if (up_seen if up else down_seen) or (s is not None and who in s):
            key = v if ordered or singular[v] else (id(z), vkey[v], f, _dyn_look(dyn[v], v), s)
        else:  # three parts: never equal to a visible piece's key (five parts, or the piece)
            key = (id(z), hkey[v], up)
        if key not in keys:
            keys.add(key)
            options.append(v)
    return options


def _look_options(cands, who, ps, plain):
    """The options of a choice among pieces in one call: _plain_options where the first
    candidate may be plain or alone of its kind, else (a die, say: _plain_options would refuse
    at once) or where it refuses, _piece_options. Both answer the same options where
    _plain_options answers, so which one answers changes only the time."""
    if not cands:
        return []
    v = cands[0]
    if plain[v] is not None or ps[5][v]:
        options = _plain_options(cands, who, ps, plain)
        if options is not None:
            return options
    options = _open_options(cands, who, ps)
    return _looked_options(cands, who, ps) if options is None else options


def _open_options(cands, who, ps):
    """The options when every candidate lies in one zone that shows `who` all its pieces,
    whatever their faces (options.open_zone / open_lookalikes); None otherwise."""
    loc, zi, face, seen, up0, singular, hkey, vkey, dyn, one = ps
    z = loc[cands[0]]
    ordered, vis_up, vis_down, owner = zi[id(z)]
    if not ((vis_up == "all" or (vis_up == "owner" and owner == who))
            and (vis_down == "all" or (vis_down == "owner" and owner == who))):
        return None
    if not ordered and seen is None:  # pieces of one changing attribute each (dice): the key below, quicker
        firsts: dict = {}  # key -> its first candidate, in the order of the keys' first candidates
        try:
            for v in cands:
                xs = one[v]
                if xs is None or loc[v] is not z:
                    break
                # the value itself where the loop below has it wrapped as (value,): the same keys
                # equal (a list or a map, unhashable, sends the choice to the loop below)
                firsts.setdefault((vkey[v], face[v], xs[v]), v)
            else:
                return list(firsts.values())
        except TypeError:
            pass
    options, keys = [], set()
    for v in cands:
        if loc[v] is not z:
            return None
        if ordered or singular[v]:
            key = v
        else:  # one changing attribute (a die's value) as itself: pieces with equal vkey have the same
            ds = dyn[v]
            if len(ds) == 1:
                x = ds[0][v]
                if x is None or type(x) is list or type(x) is dict:
                    x = _dyn_look(ds, v)
            else:  # none: _dyn_look's (), without the call
                x = _dyn_look(ds, v) if ds else ()
            # who has seen it: a fourth part where that is kept (one shape of key per call)
            key = (vkey[v], face[v], x) if seen is None else (vkey[v], face[v], x, seen[v])
        if key not in keys:
            keys.add(key)
            options.append(v)
    return options


def _dyn_look(ds, v):
    """The changing attributes of piece v as a look shows them (lists and maps as tuples)."""
    if not ds:
        return ()
    if len(ds) == 1:
        x = ds[0][v]
        return (x,) if type(x) is not list and type(x) is not dict else (_hashable_look(x),)
    return tuple(_hashable_look(d[v]) for d in ds)


def _simultaneous(block, players, agents, history):
    """A simultaneous block as the engine runs its threads (compiler.s_Simultaneous, vm.run):
    each player's block (a generator yielding (chooser, options)) up to its first decision,
    in the order given; then, round after round, each waiting chooser in seat order
    (State.current_players) decides and its block runs on to its next decision."""
    waiting = []
    for p in players:
        g = block(p)
        try:
            who, options = next(g)
        except StopIteration:
            continue
        if who != p:
            raise RuntimeError("a simultaneous block asks another player")
        waiting.append([who, options, g])
    if len({w[0] for w in waiting}) < len(waiting):
        raise RuntimeError("two blocks of a simultaneous statement wait for one player")
    waiting.sort(key=_chooser)
    append = history.append
    while len(waiting) > 1:
        done = False
        for w in waiting:
            who = w[0]
            i = agents[who](w[1])
            append([who, i])
            try:
                nxt, w[1] = w[2].send(i)
            except StopIteration:
                w[0] = None
                done = True
                continue
            if nxt != who:
                raise RuntimeError("a simultaneous block asks another player")
        if done:
            waiting = [w for w in waiting if w[0] is not None]
    if waiting:  # one block left: its decisions one after the other, as the rounds would ask them
        who, options, g = waiting[0]
        agent = agents[who]
        while True:
            i = agent(options)
            append([who, i])
            try:
                nxt, options = g.send(i)
            except StopIteration:
                return
            if nxt != who:
                raise RuntimeError("a simultaneous block asks another player")


def _chooser(w):
    return w[0]


def _mod(x, y):
    """x % y on numbers only (codegen.modulo; the cards area's, until theirs is on main)."""
    if type(x) is str:
        raise TypeError("% works on numbers, not on text")
    return x % y


# scoring (interpreter/scoring.py's result, over plain values)

def _scores(values):
    """Each score as a number: none 0, true 1 (scoring._number); anything else not a number raises."""
    out = []
    for s in values:
        if type(s) is not int:
            s = _number(s)
            if not isinstance(s, (int, float)):
                raise TypeError(f"a score must be a number, got {s!r}")
        out.append(s)
    return out


def _ranked(keys, lowest, draw):
    """Seats with the best key (score, then tie-breaks); nobody when all tie and that is a draw."""
    best = min(keys) if lowest else max(keys)
    winners = [i for i, k in enumerate(keys) if k == best]
    if draw and len(winners) == len(keys) > 1:
        return []
    return winners


def _seats(chosen):
    """The `winners` expression's value as sorted, distinct seats (scoring._seats)."""
    if chosen is None:
        return []
    if isinstance(chosen, int):
        chosen = [chosen]
    return sorted({int(p) for p in chosen})


class _Unlabelled(Exception):
    """A text shows a plain int whose kind (number, player, piece) the generator could not tell."""


def _text(v, kind):
    """A value in an `end_game` text as labels.label writes it; `kind` is what kinds.py knows."""
    t = type(v)
    if t is str:
        return v
    if t is int:
        if kind == "number":
            return str(v)
        if kind == "player":
            return f"P{v + 1}"
        raise _Unlabelled(v)
    if v is None:
        return "none"
    if t is bool:
        return "true" if v else "false"
    if t is list:
        return ", ".join(_text(x, kind) for x in v)
    if t is tuple:
        return "(" + ", ".join(_text(x, kind) for x in v) + ")"
    if isinstance(v, dict):
        for key in ("label", "name", "id"):
            if key in v:
                return str(v[key])
    return str(v)


# work budget

class _OverBudget(RuntimeError):
    """A generated loop ran past the rule file's `steps` limit (budget.py): the caller replays
    the game in the engine, which reports it with its error code and position."""


def _over_steps(limit, where):
    raise _OverBudget(f"more than {limit} loop iterations (limit `steps`) at {where}")


# ---------------------------------------------------------------- cards: choices, arithmetic
from ..options import DONE as _DONE, PASS as _PASS  # noqa: E402,F401 - used by generated code


def _listed(xs):
    """A choice's candidates as a new list (builtins.items: a list, a tuple or a map's keys)."""
    t = type(xs)
    if t is list:
        return xs[:]
    if t is tuple or t is dict:
        return list(xs)
    raise TypeError(f"expected a list or a zone, got {xs!r}")


def _extreme_of(xs, default, pick):
    """One-argument max/min (builtins.core._extreme without a function)."""
    if type(xs) is not list:
        xs = _listed(xs)
    return pick(xs) if xs else default


def _mod(x, y):
    """x % y on numbers only (codegen.modulo: on a text, % would format it)."""
    if type(x) is str:
        raise TypeError("% works on numbers, not on text")
    return x % y


class _LookAlikes(RuntimeError):
    """Two offered pieces may look alike (see choices.ChoiceWriter.offer): the engine plays this game."""


def _no_lookalikes(options, alike, loc):
    kinds = set()
    for x in options:
        kind = alike.get(x)
        if kind is not None:
            key = (kind, id(loc[x]))
            if key in kinds:
                raise _LookAlikes(f"pieces that may look alike are offered together ({options})")
            kinds.add(key)


def _as_piece_list(x):
    """One piece (an int) or several, as a new list (compiler._as_pieces)."""
    return [x] if type(x) is int else list(x)


# ---------------------------------------------------------------- boards and lists (boards.py, listfns.py)
from ..builtins.graph import reach_order as _reach_order  # noqa: E402
from ..builtins.core import _SCALARS as _SORT_SCALARS, _sortable  # noqa: E402


def _reach(adj, edges, start, steps, blocked_node, blocked_edge):
    """graph.reach over a board's constants: nodes within `steps` moves, nearest first."""
    if start not in adj:
        raise KeyError(f"no node {start!r}")
    return _reach_order(adj, edges, start, steps, blocked_node, blocked_edge)


def _sort_by(xs, f, desc):
    """builtins.core.sort with `desc` over a plain list (f once per element, in order; stable)."""
    seq = xs if type(xs) is list else _listed(xs)  # read, never changed
    keys = seq if f is None else list(map(f, seq))
    if set(map(type, keys)) <= _SORT_SCALARS:
        order = sorted(range(len(seq)), key=keys.__getitem__, reverse=bool(desc))
    else:
        order = sorted(range(len(seq)), key=lambda i: _sortable(keys[i]), reverse=bool(desc))
    return list(map(seq.__getitem__, order))


def _plain_options(cands, who, ps, plain):
    """_piece_options where every candidate either hides its face from `who` (seen by nobody in
    particular: one option per zone, back and face) or shows it and is its own option (in an
    ordered zone, or alone of its kind) or plain (plain_looks.py: plain[v] its item's key
    number, seen by nobody in particular): the first candidate of each (zone, item, face).
    None when some candidate is none of these (the caller then asks _piece_options)."""
    loc, zi, face, seen, up0, singular, hkey, vkey, dyn, one = ps
    # the usual case first: one unordered zone (its last candidate there too), plain pieces face up
    if cands and seen is None and loc[cands[-1]] is loc[cands[0]]:
        z = loc[cands[0]]
        ordered, vis_up, vis_down, owner = zi[id(z)]
        if not ordered and (vis_up == "all" or (vis_up == "owner" and owner == who)):
            down_seen = vis_down == "all" or (vis_down == "owner" and owner == who)
            options, keys = [], set()
            for v in cands:
                if loc[v] is not z:
                    break
                if singular[v]:  # alone of its kind and seen: its own option (its key, v)
                    f = face[v]
                    if not down_seen and not (up0[v] if f is None else f):
                        break
                    k = v
                else:  # a plain piece face up: its item's key (negative: never a piece's number)
                    k = plain[v]
                    if k is None or face[v] is not None or not up0[v]:
                        break
                    k = -1 - k
                if k not in keys:
                    keys.add(k)
                    options.append(v)
            else:
                return options
    options, keys = [], set()
    last = None
    for v in cands:
        z = loc[v]
        if z is not last:
            last = z
            ordered, vis_up, vis_down, owner = zi[id(z)]
            up_seen = vis_up == "all" or (vis_up == "owner" and owner == who)
            down_seen = vis_down == "all" or (vis_down == "owner" and owner == who)
        f = face[v]
        up = up0[v] if f is None else f
        if not (up_seen if up else down_seen):  # hidden: by its zone, back and face (_piece_options)
            if seen is not None and seen[v] is not None:
                return None
            key = (id(z), hkey[v], up)
        elif ordered or singular[v]:
            key = v
        else:  # _piece_options' key of a piece without changing attributes, seen by nobody in particular
            k = plain[v]
            if k is None or (seen is not None and seen[v] is not None):
                return None
            key = (id(z), k, f)
        if key not in keys:
            keys.add(key)
            options.append(v)
    return options


# ---------------------------------------------------------------- lists (transpile/lists.py)
from ..budget import METER as _METER  # noqa: E402
from ..builtins.core import get as _get_of, sort as _sort_of  # noqa: E402
from ..builtins.matching import assignable as _assignable_of  # noqa: E402


def _unmetered(fn):
    """An engine builtin called on plain lists (its state argument is not read for lists). The
    work meter it charges is the engine's, zeroed at each of the engine's decisions: a generated
    program has none in between, so it zeroes it first (its own loops count `steps`)."""
    def call(*args):
        _METER.work = 0
        return fn(None, *args)
    call.__doc__ = fn.__doc__
    return call


_sort_any = _unmetered(_sort_of)


def _sort(xs, f=None):
    """sort(xs, f?) (builtins.core.sort): Python's stable sort by the keys where they compare
    as they are (numbers, texts); keys Python cannot compare (none, mixed) go to the engine's."""
    if type(xs) is not list:
        return _sort_any(xs) if f is None else _sort_any(xs, f)
    try:
        return sorted(xs, key=f)
    except TypeError:
        return _sort_any(xs) if f is None else _sort_any(xs, f)
_assignable_any = _unmetered(_assignable_of)


def _assignable(xs, f):
    """assignable(xs, x => options) (builtins.matching): answered here where the matching need
    not be built: no element; one whose options are a list; or elements whose options are
    lists of pieces or other plain values each holding at least as many distinct values as
    there are elements (each element in turn finds one the earlier ones left). Otherwise the
    engine's builtin, on the options already computed (f is called once per element, in
    order, as the builtin calls it)."""
    if type(xs) is not list:
        return _assignable_any(xs, f)
    n = len(xs)
    if n < 2:
        if not xs:
            return True
        options = f(xs[0])
        if type(options) is list:
            return len(options) > 0
        return _assignable_any([0], lambda _: options)
    lists = [f(x) for x in xs]
    try:
        if all(type(o) is list and len(o) >= n and len(set(o)) >= n for o in lists):
            return True
    except TypeError:  # unhashable options (lists, maps): the builtin compares them
        pass
    return _assignable_any(list(range(n)), lists.__getitem__)


def _get(m, k, default=None):
    """get(m, k, default) (builtins.core.get; a map's entry without the second call)."""
    if type(m) is dict:
        return m.get(k, default)
    return _get_of(None, m, k, default)


def _without(xs, ys):
    """without(xs, ys): the elements of xs not in ys (builtins.core.without)."""
    return [x for x in xs if x not in ys]


# ---------------------------------------------------------------- grids (transpile/grids.py)
from .grid_runtime import (_Cells, _awards, _cell_of, _cells_with, _completable_anchors, _components,  # noqa: E402,F401
                           _grid_at, _grid_bbox, _grid_bbox_fits, _grid_key, _keep, _line_partition,
                           _neighbor_values, _off_grids, _pass_zones, _place, _placements, _ranking, _tally,
                           _UNKEYED, _value_text)
