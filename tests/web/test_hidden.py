"""What a page receives never contains what its player cannot see: the JSON the server sends
is compared before and after everything hidden from that player is resampled (the same
resampling as the conformance harness's hidden-information audit)."""
from __future__ import annotations

import json
import random

import pytest

from interpreter.resample import resample

from .conftest import RULES, Server


def resampled(S, seat: int, rng: random.Random):
    """A copy of S where every piece hidden from `seat` is swapped with an indistinguishable one
    (the engine's resampling: pending options follow the swapped pieces, hidden dice are rolled
    again, the random future is new)."""
    T, _ = resample(S, seat, rng)
    return T


def sent_json(server, seat: int) -> str:
    r = server.get(seat)
    assert r.status_code == 200
    return json.dumps(r.json(), sort_keys=True)


def check_every_seat(server, rng) -> int:
    session = server.session
    checked = 0
    for seat in server.token_of:
        before = sent_json(server, seat)
        original = session.state
        session.state = resampled(original, seat, rng)
        session._payloads.clear()
        try:
            after = sent_json(server, seat)
        finally:
            session.state = original
            session._payloads.clear()
        assert before == after, f"P{seat + 1}'s page changed when only hidden things changed"
        checked += 1
    return checked


@pytest.mark.parametrize("game, players, seed", [
    ("chicago_poker/game.yaml", 2, 3),
    ("dogs_day/game.yaml", 3, 1),
    ("dice_town/game.yaml", 3, 2),
    ("kuhn_poker/game.yaml", 2, 4),
])
def test_pages_do_not_change_when_hidden_things_are_resampled(game, players, seed):
    server = Server(str(RULES / game), ["human"], seed=seed, players=players)
    rng = random.Random(seed)
    checks = 0
    with server.client:
        for step in range(60):
            S = server.session.state
            if S.is_terminal():
                break
            if step % 3 == 0:
                checks += check_every_seat(server, rng)
            seat = rng.choice(S.current_players())
            count = len(S.legal_actions(seat))
            r = server.post(seat, {"option": rng.randrange(count), "version": server.session.version})
            assert r.status_code == 200, r.text
    assert checks >= players * 2 or server.session.state.is_terminal()


def test_a_poker_page_never_names_the_other_hand(poker):
    rng = random.Random(7)
    for _ in range(25):
        S = poker.session.state
        everything = S.view(None)  # the omniscient view, to know what each hand holds
        for seat in (0, 1):
            other_hand = everything["zones"].get(f"hand:{1 - seat}", [])
            page = poker.get(seat).json()
            shown = page["html"]["zones"]
            for card in other_hand:
                assert f'data-piece="{card["id"]}"' not in shown
            text = json.dumps(page)
            assert all(f'"id": {card["id"]},' not in text for card in other_hand)
        seat = rng.choice(S.current_players())
        poker.post(seat, {"option": rng.randrange(len(S.legal_actions(seat)))})


def test_a_secret_pick_in_progress_does_not_show_on_the_other_pages():
    """Two identical games where P1 picks differently in a secret simultaneous draft: the other
    seats' pages are the same in both (as the harness's open-block audit checks)."""
    path = str(RULES / "between_two_cities" / "game.yaml")
    pages = []
    for option in (0, 2):
        server = Server(path, ["human"], seed=5, players=3)
        with server.client:
            assert server.session.state.current_players() == [0, 1, 2]
            assert server.post(0, {"option": option}).status_code == 200
            pages.append({seat: sent_json(server, seat) for seat in (1, 2)})
            own = server.get(0).json()
            assert "(secret)" not in " ".join(own["log"])  # P1 reads their own pick
    assert pages[0] == pages[1]
    assert "P1 chooses (secret)" in pages[0][1]
