"""Expansions and house rules change a base file by stable ids."""
from __future__ import annotations

import pytest

from interpreter.errors import RulebookError, flatten
from interpreter.game import Game

from .helpers import write_game

BASE = """
options:
  bonus: {type: int, default: 1}
zones:
  pool: {}
counters:
  points: {per: [player]}
flow:
  rounds: 1
  phases:
    - id: first
      turns: seat
      turn: "points[player] += option.bonus"
    - id: last
      do: "pass"
scoring:
  score: "points[player]"
assumptions:
  - {id: base_decision, kind: decision, text: "A base decision."}
"""


def _variant(tmp_path, body):
    (tmp_path / "variants").mkdir(exist_ok=True)
    path = tmp_path / "variants" / "house.yaml"
    path.write_text(body, encoding="utf-8")
    return path


def test_expansion_adds_a_phase_after_another(tmp_path):
    write_game(tmp_path, BASE)
    exp = write_game(tmp_path, """
extends: game.yaml
game: {id: t_plus, name: T plus}
changes:
  - add: flow.phases.middle
    after: first
    value: {turns: seat, turn: "points[player] += 10"}
  - replace: options.bonus.default
    value: 2
assumptions:
  - {id: expansion_decision, kind: decision, text: "Another."}
""", name="plus.yaml", base=False)
    game = Game.load(exp)
    assert game.id == "t_plus"
    assert game.new_game(2).returns() == [12, 12]
    assert [a["id"] for a in game.d.assumptions] == ["base_decision", "expansion_decision"]


def test_variant_applies_to_its_base_by_id(tmp_path):
    base = write_game(tmp_path, BASE)
    house = _variant(tmp_path, """
extends: ../game.yaml
changes:
  - remove: flow.phases.first
""")
    assert Game.load(base, [house]).new_game(2).returns() == [0, 0]


@pytest.mark.parametrize("change, message", [
    ("- remove: flow.phases.frist", 'no element with id "frist" (did you mean "first"?)'),
    ("- add: flow.phases.first\n    value: {do: pass}", 'already exists (use replace)'),
    ("- replace: options.bonsu\n    value: {type: int, default: 3}", 'does not exist (use add) (did you mean "bonus"?)'),
])
def test_broken_overlays_name_the_change(tmp_path, change, message):
    base = write_game(tmp_path, BASE)
    house = _variant(tmp_path, f"extends: ../game.yaml\nchanges:\n  {change}\n")
    with pytest.raises(RulebookError) as exc:
        Game.load(base, [house])
    errors = [str(e) for e in flatten([exc.value])]
    assert any(message in e and "house.yaml:3:" in e for e in errors), errors


def test_variant_of_another_game_is_refused(tmp_path):
    base = write_game(tmp_path, BASE)
    other = tmp_path / "other"
    other.mkdir()
    write_game(other, BASE)
    house = _variant(other, "extends: ../game.yaml\nchanges: []\n")
    with pytest.raises(RulebookError, match="not part of"):
        Game.load(base, [house])


def test_extends_cycle_is_an_error(tmp_path):
    (tmp_path / "a.yaml").write_text("extends: b.yaml\n")
    (tmp_path / "b.yaml").write_text("extends: a.yaml\n")
    with pytest.raises(RulebookError, match="cycle"):
        Game.load(tmp_path / "a.yaml")


def test_a_top_level_section_in_an_overlay_is_refused_instead_of_ignored(tmp_path):
    from interpreter.errors import RulebookError, flatten
    from interpreter.game import Game
    base = tmp_path / "game.yaml"
    base.write_text("""game: {id: g, name: G, players: {min: 2, max: 2}}
counters:
  points: {per: [player]}
flow:
  rounds: 1
  phases: [{id: p, do: "log 'x'"}]
scoring:
  score: "points[player]"
""", encoding="utf-8")
    variant = tmp_path / "v.yaml"
    variant.write_text("""extends: game.yaml
scoring:
  score: "0"
""", encoding="utf-8")
    try:
        Game.load(base, [variant])
    except RulebookError as exc:
        messages = [str(e) for e in flatten([exc])]
    else:
        raise AssertionError("a top-level scoring in an overlay was silently ignored")
    assert any("v.yaml:2:1:" in m and "- replace: scoring" in m and "E040" in m for m in messages)
