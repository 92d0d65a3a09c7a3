"""Zones as rows of cards (face-down backs for what the player cannot see), counters and
variables as small tables: HTML fragments built from one player's view, every string escaped."""
from __future__ import annotations

import math
from html import escape
from typing import Any

from .svg import piece_text

STACK_AFTER = 8  # runs of more identical-looking cards than this are drawn as one counted stack


def _card(p: dict, count: int = 1) -> str:
    if p.get("hidden"):
        back = str(p.get("back") or p.get("kind") or "").replace("_", " ")
        extra = " ".join(str(v) for k, v in p.items() if k not in ("hidden", "kind", "back"))
        badge = f'<span class="count">×{count}</span>' if count > 1 else ""
        return (f'<div class="card back" title="{escape(back)} (hidden)"><span class="back-name">'
                f'{escape(back)}</span>{escape(extra)}{badge}</div>')
    attrs = "".join(f'<span class="attr">{escape(k)}: {escape(_text(v))}</span>' for k, v in p.items()
                    if k not in ("id", "name", "kind", "label", "face_down", "hidden"))
    cls = "card face-down" if p.get("face_down") else "card"
    badge = f'<span class="count">×{count}</span>' if count > 1 else ""
    kind = str(p.get("kind", "")).replace("_", " ")
    return (f'<div class="{cls}" data-piece="{escape(str(p.get("id")))}"><span class="kind">{escape(kind)}</span>'
            f'<span class="label">{escape(str(p.get("label", "")))}</span>{attrs}{badge}</div>')


def _text(v: Any) -> str:
    """A view value as people read it (the view's JSON tags: $map, $tuple, $player, …)."""
    if isinstance(v, dict):
        if "$map" in v:
            return "; ".join(f"{_text(k)}: {_text(x)}" for k, x in v["$map"])
        if "$tuple" in v:
            return "(" + ", ".join(_text(x) for x in v["$tuple"]) + ")"
        if "$player" in v:
            return f"P{int(v['$player']) + 1}"
        if "$piece" in v:
            return f"#{v['$piece']}"
        if "$zone" in v or "$family" in v:
            return str(v.get("$zone", v.get("$family"))).replace("_", " ")
        return ", ".join(f"{k}={_text(x)}" for k, x in v.items())
    if isinstance(v, list):
        return ", ".join(_text(x) for x in v)
    return "—" if v is None else str(v)


def card_row(pieces: list) -> str:
    """Cards in zone order; long runs of identical cards (a deck) become one counted stack."""
    out, i = [], 0
    while i < len(pieces):
        j = i
        same = piece_text(pieces[i])
        while j + 1 < len(pieces) and piece_text(pieces[j + 1]) == same and "id" not in pieces[j + 1]:
            j += 1
        run = j - i + 1
        if run > STACK_AFTER:
            out.append(_card(pieces[i], run))
            i = j + 1
        else:
            out.append(_card(pieces[i]))
            i += 1
    return "".join(out)


def zones_html(table: Any, view: dict, seat: int | None) -> str:
    """Zones not drawn on a board: the player's own first, then shared ones, then the others'."""
    labels = view.get("zone_labels") or {}
    groups: dict[str, list] = {"mine": [], "shared": [], "others": []}
    for key, pieces in (view.get("zones") or {}).items():
        if key in table.on_node or key in table.grid_zones:
            continue
        owner = table.owner.get(key)
        group = "shared" if owner is None else ("mine" if owner == seat else "others")
        seat_class = f" seat-{owner % 8}" if owner is not None else ""
        groups[group].append(f'<section class="zone {group}{seat_class}" data-zone="{escape(key)}">'
                             f'<h3>{escape(labels.get(key, key))} <small>({len(pieces)})</small></h3>'
                             f'<div class="cards">{card_row(pieces)}</div></section>')
    return "".join(groups["mine"] + groups["shared"] + groups["others"])


def counters_html(view: dict) -> str:
    """Counters by family: a family indexed by one number with a square count of at least 9
    entries is drawn as a square grid (values of 0 left blank); others as a table."""
    families: dict[str, list] = {}
    for key, value in sorted((view.get("counters") or {}).items(), key=lambda kv: _natural(kv[0])):
        fam, _, index = key.partition(":")
        families.setdefault(fam, []).append((index, value, (view.get("counter_labels") or {}).get(key, key)))
    out = []
    for fam, entries in families.items():
        side = math.isqrt(len(entries))
        if len(entries) >= 9 and side * side == len(entries) and all(e[0].isdigit() for e in entries):
            cells = sorted(entries, key=lambda e: int(e[0]))
            rows = "".join("<tr>" + "".join(
                f'<td class="v{escape(str(v))}" title="{escape(lbl)} = {escape(str(v))}">{"" if v == 0 else escape(str(v))}</td>'
                for _, v, lbl in cells[r * side:(r + 1) * side]) + "</tr>" for r in range(side))
            out.append(f'<figure class="counter-grid"><figcaption>{escape(fam.replace("_", " "))}</figcaption>'
                       f'<table class="square">{rows}</table></figure>')
            continue
        rows = "".join(f"<tr><td>{escape(lbl)}</td><td>{escape(str(v))}</td></tr>" for _, v, lbl in entries)
        out.append(f'<table class="counters">{rows}</table>')
    return "".join(out)


def _natural(key: str) -> list:
    """"money:10" after "money:9": a stable order however the state's dicts were rebuilt."""
    return [(0, int(part), "") if part.isdigit() else (1, 0, part) for part in key.split(":")]


def variables_html(view: dict) -> str:
    rows = "".join(f"<tr><td>{escape(k.replace('_', ' '))}</td><td>{escape(_text(v))}</td></tr>"
                   for k, v in sorted((view.get("variables") or {}).items())
                   if v is not None and k not in ("round", "phase"))
    return f'<table class="variables">{rows}</table>' if rows else ""
