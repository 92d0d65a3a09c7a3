"""JSON Schema validation of loaded rule and scenario files, with positions and plain messages.

`validate(doc)` runs the schema in `schema/` over a document loaded by `interpreter.source` and
returns one `RuleError` (code E010) per problem, placed at the line:column the author wrote:

* an unknown key is reported at the key, with the nearest allowed key suggested;
* a wrong value is reported at the value; a missing key at the map that lacks it;
* a `oneOf`/`anyOf` failure is narrowed to the alternative that fits the value's type (a string
  is compared with the string alternatives, a map with the map alternatives), so the author sees
  the one relevant problem rather than every alternative's complaint.

Schemas may carry `x-error: {<keyword>: "message"}` beside a keyword to replace the generic
message of that keyword (`{value}` and `{got}` are filled in), and `x-at: key` to report a
forbidden property at its key. Both are ignored by other JSON Schema tools.
"""
from __future__ import annotations

import difflib
import json
import re
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable, Iterator, Sequence

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError, best_match

from .errors import UNKNOWN, Pos, RuleError, suggest
from .paths import schema_path
from .source import YMap, YSeq, position_of

CODE = "E010"
RULEBOOK_SCHEMA = "rulebook.schema.json"
_IDENT = re.compile(r"\A[A-Za-z_][A-Za-z0-9_]*\Z")
_SHALLOW = {"type", "const", "enum"}  # a mismatch of the value itself, not of its contents
_TYPE_NAMES = {
    "string": "a string", "integer": "an integer", "number": "a number",
    "boolean": "a boolean", "object": "a map", "array": "a list", "null": "nothing (null)",
}
# Lists whose elements are addressed by id (overlay paths): ids must be unique in each.
_ID_LISTS: tuple[tuple[str, ...], ...] = (
    ("constraints",), ("setup",), ("flow", "phases"), ("end",), ("invariants",), ("assumptions",))

Path = Sequence[Any]


@dataclass
class _Problem:
    """One error before it becomes a RuleError; `missing`/`suggested` let duplicates be pruned."""

    pos: Pos
    message: str
    path: tuple = ()
    missing: str | None = None  # a required key that is absent
    suggested: str | None = None  # the key an unknown key probably meant


# ------------------------------------------------------------------ entry point

MAX_PROBLEMS = 100  # schema problems reported for one file


def validator_for(schema_name: str = RULEBOOK_SCHEMA) -> Draft202012Validator:
    """The validator of a schema file in `schema/` (built once per schema)."""
    return _validator(schema_name)


def _unique_items(validator, unique, instance, schema):
    """uniqueItems in linear time (jsonschema compares unhashable items pairwise: 20,000 maps in
    a list took minutes). Items are compared by their canonical JSON, booleans apart from 1/0."""
    if not unique or not validator.is_type(instance, "array"):
        return
    seen = set()
    for item in instance:
        key = json.dumps(item, sort_keys=True, default=str)
        if key in seen:
            yield ValidationError(f"{instance!r} has non-unique elements")
            return
        seen.add(key)


_FastValidator = validators.extend(Draft202012Validator, {"uniqueItems": _unique_items})


@lru_cache(maxsize=None)
def _validator(schema_name: str) -> Draft202012Validator:
    # The schemas are part of the engine: that they are valid Draft 2020-12 is checked by
    # tests/test_schema.py, not in every process (it cost a fifth of a first `rulebook validate`).
    return _FastValidator(inline_refs(json.loads(schema_path(schema_name).read_text(encoding="utf-8"))))


_ANNOTATIONS = {"$ref", "description", "title", "$comment"}  # keywords that validate nothing
_DATA = {"const", "enum", "default", "examples"}  # keywords whose values are instances, not schemas


def inline_refs(schema: dict) -> dict:
    """`schema` with every `{"$ref": "#/$defs/name"}` (annotations beside it allowed) replaced by
    the definition itself, the same object (a recursive definition becomes a cycle). jsonschema
    then descends into it directly instead of resolving the reference at every use (a third of
    its walk over a valid rule file); what it reports is the same: it reports errors inside a
    reference with the referenced schema and without "$ref" in their schema paths anyway. A
    reference with validating keywords beside it is left as it is."""
    defs = schema.get("$defs") or {}

    def target(node: Any) -> Any:
        seen: set[str] = set()
        while isinstance(node, dict) and "$ref" in node and node.keys() <= _ANNOTATIONS:
            ref = node["$ref"]
            name = ref[len("#/$defs/"):] if isinstance(ref, str) and ref.startswith("#/$defs/") else None
            if name not in defs or ref in seen:  # another document, a pointer elsewhere, a loop
                return node
            seen.add(ref)
            node = defs[name]
        return node

    done: set[int] = set()
    stack: list = [schema]
    while stack:
        node = stack.pop()
        if id(node) in done:
            continue
        done.add(id(node))
        for key, value in list(node.items() if isinstance(node, dict) else enumerate(node)):
            if isinstance(value, (dict, list)) and not (isinstance(node, dict) and key in _DATA):
                node[key] = value = target(value)
                stack.append(value)
    return schema


