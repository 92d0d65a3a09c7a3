"""The `rulebook` command: validate, play, simulate, compare, replay, test, changes, serve, functions.

Exit codes: 0 success, 1 invalid input (rules, options, logs), 2 usage error. Errors go to
stderr as `file:line:col: message`. Set RULEBOOK_DEBUG=1 to see Python tracebacks of internal
errors.
"""
from __future__ import annotations

import atexit
import gc
import json
import os
import sys
import traceback

import click

from .cli_args import parse_key_values
from .errors import InputError, RulebookError, flatten

EXIT_INVALID = 1


def _fail(error: RulebookError) -> None:
    for e in flatten([error]):
        click.echo(str(e), err=True)
    sys.exit(EXIT_INVALID)


def _guard(fn):
    """Run a command; turn our errors into `file:line:col: message` and exit code 1."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except RulebookError as exc:
            _fail(exc)
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            sys.exit(130)
        except BrokenPipeError:  # output piped into `head` and the like: stop quietly
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            sys.exit(0)
        except (click.ClickException, click.exceptions.Exit, SystemExit):
            raise
        except Exception as exc:  # noqa: BLE001 - an engine bug: say so, without a traceback
            if os.environ.get("RULEBOOK_DEBUG"):
                traceback.print_exc()
            click.echo(f"internal error: {type(exc).__name__}: {exc} "
                       "(set RULEBOOK_DEBUG=1 for details; please report it)", err=True)
            sys.exit(3)
    return wrapper


def _parse_options(pairs: tuple[str, ...]) -> dict[str, str]:
    return parse_key_values(pairs, "--option")


def _set_limits(ctx, param, values):
    from .budget import clear_cli_limits, set_cli_limit
    clear_cli_limits()  # each command starts from the defaults (matters when run in-process)
    for pair in values or ():
        name, sep, number = pair.partition("=")
        try:
            if not sep:
                raise ValueError(f"expects NAME=N, got {pair!r}")
            set_cli_limit(name.strip(), int(number))
        except ValueError as exc:
            raise click.BadParameter(str(exc), ctx=ctx, param=param) from None
    return values


class _Rulebook(click.Group):
    """The `rulebook` command group. Run on the process's own command line (args=None, as the
    `rulebook` script and `python -m interpreter` do; a test's CliRunner passes its args), it
    first moves what is loaded by then (modules, classes, functions: alive until the process
    ends) out of the cycle collector's sight with gc.freeze(), so no collection walks it again,
    nor the one at exit: about a tenth of the CPU of a first `rulebook validate`."""

    own_process = False  # set by main(): the process ends with this command

    def main(self, args=None, *rest, **kwargs):
        if args is None:
            _Rulebook.own_process = True
            gc.freeze()
        return super().main(args, *rest, **kwargs)


@click.group(cls=_Rulebook, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rulebook", message="rulebook %(version)s")
@click.option("--limit", "limits", multiple=True, metavar="NAME=N", callback=_set_limits,
              expose_value=False, is_eager=True,
              help="Set a resource limit (steps, work, depth, sequence, int_bits, pieces, file_bytes, "
                   "yaml_nodes, yaml_bytes, nesting, literal); see docs/robustness.md.")
def main() -> None:
    """Play, check and simulate tabletop games written as YAML rule files."""


# ---------------------------------------------------------------------- validate
@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@_guard
def validate(paths: tuple[str, ...]) -> None:
    """Check rule files (and overlays): exit 0 if all are valid."""
    from .layout import check_layouts
    from .loader import load_game
    from .rulefiles import find_rule_files

    files = find_rule_files(list(paths))
    if not files:
        raise InputError(f"no rule files found in {', '.join(paths)}")
    if _Rulebook.own_process:  # the collection Python runs at exit would walk every game loaded
        atexit.register(gc.freeze)  # here (nothing is left open to finalise): ~5 % of a validate
    bad = 0
    for f in files:
        try:
            game = load_game(f, check_only=True)
            check_layouts(game)
            _check_default_setup(game)
        except RulebookError as exc:
            bad += 1
            for e in flatten([exc]):
                click.echo(str(e), err=True)
            continue
        for warning in game.warnings:
            click.echo(str(warning), err=True)
        click.echo(f"ok: {f} ({game.id})")
    if bad:
        sys.exit(EXIT_INVALID)


def _check_default_setup(definition) -> None:
    """`play FILE` with no flags must start: the default player count and options must pass the
    file's own constraints (E108)."""
    from pathlib import Path

    from .errors import Pos, RuleError
    from .game import Game
    from .overlay import _display

    game = Game(definition)
    n = game.default_players
    problems = game.check_setup(n, game.resolve_options())
    if problems:
        raise RuleError(f"the default setup ({n} players, default options) is refused: {'; '.join(problems)}",
                        Pos(_display(Path(definition.files[-1]))), "E108")


