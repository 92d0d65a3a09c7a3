"""The `simulate` and `compare` commands (registered by interpreter/cli.py)."""
from __future__ import annotations

import json
import os
import sys
from typing import Any

import click

from ..cli_args import parse_key_values
from ..errors import InputError

EXIT_INVALID, EXIT_INTERRUPTED = 1, 130


def _run_options(fn):
    """Options shared by simulate and compare."""
    for decorator in reversed([
        click.option("--players", type=int, default=None, help="Number of players (default: the game's)."),
        click.option("--seed", type=int, default=0, show_default=True, help="Seed of game 1 (game i: seed + i - 1)."),
        click.option("--agents", default="random", show_default=True,
                     help="Agents per seat, as for `play` (e.g. mcts:200,random); one kind for every seat."),
        click.option("--rotate", is_flag=True, help="Move the agents one seat each game (every agent plays every seat)."),
        click.option("--jobs", type=int, default=1, show_default=True, help="Worker processes (0: one per CPU)."),
        click.option("--backend", type=click.Choice(["local", "dask"]), default="local", show_default=True,
                     help="Where to play: local processes, or a Dask cluster (extra [cluster])."),
        click.option("--address", default=None, help="Dask scheduler address, e.g. tcp://10.0.0.5:8786."),
        click.option("--time-limit", type=float, default=None, metavar="SECONDS",
                     help="A game taking longer fails (it is reported with its seed)."),
        click.option("--report", "report_path", type=click.Path(), default=None,
                     help="Write a report: FILE.html (tables and plots) or FILE.png (one figure)."),
        click.option("--coverage", is_flag=True, help="Count which rules fired (on with --report)."),
        click.option("--out", "out_path", type=click.Path(), default=None,
                     help="Stream one JSON line per game to this file."),
        click.option("--resume", is_flag=True, help="Continue the --out file: play only the games not in it."),
        click.option("--json", "as_json", is_flag=True, help="Print one JSON object with the statistics."),
        click.option("--execution", type=click.Choice(["auto", "engine", "transpiled"]), default="auto",
                     show_default=True,
                     help="Who plays: the engine, or the program generated from the rule file (same games; "
                          "auto: the program when it covers the rule file and the agents are random/first/last)."),
        click.option("--checked", type=int, default=3, show_default=True, metavar="N",
                     help="With a generated program: play the first N games also in the engine and compare."),
    ]):
        fn = decorator(fn)
    return fn


@click.command()
@click.argument("file", type=click.Path())
@click.option("--games", type=int, required=True, help="How many games.")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="Game option (repeatable).")
@click.option("--variant", "variants", multiple=True, type=click.Path(), help="House-rule overlay file (repeatable).")
@_run_options
def simulate(file, games, options, variants, **kw) -> None:
    """Play many games and report statistics with 95 % intervals."""
    from .plan import Arm
    arm = Arm("base", _absolute(file), tuple(map(_absolute, variants)), given=tuple(parse_key_values(options).items()))
    _execute(file, games, [arm], kw, compare=False)


@click.command()
@click.argument("file", type=click.Path())
@click.option("--games", type=int, required=True, help="How many games per arm.")
@click.option("--variant", "variants", multiple=True, type=click.Path(),
              help="A variant to compare with the base game (repeatable: one arm each).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE[,KEY=VALUE]",
              help="An option set to compare with the base game (repeatable: one arm each).")
@_run_options
def compare(file, games, variants, options, **kw) -> None:
    """Play the base game and each variant or option set on the same seeds; show differences."""
    from .plan import Arm
    if not variants and not options:
        raise click.UsageError("give at least one --variant or --option to compare with the base game")
    arms = [Arm("base", _absolute(file))]
    arms += [Arm(v, _absolute(file), (_absolute(v),)) for v in variants]
    for text in options:
        given = parse_key_values([p for p in text.split(",") if p.strip()])
        arms.append(Arm(",".join(f"{k}={v}" for k, v in given.items()), _absolute(file), given=tuple(given.items())))
    _execute(file, games, arms, kw, compare=True)


def _absolute(path: str) -> str:
    """Rule files by absolute path: workers (maybe on other machines) do not share our directory."""
    return os.path.abspath(path)


