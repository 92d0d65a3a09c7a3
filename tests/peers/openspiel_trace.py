"""OpenSpiel peer for differential tests: seeded random traces and replays.

This module only *uses* the OpenSpiel API (``pyspiel``); it contains no pytest
tests.  Importing it never fails: ``pyspiel`` is imported lazily, and callers
should check :func:`available` first (e.g. ``pytest.skip`` when it is False).

A trace is plain data (JSON-serialisable)::

    {
      "game": "kuhn_poker",
      "params": {"players": 2},          # effective OpenSpiel parameters
      "seed": 7,                           # only in random_trace output
      "steps": [
        {"kind": "chance", "player": -1, "legal": [0, 1, 2],
         "probs": [0.333.., 0.333.., 0.333..], "action": 2, "action_str": "Deal:2"},
        {"kind": "decision", "player": 0, "legal": [0, 1],
         "action": 1, "action_str": "Bet"},
        {"kind": "simultaneous", "player": [0, 1], "legal": [[...], [...]],
         "action": [3, 5], "action_str": "[P0]Bid: 4 | [P1]Bid: 6"},
        ...
      ],
      "returns": [1.0, -1.0],
      "terminal": True,
    }

``[step["action"] for step in trace["steps"]]`` is exactly the input that
:func:`replay_trace` expects, so an engine can feed its own chance outcomes
(translated to OpenSpiel outcome ids, see docs/peers-openspiel.md) and decisions
into OpenSpiel and compare legal moves and returns step by step.
"""

from __future__ import annotations

import importlib
import random
from typing import Any, Callable, Iterable, Mapping, Sequence, Union

# pyspiel ships no type stubs; these aliases only document intent.
Game = Any
State = Any
Action = Union[int, list[int]]
Step = dict[str, Any]
Trace = dict[str, Any]
Chooser = Callable[[State, Step], Action]

SUPPORTED_GAMES: tuple[str, ...] = ("tic_tac_toe", "kuhn_poker", "goofspiel", "liars_dice")

# Parameters we pin explicitly (they equal OpenSpiel's defaults in 2.0.2, but
# pinning them keeps traces meaningful if a future default changes).
DEFAULT_PARAMS: dict[str, dict[str, Any]] = {
    "tic_tac_toe": {},
    "kuhn_poker": {"players": 2},
    "goofspiel": {
        "num_cards": 13,
        "players": 2,
        "points_order": "random",
        "returns_type": "win_loss",
        "imp_info": False,
        "egocentric": False,
    },
    "liars_dice": {"players": 2, "numdice": 1, "dice_sides": 6, "bidding_rule": "reset-face"},
}

CHANCE = "chance"
DECISION = "decision"
SIMULTANEOUS = "simultaneous"


def available() -> bool:
    """Return True if OpenSpiel's Python bindings (``pyspiel``) import."""
    try:
        importlib.import_module("pyspiel")
    except ImportError:
        return False
    return True


def load_game(game_name: str, params: Mapping[str, Any] | None = None) -> Game:
    """Load ``game_name`` with :data:`DEFAULT_PARAMS` overridden by ``params``.

    Names starting with ``python_`` (e.g. ``python_kuhn_poker``) select
    OpenSpiel's pure-Python implementations; those take no parameters here.
    """
    pyspiel = importlib.import_module("pyspiel")
    if game_name.startswith("python_"):
        importlib.import_module("open_spiel.python.games")  # registers python_* games
        return pyspiel.load_game(game_name, dict(params or {}))
    merged = {**DEFAULT_PARAMS.get(game_name, {}), **dict(params or {})}
    return pyspiel.load_game(game_name, merged)


def _plain_params(game: Game) -> dict[str, Any]:
    """The game's effective parameters as plain Python values."""
    return {key: value for key, value in game.get_parameters().items()}


def _describe(state: State) -> Step:
    """Describe the node ``state`` is at (kind, player, legal), without an action."""
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        return {
            "kind": CHANCE,
            "player": int(state.current_player()),
            "legal": [int(a) for a, _ in outcomes],
            "probs": [float(p) for _, p in outcomes],
        }
    if state.is_simultaneous_node():
        players = list(range(state.num_players()))
        return {
            "kind": SIMULTANEOUS,
            "player": players,
            "legal": [[int(a) for a in state.legal_actions(p)] for p in players],
        }
    return {
        "kind": DECISION,
        "player": int(state.current_player()),
        "legal": [int(a) for a in state.legal_actions()],
    }


def _check_legal(step: Step, action: Action, index: int) -> None:
    """Raise ValueError if ``action`` does not fit the node described by ``step``."""
    if step["kind"] == SIMULTANEOUS:
        if not isinstance(action, (list, tuple)) or len(action) != len(step["legal"]):
            raise ValueError(f"step {index}: simultaneous node needs one action per player, got {action!r}")
        for player, (a, legal) in enumerate(zip(action, step["legal"])):
            if a not in legal:
                raise ValueError(f"step {index}: action {a} illegal for player {player}; legal {legal}")
        return
    if isinstance(action, (list, tuple)) or action not in step["legal"]:
        raise ValueError(f"step {index}: {step['kind']} action {action!r} not in {step['legal']}")


