"""Boards and zones drawn from the rule file's layout and one player's view."""
from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

from interpreter import Game
from interpreter.web.cards import card_row, counters_html
from interpreter.web.payload import seat_payload
from interpreter.web.svg import PLAYER_COLOURS, grid_zone_svg
from interpreter.web.tablelayout import table_layout

from .conftest import RULES

GAMES = ["chicago_dry/game.yaml", "dogs_day/game.yaml", "chicago_poker/game.yaml", "dice_town/game.yaml",
         "dice_town/cowboys.yaml", "between_two_cities/game.yaml", "between_two_cities/capitals.yaml",
         "tic_tac_toe/game.yaml", "goofspiel/game.yaml", "kuhn_poker/game.yaml", "liars_dice/game.yaml"]


def played(path: str, decisions: int, seed: int = 1):
    game = Game.load(RULES / path)
    S = game.new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        if S.is_terminal():
            break
        p = rng.choice(S.current_players())
        S.apply(p, rng.randrange(len(S.legal_actions(p))))
    return game, S


def well_formed(fragment: str) -> ET.Element:
    return ET.fromstring(f"<div>{fragment}</div>")  # raises on broken markup or bad escaping


@pytest.mark.parametrize("path", GAMES)
def test_every_game_draws_for_every_seat(path):
    game, S = played(path, 25)
    table = table_layout(game, S.n, S.options)
    for seat in range(S.n):
        page = seat_payload(S, table, seat, version=0, game_name=game.name, seats=[])
        for part, html in page["html"].items():
            well_formed(html)
        assert page["html"]["zones"] or page["html"]["boards"] or page["html"]["counters"]


def test_the_map_is_drawn_from_the_board_with_blocked_edges_and_owned_pieces():
    game, S = played("chicago_dry/game.yaml", 30)
    table = table_layout(game, S.n, S.options)
    view = S.view(0)
    page = seat_payload(S, table, 0, version=0, game_name=game.name, seats=[])
    svg = well_formed(page["html"]["boards"])
    ns = "{http://www.w3.org/2000/svg}"
    nodes = svg.findall(f".//{ns}g[@class='node']")
    edges = svg.findall(f".//{ns}g[@class='edge']") + svg.findall(f".//{ns}g[@class='edge blocked']")
    assert len(nodes) == len(game.d.boards["map"].nodes) == 9
    assert len(edges) == 12
    closed = view["variables"]["barrier_symbol"]
    blocked = svg.findall(f".//{ns}g[@class='edge blocked']")
    carrying = [e for e in game.d.boards["map"].edges.items() if e[1].get("symbol") == closed]
    assert len(blocked) == len(carrying) // 2 == 4  # undirected edges are stored both ways
    # a district's label, and drinks in their owner's colour inside it
    labels = [t.text for t in svg.iter(f"{ns}text") if t.get("class") == "node-label"]
    assert "The Loop" in labels
    owned = [k for k, v in view["zones"].items() if k.startswith("drinks_at:") and v]
    assert owned
    seat = int(owned[0].rsplit(":", 1)[1])
    assert f'fill="{PLAYER_COLOURS[seat]}"' in page["html"]["boards"]


def test_nodes_without_positions_go_on_a_circle_and_zones_on_nodes_are_not_repeated_as_rows():
    game, S = played("chicago_dry/game.yaml", 5)
    table = table_layout(game, S.n, S.options)
    shape = table.boards["map"]
    assert (shape.nodes["the_loop"]["x"], shape.nodes["the_loop"]["y"]) == (1.0, 1.0)  # col/row data
    page = seat_payload(S, table, 0, version=0, game_name=game.name, seats=[])
    assert 'data-zone="drinks_at:' not in page["html"]["zones"]
    from interpreter.web.tablelayout import _positions
    ring = _positions({"a": {}, "b": {}, "c": {}, "d": {}})
    assert len({(round(x, 3), round(y, 3)) for x, y in ring.values()}) == 4


def test_pieces_are_escaped():
    row = card_row([{"id": 1, "name": "n", "kind": "k", "label": "<script>alert(1)</script>"}])
    assert "<script>" not in row and "&lt;script&gt;" in row
    assert "<b>" not in grid_zone_svg("z", [[0, 0, "<b>"]])


def test_hidden_cards_show_backs_and_a_deck_is_one_counted_stack():
    hidden = {"hidden": True, "kind": "card", "back": "blue_back"}
    row = card_row([hidden] * 30 + [{"id": 3, "name": "a", "kind": "card", "label": "Ace", "face_down": True}])
    cards = well_formed(row)
    assert len(cards) == 2
    assert "blue back" in row and "×30" in row and "face-down" in row and "Ace" in row


