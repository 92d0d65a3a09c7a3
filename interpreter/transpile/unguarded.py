"""The resumable program's loops run without their resumption tests once resumed (stepper.py).

The stepper's flow tests ``pc`` all along its code so that a new generator can walk down to a
decision (``if not pc:`` around statements, ``(ids) if pc else cond`` on a branch or a loop
holding decisions). Once the walk-down has reached its decision, ``pc`` is 0 for the rest of
that generator's life (it is set only from st at the start and to 0 on resuming), and every test
has a fixed answer: ``not pc`` is true, ``(ids) if pc else cond`` is ``cond``, ``pc or cond`` is
``cond``. A playout runs nearly all of its decisions in that state, each pass through a loop
testing again what cannot change.

`unguard` writes each loop whose body tests ``pc`` as its first pass, as written, and then, once
``pc`` is 0, the rest of its passes as a copy of the loop with those tests answered:

    while (3 <= pc <= 6) if pc else k < len(seq):        while (3 <= pc <= 6) if pc else k < len(seq):
        BODY                                      ->          BODY (its own loops so written)
                                                              if pc:
                                                                  continue
                                                              while k < len(seq):
                                                                  BODY with pc = 0
                                                              break

The same statements run in the same order: a `break` of the loop leaves both, a `continue`
passes to the loop's test, the copy is entered only with ``pc`` 0 (else the loop's own test is
asked again, as before). A loop with an `else`, or whose body reads ``pc`` in a form not listed
here, is left as it is.
"""
from __future__ import annotations

import re

# a test on pc as stepper.py writes it -> the same test when pc is 0
_ANSWERED = [(re.compile(r"^(\s*)(while|if|elif) \((?:pc == \d+|\d+ <= pc <= \d+)\) if pc else (.*):$"), r"\1\2 \3:"),
             (re.compile(r"^(\s*)(while|if|elif) pc or (.*):$"), r"\1\2 \3:"),
             (re.compile(r"^(\s*)(if|elif) not pc and (.*):$"), r"\1\2 \3:"),
             (re.compile(r"^(\s*)(if|elif) not pc(?: or .*)?:$"), r"\1\2 True:")]
_RESUMING = re.compile(r"^\s*(?:elif pc == \d+:|pc = 0)$")  # a resumption's branch: not taken when pc is 0
_PC = re.compile(r"\bpc\b")
_WHILE = re.compile(r"^\s*while .*:$")


class _Unknown(Exception):
    """A line reads pc in a form `_answered` does not know."""


NESTED = 2  # how deep a first pass's own loops are written so too


def unguard(lines: list[str], depth: int = NESTED) -> list[str]:
    """The lines of the stepper's flow with each loop that tests pc written as above, inside a
    loop's first pass down to `depth` loops (each level copies the loops inside it again: the
    source grows about fourfold at five levels (one real flow's depth) against a bit over twofold at two,
    for the same speed, and Python's compile time grows faster than the source)."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not _WHILE.match(line):
            out.append(line)
            i += 1
            continue
        end = _body_end(lines, i)
        body, indent = lines[i + 1:end], _indent(line)
        has_else = end < len(lines) and lines[end].strip() == "else:" and _indent(lines[end]) == indent
        copy = None if has_else else _answered_copy(line, body)
        if copy is None:
            out += lines[i:end]
        else:
            inner = " " * (indent + 4)
            first = unguard(body, depth - 1) if depth > 1 else body
            out += [line, *first, inner + "if pc:", inner + "    continue"]
            out += ["    " + x if x.strip() else x for x in copy]
            out.append(inner + "break")
        i = end
    return out


def _answered_copy(header: str, body: list[str]) -> list[str] | None:
    """The loop (its header and body) with every test on pc answered for pc = 0, or None where
    its body tests no pc or reads it in a form not known."""
    if not any(map(_PC.search, body)):
        return None
    try:
        return [_answered(header)] + [_answered(x) for x in body]
    except _Unknown:
        return None


def _answered(line: str) -> str:
    """`line` with its test on pc answered for pc = 0 (raises _Unknown for an unknown form)."""
    for form, answer in _ANSWERED:
        new, n = form.subn(answer, line)
        if n:
            return new
    if _PC.search(line) and not _RESUMING.match(line):
        raise _Unknown(line)
    return line


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _body_end(lines: list[str], at: int) -> int:
    """The index of the first line after the block that lines[at] opens."""
    indent, end = _indent(lines[at]), at + 1
    for j in range(at + 1, len(lines)):
        if not lines[j].strip():
            continue
        if _indent(lines[j]) <= indent:
            break
        end = j + 1
    return end
