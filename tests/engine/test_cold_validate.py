"""What makes a first `rulebook validate` cheaper must not change what it answers: the schema
with its local references inlined reports exactly what the schema as written reports, and the
command line freezes the heap only when it is the process's own command."""
from __future__ import annotations

import gc
import json

import pytest

from interpreter.paths import repo_root, schema_path
from interpreter.schema_check import RULEBOOK_SCHEMA, _FastValidator, inline_refs, validator_for
from interpreter.source import load_file, load_text

ROOT = repo_root()
YAML_FILES = sorted(p for folder in ("rules", "tests") for p in (ROOT / folder).rglob("*.yaml"))


def _raw(name: str = RULEBOOK_SCHEMA) -> dict:
    return json.loads(schema_path(name).read_text(encoding="utf-8"))


def _errors(validator, doc) -> list[tuple]:
    """Each error as schema_check reads it (its schema: the keys there, the messages it sets)."""
    def schema(e):
        return (sorted(e.schema), e.schema.get("x-error"), e.schema.get("x-at")) if isinstance(e.schema, dict) else e.schema
    return sorted((list(e.absolute_path), list(e.absolute_schema_path), e.validator, e.message, schema(e),
                   _errors_of(e.context)) for e in validator.iter_errors(doc))


def _errors_of(context) -> list:
    return sorted((list(e.absolute_path), list(e.relative_schema_path), e.validator, e.message,
                   _errors_of(e.context)) for e in context)


def test_inline_refs_replaces_plain_references_by_their_definition():
    schema = {"$defs": {"node": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}}},
                        "alias": {"$ref": "#/$defs/node", "description": "the same"}},
              "properties": {"a": {"$ref": "#/$defs/alias", "description": "a node"},
                             "b": {"$ref": "#/$defs/node", "minimum": 1},  # validates beside the reference
                             "c": {"const": {"$ref": "#/$defs/node"}},  # an instance, not a schema
                             "d": {"$ref": "other.json#/x"}}}
    out = inline_refs(schema)
    node = out["$defs"]["node"]
    assert out["properties"]["a"] is node and out["$defs"]["alias"] is node
    assert node["properties"]["kids"]["items"] is node  # a recursive definition: a cycle
    assert out["properties"]["b"] == {"$ref": "#/$defs/node", "minimum": 1}
    assert out["properties"]["c"] == {"const": {"$ref": "#/$defs/node"}}
    assert out["properties"]["d"] == {"$ref": "other.json#/x"}


def test_the_engine_validator_uses_the_inlined_schema():
    """Only references with validating keywords beside them are left to jsonschema to resolve."""
    left, seen, stack = [], set(), [validator_for().schema]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, dict) and "$ref" in node:
            left.append(node)
        stack.extend(v for v in (node.values() if isinstance(node, dict) else node) if isinstance(v, (dict, list)))
    assert left and all(set(n) - {"$ref", "description"} for n in left)


@pytest.mark.parametrize("name", [RULEBOOK_SCHEMA, "scenario.schema.json"])
def test_inlined_schema_reports_what_the_written_schema_reports(name):
    """Every rule and fixture file (valid ones, scenario files read as rule files, broken ones)
    gets the same errors, at the same instance and schema paths, from the same schemas."""
    written, inlined = _FastValidator(_raw(name)), _FastValidator(inline_refs(_raw(name)))
    compared = 0
    for path in YAML_FILES:
        try:
            doc = load_file(path)
        except Exception:  # noqa: BLE001 - not loadable YAML: nothing for the schema to see
            continue
        assert _errors(inlined, doc) == _errors(written, doc), path
        compared += 1
    assert compared > 100


@pytest.mark.parametrize("text", [
    "game: {id: g, name: G, players: {min: 2, max: 4}}\nflow: {phases: [{id: a, turns: sideways}]}\n",
    "game: {id: g, name: G, players: {min: 2, max: 4}}\nflow: {phases: [{id: a, turn: 3}]}\ncomponents: {c: {items: [{idd: x}]}}\n",
    "game: {id: g, name: G, players: {min: 2, max: 4}}\nflow: {phases: []}\nzones: {z: {visibility: {face_up: x}}}\n",
    "game: {id: g, name: G}\nflow: {phases: [{id: a, do: [{id: s, do: 1}]}]}\noptions: {o: {type: int, default: x}}\n",
])
def test_inlined_schema_reports_what_the_written_schema_reports_on_broken_maps(text):
    doc = load_text(text, "t.yaml")
    written, inlined = _FastValidator(_raw()), _FastValidator(inline_refs(_raw()))
    assert _errors(inlined, doc) == _errors(written, doc)
    assert _errors(written, doc)


def test_cli_freezes_the_heap_only_as_the_process_command(monkeypatch):
    """As the process's own command (args=None) the heap is frozen, and a validate freezes it
    again at exit; called by a program or a test (args given), neither happens."""
    import atexit

    from click.testing import CliRunner

    from interpreter.cli import _Rulebook, main

    dogs = str(ROOT / "rules" / "dogs_day" / "game.yaml")
    monkeypatch.setattr(_Rulebook, "own_process", False)
    gc.unfreeze()
    exits = atexit._ncallbacks()
    try:
        assert CliRunner().invoke(main, ["validate", dogs]).exit_code == 0
        assert gc.get_freeze_count() == 0 and atexit._ncallbacks() == exits
        monkeypatch.setattr("sys.argv", ["rulebook", "validate", dogs])
        with pytest.raises(SystemExit) as done:
            main()
        assert done.value.code == 0 and gc.get_freeze_count() > 0
        assert atexit._ncallbacks() == exits + 1
    finally:
        atexit.unregister(gc.freeze)
        gc.unfreeze()
