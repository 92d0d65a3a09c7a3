"""Small rule files for agent tests (inline YAML, loaded with tests/engine/helpers.load)."""
from __future__ import annotations

import textwrap
from pathlib import Path

from interpreter.game import Game

BASE = "game: {id: t, name: T, players: {min: 2, max: 4}}\n"


def load(tmp_path: Path, body: str) -> Game:
    path = tmp_path / "game.yaml"
    path.write_text(BASE + textwrap.dedent(body), encoding="utf-8")
    return Game.load(path)

# Take 1 or 2 tokens from a pile; who takes the last token wins. With perfect play the player to
# move wins unless the pile is a multiple of 3: the winning move leaves a multiple of 3.
NIM = """
counters:
  pile: {initial: %(pile)d}
  last: {initial: -1}
flow:
  phases:
    - id: take
      turns: seat
      turn: |
        if pile > 0:
          choose k from [1, 2] where k <= pile
          pile -= k
          last = player
end:
  - {id: empty, when: "pile == 0", at: turn_end}
scoring:
  score: "1 if last == player else 0"
"""

# Each turn a player takes 1 point ("gain") or 0 points ("wait"); 3 turns each. The score
# favours "gain"; the `agents:` section (if any) may say otherwise.
GAIN = """
counters:
  points: {per: [player], initial: 0}
flow:
  rounds: 3
  phases:
    - id: play
      turns: seat
      turn: |
        choose k from ["wait", "gain"]
        if k == "gain":
          points[player] += 1
scoring:
  score: "points[player]"
%(extra)s
"""

# One player moves a token twice in a row (a piece, then a place): two decisions of the same
# player with nothing in between; the second place scores its number.
TWO_STEP = """
components:
  token: {kind: token, start: bag, items: [{id: a}, {id: b}]}
zones:
  bag: {}
  spot: {per: [{range: 3}]}
counters:
  points: {per: [player], initial: 0}
flow:
  rounds: 3
  phases:
    - id: play
      turns: seat
      turn: |
        choose t from bag
        choose s from [0, 1, 2]
        move t to spot[s]
        points[player] += s
        move spot[s] to bag
scoring:
  score: "points[player]"
"""

# The top card of a hidden deck is drawn after the choice; drawing a "bad" card runs into a rule
# error. The real deck (not shuffled) has a good card on top; sampled worlds may not.
BAD_DRAW = """
components:
  card:
    kind: card
    start: deck
    items: [{id: good1, bad: 0}, %(second)s, {id: good2, bad: 0}, {id: good3, bad: 0}]
zones:
  deck: {ordered: true, visibility: hidden}
  table: {}
flow:
  rounds: 1
  phases:
    - id: play
      turns: seat
      turn: |
        choose k from [1, 2]
        move top(deck) to table
        if top(table).bad == 1:
          choose x from [c for c in table if c.bad == 5]
scoring:
  score: "0"
"""