def validate(doc: Any, schema_name: str = RULEBOOK_SCHEMA) -> list[RuleError]:
    """Check a loaded document against a schema; one RuleError per problem, sorted by position."""
    problems = list(_boolean_keys(doc, ()))
    for error in validator_for(schema_name).iter_errors(doc):
        for leaf in _leaves(error):
            problems.extend(_report(doc, leaf))
        if len(problems) > MAX_PROBLEMS:  # a broken or hostile file: the first ones are enough
            break
    if schema_name == RULEBOOK_SCHEMA:
        problems.extend(_duplicate_ids(doc))
        problems.extend(_misspelt_reserved(doc, validator_for(schema_name).schema))
    errors = [RuleError(p.message, p.pos, CODE) for p in _prune(problems)]
    if len(errors) > MAX_PROBLEMS:
        errors = errors[:MAX_PROBLEMS] + [RuleError(
            f"… more problems not shown (the first {MAX_PROBLEMS} are listed)", errors[MAX_PROBLEMS].pos, CODE)]
    return errors


def _prune(problems: list[_Problem]) -> list[_Problem]:
    """Drop repeats, and "missing key" errors explained by a misspelt key."""
    explained = {(p.path, p.suggested) for p in problems if p.suggested}
    seen: set[tuple[Pos, str]] = set()
    out = []
    for p in problems:
        if p.missing and (p.path, p.missing) in explained:
            continue
        if (p.pos, p.message) not in seen:
            seen.add((p.pos, p.message))
            out.append(p)
    return sorted(out, key=lambda p: (p.pos.file, p.pos.line, p.pos.col, p.message))


# ------------------------------------------------------------------ narrowing oneOf / anyOf

def _leaves(error: ValidationError) -> list[ValidationError]:
    """The errors worth reporting for `error`: a oneOf/anyOf is narrowed to the fitting branch."""
    if error.validator not in ("oneOf", "anyOf") or not error.context:
        return [error]
    branches: dict[Any, list[ValidationError]] = defaultdict(list)
    for sub in error.context:
        branches[sub.relative_schema_path[0]].append(sub)
    fitting = [errs for errs in branches.values() if all(map(_fits_type, _shallow(errs)))]
    if len(fitting) == 1:
        errs = fitting[0]
        if _custom(error) and all(not e.relative_path and e.validator in _SHALLOW for e in errs):
            return [error]  # the value itself is wrong: the whole choice's message reads best
        return [leaf for e in errs for leaf in _leaves(e)]
    if _custom(error) or not fitting:
        return [error]
    return _leaves(best_match(e for errs in fitting for e in errs))


def _shallow(errors: Iterable[ValidationError]) -> list[ValidationError]:
    return [e for e in errors if not e.relative_path]


def _fits_type(error: ValidationError) -> bool:
    """False when the error says the value is of another kind than the branch wants."""
    if error.validator == "type":
        return False
    if error.validator == "const":
        return _kind(error.instance) == _kind(error.validator_value)
    if error.validator == "enum":
        return any(_kind(error.instance) == _kind(v) for v in error.validator_value)
    return True


# ------------------------------------------------------------------ one error → problems

def _report(doc: Any, e: ValidationError) -> list[_Problem]:
    path = tuple(e.absolute_path)
    if "propertyNames" in e.absolute_schema_path:
        return [_bad_key(doc, e, path)]
    handler = _HANDLERS.get(e.validator, _generic)
    return handler(doc, e, path)


def _bad_key(doc: Any, e: ValidationError, path: tuple) -> _Problem:
    key = e.instance
    text = _custom(e) if e.validator != "type" else None
    text = text or (f"key {_show(key)} must be a string" if e.validator == "type"
                    else f"key {_show(key)} is not allowed: {e.message}")
    return _Problem(_pos(doc, path + (key,), at_key=True), _at(path, text), path)


