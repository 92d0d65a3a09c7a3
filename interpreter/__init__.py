"""rulebook: a declarative rules-data interpreter for tabletop games.

A game is a YAML rule file; `Game.load(path)` checks and compiles it, `game.new_game(...)`
starts a game, and the state's methods (current_players, legal_actions, apply, is_terminal,
returns, clone, to_json, view) play it.
"""
from .game import Game

__all__ = ["Game"]
__version__ = "0.1.0"
