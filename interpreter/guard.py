"""Python failures inside compiled rule code become located rule errors.

Rule code runs as generated Python; a rule that divides by zero or indexes past the end raises a
Python exception. Inside the VM, run_thread turns it into a RuleRuntimeError at the failing
statement; `evaluate` does the same for expressions evaluated outside a running thread (initial
values of counters and variables, scoring, scenario checks).
"""
from __future__ import annotations

from typing import Any

from .errors import Pos, RuleRuntimeError


def describe(exc: Exception) -> str:
    """What went wrong, in the rule author's words."""
    if isinstance(exc, ZeroDivisionError):
        return "division by zero"
    if isinstance(exc, KeyError):
        return f"no such key {exc.args[0]!r}"
    if isinstance(exc, IndexError):
        return "index out of range"
    if isinstance(exc, TypeError):
        text = str(exc)
        if "NoneType" in text:
            return f"a value is none where something else was expected ({text})"
        return f"wrong kind of value: {text}"
    if isinstance(exc, MemoryError):
        return "out of memory (a value grew too large)"
    return f"{type(exc).__name__}: {exc}"


def evaluate(f: Any, S: Any, L: dict) -> Any:
    """f(S, L) for a compiled expression f; any failure is a RuleRuntimeError at f's position."""
    try:
        return f(S, L)
    except RuleRuntimeError as exc:
        if exc.pos.line <= 0:
            exc.pos = getattr(f, "pos", None) or exc.pos
        raise
    except RecursionError:
        raise RuleRuntimeError("expression functions call each other too deeply (endless recursion?)",
                               getattr(f, "pos", None) or Pos("<rules>"), "E311") from None
    except Exception as exc:  # noqa: BLE001 - a rule did something impossible: say where
        raise RuleRuntimeError(describe(exc), getattr(f, "pos", None) or Pos("<rules>"), "E300") from None