def _additional(doc: Any, e: ValidationError, path: tuple) -> list[_Problem]:
    allowed = list(e.schema.get("properties", {}))
    out = []
    for key in e.instance:
        if key in allowed or isinstance(key, bool):  # booleans: see _boolean_keys
            continue
        nearest = _nearest(str(key), allowed)
        text = _custom(e, key) or (
            (f'unknown key "{key}" in {_path_str(path)}' if path
             else f'unknown top-level key "{key}"') + suggest(str(key), allowed))
        out.append(_Problem(_pos(doc, path + (key,), at_key=True), text, path, suggested=nearest))
    return out


def _required(doc: Any, e: ValidationError, path: tuple) -> list[_Problem]:
    out = []
    for key in e.validator_value:
        if isinstance(e.instance, dict) and key not in e.instance:
            text = _custom(e) or (f'missing required key "{key}"' if path
                                  else f'missing required top-level key "{key}"')
            out.append(_Problem(_container_pos(doc, path), _at(path, text), path, missing=key))
    return out


def _dependent(doc: Any, e: ValidationError, path: tuple) -> list[_Problem]:
    out = []
    for key, needs in e.validator_value.items():
        for need in needs:
            if key in e.instance and need not in e.instance:
                text = f'"{key}" needs "{need}" too'
                out.append(_Problem(_pos(doc, path + (key,), at_key=True), _at(path, text), path,
                                    missing=need))
    return out


def _unique(doc: Any, e: ValidationError, path: tuple) -> list[_Problem]:
    items = list(e.instance)
    for j, item in enumerate(items):
        if any(_same(item, other) for other in items[:j]):
            text = f"{_show(item)} is listed twice"
            return [_Problem(_pos(doc, path + (j,)), _at(path + (j,), text), path)]
    return [_generic(doc, e, path)[0]]


def _type(doc: Any, e: ValidationError, path: tuple) -> list[_Problem]:
    wanted = e.validator_value if isinstance(e.validator_value, list) else [e.validator_value]
    names = _one_of([_TYPE_NAMES[t] for t in wanted])
    text = _custom(e) or f"expected {names}, got {_kind_name(e.instance)}"
    if isinstance(e.instance, bool) and "string" in wanted:
        text += " (quote it to make it a string)"
    return [_Problem(_pos(doc, path), _at(path, text), path)]


def _enum(doc: Any, e: ValidationError, path: tuple) -> list[_Problem]:
    choices = ", ".join(_plain(v) for v in e.validator_value)
    text = _custom(e) or f"{_show(e.instance)} is not one of {choices}"
    if isinstance(e.instance, str):
        text += suggest(e.instance, [str(v) for v in e.validator_value])
    return [_Problem(_pos(doc, path), _at(path, text), path)]


def _const(doc: Any, e: ValidationError, path: tuple) -> list[_Problem]:
    text = _custom(e) or f"expected {_show(e.validator_value)}, got {_show(e.instance)}"
    return [_Problem(_pos(doc, path), _at(path, text), path)]


def _choice(doc: Any, e: ValidationError, path: tuple) -> list[_Problem]:
    """A oneOf/anyOf that could not be narrowed to one branch."""
    if e.context:
        text = _custom(e) or f"{_show(e.instance)} does not match any allowed form"
    else:
        text = _custom(e) or f"{_show(e.instance)} matches more than one allowed form"
    if isinstance(e.instance, str):
        text += suggest(e.instance, _literals(e))
    return [_Problem(_where(doc, path, e.instance), _at(path, text), path)]


def _not(doc: Any, e: ValidationError, path: tuple) -> list[_Problem]:
    at_key = isinstance(e.schema, dict) and e.schema.get("x-at") == "key"
    text = _custom(e) or "not allowed here"
    pos = _pos(doc, path, at_key=True) if at_key else _where(doc, path, e.instance)
    return [_Problem(pos, _at(path, text), path)]


def _false(doc: Any, e: ValidationError, path: tuple) -> list[_Problem]:
    if not path:
        return _generic(doc, e, path)
    text = f'key "{path[-1]}" is not allowed here'
    return [_Problem(_pos(doc, path, at_key=True), _at(path[:-1], text), path[:-1])]


def _bounds(doc: Any, e: ValidationError, path: tuple) -> list[_Problem]:
    words = {"minimum": "less than the minimum", "maximum": "more than the maximum",
             "exclusiveMinimum": "not more than", "exclusiveMaximum": "not less than"}
    text = _custom(e) or f"{_show(e.instance)} is {words[e.validator]} {e.validator_value}"
    return [_Problem(_pos(doc, path), _at(path, text), path)]


