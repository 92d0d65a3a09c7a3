"""Any rule file as an OpenSpiel game (a pyspiel Python game, registered with pyspiel).

    from interpreter.adapters.openspiel import load_game
    game = load_game("rules/kuhn_poker/game.yaml", utility="scores")
    state = game.new_initial_state()        # a pyspiel.State: chance node, 3 outcomes

Decisions: action k is the k-th option as the deciding player sees it (`State.option_labels`),
so ids are stable for an information state and never built from anything hidden. Chance: every
random draw of the rules is an explicit chance node with equally likely outcomes (see
chance.py), or, with chance="sampled", the engine's own seeded generator decides. Simultaneous secret choices are simultaneous nodes; a player who has nothing to
choose there has no legal action (OpenSpiel then passes 0, which is ignored). Strings and the
observation tensor are made from `State.view(player)` (and, for information states, that
player's log), never from the raw state. Utilities: see profile.py and docs/adapters.md.
`State.resample_from_infostate(player, sampler)` is the engine's resample (interpreter/resample.py).
"""
from __future__ import annotations

import ctypes
import hashlib
import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel

from ..game import Game
from ..resample import resample
from .chance import Node, Stepper
from .encoding import ViewEncoder
from .profile import AdapterError, Profile, derive, load_rules

_REGISTERED: dict[str, Any] = {}  # short name -> factory
CHANCE_MODES = ("explicit", "sampled")


class _Config:
    """What every state of one game shares (never copied: states are cloned often; pickled as
    the arguments of load_game, so that a serialized state can be read in another process)."""

    def __init__(self, game: Game, profile: Profile, args: dict):
        self.game = game
        self.profile = profile
        self.args = args
        self.sampled = args["chance"] == "sampled" and profile.random
        self.stepper = Stepper(game, profile.players, profile.options, sampled=self.sampled)
        self.root = None if self.sampled else self.stepper.root()
        sample = game.new_game(profile.players, profile.options, seed=0, logging=False)
        self.encoder = ViewEncoder(sample)

    def __deepcopy__(self, memo: dict) -> "_Config":
        return self

    def __reduce__(self):
        return _config_from, (self.args,)


def _config_from(args: dict) -> _Config:
    return load_game(**args).config


def load_game(file: str | Path, players: int | None = None, options: dict | None = None, *,
              variants: tuple = (), utility: str = "win_loss", max_actions: int | None = None,
              score_range: tuple | None = None, samples: int = 20, chance: str = "explicit",
              seed: int = 0) -> "RulebookGame":
    """The rule file (plus variants) with this player count and these options, as a pyspiel
    game. `utility` is "win_loss" (default) or "scores"; `chance` is "explicit" (default: every
    random draw is a chance node) or "sampled" (the engine's generator, seeded from `seed`);
    see docs/adapters.md. The game is also registered with pyspiel under
    `game.get_type().short_name`."""
    if chance not in CHANCE_MODES:
        raise AdapterError(f"chance must be one of {', '.join(CHANCE_MODES)}, not {chance!r}")
    rules = load_rules(file, variants)
    profile = derive(rules, players, options, utility=utility, max_actions=max_actions,
                     score_range=score_range, samples=samples)
    game_type = _game_type(rules, profile, chance, seed)
    name = game_type.short_name
    if name not in _REGISTERED:
        args = dict(file=str(file), players=profile.players, options=profile.options,
                    variants=tuple(str(v) for v in variants), utility=utility,
                    max_actions=max_actions, score_range=score_range, samples=samples,
                    chance=chance, seed=seed)
        config = _Config(rules, profile, args)
        factory = lambda params=None, _c=config, _t=game_type: RulebookGame(_c, _t, params)  # noqa: E731
        pyspiel.register_game(game_type, factory)
        _keep_forever(factory)
        _REGISTERED[name] = factory
    return _REGISTERED[name]()


def _keep_forever(obj: Any) -> None:
    """pyspiel's registry of games is a C++ static, destroyed after Python has shut down. Its
    reference to `obj` must not be the last one then: freeing a Python object without the
    interpreter aborts the process at exit. So one reference is never given back."""
    ctypes.pythonapi.Py_IncRef(ctypes.py_object(obj))


def _short_name(rules: Game, profile: Profile, chance: str, seed: int) -> str:
    text = json.dumps([rules.d.rules_hash, profile.players, profile.options, profile.utility,
                       profile.max_actions, profile.score_low, profile.score_high, chance, seed],
                      sort_keys=True, default=str)
    return f"rulebook_{rules.id}_{profile.players}p_{hashlib.sha256(text.encode()).hexdigest()[:8]}"


