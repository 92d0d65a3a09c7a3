"""Property-based tests (hypothesis) of the engine's plain-data foundations."""
from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.rng import Rng
from interpreter.values import PLAYERS, Piece, ZoneRef, decode, encode

PIECES = [Piece(i) for i in range(50)]

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**9, 10**9), st.text(max_size=8),
                    st.builds(lambda i: PIECES[i], st.integers(0, 49)),
                    st.builds(lambda i: PLAYERS[i], st.integers(0, 7)),
                    st.builds(ZoneRef, st.text(min_size=1, max_size=6)))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.tuples(inner, inner),
    st.dictionaries(st.text(max_size=4), inner, max_size=3)), max_leaves=12)


@given(values)
def test_encode_decode_round_trip_keeps_types(value):
    back = decode(json.loads(json.dumps(encode(value))), PIECES)
    assert back == value
    assert _types(back) == _types(value)


def _types(v):
    if isinstance(v, (list, tuple)):
        return (type(v).__name__, [_types(x) for x in v])
    if isinstance(v, dict):
        return ("dict", sorted((k, _types(x)) for k, x in v.items()))
    return type(v).__name__


@given(st.integers(0, 2**64 - 1), st.integers(1, 1000))
def test_rng_below_is_in_range_and_deterministic(seed, n):
    a, b = Rng(seed), Rng(seed)
    xs = [a.below(n) for _ in range(20)]
    assert xs == [b.below(n) for _ in range(20)]
    assert all(0 <= x < n for x in xs)


@given(st.integers(0, 2**32), st.lists(st.integers(), max_size=30))
def test_shuffle_is_a_permutation(seed, items):
    shuffled = list(items)
    Rng(seed).shuffle(shuffled)
    assert sorted(shuffled) == sorted(items)


@settings(max_examples=20)
@given(st.integers(0, 10**6))
def test_rng_copy_continues_identically(seed):
    r = Rng(seed)
    r.next32()
    c = r.copy()
    assert [r.next32() for _ in range(5)] == [c.next32() for _ in range(5)]


def test_rng_is_roughly_uniform():
    r = Rng(1)
    counts = [0] * 6
    for _ in range(60_000):
        counts[r.below(6)] += 1
    assert all(9_400 < c < 10_600 for c in counts)
