"""Views, options and logs never reveal what a player cannot see."""
from __future__ import annotations

import random

from interpreter.conformance import audit_hidden, perturb

from .helpers import load

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
        choose m from vault[next_player(player)] prompt "Steal a marker"
        move m to vault[player]
        log "{player} steals {m}"
"""


def test_hidden_pieces_are_offered_anonymously_and_grouped(tmp_path):
    game = load(tmp_path, MARKERS)
    S = game.new_game(2, seed=3)
    labels = S.option_labels(0)
    assert all(text.startswith("hidden marker") for text in labels)
    kinds = {text.split()[2] for text in labels}
    assert len(labels) == len(kinds)  # one option per visible kind, not per piece
    assert all("(vault [P2])" in text for text in labels)


def test_own_vault_is_visible_to_its_owner_only(tmp_path):
    S = load(tmp_path, MARKERS).new_game(2, seed=3)
    mine = S.view(0)["zones"]["vault:0"]
    theirs = S.view(0)["zones"]["vault:1"]
    assert all("value" not in p or True for p in mine) and all("id" in p for p in mine)
    assert all(p == {"hidden": True, "kind": "marker", "kind_name": p["kind_name"]} for p in theirs)


def test_face_down_bank_shows_public_attributes_only(tmp_path):
    S = load(tmp_path, MARKERS).new_game(2, seed=3)
    assert all(set(p) == {"hidden", "kind", "kind_name"} for p in S.view(1)["zones"]["bank"])


def test_log_line_written_with_the_visibility_of_that_moment(tmp_path):
    S = load(tmp_path, MARKERS).new_game(2, seed=3)
    S.apply(0, 0)
    mine, theirs = S.log_lines(0)[-1], S.log_lines(1)[-1]
    assert mine.startswith("P1 steals ") and "hidden" not in mine
    assert theirs.startswith("P1 steals hidden marker")


def test_audit_finds_no_leak_in_a_correct_game(tmp_path):
    S = load(tmp_path, MARKERS).new_game(3, seed=5)
    assert audit_hidden(S, random.Random(1)) is None


def test_audit_detects_a_view_that_leaks_identities(tmp_path, monkeypatch):
    """If views showed ids of hidden pieces, the audit must notice."""
    from interpreter import observation

    original = observation.piece_data

    def leaky(S, piece, viewer):
        out = original(S, piece, viewer)
        out["id"] = int(piece)
        return out
    monkeypatch.setattr(observation, "piece_data", leaky)
    S = load(tmp_path, MARKERS).new_game(2, seed=3)
    assert "hidden information leaks" in audit_hidden(S, random.Random(1))


def test_perturb_keeps_counts_and_visible_pieces(tmp_path):
    S = load(tmp_path, MARKERS).new_game(2, seed=3)
    T, _ = perturb(S, 0, random.Random(2))
    assert {k: len(v) for k, v in T.zones.items()} == {k: len(v) for k, v in S.zones.items()}
    assert T.zones["vault:0"] == S.zones["vault:0"]


def test_identical_visible_pieces_are_offered_once(tmp_path):
    game = load(tmp_path, """
components:
  token:
    start: pool
    items: [{id: wood, count: 4}, {id: stone, count: 2}]
zones:
  pool: {}
  mine: {per: [player]}
flow:
  rounds: 1
  phases:
    - id: p
      turns: seat
      turn: |
        choose t from pool
        move t to mine[player]
""")
    S = game.new_game(2)
    assert S.option_labels(0) == ["wood", "stone"]


BIDS = """
counters:
  coins: {per: [player], initial: 5}
  bid: {per: [player], initial: 0, visibility: VIS}
flow:
  rounds: 3
  phases:
    - id: bid
      turns: simultaneous
      turn: |
        choose b from range(coins[player] + 1) prompt "Bid"
        bid[player] = b
    - id: pay
      do: |
        for p in players:
          coins[p] -= bid[p]
scoring:
  score: "coins[player]"
"""


def test_audit_catches_a_secret_choice_shown_before_the_block_ends(tmp_path):
    from interpreter.conformance import check_game
    leaky = load(tmp_path, BIDS.replace("VIS", "public"))
    problems = [p for seed in range(6) for p in check_game(leaky, 3, {}, seed).problems]
    assert any("before the simultaneous block ends" in p for p in problems)


def test_audit_accepts_a_secret_kept_until_the_block_ends(tmp_path):
    from interpreter.conformance import check_game
    safe = load(tmp_path, BIDS.replace("VIS", "owner"))
    assert all(not check_game(safe, 3, {}, seed).problems for seed in range(6))


def test_audit_catches_a_log_line_inside_the_block(tmp_path):
    from interpreter.conformance import check_game
    leaky = load(tmp_path, BIDS.replace("VIS", "owner").replace(
        "        bid[player] = b\n", "        bid[player] = b\n        log '{player} bids {b}'\n"))
    problems = [p for seed in range(6) for p in check_game(leaky, 3, {}, seed).problems]
    assert any("log shows" in p for p in problems)
