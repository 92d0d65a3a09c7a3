"""YAML loading that remembers where every key and value came from.

PyYAML composes a node tree that carries source marks; we build plain dicts, lists and strings
from it, keeping those marks:

* `YMap` (a dict) knows the position of itself, each key (`kpos`) and each value (`vpos`);
* `YSeq` (a list) knows the position of itself and of each item (`ipos`);
* `YStr` (a str) knows its `SourceMap`, so an error inside a DSL string can be reported at the
  right line and column of the YAML file.

Duplicate keys, unknown tags and aliases that expand beyond a bound are errors. Booleans follow
YAML 1.2: only true/false, so `on:` (a trigger's event) and `yes`/`no` stay words.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from .budget import exceeded, limit
from .errors import Pos, RuleError

try:  # libyaml is much faster for composing; both give the same marks
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - pure-Python PyYAML
    _Loader = yaml.SafeLoader

MAX_YAML_DEPTH = 64  # rule files nest a handful of levels; deeper input only costs recursion
_PLAIN_TAGS = {"tag:yaml.org,2002:seq", "tag:yaml.org,2002:map"}
_constructor = yaml.SafeLoader("")


class SourceMap:
    """Maps (line, column) inside a scalar's text to a position in the YAML file."""

    __slots__ = ("file", "line", "col", "style", "indent", "lines")

    def __init__(self, file: str, line: int, col: int, style: str | None, indent: int,
                 lines: list[str] | None = None):
        self.file, self.line, self.col, self.style, self.indent = file, line, col, style, indent
        self.lines = lines  # source lines, for multi-line flow scalars

    def at(self, dsl_line: int = 1, dsl_col: int = 1) -> Pos:
        """Position of 1-based (line, column) of the scalar's text."""
        if self.style in ("|", ">"):
            return Pos(self.file, self.line + dsl_line, self.indent + dsl_col)
        if dsl_line <= 1:
            quote = 1 if self.style in ('"', "'") else 0
            return Pos(self.file, self.line, self.col + quote + dsl_col - 1)
        src_line = self.line + dsl_line - 1
        indent = 0
        if self.lines and 0 < src_line <= len(self.lines):
            text = self.lines[src_line - 1]
            indent = len(text) - len(text.lstrip(" "))
        return Pos(self.file, src_line, indent + dsl_col)

    @property
    def pos(self) -> Pos:
        return Pos(self.file, self.line, self.col)


class YStr(str):
    """A string that remembers where it was written."""

    src: SourceMap

    def __new__(cls, value: str, src: SourceMap):
        obj = super().__new__(cls, value)
        obj.src = src
        return obj

    def __reduce__(self):  # pickles as a plain str (positions are for load time only)
        return (str, (str(self),))


class YMap(dict):
    """A mapping with the positions of itself, its keys and its values."""

    pos: Pos
    kpos: dict
    vpos: dict

    def __init__(self, *args, pos: Pos | None = None, **kw):
        super().__init__(*args, **kw)
        self.pos = pos or Pos("<generated>")
        self.kpos = {}
        self.vpos = {}

    def key_pos(self, key: Any) -> Pos:
        return self.kpos.get(key, self.pos)

    def value_pos(self, key: Any) -> Pos:
        return self.vpos.get(key, self.kpos.get(key, self.pos))

    def __reduce__(self):
        return (dict, (dict(self),))


class YSeq(list):
    """A list with the positions of itself and its items."""

    pos: Pos
    ipos: list

    def __init__(self, *args, pos: Pos | None = None):
        super().__init__(*args)
        self.pos = pos or Pos("<generated>")
        self.ipos = []

    def item_pos(self, i: int) -> Pos:
        return self.ipos[i] if 0 <= i < len(self.ipos) else self.pos

    def __reduce__(self):
        return (list, (list(self),))


def position_of(value: Any, default: Pos) -> Pos:
    """Best known position of a loaded value."""
    if isinstance(value, YStr):
        return value.src.pos
    if isinstance(value, (YMap, YSeq)):
        return value.pos
    return default


def load_file(path: str | Path, display: str | None = None) -> Any:
    """Load a YAML file with positions. Raises RuleError (with position) on any problem."""
    path = Path(path)
    name = display or str(path)
    try:
        size = path.stat().st_size
        if size > limit("file_bytes"):  # refuse before reading: composing 50 MB takes minutes
            raise RuleError(exceeded("file_bytes", limit("file_bytes"), f" (this file has {size})"),
                            Pos(name), "E005")
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RuleError(f"no such file: {path}", Pos(name), "E001") from None
    except IsADirectoryError:
        raise RuleError(f"{path} is a folder, not a file", Pos(name), "E001") from None
    except UnicodeDecodeError as exc:
        raise RuleError(f"cannot read {path}: not UTF-8 text (byte {exc.start})", Pos(name), "E001") from None
    except OSError as exc:
        raise RuleError(f"cannot read {path}: {exc.strerror or exc}", Pos(name), "E001") from None
    return load_text(text, name)


def load_text(text: str, name: str) -> Any:
    if len(text) > limit("file_bytes"):
        raise RuleError(exceeded("file_bytes", limit("file_bytes")), Pos(name), "E005")
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        pos = Pos(name, mark.line + 1, mark.column + 1) if mark else Pos(name)
        problem = exc.problem or exc.context or "invalid YAML"
        raise RuleError(f"YAML syntax error: {problem}", pos, "E002") from None
    except yaml.YAMLError as exc:
        raise RuleError(f"YAML error: {exc}", Pos(name), "E002") from None
    except RecursionError:  # the pure-Python composer on deeply nested input
        raise RuleError(f"YAML nested more than {MAX_YAML_DEPTH} levels deep", Pos(name), "E003") from None
    if node is None:
        return None
    _check_expansion(node, name)
    return _Builder(name, text.splitlines()).build(node)


