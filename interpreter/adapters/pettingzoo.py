"""Any rule file as a PettingZoo environment (AEC, and a parallel-API wrapper).

    from interpreter.adapters.pettingzoo import env
    e = env("rules/goofspiel/game.yaml")
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are "player_0" … "player_{n-1}". The action space is Discrete(bound) for every agent,
where the bound is the profile's `max_actions` (derived from the file, see profile.py); action
k is the k-th option as that player sees it, and `action_mask` marks the legal ones.
Observations are {"observation": the view vector (encoding.py), "action_mask": …}. The deciding
agent's `info` holds the text of its view, its prompt and its option labels, and its whole
observation as data (`info["data"]`, State.observation without the log). Rewards are 0
until the end, then the utilities (win_loss or scores). Chance uses the engine's seeded
generator (reset(seed=…)). Several players deciding at once (secret simultaneous picks) take
AEC turns in seat order; a pick is secret, so what the later players observe does not change.
"""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from ..views import view_of
from .encoding import ViewEncoder
from .profile import AdapterError, Profile, derive, load_rules


def env(file: str | Path, players: int | None = None, options: dict | None = None, **kwargs: Any
        ) -> "RulebookEnv":
    """The rule file as an AEC environment. Keyword arguments: variants, utility ("win_loss" or
    "scores"), max_actions, score_range, samples, render_mode ("ansi" or "human")."""
    return RulebookEnv(file, players, options, **kwargs)


def parallel_env(file: str | Path, players: int | None = None, options: dict | None = None, *,
                 illegal: str = "raise", **kwargs: Any) -> "RulebookParallelEnv":
    """The rule file with PettingZoo's parallel API (see RulebookParallelEnv)."""
    return RulebookParallelEnv(RulebookEnv(file, players, options, **kwargs), illegal=illegal)


