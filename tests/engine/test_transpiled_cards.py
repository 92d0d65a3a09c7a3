"""The transpiled back end (interpreter/transpile/) on the card games: Chicago Poker (every
player count, with and without special cards, the big_hands variant) and Goofspiel play the
engine's games, and the constructs they brought (choices of several items, optional choices and
performs, `where` filters, `/` `//` `%`, one-argument max/min) are written as the engine runs
them. A game the program cannot play exactly stops with an exception (the caller replays it in
the engine): here, two offered pieces that may look alike (choices.ChoiceWriter.offer)."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.errors import RuleRuntimeError
from interpreter.game import Game
from interpreter.transpile import Unsupported, load_program, transpile
from interpreter.transpile.compare import engine_trace, fast_trace, first_difference, random_agents
from interpreter.transpile.runtime import _DONE, _PASS, _LookAlikes

ROOT = Path(__file__).resolve().parents[2]
POKER = ROOT / "rules" / "chicago_poker" / "game.yaml"
BIG_HANDS = ROOT / "rules" / "chicago_poker" / "variants" / "big_hands.yaml"
GOOFSPIEL = ROOT / "rules" / "goofspiel" / "game.yaml"
SCHEMA = ROOT / "schema" / "rulebook.schema.json"

_games: dict = {}


def _game(path: Path, variants: tuple = ()) -> Game:
    key = (path, variants)
    if key not in _games:
        _games[key] = Game.load(path, variants=variants)
    return _games[key]


def play_both(path: Path, players: int, options: dict, seeds: range, variants: tuple = ()) -> dict:
    """Each seed played by the engine and by the generated program; how the pairs came out.
    A program that stops (an exception) must have been offered what the engine offered until
    then; a program that finishes must have played the engine's game."""
    game, play = _game(path, variants), load_program(path, players, options, variants)
    out = {"same": 0, "look-alikes": 0, "offered": []}
    for seed in seeds:
        engine = engine_trace(game, players, options, seed)
        offered: list = []
        try:
            fast = fast_trace(play, players, seed)
        except _LookAlikes:
            play_recording(play, players, seed, offered)
            assert engine.offered[:len(offered)] == offered, f"seed {seed}: options differ before stopping"
            out["look-alikes"] += 1
            continue
        assert first_difference(engine, fast) is None, f"seed {seed}: {first_difference(engine, fast)}"
        out["same"] += 1
        out["offered"].extend(engine.offered)
    return out


def play_recording(play, players: int, seed: int, offered: list) -> None:
    try:
        play(seed, random_agents(players, seed, offered))
    except _LookAlikes:
        return
    raise AssertionError("the program stopped once, not the second time")


def poker_configs() -> list:
    configs = []
    for players in range(2, 7):
        for options in ({"no_special_cards": True}, {}):
            configs.append((players, options, ()))
    for players in (2, 4, 6):
        for options in ({"no_special_cards": True}, {}, {"short_game": True}):
            configs.append((players, options, (BIG_HANDS,)))
    return configs


def _id(config) -> str:
    players, options, variants = config
    return f"{players}p-{'-'.join(options) or 'specials'}{'-big_hands' if variants else ''}"


@pytest.mark.parametrize("config", poker_configs(), ids=_id)
def test_chicago_poker_plays_the_engines_games(config):
    players, options, variants = config
    out = play_both(POKER, players, options, range(20), variants)
    if options.get("no_special_cards"):  # no look-alike pieces are ever offered together
        assert out["same"] == 20
    assert out["same"] >= 3  # with special cards, the two Police Raids in one hand stop some games


@pytest.mark.slow
@pytest.mark.parametrize("config", poker_configs(), ids=_id)
def test_chicago_poker_plays_the_engines_games_long(config):
    players, options, variants = config
    out = play_both(POKER, players, options, range(20, 220), variants)
    assert out["same"] == 200 if options.get("no_special_cards") else out["same"] >= 20


@pytest.mark.parametrize("seeds", [range(40), pytest.param(range(40, 440), marks=pytest.mark.slow)],
                         ids=["fast", "slow"])
def test_goofspiel_plays_the_engines_games(seeds):
    out = play_both(GOOFSPIEL, 2, {}, seeds)
    assert out["same"] == len(seeds)
    assert "_no_lookalikes" not in transpile(GOOFSPIEL, 2)  # no piece there looks like another


def test_the_limousines_choice_of_several_is_played():
    """Full Chicago Poker reaches `choose 1 to (room) cs` (the Limousine) in games played to
    the end: `done` offered after a first pick."""
    out = play_both(POKER, 4, {}, range(60))
    assert any(_DONE in options for options in out["offered"])


def test_look_alike_pieces_are_offered_as_the_engine_offers_them():
    """With looks.py's looks, the two Police Raids in one hand are offered once or twice as the
    engine offers them: no game stops."""
    out = play_both(POKER, 4, {}, range(40))
    assert out["same"] == 40 and out["look-alikes"] == 0


