"""Runtime values of the DSL and their plain-JSON encoding.

Pieces and players are ints underneath (cheap to copy, hash and compare) but keep their type,
so labels, iteration and JSON round trips know what they are. Zone references are strings (the
zone key) marked as zones.
"""
from __future__ import annotations

from typing import Any


class Piece(int):
    """A piece, by its id in the game's layout."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"Piece({int(self)})"


class Player(int):
    """A seat, 0-based (shown as P1, P2, …)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"Player({int(self)})"

    def __str__(self) -> str:
        return f"P{int(self) + 1}"


class ZoneRef(str):
    """A zone, by its key (e.g. "hand:2")."""

    __slots__ = ()


class Family(str):
    """A family of zones (e.g. every player's hand), by name."""

    __slots__ = ()


PLAYERS = [Player(i) for i in range(64)]
SEAT = list(range(len(PLAYERS)))  # SEAT[p]: a seat as a plain int (a subscript: cheaper than int(p))


def encode(value: Any) -> Any:
    """A runtime value as plain JSON data (types kept with small tags)."""
    t = type(value)
    if value is None or t is bool or t is int or t is str or t is float:
        return value
    if t is Piece:
        return {"$piece": int(value)}
    if t is Player:
        return {"$player": int(value)}
    if t is ZoneRef:
        return {"$zone": str(value)}
    if t is Family:
        return {"$family": str(value)}
    if t is list:
        return [encode(v) for v in value]
    if t is tuple:
        return {"$tuple": [encode(v) for v in value]}
    if isinstance(value, dict):
        return {"$map": [[encode(k), encode(v)] for k, v in value.items()]}
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, str):
        return str(value)
    raise TypeError(f"cannot encode {value!r}")


def decode(data: Any, pieces: list) -> Any:
    """Inverse of encode; `pieces` maps ids to the layout's Piece objects."""
    t = type(data)
    if data is None or t is bool or t is int or t is str or t is float:
        return data
    if t is list:
        return [decode(v, pieces) for v in data]
    if t is dict:
        if "$piece" in data:
            return pieces[data["$piece"]]
        if "$player" in data:
            return PLAYERS[data["$player"]]
        if "$zone" in data:
            return ZoneRef(data["$zone"])
        if "$family" in data:
            return Family(data["$family"])
        if "$tuple" in data:
            return tuple(decode(v, pieces) for v in data["$tuple"])
        if "$map" in data:
            return {_hashable(decode(k, pieces)): decode(v, pieces) for k, v in data["$map"]}
    raise ValueError(f"cannot decode {data!r}")


def _hashable(v: Any) -> Any:
    return tuple(v) if isinstance(v, list) else v


def freeze(value: Any) -> Any:
    """YAML data (tables) as runtime values: lists stay lists, maps become plain dicts."""
    if isinstance(value, dict):
        return {str(k) if isinstance(k, str) else k: freeze(v) for k, v in value.items()}
    if isinstance(value, list):
        return [freeze(v) for v in value]
    if isinstance(value, str):
        return str(value)
    return value
