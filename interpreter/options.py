"""The options of a pending decision, and their labels as the deciding player reads them.

Options are built for the deciding player only: pieces that player cannot see are offered
anonymously (grouped by where they are and what can be seen of them), and identical visible
pieces in the same unordered place are offered once. Labels are made only when someone reads
them, from what was recorded with the options, so simulations spend nothing on text. The usual
case, distinct pieces of one zone the chooser sees, needs no grouping key per piece (open_zone);
look-alikes there (dice of a cup) are grouped by their looks alone, the zone left out (open_lookalikes).
"""
from __future__ import annotations

from typing import Any

from .guard import evaluate
from .labels import label, piece_label, player_label, translated, zone_label
from .threads import Pending
from .values import Family, Piece, Player, ZoneRef

DONE = "\x00done"  # the option that ends a multiple choice
PASS = "\x00pass"  # the option that declines an optional choice


def _disambiguate(S: Any, entries: list, labels: list) -> None:
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


PLAIN_RECIPE = (False, None, None, False, None)  # the recipe of options shown as themselves (_finish)
VALUES = "\x00values"  # a recipe's has_pieces for values other than pieces, each shown by label()
# values that are their own grouping key (hashable, compared by equality) and never a piece:
# options of them are made without a key each, as numbers and texts are
_VALUE_TYPES = frozenset({int, str, Player, tuple, bool, float, ZoneRef, Family, type(None)})


def build_options(S: Any, pend: Pending, L: dict | None = None) -> None:
    """The options of a pending decision. Their labels are made only when someone reads them
    (labels_of), from what was recorded here, so simulations never spend time on text; a rule's
    own `label` expression is evaluated here, with the choosing block's locals `L`.

    Pieces with the same grouping key are interchangeable for the decider and offered once:
    a hidden piece by where it is and what can be seen of it, a visible piece in an ordered zone
    by itself, a visible piece elsewhere by where it is and everything that can be seen of it
    (by itself too when no other piece has the same item, owner and component). The parts of the
    key that never change are fixed in the layout."""
    candidates = pend.candidates
    if not candidates or type(candidates[0]) is not Piece:
        shown = _values_recipe(candidates)
        if shown is False and pend.kind == "choose" and not pend.optional and pend.label_key is None:
            pend.options = list(dict.fromkeys(candidates))  # _finish, inlined for this case
            pend.labels = None
            pend.recipe = PLAIN_RECIPE
            return
        if shown is not None:  # values only: no keys; labels are the values as text (or by label())
            _finish(pend, list(dict.fromkeys(candidates)), None, False, shown, L)
            return
    viewer = pend.player
    cache = pend.cache
    if cache is not None and type(cache) is Looks:  # a later pick among open look-alikes
        options = cache.firsts(candidates)
        if options is not None:
            _finish(pend, options, None, False, cache.zone, L)
            return
        cache = pend.cache = None  # a candidate never looked at (not in this game's flow): again
    if cache is None and type(candidates[0]) is Piece:  # a first pick among pieces
        zone = open_zone(S, candidates, viewer)
        if zone is not None:  # every distinct piece is its own option (no cache: cheap again)
            _finish(pend, list(dict.fromkeys(candidates)), None, False, zone, L)
            return
        zone, options = open_lookalikes(S, pend, candidates, viewer)
        if options is not None:  # look-alikes of one open zone: labelled like open_zone's
            _finish(pend, options, None, False, zone, L)
            return
        if _pieces_only(S, pend, candidates, viewer, L):
            return
    options, entries, keys = [], [], set()
    cache = pend.cache
    loc = S.loc
    zone_set = None
    for v in candidates:
        if type(v) is Piece:
            if cache is None:
                cache = pend.cache = {}  # the table does not change between the picks of one choice
                zone_set = set()
            zone = loc[v]
            if zone_set is not None:
                zone_set.add(zone)
            hit = cache.get(v)
            if hit is None:
                hit = cache[v] = _piece_key(S, v, zone, viewer)
            key, visible = hit
            if key in keys:
                continue
            keys.add(key)
            entry: Any = (v, visible, zone)
        else:
            plain = type(v) is int or type(v) is str
            key = ("x", v if plain else _hashable(v))
            if key in keys:
                continue
            keys.add(key)
            entry = str(v) if plain else [v]  # [value]: labelled when read
        options.append(v)
        entries.append(entry)
    if cache is not None and zone_set is None:  # a later pick of the same choice
        zone_set = {loc[v] for v in candidates if type(v) is Piece}
    has_pieces = zone_set is not None and bool(zone_set)
    _finish(pend, options, entries, has_pieces and len(zone_set) > 1, has_pieces, L)


