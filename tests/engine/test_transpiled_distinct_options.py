"""A choice among a list that holds no repeats offered as the list's copy, without looking for
repeats (interpreter/transpile/distinct_options.py): on a small rule file (the engine's games),
and what keeps the repeats looked for, on hand-written play() functions."""
from __future__ import annotations

from interpreter.transpile import transpile
from interpreter.transpile.compare import differing_seeds
from interpreter.transpile.distinct_options import without_repeats_looked_for
from .helpers import write_valid as write
from .test_transpiled_grids import TILES

# the cells offered come from a function: the placements, or those of them a look-ahead keeps
OFFERED = TILES.replace("scoring:", """functions:
  offered:
    params: [t]
    do: |
      let cells = grid_placements(board, t, max_width=3, max_height=3, start=[(1, 1)])
      if len(cells) <= 2:
        return cells
      let good = grid_completable_anchors(board, [[(0, 0)]], shape(t), cells, max_width=3, max_height=3)
      return [cells[k] for k in range(len(cells)) if cells[k] in good or k == 0]
scoring:""").replace(
    "        let cells = grid_placements(board, t, max_width=3, max_height=3, start=[(1, 1)])\n",
    "        let cells = offered(t)\n")


def test_placements_are_offered_without_looking_for_repeats(tmp_path):
    path = write(tmp_path, OFFERED)
    source = transpile(path, 2)
    assert "list(dict.fromkeys(cells_" not in source and " = list(cells_" in source
    for players in (2, 3):
        assert differing_seeds(path, players, {}, range(30)) == []


def rewritten(body: str) -> bool:
    """Whether the choice's repeats are no longer looked for in play() written as `body`."""
    lines = ["def play(seed, agents, state=None):"] + ["    " + line for line in body.strip("\n").split("\n")]
    out = without_repeats_looked_for(lines, set())
    assert len(out) == len(lines)
    return out != lines


FN = """def f(t):
    cells = _placements(g_b, SHAPE[t], 3, 3, [], [], [], [(0, 0)], False)
    if len(cells) <= 1:
        return cells
    return [cells[k] for k in range(len(cells)) if k != 1]
    return None
"""


def test_what_the_lists_without_repeats_are():
    assert rewritten(FN + "xs = f(0)\noptions = list(dict.fromkeys(xs))\n")
    assert rewritten("xs = [c for c in _placements(g_b, (), 3, 3, [], [], [], [], False) if c[0] > 0]\n"
                     "options = list(dict.fromkeys(xs))\n")
    refused = [
        "xs = [1, 1]\noptions = list(dict.fromkeys(xs))\n",  # a list display
        "xs = _placements(g_b, (), 3, 3, [], [], [], [], False)\nxs = [0, 0]\noptions = list(dict.fromkeys(xs))\n",
        "xs = _placements(g_b, (), 3, 3, [], [], [], [], False)\nxs.append(xs[0])\noptions = list(dict.fromkeys(xs))\n",
        "xs = _placements(g_b, (), 3, 3, [], [], [], [], False)\nys = xs\noptions = list(dict.fromkeys(xs))\n",
        "xs = _placements(g_b, (), 3, 3, [], [], [], [], False)\n_move(xs, z, loc)\noptions = list(dict.fromkeys(xs))\n",
        "ys = _placements(g_b, (), 3, 3, [], [], [], [], False)\nxs = [ys[0] for k in range(len(ys))]\n"
        "options = list(dict.fromkeys(xs))\n",  # not the k-th element
        "ys = _placements(g_b, (), 3, 3, [], [], [], [], False)\nxs = [ys[k] for k in range(5)]\n"
        "options = list(dict.fromkeys(xs))\n",  # not over the list's indexes
        FN.replace("        return cells", "        return [cells[0], cells[0]]") + "xs = f(0)\noptions = list(dict.fromkeys(xs))\n",
        FN + "xs = f(0)\nfor k in range(2):\n    options = list(dict.fromkeys(xs))\n    xs = xs + xs\n",
    ]
    for body in refused:
        assert not rewritten(body), body
