"""What each zone hides, and from whom, as far as the rule text tells (for interpreter/infoflow.py).

A zone family hides the faces of its pieces from some players when its visibility says so: its
owner sees an `owner` zone (the zone's player index, or a computed `owner:`), nobody sees a
`hidden` zone, a `custom` rule decides at run time. A zone that shows face-up pieces to all may
still hide face-down ones: the rules put pieces there face down. `pieces(component)` finds pieces
wherever they are. What each family may hold (the components that start there or that the rules
move there) tells which statements on its pieces may fail.
"""
from __future__ import annotations

from typing import Any, Iterable

from . import ast
from .errors import RuleError
from .parser import parse_block


class Secrecy:
    """Static facts about the zones of one merged rule document and its compiled definition."""

    def __init__(self, doc: Any, game: Any):
        self.doc, self.game = doc, game
        self.public_attrs = self._public_attrs()
        self.may_hold: dict = {}  # zone family -> components that start there or are moved there
        self.face_down_families = self._face_down_families()
        self.secret_families = {name for name in game.zones if self.secrecy(name)[0] is not None}

    def _public_attrs(self) -> set:
        """Attributes every component that has them shows on its back (`public:`)."""
        defined: dict = {}
        for comp in self.game.components.values():
            names = set(comp.public)
            attrs = set()
            for item in comp.items:
                attrs |= set(item.attrs)
            for a in attrs | set(comp.mutable):
                defined.setdefault(a, []).append(a in names)
            for a in names:
                defined.setdefault(a, []).append(True)
        return {a for a, flags in defined.items() if all(flags)}

    def zone_secrecy(self, family: str) -> str | None:
        """"owner", "hidden", "pieces" or None (everyone sees the faces)."""
        return self.secrecy(family)[0]

    def secrecy(self, family: str) -> tuple[str | None, str | None]:
        """(kind, runtime): kind is "owner" (its owner sees the faces), "hidden" (nobody),
        "pieces" (pieces(component): wherever they are) or None (everyone); runtime says why
        only play decides it (findings are then warnings)."""
        if family.startswith("pieces("):
            return self.pieces_secrecy(family[len("pieces("):-1])
        z = self.game.zones.get(family)
        if z is None or z.grid is not None:
            return None, None
        if z.custom is not None:
            return "hidden", f"who sees the pieces of {family} is decided by its custom visibility rule"
        rule, runtime = z.vis_up, None
        if z.face is False:
            rule = z.vis_down
        elif z.face is None and rule == "all" and z.vis_down != "all" and family in self.face_down_families:
            rule = z.vis_down  # face-up pieces show, but the rules also put pieces face down there
            runtime = f"the pieces of {family} may lie face up (seen by all) or face down"
        if rule == "all":
            return None, None
        if rule == "owner":
            if z.owner is None and not any(d.kind == "player" for d in z.dims):
                return "hidden", runtime  # no one owns it: nobody sees its faces
            return "owner", runtime
        return "hidden", runtime

    def pieces_secrecy(self, comp_id: str) -> tuple[str | None, str | None]:
        """pieces(component) hides where its pieces are when they start in a zone that hides them
        (an error), or when the rules move them into one (a warning: maybe not yet)."""
        comp = self.game.components.get(comp_id)
        if comp is not None and comp.start in self.secret_families:
            return "pieces", None
        if any(comp_id in self.may_hold.get(z, ()) for z in self.secret_families):
            return "pieces", f"the {comp_id} pieces may all be in public zones by then"
        return None, None

    def _face_down_families(self) -> set:
        """Zone families the rules put pieces face down into (or that face-down pieces start in).
        Also fills `may_hold`: the components each zone family may hold (where they start, and
        what the rules move there: `pieces(c)` or the contents of other zones)."""
        out = {c.start for c in self.game.components.values() if c.start and not c.face_up}
        for c in self.game.components.values():
            if c.start:
                self.may_hold.setdefault(c.start, set()).add(c.id)
        moves = []
        for proc_text in all_blocks(self.doc):
            try:
                stmts = parse_block(proc_text)
            except RuleError:
                continue
            for node in walk(stmts):
                moved = node.what if isinstance(node, ast.Move) else node.source if isinstance(node, (ast.Draw, ast.Deal)) else None
                dest = node.to if isinstance(node, ast.Move) else node.dest if isinstance(node, ast.Draw) else \
                    node.family if isinstance(node, ast.Deal) else None
                target = dest.obj if isinstance(dest, ast.Index) else dest
                if isinstance(target, ast.Name) and target.id in self.game.zones:
                    moves.append((moved, target.id))
                    if node.face is False:
                        out.add(target.id)
                if isinstance(node, ast.Flip) and node.face is False:
                    out |= {n.id for n in walk([node.what]) if isinstance(n, ast.Name) and n.id in self.game.zones}
        for _ in range(len(self.game.zones)):  # until nothing more flows from zone to zone
            changed = False
            for moved, family in moves:
                held = self.may_hold.setdefault(family, set())
                before = len(held)
                for n in walk([moved]):
                    if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "pieces" \
                            and n.args and isinstance(n.args[0], ast.Name):
                        held.add(n.args[0].id)
                    elif isinstance(n, ast.Name) and n.id in self.game.zones:
                        held |= self.may_hold.get(n.id, set())
                changed |= len(held) != before
            if not changed:
                break
        return out

    def zone_is_public(self, family: str, face: bool | None) -> bool:
        z = self.game.zones.get(family)
        if z is None or z.custom is not None:
            return False
        if face is False or z.face is False:
            return z.vis_down == "all"
        return z.vis_up == "all"


def all_blocks(doc: Any) -> list:
    """Every statement block of a rule document (functions, actions, setup, flow, triggers, scoring)."""
    out = []
    for section in ("functions", "actions", "triggers"):
        for spec in (doc.get(section) or {}).values():
            if isinstance(spec, dict):
                out.append(spec.get("do"))
    for step in doc.get("setup") or []:
        if isinstance(step, dict):
            out.append(step.get("do"))
    flow = doc.get("flow") or {}
    if isinstance(flow, dict):
        out += [flow.get("round_start"), flow.get("round_end")]
        for phase in flow.get("phases") or []:
            if isinstance(phase, dict):
                out += [phase.get(k) for k in ("start", "do", "turn", "end")]
    scoring = doc.get("scoring") or {}
    if isinstance(scoring, dict):
        out.append(scoring.get("final"))
    return [b for b in out if isinstance(b, str) and b.strip()]


def walk(value: Any) -> Iterable:
    if isinstance(value, list):
        for item in value:
            yield from walk(item)
    elif isinstance(value, ast.Node):
        yield value
        for child in vars(value).values():
            if isinstance(child, (list, ast.Node)):
                yield from walk(child)
            elif isinstance(child, tuple):
                yield from walk(list(child))
