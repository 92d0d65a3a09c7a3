"""The generator's shared part: the rule file, its layout for one player count, fresh names,
the lines written so far, and the questions every writer asks (a zone's list, a counter's
bounds). interpreter/transpile/__init__.py says what the generated program is."""
from __future__ import annotations

import re
from typing import Any

from .. import ast
from ..layout import get_layout
from .rulefile import RuleFile

_SIMPLE = re.compile(r"^([A-Za-z_][A-Za-z_0-9]*|-?\d+|'[^']*'|None|True|False)$")


class Unsupported(NotImplementedError):
    """The rule file uses something the generator does not cover (named, with its position):
    such a game runs in the engine."""

    def __init__(self, what: str, pos: Any = None):
        self.what, self.pos = what, pos
        super().__init__(f"transpile: {what}{f' at {pos}' if pos else ''} is not supported")


def is_simple(code: str) -> bool:
    """A name or a constant: safe to repeat in generated code without computing it twice."""
    return bool(_SIMPLE.match(code))


class WriterBase:
    """What every part of the generator shares: the rule file, the layout, fresh names, lines."""

    fold_inline = False  # True in constants.py's folding writer: every call inlined, never written

    def __init__(self, loaded: RuleFile, n: int = 2, options: dict | None = None):
        self.L = loaded
        self.d = loaded.game
        self.n = n
        self.options = {oid: o.default for oid, o in self.d.options.items()} | dict(options or {})
        self.lay = get_layout(self.d, n, self.options)
        self.needed: dict[str, str] = {}  # expression functions called as nested functions
        self.defined: set[str] = set()
        self.uniq = 0
        self.lines: list[str] = []
        self.inlining: list[str] = []  # procedures being inlined (recursion is not supported)
        self.attrs = self._piece_attributes()
        self.row_fields = self._row_fields()

    # ---------------------------------------------------------------- helpers
    def fresh(self, stem: str) -> str:
        self.uniq += 1
        return f"{re.sub(r'[^A-Za-z0-9_]', '_', stem)}_{self.uniq}"

    def emit(self, depth: int, line: str) -> None:
        self.lines.append("    " * depth + line)

    @staticmethod
    def unsupported(what: str, node: Any = None) -> "Unsupported":
        return Unsupported(what, node.pos if isinstance(node, ast.Node) else None)

    def _piece_attributes(self) -> dict[str, list]:
        """Each piece attribute as a list indexed by piece number (from the layout): the value of
        a fixed one, the starting value of one that changes (the program copies those: dice.py)."""
        self.mutable = sorted(self.d.mutable_attrs)
        if "pos" in self.mutable:
            raise self.unsupported("pieces with a changing attribute `pos` (grid positions)")
        names = {k for s in self.lay.static for k in s} - {"label", "labels", "owner"}
        names |= set(self.mutable)
        return {k: [s.get(k) for s in self.lay.static] for k in sorted(names)}

    def _row_fields(self) -> set:
        """Keys of the dicts inside tables (a row's field, read as `row.key`)."""
        out: set = set()
        for value in self.d.tables.values():
            rows = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
            for row in rows:
                if isinstance(row, dict):
                    out.update(row)
        return out

    def _family_keys(self, table: dict, name: str) -> list:
        """The layout's slots of one counter/variable family, as [(index, SlotInfo)]."""
        return [(info.index, info) for info in table.values() if info.family == name]

    def bounds(self, counter: str) -> tuple:
        infos = [info for _, info in self._family_keys(self.lay.counters, counter)]
        bounds = {(info.low, info.high) for info in infos}
        if len(bounds) != 1:
            raise self.unsupported(f"counter {counter} with bounds differing by index")
        return bounds.pop()

    def clamped(self, code: str, counter: str) -> str:
        low, high = self.bounds(counter)
        if low is not None:
            code = f"max({low!r}, {code})"
        if high is not None:
            code = f"min({high!r}, {code})"
        return code

