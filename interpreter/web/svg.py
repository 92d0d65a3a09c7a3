"""Boards as SVG: graph boards and fixed grids from the rule file's layout, with the pieces a
player sees on each node; sparse grid zones (maps built during play) cell by cell.

Input is a TableLayout (rule data) and one player's view; output is SVG text, every string
escaped. Nothing here reads a game state.
"""
from __future__ import annotations

from html import escape
from typing import Any

from .tablelayout import BoardShape

CELL = 170  # pixels per layout unit
PLAYER_COLOURS = ["#d9480f", "#1c7ed6", "#2b8a3e", "#ae3ec9", "#f08c00", "#0c8599", "#c2255c", "#5c940d"]
NEUTRAL = "#495057"


def colour(seat: int | None) -> str:
    return NEUTRAL if seat is None else PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


def piece_text(p: dict) -> str:
    """What a piece chip says: its label (and changing attributes), or its back when hidden."""
    if p.get("hidden"):
        extra = [str(v) for k, v in p.items() if k not in ("hidden", "kind", "back")]
        return "?" + (" " + " ".join(extra) if extra else "")
    text = str(p.get("label", p.get("name", "?")))
    if p.get("face_down"):
        text += " (face down)"
    return text


def blocked_values(view: dict) -> set:
    """Values of the player's visible variables: an edge carrying one of them as an attribute
    value is drawn blocked (rules close edges by naming what they carry, e.g. a symbol)."""
    out = set()
    for name, value in (view.get("variables") or {}).items():
        if name in ("round", "phase") or not isinstance(value, str):
            continue
        out.add(value)
    return out


def _edge_blocked(attrs: dict, closed: set) -> bool:
    if attrs.get("blocked") is True:
        return True
    return any(isinstance(v, str) and v in closed for v in attrs.values())


def board_svg(shape: BoardShape, view: dict, pieces_on: dict) -> str:
    """One graph or fixed-grid board. `pieces_on`: node -> [(piece dict, owner seat or None)]."""
    xs = [n["x"] for n in shape.nodes.values()] or [0]
    ys = [n["y"] for n in shape.nodes.values()] or [0]
    width = (max(xs) - min(xs) + 1) * CELL
    height = (max(ys) - min(ys) + 1) * CELL
    ox, oy = min(xs), min(ys)

    def at(node: str) -> tuple[float, float]:
        n = shape.nodes[node]
        return (n["x"] - ox + 0.5) * CELL, (n["y"] - oy + 0.5) * CELL

    parts = [f'<svg class="board" data-board="{escape(shape.id)}" xmlns="http://www.w3.org/2000/svg" '
             f'viewBox="0 0 {width:.0f} {height:.0f}" width="{width:.0f}" height="{height:.0f}" '
             f'role="img" aria-label="{escape(shape.label)}">']
    closed = blocked_values(view)
    labels = []  # edge labels go on top of the nodes, so short edges stay readable
    if not shape.is_grid:
        for a, b, attrs in shape.edges:
            (x1, y1), (x2, y2) = at(a), at(b)
            blocked = _edge_blocked(attrs, closed)
            cls = "edge blocked" if blocked else "edge"
            text = " ".join(str(v) for v in attrs.values() if not isinstance(v, (dict, list)))
            title = f"{a} – {b}" + (f": {text}" if text else "") + (" (blocked)" if blocked else "")
            parts.append(f'<g class="{cls}"><title>{escape(title)}</title>'
                         f'<line x1="{x1:.0f}" y1="{y1:.0f}" x2="{x2:.0f}" y2="{y2:.0f}"/>')
            mx, my = (x1 + x2) / 2, (y1 + y2) / 2
            parts.append("</g>")
            if text:
                labels.append(f'<text class="edge-label" x="{mx:.0f}" y="{my - 4:.0f}">{escape(text)}</text>')
            if blocked:
                labels.append(f'<text class="edge-cross" x="{mx:.0f}" y="{my + 14:.0f}">✕</text>')
    size = CELL * (0.96 if shape.is_grid else 0.78)
    for node, info in shape.nodes.items():
        cx, cy = at(node)
        parts.append(f'<g class="node" data-node="{escape(node)}">'
                     f'<rect x="{cx - size / 2:.0f}" y="{cy - size / 2:.0f}" width="{size:.0f}" '
                     f'height="{size:.0f}" rx="{4 if shape.is_grid else 10}"/>')
        if not shape.is_grid:
            parts.append(f'<text class="node-label" x="{cx:.0f}" y="{cy - size / 2 + 14:.0f}">'
                         f'{escape(info["label"])}</text>')
        parts.extend(_chips(pieces_on.get(node, []), cx, cy - size / 2 + (8 if shape.is_grid else 22), size))
        parts.append("</g>")
    parts.extend(labels)
    parts.append("</svg>")
    return "".join(parts)