def single_pick(S: Any, candidates: list, viewer: Any, label_key: str | None, L: dict) -> tuple | None:
    """(options, recipe) of a single, non-optional pick among candidates that are each their own
    option: values that are no pieces (_values_recipe), or pieces of one zone the viewer sees
    (open_zone) — build_options' usual cases, made without a Pending. None: not such a pick."""
    if type(candidates[0]) is Piece:
        zone = open_zone(S, candidates, viewer)
        if zone is None:
            return None
    else:
        zone = _values_recipe(candidates)  # False: numbers and texts; VALUES: other values
        if zone is None:
            return None
    options = candidates if len(set(candidates)) == len(candidates) else list(dict.fromkeys(candidates))
    custom = None if label_key is None else (options[:], dict(L))  # as _finish records it
    return options, (False, None, None, zone, custom)


def _values_recipe(candidates: list) -> Any:
    """How options of these candidates are shown when each is its own option: False, numbers
    and texts only (as themselves); VALUES, also other values that are their own grouping key
    (players, cells, zones: by label(), as the grouping loop of build_options shows them);
    None, some candidate is a piece, a list or a map (grouped by a key each)."""
    shown = False
    for v in candidates:
        t = type(v)
        if t is not int and t is not str:
            if t not in _VALUE_TYPES:
                return None
            shown = VALUES
    return shown


def open_zone(S: Any, candidates: list, viewer: Any) -> Any:
    """The zone of the candidates if they are pieces of one zone, all seen by the viewer through
    the zone's rule (face up, or face down too), and none of them can look like another piece
    (the zone is ordered, or no other piece has the same item, owner and component); else None.
    Then every distinct candidate is its own option, and its label needs nothing recorded but
    that zone (the recipe's has_pieces): the common case, made without a grouping key per piece."""
    loc, lay = S.loc, S.lay
    first = candidates[0]
    zone = loc[first]
    info = lay.zones[zone]
    if info.custom is not None or not (info.ordered or lay.singular[first]):
        return None
    if not _sees(S, info, candidates, viewer):
        return None
    if info.ordered:
        for v in candidates:
            if type(v) is not Piece or loc[v] != zone:
                return None
    else:
        singular = lay.singular
        for v in candidates:
            if type(v) is not Piece or loc[v] != zone or not singular[v]:
                return None
    return zone


class Looks(dict):
    """piece -> look (open_lookalikes), kept in pend.cache for the later picks of one choice:
    their candidates are among the first pick's, in the same zone, which has not changed."""

    __slots__ = ("zone",)

    def firsts(self, candidates: list) -> list | None:
        """The first candidate of each look; None if a candidate was never looked at."""
        options, looks = [], set()
        for v in candidates:
            look = self.get(v)
            if look is None:
                return None
            n = len(looks)
            looks.add(look)
            if len(looks) > n:
                options.append(v)
        return options


def open_lookalikes(S: Any, pend: Pending, candidates: list, viewer: Any) -> tuple:
    """(zone, options) if the candidates are pieces of one unordered zone that the viewer sees
    through the zone's rule, as open_zone asks, some of which may look alike (dice); else
    (None, None). The options are the first candidate of each look, grouped as _piece_key
    groups them but without the zone, which is the same for all; the looks are kept (Looks)."""
    loc, lay = S.loc, S.lay
    zone = loc[candidates[0]]
    info = lay.zones[zone]
    if info.custom is not None or info.ordered or not _sees(S, info, candidates, viewer):
        return None, None
    singular = lay.singular
    options, looks, cache = [], set(), Looks()
    for v in candidates:
        if type(v) is not Piece or loc[v] != zone:
            return None, None
        look = v if singular[v] else _look(S, v)
        cache[v] = look
        n = len(looks)
        looks.add(look)
        if len(looks) > n:
            options.append(v)
    cache.zone = zone
    pend.cache = cache
    return zone, options


def _sees(S: Any, info: Any, candidates: list, viewer: Any) -> bool:
    """Whether the viewer sees every candidate (pieces of the zone `info`) through its rule."""
    up, down = info.vis_up, info.vis_down
    if up == "all" and down == "all":
        return True
    mine = info.owner is not None and info.owner == viewer
    if not (up == "all" or (up == "owner" and mine)):
        return False
    return down == "all" or (down == "owner" and mine) or _all_face_up(S, candidates)


def _all_face_up(S: Any, candidates: list) -> bool:
    face, face_up = S.face, S.lay.face_up
    for v in candidates:
        if type(v) is not Piece:
            return False
        up = face.get(v)
        if not (face_up[v] if up is None else up):
            return False
    return True


