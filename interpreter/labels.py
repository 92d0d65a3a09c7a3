"""How values are shown to people: option labels, log lines, views."""
from __future__ import annotations

from typing import Any

from .values import Family, Piece, Player, ZoneRef


def translated(S: Any, labels: Any, english: str) -> str:
    """The label in the state's language if the rules give one, else English."""
    lang = getattr(S, "lang", None)
    if lang and labels and lang in labels:
        return str(labels[lang])
    return english


def player_label(p: Any) -> str:
    return f"P{int(p) + 1}"


def piece_label(S: Any, piece: int, viewer: Any = None) -> str:
    """The piece's face as `viewer` sees it (None: everything)."""
    static = S.lay.static[piece]
    if viewer is not None and not S.sees(viewer, piece):
        comp = S.game.components[static["kind"]]
        public = [str(static[a]) for a in comp.public
                  if a in static and a not in ("kind", "name", "back") and static[a] is not None]
        if comp.back != comp.id:  # several components share this back: show only the back
            what = comp.back.replace("_", " ")
        else:
            what = translated(S, comp.labels, comp.label or comp.id.replace("_", " "))
        return "hidden " + " ".join([what] + public)
    text = translated(S, static.get("labels"), str(static.get("label") or static["name"]))
    value = S.dyn.get("value", {}).get(piece) if "value" in S.dyn else None
    if value is not None:
        text += f" {value}"
    return text


def zone_label(S: Any, key: str) -> str:
    info = S.lay.zones.get(key)
    if info is None:
        return str(key)
    fam = S.game.zones.get(info.family)
    base = (fam.label if fam and fam.label else info.family.replace("_", " "))
    if fam is not None:
        base = translated(S, fam.labels, base)
    if not info.index:
        return base
    parts = [_index_label(S, fam, d, i) for d, i in enumerate(info.index)]
    return f"{base} [{', '.join(parts)}]"


def _index_label(S: Any, fam: Any, dim: int, value: Any) -> str:
    """A zone index as people read it: P2 for a player, a board node's label for a node."""
    if isinstance(value, Player):
        return player_label(value)
    if fam is not None and dim < len(fam.dims) and fam.dims[dim].kind == "board":
        node = S.game.boards[fam.dims[dim].board].nodes.get(value) or {}
        return str(node.get("label", value))
    return str(value)


def label(S: Any, value: Any, viewer: Any = None) -> str:
    t = type(value)
    if t is int or t is str:  # the most common values (str() of a number in rule code)
        return str(value)
    if t is Piece:
        return piece_label(S, value, viewer)
    if t is Player:
        return player_label(value)
    if t is ZoneRef:
        return zone_label(S, value)
    if t is Family:
        return str(value)
    if value is None:
        return "none"
    if t is bool:
        return "true" if value else "false"
    if t is list:
        return ", ".join(label(S, v, viewer) for v in value)
    if t is tuple:
        return "(" + ", ".join(label(S, v, viewer) for v in value) + ")"
    if isinstance(value, dict):
        for key in ("label", "name", "id"):
            if key in value:
                return str(value[key])
        return str(value)
    return str(value)
