"""What a player observes, as data (interpreter/observation.py), and the surfaces made from it.

An observation must not change when only things hidden from its viewer change (checked on
every included game by resampling at every decision point), must change when something the
viewer sees changes, and must be plain, deterministic JSON. Log lines and prompts are events
(a template and masked arguments) whose text is the line each player reads. The surfaces (the
terminal, the web page, the adapters) are made from observations, and the audit compares
observations, so a leak in the data is a leak even where no text shows it.
"""
from __future__ import annotations

import io
import json
import random
from functools import lru_cache
from pathlib import Path

import pytest

from interpreter.events import event_of_parts, event_text
from interpreter.game import Game
from interpreter.logs import render
from interpreter.observation import observe
from interpreter.resample import resample
from interpreter.rulefiles import game_entry_files
from interpreter.views import log_text, view_of
from tests.engine.helpers import load
from tests.hidden.corpus import DUEL, ROOT

ENTRIES = game_entry_files(ROOT / "rules")

MARKERS = """
components:
  marker:
    public: [kind_name]
    face: down
    start: reserve
    items:
      - {id: small, kind_name: bag, value: 1, count: 3}
      - {id: big, kind_name: bag, value: 5, count: 3}
      - {id: gem, kind_name: gem, value: 9, count: 2}
zones:
  reserve: {visibility: hidden}
  vault: {per: [player], visibility: owner}
  bank: {}
setup:
  - id: fill
    do: |
      shuffle reserve
      for p in players:
        draw 2 from reserve to vault[p]
      draw 3 from reserve to bank
flow:
  rounds: 1
  phases:
    - id: steal
      turns: seat
      turn: |
        let target = next_player(player)
        choose m from vault[target] prompt "Steal from {target}: {first(vault[target])}"
        move m to vault[player]
        log "{player} steals {m} from {{the}} vault of {target}"
"""


@lru_cache(maxsize=None)
def _game(path: Path) -> Game:
    return Game.load(path)


def _points(path: Path, players: int, seed: int, limit: int = 40, game: Game | None = None):
    """The state at each of the first `limit` decision points of a random game."""
    game = game or _game(path)
    S = game.new_game(players, game.resolve_options({}), seed)
    rng = random.Random(seed)
    for _ in range(limit):
        yield S
        waiting = S.current_players()
        if S.is_terminal() or not waiting:
            return
        p = rng.choice(waiting)
        S.apply(p, rng.randrange(S.option_count(p)))


def _hidden_differs(S, T, viewer: int) -> bool:
    """Whether T differs from S in something (so an equal observation means something)."""
    return S.to_json()["zones"] != T.to_json()["zones"] or S.dyn != T.dyn


@pytest.mark.parametrize("path", ENTRIES, ids=lambda p: str(p.relative_to(ROOT)))
def test_observation_does_not_change_when_only_hidden_things_change(path):
    game = _game(path)
    players = game.default_players
    rng = random.Random(11)
    compared = differed = hidden = 0
    for S in _points(path, players, seed=4):
        for viewer in range(players):
            T, _ = resample(S, viewer, rng)
            real, other = observe(S, viewer), observe(T, viewer)
            assert real == other, f"P{viewer + 1}'s observation changed with hidden things only"
            compared += 1
            differed += _hidden_differs(S, T, viewer)
            hidden += not all(S.sees(viewer, p) for zone in S.zones.values() for p in zone)
    assert compared
    assert differed or not hidden, "the resample never changed anything: the test proves nothing"


def test_observation_changes_when_a_visible_thing_changes(tmp_path):
    S = load(tmp_path, MARKERS).new_game(2, seed=3)
    before = observe(S, 0)
    piece = S.zones["bank"][0]
    S.move([piece], "vault:0")
    after = observe(S, 0)
    assert before != after
    assert len(after["zones"]["bank"]["pieces"]) == 2


def test_observation_is_plain_deterministic_json_and_survives_save_and_restore():
    game = _game(DUEL)
    for S in _points(DUEL, 3, seed=2, limit=12, game=game):
        R = game.restore(json.loads(json.dumps(S.to_json())))
        for viewer in (None, 0, 2):
            obs = observe(S, viewer)
            assert json.loads(json.dumps(obs)) == obs
            assert observe(S, viewer) == obs
            assert observe(R, viewer) == obs


