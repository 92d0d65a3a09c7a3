"""Parses DSL text (from a YAML string) into the AST of interpreter.ast.

The parsing itself is interpreter/lark_parser.py (one Lark LALR parser, its tables saved beside
grammar/rulebook.lark), imported when a text must be parsed; here: the memo of a load's parses,
trees kept by the load cache placed where their text now is, and the nesting limit.
"""
from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Any

from . import ast
from .budget import exceeded, limit
from .errors import Pos, RuleError
from .source import SourceMap, YStr


def parse_block(text: str, src: SourceMap | None = None) -> list[ast.Node]:
    """Parse a statement block. `text` is usually a YStr and knows its source."""
    src = src or _source_of(text)
    body = str(text)
    if not body.endswith("\n"):
        body += "\n"
    return _parse(body, "start", src, col_shift=0)


def parse_expr(text: str, src: SourceMap | None = None) -> ast.Node:
    """Parse one expression. Newlines are allowed anywhere inside it."""
    src = src or _source_of(text)
    wrapped = "(" + str(text) + "\n)"  # parentheses make the indenter ignore line breaks
    return _parse(wrapped, "expr_start", src, col_shift=1)


def _source_of(text: str) -> SourceMap:
    if isinstance(text, YStr):
        return text.src
    return SourceMap("<dsl>", 1, 1, None, 0)


class _Memo(threading.local):
    """While a rule file loads (in this thread): its parses by text and place, and the trees by
    text alone with positions relative to the text (see memo())."""

    table: dict | None = None
    trees: Any = None


_MEMO = _Memo()
_CANONICAL = SourceMap("", 1, 1, None, 0)  # positions (line, column) inside the DSL text itself


@contextmanager
def memo(table: dict, trees: Any = None):
    """Within this block, a text parsed at the same place in the same file is parsed once
    (`table`, by text and place). With `trees` (a mapping from (start, text, shift) to a tree
    whose positions are relative to its text, e.g. kept on disk by interpreter.loadcache), a
    text already parsed anywhere is not parsed again: its tree is copied with the positions of
    the new place, exactly those a parse there gives. Only successful parses are kept; a syntax
    error is raised anew every time, at its place."""
    previous = (_MEMO.table, _MEMO.trees)
    _MEMO.table, _MEMO.trees = table, trees
    try:
        yield table
    finally:
        _MEMO.table, _MEMO.trees = previous


def _parse(text: str, start: str, src: SourceMap, col_shift: int):
    table = _MEMO.table
    if table is None:
        return _parse_text(text, start, src, col_shift)
    key = (start, text, src.file, src.line, src.col, src.style, src.indent, src.lines is None, col_shift)
    tree = table.get(key)
    if tree is None:
        tree = table[key] = _parse_placed(text, start, src, col_shift, _MEMO.trees)
    return list(tree) if isinstance(tree, list) else tree  # a block's list is the caller's to keep


def _parse_placed(text: str, start: str, src: SourceMap, col_shift: int, trees: Any):
    if trees is None:
        return _parse_text(text, start, src, col_shift)
    key = (start, text, col_shift)
    try:
        relative = trees[key]
    except KeyError:
        try:
            relative = _parse_text(text, start, _CANONICAL, col_shift)
        except RuleError:  # raised again with the error at its place in the file
            return _parse_text(text, start, src, col_shift)
        trees[key] = relative
    return _placed(relative, src)


def _placed(value: Any, src: SourceMap) -> Any:
    """A copy of a tree parsed with _CANONICAL, with every position where `src` puts it (a
    position there is src.at(line, column) of the text, as _map computes while parsing)."""
    if isinstance(value, ast.Node):
        copy = object.__new__(type(value))
        copy.__dict__.update({k: _placed(v, src) for k, v in vars(value).items()})
        return copy
    if isinstance(value, Pos):
        return src.at(value.line, value.col)
    if isinstance(value, list):
        return [_placed(v, src) for v in value]
    if isinstance(value, tuple):
        return tuple(_placed(v, src) for v in value)
    if isinstance(value, dict):
        return {k: _placed(v, src) for k, v in value.items()}
    return value


def _parse_text(text: str, start: str, src: SourceMap, col_shift: int):
    from .lark_parser import parse_text

    tree = parse_text(text, start, src, col_shift)
    _check_nesting(tree)
    return tree


def _children(node):
    for value in vars(node).values():
        if isinstance(value, ast.Node):
            yield value
        elif isinstance(value, (list, tuple, dict)):
            stack = [value]
            while stack:  # branches of `if` are lists of (test, body) tuples
                v = stack.pop()
                for x in (v.values() if isinstance(v, dict) else v):
                    if isinstance(x, ast.Node):
                        yield x
                    elif isinstance(x, (list, tuple, dict)):
                        stack.append(x)


def _check_nesting(tree) -> None:
    """Refuse expressions and blocks nested past the `nesting` limit (a 20,000-term sum, a list
    in a list in a list …): compiling them would exhaust Python's recursion."""
    most = limit("nesting")
    stack = [(n, 1) for n in (tree if isinstance(tree, list) else [tree])]
    while stack:
        node, depth = stack.pop()
        if depth > most:
            raise RuleError(exceeded("nesting", most, " (write it in steps, with `let`)"), node.pos, "E203")
        stack.extend((c, depth + 1) for c in _children(node))
