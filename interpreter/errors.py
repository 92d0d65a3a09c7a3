"""Errors that reach users: every one carries a source position and a stable code."""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Iterable


@dataclass(frozen=True)
class Pos:
    """A position in a file the author wrote (1-based line and column)."""

    file: str
    line: int = 0
    col: int = 0

    def __str__(self) -> str:
        if self.line <= 0:
            return self.file
        return f"{self.file}:{self.line}:{self.col}"

    def shifted(self, lines: int = 0, col: int | None = None) -> "Pos":
        return Pos(self.file, self.line + lines, self.col if col is None else col)


UNKNOWN = Pos("<unknown>")


def _one_line(text: str) -> str:
    return text.replace("\r", "\\r").replace("\n", "\\n")


class RulebookError(Exception):
    """Base of every error shown to a user as `file:line:col: message`."""

    code = "E000"

    def __init__(self, message: str, pos: Pos = UNKNOWN, code: str | None = None):
        super().__init__(message)
        self.message = message
        self.pos = pos
        if code:
            self.code = code

    def __str__(self) -> str:
        message = _one_line(self.message)  # one error, one line: a value may hold a newline
        if self.pos.file == UNKNOWN.file:
            return f"{message} [{self.code}]"
        return f"{_one_line(str(self.pos))}: {message} [{self.code}]"


class RuleError(RulebookError):
    """A rule file is wrong (found while loading or checking it)."""

    code = "E100"


class RuleErrors(RulebookError):
    """Several rule errors found in one pass, reported together."""

    def __init__(self, errors: list[RulebookError]):
        errors = sorted(errors, key=lambda e: (e.pos.file, e.pos.line, e.pos.col))
        super().__init__(str(errors[0].message) if errors else "", errors[0].pos if errors else UNKNOWN)
        self.errors = errors

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.errors)


class RuleRuntimeError(RulebookError):
    """A rule misbehaved while a game ran (e.g. a choice with no options, a loop overran)."""

    code = "E300"


class IllegalDecision(RulebookError):
    """A decision that is not among the legal options; the state is left unchanged."""

    code = "E400"


class InputError(RulebookError):
    """Bad input other than a rule file: options, logs, saves, scenario files."""

    code = "E500"


def rule_position(exc: BaseException) -> Pos:
    """Where in the rule files an exception raised inside compiled rule code comes from: the
    generated code is compiled under the name `<rule file:line:col>` of the rule it came from."""
    where = UNKNOWN
    tb = exc.__traceback__
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if name.startswith("<rule ") and name != "<rule block>":
            file, _, rest = name[len("<rule "):-1].rpartition(":")
            file, _, line = file.rpartition(":")
            if line.isdigit() and rest.isdigit():
                where = Pos(file, int(line), int(rest))
        tb = tb.tb_next
    return where


def suggest(name: str, candidates: Iterable[str]) -> str:
    """' (did you mean "x"?)' for the nearest candidate, or ''."""
    n = len(name)
    # difflib's ratio is at most 2·min/(len a + len b): names of very different length never reach
    # the 0.7 cutoff, so leaving them out changes no suggestion and keeps this cheap
    candidates = [str(c) for c in candidates]
    parts = [c for c in candidates if name in c.split("_") and name != c]  # coins → start_coins
    if len(parts) != 1:
        candidates = [c for c in candidates if 0.53 * n <= len(c) <= 1.9 * n]
    close = parts[:1] if len(parts) == 1 else difflib.get_close_matches(name, candidates, n=1, cutoff=0.7)
    return f' (did you mean "{close[0]}"?)' if close else ""


def flatten(errors: Iterable[RulebookError]) -> list[RulebookError]:
    out: list[RulebookError] = []
    for e in errors:
        out.extend(e.errors if isinstance(e, RuleErrors) else [e])
    return out
