"""compile() of the generated Python: remembered across loads, or put off until first called.

Code generation (codegen.py, compiler.py) turns a rule file into a few hundred small pieces of
Python source, each defining one function; compiling them is about a sixth of a first load.

Remembered: the same source always compiles to the same code object, so interpreter.loadcache
keeps them, marshalled, by source text: a later load of the same file — or of an edited one, for
the pieces that did not change — loads them instead of compiling. A code object is compiled
under the name `<rule file:line:col>` of the rule it came from (errors.rule_position reads it
back from a traceback), and that name moves when the file is edited, so the name is not part of
the key: a remembered code object is renamed, with everything nested in it, to the name asked
for.

Put off (`memo(table, lazy=True)`, what `rulebook validate` uses): a load that only checks a
rule file runs almost none of its code, so `make_function` hands out a stand-in that compiles
the source when first called, then takes the real code as its own (`__code__`): it is the same
function object afterwards, at no cost per call. Only sources that surely compile are put off
(see `_surely_compiles`): a source Python could refuse (too deeply nested) is compiled at once,
so its SyntaxError or RecursionError comes where it always came (an E299 error, or the
compiler's fallback to the VM form of a statement).

Outside `memo()` (the cache off, or any other caller) compilation is plain compile().
"""
from __future__ import annotations

import marshal
import re
import threading
from contextlib import contextmanager
from types import CodeType, FunctionType
from typing import Any, Iterator


class _Table(threading.local):
    """What is in use while a rule file loads in this thread: the mapping (mode, source) ->
    marshalled code (None: compile everything), and whether compiling is put off."""

    codes: Any = None
    lazy: bool = False


_TABLE = _Table()


@contextmanager
def memo(table: Any, lazy: bool = False) -> Iterator[None]:
    """Within this block, compile_code takes code from `table` and adds what it compiles; with
    `lazy`, make_function puts off compiling what surely compiles (and neither reads nor adds
    to `table` for it)."""
    previous = _TABLE.codes, _TABLE.lazy
    _TABLE.codes, _TABLE.lazy = table, lazy
    try:
        yield
    finally:
        _TABLE.codes, _TABLE.lazy = previous


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


def make_function(source: str, filename: str, env: dict, name: str | None = None) -> FunctionType:
    """The function a piece of generated Python makes, with `env` as its globals: `source` is
    `def <name>(…): …` (one definition, nothing else), or with no name a `lambda` expression.
    Raises SyntaxError or RecursionError when Python cannot compile it (at once, also when lazy)."""
    if _TABLE.lazy and _surely_compiles(source):
        return _Deferred.stand_in(source, filename, env, name)
    return _made(compile_code, source, filename, env, name)


def _made(compiler, source: str, filename: str, env: dict, name: str | None) -> FunctionType:
    if name is None:
        return eval(compiler(source, filename, "eval"), env)
    scope: dict = {}
    exec(compiler(source, filename, "exec"), env, scope)
    return scope[name]


def _stand_in_template(*args, _deferred, **kwargs):
    return _deferred.run(args, kwargs)


class _Deferred:
    """The source of a function not compiled yet, and the stand-in handed out for it."""

    __slots__ = ("source", "filename", "name", "function")

    @classmethod
    def stand_in(cls, source: str, filename: str, env: dict, name: str | None) -> FunctionType:
        deferred = cls()
        deferred.source, deferred.filename, deferred.name = source, filename, name
        fn = FunctionType(_stand_in_template.__code__, env, name or "<lambda>")
        fn.__qualname__ = fn.__name__
        fn.__kwdefaults__ = {"_deferred": deferred}
        deferred.function = fn
        return fn

    def run(self, args: tuple, kwargs: dict) -> Any:
        """Compile, make the stand-in the real function (its code, defaults), call it."""
        fn = self.function
        real = _made(compile, self.source, self.filename, fn.__globals__, self.name)
        fn.__code__ = real.__code__  # neither has free variables: a top-level def or lambda
        fn.__defaults__, fn.__kwdefaults__ = real.__defaults__, real.__kwdefaults__
        return fn(*args, **kwargs)


# What Python refuses in a source that is valid Python: more than 200 nested brackets (the
# tokenizer), more than 100 indentation levels or 20 nested blocks (the compiler), an
# expression nested more deeply than the compiler's recursion allows (about 3,000 levels; below
# the brackets, a level takes at least two characters: `a+`, `x.`, and the generator writes a
# unary minus in brackets). Generated code is valid Python (anything else is an engine bug,
# raised at once where it is compiled); these bounds keep far from the limits.
_MAX_LENGTH = 4000
_MAX_BRACKETS = 100
_MAX_INDENTS = 16
_NOT_BRACKETS = re.compile(r"[^()\[\]{}]+")
_INNERMOST = re.compile(r"\(\)|\[\]|\{\}")
_INDENT = re.compile(r"^[ \t]*(?=\S)", re.M)


def _surely_compiles(source: str) -> bool:
    """A cheap, conservative test that compiling `source` cannot hit one of Python's limits."""
    if len(source) > _MAX_LENGTH or len(set(_INDENT.findall(source))) > _MAX_INDENTS:
        return False
    brackets = _NOT_BRACKETS.sub("", source)
    for _ in range(_MAX_BRACKETS):  # each pass removes the innermost pairs: one level
        if not brackets:
            return True
        fewer = _INNERMOST.sub("", brackets)
        if len(fewer) == len(brackets):  # unmatched (a bracket inside a string): not sure
            return False
        brackets = fewer
    return not brackets
