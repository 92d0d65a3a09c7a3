"""A saved log given to a player: `rulebook play --log-for PLAYER FILE` and `rulebook replay LOG
--as PLAYER` save the log as that player saw it; the referee's log (`--log`) is not for players.
tests/hidden/test_audit.py audits runner.player_log (what these commands save) as a handout at
every decision; here the files the commands write are checked against it."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from interpreter.labels import piece_label
from interpreter.runner import player_log, read_log, replay
from tests.hidden.corpus import DUEL, ROOT

KEEPS = """extends: {duel}
changes:
  - replace: functions.play_card.do
    value: |
      log "{{p}} keeps {{top(hand[p])}}"
      choose c from hand[p] by p prompt "Play a card"
      move c to table
"""


def rulebook(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "interpreter", *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT)


@pytest.fixture()
def played(tmp_path):
    """A 3-player game whose log names each player's kept card (each reader sees it as they may),
    saved as the referee's log and as P2's log."""
    overlay = tmp_path / "keeps.yaml"
    overlay.write_text(KEEPS.format(duel=DUEL))
    out = rulebook("play", DUEL, "--players", 3, "--seed", 4, "--variant", overlay, "--quiet",
                   "--log", tmp_path / "referee.json", "--log-for", "P2", tmp_path / "p2.json")
    assert out.returncode == 0, out.stderr
    return tmp_path


def test_player_log_names_no_card_hidden_from_that_player(played):
    referee = read_log(played / "referee.json")
    S, problems = replay(referee, "referee.json")
    assert problems == []
    mine = json.loads((played / "p2.json").read_text())
    hidden = [piece_label(S, p) for key, zone in S.zones.items() for p in zone if not S.sees(1, p)]
    assert hidden, "the game should end with cards P2 cannot see"
    referee_text, mine_text = "\n".join(referee["log"]), "\n".join(mine["log"])
    named = [label for label in hidden if label in referee_text]
    assert named, "the referee's log names cards hidden from P2 (so this test can fail)"
    assert [label for label in named if label in mine_text] == []
    assert "seed" not in mine and "decisions" not in mine  # nothing to recompute hidden data from
    assert mine["seat"] == "P2" and mine["log"] == S.log_lines(1)


def test_the_saved_file_is_the_audited_player_log(played):
    S, _ = replay(read_log(played / "referee.json"), "referee.json")
    assert json.loads((played / "p2.json").read_text()) == json.loads(json.dumps(player_log(S, 1)))


def test_replay_as_a_player_writes_the_same_file(played):
    out = rulebook("replay", played / "referee.json", "--as", "2", "--out", played / "again.json")
    assert out.returncode == 0, out.stderr
    assert (played / "again.json").read_text() == (played / "p2.json").read_text()
    printed = rulebook("replay", played / "referee.json", "--as", "P2")
    assert printed.stdout.splitlines()[:len(json.loads((played / "p2.json").read_text())["log"])] \
        == json.loads((played / "p2.json").read_text())["log"]


def test_a_player_log_cannot_be_replayed(played):
    out = rulebook("replay", played / "p2.json")
    assert out.returncode == 1 and "the log as P2 saw it" in out.stderr and "[E502]" in out.stderr


@pytest.mark.parametrize("who", ["P4", "0", "me"])
def test_unknown_player_is_a_usage_error(tmp_path, who):
    out = rulebook("play", DUEL, "--players", 3, "--log-for", who, tmp_path / "x.json")
    assert out.returncode == 2 and "--log-for" in out.stderr and "P1 … P3" in out.stderr
    assert not (tmp_path / "x.json").exists()
