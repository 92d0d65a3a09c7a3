"""Base game vs variants on common random numbers: every arm plays the same seeds with the same
agents, so each metric's difference is estimated from paired games (much tighter than two
independent runs). Differences get a 95 % interval; a change whose interval excludes zero is
flagged as significant, in words.
"""
from __future__ import annotations

from .statistics import RunningMean


class Paired:
    """Paired differences (arm − base) of per-game values, streamed."""

    def __init__(self):
        self.base = RunningMean()
        self.arm = RunningMean()
        self.diff = RunningMean()

    def add(self, base: float, arm: float) -> None:
        self.base.add(base)
        self.arm.add(arm)
        self.diff.add(arm - base)

    def result(self) -> dict:
        lo, hi = self.diff.interval()
        significant = self.diff.n > 1 and (lo > 0 or hi < 0)
        return {"base": round(self.base.mean, 4), "variant": round(self.arm.mean, 4),
                "difference": round(self.diff.mean, 4), "ci": [round(lo, 4), round(hi, 4)],
                "games": self.diff.n, "significant": bool(significant)}


def _per_game(record: dict, players: int) -> dict[str, float]:
    winners = record["winners"]
    values: dict[str, float] = {}
    for seat in range(players):
        values[f"P{seat + 1} win rate"] = float(seat in winners)
    for seat in range(players):
        values[f"P{seat + 1} mean score"] = float(record["scores"][seat])
    values["draw rate"] = float(not winners)
    values["shared win rate"] = float(len(winners) > 1)
    values["decisions per game"] = float(record["decisions"])
    values["rounds per game"] = float(record.get("rounds") or 0)
    kinds = sorted(set(record.get("agents") or []))
    for kind in kinds if len(kinds) > 1 else []:
        seats = [s for s, k in enumerate(record["agents"]) if k == kind]
        values[f"{kind} win rate"] = sum(s in winners for s in seats) / len(seats)
    return values


class Comparison:
    """Observer of a run with several arms: arm 0 is the base."""

    def __init__(self, labels: list[str], players: int):
        self.labels = labels
        self.players = players
        self.metrics: list[dict[str, Paired]] = [{} for _ in labels[1:]]
        self.unpaired = [0 for _ in labels[1:]]  # games where the base or the variant failed

    def __call__(self, records: list) -> None:
        base = records[0]
        for k, record in enumerate(records[1:]):
            if "error" in base or "error" in record:
                self.unpaired[k] += 1
                continue
            a, b = _per_game(base, self.players), _per_game(record, self.players)
            for name in a.keys() & b.keys():
                self.metrics[k].setdefault(name, Paired()).add(a[name], b[name])

    def result(self) -> list[dict]:
        out = []
        for k, label in enumerate(self.labels[1:]):
            rows = [{"metric": name, **p.result()} for name, p in _ordered(self.metrics[k])]
            for row in rows:
                row["words"] = describe(row)
            significant = [r["words"] for r in rows if r["significant"]]
            out.append({"variant": label, "metrics": rows, "unpaired_games": self.unpaired[k],
                        "significant": significant,
                        "verdict": ("; ".join(significant) if significant
                                    else "no significant change (95 % intervals of every difference include 0)")})
        return out


def _ordered(metrics: dict[str, Paired]) -> list:
    return sorted(metrics.items(), key=lambda kv: (
        0 if kv[0].startswith("P") and kv[0].endswith("win rate") else
        1 if kv[0].endswith("mean score") else 3 if kv[0].endswith("win rate") else 2,
        _seat_number(kv[0]), kv[0]))


def _seat_number(name: str) -> int:
    head = name.split(" ", 1)[0]
    return int(head[1:]) if head[:1] == "P" and head[1:].isdigit() else 0


def describe(row: dict) -> str:
    """ "P1 win rate 31 % → 24 %, difference −7 points [−10, −4]" and the like."""
    name, lo, hi = row["metric"], row["ci"][0], row["ci"][1]
    if name.endswith("rate"):
        return (f"{name} {100 * row['base']:.0f} % → {100 * row['variant']:.0f} %, difference "
                f"{_signed(100 * row['difference'])} points [{_signed(100 * lo)}, {_signed(100 * hi)}]"
                + ("" if row["significant"] else " (not significant)"))
    return (f"{name} {row['base']:.2f} → {row['variant']:.2f}, difference {_signed(row['difference'], 2)} "
            f"[{_signed(lo, 2)}, {_signed(hi, 2)}]" + ("" if row["significant"] else " (not significant)"))


def _signed(x: float, digits: int = 0) -> str:
    text = f"{abs(x):.{digits}f}"
    if float(text) == 0:
        return text
    return ("+" if x > 0 else "−") + text
