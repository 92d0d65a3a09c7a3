"""The poker-hand builtins (`hand_rank`, `hand_category`) on abstract data: plain rank/suit
lists, generic maps and a tiny inline rule file. No game's cards or names."""
from __future__ import annotations

import itertools
from collections import Counter

import pytest

from interpreter.builtins.poker import check_table, evaluate
from tests.engine.helpers import load

TABLE = [
    {"id": "five", "groups": [5]},
    {"id": "sflush", "straight": 5, "flush": 5, "tiebreak": "top"},
    {"id": "rainbow", "straight": 5, "rainbow": 5, "tiebreak": "top"},
    {"id": "four", "groups": [4]},
    {"id": "full", "groups": [3, 2]},
    {"id": "flush", "flush": 5, "tiebreak": "high_cards"},
    {"id": "straight", "straight": 5, "tiebreak": "top"},
    {"id": "three", "groups": [3]},
    {"id": "twopair", "groups": [2, 2]},
    {"id": "pair", "groups": [2]},
    {"id": "high", "tiebreak": "high_cards"},
]


def hand(spec: str):
    """'9a 9b 3c' -> values [9, 9, 3], suits ['a', 'b', 'c']."""
    cards = spec.split()
    return [int(c[:-1]) for c in cards], [c[-1] for c in cards]


def cat(spec, table=TABLE):
    i, _ = evaluate(*hand(spec), table)
    return table[i]["id"] if i >= 0 else None


def key(spec, table=TABLE):
    return evaluate(*hand(spec), table)[1]


@pytest.mark.parametrize("spec,expected", [
    ("9a 9b 9c 9d 9e", "five"),
    ("3a 4a 5a 6a 7a", "sflush"),
    ("3a 4b 5c 6d 7e", "rainbow"),
    ("9a 9b 9c 9d 2a", "four"),
    ("8a 8b 8c 1d 1a", "full"),
    ("2b 5b 7b 11b 13b", "flush"),
    ("3a 4a 5c 6d 7e", "straight"),
    ("8a 8b 8c 1d 2a", "three"),
    ("11a 11b 6c 6d 2a", "twopair"),
    ("9a 9b 6c 4d 2a", "pair"),
    ("14a 9b 6c 4d 2a", "high"),
])
def test_categories(spec, expected):
    assert cat(spec) == expected


def test_first_matching_row_wins_and_order_is_data():
    # the same hand changes category when the table is reordered
    reordered = [TABLE[5], TABLE[1]] + TABLE[2:5] + TABLE[6:]
    assert cat("3a 4a 5a 6a 7a", reordered) == "flush"
    assert key("2a 5a 7a 9a 11a", reordered) > key("3b 4b 5b 6b 7b", reordered)


def test_tiebreak_groups_then_kickers():
    assert key("9a 9b 9c 9d 9e") > key("4a 4b 4c 4d 4e")
    assert key("8a 8b 8c 1d 1a") > key("5a 5b 5c 12d 12a")           # triple decides
    assert key("11a 11b 6c 6d 1a") > key("11c 11d 2a 2b 15a")         # high pair, then low pair
    assert key("11a 11b 6c 6d 9a") > key("11c 11d 6a 6b 8a")          # then the kicker
    assert key("9a 9b 1c 2d 3a") > key("7a 7b 15c 14d 13a")           # pair value first
    assert key("9a 9b 12c 5d 4a") > key("9c 9d 12a 5b 3a")            # then kickers high first


def test_tiebreak_top_and_high_cards():
    assert key("8a 9b 10a 11c 12a") > key("5a 6b 7a 8c 9a")
    assert key("8a 9b 10a 11c 12a") == key("8b 9c 10b 11a 12b")
    assert key("11a 2a 3a 4a 6a") > key("8b 7b 6b 5b 3b")
    assert key("11a 9a 7a 5a 2a") > key("11b 9b 7b 5b 1b")
    assert key("11a 9a 7a 5a 2a") == key("11b 9b 7b 5b 2b")


