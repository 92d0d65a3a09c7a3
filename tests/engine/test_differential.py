"""No engine change may change a game: random games replayed against golden digests.

tests/engine/data/differential.json holds, for every playable rule file (entry files, variants,
test fixtures) at every player count and a few option settings, one digest per seeded random
game (decisions, every player's log, final state, returns, winners), recorded with the
engine as it was before the speed work (see tools/differential.py). Every execution path the
engine offers must reproduce them exactly: the checked `apply`, `apply_unchecked` for agents and
simulations, and the VM form of the rules (`vm_frames`: every procedure unfused, so each
statement is one VM dispatch and every call pushes a frame, as rule coverage runs it) against
the default form (fused runs, structured statements, procedures that never stop the game run
as plain Python functions: compiler.link). The default run checks the first game of every configuration with
default options; `--slow` checks all of them: 200 games per configuration with default options
and 40 with an option moved off its default, except for configurations whose rule files changed
on main after the speed work began (their data was made again with 3 and 1 games; remake it with
200 with tools/differential.py when the machine has ten minutes to spare).
"""
from __future__ import annotations

import json
import sys
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from differential import play_digest  # noqa: E402

from interpreter.compiler import unfuse  # noqa: E402
from interpreter.game import Game  # noqa: E402

GOLDEN = {key: digests.split() for key, digests in
          json.loads((Path(__file__).parent / "data" / "differential.json").read_text())["digests"].items()}


def _checked(S, p, i):
    S.apply(p, i)


def _unchecked(S, p, i):
    S.apply_unchecked(p, i)


@lru_cache(maxsize=None)
def _game(entry: str, variants: str) -> Game:
    return Game.load(ROOT / entry, [ROOT / v for v in variants.split(",") if v])


@lru_cache(maxsize=None)
def _vm_game(entry: str, variants: str) -> Game:
    """The rules in their VM form: no fused runs, no structured statements, no plain calls."""
    game = Game.load(ROOT / entry, [ROOT / v for v in variants.split(",") if v])
    for proc in game.d.procs.values():
        unfuse(proc)
    assert not any(proc.plain for proc in game.d.procs.values())
    return game


PATHS = {"apply": (_game, _checked), "apply_unchecked": (_game, _unchecked),
         "vm_frames": (_vm_game, _unchecked)}


def _split(key: str) -> tuple[str, str, int, dict]:
    entry, variants, players, opts = key.split("|", 3)
    return entry, variants, int(players), json.loads(opts)


def _check(key: str, path: str, seeds: range) -> None:
    entry, variants, players, opts = _split(key)
    load, apply = PATHS[path]
    game = load(entry, variants)
    for seed in seeds:
        got = play_digest(game, players, opts, seed, apply)
        assert got == GOLDEN[key][seed], f"{key} seed {seed} via {path}: the game changed"


def test_golden_data_covers_every_rule_file():
    from differential import rule_files
    files = {f"{entry}|{','.join(variants)}" for entry, variants in rule_files()}
    assert files == {key.rsplit("|", 2)[0] for key in GOLDEN}


@pytest.mark.slow
def test_golden_data_covers_every_configuration():
    from differential import configurations
    assert sorted(k for k, *_ in configurations()) == sorted(GOLDEN)


DEFAULTS = sorted(k for k in GOLDEN if k.endswith("|{}"))  # default options


@pytest.mark.parametrize("path", sorted(PATHS))
@pytest.mark.parametrize("key", DEFAULTS)
def test_first_game_unchanged(key, path):
    _check(key, path, range(1))


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(PATHS))
@pytest.mark.parametrize("key", sorted(GOLDEN))
def test_every_game_unchanged(key, path):
    _check(key, path, range(0 if key not in DEFAULTS else 1, len(GOLDEN[key])))