def _pieces_only(S: Any, pend: Pending, candidates: list, viewer: Any, L: dict | None) -> bool:
    """build_options for the first pick among pieces only (the usual case), with what is
    known of each zone looked up once; False (nothing done) if a candidate is not a piece."""
    cache: dict = {}
    options, entries, keys = [], [], set()
    lay = S.lay
    loc, face, seen = S.loc, S.face, S.seen
    face_up, singular, zone_infos = lay.face_up, lay.singular, lay.zones
    views: dict = {}  # zone -> (custom, visible face up, visible face down, ordered) for the viewer
    for v in candidates:
        if type(v) is not Piece:
            return False
        zone = loc[v]
        view = views.get(zone)
        if view is None:
            info = zone_infos[zone]
            mine = info.owner is not None and info.owner == viewer
            view = views[zone] = (info.custom, info.vis_up == "all" or (info.vis_up == "owner" and mine),
                                  info.vis_down == "all" or (info.vis_down == "owner" and mine),
                                  info.ordered)
        hit = cache.get(v)
        if hit is None:
            if view[0] is not None:
                hit = _piece_key(S, v, zone, viewer)
            else:
                up = face.get(v)
                if up is None:
                    up = face_up[v]
                if not (view[1] if up else view[2]):
                    who = seen.get(v)
                    if who is None or viewer not in who:
                        hit = ("h", zone, lay.hidden_key[v], up), False
                if hit is None:
                    hit = (v, True) if view[3] or singular[v] else (_visible_key(S, v, zone), True)
            cache[v] = hit
        key = hit[0]
        if key in keys:
            continue
        keys.add(key)
        options.append(v)
        entries.append((v, hit[1], zone))
    pend.cache = cache  # the table does not change between the picks of one choice
    _finish(pend, options, entries, len(views) > 1, True, L)
    return True


def _finish(pend: Pending, options: list, entries: list | None, many_zones: bool, has_pieces: Any,
            L: dict | None) -> None:
    """Add the closing option (done / pass) and record how to make the labels. `entries` None:
    every option is a number or a text, shown as itself, or — `has_pieces` VALUES — a value
    other than a piece, shown by label(), or — `has_pieces` a zone instead of True (open_zone) —
    every option is a visible piece of that zone."""
    tail = None
    custom = None
    if pend.label_key is not None:  # the rule's `label`: evaluated when read, with these locals
        custom = (options[:], dict(L or {}))
    if pend.kind == "choose_many" and (len(pend.picked) >= pend.low or pend.optional):
        options.append(DONE)
        tail = "done"
    elif pend.kind == "choose" and pend.optional:
        options.append(PASS)
        tail = "pass"
    pend.options = options
    pend.labels = None
    pend.recipe = (many_zones, entries, tail, has_pieces, custom)


def _piece_key(S: Any, p: Piece, zone: Any, viewer: Any) -> tuple:
    """(grouping key, visible to the viewer) of one candidate piece (see build_options)."""
    lay = S.lay
    info = lay.zones[zone]
    up = S.face.get(p)
    if up is None:
        up = lay.face_up[p]
    if info.custom is not None:
        visible = bool(info.custom(S, {"viewer": viewer, "piece": lay.pieces[p]}))
    else:
        rule = info.vis_up if up else info.vis_down
        if rule == "all" or (rule == "owner" and info.owner is not None and info.owner == viewer):
            visible = True
        else:
            seen = S.seen.get(p)
            visible = seen is not None and viewer in seen
    if not visible:
        return ("h", zone, lay.hidden_key[p], up), False
    if info.ordered or lay.singular[p]:  # nothing else can look the same: the piece is its key
        return p, True
    return _visible_key(S, p, zone), True


def _visible_key(S: Any, p: Piece, zone: Any) -> tuple:
    """The grouping key of a visible piece that other pieces may look like."""
    return ("v", zone) + _look(S, p)


def _look(S: Any, p: Piece) -> tuple:
    """What can be seen of a piece, wherever it is: its fixed key, face, changing values and who
    has seen it."""
    lay = S.lay
    dyn = S.dyn
    values = []
    for a in lay.dyn_names[p]:
        d = dyn.get(a)
        if d is not None:
            v = d.get(p)
            t = type(v)
            values.append(_hashable(v) if t is list or t is dict else v)  # maps, lists too
    return (lay.visible_key[p], S.face.get(p), tuple(values), S.seen.get(p))


def _custom_labels(S: Any, pend: Pending, values: list, L: dict) -> list:
    fn, slot = S.game.label_fns[pend.label_key]
    texts = []
    for v in values:
        L[slot] = v
        texts.append(label(S, evaluate(fn, S, L), pend.player))  # read outside the VM: errors located
    return texts


def labels_of(S: Any, pend: Pending) -> list:
    """The option labels of a pending decision, as its player sees them."""
    if pend.labels is not None:
        return pend.labels
    if pend.kind == "perform":
        labels = [translated(S, a.labels, a.label or a.name) for a in pend.recipe[1]]
        if pend.optional:
            labels.append("pass")
        pend.labels = labels
        return labels
    many_zones, entries, tail, has_pieces, custom = pend.recipe
    viewer = pend.player
    if custom is not None:
        labels = _custom_labels(S, pend, *custom)
        if tail is not None:
            labels.append(tail)
        pend.labels = labels
        return labels
    values = pend.options[:-1] if tail is not None else pend.options
    if has_pieces is VALUES:  # values other than pieces (_values_recipe)
        labels = [label(S, v, viewer) for v in values]
        if tail is not None:
            labels.append(tail)
        pend.labels = labels
        return labels
    if entries is None and has_pieces:  # visible pieces of one zone (open_zone)
        entries = [(v, True, has_pieces) for v in values]
    elif entries is None:
        labels = [str(v) for v in values]
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
