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


def agent_seed(seed: int, seat: int) -> int:
    """The seed `rulebook simulate` gives a seat's random agent (agents.registry.AgentSpec.build)."""
    return seed * 1009 + seat


def engine_trace(game: Any, players: int, options: dict | None, seed: int) -> Trace:
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
                 S.vars.get("round") or 0, (S.result or {}).get("reason"))


def random_agents(players: int, seed: int, offered: list | None = None) -> list[Callable]:
    """Agents for a generated program drawing as engine_trace's, recording what they are offered."""
    def agent_of(rng: random.Random) -> Callable:
        def agent(options: list) -> int:
            if offered is not None:
                offered.append(list(options))
            return int(rng.random() * len(options))
        return agent
    return [agent_of(random.Random(agent_seed(seed, p))) for p in range(players)]


def fast_trace(play: Callable, players: int, seed: int) -> Trace:
    """A whole game of a generated program (interpreter.transpile.load_program) with random agents."""
    offered: list = []
    returns, history, winners, rounds, reason = play(seed, random_agents(players, seed, offered))
    return Trace(list(returns), [list(h) for h in history], offered, list(winners), rounds, reason)


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
