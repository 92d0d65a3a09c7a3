"""Generated programs (interpreter/transpile/) written for speed play the engine's games: a
function's value kept over a window of statements (memo.py), `any(xs, x => x.a == c)` as one
lookup loop, argmax's keys in a comprehension, a choice's options in one runtime call
(runtime._look_options) and a roll's draws in one (runtime._roll). Each small rule file here is
played by the engine and by the program over seeds and player counts, and the source is checked
for the construct."""
from __future__ import annotations

import random
import re
import textwrap
from pathlib import Path

import pytest

from interpreter.game import Game
from interpreter.rng import Rng
from interpreter.transpile import load_program, program, runtime, transpile
from interpreter.transpile.compare import engine_trace, fast_trace, first_difference

# A turn: while the player can act (a function of functions), perform one of three actions
# whose conditions read the same functions; `lucky` draws from the Rng (never kept). `tally`
# closes the window (a counter changes) before `can_draw` is read again.
KEPT = """
game: {id: kept, name: Kept, version: 1, players: {min: 2, max: 3}}
components:
  card:
    kind: card
    start: deck
    items:
      - {id: a, suit: red, rank: 1, count: 5}
      - {id: b, suit: blue, rank: 2, count: 5}
      - {id: c, suit: red, rank: 3, count: 4}
zones:
  deck: {ordered: true, visibility: hidden}
  hand: {per: [player]}
  pile: {ordered: true}
counters:
  points: {per: [player], initial: 0}
  draws: {initial: 0}
functions:
  reds:
    params: [p]
    expr: 'count(hand[p], c => c.suit == "red")'
  can_draw:
    params: [p]
    expr: "count(deck) > 0 and count(hand[p]) < 4 and draws < 40"
  can_play:
    params: [p]
    expr: 'count(hand[p]) > 0 and (reds(p) > 1 or any(hand[p], c => c.suit == "blue"))'
  can_act:
    params: [p]
    expr: "can_draw(p) or can_play(p)"
  lucky:
    params: [p]
    expr: "first(shuffled(players)) == p"
  cost:
    params: [n]
    expr: "0 if n == 0 else n - 1"
actions:
  draw:
    when: "can_draw(player)"
    do: |
      draw 1 from deck to hand[player]
      draws += 1
  play:
    when: "can_play(player) and not lucky(player)"
    do: |
      choose c from hand[player]
      move c to pile
      points[player] += reds(player) + c.rank
  rest:
    when: "lucky(player) or not can_draw(player)"
    do: "points[player] += 1"
setup:
  - id: deal
    do: |
      shuffle deck
      deal 2 from deck to hand
flow:
  rounds: 4
  phases:
    - id: play
      turns: seat
      turn: |
        repeat 3:
          if not disclose(can_act(player)):
            break
          perform draw, play, rest by player
        if can_draw(player):
          points[player] += 5
        if can_draw(player) and reds(player) > 0:
          points[player] += 2
        let c = cost(count(hand[player]))
        points[player] += c
        let best = argmax(players, q => count(hand[q], c => c.suit == "red"))
        if any(hand[player], c => c.suit == "blue") and player in best:
          points[player] += 3
scoring:
  score: "points[player]"
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "game.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    Game.load(path)  # a valid rule file
    return path


def differing(path: Path, players: int, seeds: range, names: dict | None = None) -> list:
    """The seeds whose generated game (with `names` as the program's globals) is not the engine's."""
    game = Game.load(path)
    if names is None:
        play = load_program(path, players)
    else:
        exec(compile(transpile(path, players), "<test>", "exec"), names)
        play = names["play"]
    return [s for s in seeds if first_difference(engine_trace(game, players, {}, s), fast_trace(play, players, s))]


@pytest.mark.parametrize("players", [2, 3])
def test_kept_values_play_the_engines_games(tmp_path, players):
    assert differing(write(tmp_path, KEPT), players, range(40)) == []


def test_a_value_is_kept_over_a_leaving_if_and_a_performs_conditions_only(tmp_path):
    source = transpile(write(tmp_path, KEPT), 2)
    kept = re.findall(r"\((m_\d+) := ", source)
    assert len(kept) >= 2  # can_act and can_draw (the left side of can_act's `or`)
    used = {m for m in kept if re.search(rf"if {m}:", source)}
    assert used  # the perform's `draw` condition reads can_draw's value
    # `lucky` draws from the Rng: computed at each read, never kept
    assert source.count("_shuffled(rng, ") == 2
    # after the perform, a counter may have changed: can_draw is computed again, twice
    assert source.count("draws < 40") >= 3


def test_a_value_kept_past_a_change_would_play_another_game(tmp_path):
    """The window's walls matter: reading can_draw's first value after the actions (which draw
    cards and count draws) instead of computing it again gives other games."""
    path = write(tmp_path, KEPT)
    source = transpile(path, 2)
    draw_value = next(m for m in re.findall(r"\((m_\d+) := ", source) if re.search(rf"if {m}:", source))
    again = re.compile(r"if \(\(\(len\(z_deck\) > 0\) and \(len\(z_hand\[\w+\]\) < 4\)\) and \(c_draws < 40\)\):")
    assert len(again.findall(source)) == 1  # `if can_draw(player):` after the repeat
    stale = again.sub(f"if {draw_value}:", source)
    assert differing(path, 2, range(40), program.namespace()) == []
    names = program.namespace()
    exec(compile(stale, "<test>", "exec"), names)
    game = Game.load(path)
    assert any(first_difference(engine_trace(game, 2, {}, s), fast_trace(names["play"], 2, s))
               for s in range(40))


def test_value_procedures_keep_nothing(tmp_path):
    text = KEPT.replace("functions:\n", "functions:\n  bump:\n    params: [p]\n    do: |\n"
                        "      points[p] += 1\n      return points[p]\n", 1)
    text = text.replace("        if can_draw(player):\n          points[player] += 5\n",
                        "        if bump(player) > 100:\n          draws += 1\n")
    assert "bump(player)" in text
    path = write(tmp_path, text)
    assert ":= " not in transpile(path, 2)
    assert differing(path, 2, range(20)) == []


def test_a_let_of_a_function_of_computed_arguments_is_written_inline(tmp_path):
    """`let c = cost(count(hand[player]))`: the argument into a local, then cost's body (no
    nested function f_cost called there)."""
    source = transpile(write(tmp_path, KEPT), 2)
    assert "def f_cost(" not in source
    assert re.search(r"(a_\d+) = len\(z_hand\[\w+\]\)\n\s+c_\d+ = \(0 if \(\1 == 0\) else \(\1 - 1\)\)", source)


def test_any_equal_is_one_lookup_loop(tmp_path):
    source = transpile(write(tmp_path, KEPT), 2)
    assert "('blue' in map(A_suit.__getitem__, " in source
    assert "_argmax_keys(_PLAYERS, [" in source


def test_roll_draws_as_the_engines_rng():
    faces = [(1, 2, 3, 4, 5, 6), ("x",), (1, 2, 3), tuple(range(13))] * 5
    for seed in range(300):
        mine, engine = Rng(seed), Rng(seed)
        values, expected = [None] * 20, [None] * 20
        pcs = random.Random(seed).sample(range(20), 12)
        runtime._roll(mine, pcs, faces, values)
        for pc in pcs:
            expected[pc] = faces[pc][engine.below(len(faces[pc]))]
        assert values == expected and mine.state == engine.state
    with pytest.raises(TypeError):
        runtime._roll(Rng(1), [0], [None], [None])


def test_look_options_answers_as_piece_options():
    """Every path of _look_options (plain pieces, an open zone, any zones) against the general
    keys of _piece_options, on random piece sets, faces, sights and values (some of them lists);
    and _open_options' quick loop for pieces of one changing attribute against its general loop."""
    r = random.Random(5)
    for _ in range(400):
        n = 12
        zones = [[] for _ in range(3)]
        loc = [None] * n
        for pc in range(n):
            z = zones[r.randrange(3)]
            z.append(pc)
            loc[pc] = z
        zi = {id(z): (r.random() < 0.2, r.choice(["all", "owner", "none"]), r.choice(["all", "owner", "none"]),
                      r.choice([None, 0, 1])) for z in zones}
        face = [r.choice([None, None, True, False]) for _ in range(n)]
        seen = None if r.random() < 0.5 else [r.choice([None, None, (0,), (1,)]) for _ in range(n)]
        values = [r.randrange(3) if r.random() < 0.9 else [r.randrange(2)] for _ in range(n)]
        singular = [r.random() < 0.3 for _ in range(n)]
        vkey = [r.randrange(3) for _ in range(n)]
        mutable = [r.random() < 0.5 for _ in range(n)]
        plain = [None if mutable[i] else vkey[i] for i in range(n)]
        dyn = [(values,) if mutable[i] else () for i in range(n)]
        one = [values if mutable[i] and not singular[i] else None for i in range(n)]
        ps = (loc, zi, face, seen, [True] * n, singular, [r.randrange(2) for _ in range(n)], vkey, dyn, one)
        cands = r.sample(range(n), r.randrange(0, 6)) if r.random() < 0.5 else list(r.choice(zones))
        who = r.randrange(2)
        assert runtime._look_options(cands, who, ps, plain) == runtime._piece_options(cands, who, ps)
        if cands:
            assert runtime._open_options(cands, who, ps) == runtime._open_options(cands, who, ps[:9] + ([None] * n,))


