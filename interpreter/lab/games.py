"""The worker's job: play game number i of a Plan (every arm on the same seed) into records.

A record is plain JSON data: index, seed, agents by seat, scores, winners, decisions, rounds,
options seen, end reason, or an error (located where possible, with the `rulebook play` command
that reproduces it). Nothing here raises for a failing game: the failure becomes the record.
"""
from __future__ import annotations

import logging
import signal
import threading
import time
from typing import Any

from ..agents import make_agent, parse_agents
from ..errors import RulebookError
from ..runner import play_game
from ..threads import waiting
from .plan import Arm, Plan

_GAMES: dict = {}  # per worker process: (file, variants, coverage) -> (Game, coverage probe)
_LOG = logging.getLogger("rulebook.simulate")
_GIVEN_UP: dict = {}  # per worker process: arm -> consecutive games its generated program failed
GIVE_UP = 5  # after this many in a row, the engine plays the arm's games in this process
_SPECS: dict = {}  # agent kind as written -> its parsed spec (parsing it again for every game cost ~5 % of a small game)


class GameTimeout(BaseException):
    """Raised by the per-game alarm; a BaseException so that the engine's handling of rule
    errors (which turns exceptions into located rule errors) lets it through."""


def play_index(plan: Plan, index: int) -> list[dict]:
    """Play game `index` of every arm of `plan` (same seed, same agents); one record per arm."""
    return [play_arm(plan, arm, index) for arm in plan.arms]


def loaded(arm: Arm, coverage: bool) -> tuple[Any, Any]:
    key = (arm.file, arm.variants, coverage)
    hit = _GAMES.get(key)
    if hit is None:
        from ..game import Game
        game = Game.load(arm.file, list(arm.variants))
        probe = None
        if coverage:
            from .coverage import Probe
            probe = Probe(game)
        hit = _GAMES[key] = (game, probe)
    return hit


def play_arm(plan: Plan, arm: Arm, index: int, execution: str | None = None, trace: dict | None = None) -> dict:
    """Game `index` of `arm` as a record. `execution` (default: the arm's) is "engine",
    "transpiled" (the generated program; any exception in it: the game is played again in the
    engine) or "generated" (the program alone: its exception becomes the record's error; for
    lab/execution.py's check). A `trace` dict receives the options offered at each decision and
    the decisions."""
    execution = execution or arm.execution
    seed = plan.seed_of(index)
    kinds = plan.agents_for(index)
    record: dict = {"game": index, "seed": seed, "agents": kinds}
    if len(plan.arms) > 1:
        record["arm"] = arm.label
    state_box: list = [None]
    try:
        game, probe = loaded(arm, plan.coverage)
        if probe is not None:
            probe.reset()
        if execution == "engine" or not _generated(plan, game, arm, seed, kinds, record, state_box,
                                                    trace, fallback=execution == "transpiled"):
            _play(plan, game, arm, seed, kinds, record, state_box, trace)
        if probe is not None:
            record["coverage"] = probe.take()
    except GameTimeout:
        record["error"] = (f"the game took longer than the time limit ({plan.time_limit:g} s), "
                           f"after {_decisions(state_box[0])} decisions")
    except RulebookError as exc:
        first = exc.errors[0] if getattr(exc, "errors", None) else exc
        record["error"] = _located(plan, first.pos, f"{first.message} [{first.code}]")
    except Exception as exc:  # noqa: BLE001 - a rule did something the engine did not catch
        from ..errors import UNKNOWN, rule_position
        where = rule_position(exc)
        prefix = "internal error: " if where == UNKNOWN else ""
        record["error"] = _located(plan, where, f"{prefix}{type(exc).__name__}: {exc} [E300]")
    if "error" in record:
        record["command"] = plan.play_command(arm, index)
        for key in ("scores", "winners"):
            record.pop(key, None)
    return record


def _generated(plan: Plan, game: Any, arm: Arm, seed: int, kinds: list, record: dict, box: list,
               trace: dict | None, fallback: bool) -> bool:
    """Play the game with the arm's generated program into `record`; False if the engine must
    play it (with `fallback`: the program raised, or the generator does not cover it)."""
    from ..transpile import fastrun
    key = (arm, plan.players)
    if fallback and _GIVEN_UP.get(key, 0) >= GIVE_UP:
        return False
    counts = [0, 0]
    box[0] = counts
    offered = trace.setdefault("offered", []) if trace is not None else None
    deadline = time.monotonic() + plan.time_limit if plan.time_limit else None
    try:
        play = fastrun.program(arm.file, arm.variants, plan.players, dict(arm.options))
        if plan.time_limit:
            with _alarm(plan.time_limit):
                out = fastrun.play_whole(play, kinds, seed, game.d.max_decisions, counts, offered, deadline)
        else:
            out = fastrun.play_whole(play, kinds, seed, game.d.max_decisions, counts, offered)
    except fastrun.TimeUp:
        raise GameTimeout() from None
    except Exception as exc:  # noqa: BLE001 - whatever went wrong, the engine plays it and says what
        if not fallback:
            raise
        _GIVEN_UP[key] = _GIVEN_UP.get(key, 0) + 1
        _LOG.debug("seed %s of %s: the engine replays the game (the generated program raised %s: %s)",
                   seed, arm.file, type(exc).__name__, exc)
        if offered is not None:
            offered.clear()
        return False
    if fallback and key in _GIVEN_UP:
        del _GIVEN_UP[key]
    if trace is not None:
        trace["history"] = [list(h) for h in out.history]
    record.update(scores=out.scores, winners=out.winners, decisions=len(out.history),
                  rounds=out.rounds, options=out.options, reason=out.reason)
    return True


