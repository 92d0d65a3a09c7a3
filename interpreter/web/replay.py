"""Replays of saved logs (`rulebook play --log`): every decision, seen from any seat or from
everyone's view. The log is re-played once through the engine; each step keeps a clone."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import InputError
from ..game import Game
from ..runner import read_log
from .payload import seat_payload
from .tablelayout import table_layout


class ReplaySession:
    def __init__(self, path: str | Path, token: str):
        data = read_log(path)
        self.path = str(path)
        self.token = token
        self.game = Game.load(data["rules"], data.get("variants") or [])
        if self.game.d.rules_hash != data["rules_hash"]:
            raise InputError(f"{path}: the rule files changed since this log was written")
        S = self.game.new_game(data["players"], data["options"], data["seed"], data.get("lang"))
        self.players = S.n
        self.table = table_layout(self.game, S.n, S.options)
        self.states = [S.clone()]
        self.movers: list[int] = []
        for i, entry in enumerate(data["decisions"]):
            if not (isinstance(entry, list) and len(entry) == 2 and all(isinstance(x, int) for x in entry)):
                raise InputError(f"{path}: decision {i + 1} is not [player, option]: {entry!r}")
            player, option = entry
            if S.is_terminal() or player not in S.current_players() or not 0 <= option < len(S.legal_actions(player)):
                raise InputError(f"{path}: decision {i + 1} ({entry}) is not legal here: the log does not "
                                 "match the rule files")
            S.apply(player, option)
            self.movers.append(player)
            self.states.append(S.clone())

    @property
    def steps(self) -> int:
        return len(self.states) - 1

    def payload(self, step: int, seat: int | None) -> dict:
        S = self.states[step]
        seats = [{"seat": i, "name": f"P{i + 1}", "agent": "replay"} for i in range(self.players)]
        out = seat_payload(S, self.table, seat, version=step, game_name=self.game.name, seats=seats)
        out.update({"replay": True, "step": step, "steps": self.steps,
                    "next_mover": self.movers[step] if step < self.steps else None})
        out["decision"] = None  # a replay shows what happened; nobody decides
        return out


def parse_step(value: Any, steps: int) -> int:
    try:
        step = int(value)
    except (TypeError, ValueError):
        raise ValueError(f"step must be a whole number 0–{steps}, not {value!r}") from None
    if not 0 <= step <= steps:
        raise ValueError(f"step must be between 0 and {steps}, not {step}")
    return step
