"""Agent specs as written on the command line, and the agents they build.

    random | first | last | human | greedy | mcts[:BUDGET] | ismcts[:BUDGET]
    BUDGET: N iterations per decision (default 200), or a time per decision: 2s, 500ms
    settings follow an agent, comma-separated: depth=N (cut playouts after N decisions and use
    the evaluation), c=X (UCB exploration), playout=random|greedy (greedy: epsilon-greedy on
    the evaluation), eps=X (the random share of greedy playouts), samples=N (greedy: worlds per
    decision), reuse=no (ismcts: no tree reuse), ucb=plain|tuned (ismcts: UCB1 or UCB1-Tuned),
    secret=no (ismcts: others' secret picks as named moves), generated=no (mcts: iterations on the
    engine only, never on the resumable generated program: agents/transpiled.py)

A list gives one agent per seat: `ismcts:2s,depth=20,random` is two agents, the first with a
setting. One agent alone plays every seat.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ..errors import InputError, suggest
from .budget import Budget

KINDS = ("random", "first", "last", "human", "greedy", "mcts", "ismcts")
SETTINGS = {"depth": ("mcts", "ismcts"), "c": ("mcts", "ismcts"), "playout": ("mcts", "ismcts"),
            "eps": ("mcts", "ismcts"), "samples": ("greedy",), "reuse": ("ismcts",),
            "ucb": ("ismcts",), "secret": ("ismcts",), "generated": ("mcts",)}
CHOICES = {"playout": ("random", "greedy"), "ucb": ("plain", "tuned")}
YES_NO = ("reuse", "secret", "generated")
DEFAULT_BUDGET = Budget(iterations=200)
ISMCTS_UCB = "tuned"
# UCB1-Tuned's exploration constant (Auer et al.'s 1). c = 2 looked better on 40 tuning seeds but
# not over the protocol's 100 (docs/agents.md, "The exploration constant").
ISMCTS_TUNED_C = 1.0
KINDS_HELP = ("random, first, last, human, greedy, mcts[:N|:Ts], ismcts[:N|:Ts] "
              "(settings after an agent: depth=N, c=X, playout=random|greedy, eps=X, samples=N, "
              "reuse=no, ucb=plain|tuned, secret=no, generated=no)")


@dataclass
class AgentSpec:
    """One parsed agent: its kind, search budget and settings."""

    kind: str
    budget: Budget | None = None
    settings: dict = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The spec written back (stable: usable as a label in results)."""
        text = self.kind + (f":{self.budget}" if self.budget is not None else "")
        return ",".join([text] + [f"{k}={v}" for k, v in self.settings.items()])

    def build(self, seed: int = 0, seat: int = 0) -> Any:
        """A fresh agent; its generator is seeded from the game seed and the seat."""
        agent_seed = seed * 1009 + seat
        if self.kind == "random":
            from .basic import RandomAgent
            return RandomAgent(agent_seed)
        if self.kind == "first":
            from .basic import FirstAgent
            return FirstAgent()
        if self.kind == "last":
            from .basic import LastAgent
            return LastAgent()
        if self.kind == "human":
            from .human import HumanAgent
            return HumanAgent()
        if self.kind == "greedy":
            from .greedy import GreedyAgent
            return GreedyAgent(agent_seed, samples=self.settings.get("samples", 2))
        return self._search(agent_seed)

    def _search(self, agent_seed: int) -> Any:
        from .playout import GreedyPlayout, RandomPlayout
        from .selection import Ucb1, Ucb1Tuned
        get = self.settings.get
        if get("playout", "random") == "greedy":
            playout = GreedyPlayout(depth=get("depth"), epsilon=get("eps", 0.25))
        else:
            playout = RandomPlayout(depth=get("depth"))
        budget = self.budget or DEFAULT_BUDGET
        if self.kind == "mcts":
            from .mcts import MctsAgent
            return MctsAgent(budget, agent_seed, select=Ucb1(get("c", 1.4)), playout=playout,
                             transpiled=get("generated", True))
        from .ismcts import IsmctsAgent
        tuned = get("ucb", ISMCTS_UCB) == "tuned"
        select = Ucb1Tuned(get("c", ISMCTS_TUNED_C)) if tuned else Ucb1(get("c", 0.7))
        return IsmctsAgent(budget, agent_seed, select=select, playout=playout,
                           reuse=get("reuse", True), secret=get("secret", True))


