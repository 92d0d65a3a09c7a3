"""A fixed-size number vector made from one player's view, for learning agents.

The size depends only on the configuration (its zones, pieces, counters and variables, which
the layout fixes for a player count and options), never on the game's progress. Everything is
read from the player's observation (`State.observation(player)`, through its view form
`views.view_of`), so the vector holds exactly what that player may see:

    per zone            how many pieces it holds; how many of them the viewer cannot identify
    per piece and zone  1 where the viewer sees that piece (hidden pieces have no identity)
    per piece           face down; each changeable attribute as two numbers (value, shown)
    per counter         value, shown (counters hidden from the viewer read 0, 0)
    per variable        a number for its value, shown
    game                round, over, the viewer (one-hot), who is deciding (one-hot)

Non-numeric values become numbers generically: booleans 0/1, text a stable code in [0, 1),
lists and maps their length; a pair of numbers (a grid position) fills both slots.
"""
from __future__ import annotations

import zlib
from typing import Any

import numpy as np

from ..views import view_of


class ViewEncoder:
    def __init__(self, state: Any):
        lay = state.lay
        self.players = state.n
        self.zones = {key: i for i, key in enumerate(sorted(str(k) for k in lay.zones if k != "box"))}
        self.pieces = len(lay.pieces)
        self.attrs = {name: i for i, name in enumerate(sorted(state.game.mutable_attrs))}
        self.counters = {key: i for i, key in enumerate(sorted(lay.counters))}
        self.variables = {key: i for i, key in enumerate(sorted(k for k in lay.variables if not k.startswith("$")))}
        z, p, a = len(self.zones), self.pieces, len(self.attrs)
        self._zone_counts = 0
        self._hidden_counts = z
        self._where = 2 * z
        self._face_down = self._where + p * z
        self._attrs = self._face_down + p
        self._counters = self._attrs + p * a * 2
        self._variables = self._counters + 2 * len(self.counters)
        self._game = self._variables + 2 * len(self.variables)
        self.size = self._game + 2 + 2 * self.players

    def encode_observation(self, obs: dict) -> np.ndarray:
        """The vector of one observation (State.observation)."""
        return self.encode(view_of(obs))

    def encode(self, view: dict) -> np.ndarray:
        out = np.zeros(self.size, dtype=np.float32)
        zcount = len(self.zones)
        for key, pieces in view["zones"].items():
            zi = self.zones.get(key)
            if zi is None:
                continue
            out[self._zone_counts + zi] = len(pieces)
            for piece in pieces:
                if piece.get("hidden"):
                    out[self._hidden_counts + zi] += 1
                    continue
                pid = piece["id"]
                out[self._where + pid * zcount + zi] = 1.0
                if piece.get("face_down"):
                    out[self._face_down + pid] = 1.0
                for name, ai in self.attrs.items():
                    if name in piece:
                        at = self._attrs + (pid * len(self.attrs) + ai) * 2
                        out[at], out[at + 1] = _pair(piece[name])
        for key, value in view["counters"].items():
            ci = self.counters.get(key)
            if ci is not None:
                out[self._counters + 2 * ci] = _number(value)
                out[self._counters + 2 * ci + 1] = 1.0
        for key, value in view["variables"].items():
            vi = self.variables.get(key)
            if vi is not None:
                out[self._variables + 2 * vi] = _number(value)
                out[self._variables + 2 * vi + 1] = 1.0
        out[self._game] = _number(view.get("round"))
        out[self._game + 1] = 1.0 if view.get("over") else 0.0
        if view.get("viewer") is not None:
            out[self._game + 2 + view["viewer"]] = 1.0
        for p in view.get("waiting_for", []):
            out[self._game + 2 + self.players + p] = 1.0
        return out


def _number(value: Any) -> float:
    if value is None:
        return 0.0
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        return zlib.crc32(value.encode()) / 2 ** 32
    if isinstance(value, (list, tuple, dict)):
        return float(len(value))
    return 0.0


def _pair(value: Any) -> tuple[float, float]:
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        return float(value[0]), float(value[1])
    return _number(value), 1.0
