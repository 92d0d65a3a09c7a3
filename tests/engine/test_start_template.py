"""A new game copied from a prepared start (interpreter/starts.py) is the game its setup makes.

Game.new_game keeps the states at the first decision of a setting (player count, options,
language, logging) in a tree of the setup's random draws while it stays small, and copies
them for later games whose seeds draw the same numbers. These tests compare prepared starts
with setups run in full.
"""
from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from differential import play_digest, rule_files  # noqa: E402

from interpreter.budget import METER  # noqa: E402
from interpreter import game as game_module  # noqa: E402
from interpreter.game import Game  # noqa: E402
from interpreter.starts import MAX_DRAWS, StartTemplate  # noqa: E402

FILES = [f"{entry}|{','.join(variants)}" for entry, variants in rule_files()]


@lru_cache(maxsize=None)
def _load(key: str, templates: bool) -> Game:
    entry, variants = key.split("|")
    game = Game.load(ROOT / entry, [ROOT / v for v in variants.split(",") if v])
    game.keep_starts(templates)
    return game


def _ready(game: Game, n: int) -> bool:
    return not game.check_setup(n, game.resolve_options({}))


@pytest.mark.parametrize("key", FILES)
def test_a_prepared_start_is_the_setup_s_start(key):
    fresh, copied = _load(key, False), _load(key, True)
    lo, hi = fresh.player_range
    for n in sorted({lo, hi}):
        if not _ready(fresh, n):
            continue
        for seed in range(12):  # later seeds find the starts of earlier ones (small setups)
            a, b = fresh.new_game(n, None, seed), copied.new_game(n, None, seed)
            assert a.to_json() == b.to_json() and a.hash() == b.hash(), f"{key} {n}p seed {seed}"
            assert type(b.rng) is type(a.rng)
        for seed in (3, 40):
            assert play_digest(fresh, n, {}, seed) == play_digest(copied, n, {}, seed)


def _setups_run(game: Game, seeds: range, monkeypatch) -> int:
    calls = []
    real = game_module.run
    monkeypatch.setattr(game_module, "run", lambda S: (calls.append(1), real(S)))
    for seed in seeds:
        game.new_game(2, None, seed)
    monkeypatch.setattr(game_module, "run", real)
    return len(calls)


def test_starts_are_kept_while_the_setup_draws_little(monkeypatch):
    tic = Game.load(ROOT / "rules" / "tic_tac_toe" / "game.yaml")
    kuhn = Game.load(ROOT / "rules" / "kuhn_poker" / "game.yaml")
    goof = Game.load(ROOT / "rules" / "goofspiel" / "game.yaml")
    assert _setups_run(tic, range(20), monkeypatch) == 1  # draws nothing: one start for all seeds
    assert type(tic._starts[(2, None, True)].root) is StartTemplate
    assert _setups_run(kuhn, range(200), monkeypatch) == 6  # a shuffle of 3 cards: 6 starts
    assert kuhn._starts[(2, None, True)].count == 6
    assert _setups_run(kuhn, range(200, 300), monkeypatch) == 0
    assert _setups_run(goof, range(5), monkeypatch) == 5  # 13 prize cards shuffled: too many
    starts = goof._starts[(2, None, True)]
    assert starts.closed and starts.root is None and 12 > MAX_DRAWS


def test_a_template_is_kept_per_setting():
    tic = Game.load(ROOT / "rules" / "tic_tac_toe" / "game.yaml")
    tic.new_game(2, None, 1)
    tic.new_game(2, None, 1, logging=False)
    tic.new_game(2, None, 1, lang="pt")
    assert len(tic._starts) == 3 and all(s.count == 1 for s in tic._starts.values())
    logged = tic.new_game(2, None, 5)
    quiet = tic.new_game(2, None, 5, logging=False)
    assert logged.logging and not quiet.logging


def test_template_copies_are_independent():
    tic = Game.load(ROOT / "rules" / "tic_tac_toe" / "game.yaml")
    first = tic.new_game(2, None, 1)
    before = first.to_json()
    second = tic.new_game(2, None, 2)
    while not second.is_terminal():
        p = second.current_players()[0]
        second.apply(p, 0)
    third = tic.new_game(2, None, 1)
    assert first.to_json() == before == third.to_json()
    assert third.seed == 1 and second.seed == 2