def parse_agents(spec: str | None) -> list[AgentSpec]:
    """`mcts:200,depth=20,random` → two specs. Raises InputError naming what is wrong."""
    specs: list[AgentSpec] = []
    for token in (spec or "random").split(","):
        token = token.strip().lower()
        if not token:
            continue
        if "=" in token:
            if not specs:
                raise InputError(f'"{token}": a setting must follow an agent (e.g. mcts:200,{token})')
            _setting(specs[-1], token)
        else:
            specs.append(_agent(token))
    if not specs:
        raise InputError("no agents given; agents: " + KINDS_HELP)
    return specs


def _agent(token: str) -> AgentSpec:
    kind, _, budget = token.partition(":")
    if kind not in KINDS:
        raise InputError(f'unknown agent "{kind}"{suggest(kind, KINDS)}; agents: {KINDS_HELP}')
    if not budget:
        return AgentSpec(kind)
    if kind not in ("mcts", "ismcts"):
        raise InputError(f'"{token}": only mcts and ismcts take a budget (:N or :2s)')
    try:
        return AgentSpec(kind, Budget.parse(budget))
    except ValueError:
        raise InputError(f'"{token}": write {kind}:N (iterations per decision, N ≥ 1) or '
                         f"{kind}:2s / {kind}:500ms (time per decision)") from None


def _setting(spec: AgentSpec, token: str) -> None:
    key, _, value = token.partition("=")
    if key not in SETTINGS:
        raise InputError(f'unknown agent setting "{key}"{suggest(key, SETTINGS)}; settings: '
                         f"{', '.join(SETTINGS)}")
    if spec.kind not in SETTINGS[key]:
        raise InputError(f'"{key}=" is a setting of {" and ".join(SETTINGS[key])}, not of {spec.kind}')
    try:
        if key in YES_NO:
            if value not in ("yes", "no", "true", "false", "on", "off"):
                raise ValueError(value)
            spec.settings[key] = value in ("yes", "true", "on")
        elif key in CHOICES:
            if value not in CHOICES[key]:
                raise ValueError(value)
            spec.settings[key] = value
        elif key in ("c", "eps"):
            spec.settings[key] = float(value)
            if not 0 <= spec.settings[key] <= (1 if key == "eps" else math.inf):
                raise ValueError(value)
        else:
            spec.settings[key] = int(value)
            if spec.settings[key] < 1:
                raise ValueError(value)
    except ValueError:
        expected = {"c": "a number ≥ 0", "eps": "a number from 0 to 1"}.get(key, "a whole number ≥ 1")
        if key in YES_NO:
            expected = "yes or no"
        elif key in CHOICES:
            expected = " or ".join(CHOICES[key])
        raise InputError(f'"{token}": {key} is {expected}') from None


def make_agent(kind: str, seed: int, seat: int) -> Any:
    """One agent from a one-agent spec (`ismcts:2s,depth=20`)."""
    specs = parse_agents(kind)
    if len(specs) != 1:
        raise InputError(f'"{kind}" names {len(specs)} agents, expected one')
    return specs[0].build(seed, seat)


def make_agents(spec: str | None, players: int, seed: int) -> list:
    """One agent per seat: a single agent plays every seat, else one per seat in order."""
    specs = parse_agents(spec)
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise InputError(f"--agents lists {len(specs)} agents for {players} players")
    return [s.build(seed, i) for i, s in enumerate(specs)]
