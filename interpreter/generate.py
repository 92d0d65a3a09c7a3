"""Component items generated from every combination of some values (a deck as suits × ranks).

`components.<id>.generate` is expanded into ordinary items at load time, so everything after
the loader sees plain items: one per combination, each carrying the combination's names as
attributes, an id and labels made from templates, and computed attributes (DSL expressions over
the names and tables, evaluated once).
"""
from __future__ import annotations

import itertools
import re
from typing import Any, Callable

from .errors import Pos, RuleError
from .source import YMap

VALID_ID = re.compile(r"[a-z][a-z0-9_]*")


def generated_items(spec: YMap, tables: dict, compile_expr: Callable, context: Any) -> list[YMap]:
    """The items `spec` (a `generate` mapping) stands for; raises RuleError on a bad spec."""
    names, value_lists = _axes(spec, tables)
    computed = {str(k): (compile_expr(v, names), spec["attributes"].value_pos(k))
                for k, v in (spec.get("attributes") or YMap()).items()}
    items = []
    for combo in itertools.product(*value_lists):
        bound = dict(zip(names, combo))
        item = YMap(pos=spec.pos)
        item["id"] = _item_id(spec, bound)
        item["label"] = _fill(spec, "label", bound) if "label" in spec else item["id"].replace("_", " ")
        if "labels" in spec:
            item["labels"] = {lang: _fill(spec["labels"], lang, bound) for lang in spec["labels"]}
        if "count" in spec:
            item["count"] = spec["count"]
        item.update(bound)
        for attr, (fn, pos) in computed.items():
            item[attr] = _evaluate(fn, context, bound, attr, pos)
        items.append(item)
    return items


def _axes(spec: YMap, tables: dict) -> tuple[list[str], list[list]]:
    each = spec["each"]
    names, value_lists = [], []
    for name, values in each.items():
        if isinstance(values, str):
            if values not in tables:
                raise RuleError(f'generate: "{values}" is not a table (expected a list of values or a '
                                "table's name)", each.value_pos(name), "E104")
            values = tables[values]
            if not isinstance(values, (list, tuple)) or not values:
                raise RuleError(f"generate: table for {name} must be a non-empty list", each.value_pos(name), "E104")
        names.append(str(name))
        value_lists.append(list(values))
    return names, value_lists


def _fill(where: YMap, key: str, bound: dict) -> str:
    template = where[key]
    try:
        return str(template).format(**{k: _text(v) for k, v in bound.items()})
    except (KeyError, IndexError, ValueError) as exc:
        known = ", ".join("{" + k + "}" for k in bound)
        raise RuleError(f"generate: cannot fill the template {template!r} ({exc}); the names are {known}",
                        where.value_pos(key), "E104") from None


def _item_id(spec: YMap, bound: dict) -> str:
    raw = _fill(spec, "id", bound).lower()
    item_id = re.sub(r"[^a-z0-9_]+", "_", raw)
    if not VALID_ID.fullmatch(item_id):
        raise RuleError(f'generate: the id "{raw}" is not a valid id (lowercase letters, digits and _, '
                        'starting with a letter): put a word first, e.g. "{suit}_{rank}"',
                        spec.value_pos("id"), "E104")
    return item_id


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _evaluate(fn: Callable, context: Any, bound: dict, attr: str, pos: Pos) -> Any:
    try:
        return fn(context, dict(bound))
    except RuleError:
        raise
    except Exception as exc:  # noqa: BLE001 - a rule-file error, reported at its position
        raise RuleError(f"generate: attribute {attr} failed for {bound}: {exc}", pos, "E104") from None
