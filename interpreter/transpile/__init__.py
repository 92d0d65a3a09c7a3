"""A second way of running a rule file: as ONE generated plain-Python program per rule file,
player count and options (issue 12).

The generator reads the loaded rule file (rulefile.py: the GameDef and the statement trees the
loader hands the compiler) and writes a program (program.py, with statements.py and
expressions.py for the two kinds of node; runtime.py for the helpers it calls): counters,
variables and zones as plain lists and ints, the flow as Python loops, procedures inlined, each
decision asking the seat's agent for an index among a plain list of options. Nothing suspends:
a generated program plays a whole game from its start. Chance uses the engine's Rng seeded as
the engine seeds it, so with the same seed and the same agent draws it plays the engine's game
(tests/engine/test_transpiled_all.py checks that on every rule file under rules/).

What the generator does not cover it refuses by name (`Unsupported`), and such a game runs in
the engine. The engine stays the reference, and the only form that can stop at a decision
(saving, cloning, views, humans, searches from a mid-game state). stepper.py writes a second
form that stops at each decision and can be cloned there (see its docstring); flat MCTS plays
its iterations there where they are the engine's exactly (worlds.py, agents/transpiled.py).
`rulebook simulate` plays whole games with generated programs where that changes nothing but
the speed (fastrun.py; interpreter/lab/execution.py decides)."""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterable

from .base import Unsupported
from .program import ProgramWriter, namespace
from .rulefile import RuleFile

__all__ = ["RuleFile", "Unsupported", "transpile", "load_program", "program_of"]


def transpile(rules: str | Path | RuleFile, players: int = 2, options: dict | None = None,
              variants: Iterable[str | Path] = ()) -> str:
    """The generated program's source for a rule file (raises Unsupported)."""
    rule_file = rules if isinstance(rules, RuleFile) else RuleFile(rules, variants)
    return ProgramWriter(rule_file, players, options).source()


def load_program(rules: str | Path | RuleFile, players: int = 2, options: dict | None = None,
                 variants: Iterable[str | Path] = ()) -> Callable:
    """The generated program's ``play(seed, agents) -> (returns, history, winners, rounds, reason)``
    (raises Unsupported)."""
    source = transpile(rules, players, options, variants)
    return program_of(source, rules.path if isinstance(rules, RuleFile) else str(rules))


def program_of(source: str, path: str | Path) -> Callable:
    """The ``play`` of a generated program's source (written for the rule file at `path`)."""
    names = namespace()
    exec(compile(source, f"<transpiled {path}>", "exec"), names)
    return names["play"]
