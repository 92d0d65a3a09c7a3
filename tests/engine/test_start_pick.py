"""decisions.start_pick (the compiler's entry for `choose x from …`, one thing, not optional)
makes, at every such decision of real games, the options and labels that the general path
(decisions._ask: build_options) makes for the same candidates."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import decisions
from interpreter.decisions import apply_unchecked
from interpreter.game import Game
from interpreter.options import labels_of
from interpreter.threads import Frame, Thread, waiting
from interpreter.vm import SUSPEND

ROOT = Path(__file__).resolve().parents[2]
GAMES = [("tic_tac_toe/game.yaml", 2, {}), ("chicago_poker/game.yaml", 4, {"no_special_cards": True}),
         ("dice_town/game.yaml", 3, {}), ("goofspiel/game.yaml", 2, {}), ("dogs_day/game.yaml", 3, {})]


def _general(S, pend, L: dict):
    """The same decision made by the general path, on a throwaway thread."""
    th = Thread(-1, [Frame(None, 0, dict(L))], pend.player if pend.secret else None)
    sig = decisions._ask(S, th, th.frames[-1], pend.player, list(pend.candidates), "one", 1, 1, False,
                         pend.var, pend.prompt, pend.prompt_event, pend.pos, pend.label_key)
    assert sig == SUSPEND
    return th.pending


@pytest.mark.parametrize("path,players,options", GAMES)
def test_start_pick_agrees_with_the_general_path(path, players, options):
    game = Game.load(str(ROOT / "rules" / path))
    checked = 0
    for seed in range(4):
        S = game.new_game(players, options, seed, logging=False)
        rng = random.Random(seed)
        while not S.over and S.decisions < 300:
            d = S.deciders or waiting(S)
            p = min(d)
            th = d[p]
            pend = th.pending
            if pend.kind == "choose" and not pend.optional and pend.high == 1:
                other = _general(S, pend, th.frames[-1].L)
                assert list(pend.options) == list(other.options)
                assert list(labels_of(S, pend)) == list(labels_of(S, other))
                assert (pend.player, pend.var, pend.prompt, pend.secret) == \
                    (other.player, other.var, other.prompt, other.secret)
                checked += 1
            apply_unchecked(S, p, rng.randrange(len(pend.options)))
    assert checked > 0