def _children(node: yaml.Node) -> list:
    if isinstance(node, yaml.SequenceNode):
        return node.value
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    return []


def _check_expansion(root: yaml.Node, name: str) -> None:
    """Refuse documents that are too deep, or too large once every alias is copied (alias bombs,
    one long text referenced many times): count nodes and characters as if expanded."""
    max_nodes, max_chars = limit("yaml_nodes"), limit("yaml_bytes")
    sizes: dict[int, tuple[int, int]] = {}  # id(node) -> (nodes, characters), expanded
    started: set[int] = set()
    stack: list = [(root, 1, False)]
    while stack:
        node, depth, finished = stack.pop()
        key = id(node)
        if finished:
            nodes, chars = 1, 0
            for child in _children(node):
                n, c = sizes.get(id(child), (1, 0))  # missing: a recursive alias (refused later)
                nodes += n
                chars += c
            sizes[key] = (nodes, chars)
            if nodes > max_nodes or chars > max_chars:
                m = node.start_mark
                which, value = ("yaml_nodes", nodes) if nodes > max_nodes else ("yaml_bytes", chars)
                raise RuleError(exceeded(which, limit(which), f" ({value} here)"),
                                Pos(name, m.line + 1, m.column + 1), "E003")
            continue
        if key in sizes or key in started:
            continue
        if depth > MAX_YAML_DEPTH:
            m = node.start_mark
            raise RuleError(f"YAML nested more than {MAX_YAML_DEPTH} levels deep",
                            Pos(name, m.line + 1, m.column + 1), "E003")
        if isinstance(node, yaml.ScalarNode):
            sizes[key] = (1, len(node.value))
            continue
        started.add(key)
        stack.append((node, depth, True))
        stack.extend((child, depth + 1, False) for child in _children(node))


class _Builder:
    def __init__(self, name: str, lines: list[str]):
        self.name = name
        self.lines = lines
        self.active: set[int] = set()

    def pos(self, node: yaml.Node) -> Pos:
        m = node.start_mark
        return Pos(self.name, m.line + 1, m.column + 1)

    def build(self, node: yaml.Node) -> Any:
        if isinstance(node, yaml.ScalarNode):
            return self.scalar(node)
        if node.tag not in _PLAIN_TAGS:  # !!set, !!omap, !!python/object, !custom …
            raise RuleError(f"unsupported YAML tag {node.tag}: rule files are plain maps, lists and "
                            "values", self.pos(node), "E002")
        if id(node) in self.active:
            raise RuleError("recursive YAML alias", self.pos(node), "E003")
        self.active.add(id(node))
        try:
            if isinstance(node, yaml.SequenceNode):
                return self.sequence(node)
            return self.mapping(node)
        finally:
            self.active.discard(id(node))

    def scalar(self, node: yaml.ScalarNode) -> Any:
        ctor = _constructor.yaml_constructors.get(node.tag)
        if ctor is None or node.tag in ("tag:yaml.org,2002:binary", "tag:yaml.org,2002:timestamp"):
            if node.tag == "tag:yaml.org,2002:timestamp":
                return self.text(node)
            raise RuleError(f"unsupported YAML tag {node.tag}", self.pos(node), "E002")
        if node.tag == "tag:yaml.org,2002:bool" and node.value.lower() not in ("true", "false"):
            return self.text(node)  # YAML 1.2: yes/no/on/off are words, not booleans
        try:
            value = ctor(_constructor, node)
        except (ValueError, OverflowError) as exc:  # e.g. an integer of 5,000 digits
            raise RuleError(f"unreadable value: {str(exc)[:80]}", self.pos(node), "E002") from None
        if isinstance(value, float) and value != value:
            raise RuleError(".nan is not a usable number in a rule file", self.pos(node), "E002")
        if isinstance(value, str):
            return self.text(node)
        return value

    def text(self, node: yaml.ScalarNode) -> YStr:
        m = node.start_mark
        indent = 0
        if node.style in ("|", ">"):
            for raw in self.lines[m.line + 1:]:
                if raw.strip():
                    indent = len(raw) - len(raw.lstrip(" "))
                    break
        src = SourceMap(self.name, m.line + 1, m.column + 1, node.style, indent, self.lines)
        return YStr(node.value, src)

    def sequence(self, node: yaml.SequenceNode) -> YSeq:
        out = YSeq(pos=self.pos(node))
        for item in node.value:
            out.append(self.build(item))
            out.ipos.append(self.pos(item))
        return out

    def mapping(self, node: yaml.MappingNode) -> YMap:
        _constructor.flatten_mapping(node)  # YAML merge keys (<<)
        out = YMap(pos=self.pos(node))
        for knode, vnode in node.value:
            key = self.build(knode)
            if isinstance(key, (YMap, YSeq)):
                raise RuleError("a mapping key must be a plain value", self.pos(knode), "E002")
            if key in out:
                raise RuleError(f'duplicate key "{key}" (first at line {out.kpos[key].line})',
                                self.pos(knode), "E004")
            out[key] = self.build(vnode)
            out.kpos[key] = self.pos(knode)
            out.vpos[key] = self.pos(vnode)
        return out
