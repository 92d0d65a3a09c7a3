"""Expansions and house rules: files that `extends:` another and change it by stable ids.

A change names a dotted path: map keys, and for lists of elements that carry an `id` (phases,
setup steps, end conditions, assumptions) the element's id. `add` fails if the target exists,
`replace` and `remove` fail if it does not. Every merged value keeps the position of the file it
came from, so errors in the merged game still point at what an author wrote.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from .errors import Pos, RuleError, suggest
from .source import YMap, YSeq, load_file, position_of

OVERLAY_KEYS = {"extends", "changes", "game", "assumptions"}


def deep_copy(value: Any) -> Any:
    """Copy YAML data keeping positions (YMap/YSeq) and YStr objects."""
    if isinstance(value, YMap):
        out = YMap(pos=value.pos)
        for k, v in value.items():
            out[k] = deep_copy(v)
        out.kpos, out.vpos = dict(value.kpos), dict(value.vpos)
        return out
    if isinstance(value, YSeq):
        out = YSeq([deep_copy(v) for v in value], pos=value.pos)
        out.ipos = list(value.ipos)
        return out
    if isinstance(value, (dict, list)):
        return copy.deepcopy(value)
    return value


def resolve_base(path: Path, raw: YMap) -> Path:
    return (path.parent / str(raw["extends"])).resolve()


def apply_overlay(base: YMap, overlay: YMap, file: str) -> YMap:
    """A new document: `base` with `overlay`'s game metadata, changes and assumptions."""
    merged = deep_copy(base)
    errors: list[RuleError] = []
    for key in overlay:
        if key not in OVERLAY_KEYS:  # it would be silently ignored: say how to change it instead
            errors.append(RuleError(
                f'an overlay changes its base only through `changes:`; a top-level "{key}" here would '
                f"be ignored: write `- replace: {key}` (or `add:`) with `value:` under `changes:`",
                overlay.key_pos(key), "E040"))
    if isinstance(overlay.get("game"), dict):
        game = merged.setdefault("game", YMap(pos=overlay.pos))
        for key, value in overlay["game"].items():
            game[key] = deep_copy(value)
            game.kpos[key] = overlay["game"].key_pos(key)
            game.vpos[key] = overlay["game"].value_pos(key)
    for i, change in enumerate(overlay.get("changes") or []):
        pos = overlay["changes"].item_pos(i) if isinstance(overlay["changes"], YSeq) else overlay.pos
        try:
            _apply_change(merged, change, pos)
        except RuleError as exc:
            errors.append(exc)
    extra = overlay.get("assumptions") or []
    if extra:
        mine = merged.setdefault("assumptions", YSeq(pos=overlay.pos))
        known = {a.get("id") for a in mine if isinstance(a, dict)}
        for i, item in enumerate(extra):
            ipos = extra.item_pos(i) if isinstance(extra, YSeq) else overlay.pos
            if isinstance(item, dict) and item.get("id") in known:
                errors.append(RuleError(f'assumption "{item.get("id")}" already exists in the base',
                                        ipos, "E030"))
                continue
            mine.append(deep_copy(item))
            mine.ipos.append(ipos)
    if errors:
        from .errors import RuleErrors
        raise RuleErrors(errors)
    return merged


def _op(change: dict) -> tuple[str, str]:
    for op in ("add", "replace", "remove"):
        if op in change:
            return op, str(change[op])
    raise RuleError("a change needs one of add, replace, remove", Pos("<overlay>"), "E031")


def _apply_change(doc: YMap, change: dict, pos: Pos) -> None:
    op, path = _op(change)
    parts = path.split(".")
    parent = doc
    for depth, part in enumerate(parts[:-1]):
        parent = _step(parent, part, ".".join(parts[:depth + 1]), pos, create=(op == "add"))
    last = parts[-1]
    if isinstance(parent, list):
        _change_list(parent, op, last, change, path, pos)
    elif isinstance(parent, dict):
        _change_map(parent, op, last, change, path, pos)
    else:
        raise RuleError(f'"{path}": cannot change inside a plain value', pos, "E032")


def _step(node: Any, part: str, where: str, pos: Pos, create: bool) -> Any:
    if isinstance(node, dict):
        if part not in node:
            if create:
                node[part] = YMap(pos=pos)
                node.kpos[part] = pos if isinstance(node, YMap) else None
                return node[part]
            raise RuleError(f'"{where}" does not exist{suggest(part, map(str, node))}', pos, "E033")
        return node[part]
    if isinstance(node, list):
        for item in node:
            if isinstance(item, dict) and str(item.get("id")) == part:
                return item
        ids = [str(i.get("id")) for i in node if isinstance(i, dict)]
        raise RuleError(f'"{where}": no element with id "{part}"{suggest(part, ids)}', pos, "E033")
    raise RuleError(f'"{where}": cannot go inside a plain value', pos, "E033")


def _change_map(parent: dict, op: str, key: str, change: dict, path: str, pos: Pos) -> None:
    exists = key in parent
    if op == "add":
        if exists:
            raise RuleError(f'"{path}" already exists (use replace)', pos, "E034")
        _set(parent, key, change.get("value"), change, pos)
    elif op == "replace":
        if not exists:
            raise RuleError(f'"{path}" does not exist (use add){suggest(key, map(str, parent))}', pos, "E033")
        _set(parent, key, change.get("value"), change, pos)
    else:
        if not exists:
            raise RuleError(f'"{path}" does not exist{suggest(key, map(str, parent))}', pos, "E033")
        del parent[key]


