"""Rule coverage: which procedures, actions, branches, triggers and end conditions fired.

A Probe instruments one private copy of a loaded game (the one a worker keeps for coverage
runs): every VM instruction of every compiled procedure is wrapped by a counter. Nothing in the
engine changes and games played without a probe pay nothing. The wrapped instructions keep the
VM's contract (same arguments, same return value), so the game plays exactly as without it.

Counts are keyed "procedure#index". `CoverageTally` (main process) adds up the per-game counts
and, with the game definition, names what fired and what never did:

- procedures (`fn:`), actions (`action:`), the main flow and the final scoring block: entered;
- triggers: their `do` block ran (its `when` held);
- end conditions: the game ended through them (from the end reason, checked against the rules);
- branches: every `if`/`elif` body of every block, taken or never taken;
- statements: every line of rule code, run or never run.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from ..compiler import unfuse


def _branch_heads(proc: Any) -> dict[int, Any]:
    """Instruction index of each `if`/`elif` test → position (tests are generated as
    `if not (cond): jump`; the branch body starts at the next instruction)."""
    heads = {}
    for i, ins in enumerate(proc.code):
        ins = proc.originals.get(i, ins)  # a structured statement replaced its test
        body = getattr(ins, "body", "")
        if isinstance(body, str) and body.startswith("if not (") and i + 1 < len(proc.code):
            heads[i] = proc.pos[i] if i < len(proc.pos) else None
    return heads


class Probe:
    """Counts instruction calls in one game definition (instrumented in place)."""

    def __init__(self, game: Any):
        self.hits: list[int] = []
        self.keys: list[str] = []
        game.keep_starts(False)  # every game runs its setup, where the probe sees it
        for name in sorted(game.d.procs):
            proc = game.d.procs[name]
            unfuse(proc)  # one VM dispatch per statement, so every statement and branch is seen
            proc.code[:] = [self._wrap(f"{name}#{i}", ins) for i, ins in enumerate(proc.code)]

    def _wrap(self, key: str, ins: Any) -> Any:
        if ins is None:
            return ins
        slot = len(self.hits)
        self.hits.append(0)
        self.keys.append(key)
        hits = self.hits

        def counted(S, th, fr, _ins=ins, _slot=slot):
            hits[_slot] += 1
            return _ins(S, th, fr)
        counted.body = None  # not a generated instruction any more (nothing re-fuses it)
        return counted

    def reset(self) -> None:
        self.hits[:] = [0] * len(self.hits)

    def take(self) -> dict[str, int]:
        """This game's counts (only what ran), then zero."""
        out = {self.keys[i]: h for i, h in enumerate(self.hits) if h}
        self.reset()
        return out


class CoverageTally:
    """Instruction counts of many games, and the report built from them."""

    def __init__(self):
        self.calls: Counter = Counter()
        self.reasons: Counter = Counter()
        self.games = 0

    def add(self, record: dict) -> None:
        counts = record.get("coverage")
        if counts is None:
            return
        self.games += 1
        self.calls.update(counts)
        self.reasons[record.get("reason")] += 1

    def report(self, game: Any) -> dict:
        procs = game.d.procs
        ran = self._statement_counts()

        def entered(name: str) -> int:
            return ran.get((name, 0), 0)

        sections: dict[str, list] = {"procedures": [], "actions": [], "triggers": [], "end_conditions": [],
                                     "branches": [], "statements": []}
        for name, proc in sorted(procs.items()):
            where = str(proc.decl_pos) if proc.decl_pos else ""
            if name.startswith("action:"):
                sections["actions"].append(_row(name.split(":", 1)[1], entered(name), where))
            elif name.startswith("fn:__trigger_"):
                sections["triggers"].append(_row(name[len("fn:__trigger_"):], entered(name), where))
            elif name.startswith("fn:__") or name.startswith("event:"):
                pass  # generated helpers (per-phase turns, event dispatch): covered by their lines
            else:
                sections["procedures"].append(_row(name.split(":", 1)[-1] if name.startswith("fn:") else name,
                                                   entered(name), where))
            for test, pos in _branch_heads(proc).items():
                sections["branches"].append(_row(str(pos), ran.get((name, test + 1), 0), str(pos),
                                                 tested=ran.get((name, test), 0)))
        sections["statements"] = self._statements(procs, ran)
        sections["end_conditions"] = self._end_conditions(game)
        fired = {k: [r for r in v if r["count"]] for k, v in sections.items()}
        never = {k: [r["name"] for r in v if not r["count"]] for k, v in sections.items()}
        return {"games": self.games, "fired": fired, "never_fired": never,
                "summary": {k: f"{len(fired[k])}/{len(v)}" for k, v in sections.items()}}

    def _statement_counts(self) -> Counter:
        """(procedure, instruction index) -> runs (the probe unfuses: one count per statement)."""
        ran: Counter = Counter()
        for key, n in self.calls.items():
            name, _, index = key.rpartition("#")
            ran[(name, int(index))] += n
        return ran

    @staticmethod
    def _statements(procs: dict, ran: Counter) -> list:
        lines: dict[str, int] = {}
        for name, proc in procs.items():
            for i, pos in enumerate(proc.pos):
                if pos is None or getattr(pos, "line", 0) <= 0 or pos == proc.decl_pos:
                    continue  # (the end of a procedure sits at its declaration)
                key = f"{pos.file}:{pos.line}"
                lines[key] = lines.get(key, 0) + ran.get((name, i), 0)
        return [_row(k, v, k) for k, v in sorted(lines.items(), key=lambda kv: _line_order(kv[0]))]

    def _end_conditions(self, game: Any) -> list:
        rows = []
        for cond_id, message, pos in end_conditions(game):
            rows.append(_row(cond_id, self.reasons.get(message, 0), pos))
        return rows


def _row(name: str, count: int, where: str, **extra: Any) -> dict:
    return {"name": name, "count": count, "where": where, **extra}


def _line_order(key: str) -> tuple:
    path, _, line = key.rpartition(":")
    return (path, int(line) if line.isdigit() else 0)


def end_conditions(game: Any) -> list[tuple[str, str, str]]:
    """(id, end reason it gives, position) of every end condition in the rule files (the last
    file that defines the `end` section wins, as overlays replace it)."""
    from ..source import load_file
    for path in reversed(game.d.files):
        try:
            doc = load_file(path)
        except Exception:  # noqa: BLE001 - coverage is best effort about where things are
            continue
        ends = doc.get("end") if isinstance(doc, dict) else None
        if isinstance(ends, list):
            out = []
            for i, spec in enumerate(ends):
                if isinstance(spec, dict):
                    pos = ends.item_pos(i) if hasattr(ends, "item_pos") else path
                    out.append((str(spec.get("id", f"end_{i}")), str(spec.get("message") or spec.get("id")), str(pos)))
            return out
    return []
