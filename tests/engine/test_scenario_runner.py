"""Scenario runner: an expectation that fails to evaluate is located at the expectation."""
from __future__ import annotations

from pathlib import Path

from interpreter.scenario import ScenarioFile

HIGH_CARD = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "high_card.yaml"


def test_a_rule_error_inside_an_expectation_points_at_the_expectation(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(f"""game: {HIGH_CARD}
players: 2
scenarios:
  - name: out of range
    steps:
      - expect: "hand[7] == 1"
""", encoding="utf-8")
    (result,) = ScenarioFile(path).run_all()
    assert not result.passed
    assert str(result.pos).endswith("s.yaml:6:17") or ":6:" in str(result.pos)
    assert 'zone "hand" has no index 7' in result.message and "<unknown>" not in result.line()