# ---------------------------------------------------------------------- play
def _common_game_options(fn):
    fn = click.option("--variant", "variants", multiple=True, type=click.Path(), help="House-rule overlay file (repeatable).")(fn)
    fn = click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="Game option (repeatable).")(fn)
    fn = click.option("--seed", type=int, default=0, show_default=True, help="Random seed.")(fn)
    fn = click.option("--players", type=int, default=None, help="Number of players (default: the game's).")(fn)
    return fn


@main.command()
@click.argument("file", type=click.Path())
@_common_game_options
@click.option("--agents", default="random", show_default=True, help="Agents, one per seat (one alone plays every seat): random, first, last, human, greedy, "
              "mcts[:N|:2s], ismcts[:N|:2s]; settings after an agent: depth=N, c=X, samples=N, reuse=no "
              "(e.g. ismcts:2s,depth=20,random). See docs/agents.md.")
@click.option("--log", "log_path", type=click.Path(), help="Save the game log (JSON) for `rulebook replay` "
              "(the referee's record: seed and every decision; never give it to a player).")
@click.option("--log-for", "logs_for", nargs=2, multiple=True, metavar="PLAYER FILE",
              help="Save the log as PLAYER (P1, P2, … or 1, 2, …) saw it: it may be handed to that player (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object with the result.")
@click.option("--quiet", is_flag=True, help="Do not print the game log.")
@click.option("--lang", default=None, help="Show labels in this language where the rules give them (e.g. pt, es).")
@_guard
def play(file, players, seed, options, variants, agents, log_path, logs_for, as_json, quiet, lang) -> None:
    """Play one game."""
    from .agents import make_agents
    from .game import Game
    from .runner import check_output_path, make_log, play_game, player_log, save_log
    from .scoring import outcome_of

    if log_path:
        check_output_path(log_path, "--log")
    for _, path in logs_for:
        check_output_path(path, "--log-for")
    game = Game.load(file, variants)
    n = game.default_players if players is None else players
    seats_for = [(_seat(who, n, "--log-for"), path) for who, path in logs_for]
    opts = game.resolve_options(_parse_options(options))
    seats = make_agents(agents, n, seed)
    human = "human" in agents
    try:
        played = play_game(game, n, opts, seed, seats, logging=True, lang=lang)
    except (RulebookError, KeyboardInterrupt) as exc:  # show what happened until then, and keep it
        S = getattr(exc, "state", None)
        if S is not None:
            if not quiet and not as_json and not human and isinstance(exc, RulebookError):
                from .render import print_log
                print_log(S.log_lines(None))
            if log_path:
                from .runner import Played
                data = make_log(game, Played(S, list(S.history)), file, n, opts, seed, list(variants))
                data["error"] = str(exc) or "interrupted"
                save_log(log_path, data)
                if isinstance(exc, KeyboardInterrupt):
                    click.echo(f"interrupted: the game so far is saved in {log_path}", err=True)
            for viewer, path in seats_for:
                save_log(path, player_log(S, viewer))
        raise
    S = played.state
    if log_path:
        save_log(log_path, make_log(game, played, file, n, opts, seed, list(variants)))
    for viewer, path in seats_for:
        save_log(path, player_log(S, viewer))
    if as_json:
        click.echo(json.dumps({
            "game": game.id, "players": n, "seed": seed, "options": opts, "scores": S.returns(),
            "winners": S.winners(), "outcome": outcome_of(S.winners()),
            "decisions": len(played.decisions),
            "reason": (S.result or {}).get("reason"), "final_hash": S.hash(),
        }))
        return
    from .render import print_grids, print_log, print_result
    if human:  # each person sees the end of the game from their own seat
        for p, seat in enumerate(seats):
            if hasattr(seat, "finish"):
                seat.finish(S, p)
    elif not quiet:
        print_log(S.log_lines(None))
        print_grids(S.view(None))  # the final position
    print_result(game, S)


