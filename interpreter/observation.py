"""What one player observes at a decision point, as data (the Observation).

Everything a surface shows a player — the terminal, the web page, an adapter's strings and
tensors, the hidden-information audit's comparisons — is made from this one structure, built
only from what that player may see. It is plain JSON data and a function of the state and the
viewer only, so two states that differ only in things hidden from the viewer give equal
observations (the audit checks exactly that). It is built only when asked for, never while
the game runs.

    game, players, viewer, round, phase, over, waiting_for, result (when over)
    zones       key -> {"label", "ordered", "pieces": [piece]}
                piece: {"id", "name", "kind", "label", "face_down"?, changeable attributes}
                or, hidden from the viewer, {"hidden": true, "kind": back, public attributes,
                "ref": "<zone>#<n>"}: a handle by position (its n-th hidden slot there), which
                says nothing about which piece it is
    counters    key -> {"label", "value"} (those the viewer may see)
    variables   key -> value (pieces, players and zones as labels; hidden pieces never by id)
    grids, grid_shapes, board_places   maps (grid cells a viewer cannot see read "?")
    decision    the viewer's pending decision: {"kind", "prompt": event or None, "options":
                [option], "low", "high", "picked", "optional", "secret"}; an option is
                {"label"} plus its value as data: {"piece": piece, "zone"} (a piece standing for
                look-alikes in an unordered place has no id or name), {"player"}, {"action"},
                {"value"}, {"done": true} or {"pass": true}
    log         [{"round", "template", "args"}]: each line as an event (events.py), every
                argument as the viewer saw it when the line was written

`viewer` None is the omniscient reader (a referee, a finished game's replay).
"""
from __future__ import annotations

import copy
from typing import Any

from .events import entry_event, mask_event, template_of
from .labels import label, piece_label, zone_label
from .options import DONE, PASS, labels_of
from .threads import waiting
from .values import Piece, Player, ZoneRef, encode


def observe(S: Any, viewer: Any = None, log_from: int | None = 0, pending: Any = None) -> dict:
    """What `viewer` observes now (None: everything). `log_from`: the first log entry given
    (None: no log); `pending`: a decision to show instead of the viewer's own (the audit's
    rebuilt options)."""
    zones = {}
    for key, pieces in S.zones.items():
        if not pieces or key == "box":
            continue
        ordered = S.lay.zones[key].ordered
        shown = [piece_data(S, p, viewer) for p in pieces]
        hidden = [v for v in shown if "hidden" in v] if viewer is not None else None
        if hidden:
            if not ordered:  # when each arrived is not part of the zone, and would tell which is which
                hidden.sort(key=lambda v: sorted(v.items(), key=str))
                shown = [v for v in shown if "hidden" not in v] + hidden
            for n, v in enumerate(hidden):
                v["ref"] = f"{key}#{n}"
        zones[str(key)] = {"label": zone_label(S, key), "ordered": ordered, "pieces": shown}
    counters = {k: {"label": slot_label(S.lay.counters[k]), "value": v} for k, v in S.counters.items()
                if _visible_slot(S.lay.counters[k], viewer)}
    out = {
        "game": S.game.id, "players": S.n, "viewer": None if viewer is None else int(viewer),
        "round": S.vars.get("round"), "phase": S.vars.get("phase"), "over": S.over,
        "waiting_for": _waiting_for(S), "zones": zones, "counters": counters,
        "variables": _variables(S, viewer),
    }
    places = _board_places(S, zones)
    if places:
        out["board_places"] = places
    grids = _grids(S, viewer)
    if grids:
        out["grids"] = grids
        out["grid_shapes"] = {key: _grid_shape(S, key) for key in grids}
    if pending is None and viewer is not None and not S.over:
        th = waiting(S).get(int(viewer))
        pending = th.pending if th is not None else None
    if pending is not None:
        out["decision"] = decision_data(S, pending)
    if S.result:
        out["result"] = copy.deepcopy(S.result)
    if log_from is not None:
        out["log"] = log_events(S, viewer, log_from)
    return out