def _chips(pieces: list, cx: float, top: float, size: float) -> list[str]:
    """Pieces on a node as labelled chips in the owner's colour, identical ones counted."""
    groups: list[list] = []
    for piece, owner in pieces:
        text = piece_text(piece)
        if groups and groups[-1][0] == text and groups[-1][1] == owner:
            groups[-1][2] += 1
        else:
            groups.append([text, owner, 1])
    out = []
    shown = groups[:6]
    for i, (text, owner, count) in enumerate(shown):
        y = top + i * 15
        label = (f"{count}× " if count > 1 else "") + text
        short = label if len(label) <= 20 else label[:19] + "…"
        out.append(f'<g class="chip"><title>{escape(label)}</title>'
                   f'<rect x="{cx - size / 2 + 4:.0f}" y="{y:.0f}" width="{size - 8:.0f}" height="13" rx="6" '
                   f'fill="{colour(owner)}"/><text x="{cx:.0f}" y="{y + 10:.0f}">{escape(short)}</text></g>')
    if len(groups) > len(shown):
        y = top + len(shown) * 15
        out.append(f'<text class="more" x="{cx:.0f}" y="{y + 10:.0f}">+{len(groups) - len(shown)} more</text>')
    return out


def grid_zone_svg(key: str, cells: list, shape: dict | None = None) -> str:
    """A grid zone from the view: cells [x, y, text, owner]; "?" is a cell the player cannot see.
    `shape` (the view's grid_shapes entry): a declared width/height draws the whole grid, `origin`
    is the first coordinate shown, `y_up` puts row 0 at the bottom."""
    shape = shape or {}
    if not cells and "width" not in shape:
        return ""
    xs = [c[0] for c in cells] or [0]
    ys = [c[1] for c in cells] or [0]
    x0, x1 = (0, shape["width"] - 1) if "width" in shape else (min(xs), max(xs))
    y0, y1 = (0, shape["height"] - 1) if "height" in shape else (min(ys), max(ys))
    shift = shape.get("origin", 0)
    unit, margin = 64, 18  # margin: room for the coordinates
    width, height = (x1 - x0 + 1) * unit + margin, (y1 - y0 + 1) * unit + margin

    def at(x: int, y: int) -> tuple[int, int]:
        row = (y1 - y) if shape.get("y_up") else (y - y0)
        return margin + (x - x0) * unit, margin + row * unit

    parts = [f'<svg class="grid-zone" data-zone="{escape(key)}" xmlns="http://www.w3.org/2000/svg" '
             f'viewBox="0 0 {width} {height}" width="{width}" height="{height}">']
    for x in range(x0, x1 + 1):
        px, _ = at(x, y0)
        parts.append(f'<text class="coord" x="{px + unit / 2:.0f}" y="12">{x + shift}</text>')
    for y in range(y0, y1 + 1):
        _, py = at(x0, y)
        parts.append(f'<text class="coord" x="9" y="{py + unit / 2 + 4:.0f}">{y + shift}</text>')
    covered = {(c[0], c[1]) for c in cells}
    for x in range(x0, x1 + 1):
        for y in range(y0, y1 + 1):
            if (x, y) not in covered:
                px, py = at(x, y)
                parts.append(f'<rect class="empty-cell" x="{px + 2}" y="{py + 2}" width="{unit - 4}" '
                             f'height="{unit - 4}" rx="6"/>')
    for cell in cells:
        x, y, text = cell[0], cell[1], str(cell[2])
        owner = cell[3] if len(cell) > 3 else None
        px, py = at(x, y)
        hidden = text == "?"
        stroke = f' fill="{colour(owner)}" stroke="{colour(owner)}"' if owner is not None else ""
        cls = "cell" + (" hidden" if hidden else "") + (" owned" if owner is not None else "")
        parts.append(f'<g class="{cls}"><title>({x + shift}, {y + shift}) '
                     f'{escape(text)}</title><rect x="{px + 2}" y="{py + 2}" width="{unit - 4}" '
                     f'height="{unit - 4}" rx="6"{stroke}/><text x="{px + unit / 2:.0f}" '
                     f'y="{py + unit / 2 + 4:.0f}">{escape(text[:9])}</text></g>')
    parts.append("</svg>")
    return "".join(parts)


def boards_html(table: Any, view: dict) -> str:
    """Every board of the rule file and every grid zone in the view, as SVG figures."""
    pieces_on: dict = {}
    for key, pieces in (view.get("zones") or {}).items():
        where = table.on_node.get(key)
        if where is None:
            continue
        owner = table.owner.get(key)
        pieces_on.setdefault(where[0], {}).setdefault(where[1], []).extend((p, owner) for p in pieces)
    out = []
    for bid, shape in table.boards.items():
        out.append(f'<figure class="board-figure"><figcaption>{escape(shape.label)}</figcaption>'
                   f'{board_svg(shape, view, pieces_on.get(bid, {}))}</figure>')
    labels = view.get("zone_labels") or {}
    shapes = view.get("grid_shapes") or {}
    for key, cells in (view.get("grids") or {}).items():
        out.append(f'<figure class="board-figure"><figcaption>{escape(labels.get(key, key))}</figcaption>'
                   f'{grid_zone_svg(key, cells, shapes.get(key))}</figure>')
    return "".join(out)
