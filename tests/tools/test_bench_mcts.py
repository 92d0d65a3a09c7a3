"""tools/bench_mcts.py: its positions are decisions among several options, and every iteration
of the generated form runs on the generated program there (no time is asserted)."""
from __future__ import annotations

import sys
from pathlib import Path

from interpreter.game import Game

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import bench_mcts  # noqa: E402  (a script in tools/)


def test_positions_and_the_share_played_on_the_generated_program():
    game = Game.load(ROOT / "rules" / "kuhn_poker" / "game.yaml")
    states = bench_mcts.positions(game, 2, game.resolve_options({}), 3)
    assert len(states) == 3 and all(S.option_count(S.current_players()[0]) > 1 for S in states)
    out = bench_mcts.measure(states, 4, 2)
    assert out["on_stepper"] == 1.0 and out["ratio"] > 0
