"""Generated programs (interpreter/transpile/) of Dogs' Day play the engine's games at every
player count, option and variant; and the constructs it brought, each on a small rule file:
zone families indexed by names (families.py), component ids read as texts, a zone handed to a
procedure, changing attributes that hold pieces, the list builtins of lists.py (`zones`, `sort`,
`reverse`, `without`, `append`, `get`, `assignable`), a procedure's locals bound again inside a
block (frames.py), and what the generator refuses there."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from interpreter.game import Game
from interpreter.transpile import Unsupported, load_program, transpile
from interpreter.transpile.compare import differing_seeds, engine_trace, fast_trace

ROOT = Path(__file__).resolve().parents[2]
DOGS_DAY = ROOT / "rules" / "dogs_day" / "game.yaml"
CROWDED = ROOT / "rules" / "dogs_day" / "variants" / "crowded_prison.yaml"


differences = differing_seeds  # the seeds whose game or final state differs, with where


# ---------------------------------------------------------------- Dogs' Day
CONFIGS = ([(2, {"two_players": True}, ())]
           + [(n, o, ()) for n in range(3, 7) for o in ({}, {"x9_in_hand": True}, {"bank_never_empty": True})]
           + [(n, {}, (CROWDED,)) for n in (3, 6)])
IDS = [f"{n}p-{'-'.join(o) or 'default'}{'-crowded' if v else ''}" for n, o, v in CONFIGS]


@pytest.mark.parametrize("players,options,variants", CONFIGS, ids=IDS)
def test_dogs_day_plays_the_engines_games(players, options, variants):
    assert differences(DOGS_DAY, players, options, range(8), variants) == []


@pytest.mark.slow
@pytest.mark.parametrize("players,options,variants", CONFIGS, ids=IDS)
def test_dogs_day_plays_the_engines_games_long(players, options, variants):
    assert differences(DOGS_DAY, players, options, range(200), variants) == []


def test_dogs_day_games_differ_by_seed():
    play = load_program(DOGS_DAY, 4)
    traces = [fast_trace(play, 4, seed) for seed in range(10)]
    assert len({str(t.returns) for t in traces}) > 1
    assert all(len(t.history) > 32 for t in traces)  # 8 rounds of 4 secret picks, and more


# ---------------------------------------------------------------- small rule files
GAME = """
tables:
  kinds: [gem, coin]
  plans:
    - {source: gem, take: 2}
    - {source: coin, take: 1}
    - {stay: true}
components:
  gem:
    kind: token
    items:
      - {id: gem_1, value: 1, count: 3}
      - {id: gem_2, value: 2, count: 3}
  coin:
    kind: token
    items:
      - {id: coin_1, value: 1, count: 4}
  pawn:
    kind: token
    per_player: true
    start: home
    mutable: {target: none}
    items:
      - {id: pawn}
zones:
  supply: {per: [{values: [gem, coin]}], ordered: true}
  bank: {ordered: true}
  home: {per: [player]}
  hand: {per: [player], ordered: true}
variables:
  seen: {initial: "[]"}
counters:
  matched: {initial: 0}
functions:
  fill:
    params: [dest, k]
    do: |
      draw k from supply[gem] to dest
      draw k from supply[coin] to dest
  aim:
    params: [c, who]
    do: |
      c.target = first(home[who])
setup:
  - id: supply
    do: |
      move pieces(gem) to supply[gem]
      move pieces(coin) to supply[coin]
      shuffle supply[gem]
      shuffle supply[coin]
      call fill(bank, 1)
flow:
  rounds: 3
  phases:
    - id: take
      turns: seat
      turn: |
TURN
    - id: tidy
      do: |
TIDY
scoring:
  score: "sum(hand[player], m => m.value)"
"""

TURN = """
choose plan from range(3) prompt "Plan"
let row = plans[plan]
if not get(row, "stay", false):
  choose k from kinds prompt "Kind"
  draw row.take from supply[k] to hand[player]
  if k == coin:
    draw 1 from supply[coin] to hand[player]
"""

TIDY = """
let order = sort(flatten(zones(hand)), m => m.value)
let back = reverse(order)
let rest = without(back, [first(back)])
seen = append(rest, first(order))
if assignable(players, p => hand[p]):
  matched += 1
if count(seen) > 4:
  move first(seen) to bank
