"""The generated program's final state, handed back only when asked (`play(seed, agents,
state={})`): the generator's Rng state, every zone's pieces and every counter and variable,
keyed as the engine keys them (a zone "hand:0", a counter slot "stake:1"), so that a test can
compare them with the engine's final state (compare.state_difference).

Each family is exported in its own try block: a family laid out in a form this module does not
know is left out (and so not compared) rather than failing the game. Nothing here runs when the
caller does not ask for the state."""
from __future__ import annotations

from .base import WriterBase


class FinalStateWriter(WriterBase):
    """Writes the `if state is not None:` block at the end of a game."""

    def state_export(self, depth: int) -> None:
        """The export block, placed just before the last line written (the result's `return`,
        after the `final` block: what scoring reads it does not change)."""
        result = self.lines.pop()
        assert result.strip().startswith("return "), result
        self.emit(depth, "if state is not None:")
        self.emit(depth + 1, "state['rng'] = rng.state")
        for section, entries in (("zones", self._zone_entries()), ("counters", self._slot_entries(True)),
                                 ("vars", self._slot_entries(False))):
            self.emit(depth + 1, f"state['{section}'] = _section = {{}}")
            for family, items in entries:
                self.emit(depth + 1, "try:")
                self.emit(depth + 2, f"_section.update({{{', '.join(f'{k!r}: {v}' for k, v in items)}}})")
                self.emit(depth + 1, "except Exception:  # a form this export does not know: not compared")
                self.emit(depth + 2, "pass")
        self.lines.append(result)

    def _zone_entries(self) -> list[tuple[str, list]]:
        out = []
        for name, table in self.lay.zone_index.items():
            entries = []
            for k in table:  # indexed by numbers (lists) or a board's nodes (dicts: boards.py)
                parts = k if isinstance(k, tuple) else (k,)
                code = "".join(f"[{x!r}]" if isinstance(x, str) else f"[{int(x)}]" for x in parts)
                entries.append((table[k], f"z_{name}{code}"))
            out.append((name, entries))
        return out

    def _slot_entries(self, counters: bool) -> list[tuple[str, list]]:
        families: dict[str, list] = {}
        for key, info in (self.lay.counters if counters else self.lay.variables).items():
            prefix = "c_" if counters else "v_"
            if not info.index:
                families.setdefault(info.family, []).append((key, f"{prefix}{info.family}"))
            elif len(info.index) == 1 and isinstance(info.index[0], int):
                families.setdefault(info.family, []).append((key, f"{prefix}{info.family}[{int(info.index[0])}]"))
        return list(families.items())