def log_events(S: Any, viewer: Any = None, start: int = 0) -> list[dict]:
    """The log from entry `start`, each line an event as `viewer` reads it."""
    out = []
    for entry in S.log[start:]:
        event = mask_event(entry_event(entry), viewer)
        event["round"] = entry[0]
        out.append(event)
    return out


# ---------------------------------------------------------------------- pieces
def piece_data(S: Any, piece: Piece, viewer: Any) -> dict:
    """One piece as `viewer` sees it: its identity and face, or only its back."""
    static = S.lay.static[piece]
    if viewer is not None and not S.sees(viewer, piece):
        comp = S.game.components[static["kind"]]
        out = {"hidden": True, "kind": comp.back}
        for attr in comp.public:
            if attr in static:
                out[attr] = encode(static[attr])
        return out
    out = {"id": int(piece), "name": static["name"], "kind": static["kind"],
           "label": piece_label(S, piece)}
    if not S.face_up(piece) and S.lay.zones[S.loc[piece]].vis_up == "all":
        out["face_down"] = True  # face down where it would otherwise be public (not in a hand)
    for name, values in S.dyn.items():
        if piece in values:
            out[name] = encode(values[piece])
    return out


def value_data(S: Any, value: Any, viewer: Any) -> Any:
    """A value as JSON data (values.encode) in which a piece hidden from `viewer` is only its
    back: {"$hidden": back}."""
    t = type(value)
    if t is Piece:
        if viewer is not None and not S.sees(viewer, value):
            return {"$hidden": S.game.components[S.lay.static[value]["kind"]].back}
        return {"$piece": int(value)}
    if t is list:
        return [value_data(S, v, viewer) for v in value]
    if t is tuple:
        return {"$tuple": [value_data(S, v, viewer) for v in value]}
    if isinstance(value, dict):
        return {"$map": [[value_data(S, k, viewer), value_data(S, v, viewer)] for k, v in value.items()]}
    return encode(value)


# ---------------------------------------------------------------------- counters, variables
def _visible_slot(info: Any, viewer: Any) -> bool:
    if viewer is None or info.visibility == "public":
        return True
    return info.visibility == "owner" and info.owner is not None and int(info.owner) == int(viewer)


def slot_label(info: Any) -> str:
    """"money [P2]" for the counter or variable key "money:1"."""
    if not info.index:
        return info.family
    return f"{info.family} [{', '.join(label(None, i) for i in info.index)}]"


def _variables(S: Any, viewer: Any) -> dict:
    out = {}
    for k, v in S.vars.items():
        info = S.lay.variables.get(k)
        if k.startswith("$") or (info is not None and not _visible_slot(info, viewer)):
            continue
        if info is not None and S.game.variables[info.family].internal:
            continue
        out[k] = label(S, v, viewer) if _needs_label(v) else value_data(S, v, viewer)
    return out


def _needs_label(v: Any) -> bool:
    """Pieces, players and zones are shown as people read them, not as JSON tags."""
    if type(v) in (Piece, Player, ZoneRef):
        return True
    return isinstance(v, (list, tuple)) and any(_needs_label(x) for x in v)


def _waiting_for(S: Any) -> list:
    return [] if S.over else sorted(waiting(S))


