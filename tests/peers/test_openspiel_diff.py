"""Differential tests: four classic games played move by move here and in OpenSpiel.

For each game, many seeded random games are played in lockstep on both engines:

* **our RNG → OpenSpiel** (``test_lockstep_random_games``): our game is set up with its seed
  (our shuffles and dice rolls), and each OpenSpiel chance node is answered with the outcome read
  from our state (the dealt card, the rolled die, the prize card turned up). At every decision
  point both engines must agree on who decides, on the legal moves (same set, same order, after
  mapping our option labels to OpenSpiel action ids) and on whether the game is over; at the end
  the returns must be equal. Moves are chosen at random among the legal ones.
* **OpenSpiel's RNG → us** (``test_openspiel_traces_replay_here``): OpenSpiel plays seeded random
  games (``openspiel_trace.random_trace``); our state is arranged, as a scenario test would, so
  that its chance results are OpenSpiel's (cards moved into hands, the prize deck put in
  OpenSpiel's order, die values set), then OpenSpiel's moves are replayed here with the same
  checks.

Action ids, chance outcome ids and returns are those established in docs/peers-openspiel.md.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="open_spiel is not installed: pip install -e '.[peers]' (or open_spiel) to run "
                      "the differential tests against OpenSpiel")

from interpreter.compiler import Compiler, Scope  # noqa: E402
from interpreter.decisions import refresh_pending  # noqa: E402
from interpreter.game import Game  # noqa: E402
from interpreter.model import Proc  # noqa: E402
from interpreter.parser import parse_block, parse_expr  # noqa: E402
from interpreter.vm import run_atomic  # noqa: E402

from .openspiel_trace import load_game, random_trace  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]

# Random games per game and direction (our RNG → OpenSpiel; OpenSpiel's RNG → us).
GAMES_OURS = {"tic_tac_toe": 2000, "kuhn_poker": 2000, "goofspiel": 400, "liars_dice": 2000,
              "liars_dice_2": 300}
GAMES_THEIRS = {"tic_tac_toe": 300, "kuhn_poker": 300, "goofspiel": 100, "liars_dice": 300,
                "liars_dice_2": 100}


# ---------------------------------------------------------------------- our side
_GAMES: dict = {}


def our_game(game_id: str) -> Game:
    if game_id not in _GAMES:
        _GAMES[game_id] = Game.load(ROOT / "rules" / game_id / "game.yaml")
    return _GAMES[game_id]


_EXPRS: dict = {}


def evaluate(game: Game, text: str, S: Any) -> Any:
    """The value of a DSL expression in state S (as a scenario's `expect` reads it)."""
    key = (id(game), text)
    f = _EXPRS.get(key)
    if f is None:
        compiler = Compiler(game.d)
        f = compiler.expr(parse_expr(text), Scope())
        assert not compiler.errors, compiler.errors
        _EXPRS[key] = f
    return f(S, {})


def arrange(game: Game, S: Any, text: str) -> None:
    """Run DSL statements on S as a game master (as a scenario's `arrange` step does)."""
    compiler = Compiler(game.d)
    proc = Proc("arrange@peers", [], decl_pos=None)
    compiler.compile_proc(proc, parse_block(text), chooser=None)
    assert not compiler.errors, compiler.errors
    run_atomic(S, proc, {})
    refresh_pending(S)


# ---------------------------------------------------------------------- game mappings
@dataclass
class Spec:
    """How one of our rule files maps onto an OpenSpiel game."""

    ours: str  # rule file id (rules/<ours>/game.yaml)
    peer: str  # OpenSpiel game name
    params: dict = field(default_factory=dict)  # OpenSpiel parameters (beyond DEFAULT_PARAMS)
    options: dict = field(default_factory=dict)  # our options
    action_id: Callable[[str, dict], int] = lambda label, params: int(label)  # our label → id
    chance: Callable[[Game, Any, int], int] = None  # (game, our state, chance index) → outcome id
    arrange: Callable[[list, dict], str] = None  # OpenSpiel chance outcomes → DSL statements


def _kuhn_action(label: str, params: dict) -> int:
    return {"pass": 0, "bet": 1}[label]


def _kuhn_chance(game: Game, S: Any, k: int) -> int:
    # chance k deals player k's card; the outcome id is the card's rank (0 J, 1 Q, 2 K)
    return evaluate(game, f"top(hand[{k}]).rank", S)


def _kuhn_arrange(outcomes: list, params: dict) -> str:
    lines = ["move hand[0] to deck", "move hand[1] to deck"]
    lines += [f"move filter(deck, c => c.rank == {rank}) to hand[{p}]" for p, rank in enumerate(outcomes)]
    return "\n".join(lines)


def _goofspiel_action(label: str, params: dict) -> int:
    return int(label) - 1  # bid card value − 1


def _goofspiel_chance(game: Game, S: Any, k: int) -> int:
    # chance k turns up round k+1's point card; ours is already on offer at that decision
    assert evaluate(game, "round", S) == k + 1
    return evaluate(game, "top(on_offer).value", S) - 1


def _goofspiel_arrange(outcomes: list, params: dict) -> str:
    # put the prize deck in OpenSpiel's point-card order (the 13th card is whatever is left)
    lines = ["move on_offer to prize_deck"]
    lines += [f"move filter(prize_deck, c => c.value == {v + 1}) to prize_deck" for v in outcomes]
    # the one card OpenSpiel never dealt is now on top: it is the last round's, so to the bottom
    lines += ["move top(prize_deck) to prize_deck", "move top(prize_deck) to on_offer"]
    return "\n".join(lines)


def _liars_action(label: str, params: dict) -> int:
    sides = 6
    total = 2 * params.get("numdice", 1)
    if label == "liar":
        return total * sides
    quantity, face = (int(x) for x in label.split("-"))
    return (quantity - 1) * sides + (face - 1)


def _liars_chance(game: Game, S: Any, k: int) -> int:
    # chance nodes roll player 0's dice, then player 1's; outcome id = face − 1
    faces = evaluate(game, "[d.value - 1 for d in cup[0]] + [d.value - 1 for d in cup[1]]", S)
    return faces[k]


def _liars_arrange(outcomes: list, params: dict) -> str:
    n = params.get("numdice", 1)
    lines = []
    for k, face in enumerate(outcomes):
        player, i = divmod(k, n)
        lines.append(f"let d{k} = cup[{player}][{i}]")
        lines.append(f"d{k}.value = {face + 1}")
    return "\n".join(lines)


SPECS: dict[str, Spec] = {
    "tic_tac_toe": Spec("tic_tac_toe", "tic_tac_toe"),
    "kuhn_poker": Spec("kuhn_poker", "kuhn_poker", action_id=_kuhn_action, chance=_kuhn_chance,
                       arrange=_kuhn_arrange),
    "goofspiel": Spec("goofspiel", "goofspiel", action_id=_goofspiel_action, chance=_goofspiel_chance,
                      arrange=_goofspiel_arrange),
    "liars_dice": Spec("liars_dice", "liars_dice", action_id=_liars_action, chance=_liars_chance,
                       arrange=_liars_arrange),
    "liars_dice_2": Spec("liars_dice", "liars_dice", params={"numdice": 2}, options={"dice": 2},
                         action_id=_liars_action, chance=_liars_chance, arrange=_liars_arrange),
}


# ---------------------------------------------------------------------- lockstep
def _our_legal(spec: Spec, S: Any, player: int) -> list[int]:
    return [spec.action_id(label, spec.params) for label in S.option_labels(player)]


def _check_node(spec: Spec, S: Any, O: Any, where: str) -> list[int]:
    """Both engines at the same decision node: same terminal flag, deciders and legal moves."""
    assert S.is_terminal() == O.is_terminal(), f"{where}: terminal here {S.is_terminal()}, OpenSpiel {O.is_terminal()}"
    if O.is_terminal():
        return []
    ours = S.current_players()
    if O.is_simultaneous_node():
        players = list(range(O.num_players()))
        assert ours == players, f"{where}: simultaneous node in OpenSpiel, here {ours} decide"
    else:
        players = [O.current_player()]
        assert ours == players, f"{where}: OpenSpiel waits for {players}, here {ours}"
    for p in players:
        theirs = list(O.legal_actions(p))
        mine = _our_legal(spec, S, p)
        assert mine == theirs, f"{where}: P{p} legal moves here {mine} ({S.option_labels(p)}), OpenSpiel {theirs}"
    return players


def _apply_both(spec: Spec, S: Any, O: Any, players: list, indexes: list) -> None:
    ids = []
    for p, i in zip(players, indexes):
        ids.append(spec.action_id(S.option_labels(p)[i], spec.params))
        S.apply(p, i)
    if O.is_simultaneous_node():
        O.apply_actions(ids)
    else:
        O.apply_action(ids[0])


def _returns_agree(S: Any, O: Any, where: str) -> tuple:
    ours = [float(r) for r in S.returns()]
    theirs = [float(r) for r in O.returns()]
    assert ours == theirs, f"{where}: returns here {ours}, OpenSpiel {theirs}"
    return tuple(ours)


def play_lockstep(spec: Spec, seed: int) -> tuple:
    """One random game: our chance results fed to OpenSpiel. Returns (returns, decisions)."""
    game = our_game(spec.ours)
    S = game.new_game(2, spec.options, seed)
    O = load_game(spec.peer, spec.params).new_initial_state()
    rng = random.Random(seed)
    chance_index = decisions = 0
    while True:
        where = f"{spec.ours} seed {seed} after {decisions} decisions"
        while O.is_chance_node():
            outcome = spec.chance(game, S, chance_index)
            legal = [a for a, _ in O.chance_outcomes()]
            assert outcome in legal, f"{where}: our chance outcome {outcome} impossible in OpenSpiel {legal}"
            O.apply_action(outcome)
            chance_index += 1
        players = _check_node(spec, S, O, where)
        if not players:
            return _returns_agree(S, O, where), decisions
        _apply_both(spec, S, O, players, [rng.randrange(len(S.option_labels(p))) for p in players])
        decisions += 1


def replay_openspiel_trace(spec: Spec, seed: int) -> tuple:
    """One OpenSpiel random game replayed here, our state arranged to OpenSpiel's chance results."""
    trace = random_trace(spec.peer, seed, spec.params)
    steps = trace["steps"]
    game = our_game(spec.ours)
    S = game.new_game(2, spec.options, seed)
    O = load_game(spec.peer, spec.params).new_initial_state()
    chance_outcomes = [s["action"] for s in steps if s["kind"] == "chance"]
    if spec.arrange is not None:
        arrange(game, S, spec.arrange(chance_outcomes, spec.params))
    decisions = 0
    for step in steps:
        where = f"{spec.peer} trace seed {seed}, step {decisions}"
        if step["kind"] == "chance":
            O.apply_action(step["action"])
            continue
        players = _check_node(spec, S, O, where)
        wanted = step["action"] if isinstance(step["action"], list) else [step["action"]]
        indexes = [_our_legal(spec, S, p).index(a) for p, a in zip(players, wanted)]
        _apply_both(spec, S, O, players, indexes)
        decisions += 1
    assert _check_node(spec, S, O, f"{spec.peer} trace seed {seed}, end") == []
    ours = _returns_agree(S, O, f"{spec.peer} trace seed {seed}")
    assert list(ours) == trace["returns"]
    return ours, decisions


# ---------------------------------------------------------------------- tests
# What a run of random games must have met, so that the comparison covers every ending.
EXPECTED_RETURNS = {
    "tic_tac_toe": {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)},
    "kuhn_poker": {(1.0, -1.0), (-1.0, 1.0), (2.0, -2.0), (-2.0, 2.0)},
    "goofspiel": {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)},
    "liars_dice": {(1.0, -1.0), (-1.0, 1.0)},
    "liars_dice_2": {(1.0, -1.0), (-1.0, 1.0)},
}