def _apply(state: State, step: Step, action: Action) -> str:
    """Apply ``action`` at the node described by ``step``; return its string."""
    if step["kind"] == SIMULTANEOUS:
        joint = [int(a) for a in action]  # type: ignore[union-attr]
        text = " | ".join(state.action_to_string(p, a) for p, a in enumerate(joint))
        state.apply_actions(joint)
        return text
    text = state.action_to_string(step["player"], int(action))  # type: ignore[arg-type]
    state.apply_action(int(action))  # type: ignore[arg-type]
    return text


def _run(game: Game, choose: Chooser, max_steps: int | None = None) -> Trace:
    """Play from the initial state, asking ``choose`` for each action."""
    state = game.new_initial_state()
    steps: list[Step] = []
    while not state.is_terminal() and (max_steps is None or len(steps) < max_steps):
        step = _describe(state)
        action = choose(state, step)
        _check_legal(step, action, len(steps))
        step["action"] = [int(a) for a in action] if isinstance(action, (list, tuple)) else int(action)
        step["action_str"] = _apply(state, step, action)
        steps.append(step)
    return {
        "game": game.get_type().short_name,
        "params": _plain_params(game),
        "steps": steps,
        "returns": [float(r) for r in state.returns()],
        "terminal": bool(state.is_terminal()),
    }


def sample_chance(rng: random.Random, outcomes: Sequence[int], probs: Sequence[float]) -> int:
    """Draw one outcome by its probability using a single ``rng.random()`` call."""
    threshold = rng.random()
    cumulative = 0.0
    for outcome, prob in zip(outcomes, probs):
        cumulative += prob
        if threshold < cumulative:
            return outcome
    return outcomes[-1]  # guards against rounding when probabilities sum to < 1


def _random_chooser(rng: random.Random) -> Chooser:
    """Chooser: chance by probability, every player uniformly among legal actions."""

    def choose(_state: State, step: Step) -> Action:
        if step["kind"] == CHANCE:
            return sample_chance(rng, step["legal"], step["probs"])
        if step["kind"] == SIMULTANEOUS:
            return [rng.choice(legal) for legal in step["legal"]]
        return rng.choice(step["legal"])

    return choose


def _sequence_chooser(actions: Iterable[Action]) -> Chooser:
    """Chooser that replays ``actions`` in order (``_run`` stops when they run out)."""
    iterator = iter(actions)

    def choose(_state: State, _step: Step) -> Action:
        try:
            return next(iterator)
        except StopIteration:
            raise AssertionError("unreachable: _run stops at max_steps") from None

    return choose


def random_trace(game_name: str, seed: int, params: Mapping[str, Any] | None = None) -> Trace:
    """Play one seeded random game of ``game_name`` to the end and trace it.

    Chance nodes are sampled from ``chance_outcomes()`` by probability; decision
    and simultaneous nodes pick uniformly among each acting player's legal
    actions. The RNG is ``random.Random(seed)``, so a seed gives the same trace
    on every run with the same OpenSpiel version.
    """
    trace = _run(load_game(game_name, params), _random_chooser(random.Random(seed)))
    trace["seed"] = seed
    return trace


def replay_trace(
    game_name: str, actions: Sequence[Action], params: Mapping[str, Any] | None = None
) -> Trace:
    """Re-apply ``actions`` (chance outcomes included) from the initial state.

    Each entry is an int for chance and decision nodes, or a list with one
    action per player for simultaneous nodes. Returns the same shape as
    :func:`random_trace` (minus ``seed``): every step's legal actions before
    the action, the returns, and whether the state is terminal (a prefix of a
    game is allowed; its returns are OpenSpiel's non-terminal returns).

    Raises ValueError on an illegal action or on actions left after the game
    has ended (e.g. goofspiel's forced last round, which OpenSpiel plays itself).
    """
    trace = _run(load_game(game_name, params), _sequence_chooser(actions), max_steps=len(actions))
    if len(trace["steps"]) < len(actions):
        raise ValueError(
            f"game ended after {len(trace['steps'])} steps but {len(actions)} actions were given"
        )
    return trace


def trace_actions(trace: Trace) -> list[Action]:
    """The action sequence of ``trace``, ready for :func:`replay_trace`."""
    return [step["action"] for step in trace["steps"]]


def replays_identically(trace: Trace) -> bool:
    """True if replaying ``trace``'s actions reproduces its steps and returns."""
    replay = replay_trace(trace["game"], trace_actions(trace), trace["params"])
    return replay["steps"] == trace["steps"] and replay["returns"] == trace["returns"]
