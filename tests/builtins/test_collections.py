"""Collection builtins of core.py (sort, unique, min, max) on abstract data."""
from interpreter.builtins import core

S = None  # plain lists need no game state


def test_sort_is_stable_by_key_ascending_and_descending():
    words = ["bb", "a", "cc", "d", "ee"]
    assert core.sort(S, words, len) == ["a", "d", "bb", "cc", "ee"]
    # descending keeps equal keys in their first order too
    assert core.sort(S, words, len, desc=True) == ["bb", "cc", "ee", "a", "d"]


def test_sort_puts_none_first_and_compares_lists_element_by_element():
    assert core.sort(S, [3, None, 1]) == [None, 1, 3]
    assert core.sort(S, [[2, 1], [1, 5], [1, None]]) == [[1, None], [1, 5], [2, 1]]
    assert core.sort(S, [[2, 1], [1, 5]], desc=True) == [[2, 1], [1, 5]]


def test_sort_by_a_key_that_is_sometimes_none():
    rows = [("a", 2), ("b", None), ("c", 1)]
    assert core.sort(S, rows, lambda r: r[1]) == [("b", None), ("c", 1), ("a", 2)]


def test_sort_asks_the_key_once_per_element_in_order():
    asked = []

    def key(x):
        asked.append(x)
        return -x
    assert core.sort(S, [2, 3, 1], key) == [3, 2, 1]
    assert asked == [2, 3, 1]


def test_unique_keeps_first_seen_order_for_plain_values_and_lists():
    assert core.unique(S, [3, 1, 3, 2, 1]) == [3, 1, 2]
    assert core.unique(S, ["b", "a", "b"]) == ["b", "a"]
    assert core.unique(S, [[1, [2]], [1, [2]], [3]]) == [[1, [2]], [3]]


def test_min_and_max_with_and_without_a_key():
    assert core.max_(S, [2, 7, 3]) == 7
    assert core.min_(S, [2, 7, 3]) == 2
    assert core.max_(S, ["ab", "c", "def"], len) == 3
    assert core.min_(S, [], default=0) == 0
