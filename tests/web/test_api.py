"""The HTTP API: a token reads and acts for its own seat only; bad requests are refused with a
clear 4xx and leave the game untouched; live notices; hot seat; limits and idle expiry."""
from __future__ import annotations

import pytest
from starlette.websockets import WebSocketDisconnect

from .conftest import TTT, Server


def decisions_stored(server) -> int:
    return server.store.raw("SELECT COUNT(*) FROM decisions")[0][0]


def test_a_seat_reads_its_own_view_and_acts(ttt):
    r = ttt.get(0)
    assert r.status_code == 200
    data = r.json()
    assert data["seat"] == 0 and data["decision"]["options"] == [str(i) for i in range(9)]
    r = ttt.post(0, {"option": 4, "version": 0})
    assert r.status_code == 200
    after = r.json()
    assert after["version"] == 1 and after["decision"] is None and after["waiting_for"] == [1]
    assert after["log"] == ["P1 chooses 4"]
    assert decisions_stored(ttt) == 1
    assert ttt.get(1).json()["decision"]["options"] == ["0", "1", "2", "3", "5", "6", "7", "8"]


@pytest.mark.parametrize("path", ["/api/play/{other}?seat=0", "/api/play/forged-token", "/play/forged-token",
                                  "/api/play/", "/play/"])
def test_other_seats_and_forged_tokens_get_403_and_nothing_else(ttt, path):
    r = ttt.client.get(path.format(other=ttt.token_of[1]))
    assert r.status_code == 403
    assert r.content == b""


def test_acting_for_another_seat_is_403_and_changes_nothing(ttt):
    r = ttt.post(1, {"option": 0, "seat": 0})
    assert r.status_code == 403 and r.content == b""
    r = ttt.client.post("/api/play/forged", json={"option": 0})
    assert r.status_code == 403 and r.content == b""
    assert ttt.session.version == 0 and decisions_stored(ttt) == 0


@pytest.mark.parametrize("body, status, words", [
    ({"option": 9}, 422, "no option 9"),
    ({"option": -1}, 422, "no option -1"),
    ({"option": "4"}, 400, "option index"),
    ({"option": True}, 400, "option index"),
    ({}, 400, "missing field"),
    ({"option": 0, "colour": "red"}, 400, "unknown field"),
    ({"option": 0, "version": 7}, 409, "options changed"),
    (b"{not json", 400, "malformed JSON"),
    (b"[1, 2]", 400, "JSON object"),
])
def test_bad_requests_are_refused_clearly_and_the_game_is_untouched(ttt, body, status, words):
    before = ttt.get(0).json()
    r = ttt.post(0, body, headers={"Content-Type": "application/json"}) if isinstance(body, bytes) else ttt.post(0, body)
    assert r.status_code == status
    assert words in r.json()["error"]
    assert ttt.get(0).json() == before and decisions_stored(ttt) == 0