def _set(parent: dict, key: str, value: Any, change: dict, pos: Pos) -> None:
    parent[key] = deep_copy(value)
    if isinstance(parent, YMap):
        parent.kpos[key] = pos
        parent.vpos[key] = position_of(value, change.value_pos("value") if isinstance(change, YMap) else pos)


def _change_list(items: list, op: str, ident: str, change: dict, path: str, pos: Pos) -> None:
    index = next((i for i, it in enumerate(items) if isinstance(it, dict) and str(it.get("id")) == ident), None)
    ids = [str(i.get("id")) for i in items if isinstance(i, dict)]
    if op == "remove":
        if index is None:
            raise RuleError(f'"{path}": no element with id "{ident}"{suggest(ident, ids)}', pos, "E033")
        del items[index]
        if isinstance(items, YSeq):
            del items.ipos[index]
        return
    value = deep_copy(change.get("value"))
    if isinstance(value, dict):
        if "id" not in value:
            value["id"] = ident
        elif str(value["id"]) != ident:
            raise RuleError(f'"{path}": the new element\'s id is "{value["id"]}", not "{ident}"', pos, "E035")
    vpos = position_of(change.get("value"), pos)
    if op == "replace":
        if index is None:
            raise RuleError(f'"{path}": no element with id "{ident}" (use add){suggest(ident, ids)}', pos, "E033")
        items[index] = value
        if isinstance(items, YSeq):
            items.ipos[index] = vpos
        return
    if index is not None:
        raise RuleError(f'"{path}": an element with id "{ident}" already exists (use replace)', pos, "E034")
    at = len(items)
    anchor = change.get("before") or change.get("after")
    if anchor is not None:
        where = next((i for i, it in enumerate(items) if isinstance(it, dict) and str(it.get("id")) == str(anchor)), None)
        if where is None:
            raise RuleError(f'"{path}": no element "{anchor}" to put it next to{suggest(str(anchor), ids)}', pos, "E033")
        at = where if change.get("before") is not None else where + 1
    items.insert(at, value)
    if isinstance(items, YSeq):
        items.ipos.insert(at, vpos)


def load_chain(path: Path, seen: tuple = ()) -> tuple[YMap, list[Path], list[YMap]]:
    """Load a file and everything it extends: (merged document, files base-first, raw docs)."""
    return merge_chain(read_chain(path, seen))


def read_chain(path: Path, seen: tuple = ()) -> list[tuple[Path, YMap]]:
    """A file and everything it extends, base first, each as loaded (not checked, not merged)."""
    path = Path(path).resolve()
    if path in seen:
        raise RuleError("files extend each other in a cycle: " + " → ".join(p.name for p in seen + (path,)),
                        Pos(str(path)), "E036")
    raw = load_file(path, display=_display(path))
    if not isinstance(raw, YMap):
        raise RuleError("a rule file must be a YAML mapping", Pos(_display(path), 1, 1), "E011")
    if "extends" not in raw:
        return [(path, raw)]
    base_path = resolve_base(path, raw)
    if not base_path.exists():
        raise RuleError(f'extends "{raw["extends"]}": no such file', raw.value_pos("extends"), "E037")
    return read_chain(base_path, seen + (path,)) + [(path, raw)]


def merge_chain(chain: list[tuple[Path, YMap]], check: bool = True) -> tuple[YMap, list[Path], list[YMap]]:
    """Apply each file of a chain to the one it extends. With `check`, both files of each step
    are checked against the schema first (an overlay is applied only to well-formed files:
    wrong types would crash it); without, the caller knows they pass (interpreter.loadcache)."""
    doc = chain[0][1]
    for (_, base), (path, raw) in zip(chain, chain[1:]):
        if check:
            from .errors import RuleErrors
            from .schema_check import validate
            errors = [e for r in (base, raw) for e in validate(r)]
            if errors:
                raise RuleErrors(errors)
        doc = apply_overlay(doc, raw, str(path))
    return doc, [p for p, _ in chain], [r for _, r in chain]


def _display(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def value_at(doc: Any, path: str) -> Any:
    """The value at a dotted change path in a document, or a KeyError."""
    node = doc
    for part in path.split("."):
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list):
            node = next(it for it in node if isinstance(it, dict) and str(it.get("id")) == part)
        else:
            raise KeyError(path)
    return node


def _short(value: Any) -> str:
    text = json.dumps(_plain(value), ensure_ascii=False)
    return text if len(text) <= 70 else text[:67] + "…"


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return str(value) if isinstance(value, str) else value


def describe_changes(raw: YMap, base: Any = None) -> list[str]:
    """Human lines: what an overlay changes (for `rulebook changes`), with old → new values
    when the base document is given."""
    lines = []
    for key in ("id", "name"):
        if isinstance(raw.get("game"), dict) and key in raw["game"]:
            lines.append(f"{raw['game'].value_pos(key)}: game.{key} = {raw['game'][key]}")
    for i, change in enumerate(raw.get("changes") or []):
        pos = raw["changes"].item_pos(i)
        try:
            op, path = _op(change)
        except RuleError:
            continue
        where = ""
        if change.get("before"):
            where = f" before {change['before']}"
        elif change.get("after"):
            where = f" after {change['after']}"
        detail = ""
        if op == "replace" and base is not None:
            try:
                detail = f": {_short(value_at(base, path))} → {_short(change.get('value'))}"
            except (KeyError, StopIteration):
                detail = f": → {_short(change.get('value'))}"
        elif op == "add":
            detail = f": {_short(change.get('value'))}"
        lines.append(f"{pos}: {op} {path}{where}{detail}")
    for i, item in enumerate(raw.get("assumptions") or []):
        if isinstance(item, dict):
            lines.append(f"{raw['assumptions'].item_pos(i)}: add assumption {item.get('id')}")
    return lines
