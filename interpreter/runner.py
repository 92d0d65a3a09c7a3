"""Playing whole games with agents, and saving/replaying them as logs."""
from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .errors import UNKNOWN, InputError, Pos, RuleErrors, RuleRuntimeError, RulebookError
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
    except (RulebookError, KeyboardInterrupt) as exc:
        exc.state = S  # what happened until the failure (or Ctrl-C), for the log
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
    data = {"format": LOG_FORMAT, "kind": "player_log", "game": S.game.id, "rules_hash": S.game.rules_hash,
            "viewer": int(viewer), "seat": f"P{int(viewer) + 1}", "players": S.n, "options": S.options,
            "log": S.log_lines(viewer), "over": S.over}
    if S.over:
        data.update(scores=S.returns(), winners=S.winners())
    return data


def check_output_path(path: str | Path, what: str = "--log") -> None:
    """Refuse an output path that cannot be written, before any work starts (E501)."""
    target = Path(path)
    parent = target.parent if str(target.parent) else Path(".")
    problem = None
    if target.is_dir():
        problem = "it is a folder"
    elif not parent.is_dir():
        problem = f"the folder {parent} does not exist"
    elif not os.access(parent, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        problem = "it is not writable"
    if problem:
        raise InputError(f"cannot write {what} {path}: {problem} (checked before the game starts)",
                         Pos(str(path)), "E501")


def save_log(path: str | Path, data: dict) -> None:
    """Write a log atomically: a temporary file beside it, then renamed over it."""
    target = Path(path)
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent or ".")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(text)
            os.replace(tmp, target)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError as exc:
        raise InputError(f"cannot write {path}: {exc.strerror or exc}", Pos(str(path)), "E501") from None


# what each field of a saved log must be: (type check, what to say, required)
def _is_int(v: Any) -> bool:
    return type(v) is int


def _is_str(v: Any) -> bool:
    return type(v) is str


def _is_str_list(v: Any) -> bool:
    return type(v) is list and all(type(x) is str for x in v)


def _is_options(v: Any) -> bool:
    return type(v) is dict and all(type(x) in (str, int, bool) for x in v.values())


def _is_decisions(v: Any) -> bool:
    return type(v) is list and all(type(d) is list and len(d) == 2 and all(type(x) is int for x in d)
                                   for d in v)


_FIELDS: dict[str, tuple[Callable, str, bool]] = {
    "format": (_is_int, "an integer", True),
    "game": (_is_str, "a text", True),
    "rules_hash": (_is_str, "a text", True),
    "rules": (_is_str, "a text (the rule file's path)", True),
    "files": (_is_str_list, "a list of texts", False),
    "variants": (_is_str_list, "a list of texts (variant files)", False),
    "players": (lambda v: _is_int(v) and v >= 1, "a whole number of players", True),
    "options": (_is_options, "a map of option names to text, numbers or true/false", True),
    "seed": (_is_int, "an integer", True),
    "lang": (lambda v: v is None or _is_str(v), "a language code or null", False),
    "decisions": (_is_decisions, "a list of [player, option] pairs of integers", True),
    "final_hash": (_is_str, "a text", True),
}


def _kind(v: Any) -> str:
    names = {bool: "true/false", int: "an integer", float: "a number", str: "text", list: "a list",
             dict: "a map", type(None): "null"}
    shown = json.dumps(v, ensure_ascii=True)
    return f"{names.get(type(v), type(v).__name__)} {shown if len(shown) <= 40 else shown[:37] + '…'}"


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def read_log(path: str | Path) -> dict:
    """Read and check a saved log: every wrongly typed field is an error (E502); a log format
    this version does not know is refused (E503)."""
    from .budget import exceeded, limit

    where = Pos(str(path))
    try:
        size = Path(path).stat().st_size
        if size > limit("log_bytes"):
            raise InputError(exceeded("log_bytes", limit("log_bytes"), f" (this log has {size})"), where, "E005")
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        raise InputError("no such log file", where, "E001") from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", where, "E001") from None
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_refuse_constant)
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text (byte {exc.start})", where, "E502") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"not a JSON log: {exc.msg}", Pos(str(path), exc.lineno, exc.colno), "E502") from None
    except ValueError as exc:
        raise InputError(f"not a JSON log: {exc}", where, "E502") from None
    except RecursionError:
        raise InputError("not a rulebook log: JSON nested too deeply", where, "E502") from None
    if type(data) is not dict:
        raise InputError(f"not a rulebook log: expected a JSON object, got {_kind(data)}", where, "E502")
    if data.get("kind") == "player_log":
        seat = data.get("seat")
        seat = seat if type(seat) is str and len(seat) <= 8 and seat.isprintable() else "one player"
        raise InputError(f"this is the log as {seat} saw it (`--log-for`): it holds "
                         "no seed nor decisions, so it cannot be replayed; replay the referee's log "
                         "(`rulebook play --log`)", where, "E502")
    errors: list[RulebookError] = []
    fmt = data.get("format")
    if "format" in data and fmt != LOG_FORMAT:
        raise InputError(f"unknown log format {json.dumps(fmt)[:40]}: this version reads format {LOG_FORMAT}",
                         where, "E503")
    for key, (ok, want, required) in _FIELDS.items():
        if key not in data:
            if required:
                errors.append(InputError(f'not a rulebook log: field "{key}" is missing', where, "E502"))
            continue
        if not ok(data[key]):
            errors.append(InputError(f'field "{key}": expected {want}, got {_kind(data[key])}', where, "E502"))
    try:
        json.dumps(data).encode("utf-8")
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        errors.append(InputError("a text in the log holds a lone surrogate (not a character)", where, "E502"))
    if errors:
        raise RuleErrors(errors)
    return data


def replay(data: dict, path: str = "<log>") -> tuple[Any, list[str]]:
    """Re-play a log's decisions; returns the final state and any mismatches found."""
    where = Pos(str(path))
    for name in [data["rules"]] + list(data.get("variants") or []):
        if not Path(name).is_file():
            raise InputError(f"the log names a rule file that does not exist: {name}", where, "E502")
    game = Game.load(data["rules"], data.get("variants") or [])
    if game.d.rules_hash != data["rules_hash"]:
        raise InputError("the rule files changed since this log was written "
                         f"(hash {data['rules_hash']}, now {game.d.rules_hash})", where, "E504")
    try:
        S = game.new_game(data["players"], data["options"], data["seed"], data.get("lang"))
    except InputError as exc:  # players or options the rules refuse: the log is at fault
        if exc.pos.file == UNKNOWN.file:
            exc.pos, exc.code = where, "E502"
        raise
    problems = []
    for i, entry in enumerate(data["decisions"]):
        if not (type(entry) is list and len(entry) == 2 and all(type(x) is int for x in entry)):
            raise InputError(f"decision {i + 1} is not [player, option]: {entry!r}", where, "E502")
        player, option = entry
        if S.over:
            raise InputError(f"decision {i + 1}: the game is already over", where, "E504")
        if player not in S.current_players():
            raise InputError(f"decision {i + 1}: P{player + 1} is not deciding (waiting for "
                             f"{', '.join(f'P{p + 1}' for p in S.current_players()) or 'nobody'})", where, "E504")
        if not 0 <= option < len(S.legal_actions(player)):
            raise InputError(f"decision {i + 1}: option {option} does not exist", where, "E504")
        S.apply(player, option)
    if not S.over:
        problems.append("the log ends before the game does")
    if S.hash() != data["final_hash"]:
        problems.append(f"final state differs (hash {S.hash()}, log says {data['final_hash']})")
    return S, problems