def _sizes(doc: Any, e: ValidationError, path: tuple) -> list[_Problem]:
    n = e.validator_value
    what = {"minItems": f"at least {n} item", "maxItems": f"at most {n} item",
            "minProperties": f"at least {n} key", "maxProperties": f"at most {n} key",
            "minLength": f"at least {n} character", "maxLength": f"at most {n} character"}
    text = _custom(e) or f"expected {what[e.validator]}{'' if n == 1 else 's'}"
    return [_Problem(_where(doc, path, e.instance), _at(path, text), path)]


def _pattern(doc: Any, e: ValidationError, path: tuple) -> list[_Problem]:
    text = _custom(e) or f"{_show(e.instance)} does not match the pattern {e.validator_value}"
    return [_Problem(_pos(doc, path), _at(path, text), path)]


def _generic(doc: Any, e: ValidationError, path: tuple) -> list[_Problem]:
    text = _custom(e) or e.message
    return [_Problem(_pos(doc, path), _at(path, text), path)]


_HANDLERS = {
    "additionalProperties": _additional, "required": _required, "dependentRequired": _dependent,
    "uniqueItems": _unique, "type": _type, "enum": _enum, "const": _const,
    "oneOf": _choice, "anyOf": _choice, "not": _not, None: _false, "pattern": _pattern,
    "minimum": _bounds, "maximum": _bounds,
    "exclusiveMinimum": _bounds, "exclusiveMaximum": _bounds,
    "minItems": _sizes, "maxItems": _sizes, "minProperties": _sizes, "maxProperties": _sizes,
    "minLength": _sizes, "maxLength": _sizes,
}


# ------------------------------------------------------------------ checks beyond the schema

def _boolean_keys(node: Any, path: tuple) -> Iterator[_Problem]:
    """Keys written `true:`/`false:` are booleans, which no rule-file map (nor JSON) accepts."""
    if isinstance(node, dict):
        for key, value in node.items():
            if isinstance(key, bool):
                text = f'key {_plain(key)} is a YAML boolean: quote it ("{_plain(key)}":)'
                yield _Problem(_node_key_pos(node, key), _at(path, text), path)
            yield from _boolean_keys(value, path + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _boolean_keys(value, path + (i,))


def _duplicate_ids(doc: Any) -> Iterator[_Problem]:
    """Elements of id'd lists (phases, setup steps, …) must have distinct ids."""
    for path in _ID_LISTS:
        items = _node(doc, path)
        if not isinstance(items, list):
            continue
        first: dict[str, int] = {}
        for i, item in enumerate(items):
            ident = item.get("id") if isinstance(item, dict) else None
            if not isinstance(ident, str):
                continue
            if ident in first:
                line = _pos(doc, path + (first[ident], "id")).line
                text = f'duplicate id "{ident}" (first at line {line})'
                yield _Problem(_pos(doc, path + (i, "id")), _at(path + (i, "id"), text), path)
            else:
                first[ident] = i


def _misspelt_reserved(doc: Any, schema: dict) -> Iterator[_Problem]:
    """Free attributes of components and items that look like a misspelt reserved key.

    `per_playr: true` would silently become an attribute shared by all items; the schema cannot
    tell, so a key very close to a reserved one (and not itself reserved) is reported.
    """
    component = schema["properties"]["components"]["additionalProperties"]
    item = component["properties"]["items"]["items"]
    components = doc.get("components") if isinstance(doc, dict) else None
    if not isinstance(components, dict):
        return
    for name, comp in components.items():
        path = ("components", name)
        yield from _near_misses(doc, path, comp, list(component["properties"]))
        items = comp.get("items") if isinstance(comp, dict) else None
        for i, it in enumerate(items if isinstance(items, list) else []):
            yield from _near_misses(doc, path + ("items", i), it, list(item["properties"]))


def _near_misses(doc: Any, path: tuple, node: Any, reserved: list[str]) -> Iterator[_Problem]:
    if not isinstance(node, dict):
        return
    for key in node:
        if not isinstance(key, str) or key in reserved:
            continue
        close = [r for r in reserved if _typo_of(key, r)]
        if close:
            text = (f'"{key}" looks like a misspelt "{close[0]}" (keys that are not reserved '
                    "are attributes; rename it if it is one)")
            yield _Problem(_pos(doc, path + (key,), at_key=True), _at(path, text), path,
                           suggested=close[0])


def _typo_of(key: str, word: str) -> bool:
    """One dropped, added or swapped letter (not a replaced one: that often makes a real word,
    like "stars" for "start")."""
    if min(len(key), len(word)) < 4:
        return False
    if abs(len(key) - len(word)) == 1:
        short, long_ = sorted((key, word), key=len)
        return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))
    if len(key) == len(word):
        diff = [i for i in range(len(key)) if key[i] != word[i]]
        return (len(diff) == 2 and diff[1] == diff[0] + 1
                and key[diff[0]] == word[diff[1]] and key[diff[1]] == word[diff[0]])
    return False


