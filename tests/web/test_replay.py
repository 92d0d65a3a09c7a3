"""The replay viewer: every decision of a saved log, from any seat or from everyone's view."""
from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from interpreter import Game
from interpreter.agents import make_agents
from interpreter.runner import make_log, play_game, save_log
from interpreter.web.app import create_app
from interpreter.web.replay import ReplaySession
from interpreter.web.sessions import Sessions
from interpreter.web.store import Store

from .conftest import POKER


@pytest.fixture(scope="module")
def replay_client(tmp_path_factory):
    game = Game.load(POKER)
    opts = game.resolve_options({})
    played = play_game(game, 2, opts, 5, make_agents("random", 2, 5))
    path = tmp_path_factory.mktemp("replay") / "game.json"
    save_log(path, make_log(game, played, POKER, 2, opts, 5, []))
    replay = ReplaySession(path, "replay-token")
    with TestClient(create_app(Sessions(Store()), replay=replay)) as client:
        yield client, replay, played


def test_steps_go_forward_and_back_through_every_decision(replay_client):
    client, replay, played = replay_client
    assert replay.steps == len(played.decisions)
    first = client.get("/api/replay/replay-token", params={"step": 0}).json()
    last = client.get("/api/replay/replay-token", params={"step": replay.steps}).json()
    assert first["log_total"] < last["log_total"] and last["over"] and last["next_mover"] is None
    assert first["next_mover"] == played.decisions[0][0]
    middle = replay.steps // 2
    forward = client.get("/api/replay/replay-token", params={"step": middle + 1}).json()
    back = client.get("/api/replay/replay-token", params={"step": middle}).json()
    assert forward["log_total"] >= back["log_total"] and back["step"] == middle
    assert client.get("/api/replay/replay-token", params={"step": middle}).json() == back


def test_a_seat_sees_its_own_hand_and_everyone_sees_all(replay_client):
    client, replay, _ = replay_client
    step = 3
    view_p1 = client.get("/api/replay/replay-token", params={"step": step, "seat": 0}).json()
    view_all = client.get("/api/replay/replay-token", params={"step": step, "seat": "all"}).json()
    hand_p2 = replay.states[step].view(None)["zones"]["hand:1"]
    assert hand_p2
    for card in hand_p2:
        assert f'data-piece="{card["id"]}"' in view_all["html"]["zones"]
        assert f'data-piece="{card["id"]}"' not in view_p1["html"]["zones"]
    assert view_p1["decision"] is None and view_all["seat"] is None


@pytest.mark.parametrize("params", [{"step": "-1"}, {"step": "x"}, {"step": "100000"}, {"seat": "7"}, {"seat": "p1"}])
def test_bad_steps_and_seats_are_refused(replay_client, params):
    client, _, _ = replay_client
    r = client.get("/api/replay/replay-token", params=params)
    assert r.status_code == 400 and r.json()["error"]


def test_the_replay_needs_its_token(replay_client):
    client, _, _ = replay_client
    assert client.get("/api/replay/other").status_code == 403
    assert client.get("/replay/other").status_code == 403
    assert client.get("/replay/replay-token").status_code == 200


def test_a_log_that_does_not_match_the_rules_is_refused(tmp_path):
    import json

    from interpreter.errors import InputError
    game = Game.load(POKER)
    opts = game.resolve_options({})
    played = play_game(game, 2, opts, 5, make_agents("random", 2, 5))
    data = make_log(game, played, POKER, 2, opts, 5, [])
    data["decisions"][2] = [data["decisions"][2][0], 999]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(InputError, match="decision 3"):
        ReplaySession(path, "t")
