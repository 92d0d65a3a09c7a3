"""The tutorial's game (tests/fixtures/tutorial/), and the guides docs/tutorial.md and
docs/cookbook.md, which are run top to bottom so that they cannot drift from the engine.

The conformance harness (tests/test_conformance.py) only takes the rule files directly under
tests/fixtures/, so the tutorial game's checks are here: its files validate, its scenarios pass,
random games pass the conformance checks; every complete rule file in the guides validates (and
every scenario file in them passes), every command in them prints what they say, and the
tutorial's finished files are the fixture files.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from interpreter.conformance import check_game
from interpreter.game import Game
from interpreter.loader import load_game
from interpreter.scenario import ScenarioFile

ROOT = Path(__file__).resolve().parent.parent
TUTORIAL = ROOT / "tests" / "fixtures" / "tutorial"
GAME = TUTORIAL / "game.yaml"
VARIANT = TUTORIAL / "variants" / "tight_market.yaml"
DOCS = ROOT / "docs"

sys.path.insert(0, str(ROOT / "tools"))
import doc_examples  # from tools/, put on the path just above


def test_game_and_house_rule_validate():
    assert load_game(GAME).id == "night_market"
    assert load_game(VARIANT).id == "night_market_tight"
    assert Game.load(GAME, [VARIANT]).id == "night_market_tight"


@pytest.mark.parametrize("path", sorted((TUTORIAL / "tests").glob("*.yaml")), ids=lambda p: p.name)
def test_scenarios_pass(path):
    results = ScenarioFile(path).run_all()
    assert results
    failed = [r.line() for r in results if not r.passed]
    assert not failed, "\n".join(failed)


# 20 random games of the base game over every player count and a few option values, and 6
# with the house rule, each with every conformance check on.
BASE = [((), 2 + seed % 3, {"start_coins": [5, 0, 10, 3][seed % 4]}, seed) for seed in range(20)]
HOUSE = [((VARIANT,), 2 + seed % 3, {}, seed) for seed in range(6)]


@pytest.mark.parametrize("variants,players,options,seed", BASE + HOUSE,
                         ids=lambda v: v.name if isinstance(v, Path) else None)
def test_conformance(variants, players, options, seed):
    game = _game(variants)
    report = check_game(game, players, game.resolve_options(options), seed)
    assert not report.problems, "\n".join(report.problems)


_GAMES: dict = {}


def _game(variants: tuple) -> Game:
    if variants not in _GAMES:
        _GAMES[variants] = Game.load(GAME, list(variants))
    return _GAMES[variants]


# ------------------------------------------------------------------ the guides
def _problems(res) -> str:
    return "\n".join(res.problems) + "\n(to paste the real outputs: python tools/doc_examples.py docs/….md --write)"


@pytest.fixture(scope="module")
def tutorial_run(tmp_path_factory):
    return doc_examples.run(DOCS / "tutorial.md", folder=tmp_path_factory.mktemp("tutorial"))


def test_tutorial_runs_as_written(tutorial_run):
    res = tutorial_run
    assert res.valid_files and res.commands
    assert not res.problems, _problems(res)


def test_tutorial_ends_with_the_fixture_files(tutorial_run):
    """The last version of each file in the tutorial is the file in tests/fixtures/tutorial."""
    res = tutorial_run
    prefix = "rules/night_market/"
    finished = {rel[len(prefix):]: text for rel, text in res.files.items() if rel.startswith(prefix)}
    assert set(finished) >= {"game.yaml", "variants/tight_market.yaml", "tests/bidding.yaml"}

    def body(text: str) -> str:  # the `# file:` and editor lines differ with the folder depth
        return "".join(line for line in text.splitlines(keepends=True)
                       if not re.match(r"#\s*(file:|yaml-language-server:)", line))

    for rel, text in finished.items():
        assert body(text) == body((TUTORIAL / rel).read_text(encoding="utf-8")), rel


def test_cookbook_runs_as_written(tmp_path):
    res = doc_examples.run(DOCS / "cookbook.md", folder=tmp_path)
    games = [rel for rel in res.valid_files if rel.endswith("game.yaml")]
    tests = [rel for rel in res.valid_files if rel.endswith("test.yaml")]
    assert len(games) >= 16 and len(tests) == len(games)
    assert not res.problems, _problems(res)
    for rel in games:  # random games of every recipe, with the conformance checks
        game = Game.load(tmp_path / rel)
        lo, hi = game.player_range
        for seed, players in enumerate(range(lo, hi + 1)):
            report = check_game(game, players, game.resolve_options({}), seed)
            assert not report.problems, f"{rel}, {players} players:\n" + "\n".join(report.problems)


def test_doc_examples_catches_drift(tmp_path):
    """The checker itself: a wrong output, an excerpt not in the file, a broken `# file:`, and
    a `# broken:` file that loads are all reported."""
    doc = tmp_path / "guide.md"
    doc.write_text("""```yaml
zones:
  deck: {}
```

```yaml
# file: g.yaml
game: {id: g, name: G, players: {min: 2, max: 2}}
zones:
  pile: {}
flow:
  phases:
    - {id: a, do: 'log "hi"'}
```

```yaml
# file: bad.yaml
game: {id: g, name: G, players: {min: 2, max: 2}}
flow:
  phases:
    - {id: a, do: 'log "{cuont(players)}"'}
```

```yaml
# broken: fine.yaml
game: {id: g, name: G, players: {min: 2, max: 2}}
flow:
  phases:
    - {id: a, do: 'log "hi"'}
```

```console
$ rulebook validate g.yaml
ok: something else
```
""", encoding="utf-8")
    res = doc_examples.run(doc, folder=tmp_path / "work")
    text = "\n".join(res.problems)
    assert "excerpt not found" in text
    assert 'bad.yaml is not valid' in text and "cuont" in text
    assert "fine.yaml is marked broken but loads" in text
    assert "printed something else" in text and "ok: g.yaml (g)" in text
    assert len(res.problems) == 4