def test_short_hands_reach_only_reachable_rows_and_missing_cards_lose():
    assert cat("9a 9b 9c 9d") == "four"
    assert cat("9a 9b") == "pair"
    assert cat("3a 4b 5c 6d") == "high"                     # 4 cards: no straight of 5
    assert cat("3a 5a 7a 9a") == "high"                     # nor a flush
    assert cat("9a 9b 2c 2d") == "twopair"
    assert key("9a 9b 3c") > key("9c 9d")                   # a present kicker beats none
    assert key("15a 14b 13c 12d 10e") > key("15b 14c 13d 12e")
    assert cat("") == "high" and key("") < key("1a")


def test_straights_do_not_wrap_and_need_distinct_values():
    assert cat("13a 14b 15c 1d 2e") == "high"
    assert cat("3a 4b 5c 6d 6e") == "pair"


def test_groups_are_at_least_sizes():
    table = [{"id": "triple", "groups": [3]}, {"id": "rest"}]
    assert cat("4a 4b 4c 4d", table) == "triple"           # four of a kind holds a triple
    assert cat("4a 4b 5c", table) == "rest"
    assert evaluate([], [], [{"id": "only", "groups": [2]}])[0] == -1   # nothing matches


def test_distribution_over_a_small_deck():
    # 4 suits x 6 values, 5-card hands: every hand gets exactly one category and the counts
    # add up to C(24, 5)
    deck = [(v, s) for s in "abcd" for v in range(1, 7)]
    counts = Counter()
    for h in itertools.combinations(deck, 5):
        i, _ = evaluate([c[0] for c in h], [c[1] for c in h], TABLE)
        counts[TABLE[i]["id"]] += 1
    assert sum(counts.values()) == 42504
    assert counts["five"] == 0                               # only 4 suits
    assert counts["sflush"] == 4 * 2                         # 1-5 and 2-6 in each suit
    assert counts["four"] == 6 * 5 * 4                        # quad value, kicker value, suit


def test_check_table_reports_problems():
    assert check_table(TABLE) == []
    assert check_table([]) != []
    problems = check_table([{"id": "x", "groups": ["a"], "straight": 0, "tiebreak": "sideways", "oops": 1}])
    text = " ".join(problems)
    assert "groups" in text and "straight" in text and "tiebreak" in text and "oops" in text


GAME = """
tables:
  ranks:
    - {id: two_same, groups: [2], tiebreak: groups}
    - {id: run, straight: 3, tiebreak: top}
    - {id: nothing, tiebreak: high_cards}
components:
  tile:
    kind: tile
    start: bag
    items:
      - {id: a1, n: 1, s: x}
      - {id: a2, n: 2, s: y}
      - {id: a3, n: 3, s: x}
      - {id: b3, n: 3, s: y}
      - {id: b7, n: 7, s: x}
zones:
  bag: {ordered: true}
variables:
  best: {initial: none}
setup:
  - id: rank
    do: |
      let pair = [t for t in bag if t.n == 3]
      let run = [t for t in bag if t.n <= 3 and t.name != "b3"]
      let odd = [t for t in bag if t.name in ["a1", "b7"]]
      best = [hand_category(pair, ranks, value="n", suit="s"), hand_category(run, ranks, value="n", suit="s"),
              hand_category(odd, ranks, value="n", suit="s"),
              hand_rank(pair, ranks, value="n", suit="s") > hand_rank(run, ranks, value="n", suit="s"),
              hand_rank(odd, ranks, value="n", suit="s")]
flow:
  rounds: 1
  phases:
    - id: nothing
      do: "pass"
scoring:
  score: "0"
"""


def test_builtins_in_a_rule_file(tmp_path):
    game = load(tmp_path, GAME)
    S = game.new_game(2, {}, 1)
    assert S.vars["best"] == ["two_same", "run", "nothing", True, [1, 7, 1]]


def test_a_hand_ranks_the_same_in_any_order_and_keys_are_fresh_lists():
    table = [{"id": "pair", "groups": [2]}, {"id": "high"}]
    first = evaluate([9, 4, 9, 2], ["a", "b", "c", "d"], table)
    assert evaluate([2, 9, 4, 9], ["d", "c", "b", "a"], table) == first == (0, [2, 9, 9, 4, 2])
    first[1].append(99)     # a caller changing its key changes nobody else's
    assert evaluate([9, 4, 9, 2], ["a", "b", "c", "d"], table)[1] == [2, 9, 9, 4, 2]