def _execute(file: str, games: int, arms: list, kw: dict, compare: bool) -> None:
    from .backends import make_backend
    from .plan import Plan
    from .runner import run
    from .summary import summarise

    _check_usage(games, kw)
    arms, loaded, players = _load_arms(arms, kw["players"])
    agents = _agents(kw["agents"], players)
    plan = Plan(tuple(arms), players, tuple(agents), kw["seed"], games, kw["rotate"], kw["time_limit"],
                coverage=kw["coverage"] or bool(kw["report_path"]), cwd=os.getcwd())
    plan, why = _execution(plan, kw)
    out = _results_file(plan, loaded, kw)
    backend = make_backend(kw["backend"], kw["jobs"], kw["address"])
    comparison = None
    if compare:
        from .comparison import Comparison
        comparison = Comparison([a.label for a in arms], players)
    result = run(plan, backend, out, progress=True, observers=(comparison,) if comparison else ())
    with_agents = kw["agents"] != "random" or kw["rotate"]
    data = summarise(result, loaded, with_agents, comparison)
    data["execution"] = {arm.label: arm.execution for arm in plan.arms}
    if why:
        data["execution_why"] = why
    _output(data, loaded[0].name, kw)
    if result.interrupted:
        sys.exit(EXIT_INTERRUPTED)
    if data["errors"]:
        sys.exit(EXIT_INVALID)


def _check_usage(games: int, kw: dict) -> None:
    if games < 1:
        raise click.UsageError("--games must be at least 1")
    if kw["resume"] and not kw["out_path"]:
        raise click.UsageError("--resume continues an --out file: give --out")
    if kw["time_limit"] is not None and kw["time_limit"] <= 0:
        raise click.UsageError("--time-limit must be more than 0 seconds")
    if kw["checked"] < 0:
        raise click.UsageError("--checked must be 0 or more")
    if kw["jobs"] < 0:
        raise click.UsageError("--jobs must be 0 (one per CPU) or more")
    if kw["address"] and kw["backend"] != "dask":
        raise click.UsageError("--address is for --backend dask")
    report = kw["report_path"]
    if report:
        if not report.lower().endswith((".html", ".htm", ".png")):
            raise click.UsageError("--report writes FILE.html or FILE.png")
        from .report import require_plotting
        require_plotting()  # before the run, not after it


def _load_arms(arms: list, players: int | None) -> tuple[list, list, int]:
    """Each arm's game, loaded and checked, with its options resolved."""
    from dataclasses import replace

    from ..game import Game
    out, loaded = [], []
    for i, arm in enumerate(arms):
        game = Game.load(arm.file, list(arm.variants))
        n = game.default_players if players is None else players
        opts = game.resolve_options(dict(arm.given))
        problems = game.check_setup(n, opts)
        if problems:
            raise InputError((f"{arm.label}: " if i else "") + "; ".join(problems))
        out.append(replace(arm, options=tuple(opts.items())))
        loaded.append(game)
    return out, loaded, loaded[0].default_players if players is None else players


def _execution(plan: Any, kw: dict) -> tuple[Any, dict]:
    """The plan with each arm's form of play chosen (lab/execution.py), and why arms run in the
    engine ({label: why}); a difference found by the checked start is also said on stderr."""
    from .execution import choose, describe
    plan, decisions = choose(plan, kw["execution"], kw["checked"])
    for line in describe(decisions):
        click.echo(line, err=True)
    return plan, {d.label: d.why for d in decisions if d.execution == "engine" and d.why}


def _results_file(plan: Any, loaded: list, kw: dict) -> Any:
    if not kw["out_path"]:
        return None
    from .store import ResultsFile
    description = dict(plan.describe(), rules_hash=[g.d.rules_hash for g in loaded])
    return ResultsFile(kw["out_path"], description, kw["resume"])


def _output(data: dict, name: str, kw: dict) -> None:
    if kw["report_path"]:
        from .report import write_report
        write_report(kw["report_path"], data, name)
    if kw["as_json"]:
        click.echo(json.dumps(data))
    else:
        from .text import print_summary
        print_summary(data, name)
    shown = data["failed_games"][:10]
    for failed in shown:
        arm = f" ({failed['arm']})" if "arm" in failed else ""
        click.echo(f"game {failed['game'] + 1}{arm} (seed {failed['seed']}) failed: {failed['error']}\n"
                   f"  reproduce: {failed['command']}", err=True)
    if data["errors"] > len(shown):
        more = data["errors"] - len(shown)
        where = f" (all are in {kw['out_path']})" if kw["out_path"] else " (use --out FILE.jsonl to keep them all)"
        click.echo(f"… and {more} more failed games{where}", err=True)


def _agents(spec: str, players: int) -> list[str]:
    """Agent kinds as written, one per seat; each checked by the agent registry."""
    from ..agents import make_agent, parse_agents
    kinds = [s.name for s in parse_agents(spec)]  # settings stay with their agent: ismcts:50,depth=10
    if len(kinds) == 1:
        kinds = kinds * players
    if len(kinds) != players:
        raise InputError(f"--agents lists {len(kinds)} agents for {players} players")
    for seat, kind in enumerate(kinds):
        if kind.lower() == "human":
            raise InputError("simulations cannot ask a human: choose another agent than `human`")
        make_agent(kind, 0, seat)  # raises an InputError naming the valid kinds
    return kinds


COMMANDS: list[Any] = [simulate, compare]
