"""Choices among pieces, quicker where every candidate either hides its face from the chooser
(seen by nobody in particular) or shows it and is its own option (in an ordered zone, or alone
of its kind) or plain: a piece whose look is its item and face alone (no changing attribute,
seen by nobody in particular). A plain piece's look is (its zone, its item's key, its face), a
hidden one's (its zone, its back, its face): the options are the first candidate of each
(runtime._plain_options), the same as looks.py's runtime._piece_options gives; a candidate
that is none of these sends the whole choice there (runtime._look_options asks both in one
call; no candidates: an empty list either way). A choice among a zone's whole list that shows
both faces to the chooser is the list itself when every piece in it is alone of its kind
(seen_whole).

PLAIN, a module constant: each piece's visible key number (looks.py's VKEY) when its component
has no changing attribute, else None."""
from __future__ import annotations

from typing import Any

from .looks import LooksWriter, _numbered


class PlainLooksWriter(LooksWriter):
    """Options among plain pieces (see the module docstring)."""

    def piece_tables(self) -> list[str]:
        out = super().piece_tables()
        if not self.looks:
            return out
        vkey = _numbered(self.lay.visible_key)
        plain = [None if self.d.components[s["kind"]].mutable else vkey[i] for i, s in enumerate(self.lay.static)]
        return out + [f"PLAIN = {plain!r}\n"]

    def options_code(self, candidates: str, kind: Any, who: str, n) -> str:
        code = super().options_code(candidates, kind, who, n)
        if code.startswith("_piece_options("):
            looked = f"_look_options({candidates}, {who}, PS, PLAIN)"
            if self.seen_whole(candidates, who):
                return f"(list({candidates}) if all(map(SINGULAR.__getitem__, {candidates})) else {looked})"
            return looked
        return code

    def seen_whole(self, candidates: str, who: str) -> bool:
        """The candidates are one zone's whole list (`z_family` or `z_family[who]`) whose every
        instance shows both faces to `who` (visibility all, or owner where `who` is the index it
        owns): there every candidate alone of its kind is its own option, in the zone's order
        (runtime._plain_options keys it by itself), so when all are, the options are the list."""
        if not who.isidentifier():
            return False
        infos = [info for info in self.lay.zones.values() if candidates in (
            f"z_{info.family}", f"z_{info.family}[{who}]")]
        for info in infos:
            one_index = candidates.endswith(f"[{who}]") and len(info.index) == 1
            if info.index and not one_index or info.custom is not None:
                return False
            for vis in (info.vis_up, info.vis_down):
                if not (vis == "all" or vis == "owner" and one_index and info.owner is not None
                        and info.owner == info.index[0]):
                    return False
        return bool(infos)
