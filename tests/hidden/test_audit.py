"""The differential hidden-information audit (interpreter/audit.py) and `rulebook audit`.

Quick suite: every leaky overlay is caught, one audited game per included rule file finds no
leak. With --slow: more games, every option configuration and every variant."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.audit import audit, load_for_audit
from interpreter.conformance import configurations
from interpreter.rulefiles import game_entry_files, variant_files
from interpreter.runner import Played, make_log, player_log
from tests.hidden.corpus import CORPUS, DUEL, LEAKY, ROOT


def run_audit(base, variants=(), players=None, games=3, seed=0, handouts=()):
    game, static, templates = load_for_audit(base, list(variants))
    n = game.default_players if players is None else players
    return audit(game, n, game.resolve_options({}), games, seed, templates, handouts=handouts), static


@pytest.mark.parametrize("overlay,base,players,code,sink", CORPUS, ids=lambda x: str(x))
def test_leaky_overlay_is_caught_by_the_audit(overlay, base, players, code, sink):
    report, static = run_audit(base, [LEAKY / overlay], players, games=4)
    assert report.leaks, f"the audit missed the leak of {overlay}"
    leak = report.leaks[0]
    assert leak.sink.startswith(sink)
    assert leak.real != leak.other
    assert 0 <= leak.viewer < players and leak.decision >= 0
    if sink == "log line" or sink == "prompt":
        assert leak.where.startswith(str(LEAKY / overlay)) or overlay in leak.where


def test_clean_test_game_passes():
    report, static = run_audit(DUEL, players=3, games=6)
    assert static == [] and report.leaks == [] and report.errors == []
    assert report.games == 6 and report.comparisons > report.decisions


def test_leak_reproduces_from_its_seed():
    report, _ = run_audit(DUEL, [LEAKY / "leaky_deck_top.yaml"], 3, games=4, seed=5)
    leak = report.leaks[0]
    again, _ = run_audit(DUEL, [LEAKY / "leaky_deck_top.yaml"], 3, games=1, seed=leak.seed)
    assert again.leaks and again.leaks[0].decision == leak.decision and again.leaks[0].sink == leak.sink


def test_disclosed_values_are_not_leaks(tmp_path):
    overlay = tmp_path / "announce.yaml"
    overlay.write_text(f"""extends: {DUEL}
changes:
  - replace: functions.play_card.do
    value: |
      log "{{p}} announces a high card: {{disclose(any(hand[p], x => x.value > 4))}}"
      choose c from hand[p] by p prompt "Play a card"
      move c to table
""")
    report, static = run_audit(DUEL, [overlay], 3, games=4)
    assert static == [] and report.leaks == []
    undisclosed = tmp_path / "blurt.yaml"
    undisclosed.write_text(overlay.read_text().replace("disclose(any(hand[p], x => x.value > 4))",
                                                       "any(hand[p], x => x.value > 4)"))
    report, static = run_audit(DUEL, [undisclosed], 3, games=4)
    assert static and report.leaks and report.leaks[0].sink.startswith("log line")


def test_saved_log_given_to_a_player_leaks_but_the_player_log_does_not(tmp_path):
    """The referee's record (make_log: seed, decisions, the full log) handed to a player is a
    leak; runner.player_log is what a player may be given."""
    overlay = tmp_path / "keeps.yaml"  # a correct log line: each reader sees the card as they may
    overlay.write_text(f"""extends: {DUEL}
changes:
  - replace: functions.play_card.do
    value: |
      log "{{p}} keeps {{top(hand[p])}}"
      choose c from hand[p] by p prompt "Play a card"
      move c to table
