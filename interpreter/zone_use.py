"""Load-time check: zones used the way a statement needs them.

A zone declared `per: [player]` (or any `per`) is a *family* of zones: `hand` names them all,
`hand[p]` one of them. `move`, `draw` and `shuffle` need one zone (or pieces); `deal` needs a
family (it gives to every player). Mixing them up used to surface mid-game with internal names
("expected pieces, got 'played:0'"); here it is an error at the statement, with the fix.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Iterator

from . import ast
from .errors import RuleError


def zone_use_errors(stmts: list, zones: dict) -> list[RuleError]:
    """Errors for family/zone mix-ups in a parsed block; `zones` is GameDef.zones."""
    bound = set(_bound_names(stmts))
    families = {name for name, fam in zones.items() if fam.dims and name not in bound}
    errors: list[RuleError] = []
    for node in _walk(stmts):
        if isinstance(node, ast.Move):
            _one_zone(node.what, families, zones, "move", errors)
            _one_zone(node.to, families, zones, "move … to", errors)
        elif isinstance(node, ast.Draw):
            _one_zone(node.source, families, zones, "draw … from", errors)
            _one_zone(node.dest, families, zones, "draw … to", errors)
        elif isinstance(node, ast.Shuffle):
            _one_zone(node.zone, families, zones, "shuffle", errors)
        elif isinstance(node, ast.Deal):
            _whole_family(node, zones, errors)
    return errors


def reveal_warnings(stmts: list, zones: dict) -> list[RuleError]:
    """`reveal X` (no `to`) turns pieces face up; in a zone that shows face-up pieces only to its
    owner (or to nobody), that changes nothing anyone else sees — usually not what was meant."""
    out = []
    for node in _walk(stmts):
        if not isinstance(node, ast.Reveal) or node.to is not None:
            continue
        target = node.what.obj if isinstance(node.what, ast.Index) else node.what
        fam = zones.get(target.id) if isinstance(target, ast.Name) else None
        if fam is None or fam.custom is not None or fam.vis_up == "all":
            continue
        who = "its owner" if fam.vis_up == "owner" else "nobody"
        out.append(RuleError(
            f"warning: this reveal turns pieces of {target.id} face up, but {target.id} shows face-up "
            f"pieces only to {who}, so no one else sees them; to show them to everyone write "
            f"`reveal … to players`", node.pos, "E236"))
    return out


def _one_zone(node: Any, families: set, zones: dict, where: str, errors: list) -> None:
    if isinstance(node, ast.Name) and node.id in families:
        dims = zones[node.id].dims
        if [d.kind for d in dims] == ["player"]:
            what, example = "a zone per player", f"{node.id}[player] or {node.id}[p]"
        else:
            what, example = f"a family of {len(dims)}-index zones", f"{node.id}[{', '.join('…' for _ in dims)}]"
        errors.append(RuleError(
            f"{node.id} is {what}; {where} needs one of them: index it, e.g. {example}", node.pos, "E235"))


def _whole_family(node: ast.Deal, zones: dict, errors: list) -> None:
    target = node.family
    if isinstance(target, ast.Index) and isinstance(target.obj, ast.Name) and target.obj.id in zones:
        name = target.obj.id
        errors.append(RuleError(
            f"deal gives cards to every player's {name}: write `deal … to {name}`; to give one "
            f"player cards, write `draw … from … to {name}[…]`", target.pos, "E235"))


def _bound_names(stmts: list) -> Iterator[str]:
    """Locals a block declares (a local may shadow a zone's name)."""
    for node in _walk(stmts):
        if isinstance(node, (ast.Let, ast.For, ast.Choose)):
            yield node.name if isinstance(node, ast.Let) else node.var
        elif isinstance(node, ast.Comprehension):
            yield node.var


def _walk(value: Any) -> Iterator[Any]:
    if isinstance(value, list):
        for item in value:
            yield from _walk(item)
    elif isinstance(value, ast.Node):
        yield value
        for f in dataclasses.fields(value):
            child = getattr(value, f.name)
            if isinstance(child, (list, ast.Node)):
                yield from _walk(child)
            elif isinstance(child, dict):
                yield from _walk(list(child.values()))
