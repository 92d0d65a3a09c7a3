"""Does a document pass a JSON Schema? A quick answer that is exact when it says yes.

jsonschema explains why a document fails (interpreter/schema_check.py turns its errors into the
author's messages), but importing it and walking a rule file with it took a sixth of a first
`rulebook validate`, spent on files that pass. `passes(schema, doc)` instead compiles the part
of Draft 2020-12 that the engine's schemas use into nested closures, once per schema:

* True: the document passes; jsonschema would report nothing;
* False: it fails, or this checker cannot be sure (a value of a type JSON does not have, a
  keyword it does not implement, anything that raises): ask jsonschema.

Each keyword does exactly what jsonschema 4's does (types with booleans apart from numbers and
integral floats as integers, `enum`/`const` equality with True ≠ 1 also inside lists, `pattern`
by re.search, uniqueItems by schema_check's canonical JSON). A keyword not listed here (`$id`
included: it would move what `$ref` points at) makes the whole schema "not sure".
tests/test_schema_pass.py checks that both agree on every rule and fixture file and on many
broken variants of them.
"""
from __future__ import annotations

import json
import re
from typing import Any, Callable

Check = Callable[[Any], bool]

# Keywords that do not constrain a value (annotations, and the engine's own messages).
_NOTES = {"$schema", "$comment", "$defs", "title", "description", "examples", "default",
          "deprecated", "x-error", "x-at"}


class _Unsure(Exception):
    """A value or schema this checker does not judge: jsonschema must."""


def unique_key(item: Any) -> str:
    """How uniqueItems compares list items (linear time): their canonical JSON."""
    return json.dumps(item, sort_keys=True, default=str)


def passes(schema: Any, doc: Any) -> bool:
    """True only if `doc` is valid under `schema` (a parsed JSON Schema document)."""
    check = _compiled(schema)
    if check is None:
        return False
    try:
        return check(doc)
    except Exception:  # noqa: BLE001 - _Unsure, or a value jsonschema would judge its own way
        return False


_COMPILED: dict[int, tuple[Any, Check | None]] = {}


def _compiled(schema: Any) -> Check | None:
    """The check of a root schema (compiled once, kept with it), None if unsupported."""
    kept = _COMPILED.get(id(schema))
    if kept is not None and kept[0] is schema:
        return kept[1]
    try:
        check: Check | None = _Compiler(schema).compile(schema)
    except _Unsure:
        check = None
    _COMPILED[id(schema)] = (schema, check)
    return check


