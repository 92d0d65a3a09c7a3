"""Small helpers for engine tests: build a game from inline YAML."""
from __future__ import annotations

import textwrap
from pathlib import Path

from interpreter.game import Game

BASE = """
game:
  id: t
  name: T
  players: {min: 2, max: 4}
"""


def write_game(tmp_path: Path, body: str, name: str = "game.yaml", base: bool = True) -> Path:
    path = tmp_path / name
    text = (BASE if base else "") + textwrap.dedent(body)
    path.write_text(text, encoding="utf-8")
    return path


def write_valid(tmp_path: Path, body: str) -> Path:
    """write_game, checked to load (a test's rule file must be valid before it is played)."""
    path = write_game(tmp_path, body)
    Game.load(path)
    return path


def load(tmp_path: Path, body: str, **kw) -> Game:
    return Game.load(write_game(tmp_path, body, **kw))


def errors_of(tmp_path: Path, body: str) -> list[str]:
    from interpreter.errors import RulebookError, flatten
    try:
        load(tmp_path, body)
    except RulebookError as exc:
        return [str(e) for e in flatten([exc])]
    return []


def play_first(state, limit: int = 10_000):
    """Take the first option until the game ends."""
    for _ in range(limit):
        if state.is_terminal():
            return state
        p = state.current_players()[0]
        state.apply(p, 0)
    raise AssertionError("game did not end")