def test_out_of_turn_wrong_type_and_huge_bodies(ttt):
    r = ttt.post(1, {"option": 0})
    assert r.status_code == 409 and "P2 is not deciding" in r.json()["error"]
    r = ttt.post(0, b"option=1", headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 415
    r = ttt.post(0, b'{"option": 0, "seat": "' + b"x" * 5000 + b'"}', headers={"Content-Type": "application/json"})
    assert r.status_code == 413
    assert ttt.session.version == 0 and decisions_stored(ttt) == 0


def test_the_game_refuses_moves_after_it_ends(ttt):
    for seat, option in [(0, 0), (1, 2), (0, 2), (1, 3), (0, 4)]:  # P1 takes 0, 3, 6: column 0
        version = ttt.session.version
        assert ttt.post(seat, {"option": option, "version": version}).status_code == 200
    data = ttt.get(0).json()
    assert data["over"] and data["result"]["winners"] == [0]
    assert ttt.post(1, {"option": 0}).status_code == 409


def test_a_page_gets_a_notice_when_another_seat_moves(ttt):
    with ttt.client.websocket_connect(f"/ws/{ttt.token_of[1]}") as ws:
        assert ws.receive_json() == {"version": 0}
        assert ttt.post(0, {"option": 4}).status_code == 200
        assert ws.receive_json() == {"version": 1}


def test_a_forged_token_cannot_listen(ttt):
    with pytest.raises(WebSocketDisconnect):
        with ttt.client.websocket_connect("/ws/forged") as ws:
            ws.receive_json()


def test_pages_are_private_and_not_cached(ttt):
    r = ttt.client.get(f"/play/{ttt.token_of[0]}")
    assert r.status_code == 200 and "<script src=\"/static/play.js\">" in r.text
    assert r.headers["referrer-policy"] == "no-referrer" and r.headers["cache-control"] == "no-store"
    assert "script-src 'self'" in r.headers["content-security-policy"]


def test_reloading_shows_the_same_page(ttt):
    ttt.post(0, {"option": 4})
    first = ttt.get(1).json()
    from starlette.testclient import TestClient
    with TestClient(ttt.app) as client:
        assert client.get(f"/api/play/{ttt.token_of[1]}").json() == first


def test_ai_seats_move_by_themselves():
    server = Server(TTT, ["human", "random"])
    with server.client:
        server.post(0, {"option": 4})
        import time
        for _ in range(200):
            if server.session.version == 2:
                break
            time.sleep(0.01)
        data = server.get(0).json()
        assert data["version"] == 2 and data["waiting_for"] == [0] and len(data["log"]) == 2


def test_hot_seat_table_reads_human_seats_only():
    server = Server(TTT, ["human", "human"], hot_seat=True)
    table = next(iter(server.session.tokens))
    with server.client:
        summary = server.client.get(f"/api/play/{table}").json()
        assert summary["table"] and summary["waiting_for"] == [0] and "html" not in summary
        assert server.client.get(f"/api/play/{table}", params={"seat": 0}).json()["seat"] == 0
        r = server.client.post(f"/api/play/{table}", json={"option": 4, "seat": 0})
        assert r.status_code == 200
        r = server.client.post(f"/api/play/{table}", json={"option": 0})
        assert r.status_code == 400 and "name the seat" in r.json()["error"]
    ai = Server(TTT, ["human", "random"], hot_seat=True)
    table = next(iter(ai.session.tokens))
    assert ai.client.get(f"/api/play/{table}", params={"seat": 1}).status_code == 403


def test_games_per_server_are_bounded_and_need_the_admin_token():
    server = Server(TTT, ["human", "human"], max_games=2)
    with server.client:
        url = "/api/games"
        assert server.client.post(url, json={}).status_code == 403
        auth = {"Authorization": f"Bearer {server.admin}"}
        r = server.client.post(url, json={"seats": ["human", "random"], "seed": 5}, headers=auth)
        assert r.status_code == 201 and list(r.json()["seats"]) == ["0"]
        r = server.client.post(url, json={}, headers=auth)
        assert r.status_code == 503 and "limit" in r.json()["error"]
        r = server.client.post(url, json={"seats": ["human", "bogus"]}, headers=auth)
        assert r.status_code in (422, 503)


def test_unknown_agent_kinds_are_refused_with_a_suggestion():
    server = Server(TTT, ["human", "human"])
    with server.client:
        r = server.client.post("/api/games", json={"seats": ["human", "radnom"]},
                               headers={"Authorization": f"Bearer {server.admin}"})
        assert r.status_code == 422 and "random" in r.json()["error"]


def test_idle_games_expire_and_their_tokens_stop_working(ttt):
    import time
    token = ttt.token_of[0]
    assert ttt.sessions.expire_idle(now=time.time() + 10) == []
    gone = ttt.sessions.expire_idle(now=time.time() + ttt.sessions.idle_seconds + 1)
    assert gone == [ttt.session.id]
    assert ttt.client.get(f"/api/play/{token}").status_code == 403
    assert ttt.store.raw("SELECT COUNT(*) FROM games")[0][0] == 0


def test_secret_simultaneous_picks_do_not_make_the_other_pages_stale():
    from .conftest import RULES
    server = Server(str(RULES / "between_two_cities" / "game.yaml"), ["human"], seed=2, players=3)
    with server.client:
        assert server.session.state.current_players() == [0, 1, 2]
        pages = {seat: server.get(seat).json() for seat in (0, 1, 2)}
        assert server.post(0, {"option": 0, "version": pages[0]["version"]}).status_code == 200
        # P2 still sees version 0 and its options are unchanged: its pick is accepted
        assert server.post(1, {"option": 0, "version": pages[1]["version"]}).status_code == 200
        assert server.get(2).json()["decision"] == pages[2]["decision"]
        # a double click on a stale page is refused: P1's own decision moved on
        r = server.post(0, {"option": 0, "version": pages[0]["version"]})
        assert r.status_code == 409 and "options changed" in r.json()["error"]
        assert server.session.version == 2


def test_a_search_agent_seat_plays_through_the_registry():
    import time
    server = Server(TTT, ["mcts:8,depth=3", "human"])
    with server.client:
        for _ in range(500):  # the AI seat moves first, by itself
            if server.session.version == 1:
                break
            time.sleep(0.01)
        page = server.get(1).json()
        assert page["version"] == 1 and page["decision"] and len(page["decision"]["options"]) == 8
        assert page["seats"][0]["agent"] == "mcts:8,depth=3"


def test_a_rule_that_fails_at_run_time_is_reported_not_crashed(ttt, monkeypatch):
    from interpreter.errors import RuleRuntimeError

    def broken(self, player, action):
        raise RuleRuntimeError("division by zero in some rule")
    monkeypatch.setattr(type(ttt.session.state), "apply", broken)
    r = ttt.post(0, {"option": 0})
    assert r.status_code == 500 and "the rules failed" in r.json()["error"]
    assert ttt.session.version == 0 and decisions_stored(ttt) == 0


def test_labels_in_the_rules_language_when_asked():
    from .conftest import RULES
    from interpreter.web.sessions import Sessions
    from interpreter.web.store import Store
    sessions = Sessions(Store(), ai_delay=0)
    game = str(RULES / "chicago_dry" / "game.yaml")
    english = sessions.create(game, [], 2, {}, 1, ["human"])
    portuguese = sessions.create(game, [], 2, {}, 1, ["human"], lang="pt")
    assert "Garrafa" not in english.payload(0)["html"]["zones"]
    assert ">Garrafa<" in portuguese.payload(0)["html"]["zones"]  # the drinks' pt labels