# ---------------------------------------------------------------------- the decision
def decision_data(S: Any, pend: Any) -> dict:
    """A pending decision as its player sees it: the prompt as an event, the options as data."""
    viewer = pend.player
    labels = labels_of(S, pend)
    if pend.prompt_event is not None:
        prompt: Any = mask_event(pend.prompt_event, viewer)
    elif pend.prompt is not None:
        prompt = {"template": template_of([pend.prompt]), "args": []}
    else:
        prompt = None
    options = []
    for i, value in enumerate(pend.options):
        option = {"label": labels[i]}
        if value == DONE and type(value) is str:
            option["done"] = True
        elif value == PASS and type(value) is str:
            option["pass"] = True
        elif pend.kind == "perform":
            option["action"] = value
        elif type(value) is Piece:
            option["piece"] = _option_piece(S, value, viewer)
            option["zone"] = str(S.loc[value])
        elif type(value) is Player:
            option["player"] = int(value)
        else:
            option["value"] = value_data(S, value, viewer)
        options.append(option)
    out = {"kind": pend.kind, "prompt": prompt, "options": options, "optional": bool(pend.optional),
           "secret": bool(pend.secret)}
    if pend.kind == "choose_many":
        out["low"], out["high"] = pend.low, pend.high
        out["picked"] = [value_data(S, v, viewer) for v in pend.picked]
    return out


def _option_piece(S: Any, piece: Piece, viewer: Any) -> dict:
    """A piece offered as an option. A visible piece in an unordered place that has look-alikes
    there stands for all of them (options.build_options): which one is arbitrary, so no id."""
    out = piece_data(S, piece, viewer)
    if "id" in out and not S.lay.zones[S.loc[piece]].ordered and not S.lay.singular[piece]:
        out.pop("id"), out.pop("name", None)
    return out


# ---------------------------------------------------------------------- maps
def _grids(S: Any, viewer: Any) -> dict:
    """Grid zones as maps: zone key -> [[x, y, text, owner], …], one entry per covered cell."""
    out = {}
    for key, cells in S.grid.items():
        if not cells:
            continue
        rows = []
        for (x, y), (piece, part) in sorted(cells.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            owner = S.lay.static[piece].get("owner")
            owner = None if owner is None else int(owner)
            if viewer is not None and not S.sees(viewer, piece):
                text = "?"
            else:
                text = _cell_text(S, piece, part)
            rows.append([x, y, text, owner])
        out[str(key)] = rows
    return out


def _board_places(S: Any, zones: dict) -> dict:
    """Zones indexed by a graph board's nodes, gathered per node so a map reads district by
    district: board id -> [{node, label, neighbors, zones: [zone keys with pieces]}]."""
    by_board: dict = {}
    for key in zones:
        info = S.lay.zones.get(key)
        fam = S.game.zones.get(info.family) if info is not None else None
        if fam is None:
            continue
        for dim, value in zip(fam.dims, info.index):
            if dim.kind == "board":
                by_board.setdefault(dim.board, {}).setdefault(value, []).append(key)
                break
    out = {}
    for board_id, at_node in by_board.items():
        board = S.game.boards[board_id]
        out[board_id] = [{"node": node, "label": _node_label(board, node),
                          "neighbors": [_node_label(board, m) for m in board.adj.get(node, [])],
                          "zones": at_node.get(node, [])} for node in board.nodes]
    return out


def _node_label(board: Any, node: str) -> str:
    return str((board.nodes.get(node) or {}).get("label", node))


def _grid_shape(S: Any, key: Any) -> dict:
    """How a grid zone is drawn: its declared size, first coordinate shown, which way y grows."""
    spec = S.lay.zones[key].grid or {}
    shape = {"origin": spec.get("origin", 0), "y_up": bool(spec.get("y_up", False))}
    for name in ("width", "height", "max_width", "max_height"):
        if isinstance(spec.get(name), int):
            shape[name] = spec[name]
    return shape


def _cell_text(S: Any, piece: Any, part: int) -> str:
    """What a map shows in one cell: the covering part's `type`-like value, else the label."""
    static = S.lay.static[piece]
    for attr in ("cells", "types", "type"):
        value = static.get(attr)
        if isinstance(value, list) and part < len(value):
            value = value[part]
            if isinstance(value, dict):
                value = value.get("type") or value.get("label") or next(iter(value.values()), "")
            return str(value)
        if isinstance(value, str):
            return value
    return piece_label(S, piece)
