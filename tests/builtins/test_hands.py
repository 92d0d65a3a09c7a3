"""hand_rank / hand_category on abstract data: ranking tables are data, values numbers or ordered."""
from __future__ import annotations

import pytest

from interpreter.builtins.hands import hand_category, hand_rank
from interpreter.errors import RuleRuntimeError

S = object()  # plain lists and maps never touch the state

POKER = [
    {"id": "straight_flush", "straight": 5, "flush": 5},
    {"id": "four", "groups": [4]},
    {"id": "full_house", "groups": [3, 2]},
    {"id": "flush", "flush": 5, "tiebreak": "high_cards"},
    {"id": "straight", "straight": 5, "tiebreak": "top"},
    {"id": "three", "groups": [3]},
    {"id": "two_pair", "groups": [2, 2]},
    {"id": "pair", "groups": [2]},
    {"id": "high", "tiebreak": "high_cards"},
]
FACES = ["n", "t", "j", "q", "k", "a"]
DICE = [
    {"id": "five", "groups": [5]},
    {"id": "four", "groups": [4, 1]},
    {"id": "full", "groups": [3, 2]},
    {"id": "straight", "straight": 5},
    {"id": "three", "groups": [3, 1, 1]},
    {"id": "two_pair", "groups": [2, 2, 1]},
    {"id": "pair", "groups": [2, 1, 1, 1]},
    {"id": "high", "groups": [1, 1, 1, 1, 1]},
]


def cards(*specs):
    """'9r' -> value 9, suit r."""
    return [{"value": int(s[:-1]), "suit": s[-1]} for s in specs]


def dice(text):
    return [{"value": f} for f in text.split()]


def rank(h, table=POKER, **kw):
    return hand_rank(S, h, table, suit="suit", **kw)


def test_categories_of_cards():
    assert hand_category(S, cards("3r", "4r", "5r", "6r", "7r"), POKER, suit="suit") == "straight_flush"
    assert hand_category(S, cards("9r", "9b", "9g", "9y", "2r"), POKER, suit="suit") == "four"
    assert hand_category(S, cards("8r", "8b", "8g", "1y", "1r"), POKER, suit="suit") == "full_house"
    assert hand_category(S, cards("2b", "5b", "7b", "11b", "13b"), POKER, suit="suit") == "flush"
    assert hand_category(S, cards("3r", "4b", "5r", "6r", "7r"), POKER, suit="suit") == "straight"
    assert hand_category(S, cards("8r", "8b", "8g", "1y", "2r"), POKER, suit="suit") == "three"
    assert hand_category(S, cards("8r", "8b", "2g", "2y", "5r"), POKER, suit="suit") == "two_pair"
    assert hand_category(S, cards("8r", "8b", "2g", "3y", "5r"), POKER, suit="suit") == "pair"
    assert hand_category(S, cards("8r", "9b", "2g", "3y", "5r"), POKER, suit="suit") == "high"


def test_order_of_categories_and_kickers():
    assert rank(cards("9r", "9b", "9g", "9y", "2r")) > rank(cards("8r", "8b", "8g", "1y", "1r"))
    assert rank(cards("9r", "9b", "5g", "5y", "2r")) > rank(cards("9r", "9b", "4g", "4y", "13r"))
    assert rank(cards("9r", "9b", "5g", "5y", "3r")) > rank(cards("9g", "9y", "5r", "5b", "2g"))
    assert rank(cards("8r", "8b", "8g", "1y", "2r")) < rank(cards("8r", "8b", "8g", "1y", "3r"))
    assert rank(cards("3r", "4b", "5r", "6r", "7r")) < rank(cards("4r", "5b", "6r", "7r", "8r"))
    same = rank(cards("9r", "9b", "5g", "5y", "3r"))
    assert same == rank(cards("5b", "3g", "9g", "5r", "9y"))


def test_values_ranked_by_order():
    key = lambda t: hand_rank(S, dice(t), DICE, order=FACES)
    cat = lambda t: hand_category(S, dice(t), DICE, order=FACES)
    assert cat("n n n n n") == "five"
    assert cat("t j q k a") == "straight" and cat("n t j q k") == "straight"
    assert cat("a n t j q") == "high"  # no wrap-around
    assert key("t j q k a") > key("n t j q k")
    assert key("a a k k n") > key("a a q q k")
    assert key("k k k a a") > key("k k k q q")
    assert key("a a k q t") > key("a a k q n")
    with pytest.raises(RuleRuntimeError):
        key("a a k q x")


def test_short_hands_and_fallback():
    table = [{"id": "pair", "groups": [2]}]
    assert hand_category(S, [{"value": 5}], table) is None
    assert hand_rank(S, [{"value": 5}, {"value": 5}], table) > hand_rank(S, [{"value": 9}], table)
    # a present card beats a missing one
    assert hand_rank(S, [{"value": 5}, {"value": 5}, {"value": 2}], table) > \
        hand_rank(S, [{"value": 5}, {"value": 5}], table)


def test_errors():
    with pytest.raises(RuleRuntimeError):
        hand_rank(S, [{"value": "x"}], DICE)
    with pytest.raises(RuleRuntimeError):
        hand_rank(S, cards("2r"), [{"id": "f", "flush": 1}])
    with pytest.raises(RuleRuntimeError):
        hand_rank(S, cards("2r"), [{"id": "f", "tiebreak": "nope"}])
