"""compile() of the generated Python, remembered across loads by the load cache.

Code generation (codegen.py, compiler.py) turns a rule file into a few hundred small pieces of
Python source; compiling them is about a third of loading an unchanged file. The same source
always compiles to the same code object, so interpreter.loadcache keeps them, marshalled, by
source text: a later load of the same file — or of an edited one, for the pieces that did not
change — loads them instead of compiling. A code object is compiled under the name
`<rule file:line:col>` of the rule it came from (errors.rule_position reads it back from a
traceback), and that name moves when the file is edited, so the name is not part of the key:
a remembered code object is renamed, with everything nested in it, to the name asked for.

Outside `memo()` (the cache off, or any other caller) `compile_code` is plain compile().
"""
from __future__ import annotations

import marshal
import threading
from contextlib import contextmanager
from types import CodeType
from typing import Any, Iterator


class _Table(threading.local):
    """The mapping in use while a rule file loads in this thread: (mode, source) -> marshalled
    code (None: compile everything)."""

    codes: Any = None


_TABLE = _Table()


@contextmanager
def memo(table: Any) -> Iterator[None]:
    """Within this block, compile_code takes code from `table` and adds what it compiles."""
    previous = _TABLE.codes
    _TABLE.codes = table
    try:
        yield
    finally:
        _TABLE.codes = previous


def compile_code(source: str, filename: str, mode: str) -> CodeType:
    """compile(source, filename, mode), from the table when it holds that source."""
    table = _TABLE.codes
    if table is None:
        return compile(source, filename, mode)
    key = (mode, source)
    try:
        code = marshal.loads(table[key])
    except KeyError:
        code = None
    except (EOFError, ValueError, TypeError):  # a damaged entry: compiled again, and replaced
        code = None
    if type(code) is not CodeType:
        code = compile(source, filename, mode)  # a SyntaxError is raised, never remembered
        table[key] = marshal.dumps(code)
        return code
    return _named(code, filename)


def _named(code: CodeType, filename: str) -> CodeType:
    """`code` and the code objects nested in it (lambdas, comprehensions) under `filename`."""
    if code.co_filename == filename:
        return code
    consts = tuple(_named(c, filename) if type(c) is CodeType else c for c in code.co_consts)
    return code.replace(co_filename=filename, co_consts=consts)