def test_hidden_pieces_are_backs_with_position_handles(tmp_path):
    S = load(tmp_path, MARKERS).new_game(2, seed=3)
    obs = observe(S, 0)
    theirs = obs["zones"]["vault:1"]["pieces"]
    assert [p["ref"] for p in theirs] == ["vault:1#0", "vault:1#1"]
    for p in theirs:
        assert p["hidden"] is True and p["kind"] == "marker" and p["kind_name"] in ("bag", "gem")
        assert "id" not in p and "name" not in p and "value" not in p
    mine = obs["zones"]["vault:0"]["pieces"]
    assert all("id" in p and "ref" not in p for p in mine)


def test_decision_prompt_and_log_are_events_masked_for_each_viewer(tmp_path):
    game = load(tmp_path, MARKERS)
    S = game.new_game(2, seed=3)
    decision = observe(S, 0)["decision"]
    # the prompt names a piece of P2's vault: P1 (deciding) sees only its back
    assert decision["prompt"]["template"] == "Steal from {0}: {1}"
    target, shown = decision["prompt"]["args"]
    assert target == {"player": 1, "label": "P2"}
    assert shown["hidden"] is True and "piece" not in shown and shown["label"].startswith("hidden")
    assert view_of(observe(S, 0))["decision"]["prompt"] == "Steal from P2: " + shown["label"]
    assert S.prompt(0) == "Steal from P2: " + shown["label"]
    # the options: P2's markers by their backs, no identity
    for option in decision["options"]:
        assert option["piece"]["hidden"] is True and "id" not in option["piece"]
        assert option["zone"] == "vault:1"
    S.apply(0, 0)
    line = observe(S, 0)["log"][-1]  # written after the move: the marker is in P1's vault
    assert line["template"] == "{0} steals {1} from {{the}} vault of {2}"
    mover, stolen, owner = line["args"]
    assert stolen["piece"] >= 0 and "hidden" not in stolen and not stolen["label"].startswith("hidden")
    other = observe(S, 1)["log"][-1]["args"][1]
    assert other == {"hidden": True, "label": other["label"]} and other["label"].startswith("hidden")
    assert event_text(line) == f"P1 steals {stolen['label']} from {{the}} vault of P2"


def test_event_text_is_the_line_each_player_reads():
    """The two forms of every log line (the text parts and the event) read the same, for every
    viewer, in every included game; an entry saved without its event still reads the same."""
    lines = 0
    for path in ENTRIES:
        game = _game(path)
        players = game.default_players
        last = None
        for S in _points(path, players, seed=9, limit=40):
            last = S
        for viewer in [None, *range(players)]:
            events = observe(last, viewer)["log"]
            assert [event_text(e) for e in events] == [render(e, viewer) for e in last.log]
            old = [event_text({"template": ev[0], "args": ev[1]}) for ev in
                   (event_of_parts(entry[1]) for entry in last.log)] if viewer is None else None
            if old is not None:
                assert old == [render(e, None) for e in last.log]
            lines += len(events)
    assert lines > 100


def test_an_entry_saved_before_events_existed_is_still_an_event(tmp_path):
    S = load(tmp_path, MARKERS).new_game(2, seed=3)
    S.apply(0, 0)
    S.log = [entry[:2] for entry in S.log]  # the old saved form: no event
    for viewer in (0, 1):
        assert log_text(observe(S, viewer)) == [render(e, viewer) for e in S.log]
    hidden = [a for a in observe(S, 1)["log"][-1]["args"] if a.get("hidden")]
    assert hidden and all(set(a) == {"hidden", "label"} for a in hidden)


# ---------------------------------------------------------------------- surfaces
def _pair(tmp_path):
    """Two states P1 cannot tell apart (equal observations) that differ in hidden things."""
    game = load(tmp_path, MARKERS)
    rng = random.Random(5)
    S = game.new_game(2, seed=3)
    for _ in range(50):
        T, _ = resample(S, 0, rng)
        if T.to_json()["zones"] != S.to_json()["zones"]:
            assert observe(S, 0) == observe(T, 0)
            return game, S, T
    raise AssertionError("no resample changed the hidden pieces")


