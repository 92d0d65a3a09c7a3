"""The end of a generated game (interpreter/transpile/scoring.py): `final`, `score`, `tiebreak`,
`lowest_wins`, `all_tied`, `winners`, the end's reason and the last round come out as the
engine's (compare.py's traces carry them); texts whose values the generator cannot label raise
instead of guessing; a generated `while` that never ends raises past the `steps` limit."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.errors import RulebookError
from interpreter.game import Game
from interpreter.transpile import load_program
from interpreter.transpile.compare import engine_trace, fast_trace, first_difference, random_agents

ROOT = Path(__file__).resolve().parents[2]

GAME = """
game:
  id: pick
  name: Pick
  version: 1
  players: {min: 2, max: 4}
  description: Each turn a player picks a value; points and squares add up.
tables:
  values: [0, 1, 2, 3]
counters:
  pts: {per: [player], initial: 0}
  squares: {per: [player], initial: 0}
variables:
  leader: {initial: none}
TURN
flow:
  rounds: 3
  phases:
    - id: pick
      turns: seat
      turn: |
        choose v from values prompt "Pick"
        pts[player] += v
        squares[player] += v * v
        leader = player
        call maybe_end(player)
scoring:
SCORING
"""

ENDS = """functions:
  maybe_end:
    params: [w]
    do: |
      if pts[w] >= END_AT:
        end_game "{w} reached {pts[w]} in round {round}; leaders: {argmax(players, q => pts[q])}"
"""


def rule_file(tmp_path: Path, scoring: str, end_at: int = 7, turn_extra: str = "") -> Path:
    text = GAME.replace("TURN", ENDS.replace("END_AT", str(end_at)) + turn_extra).replace("SCORING", scoring)
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def traces(path: Path, players: int, seeds: range) -> list:
    game, play = Game.load(path), load_program(path, players)
    out = []
    for seed in seeds:
        engine, fast = engine_trace(game, players, None, seed), fast_trace(play, players, seed)
        assert first_difference(engine, fast) is None, (seed, first_difference(engine, fast))
        out.append(engine)
    return out


def test_tiebreak_decides_as_in_the_engine(tmp_path):
    path = rule_file(tmp_path, '  score: "pts[player]"\n  tiebreak: ["0 - squares[player]"]\n')
    games = traces(path, 3, range(40))
    # the tie-break mattered: some winner is not every seat with the best score
    assert any(g.winners != [i for i, s in enumerate(g.returns) if s == max(g.returns)] for g in games)


def test_lowest_wins_and_shared_ties(tmp_path):
    scoring = '  score: "1 if pts[player] >= 5 else 0"\n  lowest_wins: true\n  all_tied: shared\n'
    path = rule_file(tmp_path, scoring, end_at=99)
    games = traces(path, 2, range(40))
    assert any(len(g.winners) == 2 for g in games)  # everyone tied: shared, not a draw
    assert any(g.winners and g.returns[g.winners[0]] == min(g.returns) < max(g.returns) for g in games)


def test_every_seat_tied_is_a_draw_without_a_score(tmp_path):
    games = traces(rule_file(tmp_path, '  tiebreak: ["0"]\n'), 2, range(5))
    assert all(g.returns == [0, 0] and g.winners == [] for g in games)


def test_winners_expression_and_final_block(tmp_path):
    scoring = ('  final: |\n    pts[leader] += 10\n  score: "pts[player]"\n'
               '  winners: "filter(players, p => pts[p] >= 12)"\n')
    games = traces(rule_file(tmp_path, scoring), 3, range(40))
    assert all(max(g.returns) >= 10 for g in games)  # the final block ran before scoring
    assert any(g.winners == [] for g in games) and any(g.winners for g in games)


def test_reason_and_rounds(tmp_path):
    games = traces(rule_file(tmp_path, '  score: "pts[player]"\n', end_at=5), 2, range(40))
    reasons = [g.reason for g in games]
    assert None in reasons  # the flow ran out of rounds
    assert any(r and r.startswith("P") and "leaders: P" in r for r in reasons)  # players as P1, P2
    assert {g.rounds for g in games} >= {2, 3}


def test_a_name_is_a_number_in_one_procedure_and_a_player_in_another(tmp_path):
    path = rule_file(tmp_path, '  score: "pts[player]"\n', end_at=5)
    text = path.read_text(encoding="utf-8")
    text = text.replace("      if pts[w] >= 5:\n", "      let n = count(players) + 0\n      if pts[w] >= 5:\n")
    text = text.replace("in round {round}", "in round {round} of {n}")
    shout = "functions:\n  shout:\n    params: [n]\n    do: |\n      log \"{n}\"\n"
    text = text.replace("functions:\n", shout)
    text = text.replace("        leader = player\n", "        leader = player\n        for n in players:\n"
                        "          call shout(n)\n")
    path.write_text(text, encoding="utf-8")
    games = traces(path, 2, range(30))
    assert any(g.reason and " of 2; leaders: P" in g.reason for g in games)


def test_a_value_of_unknown_kind_in_a_text_raises(tmp_path):
    # `first(values)` is a table's number: the engine writes "0", the program cannot tell it
    # from a player, so it raises (its caller replays the game in the engine) rather than guess
    path = rule_file(tmp_path, '  score: "pts[player]"\n', end_at=0)
    text = path.read_text(encoding="utf-8")
    text = text.replace("; leaders: {argmax(players, q => pts[q])}", " {first(values)}")
    path.write_text(text, encoding="utf-8")
    assert engine_trace(Game.load(path), 2, None, 1).reason == "P1 reached 0 in round 1 0"
    with pytest.raises(Exception, match="^0$"):
        load_program(path, 2)(1, random_agents(2, 1))


def test_an_endless_while_raises_instead_of_hanging(tmp_path):
    endless = "limits: {steps: 5000}\n"
    path = rule_file(tmp_path, '  score: "pts[player]"\n', turn_extra=endless)
    text = path.read_text(encoding="utf-8").replace(
        "        call maybe_end(player)\n", "        call maybe_end(player)\n        while v >= 0:\n          v += 0\n")
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulebookError) as engine_error:
        engine_trace(Game.load(path), 2, None, 3)
    assert engine_error.value.code == "E310"
    with pytest.raises(RuntimeError, match="steps"):
        load_program(path, 2)(3, random_agents(2, 3))


CASES = [("tic_tac_toe", 2, None), ("kuhn_poker", 2, None)] + [
    ("chicago_poker", n, {"no_special_cards": True}) for n in (2, 3, 4)]


@pytest.mark.parametrize("name,players,options", CASES)
def test_the_covered_games_end_as_the_engines(name, players, options):
    path = ROOT / "rules" / name / "game.yaml"
    game, play = Game.load(path), load_program(path, players, options)
    for seed in range(10):
        engine, fast = engine_trace(game, players, options, seed), fast_trace(play, players, seed)
        assert first_difference(engine, fast) is None
        assert (fast.winners, fast.rounds, fast.reason) == (engine.winners, engine.rounds, engine.reason)


@pytest.mark.slow
@pytest.mark.parametrize("name,players,options", CASES)
def test_the_covered_games_end_as_the_engines_slow(name, players, options):
    path = ROOT / "rules" / name / "game.yaml"
    game, play = Game.load(path), load_program(path, players, options)
    for seed in range(200):
        assert first_difference(engine_trace(game, players, options, seed), fast_trace(play, players, seed)) is None