# ------------------------------------------------------------------ the constructs, one file
CHOICES = """\
# yaml-language-server: $schema={schema}
game: {{id: several_choices, name: Several choices, version: 1, players: {{min: 2, max: 3}}}}
tables:
  numbers: [1, 1, 2, 3, 5]
components:
  card:
    kind: card
    start: deck
    items:
{cards}
zones:
  deck: {{ordered: true, visibility: hidden}}
  hand: {{per: [player], visibility: owner}}
  pile: {{ordered: true}}
counters:
  points: {{per: [player], initial: 0}}
functions:
  room:
    params: [p]
    expr: "count(hand[p]) % 3"
actions:
  keep:
    do: "points[player] += 1"
  again:
    do: "perform keep, toss by player"
  toss:
    when: "count(hand[player]) > 0"
    do: |
      choose up to 2 cs from hand[player]
      move cs to pile
      points[player] += count(cs)
setup:
  - id: deal
    do: |
      shuffle deck
      deal 3 from deck to hand
flow:
  rounds: 3
  phases:
    - id: play
      turns: seat
      turn: |
        choose 2 xs from numbers
        points[player] += sum(xs) % 3 + max(xs) // 2 + min(xs, default=7)
        if max(xs) / 2 > 1:
          points[player] += 1
        choose 0 to (room(player)) ys from hand[player] where ys.value % 2 == 1
        move ys to pile
        choose 1 to 2 vs from hand[player] where vs.value > 4 optional
        move vs to pile
        choose z from pile where z.value > 3 optional
        if z != none:
          move z to hand[player]
          points[player] += z.value // 3
        choose (count(pile) // 4) ws from pile by player
        points[player] -= count(ws)
        perform keep, toss by player optional
        perform toss by player optional
        perform toss, again by player optional
        choose t from players where t != player
        points[t] += 1
        choose q from [] optional
        choose up to 3 rs from players where rs != player optional
        points[player] += count(rs) * 5 + max([player, 1]) - min([3, player]){extra}
scoring:
  score: "points[player]"
"""


def choices_file(tmp_path: Path, extra: str = "", name: str = "game.yaml") -> Path:
    cards = "\n".join(f"      - {{id: c{v}, value: {v}}}" for v in range(1, 10))
    path = tmp_path / name
    path.write_text(CHOICES.format(schema=SCHEMA, cards=cards, extra=extra), encoding="utf-8")
    return path


@pytest.mark.parametrize("players", [2, 3])
def test_choices_of_several_optional_and_filtered_play_the_engines_games(tmp_path, players):
    """Exact counts, up to, ranges with computed bounds (0 to k, 1 to k optional), duplicates
    among the candidates, `where` on one and on several, optional choices with nothing to
    pick, an optional perform, `%` `//` `/`, one-argument max/min: the engine's options,
    history and returns."""
    out = play_both(choices_file(tmp_path), players, {}, range(60))
    assert out["same"] == 60
    offered = out["offered"]
    assert [_PASS] in offered  # `choose q from [] optional`: asked anyway, pass only
    assert any(o[-1] == _DONE and len(o) > 1 for o in offered)
    assert [1, 2, 3, 5] in offered and [1, 1, 2, 3, 5] not in offered  # one `1` is offered once
    assert any(o[:-1] == ["keep", "toss"] and o[-1] == _PASS for o in offered)
    assert ["keep", "toss"] in offered  # `again`'s own perform is not optional


def test_a_choice_of_more_than_there_is_stops_the_program_as_the_engine_stops(tmp_path):
    path = choices_file(tmp_path, "\n        choose 4 too_many from players")
    game = Game.load(path)
    with pytest.raises(RuleRuntimeError, match="must choose 4"):
        engine_trace(game, 2, {}, 0)
    with pytest.raises(RuntimeError, match="fewer candidates"):
        fast_trace(load_program(path, 2), 2, 0)


def test_remainder_of_a_text_stops_the_program_as_the_engine_stops(tmp_path):
    path = choices_file(tmp_path, '\n        let s = "%d" % 5')
    with pytest.raises(RuleRuntimeError):
        engine_trace(Game.load(path), 2, {}, 0)
    with pytest.raises(TypeError, match="not on text"):
        fast_trace(load_program(path, 2), 2, 0)
    assert "(5 % 3)" in transpile(choices_file(tmp_path, "\n        let r = 5 % 3", "b.yaml"), 2)


def test_where_on_perform_is_refused_by_name(tmp_path):
    path = choices_file(tmp_path, "\n        perform keep by player where true")
    Game.load(path)  # a valid rule file (the engine does not apply that `where`)
    with pytest.raises(Unsupported, match="`where` on perform"):
        transpile(path, 2)


@pytest.mark.parametrize("statement", ['choose t2 from players prompt "Pick {player}"',
                                       'choose 1 to 2 t3 from players prompt "Pick {player}"',
                                       'perform keep by player prompt "Act, {player}"'])
def test_a_prompt_with_values_is_refused_by_name(tmp_path, statement):
    path = choices_file(tmp_path, "\n        " + statement)
    Game.load(path)
    with pytest.raises(Unsupported, match="a prompt with"):
        transpile(path, 2)
    plain = choices_file(tmp_path, "\n        " + statement.replace("{player}", "{{you}}"), "b.yaml")
    transpile(plain, 2)  # escaped braces are plain text


def test_choices_of_several_inside_a_simultaneous_block_keep_the_engines_order(tmp_path):
    """Every player's block runs up to its first pick, then the picks come in rounds in seat
    order (the engine's current_players): a player's second pick after the others' first."""
    text = choices_file(tmp_path).read_text(encoding="utf-8").replace("""scoring:""", """\
    - id: together
      turns: simultaneous
      turn: |
        choose 1 to 2 gs from hand[player] optional
        move gs to pile
        points[player] += count(gs)
scoring:""")
    path = tmp_path / "together.yaml"
    path.write_text(text, encoding="utf-8")
    try:
        load_program(path, 3)
    except Unsupported as e:  # refused where simultaneous blocks run block by block
        assert "a choice of several in a simultaneous block" in e.what
        return
    out = play_both(path, 3, {}, range(40))
    assert out["same"] == 40
