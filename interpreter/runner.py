"""Playing whole games with agents, and saving/replaying them as logs."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .errors import InputError, Pos, RuleRuntimeError, RulebookError
from .game import Game
from .overlay import _display

LOG_FORMAT = 1


@dataclass
class Played:
    state: Any
    decisions: list = field(default_factory=list)  # [player, option index]


def play_game(game: Game, players: int, options: dict, seed: int, agents: list,
              on_decision: Callable | None = None, logging: bool = True,
              lang: str | None = None) -> Played:
    """Play one game to the end with the given agents (one per seat)."""
    S = game.new_game(players, options, seed, lang, logging=logging)
    try:
        _play(S, game, agents, on_decision)
    except RulebookError as exc:
        exc.state = S  # what happened until the failure, for the log
        raise
    return Played(S, list(S.history))


def _play(S: Any, game: Game, agents: list, on_decision: Callable | None) -> None:
    limit = game.d.max_decisions
    while not S.over:
        waiting = S.current_players()
        if not waiting:
            raise RuleRuntimeError("the game is stuck: no one can decide and it has not ended")
        for p in waiting:
            choice = agents[p].choose(S, p)
            if on_decision is not None:
                on_decision(S, p, choice)
            S.apply(p, choice)
            if S.over:
                break
        if S.decisions > limit:
            raise RuleRuntimeError(
                f"the game did not end within {limit} decisions: check the end conditions "
                "(random play may never reach them), or raise `max_decisions` in the rule file",
                Pos(_display(Path(game.d.files[-1]))), "E312")


def make_log(game: Game, played: Played, entry: str, players: int, options: dict, seed: int,
             variants: list[str]) -> dict:
    S = played.state
    return {
        "format": LOG_FORMAT, "game": game.id, "rules_hash": game.d.rules_hash,
        "rules": str(Path(entry).resolve()), "files": game.d.files,
        "variants": [str(Path(v).resolve()) for v in variants], "players": players, "options": options,
        "seed": seed, "lang": S.lang, "decisions": played.decisions, "final_hash": S.hash(),
        "scores": S.returns(), "winners": S.winners(), "log": S.log_lines(None),
    }


def player_log(S: Any, viewer: int) -> dict:
    """What may be handed to one player after (or during) a game: the log as that player read
    it, and the result. Unlike make_log (the referee's record: seed, every decision, the full
    log, from which everything hidden can be recomputed) it holds nothing hidden from them."""
    data = {"format": LOG_FORMAT, "game": S.game.id, "viewer": int(viewer), "players": S.n,
            "options": S.options, "log": S.log_lines(viewer), "over": S.over}
    if S.over:
        data.update(scores=S.returns(), winners=S.winners())
    return data


def save_log(path: str | Path, data: dict) -> None:
    Path(path).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def read_log(path: str | Path) -> dict:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"no such log file: {path}") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}:{exc.lineno}:{exc.colno}: not a JSON log: {exc.msg}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read: {exc}") from None
    needed = ("format", "game", "rules_hash", "rules", "players", "options", "seed", "decisions", "final_hash")
    missing = [k for k in needed if k not in data] if isinstance(data, dict) else list(needed)
    if missing:
        raise InputError(f"{path}: not a rulebook log (missing {', '.join(missing)})")
    return data


def replay(data: dict, path: str = "<log>") -> tuple[Any, list[str]]:
    """Re-play a log's decisions; returns the final state and any mismatches found."""
    game = Game.load(data["rules"], data.get("variants") or [])
    if game.d.rules_hash != data["rules_hash"]:
        raise InputError(f"{path}: the rule files changed since this log was written "
                         f"(hash {data['rules_hash']}, now {game.d.rules_hash})")
    S = game.new_game(data["players"], data["options"], data["seed"], data.get("lang"))
    problems = []
    for i, entry in enumerate(data["decisions"]):
        if not (isinstance(entry, list) and len(entry) == 2 and all(isinstance(x, int) for x in entry)):
            raise InputError(f"{path}: decision {i + 1} is not [player, option]: {entry!r}")
        player, option = entry
        if S.over:
            raise InputError(f"{path}: decision {i + 1}: the game is already over")
        if player not in S.current_players():
            raise InputError(f"{path}: decision {i + 1}: P{player + 1} is not deciding "
                             f"(waiting for {', '.join(f'P{p + 1}' for p in S.current_players()) or 'nobody'})")
        if not 0 <= option < len(S.legal_actions(player)):
            raise InputError(f"{path}: decision {i + 1}: option {option} does not exist")
        S.apply(player, option)
    if not S.over:
        problems.append("the log ends before the game does")
    if S.hash() != data["final_hash"]:
        problems.append(f"final state differs (hash {S.hash()}, log says {data['final_hash']})")
    return S, problems
