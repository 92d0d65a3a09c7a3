"""Which form plays a run's games: the engine, or the program generated from the rule file
(interpreter/transpile/). Decided once per arm, in the process that starts the run, before any
game: the workers only follow `Arm.execution`.

`auto` takes the generated program when nothing needs the engine's states (every seat's agent
is random, first or last; no rule coverage), the run is long enough to pay for generating it
(the engine's CPU time of one of the first games times the number of games: SHORT_RUN seconds),
the generator covers the configuration, and the first `checked` games of the run, played both
ways, are the same games (same options offered, decisions, scores, winners, rounds, reason). A difference there is an engine or generator bug:
it is reported with its seed and the engine plays the whole run. `transpiled` insists: it
fails when the program cannot be used. `engine` never generates anything."""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass, replace

from ..agents import parse_agents
from ..errors import InputError
from .games import play_arm
from .plan import Arm, Plan

_LOG = logging.getLogger("rulebook.simulate")
MODES = ("auto", "engine", "transpiled")
CHECKED = 3  # games of each arm played both ways before a run uses the generated program
# auto: a run that the engine would play in less CPU time than this is left to it (generating a
# program and the checked start cost about 2-3 loads and 5 engine games: 0.05-0.2 s)
SHORT_RUN = 0.5


@dataclass(frozen=True)
class Decision:
    """The form chosen for one arm, and why (told once for the run, not per game)."""
    label: str
    execution: str
    why: str = ""
    bug: bool = False  # the checked start found a difference
    shown: bool = False  # worth telling (not what the user asked for, nor the agents' or coverage's need)


def choose(plan: Plan, mode: str = "auto", checked: int = CHECKED) -> tuple[Plan, list[Decision]]:
    """The plan with each arm's form set, and what was decided."""
    if mode not in MODES:
        raise InputError(f"--execution must be one of {', '.join(MODES)}, not {mode!r}")
    arms, decisions = [], []
    for arm in plan.arms:
        decision = _choose_arm(plan, arm, mode, checked)
        arms.append(replace(arm, execution=decision.execution))
        decisions.append(decision)
    return replace(plan, arms=tuple(arms)), decisions


def needs_engine(plan: Plan) -> str:
    """Why the run needs the engine's states whatever the rule file ('' if it does not)."""
    if plan.coverage:
        return "rule coverage counts the engine's rules as they run"
    for spec in parse_agents(",".join(plan.agents)):
        if spec.kind not in ("random", "first", "last") or spec.settings or spec.budget is not None:
            return f"the agent {spec.name} reads the engine's states"
    return ""


def _choose_arm(plan: Plan, arm: Arm, mode: str, checked: int) -> Decision:
    if mode == "engine":
        return Decision(arm.label, "engine", "asked for (--execution engine)")
    why = needs_engine(plan)
    uncovered = False
    # the first two games by the engine: the run's cost estimated (a first game pays warm-ups),
    # and the engine's side of the checked start
    played = [_engine_game(plan, arm, i) for i in range(min(2, plan.games))] if not why else []
    estimate = min(cpu for _, _, cpu in played) * plan.games if played else 0.0
    if mode == "auto" and played and estimate < SHORT_RUN:
        return Decision(arm.label, "engine", f"a short run (under {SHORT_RUN:g} s of CPU in the engine): "
                                             "generating the program would not pay")
    if not why:
        from ..transpile import Unsupported, fastrun
        try:
            fastrun.program(arm.file, arm.variants, plan.players, dict(arm.options))
        except Unsupported as exc:
            why, uncovered = str(exc), True
    if why:
        if mode == "transpiled":
            raise InputError(f"--execution transpiled: {arm.label}: {why}")
        return Decision(arm.label, "engine", why, shown=uncovered)
    finished, last = 0, ""
    for index in range(min(checked, plan.games)):
        difference, failed = check_game(plan, arm, index, played[index] if index < len(played) else None)
        finished += not failed
        last = failed or last
        if difference:
            why = (f"the generated program and the engine differ on seed {plan.seed_of(index)} "
                   f"(an engine or generator bug, please report it): {difference}")
            if mode == "transpiled":
                raise InputError(f"--execution transpiled: {arm.label}: {why}")
            return Decision(arm.label, "engine", why, bug=True, shown=True)
    if last and not finished:  # e.g. a construct the program refuses when it is reached
        why = f"the generated program finished none of the {min(checked, plan.games)} checked games ({last})"
        if mode == "transpiled":
            raise InputError(f"--execution transpiled: {arm.label}: {why}")
        return Decision(arm.label, "engine", why, shown=True)
    return Decision(arm.label, "transpiled")


def _engine_game(plan: Plan, arm: Arm, index: int) -> tuple[dict, dict, float]:
    """Game `index` of `arm` played by the engine: its record, its trace, its CPU time."""
    trace: dict = {}
    start = time.process_time()
    record = play_arm(replace(plan, time_limit=None), arm, index, "engine", trace)  # slow is no difference
    return record, trace, time.process_time() - start


def check_game(plan: Plan, arm: Arm, index: int, played: tuple | None = None) -> tuple[str, str]:
    """Where game `index` of `arm` differs between the engine and the generated program ('' if
    it does not, or if the program raised: such a game is replayed in the engine anyway), and
    what the program raised ('' if it finished). `played`: the engine's game (_engine_game)."""
    from ..transpile.compare import Trace, first_difference
    engine, engine_trace, _ = played or _engine_game(plan, arm, index)
    program_trace: dict = {}
    program = play_arm(replace(plan, time_limit=None), arm, index, "generated", program_trace)
    if "error" in program:
        return "", program["error"]
    if "error" in engine:
        return f"the engine failed ({engine['error']}), the program finished", ""
    differs = first_difference(
        Trace(engine.get("scores"), engine_trace["history"], engine_trace["offered"]),
        Trace(program.get("scores"), program_trace["history"], program_trace["offered"]))
    if differs:
        return differs, ""
    for key in sorted(set(engine) | set(program)):
        if engine.get(key) != program.get(key):
            return f"{key}: engine {engine.get(key)!r}, program {program.get(key)!r}", ""
    return "", ""


def describe(decisions: list[Decision]) -> list[str]:
    """One line per arm whose checked start found a difference, for the run's stderr (why
    another arm runs in the engine goes to the `rulebook.simulate` logger: a rule file the
    generator does not cover is the usual case, not news)."""
    for d in decisions:
        if d.shown and not d.bug:
            _LOG.info("execution: %s: the engine plays these games: %s", d.label, d.why)
    return [f"execution: {d.label}: the engine plays every game: {d.why}" for d in decisions if d.bug]