""")
    game, _, _ = load_for_audit(DUEL, [overlay])

    def referee_record(S, viewer):
        data = make_log(game, Played(S, list(S.history)), str(DUEL), S.n, S.options, S.seed, [])
        data.pop("final_hash")
        return data
    report, _ = run_audit(DUEL, [overlay], players=3, games=2, handouts=[("saved log", referee_record)])
    assert report.leaks and report.leaks[0].sink == "handout:saved log"
    report, _ = run_audit(DUEL, [overlay], players=3, games=2, handouts=[("player log", player_log)])
    assert report.leaks == []


def _entries() -> list:
    """rules/, the fixtures, and the folders in $RULEBOOK_RULES_DIRS (as tests/test_conformance.py)."""
    extra = [game_entry_files(Path(d).resolve()) for d in os.environ.get("RULEBOOK_RULES_DIRS", "").split(os.pathsep) if d]
    return (game_entry_files(ROOT / "rules") + sorted((ROOT / "tests" / "fixtures").glob("*.yaml"))
            + sorted((ROOT / "tests" / "fixtures" / "table").glob("*.yaml"))
            + sorted((ROOT / "tests" / "lab" / "fixtures").glob("*.yaml"))
            + [ROOT / "tests" / "fixtures" / "tutorial" / "game.yaml"] + [f for found in extra for f in found])


def _id(p: Path) -> str:
    return str(p.relative_to(ROOT) if p.is_relative_to(ROOT) else p)


@pytest.mark.parametrize("entry", _entries(), ids=_id)
def test_included_rule_files_have_no_leak(entry):
    report, static = run_audit(entry, games=1, seed=7)
    assert static == []
    assert not report.leaks, report.leaks[0].describe()


@pytest.mark.slow
@pytest.mark.parametrize("entry", _entries(), ids=_id)
def test_included_rule_files_have_no_leak_slow(entry):
    game, static, templates = load_for_audit(entry)
    assert static == []
    for n, opts in configurations(game):
        report = audit(game, n, opts, 2, 100, templates)
        assert not report.leaks, f"{n} players {opts}: " + report.leaks[0].describe()
    for variant in variant_files(entry):
        report, static = run_audit(entry, [variant], games=5, seed=200)
        assert static == [] and not report.leaks, report.leaks[0].describe() if report.leaks else static


def cli(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "interpreter", "audit", *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT)


def test_cli_clean_exit_0():
    out = cli(DUEL, "--players", 3, "--games", 2)
    assert out.returncode == 0, out.stderr
    assert "clean" in out.stdout and "2 games" in out.stdout


def test_cli_leak_exit_1_with_position_viewer_sink_and_seed():
    out = cli(DUEL, "--players", 3, "--games", 3, "--variant", LEAKY / "leaky_peek_log.yaml")
    assert out.returncode == 1
    assert "leaky_peek_log.yaml:6:49:" in out.stderr and "[E240]" in out.stderr  # static
    assert "can tell two worlds apart through log line" in out.stderr  # dynamic
    assert "leaky_peek_log.yaml:6:11" in out.stderr and "seed " in out.stderr
    assert "reproduce: rulebook audit" in out.stderr and "--seed" in out.stderr


def test_cli_json():
    out = cli(DUEL, "--players", 3, "--games", 2, "--seed", 4, "--json", "--variant", LEAKY / "leaky_error.yaml")
    assert out.returncode == 1
    data = json.loads(out.stdout)
    assert data["clean"] is False and data["static"] == []
    assert data["leaks"][0]["sink"] == "error message" and data["leaks"][0]["seed"] >= 4
    assert {"games", "decisions", "comparisons", "players", "options", "errors"} <= set(data)


def test_cli_usage_and_input_errors():
    assert cli(DUEL, "--games", 0).returncode == 2
    bad = cli(DUEL, "--option", "nope=1")
    assert bad.returncode == 1 and "unknown option" in bad.stderr


def test_cli_shows_static_warnings_then_decides_them():
    out = cli(DUEL, "--players", 3, "--games", 2, "--variant", LEAKY / "leaky_custom_visibility.yaml")
    assert out.returncode == 1  # the warning alone would not fail it: the audit finds the leak
    assert out.stderr.index("[E246]") < out.stderr.index("hidden information leaks")
    assert "(1 warning): LEAKS" in out.stdout
    data = json.loads(cli(DUEL, "--players", 3, "--games", 1, "--json", "--variant",
                          LEAKY / "leaky_custom_visibility.yaml").stdout)
    assert data["static"] == [] and len(data["static_warnings"]) == 1 and "E246" in data["static_warnings"][0]
