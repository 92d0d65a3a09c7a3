"""The registry of built-in DSL functions.

A builtin is a Python function `fn(S, *args, **kwargs)` where `S` is the game state. Lambdas
written in the DSL (`x => x.value`) arrive as one-argument Python callables, zones as ZoneRef
strings (use `items(S, z)` to get a list of pieces from a zone or a list).

Add a domain module (e.g. `grid.py`) to this package and decorate its functions with
`@builtin(...)`; every module here is imported automatically. Keep builtins generic: no game
names, data comes in as arguments (tables from the rule file).
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from .. import budget as _budget
from ..budget import charge
from ..errors import RuleRuntimeError
from ..values import Family, ZoneRef

REGISTRY: dict[str, "Builtin"] = {}


@dataclass
class Builtin:
    name: str
    fn: Callable
    min_args: int
    max_args: int | None
    kwargs: frozenset = field(default_factory=frozenset)
    doc: str = ""
    statement: bool = False  # changes pieces/counters: only usable as a statement


def builtin(name: str | None = None, min_args: int = 0, max_args: int | None = -1,
            kwargs: Iterable[str] = (), statement: bool = False) -> Callable:
    """Register a builtin. `max_args=-1` means "same as min_args", `None` means unbounded."""

    def register(fn: Callable) -> Callable:
        key = name or fn.__name__.rstrip("_")
        if key in REGISTRY:
            raise ValueError(f"builtin {key} registered twice")
        hi = min_args if max_args == -1 else max_args
        doc = (fn.__doc__ or "").strip().splitlines()[0] if fn.__doc__ else ""
        REGISTRY[key] = Builtin(key, fn, min_args, hi, frozenset(kwargs), doc, statement)
        return fn

    return register


def items(S: Any, value: Any) -> list:
    """A zone, a family, a list or a tuple as a list of its elements (a list or a zone counted
    as work, as budget.charge does: inlined, this runs for every collection read)."""
    t = type(value)
    if t is list or t is ZoneRef:
        seq = value if t is list else S.zones[value]
        m = _budget.METER
        m.work += len(seq)
        if m.work > m.limits.work:
            return charge([])  # past the limit: charge raises the error
        return seq
    if t is tuple:
        return list(value)
    if t is Family:
        return list(S.lay.family_zones[value])
    if isinstance(value, dict):
        return list(value)
    if value is None:
        raise RuleRuntimeError("expected a list or a zone, got none")
    raise RuleRuntimeError(f"expected a list or a zone, got {value!r}")


def load_all() -> dict[str, Builtin]:
    """Import every module of this package (each registers its builtins)."""
    for info in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{info.name}")
    return REGISTRY