def _game_type(rules: Game, profile: Profile, chance: str, seed: int) -> pyspiel.GameType:
    T = pyspiel.GameType
    if profile.utility_sum() is None:
        utility = T.Utility.GENERAL_SUM
    elif profile.utility_sum() == 0:
        utility = T.Utility.ZERO_SUM
    else:
        utility = T.Utility.CONSTANT_SUM
    return T(
        short_name=_short_name(rules, profile, chance, seed),
        long_name=f"{rules.name} ({profile.players} players, rulebook)",
        dynamics=T.Dynamics.SIMULTANEOUS if profile.simultaneous else T.Dynamics.SEQUENTIAL,
        chance_mode=(T.ChanceMode.DETERMINISTIC if not profile.random else
                     T.ChanceMode.EXPLICIT_STOCHASTIC if chance == "explicit" else
                     T.ChanceMode.SAMPLED_STOCHASTIC),
        information=(T.Information.PERFECT_INFORMATION if profile.perfect_information
                     else T.Information.IMPERFECT_INFORMATION),
        utility=utility,
        reward_model=T.RewardModel.TERMINAL,
        max_num_players=profile.players,
        min_num_players=profile.players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={},
    )


class RulebookGame(pyspiel.Game):
    """One configuration of a rule file as a pyspiel game."""

    def __init__(self, config: _Config, game_type: pyspiel.GameType, params: Any = None):
        profile = config.profile
        low, high = profile.utility_range()
        info = pyspiel.GameInfo(
            num_distinct_actions=profile.max_actions,
            max_chance_outcomes=0 if config.sampled else profile.max_outcomes,
            num_players=profile.players,
            min_utility=low,
            max_utility=high,
            utility_sum=profile.utility_sum(),
            max_game_length=profile.max_length,
        )
        super().__init__(game_type, info, params or {})
        self.config = config
        self.seeds = random.Random(config.args["seed"])  # sampled chance: a game seed per new state

    @property
    def rules(self) -> Game:
        return self.config.game

    def new_initial_state(self) -> "RulebookState":
        return RulebookState(self, self.config)

    def state_at(self, engine_state: Any) -> "RulebookState":
        """A pyspiel state at a decision point of this configuration's engine state (a game
        played or arranged elsewhere); it is copied, never changed."""
        if engine_state.game is not self.config.game.d or engine_state.n != self.config.profile.players:
            raise AdapterError("that state is not of this game and player count")
        state = RulebookState(self, self.config)
        state._node = Node(engine_state.clone())
        return state

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "ViewObserver":
        if params:
            raise AdapterError(f"observation parameters are not supported; passed {params}")
        perfect_recall = bool(iig_obs_type.perfect_recall) if iig_obs_type is not None else False
        if iig_obs_type is not None and iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise AdapterError("observations are a player's own view: only private_info="
                               "SINGLE_PLAYER is available")
        return ViewObserver(self.config, perfect_recall)


