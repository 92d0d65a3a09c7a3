"""matching.py builtins on abstract data: letters taking numbers from their own lists."""
from interpreter.builtins import matching

S = None


def opts(table):
    return lambda x: table[x]


def test_a_greedy_first_pick_is_undone_so_everyone_gets_one():
    # "a" alone would take 1 first; "b" can only take 1, so "a" must take 2
    table = {"a": [1, 2], "b": [1]}
    assert matching.matching(S, ["a", "b"], opts(table)) == [["a", 2], ["b", 1]]
    assert matching.assignable(S, ["a", "b"], opts(table)) is True


def test_more_takers_than_distinct_options():
    table = {"a": [1], "b": [1], "c": [1, 2]}
    got = matching.matching(S, ["a", "b", "c"], opts(table))
    assert len(got) == 2
    assert len({o for _, o in got}) == 2
    assert matching.assignable(S, ["a", "b", "c"], opts(table)) is False


def test_union_large_enough_is_not_enough():
    # three options in all, but "a" and "b" share a single one
    table = {"a": [1], "b": [1], "c": [2, 3]}
    assert matching.assignable(S, ["a", "b", "c"], opts(table)) is False


def test_long_augmenting_path():
    table = {"a": [1, 2], "b": [2, 3], "c": [3, 4], "d": [1]}
    got = dict((x, o) for x, o in matching.matching(S, list("abcd"), opts(table)))
    assert got == {"a": 2, "b": 3, "c": 4, "d": 1}


def test_no_elements_and_empty_lists():
    assert matching.matching(S, [], opts({})) == []
    assert matching.assignable(S, [], opts({})) is True
    assert matching.assignable(S, ["a"], opts({"a": []})) is False


def test_equal_list_values_are_one_option():
    table = {"a": [[0, 0]], "b": [[0, 0], [1, 0]]}
    assert matching.matching(S, ["a", "b"], opts(table)) == [["a", [0, 0]], ["b", [1, 0]]]


def test_equal_list_options_are_one_option():
    # cells given as lists: two takers offered only [0, 0] cannot both have it
    table = {"a": [[0, 0]], "b": [[0, 0]], "c": [[0, 0], [1, 0]]}
    assert matching.assignable(S, ["a", "b"], opts(table)) is False
    assert matching.matching(S, ["a", "c"], opts(table)) == [["a", [0, 0]], ["c", [1, 0]]]