# ------------------------------------------------------------------ positions

def _node(doc: Any, path: Path) -> Any:
    node = doc
    for key in path:
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            return None
    return node


def _pos(doc: Any, path: Path, at_key: bool = False) -> Pos:
    """Position of the value at `path` (or of its key), or of the deepest reachable ancestor."""
    pos = position_of(doc, UNKNOWN)
    node = doc
    for depth, key in enumerate(path, 1):
        if isinstance(node, YMap) and key in node:
            pos = node.key_pos(key) if at_key and depth == len(path) else node.value_pos(key)
        elif isinstance(node, YSeq) and isinstance(key, int) and 0 <= key < len(node):
            pos = node.item_pos(key)
        elif isinstance(node, (dict, list)) and _has(node, key):
            pos = position_of(node[key], pos)
        else:
            return pos
        node = node[key]
    return pos


def _container_pos(doc: Any, path: Path) -> Pos:
    """Where a map is introduced: its key (`game:`), its list item, or the file's top."""
    if not path:
        return position_of(doc, UNKNOWN)
    return _pos(doc, path, at_key=True)


def _where(doc: Any, path: Path, instance: Any) -> Pos:
    """A problem with a whole map is shown where the map is introduced; any other at the value."""
    return _container_pos(doc, path) if isinstance(instance, dict) else _pos(doc, path)


def _node_key_pos(node: Any, key: Any) -> Pos:
    return node.key_pos(key) if isinstance(node, YMap) else UNKNOWN


def _has(node: Any, key: Any) -> bool:
    if isinstance(node, dict):
        return key in node
    return isinstance(key, int) and 0 <= key < len(node)


# ------------------------------------------------------------------ wording

def _custom(e: ValidationError, value: Any = None) -> str | None:
    """The schema's own message for this keyword (`x-error`), with {value}/{got} filled in."""
    if not isinstance(e.schema, dict):
        return None
    text = e.schema.get("x-error", {}).get(e.validator)
    if text is None:
        return None
    value = e.instance if value is None else value
    return text.replace("{value}", _plain(value)).replace("{got}", _kind_name(value))


def _literals(e: ValidationError) -> list[str]:
    """String constants the branches of a oneOf/anyOf would accept (for "did you mean")."""
    out: list[str] = []
    for sub in e.context:
        if not sub.relative_path and sub.validator == "enum":
            out += [v for v in sub.validator_value if isinstance(v, str)]
        elif (not sub.relative_path and sub.validator == "const"
              and isinstance(sub.validator_value, str)):
            out.append(sub.validator_value)
    return out


def _nearest(name: str, candidates: list[str]) -> str | None:
    close = difflib.get_close_matches(name, candidates, n=1, cutoff=0.6)
    return close[0] if close else None


def _at(path: Path, text: str) -> str:
    where = _path_str(path)
    return f"{where}: {text}" if where else text


def _path_str(path: Path) -> str:
    """flow.phases[2].turns, boards.map.nodes["0,0"]."""
    out = ""
    for key in path:
        if isinstance(key, int) and not isinstance(key, bool):
            out += f"[{key}]"
        elif _IDENT.match(str(key)):  # \Z: a key with a trailing newline is shown quoted
            out += f".{key}" if out else str(key)
        else:
            out += f'["{key}"]'
    return out


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        return "array"
    return "null" if value is None else type(value).__name__


def _kind_name(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    return _TYPE_NAMES.get(_kind(value), _kind(value))


def _one_of(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _plain(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "null" if value is None else str(value)


def _show(value: Any) -> str:
    """A short rendering of a value for a message."""
    if isinstance(value, str):
        text = json.dumps(value, ensure_ascii=False)
    elif isinstance(value, (bool, type(None))):
        text = _plain(value)
    elif isinstance(value, dict):
        text = "a map"
    elif isinstance(value, list):
        text = "a list"
    else:
        text = str(value)
    return text if len(text) <= 60 else text[:57] + "…"


def _same(a: Any, b: Any) -> bool:
    return _kind(a) == _kind(b) and a == b
