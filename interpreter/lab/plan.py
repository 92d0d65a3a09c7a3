"""What a run plays: the game setups ("arms"), the agents by seat, the seeds.

A Plan is small plain data, sent with every task to whichever backend plays it, so a worker
needs nothing else (but the rule files at the same paths). Game number i is played with seed
`seed + i`; with `rotate`, the agents move one seat on each game.
"""
from __future__ import annotations

import shlex
from pathlib import Path
from dataclasses import dataclass


@dataclass(frozen=True)
class Arm:
    """One game setup: a rule file with its variants and options."""

    label: str
    file: str
    variants: tuple = ()
    options: tuple = ()  # ((key, value), ...) resolved, in the rule file's order
    given: tuple = ()  # ((key, value), ...) as given on the command line (for `play` commands)
    execution: str = "engine"  # or "transpiled": the generated program plays (lab/execution.py)


@dataclass(frozen=True)
class Plan:
    arms: tuple
    players: int
    agents: tuple  # agent kinds as written, one per seat
    seed: int = 0
    games: int = 1
    rotate: bool = False
    time_limit: float | None = None
    coverage: bool = False
    cwd: str = ""  # where the run was started: error positions are shown relative to it

    def seed_of(self, index: int) -> int:
        return self.seed + index

    def agents_for(self, index: int) -> list[str]:
        """The agent kind in each seat for game `index`."""
        if not self.rotate:
            return list(self.agents)
        n = len(self.agents)
        shift = index % n
        return [self.agents[(seat + shift) % n] for seat in range(n)]

    def play_command(self, arm: Arm, index: int) -> str:
        """The exact `rulebook play` command that replays game `index` of `arm`."""
        words = ["rulebook", "play", self.shown(arm.file), "--players", str(self.players), "--seed", str(self.seed_of(index))]
        for key, value in arm.options:
            words += ["--option", f"{key}={_option_text(value)}"]
        for variant in arm.variants:
            words += ["--variant", self.shown(variant)]
        words += ["--agents", ",".join(self.agents_for(index)), "--quiet"]
        return shlex.join(words)

    def shown(self, path: str) -> str:
        """A path as the user sees it from where the run was started (relative if below it)."""
        p = Path(path)
        if self.cwd and p.is_absolute():
            try:
                return str(p.relative_to(self.cwd))
            except ValueError:
                pass
        return str(p)

    def describe(self) -> dict:
        """What a results file must match to be resumed."""
        return {"arms": [{"label": a.label, "file": a.file, "variants": list(a.variants),
                          "options": dict(a.options)} for a in self.arms],
                "players": self.players, "agents": list(self.agents), "seed": self.seed, "rotate": self.rotate}


def _option_text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
