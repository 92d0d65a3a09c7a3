"""majority.py builtins on abstract data: letters with scores."""
import pytest

from interpreter.builtins import majority
from interpreter.errors import RuleRuntimeError

S = None
SCORE = {"a": 5, "b": 5, "c": 3, "d": 1, "e": None}
f = SCORE.get


def test_places_share_skips_the_places_of_a_tie():
    got = majority.places(S, list("abcde"), f)
    assert got == [[0, ["a", "b"]], [2, ["c"]], [3, ["d"]]]
    assert majority.places(S, list("abcde"), f, "skip_next") == got


def test_places_dense_and_drop():
    assert majority.places(S, list("abcd"), f, "dense") == [[0, ["a", "b"]], [1, ["c"]], [2, ["d"]]]
    assert majority.places(S, list("abcd"), f, "drop") == [[2, ["c"]], [3, ["d"]]]


def test_places_of_nothing_and_unknown_policy():
    assert majority.places(S, [], f) == []
    with pytest.raises(RuleRuntimeError):
        majority.places(S, list("ab"), f, "coin_flip")


def test_ranking_in_input_order():
    assert majority.ranking(S, list("dcbae"), f) == [3, 2, 0, 0, None]


def test_awards_share():
    assert majority.awards_by_place(S, list("abcd"), f, [10, 6, 3]) == [["a", 10], ["b", 10], ["c", 3]]


def test_awards_split_down_pools_the_covered_places():
    assert majority.awards_by_place(S, list("abcd"), f, [10, 6, 3], "split_down") == [["a", 8], ["b", 8], ["c", 3]]
    three = {"x": 2, "y": 2, "z": 2}
    assert majority.awards_by_place(S, list("xyz"), three.get, [10, 5], "split_down") == [["x", 5], ["y", 5], ["z", 5]]


def test_awards_dense_and_drop():
    assert majority.awards_by_place(S, list("abcd"), f, [10, 6, 3], "dense") == [["a", 10], ["b", 10], ["c", 6], ["d", 3]]
    assert majority.awards_by_place(S, list("abcd"), f, [10, 6, 3], "drop") == [["c", 3]]
