"""interpreter/schema_pass.py: its quick "passes" agrees with jsonschema, so a document it lets
through is one jsonschema would let through (schema_check then never asks jsonschema)."""
from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

from interpreter.errors import RulebookError
from interpreter.paths import repo_root
from interpreter.schema_check import _schema, validate, validator_for
from interpreter.schema_pass import passes
from interpreter.source import load_file, load_text

SCHEMAS = ["rulebook.schema.json", "scenario.schema.json"]


def _documents() -> list[tuple[str, Any]]:
    root = repo_root()
    out = []
    for path in sorted([*root.glob("rules/**/*.yaml"), *root.glob("tests/**/*.yaml")]):
        try:
            out.append((str(path.relative_to(root)), _plain(load_file(path))))
        except RulebookError:
            continue  # a fixture that is broken before the schema (YAML syntax, limits)
    return out


def _plain(x: Any) -> Any:
    """A loaded document as plain dicts, lists and scalars (what JSON Schema sees)."""
    if isinstance(x, dict):
        return {(str(k) if isinstance(k, str) else k): _plain(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_plain(v) for v in x]
    return str(x) if isinstance(x, str) else x


def _jsonschema_passes(schema_name: str, doc: Any) -> bool:
    return next(iter(validator_for(schema_name).iter_errors(doc)), None) is None


DOCUMENTS = _documents()


@pytest.mark.parametrize("schema_name", SCHEMAS)
def test_agrees_with_jsonschema_on_every_rule_and_fixture_file(schema_name: str) -> None:
    schema = _schema(schema_name)
    seen = {True: 0, False: 0}
    for name, doc in DOCUMENTS:
        verdict = _jsonschema_passes(schema_name, doc)
        assert passes(schema, doc) == verdict, name
        seen[verdict] += 1
    assert seen[True] and seen[False]  # both answers were exercised


def test_every_entry_file_passes_without_jsonschema() -> None:
    schema = _schema("rulebook.schema.json")
    entries = [doc for name, doc in DOCUMENTS if name.startswith("rules/") and name.endswith("/game.yaml")]
    assert len(entries) >= 7
    assert all(passes(schema, doc) for doc in entries)


_ODD_VALUES = [None, True, False, 0, 1, -3, 2.5, 3.0, "", "x", "Bad Id", [], [1, 1], {}, {"k": 1}]


def _mutations(doc: Any, rng: random.Random, n: int) -> Iterator[Any]:
    """`n` copies of `doc`, each with one node deleted, replaced or given an extra key."""
    places: list[tuple[Any, Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key in node:
                places.append((node, key))
                walk(node[key])
        elif isinstance(node, list):
            for i in range(len(node)):
                places.append((node, i))
                walk(node[i])

    walk(doc)
    for _ in range(n):
        node, key = rng.choice(places)
        old = node[key]
        how = rng.randrange(3)
        if how == 0:
            node[key] = rng.choice(_ODD_VALUES)
        elif how == 1 and isinstance(old, dict):
            old["unknown_key"] = rng.choice(_ODD_VALUES)
        else:
            del node[key]
        try:
            yield doc
        finally:
            if how == 1 and isinstance(old, dict):
                del old["unknown_key"]
            elif isinstance(node, list) and how != 0:
                node.insert(key, old)
            else:
                node[key] = old


@pytest.mark.parametrize("schema_name", SCHEMAS)
def test_agrees_with_jsonschema_on_broken_variants(schema_name: str) -> None:
    schema = _schema(schema_name)
    rng = random.Random(12)
    verdicts = []
    for name, doc in DOCUMENTS[::4]:
        for variant in _mutations(doc, rng, 25):
            verdict = _jsonschema_passes(schema_name, variant)
            assert passes(schema, variant) == verdict, name
            verdicts.append(verdict)
    assert True in verdicts and False in verdicts


def test_unsure_about_values_json_does_not_have() -> None:
    """A value of another type (a YAML date) is left to jsonschema, whatever the schema."""
    import datetime

    schema = {"not": {"type": "string"}}
    assert not passes(schema, datetime.date(2024, 1, 1))
    assert _jsonschema_passes_any(schema, datetime.date(2024, 1, 1))


def _jsonschema_passes_any(schema: dict, doc: Any) -> bool:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(schema).is_valid(doc)


@pytest.mark.parametrize("schema, yes, no", [
    ({"type": "integer"}, [1, 3.0, -2], [True, 1.5, "1", None]),
    ({"enum": [1, "a", None]}, [1, 1.0, "a", None], [True, "1", 2]),
    ({"const": False}, [False], [0, None, True]),
    ({"oneOf": [{"type": "integer"}, {"minimum": 0}]}, [-1, 2.5, "s"], [3]),
    ({"if": {"type": "string"}, "then": {"minLength": 2}, "else": {"maximum": 5}}, ["ab", 4], ["a", 6]),
    ({"properties": {"a": {"type": "string"}}, "additionalProperties": False, "required": ["a"]},
     [{"a": "x"}], [{"a": 1}, {}, {"a": "x", "b": 1}, {1: 2, "a": "x"}]),
    ({"uniqueItems": True}, [[1, True], [[1], [2]]], [[{"a": 1}, {"a": 1}], [1, 1]]),
    ({"propertyNames": {"pattern": "^[a-z]+$"}, "dependentRequired": {"a": ["b"]}},
     [{"b": 1}, {"a": 1, "b": 2}], [{"a": 1}, {"B": 1}]),
])
def test_keywords_as_jsonschema_reads_them(schema: dict, yes: list, no: list) -> None:
    for value in yes:
        assert passes(schema, value) and _jsonschema_passes_any(schema, value), value
    for value in no:
        assert not passes(schema, value) and not _jsonschema_passes_any(schema, value), value


def test_a_file_that_passes_does_not_import_jsonschema(tmp_path: Path) -> None:
    import subprocess

    code = ("import sys; from interpreter.source import load_text; from interpreter.schema_check import validate;"
            "doc = load_text(open(sys.argv[1]).read(), 'g.yaml'); errors = validate(doc);"
            "print(len(errors), 'jsonschema' in sys.modules)")
    game = repo_root() / "rules" / "dogs_day" / "game.yaml"
    out = subprocess.run([sys.executable, "-c", code, str(game)], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["0", "False"]
    broken = tmp_path / "g.yaml"
    broken.write_text(game.read_text(encoding="utf-8").replace("players:", "playerz:", 1), encoding="utf-8")
    out = subprocess.run([sys.executable, "-c", code, str(broken)], capture_output=True, text=True, check=True)
    count, imported = out.stdout.split()
    assert int(count) > 0 and imported == "True"


def test_errors_still_come_from_jsonschema() -> None:
    errors = validate(load_text("game: {id: g, name: G, players: {min: 2, max: 4}}\nflow: 3\n", "t.yaml"))
    assert [e.pos.line for e in errors] == [2]