# ---------------------------------------------------------------------- simulate, compare
def _register_lab() -> None:
    from .lab.commands import COMMANDS
    for command in COMMANDS:
        command.callback = _guard(command.callback)
        main.add_command(command)


_register_lab()


# ---------------------------------------------------------------------- audit
@main.command("audit")
@click.argument("file", type=click.Path())
@_common_game_options
@click.option("--games", type=int, default=5, show_default=True, help="How many random games to audit.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object with the verdict.")
@_guard
def audit_cmd(file, players, seed, options, variants, games, as_json) -> None:
    """Check that hidden information cannot leak: exit 1 on a leak (docs/hidden-information.md)."""
    from .audit import audit_command

    if games < 1:
        raise click.UsageError("--games must be at least 1")
    sys.exit(audit_command(file, players, seed, _parse_options(options), list(variants), games, as_json))


# ---------------------------------------------------------------------- replay
@main.command()
@click.argument("log", type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object with the verdict.")
@click.option("--as", "as_player", default=None, metavar="PLAYER",
              help="Also give the log as PLAYER (P1, P2, … or 1, 2, …) saw it (to --out, or printed).")
@click.option("--out", "out_path", type=click.Path(), default=None,
              help="With --as: save that player's log (JSON) to this file.")
@_guard
def replay(log, as_json, as_player, out_path) -> None:
    """Replay a saved game log and check that it reproduces exactly."""
    from .runner import check_output_path, player_log, read_log, replay as do_replay, save_log

    if out_path and as_player is None:
        raise click.UsageError("--out needs --as PLAYER")
    if out_path:
        check_output_path(out_path, "--out")
    data = read_log(log)
    viewer = None if as_player is None else _seat(as_player, data["players"], "--as")
    S, problems = do_replay(data, log)
    if viewer is not None:
        seen = player_log(S, viewer)
        if out_path:
            save_log(out_path, seen)
        elif not as_json:
            for line in seen["log"]:
                click.echo(line)
    verdict = {"log": log, "game": data["game"], "decisions": len(data["decisions"]),
               "reproduced": not problems, "problems": problems, "scores": S.returns(),
               "winners": S.winners(), "final_hash": S.hash()}
    if viewer is not None and not out_path:
        verdict["player_log"] = seen
    if as_json:
        click.echo(json.dumps(verdict))
    elif not problems:
        click.echo(f"ok: {log} reproduces exactly ({len(data['decisions'])} decisions, hash {S.hash()})")
    for p in problems:
        click.echo(f"{log}: {p} [E504]", err=True)
    if problems:
        sys.exit(EXIT_INVALID)


def _seat(text: str, players: int, flag: str) -> int:
    """A player named on the command line (P2 or 2, counted from 1) as a seat index."""
    digits = text[1:] if text[:1] in ("P", "p") else text
    if not digits.isdigit() or not 1 <= int(digits) <= players:
        raise click.BadParameter(f"{text!r} is not a player of this game: expected P1 … P{players} "
                                 f"(or 1 … {players})", param_hint=flag)
    return int(digits) - 1


# ---------------------------------------------------------------------- test
@main.command("test")
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("-k", "keyword", default=None, help="Only scenarios whose name contains this text.")
@_guard
def test_cmd(paths, keyword) -> None:
    """Run YAML scenario tests."""
    from .rulefiles import find_scenario_files
    from .scenario import ScenarioFile

    files = find_scenario_files(list(paths))
    if not files:
        raise InputError(f"no scenario files found in {', '.join(paths)}")
    passed = failed = 0
    for f in files:
        try:
            sf = ScenarioFile(f)
        except RulebookError as exc:
            failed += 1
            for e in flatten([exc]):
                click.echo(f"FAIL {e}", err=True)
            continue
        for name, spec, pos in sf.scenarios():
            if keyword and keyword not in name:
                continue
            result = sf.run(spec, pos)  # never raises: a failure is a result
            if result.passed:
                passed += 1
                click.echo(f"PASS {f}: {name}")
            else:
                failed += 1
                click.echo(result.line(), err=True)
    click.echo(f"{passed} passed, {failed} failed")
    if failed:
        sys.exit(EXIT_INVALID)


# ---------------------------------------------------------------------- changes
@main.command()
@click.argument("file", type=click.Path())
@_guard
def changes(file) -> None:
    """Show what an expansion or variant file changes in the file it extends."""
    from .overlay import describe_changes
    from .source import YMap, load_file

    raw = load_file(file)
    if not isinstance(raw, YMap) or "extends" not in raw:
        raise InputError(f"{file} does not extend another file: it changes nothing")
    from pathlib import Path
    from .overlay import load_chain, resolve_base
    base, _, _ = load_chain(resolve_base(Path(file).resolve(), raw))
    click.echo(f"{file} extends {raw['extends']}:")
    for line in describe_changes(raw, base):
        click.echo("  " + line)


# ---------------------------------------------------------------------- serve
@main.command()
@click.argument("file", type=click.Path(), required=False)
@_common_game_options
@click.option("--seats", default="human", show_default=True,
              help="Comma-separated seat kinds: human, random, mcts:N, ... (one kind: every seat).")
@click.option("--hot-seat", is_flag=True, help="One page plays every human seat, hiding each hand until its player confirms.")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=int, default=8000, show_default=True, help="Port to listen on.")
@click.option("--db", default="rulebook-games.sqlite3", show_default=True, type=click.Path(),
              help="SQLite file the games are kept in (games in it are resumed).")