class RulebookState(pyspiel.State):
    """A pyspiel state over one immutable `Node` (copies share it)."""

    def __init__(self, game: RulebookGame, config: _Config):
        super().__init__(game)
        self._config = config
        self._seed = game.seeds.getrandbits(63) if config.sampled else None
        self._at: Node | None = config.root  # sampled chance: set up when first needed

    @property
    def _node(self) -> Node:
        if self._at is None:
            self._at = self._config.stepper.root(self._seed)
        return self._at

    @_node.setter
    def _node(self, node: Node) -> None:
        self._at = node

    # ------------------------------------------------------------------ who moves
    def current_player(self) -> int:
        node = self._node
        if node.is_chance:
            return pyspiel.PlayerId.CHANCE
        deciding = node.deciding
        if not deciding:
            return pyspiel.PlayerId.TERMINAL
        if len(deciding) > 1:
            return pyspiel.PlayerId.SIMULTANEOUS
        return deciding[0]

    def _legal_actions(self, player: int) -> list[int]:
        if player < 0 or self._node.is_chance:
            return []
        count = self._node.state.option_count(player)
        limit = self._config.profile.max_actions
        if count > limit:
            raise AdapterError(f"a decision of P{player + 1} has {count} options, more than the "
                               f"{limit} this game declared: pass max_actions={2 * count}")
        return list(range(count))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        n = self._node.outcomes
        if n > self._config.profile.max_outcomes:
            raise AdapterError(f"a random draw has {n} outcomes, more than the "
                               f"{self._config.profile.max_outcomes} this game declared")
        return [(k, 1.0 / n) for k in range(n)]

    # ------------------------------------------------------------------ moves
    def _apply_action(self, action: int) -> None:
        node = self._node
        if node.is_chance:
            self._node = self._config.stepper.chance(node, int(action))
            return
        player = self.current_player()
        self._node = self._config.stepper.decide(node, ((player, self._legal(player, action)),))

    def _apply_actions(self, actions: list[int]) -> None:
        step = tuple((p, self._legal(p, actions[p])) for p in self._node.deciding)
        self._node = self._config.stepper.decide(self._node, step)

    def _legal(self, player: int, action: int) -> int:
        action = int(action)
        if not 0 <= action < self._node.state.option_count(player):
            raise AdapterError(f"action {action} is not legal for P{player + 1}")
        return action

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"outcome {action}"
        labels = _unique(self._node.state.option_labels(player)) if not self._node.is_chance else []
        if 0 <= action < len(labels):
            return labels[action]
        return f"option {action}"

    # ------------------------------------------------------------------ end
    def is_terminal(self) -> bool:
        node = self._node
        return not node.is_chance and node.state.is_terminal()

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self._config.profile.players
        S = self._node.state
        return self._config.profile.utilities(S.returns(), S.winners())

    # ------------------------------------------------------------------ text
    def __str__(self) -> str:
        node = self._node
        if node.is_chance:
            where = "setup" if node.base is None else f"after decisions {list(node.step)}"
            return f"chance: draw {len(node.draws) + 1} ({node.outcomes} outcomes), {where}"
        return node.__dict__.get("_text") or node.__dict__.setdefault(
            "_text", json.dumps(node.view(None), sort_keys=True, default=str))

    @property
    def engine_state(self) -> Any:
        """The engine state at a decision point or the end (None at a chance node)."""
        return self._node.state

    # ------------------------------------------------------------------ hidden information
    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> "RulebookState":
        """A state `player_id` cannot tell from this one (OpenSpiel's ResampleFromInfostate), drawn
        by the engine's resample (interpreter/resample.py): the pieces hidden from that player are
        swapped among places that look alike to them, hidden dice are rolled again, and the
        random future is drawn anew. `probability_sampler`: a callable giving floats in [0, 1)
        (e.g. pyspiel.UniformProbabilitySampler(0., 1.)) or a random.Random; every random
        choice of the resample comes from it. The player's information state and observation
        strings are unchanged; what others hold differs. At a decision point or the end only."""
        node = self._node
        if node.is_chance:
            raise AdapterError("resample_from_infostate needs a decision point or the end, not a chance node")
        if not 0 <= int(player_id) < self._config.profile.players:
            raise AdapterError(f"player {player_id} is not one of 0..{self._config.profile.players - 1}")
        rng = probability_sampler if isinstance(probability_sampler, random.Random) \
            else _SamplerRandom(probability_sampler)
        world, _ = resample(node.state, int(player_id), rng)
        state = self.clone()
        state._node = Node(world)
        return state



class ViewObserver:
    """Strings and tensors from one player's view (see encoding.py)."""

    def __init__(self, config: _Config, perfect_recall: bool):
        self.config = config
        self.perfect_recall = perfect_recall
        if perfect_recall:
            self.tensor = None  # information-state tensors are not provided
            self.dict = {}
        else:
            self.tensor = np.zeros(config.encoder.size, np.float32)
            self.dict = {"view": self.tensor}

    def set_from(self, state: RulebookState, player: int) -> None:
        seen = _seen_node(state._node)
        if seen is None:
            self.tensor.fill(0)
        else:
            self.tensor[:] = self.config.encoder.encode(seen.view(player))

    def string_from(self, state: RulebookState, player: int) -> str:
        node = state._node
        seen = _seen_node(node)
        if seen is None:
            text = "setup"
        else:
            text = json.dumps(seen.view(player), sort_keys=True, default=str)
            if self.perfect_recall:
                text += "\n" + "\n".join(seen.state.log_lines(player))
        if node.is_chance:
            own = [option for p, option in node.step if p == player]
            text += f"\nchance after my decision {own}" if own else "\nchance"
        return f"P{player + 1}\n{text}"


class _SamplerRandom(random.Random):
    """random.Random whose every draw comes from a sampler of floats in [0, 1)."""

    def __init__(self, sampler: Any):
        if not callable(sampler):
            raise AdapterError("probability_sampler must be a callable giving floats in [0, 1) or a random.Random")
        self._sampler = sampler
        super().__init__(0)

    def random(self) -> float:
        x = float(self._sampler())
        if not 0.0 <= x < 1.0:
            raise AdapterError(f"probability_sampler gave {x}, not a number in [0, 1)")
        return x

    def getrandbits(self, k: int) -> int:
        out, bits = 0, 0
        while bits < k:
            out = (out << 32) | int(self.random() * 4294967296.0)
            bits += 32
        return out >> (bits - k)


def _seen_node(node: Node) -> Node | None:
    """The node whose state the players see: at a chance node, the decision point before the
    open step (None during the setup)."""
    if not node.is_chance:
        return node
    return None if node.base is None else Node(node.base)


def _unique(labels: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for text in labels:
        k = seen.get(text, 0)
        seen[text] = k + 1
        out.append(text if k == 0 else f"{text} #{k + 1}")
    return out