def _play(plan: Plan, game: Any, arm: Arm, seed: int, kinds: list, record: dict, box: list,
          trace: dict | None = None) -> None:
    agents = [_agent(kind, seed, seat) for seat, kind in enumerate(kinds)]
    seen = [0]
    deadline = time.monotonic() + plan.time_limit if plan.time_limit else None
    offered = trace.setdefault("offered", []) if trace is not None else None

    def on_decision(S: Any, player: int, choice: int) -> None:
        box[0] = S
        seen[0] += S.option_count(player)
        if offered is not None:
            offered.append(list(waiting(S)[player].pending.options))
        if deadline is not None and time.monotonic() > deadline:
            raise GameTimeout()
    if plan.time_limit:
        with _alarm(plan.time_limit):
            played = play_game(game, plan.players, dict(arm.options), seed, agents,
                               on_decision=on_decision, logging=False)
    else:
        played = play_game(game, plan.players, dict(arm.options), seed, agents,
                           on_decision=on_decision, logging=False)
    S = played.state
    box[0] = S
    if trace is not None:
        trace["history"] = [list(h) for h in played.decisions]
    scores, winners = S.returns(), S.winners()
    bad = [w for w in winners if not (isinstance(w, int) and 0 <= w < plan.players)]
    if bad:
        raise RulebookError(f"the scoring's winners gave {bad!r}: winners are seats 0 to {plan.players - 1}",
                            _scoring_pos(game, "winners"), "E313")
    # `round` is the rules' built-in variable (what a view shows as the round), read from the
    # state's plain data: building a whole view for it would cost 5-10 % of a game
    record.update(scores=scores, winners=winners, decisions=len(played.decisions),
                  rounds=S.vars.get("round") or 0, options=seen[0],
                  reason=(S.result or {}).get("reason"))


def _agent(kind: str, seed: int, seat: int) -> Any:
    """make_agent(kind, seed, seat), the kind parsed once."""
    spec = _SPECS.get(kind)
    if spec is None:
        agent = make_agent(kind, seed, seat)  # raises for a kind that is not one agent
        _SPECS[kind] = parse_agents(kind)[0]
        return agent
    return spec.build(seed, seat)


def _decisions(S: Any) -> int:
    """Decisions so far: of an engine state, or of a generated game (its counts list)."""
    if type(S) is list:
        return S[1]
    return len(S.history) if S is not None else 0


class _alarm:
    """A hard per-game limit where signals work (a worker process's main thread); elsewhere the
    limit is checked at every decision."""

    def __init__(self, seconds: float | None):
        self.seconds = seconds
        self.armed = bool(seconds) and threading.current_thread() is threading.main_thread() \
            and hasattr(signal, "setitimer")

    def __enter__(self):
        if self.armed:
            self.old = signal.signal(signal.SIGALRM, _on_alarm)
            signal.setitimer(signal.ITIMER_REAL, self.seconds)
        return self

    def __exit__(self, *exc):
        if self.armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.old)
        return False


def _on_alarm(signum, frame):
    raise GameTimeout()


def _located(plan: Plan, pos: Any, message: str) -> str:
    """`file:line:col: message`, the file shown as on the machine that started the run (a
    worker may run elsewhere: its own working directory must not change the message)."""
    from pathlib import Path

    from ..errors import UNKNOWN
    if pos is None or pos.file == UNKNOWN.file:
        return message
    if pos.file.startswith("<"):
        return f"{pos}: {message}"
    path = Path(pos.file)
    shown = plan.shown(str(path if path.is_absolute() else Path.cwd() / path))
    return f"{shown}:{pos.line}:{pos.col}: {message}" if pos.line > 0 else f"{shown}: {message}"


def _scoring_pos(game: Any, key: str):
    """Where the scoring section sets `key`, in the last rule file that mentions it."""
    from ..errors import Pos
    from ..source import YMap, load_file
    for path in reversed(game.d.files):
        try:
            doc = load_file(path)
        except Exception:  # noqa: BLE001 - best effort: the error is reported without a position
            continue
        scoring = doc.get("scoring") if isinstance(doc, YMap) else None
        if isinstance(scoring, YMap) and key in scoring:
            return scoring.value_pos(key)
    return Pos(str(game.d.files[-1]))