def _terminal(state, player: int) -> str:
    """What a human seat's terminal prints before asking: new log lines, the table, the options."""
    from rich.console import Console

    from interpreter import render as terminal
    from interpreter.agents import human
    out = Console(file=io.StringIO(), width=100, highlight=False)
    saved = terminal.console, human.console
    terminal.console = human.console = out
    try:
        obs = human.HumanAgent()._observe(state, player)
        terminal.print_observation(obs)
        terminal.print_decision(obs)
    finally:
        terminal.console, human.console = saved
    return out.file.getvalue()


def test_terminal_shows_the_same_for_equal_observations(tmp_path):
    game, S, T = _pair(tmp_path)
    assert _terminal(S, 0) == _terminal(T, 0)
    assert "hidden" in _terminal(S, 0)


@pytest.mark.parametrize("path", [p for p in ENTRIES if "tic_tac_toe" not in str(p)][:4],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_terminal_of_a_human_seat_does_not_change_with_hidden_things(path):
    game = _game(path)
    rng = random.Random(3)
    checked = 0
    for i, S in enumerate(_points(path, game.default_players, seed=6, limit=30)):
        if i % 6 or not S.current_players():
            continue
        p = S.current_players()[0]
        T, _ = resample(S, p, rng)
        assert _terminal(S, p) == _terminal(T, p), f"P{p + 1}'s terminal changed with hidden things only"
        checked += 1
    assert checked


def test_web_page_is_made_from_the_observation(tmp_path):
    pytest.importorskip("starlette")
    from interpreter.web.payload import seat_payload
    from interpreter.web.tablelayout import table_layout
    game, S, T = _pair(tmp_path)
    table = table_layout(game, 2, S.options)
    a = seat_payload(S, table, 0, version=1, game_name="T", seats=[])
    b = seat_payload(T, table, 0, version=1, game_name="T", seats=[])
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def test_adapter_vector_and_text_are_made_from_the_observation(tmp_path):
    pytest.importorskip("numpy")
    pytest.importorskip("pettingzoo")
    from interpreter.adapters.encoding import ViewEncoder
    from interpreter.adapters.pettingzoo import view_text
    game, S, T = _pair(tmp_path)
    encoder = ViewEncoder(S)
    a, b = observe(S, 0, log_from=None), observe(T, 0, log_from=None)
    assert (encoder.encode_observation(a) == encoder.encode_observation(b)).all()
    assert view_text(view_of(a)) == view_text(view_of(b))
    assert observe(S, None) != observe(T, None)  # the referee sees the difference


# ---------------------------------------------------------------------- the audit compares data
def test_audit_catches_a_leak_in_the_data_that_no_text_shows(tmp_path, monkeypatch):
    """A hidden piece's id carried in a masked argument of a log line or a prompt changes no
    text; the audit compares observations, so it is caught all the same."""
    from interpreter import events
    from interpreter.audit import audit, first_difference
    from interpreter.audit import observe as audit_observe
    original = events.mask

    def leaky(arg, viewer):
        out = original(arg, viewer)
        if out.get("hidden") and "piece" in arg:
            out = dict(out, secret_id=arg["piece"])
        return out
    game = load(tmp_path, MARKERS)
    monkeypatch.setattr(events, "mask", leaky)
    report = audit(game, 2, game.resolve_options({}), games=3, seed=0)
    assert report.leaks, "the audit compared only text"
    leak = report.leaks[0]
    assert leak.sink in ("log line", "prompt") and "secret_id" in leak.real + leak.other
    S = game.new_game(2, seed=1)
    S.apply(0, 0)
    texts = [render(e, 0) for e in S.log]
    assert texts == log_text(observe(S, 0))  # the text does not show it
    assert first_difference(audit_observe(S, 0), audit_observe(S, 0)) is None


def test_changing_an_observation_changes_nothing_in_the_game(tmp_path):
    S = load(tmp_path, MARKERS).new_game(2, seed=3)
    S.apply(0, 0)
    before = S.to_json()
    obs = observe(S, 1)
    for event in obs["log"]:
        for arg in event["args"]:
            arg["label"] = "changed"
    obs["zones"]["bank"]["pieces"][0]["label"] = "changed"
    obs["decision"]["options"][0]["label"] = "changed"
    assert S.to_json() == before and "changed" not in " ".join(S.log_lines(1))
