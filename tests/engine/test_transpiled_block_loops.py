"""A simultaneous block whose one decision is a choice of several (one pick per pass of a loop)
is written as plain loops (interpreter/transpile/block_loops.py) and plays the engine's games:
the picks asked in the engine's rounds, each block's code run in the engine's order (what one
block leaves for the others: a shared counter, the random generator); and the options among
pieces of one changing attribute each (runtime._open_options' quick loop) offered as the engine
offers them. Each form is checked to be written, and a block of another form keeps its
generator."""
from __future__ import annotations

import re

import pytest

from interpreter.game import Game
from interpreter.transpile import load_program, program, transpile
from interpreter.transpile.compare import differing_seeds, engine_trace, fast_trace, first_difference
from .helpers import write_valid as write

# Dice of three faces (look-alikes when equal), gems of one changing attribute (shine), kept per
# player: a block choosing several, inside an `if`, its bounds from the player's money; what
# follows the choice reads and writes a counter all blocks share (the order they end in) and
# rolls (the order of the draws).
GAME = """
components:
  die:
    kind: die
    per_player: true
    start: cup
    faces: [1, 2, 3]
    items:
      - {id: die, count: 4}
  gem:
    start: pool
    mutable: {shine: 0}
    items:
      - {id: gem, count: 4}
zones:
  cup: {per: [player], visibility: owner}
  kept: {per: [player]}
  pool: {}
counters:
  money: {per: [player], initial: 2}
  score: {per: [player], initial: 0}
  finished: {initial: 0}
flow:
  rounds: 3
  phases:
    - id: pick
      do: |
        roll flatten([cup[p] for p in players])
        simultaneous p in players:
          if count(cup[p]) == 0:
            score[p] += 1
          else:
            PICK
          finished += 1
          score[p] += finished * 10
          roll cup[p]
        for p in players:
          move kept[p] to cup[p]
          money[p] = min2(3, money[p] + 1)
    - id: shine
      do: |
        simultaneous p in players:
          choose up to 2 gs from pool where gs.shine < 2 optional prompt "Polish"
          for g in gs:
            g.shine += 1
scoring:
  score: "disclose(score[player])"
"""

PICK = """choose 1 to (money[p]) ks from cup[p] prompt "Keep"
            for k in ks:
              move k to kept[p]
            money[p] -= count(ks) - 1"""


def game(pick: str = PICK) -> str:
    return GAME.replace("PICK", pick)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_blocks_choosing_several_play_the_engines_games(tmp_path, players):
    path = write(tmp_path, game())
    assert differing_seeds(path, players, None, range(30)) == []


def test_the_blocks_are_written_as_loops(tmp_path):
    source = transpile(write(tmp_path, game()), 3)
    assert "_simultaneous(" not in source and source.count("= following_") == 2
    assert "], [M_value, M_value, " in source and "D_shine, D_shine]" in source  # PS's last list


def test_the_loops_run_the_blocks_in_the_engines_order(tmp_path):
    """The same code with each round's waiting players taken in the other order plays other
    games: the order the blocks end in (the shared counter, the draws) is told apart."""
    path = write(tmp_path, game())
    source = transpile(path, 3)
    changed = re.sub(r" in (waiting_\d+):", r" in reversed(\1):", source)
    assert changed != source
    assert _differing(path, 3, changed) > 0
    assert _differing(path, 3, source) == 0


def _differing(path, players: int, source: str, changed: dict | None = None) -> int:
    """How many of 20 seeds a generated program's source plays differently from the engine
    (`changed`: runtime helpers replaced)."""
    names = program.namespace() | (changed or {})
    exec(compile(source, "<test>", "exec"), names)
    engine = Game.load(path)
    return sum(first_difference(engine_trace(engine, players, {}, s), fast_trace(names["play"], players, s))
               is not None for s in range(20))


@pytest.mark.parametrize("pick", [
    # two choices in the block: asked one after the other, no single loop
    PICK + '\n            choose 1 to 1 js from cup[p] prompt "Again"',
    # the choice inside a loop of the block
    'repeat 1:\n              ' + PICK.replace("\n", "\n  "),
])
def test_other_blocks_keep_their_generators_and_the_engines_games(tmp_path, pick):
    path = write(tmp_path, game(pick))
    source = transpile(path, 3)
    assert "_simultaneous(" in source
    assert differing_seeds(path, 3, None, range(15)) == []


def test_pieces_that_look_alike_are_offered_once(tmp_path):
    """Equal dice, gems of equal shine: offered once each, as the engine offers them; offering
    every candidate plays other games."""
    path = write(tmp_path, game())
    source = transpile(path, 2)
    assert _differing(path, 2, source) == 0
    assert _differing(path, 2, source, {"_look_options": lambda c, who, ps, plain: list(dict.fromkeys(c))}) > 0


def test_a_changing_attribute_holding_a_list_is_looked_at_as_the_engine_does(tmp_path):
    """A list (unhashable) as the one changing attribute: the general loop makes the options."""
    text = (game().replace("mutable: {shine: 0}", "mutable: {shine: []}")
            .replace("where gs.shine < 2", "where count(gs.shine) < 2")
            .replace("g.shine += 1", "g.shine = concat(g.shine, [p])"))
    path = write(tmp_path, text)
    assert differing_seeds(path, 3, None, range(20)) == []
    assert _differing(path, 3, transpile(path, 3), {"_look_options": lambda c, who, ps, plain: list(dict.fromkeys(c))}) > 0


@pytest.mark.parametrize("players", [2, 4])
def test_a_choice_in_the_first_branch_of_an_if_skips_the_others_once_done(tmp_path, players):
    text = game().replace("""          if count(cup[p]) == 0:
            score[p] += 1
          else:
""", """          if count(cup[p]) > 1:
""").replace("""            money[p] -= count(ks) - 1
""", """            money[p] -= count(ks) - 1
          elif count(cup[p]) == 1:
            score[p] += 2
          else:
            score[p] += 1
""")
    assert text.count("elif") == 1
    path = write(tmp_path, text)
    assert "_simultaneous(" not in transpile(path, players)
    assert differing_seeds(path, players, None, range(30)) == []