def test_a_grid_zone_shows_cells_and_unseen_cells_as_hidden():
    svg = well_formed(grid_zone_svg("city:0", [[0, 0, "shop"], [1, 0, "?"], [0, -1, "park"]]))
    cells = [g for g in svg.iter("{http://www.w3.org/2000/svg}g")]
    assert len(cells) == 3 and sum(1 for g in cells if g.get("class") == "cell hidden") == 1


def test_square_counter_families_are_drawn_as_a_board():
    game, S = played("tic_tac_toe/game.yaml", 3)
    html = counters_html(S.view(0))
    table = well_formed(html).find(".//table")
    assert table.get("class") == "square" and len(table.findall("tr")) == 3
    marks = [td.text for tr in table.findall("tr") for td in tr.findall("td")]
    assert sum(1 for m in marks if m) == 3  # three marks made, the other cells blank
    assert counters_html({"counters": {"a:0": 1, "a:1": 2}, "counter_labels": {}}).startswith('<table class="counters">')


def test_between_two_cities_draws_each_city_as_a_grid():
    game, S = played("between_two_cities/game.yaml", 40)
    table = table_layout(game, S.n, S.options)
    page = seat_payload(S, table, 0, version=0, game_name=game.name, seats=[])
    assert len(re.findall(r'<svg class="grid-zone"', page["html"]["boards"])) == len(S.view(0).get("grids", {})) > 0


def test_a_fixed_grid_board_is_drawn_cell_by_cell_with_pieces_in_their_cells():
    from interpreter.model import Board
    from interpreter.web.tablelayout import _shape
    nodes = {f"{x},{y}": {"x": x, "y": y} for y in range(2) for x in range(3)}
    shape = _shape("field", Board("field", nodes, {n: [] for n in nodes}, {}, False))
    assert shape.is_grid and shape.nodes["2,1"]["x"] == 2.0 and shape.nodes["2,1"]["y"] == 1.0
    from interpreter.web.svg import board_svg
    svg = well_formed(board_svg(shape, {}, {"2,1": [({"id": 4, "label": "Knight"}, 1)]}))
    ns = "{http://www.w3.org/2000/svg}"
    cells = svg.findall(f".//{ns}g[@class='node']")
    assert len(cells) == 6
    knight = next(c for c in cells if c.get("data-node") == "2,1")
    assert "Knight" in "".join(knight.itertext()) and f'fill="{PLAYER_COLOURS[1]}"' in ET.tostring(knight, encoding="unicode")


def test_attribute_values_read_as_text_not_json_tags():
    row = card_row([{"id": 2, "name": "c", "kind": "card", "label": "Card",
                     "step": {"$map": [["take", 2], ["marker", "any"]]}, "at": {"$tuple": [1, -1]},
                     "holder": {"$player": 2}}])
    assert "take: 2; marker: any" in row and "(1, -1)" in row and "holder: P3" in row and "$" not in row


def test_a_declared_grid_is_drawn_whole_with_owners_and_row_zero_at_the_bottom_when_asked():
    cells = [[0, 0, "X", 0], [2, 1, "O", 1]]
    svg = grid_zone_svg("board", cells, {"width": 3, "height": 2, "origin": 1, "y_up": True})
    root = well_formed(svg)
    ns = "{http://www.w3.org/2000/svg}"
    assert len(root.findall(f".//{ns}rect[@class='empty-cell']")) == 4  # 6 cells, 2 covered
    pieces = {g.find(f"{ns}text").text: g.find(f"{ns}rect") for g in root.iter(f"{ns}g")}
    assert pieces["X"].get("fill") == PLAYER_COLOURS[0] and pieces["O"].get("fill") == PLAYER_COLOURS[1]
    assert int(pieces["X"].get("y")) > int(pieces["O"].get("y"))  # y_up: row 0 below row 1
    coords = [t.text for t in root.iter(f"{ns}text") if t.get("class") == "coord"]
    assert coords == ["1", "2", "3", "1", "2"]  # columns then rows, numbered from the origin
    flipped = well_formed(grid_zone_svg("board", cells, {"width": 3, "height": 2}))
    pieces = {g.find(f"{ns}text").text: g.find(f"{ns}rect") for g in flipped.iter(f"{ns}g")}
    assert int(pieces["X"].get("y")) < int(pieces["O"].get("y"))
