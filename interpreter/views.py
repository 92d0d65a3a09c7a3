"""What one player may see: zones, counters, variables, their own decision, the log.

Pieces a viewer cannot see are shown without identity (no id, no hidden attributes), so a
player's view, log and options do not change when only things hidden from them change.
"""
from __future__ import annotations

from typing import Any

from .labels import label, piece_label, zone_label
from .logs import render
from .values import Piece, Player, ZoneRef, encode


def _piece_view(S: Any, piece: Piece, viewer: Any) -> dict:
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


def _unordered(shown: list) -> list:
    """An unordered zone: visible pieces as they are, then hidden ones in a fixed order (when
    each arrived is not part of the zone, and would tell which hidden piece is which)."""
    hidden = [v for v in shown if v.get("hidden")]
    if not hidden:
        return shown
    return [v for v in shown if not v.get("hidden")] + sorted(hidden, key=lambda v: sorted(v.items(), key=str))


def _visible_slot(info: Any, viewer: Any) -> bool:
    if viewer is None or info.visibility == "public":
        return True
    return info.visibility == "owner" and info.owner is not None and int(info.owner) == int(viewer)


def view(S: Any, viewer: Any = None) -> dict:
    """The state as `viewer` may see it (None: everything), as JSON-ready data."""
    zones = {}
    for key, pieces in S.zones.items():
        if not pieces or key == "box":
            continue
        shown = [_piece_view(S, p, viewer) for p in pieces]
        if not S.lay.zones[key].ordered and viewer is not None:
            shown = _unordered(shown)
        zones[str(key)] = shown
    counters = {k: v for k, v in S.counters.items() if _visible_slot(S.lay.counters[k], viewer)}
    variables = {}
    for k, v in S.vars.items():
        info = S.lay.variables.get(k)
        if k.startswith("$") or (info is not None and not _visible_slot(info, viewer)):
            continue
        if info is not None and S.game.variables[info.family].internal:
            continue
        variables[k] = label(S, v, viewer) if _needs_label(v) else encode(v)
    out = {
        "game": S.game.id, "players": S.n, "round": S.vars.get("round"), "phase": S.vars.get("phase"),
        "viewer": None if viewer is None else int(viewer), "zones": zones,
        "zone_labels": {key: zone_label(S, key) for key in zones}, "counters": counters,
        "counter_labels": {key: slot_label(S.lay.counters[key]) for key in counters},
        "variables": variables, "waiting_for": S.current_players(), "over": S.over,
    }
    places = _board_places(S, zones)
    if places:
        out["board_places"] = places
    grids = _grids(S, viewer)
    if grids:
        out["grids"] = grids
        out["grid_shapes"] = {key: _grid_shape(S, key) for key in grids}
    if viewer is not None and int(viewer) in out["waiting_for"]:
        out["decision"] = {"prompt": S.prompt(viewer), "options": S.option_labels(viewer)}
    if S.result:
        out["result"] = S.result
    return out


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


def slot_label(info: Any) -> str:
    """"money [P2]" for the counter or variable key "money:1"."""
    if not info.index:
        return info.family
    return f"{info.family} [{', '.join(label(None, i) for i in info.index)}]"


def _needs_label(v: Any) -> bool:
    """Pieces, players and zones are shown as people read them, not as JSON tags."""
    if type(v) in (Piece, Player, ZoneRef):
        return True
    return isinstance(v, (list, tuple)) and any(_needs_label(x) for x in v)


def log_lines(S: Any, viewer: Any = None) -> list[str]:
    """The log as `viewer` may read it."""
    return [render(e, viewer) for e in S.log]