class RulebookEnv(AECEnv):
    metadata = {"name": "rulebook", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, file: str | Path, players: int | None = None, options: dict | None = None, *,
                 variants: tuple = (), utility: str = "win_loss", max_actions: int | None = None,
                 score_range: tuple | None = None, samples: int = 20, render_mode: str | None = None):
        super().__init__()
        if render_mode not in (None, "ansi", "human"):
            raise AdapterError(f"render_mode is 'ansi' or 'human', not {render_mode!r}")
        self.rules = load_rules(file, variants)
        self.profile: Profile = derive(self.rules, players, options, utility=utility,
                                       max_actions=max_actions, score_range=score_range, samples=samples)
        self.metadata = dict(self.metadata, name=f"rulebook_{self.rules.id}")
        self.render_mode = render_mode
        n = self.profile.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.encoder = ViewEncoder(self.rules.new_game(n, self.profile.options, seed=0, logging=False))
        bound = self.profile.max_actions
        self._action_spaces = {a: spaces.Discrete(bound) for a in self.possible_agents}
        self._observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (bound,), np.int8),
        }) for a in self.possible_agents}
        self._seeds = random.Random()
        self.state: Any = None

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
        game_seed = self._seeds.getrandbits(63)
        self.state = self.rules.new_game(self.profile.players, self.profile.options, seed=game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._select_next()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        player = self._player(agent)
        count = self.state.option_count(player)
        if action is None or not 0 <= int(action) < count:
            raise AdapterError(f"action {action} is not legal for {agent} (legal: 0..{count - 1}; "
                               "use the action mask)")
        self._cumulative_rewards[agent] = 0.0
        self.state.apply(player, int(action))
        if self.state.is_terminal():
            values = self.profile.utilities(self.state.returns(), self.state.winners())
            self.rewards = {a: values[self._player(a)] for a in self.agents}
            self.terminations = {a: True for a in self.agents}
        else:
            self.rewards = {a: 0.0 for a in self.agents}
            if self.state.decisions >= self.profile.max_length:
                self.truncations = {a: True for a in self.agents}
        self._accumulate_rewards()
        self._select_next()
        if self.render_mode == "human":
            self.render()

    def _select_next(self) -> None:
        S = self.state
        deciding = S.current_players()
        if deciding and not any(self.truncations.values()):
            self.agent_selection = self.possible_agents[deciding[0]]
            self.infos[self.agent_selection] = self._info(deciding[0])
        else:  # the end: everyone gets a last look
            self.agent_selection = self.agents[0]
            for a in self.agents:
                self.infos[a] = self._info(self._player(a))

    def _player(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    # ------------------------------------------------------------------ what an agent sees
    def observe(self, agent: str) -> dict:
        player = self._player(agent)
        mask = np.zeros(self.profile.max_actions, np.int8)
        count = self.state.option_count(player)
        if count > len(mask):
            raise AdapterError(f"a decision of {agent} has {count} options, more than the "
                               f"{len(mask)} this environment declared: pass max_actions={2 * count}")
        mask[:count] = 1
        obs = self.state.observation(player, log_from=None)
        return {"observation": self.encoder.encode_observation(obs), "action_mask": mask}

    def _info(self, player: int) -> dict:
        obs = self.state.observation(player, log_from=None)
        view = view_of(obs)
        info = {"text": view_text(view), "data": obs}
        if "decision" in view:
            info["prompt"] = view["decision"]["prompt"]
            info["options"] = list(view["decision"]["options"])
        return info

    def render(self) -> str | None:
        if self.state is None:
            return None
        text = view_text(view_of(self.state.observation(None, log_from=None)))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.state = None


class RulebookParallelEnv(ParallelEnv):
    """The parallel API over a RulebookEnv: each step, every agent that must decide now (several
    during a secret simultaneous choice) gives one action, applied in seat order; actions of
    agents with nothing to decide (their mask is all zeros) are ignored. An action outside the
    mask raises, or with illegal="wrap" is read modulo the number of options (for samplers that
    ignore masks, such as PettingZoo's parallel seed test)."""

    def __init__(self, aec: RulebookEnv, illegal: str = "raise"):
        if illegal not in ("raise", "wrap"):
            raise AdapterError(f"illegal is 'raise' or 'wrap', not {illegal!r}")
        self.aec = aec
        self.illegal = illegal
        self.possible_agents = aec.possible_agents[:]
        self.metadata = dict(aec.metadata, is_parallelizable=True)
        self.render_mode = aec.render_mode

    def observation_space(self, agent: str) -> spaces.Space:
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space:
        return self.aec.action_space(agent)

    def reset(self, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        self.aec.reset(seed=seed, options=options)
        self.agents = self.possible_agents[:]
        return self._observations(), self._infos()

    def step(self, actions: dict) -> tuple[dict, dict, dict, dict, dict]:
        aec = self.aec
        deciding = [self.possible_agents[p] for p in aec.state.current_players()]
        missing = [a for a in deciding if a not in actions]
        if missing:
            raise AdapterError(f"{', '.join(missing)} must act now")
        rewards = {a: 0.0 for a in self.agents}
        for agent in deciding:
            if aec.terminations[agent] or aec.truncations[agent]:
                break
            aec.agent_selection = agent
            action = actions[agent]
            if self.illegal == "wrap" and action is not None:
                action = int(action) % aec.state.option_count(aec._player(agent))
            aec.step(action)
            for a, r in aec.rewards.items():
                rewards[a] += r
        observations, infos = self._observations(), self._infos()
        terminations = {a: aec.terminations[a] for a in self.agents}
        truncations = {a: aec.truncations[a] for a in self.agents}
        self.agents = [a for a in self.agents if not (terminations[a] or truncations[a])]
        return observations, rewards, terminations, truncations, infos

    def _observations(self) -> dict:
        return {a: self.aec.observe(a) for a in self.possible_agents if a in self.aec.agents}

    def _infos(self) -> dict:
        return {a: self.aec._info(self.aec._player(a)) for a in self.possible_agents if a in self.aec.agents}

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()

    def state(self) -> np.ndarray:
        raise NotImplementedError("a global state would show hidden information; use observations")


def view_text(view: dict) -> str:
    """A player's view as plain text (what the terminal shows, without colours)."""
    names = view.get("zone_labels", {})
    lines = [f"round {view.get('round')}, phase {view.get('phase')}"]
    for key, pieces in view["zones"].items():
        shown = [f"hidden {p['kind']}" if p.get("hidden") else
                 p["label"] + (" (face down)" if p.get("face_down") else "") for p in pieces]
        lines.append(f"{names.get(key, key)}: {', '.join(shown)}")
    for key, cells in (view.get("grids") or {}).items():
        # a cell is [x, y, text, …]: what follows the text (e.g. an owner) is left out here
        lines.append(f"{names.get(key, key)} (map): " + " ".join(f"({c[0]},{c[1]}) {c[2]}" for c in cells))
    counter_names = view.get("counter_labels", {})
    if view["counters"]:
        lines.append("counters: " + ", ".join(f"{counter_names.get(k, k)} = {v}" for k, v in view["counters"].items()))
    shown_vars = {k: v for k, v in view["variables"].items() if v is not None}
    if shown_vars:
        lines.append("variables: " + ", ".join(f"{k} = {v}" for k, v in shown_vars.items()))
    decision = view.get("decision")
    if decision:
        lines.append(f"{decision['prompt'] or 'choose'}: " +
                     "; ".join(f"{i}: {text}" for i, text in enumerate(decision["options"])))
    if view.get("result"):
        lines.append(f"result: {view['result']}")
    return "\n".join(lines)
