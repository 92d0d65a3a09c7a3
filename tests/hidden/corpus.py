"""The leaky corpus (tests/fixtures/leaky/): each overlay, the game it breaks, how the static
check reports it (an error code, or the warning E246 where only play decides the flow) and the
sink the differential audit names. A leak through a saved log handed to a player is tested in
tests/hidden/test_player_log.py (the referee's log against `--log-for`)."""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LEAKY = ROOT / "tests" / "fixtures" / "leaky"
DUEL = LEAKY / "duel.yaml"
WARNING = "E246"  # the static check warns: only play decides the flow

# (overlay, base rule file, players, static code or None, audit sink prefix)
CORPUS = [
    ("leaky_peek_log.yaml", DUEL, 3, "E240", "log line"),  # another's card attribute in a log line
    ("leaky_prompt.yaml", DUEL, 3, "E241", "prompt"),  # a hidden value in a prompt
    ("leaky_counter.yaml", DUEL, 3, "E243", "view:counters.hint"),  # public counter from a hidden card
    ("leaky_where.yaml", DUEL, 3, "E242", "options"),  # `where` reads another's hidden card
    ("leaky_deck_top.yaml", DUEL, 3, "E240", "log line"),  # the top of the deck named in a log line
    ("leaky_face_down.yaml", DUEL, 3, "E240", "log line"),  # a face-down card's value in a log line
    ("leaky_hidden_count.yaml", DUEL, 3, "E240", "log line"),  # count of a hidden sub-collection
    ("leaky_position.yaml", DUEL, 3, "E240", "log line"),  # position of a face-down card
    ("leaky_zone_order.yaml", DUEL, 3, "E244", "view:zones.ranking"),  # a public zone's order
    ("leaky_error.yaml", DUEL, 3, "E246", "error message"),  # an error message names a hidden card
    ("leaky_custom_visibility.yaml", DUEL, 3, "E246", "log line"),  # a custom visibility rule
    ("leaky_computed_owner.yaml", DUEL, 3, "E246", "prompt"),  # a zone whose owner is computed
    ("leaky_pieces_where.yaml", DUEL, 3, "E240", "log line"),  # pieces(component): where a card is
    ("leaky_procedure_argument.yaml", DUEL, 3, "E240", "log line"),  # through a procedure's argument
    ("leaky_final_score.yaml", DUEL, 3, "E240", "view:result"),  # the end-of-game summary
    ("kuhn_peek.yaml", ROOT / "rules" / "kuhn_poker" / "game.yaml", 2, "E240", "log line"),
    ("chicago_poker_hands.yaml", ROOT / "rules" / "chicago_poker" / "game.yaml", 2, "E240", "log line"),
    ("goofspiel_bid.yaml", ROOT / "rules" / "goofspiel" / "game.yaml", 2, "E240", "log line"),
    ("liars_dice_count.yaml", ROOT / "rules" / "liars_dice" / "game.yaml", 2, "E241", "prompt"),
]
