"""Rule coverage: what fired and what never did, in a game whose dead rules are known."""
from __future__ import annotations

from .helpers import COIN, TIC_TAC_TOE, run_json


def _coverage(*args: str) -> dict:
    code, data = run_json("simulate", COIN, "--games", "200", "--coverage", *args)
    assert code == 0
    return data["coverage"]


def _line(number: int) -> str:
    return f"coin.yaml:{number}"


def test_never_fired_rules_are_named():
    cov = _coverage()
    never = cov["never_fired"]
    assert never["procedures"] == ["unused_rule"]
    assert never["actions"] == ["call_edge"]  # its `when` never holds
    assert never["triggers"] == ["never_heard"]
    assert never["end_conditions"] == ["never"]
    # `if r <= option.tie` (line 48, tie is 0) and `if r > 100` (line 54) are never taken
    dead_branches = {b.rsplit(":", 1)[0].rsplit("/", 1)[-1] for b in never["branches"]}
    assert {_line(48), _line(54)} <= dead_branches and _line(50) not in dead_branches
    assert any(s.endswith(_line(55)) for s in never["statements"])  # the log under `if r > 100`
    assert not any(s.endswith(_line(51)) or s.endswith(_line(53)) for s in never["statements"])


def test_counts_match_what_happened():
    cov = _coverage()
    fired = {section: {r["name"]: r["count"] for r in rows} for section, rows in cov["fired"].items()}
    assert fired["end_conditions"] == {"rounds_done": 200}
    assert fired["actions"]["call_heads"] + fired["actions"]["call_tails"] == 400  # 2 calls per game
    assert fired["procedures"]["add_head"] == fired["actions"]["call_heads"]
    assert fired["procedures"]["main"] == 200
    # the trigger fires when both players called heads, about a quarter of the games
    assert 25 <= fired["triggers"]["note_heads"] <= 75


def test_an_option_brings_a_dead_branch_to_life():
    never = _coverage("--option", "tie=30")["never_fired"]
    assert not any(b.endswith("coin.yaml:48:12") for b in never["branches"])


def test_coverage_does_not_change_the_games():
    plain = run_json("simulate", TIC_TAC_TOE, "--games", "80", "--agents", "random,last")[1]
    covered = run_json("simulate", TIC_TAC_TOE, "--games", "80", "--agents", "random,last", "--coverage")[1]
    for key in ("wins_by_seat", "draws", "mean_scores", "length"):
        assert plain[key] == covered[key]
    assert covered["coverage"]["fired"]["end_conditions"] == [] and "coverage" not in plain