def test_a_template_start_sets_this_game_s_budget():
    tic = Game.load(ROOT / "rules" / "tic_tac_toe" / "game.yaml")
    kuhn = Game.load(ROOT / "rules" / "kuhn_poker" / "game.yaml")
    tic.new_game(2, None, 1)
    work = METER.work
    kuhn.new_game(2, None, 1)  # another game's setup leaves its own budget behind
    S = tic.new_game(2, None, 3)
    assert METER.limits is tic.d.limits and METER.work == work
    assert S.option_labels(S.current_players()[0])


def test_an_adapter_generator_or_prepare_skips_templates():
    tic = Game.load(ROOT / "rules" / "tic_tac_toe" / "game.yaml")
    seen = []
    tic.new_game(2, None, 1, prepare=seen.append)
    assert not tic._starts and len(seen) == 1
    tic.new_game(2, None, 1)
    tic.new_game(2, None, 1, prepare=seen.append)
    assert len(seen) == 2  # prepare still runs before the setup


def test_keep_starts_off_runs_every_setup_and_forgets_the_starts(monkeypatch):
    kuhn = Game.load(ROOT / "rules" / "kuhn_poker" / "game.yaml")
    assert _setups_run(kuhn, range(100), monkeypatch) == 6
    kuhn.keep_starts(False)
    assert not kuhn._starts
    assert _setups_run(kuhn, range(100), monkeypatch) == 100
    kuhn.keep_starts(True)
    assert _setups_run(kuhn, range(100), monkeypatch) == 6


def test_a_changed_game_leaves_the_next_start_alone():
    """A game copied from a prepared start shares nothing it can change with the start: its
    zones, counters, variables, locals, pending decision and history are its own."""
    kuhn = Game.load(ROOT / "rules" / "kuhn_poker" / "game.yaml")
    for seed in range(30):
        kuhn.new_game(2, None, seed)  # every start kept
    expected = kuhn.new_game(2, None, 4).to_json()
    S = kuhn.new_game(2, None, 4)
    S.zones["hand:0"].append(S.zones["deck"].pop())
    S.loc[0] = "nowhere"
    S.counters["stake:0"] = 9
    S.vars["winner"] = 1
    S.threads[0].frames[-1].L["bets"] = 5
    S.threads[0].pending.picked.append("x")
    S.history.append([0, 0])
    S.log.append(["x", "y"])
    S.seen[1] = (0,)
    S.face[1] = False
    assert kuhn.new_game(2, None, 4).to_json() == expected
    played = kuhn.new_game(2, None, 4)
    while not played.is_terminal():
        p = played.current_players()[0]
        played.apply(p, 1)
    assert kuhn.new_game(2, None, 4).to_json() == expected


def test_the_usual_call_finds_its_setting_at_once():
    """new_game with default options keeps a shortcut per (players as given, lang, logging) to
    the setting's starts: `None` and the default player count reach the same starts, other
    settings their own, and a setting whose starts are not kept has no shortcut."""
    kuhn = Game.load(ROOT / "rules" / "kuhn_poker" / "game.yaml")
    a, b = kuhn.new_game(None, None, 3), kuhn.new_game(2, None, 3)
    assert a.to_json() == b.to_json()
    assert kuhn._usual[(None, None, True)] is kuhn._usual[(2, None, True)] is kuhn._starts[(2, None, True)]
    quiet = kuhn.new_game(2, None, 3, logging=False)
    assert not quiet.logging and kuhn._usual[(2, None, False)] is kuhn._starts[(2, None, False)]
    pt = kuhn.new_game(2, {}, 3, lang="pt")
    assert pt.lang == "pt" and kuhn._usual[(2, "pt", True)] is not kuhn._usual[(2, None, True)]
    kuhn.keep_starts(False)
    assert not kuhn._usual
    goof = Game.load(ROOT / "rules" / "goofspiel" / "game.yaml")
    for seed in range(3):
        goof.new_game(2, None, seed)
    assert goof._starts[(2, None, True)].closed and not goof._usual


def test_a_shortcut_start_is_the_setup_s_start():
    copied = Game.load(ROOT / "rules" / "kuhn_poker" / "game.yaml")
    fresh = Game.load(ROOT / "rules" / "kuhn_poker" / "game.yaml")
    fresh.keep_starts(False)
    for seed in range(40):
        for players in (None, 2):
            a, b = fresh.new_game(players, None, seed), copied.new_game(players, None, seed)
            assert a.to_json() == b.to_json() and a.hash() == b.hash()
            assert b.current_players() == a.current_players() and b.legal_actions(0) == a.legal_actions(0)
