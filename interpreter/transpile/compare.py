"""The same game played two ways: by the engine and by a generated program, with the same
random agents (each seat draws as agents.basic.RandomAgent seeded as `rulebook simulate` seeds
it), recording what each way offered at every decision. Used by the tests of interpreter/transpile/
and by tools/transpile_probe.py."""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable

from ..threads import waiting


@dataclass
class Trace:
    """One played game: final returns, decisions [seat, index], the options of each decision,
    the winning seats, the `round` variable at the end and the end's reason."""
    returns: list
    history: list
    offered: list = field(default_factory=list)
    winners: list = field(default_factory=list)
    rounds: int = 0
    reason: str | None = None
    state: Any = None  # with_state: the engine's final State, or the program's exported state dict


def agent_seed(seed: int, seat: int) -> int:
    """The seed `rulebook simulate` gives a seat's random agent (agents.registry.AgentSpec.build)."""
    return seed * 1009 + seat


def engine_trace(game: Any, players: int, options: dict | None, seed: int, with_state: bool = False) -> Trace:
    """A whole engine game with random agents, as lab/games.py plays it (logging off)."""
    rngs = [random.Random(agent_seed(seed, p)) for p in range(players)]
    S = game.new_game(players, options, seed, logging=False)
    offered = []
    while not S.over:
        for p in S.current_players():
            offered.append(list(waiting(S)[p].pending.options))
            S.apply(p, int(rngs[p].random() * S.option_count(p)))
            if S.over:
                break
    return Trace(S.returns(), [list(h) for h in S.history], offered, S.winners(),
                 S.vars.get("round") or 0, (S.result or {}).get("reason"), S if with_state else None)


def random_agents(players: int, seed: int, offered: list | None = None) -> list[Callable]:
    """Agents for a generated program drawing as engine_trace's, recording what they are offered."""
    def agent_of(rng: random.Random) -> Callable:
        def agent(options: list) -> int:
            if offered is not None:
                offered.append(list(options))
            return int(rng.random() * len(options))
        return agent
    return [agent_of(random.Random(agent_seed(seed, p))) for p in range(players)]


def fast_trace(play: Callable, players: int, seed: int, with_state: bool = False) -> Trace:
    """A whole game of a generated program (interpreter.transpile.load_program) with random agents."""
    offered: list = []
    agents = random_agents(players, seed, offered)
    state: dict | None = {} if with_state else None
    returns, history, winners, rounds, reason = play(seed, agents, state=state) if with_state else play(seed, agents)
    return Trace(list(returns), [list(h) for h in history], offered, list(winners), rounds, reason, state)


def first_difference(engine: Trace, fast: Trace) -> str | None:
    """Where two traces of one seed part (None if they are the same game)."""
    for i, (a, b) in enumerate(zip(engine.offered, fast.offered)):
        if a != b:
            return f"decision {i}: the engine offered {a!r}, the program {b!r}"
    if engine.history != fast.history:
        return f"histories differ: {len(engine.history)} and {len(fast.history)} decisions"
    if engine.returns != fast.returns:
        return f"returns differ: engine {engine.returns}, program {fast.returns}"
    for what in ("winners", "rounds", "reason"):
        a, b = getattr(engine, what), getattr(fast, what)
        if a != b or type(a) is not type(b):
            return f"{what} differ: engine {a!r}, program {b!r}"
    return None


def state_difference(S: Any, exported: dict) -> str | None:
    """Where a program's exported final state (final_state.py) differs from the engine's final
    State `S`: the generator's Rng, every exported zone (pieces in order), counter and variable
    (variables only where the engine holds plain data: numbers, texts, seats, pieces, lists of
    them; a zone reference or a map has another form in a program)."""
    if exported.get("rng") != S.rng.state:
        return f"the random generators differ: engine {S.rng.state}, program {exported.get('rng')}"
    zones = {str(k): [int(p) for p in v] for k, v in S.zones.items()}
    for key, pieces in exported.get("zones", {}).items():
        if zones.get(key) != list(pieces):
            return f"zone {key}: engine {zones.get(key)}, program {list(pieces)}"
    for key, value in exported.get("counters", {}).items():
        if S.counters.get(key) != value:
            return f"counter {key}: engine {S.counters.get(key)!r}, program {value!r}"
    for key, value in exported.get("vars", {}).items():
        mine = S.vars.get(key)
        if _plain(mine) and mine != value:
            return f"variable {key}: engine {mine!r}, program {value!r}"
    return None


def _plain(value: Any) -> bool:
    from ..values import ZoneRef
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    return value is None or (isinstance(value, (int, float, str)) and not isinstance(value, ZoneRef))


def differing_seeds(path: Any, players: int, options: dict | None, seeds: range, variants: tuple = ()) -> list:
    """The seeds whose generated game differs from the engine's, with where they part: options
    at every decision, decisions, returns, winners, then the final state (the tests' check)."""
    from ..game import Game
    from . import load_program
    from .rulefile import RuleFile

    game = Game.load(path, variants=variants)
    options = game.resolve_options(options or {})
    play = load_program(RuleFile(path, variants), players, options)
    out = []
    for seed in seeds:
        engine = engine_trace(game, players, options, seed, with_state=True)
        fast = fast_trace(play, players, seed, with_state=True)
        difference = first_difference(engine, fast) or state_difference(engine.state, fast.state)
        if difference is not None:
            out.append((seed, difference))
    return out
