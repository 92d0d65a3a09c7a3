"""A table row read by field in a generated program (interpreter/transpile/expressions.py) reads
as the engine reads it: a row without the field gives none (codegen.getattr_rt), rather than
stopping the generated game (which would then be replayed by the engine)."""
from __future__ import annotations

from interpreter.transpile import RuleFile, load_program
from interpreter.transpile.compare import differing_seeds

from .helpers import write_valid

BODY = """
components:
  card:
    kind: card
    items:
      - {id: ace, rank: 1}
zones:
  deck: {ordered: true, visibility: hidden}
tables:
  bonus:
    - {name: low, points: 2}
    - {name: none_given}
    - {name: high, points: 5}
counters:
  score: {per: [player], initial: 0}
setup:
  - id: s
    do: |
      move pieces(card) to deck
flow:
  rounds: 2
  phases:
    - id: pick
      turns: seat
      turn: |
        choose r from [0, 1, 2] prompt "Row"
        let row = bonus[r]
        if row.points == none:
          score[player] += 1
        else:
          score[player] += row.points
scoring:
  score: "score[player]"
"""


def test_a_row_without_the_field_reads_none_as_in_the_engine(tmp_path):
    path = write_valid(tmp_path, BODY)
    assert differing_seeds(path, 2, None, range(10)) == []


def test_the_generated_game_itself_reads_the_missing_field(tmp_path):
    path = write_valid(tmp_path, BODY)
    play = load_program(RuleFile(path, ()), 2, {})
    middle_row = [lambda options: 1, lambda options: 1]  # every pick: the row without points
    result = play(0, middle_row)
    assert result[0] == [2, 2]  # 1 a pick, two rounds, for both players (rather than a KeyError)


KEYED = BODY.replace("""  bonus:
    - {name: low, points: 2}
    - {name: none_given}
    - {name: high, points: 5}""", """  bonus: {low: 2, high: 5}""").replace("""        choose r from [0, 1, 2] prompt "Row"
        let row = bonus[r]
        if row.points == none:
          score[player] += 1
        else:
          score[player] += row.points""", """        choose k from ["low", "middle", "high"] prompt "Key"
        let points = bonus[k]
        if points == none:
          score[player] += 1
        else:
          score[player] += points""")


def test_a_keyed_table_read_at_a_missing_key_gives_none_as_in_the_engine(tmp_path):
    path = write_valid(tmp_path, KEYED)
    assert differing_seeds(path, 2, None, range(10)) == []
    play = load_program(RuleFile(path, ()), 2, {})
    middle_key = [lambda options: 1, lambda options: 1]  # every pick: the key the table lacks
    assert play(0, middle_key)[0] == [2, 2]