"""


def write(tmp_path: Path, turn: str = TURN, tidy: str = TIDY) -> Path:
    text = GAME.replace("TURN", textwrap.indent(turn.strip("\n"), " " * 8))
    text = text.replace("TIDY", textwrap.indent(tidy.strip("\n"), " " * 8))
    path = tmp_path / "game.yaml"
    path.write_text("game: {id: t, name: T, players: {min: 2, max: 4}}\n" + text, encoding="utf-8")
    Game.load(path)  # a valid rule file
    return path


def test_a_zone_family_indexed_by_names_and_component_ids(tmp_path):
    """`supply[gem]`, `supply[k]` (a name chosen at run time), `k == coin`: the family is one
    list per name, exported as the engine keys it ("supply:gem")."""
    path = write(tmp_path)
    assert differences(path, 3, None, range(30)) == []
    state = fast_trace(load_program(path, 3), 3, 1, with_state=True).state
    assert {"supply:gem", "supply:coin"} <= set(state["zones"])
    assert "z_supply = {'gem': " in transpile(path, 3)


def test_list_builtins_give_the_engines_values(tmp_path):
    """sort/reverse/without/append/zones feed a variable compared in the final state;
    assignable a counter; the moves they choose change later options."""
    path = write(tmp_path)
    games = [engine_trace(Game.load(path), 2, None, seed, with_state=True) for seed in range(20)]
    assert len({str(g.state.vars["seen"]) for g in games}) > 5
    assert len({g.state.counters["matched"] for g in games}) > 1
    assert differences(path, 2, None, range(20)) == []


def test_a_zone_handed_to_a_procedure(tmp_path):
    """`call fill(bank, 1)` then `fill(hand[player], 1)`: draws reach the zone given."""
    turn = TURN + "call fill(hand[player], 1)\n"
    path = write(tmp_path, turn)
    assert differences(path, 2, None, range(15)) == []


def test_a_changing_attribute_holding_a_piece(tmp_path):
    """`c.target = first(home[who])` (in a procedure whose parameter is named `c`), then
    `.owner` of it: the piece's owner, as the engine reads it."""
    turn = TURN + textwrap.dedent("""
        let me = first(home[player])
        call aim(me, next_player(player))
        if me.target != none and count(bank) > 0:
          move first(bank) to hand[me.target.owner]
        """)
    path = write(tmp_path, turn)
    assert differences(path, 3, None, range(20)) == []


def test_a_choice_among_what_a_changing_attribute_holds_is_refused(tmp_path):
    """The attribute may hold a piece or another value: a choice among such values is refused
    (pieces and values are offered differently), by name."""
    turn = TURN + textwrap.dedent("""
        let me = first(home[player])
        call aim(me, next_player(player))
        choose t from [me.target] prompt "Which"
        """)
    with pytest.raises(Unsupported, match="not known to be all pieces"):
        transpile(write(tmp_path, turn), 2)


def test_a_local_bound_again_inside_a_block(tmp_path):
    """`let m = …` then, in an `if`, `choose m …` and `let m = …`: the engine's frame has one
    slot for m, so the move after the blocks moves what was chosen."""
    turn = TURN + textwrap.dedent("""
        let m = first(hand[player])
        if count(hand[player]) > 2:
          choose m from hand[player] prompt "Give"
        elif count(hand[player]) == 2:
          let m = last(hand[player])
        if m != none:
          move m to bank
        """)
    path = write(tmp_path, turn)
    assert differences(path, 3, None, range(30)) == []


def test_a_loop_over_a_name_bound_before_is_refused(tmp_path):
    turn = TURN + textwrap.dedent("""
        let m = first(hand[player])
        for m in hand[player]:
          pass
        if m != none:
          move m to bank
        """)
    with pytest.raises(Unsupported, match="a local the procedure bound before"):
        transpile(write(tmp_path, turn), 2)


def test_the_runtimes_sort_and_assignable_answer_as_the_builtins():
    """runtime._sort (Python's sort where keys compare, else the engine's) and
    runtime._assignable (no element or one answered without a matching) on the cases that
    take each path."""
    from interpreter.builtins.core import sort
    from interpreter.builtins.matching import assignable
    from interpreter.transpile.runtime import _assignable, _sort

    rows = [[2, "b"], [1, None], [2, "a"], [None, "c"], [1, 5]]
    for xs, f in [([3, 1, 2, 1], None), ([3, 1, 2, 1], lambda x: -x), (rows, lambda r: r[0]),
                  (rows, lambda r: r), (["b", "a", "c"], None), ((3, 1, 2), None)]:
        assert _sort(xs, f) == (sort(None, xs) if f is None else sort(None, xs, f)), (xs, f)
    options = {1: [7], 2: [7], 3: [], 4: [8, 9]}
    for xs in ([], [1], [3], [1, 2], [1, 4], [4, 1, 2], [3, 4]):
        assert _assignable(xs, options.get) == assignable(None, xs, options.get), xs


def test_adding_to_a_list_leaves_other_names_holding_it(tmp_path):
    """`b += [..]` binds b to a new list, as the engine's `+=` does: `a`, which held the same
    list, keeps its length (an in-place `+=` would grow both and take another card)."""
    turn = TURN + textwrap.dedent("""
        let a = [1]
        let b = a
        b += [2]
        seen = a
        if count(a) == 1 and count(bank) > 0:
          move first(bank) to hand[player]
        """)
    path = write(tmp_path, turn)
    assert differences(path, 2, None, range(15)) == []