@pytest.mark.parametrize("name", sorted(GAMES_OURS))
def test_lockstep_random_games(name):
    spec = SPECS[name]
    seen = set()
    lengths = set()
    for seed in range(GAMES_OURS[name]):
        returns, decisions = play_lockstep(spec, seed)
        seen.add(returns)
        lengths.add(decisions)
    assert seen >= EXPECTED_RETURNS[name], f"{name}: only these returns were met: {sorted(seen)}"
    assert len(lengths) > 1 or name == "goofspiel", f"{name}: every game had {lengths} decisions"


@pytest.mark.parametrize("name", sorted(GAMES_THEIRS))
def test_openspiel_traces_replay_here(name):
    spec = SPECS[name]
    seen = set()
    for seed in range(GAMES_THEIRS[name]):
        returns, _ = replay_openspiel_trace(spec, seed)
        seen.add(returns)
    assert len(seen) >= 2, f"{name}: only these returns were met: {sorted(seen)}"


def test_worked_examples_from_the_peer_notes():
    """The hand-checked examples of docs/peers-openspiel.md, as decisions here."""
    # tic-tac-toe: x takes the top row
    S = our_game("tic_tac_toe").new_game(2, None, 0)
    for i, cell in enumerate([0, 3, 1, 4, 2]):
        S.apply(i % 2, str(cell))
    assert S.is_terminal() and S.returns() == [1, -1]
    # Kuhn: K against J, Bet, Bet → +2/−2
    game = our_game("kuhn_poker")
    S = game.new_game(2, None, 0)
    arrange(game, S, _kuhn_arrange([2, 0], {}))
    S.apply(0, "bet")
    S.apply(1, "bet")
    assert S.returns() == [2, -2]
    # Liar's dice: dice 6 and 3, P1 bids 2-3, P2 calls → the 6 is wild, the caller loses
    game = our_game("liars_dice")
    S = game.new_game(2, None, 0)
    arrange(game, S, _liars_arrange([5, 2], {}))
    S.apply(0, "2-3")
    S.apply(1, "liar")
    assert S.returns() == [1, -1]
