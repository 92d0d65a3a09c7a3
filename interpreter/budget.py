"""One resource budget for everything a rule file can make the engine do.

A rule file is data, but data can ask for a lot: a loop that never ends, a comprehension over a
million elements inside another, a string doubled forty times, a billion pieces, a YAML file of
aliases. Every such cost is measured against a named limit; going past it is a located error that
names the limit and says how to raise it, never a hang or memory exhaustion.

Each limit has a documented default and a hard ceiling. A rule file may raise (or lower) the
game's limits in its `limits:` section (steps, work, depth, sequence, int_bits, pieces); the
command line may set any limit with `rulebook --limit NAME=N …`, which wins over the file. Limits
that apply before a rule file is read (file_bytes, log_bytes, yaml_nodes, yaml_bytes, nesting,
literal) can only be set on the command line. Nothing goes past a ceiling.

At run time the work done by expressions (elements visited by comprehensions, inlined
`count`/`sum`/`any`/`all`/`filter`/`map`, builtins that walk a list, `range`) is counted on the
module-level `METER`, reset at every decision (vm.run); the loop iterations of statements are
counted on the state (`S.steps`) against `steps`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import RuleRuntimeError


@dataclass(frozen=True)
class Limit:
    name: str
    default: int
    ceiling: int
    code: str
    what: str  # "<what> (limit N)"
    per_file: bool  # may a rule file's `limits:` section set it?


LIMITS: dict[str, Limit] = {lim.name: lim for lim in [
    Limit("steps", 1_000_000, 100_000_000, "E310",
          "loop iterations without a decision (procedure calls count too)", True),
    Limit("work", 20_000_000, 500_000_000, "E310",
          "elements visited by expressions without a decision (comprehensions, "
          "count/sum/any/all/filter/map, builtins over lists, range)", True),
    Limit("depth", 200, 2_000, "E311", "nested procedure calls", True),
    Limit("sequence", 1_000_000, 20_000_000, "E314",
          "elements of a list or characters of a text built by a rule", True),
    Limit("int_bits", 4_096, 65_536, "E314", "bits of an integer computed by a rule", True),
    Limit("pieces", 100_000, 1_000_000, "E304", "pieces in one game", True),
    Limit("file_bytes", 2_000_000, 256_000_000, "E005", "bytes in one YAML file", False),
    Limit("log_bytes", 64_000_000, 1_000_000_000, "E005", "bytes in one saved log", False),
    Limit("yaml_nodes", 100_000, 20_000_000, "E003",
          "YAML nodes in one file, every alias counted as a copy", False),
    Limit("yaml_bytes", 32_000_000, 1_000_000_000, "E003",
          "characters of YAML text, every alias counted as a copy", False),
    Limit("nesting", 100, 1_000, "E203", "levels of nesting in one DSL expression or block", False),
    Limit("literal", 1_000_000, 50_000_000, "E203", "characters of one DSL string literal", False),
]}

_cli: dict[str, int] = {}  # set by `rulebook --limit NAME=N`


def set_cli_limit(name: str, value: int) -> None:
    """Set a limit for this process (the `--limit` flag). Raises ValueError with a message."""
    lim = LIMITS.get(name)
    if lim is None:
        raise ValueError(f'unknown limit "{name}"; limits: {", ".join(LIMITS)}')
    if not 1 <= value <= lim.ceiling:
        raise ValueError(f"limit {name} must be between 1 and {lim.ceiling}, got {value}")
    _cli[name] = value


def clear_cli_limits() -> None:
    _cli.clear()


def cli_limits() -> dict[str, int]:
    """The limits set on the command line (passed on to worker processes)."""
    return dict(_cli)


def limit(name: str, file_limits: dict | None = None) -> int:
    """The value of a limit: the command line's, else the rule file's, else the default."""
    if name in _cli:
        return _cli[name]
    if file_limits and name in file_limits:
        return min(int(file_limits[name]), LIMITS[name].ceiling)
    return LIMITS[name].default


def resolve(file_limits: dict | None = None) -> "Limits":
    """The limits of one game (its `limits:` section, overridden by the command line)."""
    return Limits(**{n: limit(n, file_limits) for n in LIMITS if LIMITS[n].per_file})


@dataclass(frozen=True)
class Limits:
    steps: int
    work: int
    depth: int
    sequence: int
    int_bits: int
    pieces: int


def how_to_raise(name: str) -> str:
    lim = LIMITS[name]
    where = f"`limits: {{{name}: N}}` in the rule file or " if lim.per_file else ""
    return f"raise it with {where}`rulebook --limit {name}=N …` (at most {lim.ceiling})"


def exceeded(name: str, value: Any = None, extra: str = "") -> str:
    """The message for going past limit `name` (its current value given as `value`)."""
    lim = LIMITS[name]
    shown = LIMITS[name].default if value is None else value
    return f"more than {shown} {lim.what}{extra} (limit `{name}`); {how_to_raise(name)}"


# ---------------------------------------------------------------------- run-time meter
class Meter:
    """Work done by expressions since the last decision, the current game's limits, and how many
    procedures run as plain Python functions are active (they count toward `depth` like frames)."""

    __slots__ = ("work", "limits", "nest")

    def __init__(self):
        self.work = 0
        self.limits = resolve()
        self.nest = 0

    def start(self, limits: Limits) -> None:
        self.work = 0
        self.limits = limits
        self.nest = 0


METER = Meter()


def charge(seq: Any) -> Any:
    """Count the elements of `seq` as work (generated code wraps iterated sequences in this)."""
    m = METER
    m.work += len(seq)
    if m.work > m.limits.work:
        m.work = 0
        raise RuleRuntimeError(exceeded("work", m.limits.work, " (an expression that never ends?)"),
                               code="E310")
    return seq


CALL_WORK = 16  # a call costs about as much as visiting this many elements
ATOMIC_WORK = 128  # a procedure run from inside an expression (frames, a VM run)


def tick(units: int = CALL_WORK) -> None:
    """Work for one call of an expression function that calls others (generated code), or of a
    procedure from inside an expression (vm.run_atomic). Stops exponential recursion that never
    iterates a collection, e.g. f(n) = f(n - 1) + f(n - 1)."""
    m = METER
    m.work += units
    if m.work > m.limits.work:
        m.work = 0
        raise RuleRuntimeError(exceeded("work", m.limits.work, " (calls that never end?)"), code="E310")


def check_size(value: Any) -> Any:
    """Refuse a list or text longer than the `sequence` limit, or an integer past `int_bits`."""
    t = type(value)
    if t is int:
        if value.bit_length() > METER.limits.int_bits:
            raise RuleRuntimeError(exceeded("int_bits", METER.limits.int_bits), code="E314")
    elif t is str or t is list or t is tuple:
        if len(value) > METER.limits.sequence:
            raise RuleRuntimeError(exceeded("sequence", METER.limits.sequence,
                                            f" (got {len(value)})"), code="E314")
    return value


def add(x: Any, y: Any) -> Any:
    """x + y for generated code, refusing texts and lists past the `sequence` limit."""
    r = x + y
    t = type(r)
    if t is int or t is float:
        return r
    if t is str or t is list:  # check_size, inlined for joined texts and lists
        if len(r) > METER.limits.sequence:
            check_size(r)
        return r
    return check_size(r)


def times(x: Any, y: Any) -> Any:
    """x * y, refusing huge lists, texts and integers before building them."""
    tx, ty = type(x), type(y)
    if tx is int and ty is int:
        if x.bit_length() + y.bit_length() > METER.limits.int_bits + 1:
            raise RuleRuntimeError(exceeded("int_bits", METER.limits.int_bits), code="E314")
        return x * y
    if tx in (list, str, tuple) or ty in (list, str, tuple):
        seq, k = (x, y) if tx in (list, str, tuple) else (y, x)
        if type(k) is int and len(seq) * k > METER.limits.sequence:
            raise RuleRuntimeError(exceeded("sequence", METER.limits.sequence,
                                            f" (asked for {len(seq) * k})"), code="E314")
    return x * y