def test_values_rank_kept_answers_as_poker_evaluate():
    """_values_rank keeps its answers by table and sorted values: the same rank keys as
    poker.evaluate with no suits, for two tables in turn, a fresh list each time."""
    from interpreter.builtins.poker import evaluate
    tables = [[{"id": "four", "groups": [4]}, {"id": "full", "groups": [3, 2]}, {"id": "run", "straight": 5},
               {"id": "pair", "groups": [2]}],
              [{"id": "three", "groups": [3]}, {"id": "top", "tiebreak": "top"}]]
    r = random.Random(7)
    for _ in range(600):
        table = r.choice(tables)
        values = [r.randrange(1, 8) for _ in range(r.randrange(table is tables[1], 6))]
        got = runtime._values_rank(values, table)
        assert got == evaluate(values, [None] * len(values), table)[1]
        got.append("changed")  # the caller's own list: the kept answer does not change
        assert runtime._values_rank(values, table) == evaluate(values, [None] * len(values), table)[1]
    with pytest.raises(TypeError):
        runtime._values_rank([1, "x"], tables[0])


def test_any_equal_of_an_inlined_parameter_with_a_constant_argument(tmp_path):
    """`has_suit(p, s)` = `any(hand[p], c => c.suit == s)` called as `has_suit(player, "blue")`
    is written as the constant's lookup loop; called with a computed suit it stays a generator;
    both play the engine's games."""
    text = KEPT.replace("  cost:\n", "  has_suit:\n    params: [p, s]\n"
                        "    expr: 'any(hand[p], c => c.suit == s)'\n  cost:\n")
    chosen = 'first(shuffled(["red", "blue"]))'
    text = text.replace("        let c = cost(", f'        if has_suit(player, "red") and not has_suit(player, {chosen}):\n'
                        "          points[player] += 4\n        let c = cost(")
    path = write(tmp_path, text)
    source = transpile(path, 2)
    assert "('red' in map(A_suit.__getitem__, z_hand[" in source
    assert re.search(r"any\(\(A_suit\[c_\d+\] == ", source)
    for players in (2, 3):
        assert differing(path, players, range(15)) == []