@click.option("--max-games", type=int, default=64, show_default=True, help="Most games this server runs at once.")
@click.option("--idle-minutes", type=float, default=360, show_default=True, help="Games untouched this long are removed.")
@click.option("--ai-delay", type=float, default=0.6, show_default=True, help="Seconds an AI seat waits before it moves.")
@click.option("--replay", "replay_log", type=click.Path(), help="Serve a replay viewer for a saved log instead.")
@click.option("--lang", default=None, help="Show labels in this language where the rules give them (e.g. pt, es).")
@_guard
def serve(file, players, seed, options, variants, seats, hot_seat, host, port, db, max_games, idle_minutes,
          ai_delay, replay_log, lang) -> None:
    """Play in the browser: prints one private URL per human seat."""
    from .web.server import serve as run_server

    run_server(file, players=players, options=_parse_options(options), variants=list(variants), seed=seed,
               seats=seats.split(","), hot_seat=hot_seat, host=host, port=port, db=db, max_games=max_games,
               idle_minutes=idle_minutes, ai_delay=ai_delay, replay_log=replay_log, lang=lang)


# ---------------------------------------------------------------------- functions
@main.command()
def functions() -> None:
    """List the DSL's built-in functions."""
    from .builtins import load_all

    for name, b in sorted(load_all().items()):
        click.echo(f"{name:20} {b.doc}")


if __name__ == "__main__":  # pragma: no cover
    main()