class _Compiler:
    def __init__(self, root: Any):
        self.root = root
        self.refs: dict[str, Check] = {}

    def compile(self, schema: Any) -> Check:
        if schema is True:
            return _always
        if schema is False:
            return _never
        if not isinstance(schema, dict):
            raise _Unsure
        checks = [self.keyword(name, value, schema) for name, value in schema.items()
                  if name not in _NOTES and name not in ("then", "else")]
        checks = [c for c in checks if c is not _always]
        if not checks:
            return _always
        if len(checks) == 1:
            return checks[0]
        return lambda x: all(c(x) for c in checks)

    def keyword(self, name: str, value: Any, schema: dict) -> Check:
        method = getattr(self, "k_" + name.lstrip("$"), None)
        if method is None:
            raise _Unsure
        return method(value, schema)

    # ---- references
    def k_ref(self, ref: str, _schema: dict) -> Check:
        refs = self.refs
        if ref not in refs:
            refs[ref] = _never  # while being compiled: a cycle only reads it when called
            refs[ref] = self.compile(self._resolve(ref))
        return lambda x: refs[ref](x)

    def _resolve(self, ref: str) -> Any:
        if not ref.startswith("#"):
            raise _Unsure
        node = self.root
        for part in ref[1:].split("/")[1:] if ref != "#" else []:
            part = part.replace("~1", "/").replace("~0", "~")
            if not isinstance(node, dict) or part not in node:
                raise _Unsure
            node = node[part]
        return node

    # ---- any value
    def k_type(self, wanted: Any, _schema: dict) -> Check:
        kinds = set(wanted if isinstance(wanted, list) else [wanted])
        if not kinds <= set(_KIND_OF):
            raise _Unsure
        if "number" in kinds:
            kinds.add("integer")
        return lambda x: _kind(x) in kinds or ("integer" in kinds and _integral_float(x))

    def k_enum(self, values: list, _schema: dict) -> Check:
        return lambda x: any(_equal(x, v) for v in values)

    def k_const(self, value: Any, _schema: dict) -> Check:
        return lambda x: _equal(x, value)

    def k_not(self, sub: Any, _schema: dict) -> Check:
        check = self.compile(sub)
        return lambda x: not check(x)

    def k_allOf(self, subs: list, _schema: dict) -> Check:
        checks = [self.compile(s) for s in subs]
        return lambda x: all(c(x) for c in checks)

    def k_anyOf(self, subs: list, _schema: dict) -> Check:
        checks = [self.compile(s) for s in subs]
        return lambda x: any(c(x) for c in checks)

    def k_oneOf(self, subs: list, _schema: dict) -> Check:
        checks = [self.compile(s) for s in subs]
        return lambda x: sum(1 for c in checks if c(x)) == 1

    def k_if(self, sub: Any, schema: dict) -> Check:
        test = self.compile(sub)
        then = self.compile(schema.get("then", True))
        other = self.compile(schema.get("else", True))
        return lambda x: then(x) if test(x) else other(x)

    # ---- numbers, strings
    def k_minimum(self, bound: Any, _schema: dict) -> Check:
        return lambda x: not _number(x) or x >= bound

    def k_maximum(self, bound: Any, _schema: dict) -> Check:
        return lambda x: not _number(x) or x <= bound

    def k_pattern(self, pattern: str, _schema: dict) -> Check:
        search = re.compile(pattern).search
        return lambda x: not isinstance(x, str) or search(x) is not None

    def k_minLength(self, n: int, _schema: dict) -> Check:
        return lambda x: not isinstance(x, str) or len(x) >= n

    # ---- lists
    def k_items(self, sub: Any, schema: dict) -> Check:
        if "prefixItems" in schema or isinstance(sub, list):
            raise _Unsure
        check = self.compile(sub)
        return lambda x: not isinstance(x, list) or all(check(item) for item in x)

    def k_minItems(self, n: int, _schema: dict) -> Check:
        return lambda x: not isinstance(x, list) or len(x) >= n

    def k_maxItems(self, n: int, _schema: dict) -> Check:
        return lambda x: not isinstance(x, list) or len(x) <= n

    def k_uniqueItems(self, unique: bool, _schema: dict) -> Check:
        if not unique:
            return _always
        return lambda x: not isinstance(x, list) or len({unique_key(i) for i in x}) == len(x)

    # ---- maps
    def k_properties(self, props: dict, _schema: dict) -> Check:
        checks = [(key, self.compile(sub)) for key, sub in props.items()]
        return lambda x: not isinstance(x, dict) or all(c(x[k]) for k, c in checks if k in x)

    def k_additionalProperties(self, sub: Any, schema: dict) -> Check:
        if "patternProperties" in schema:
            raise _Unsure
        known = schema.get("properties", {})
        if sub is False:
            return lambda x: not isinstance(x, dict) or all(k in known for k in x)
        check = self.compile(sub)
        return lambda x: not isinstance(x, dict) or all(check(v) for k, v in x.items() if k not in known)

    def k_required(self, keys: list, _schema: dict) -> Check:
        return lambda x: not isinstance(x, dict) or all(k in x for k in keys)

    def k_dependentRequired(self, needs: dict, _schema: dict) -> Check:
        pairs = list(needs.items())
        return lambda x: not isinstance(x, dict) or all(all(n in x for n in ns) for k, ns in pairs if k in x)

    def k_propertyNames(self, sub: Any, _schema: dict) -> Check:
        check = self.compile(sub)
        return lambda x: not isinstance(x, dict) or all(check(k) for k in x)

    def k_minProperties(self, n: int, _schema: dict) -> Check:
        return lambda x: not isinstance(x, dict) or len(x) >= n

    def k_maxProperties(self, n: int, _schema: dict) -> Check:
        return lambda x: not isinstance(x, dict) or len(x) <= n


def _always(_x: Any) -> bool:
    return True


def _never(_x: Any) -> bool:
    return False


_KIND_OF = {"null": type(None), "boolean": bool, "integer": int, "number": float, "string": str,
            "object": dict, "array": list}


def _kind(x: Any) -> str:
    """The JSON type of a value (a float is a "number", an int an "integer")."""
    if x is None:
        return "null"
    if isinstance(x, bool):
        return "boolean"
    for kind in ("integer", "number", "string", "object", "array"):
        if isinstance(x, _KIND_OF[kind]):
            return kind
    raise _Unsure


def _integral_float(x: Any) -> bool:
    return isinstance(x, float) and x.is_integer()


def _number(x: Any) -> bool:
    return _kind(x) in ("integer", "number")


def _equal(a: Any, b: Any) -> bool:
    """jsonschema's equality: True ≠ 1, 1 == 1.0, lists and maps compared item by item."""
    if a is b:
        return True
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return len(a) == len(b) and all(k in b and _equal(v, b[k]) for k, v in a.items())
    if isinstance(a, (list, dict)) or isinstance(b, (list, dict)):
        return False
    _kind(a), _kind(b)
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    return a == b
