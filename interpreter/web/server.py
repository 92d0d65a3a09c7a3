"""`rulebook serve`: start (or resume) games, print one private URL per human seat, serve."""
from __future__ import annotations

import secrets
import sys
from typing import Any

import click

from ..errors import InputError
from .sessions import TABLE_SEAT, Refused, Sessions, check_setup
from .store import Store


def _url(host: str, port: int, path: str) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}{path}"


def print_urls(session: Any, host: str, port: int) -> None:
    kinds = session.kinds
    for token, seat in sorted(session.tokens.items(), key=lambda kv: kv[1]):
        if seat == TABLE_SEAT:
            who = "hot-seat table (" + ", ".join(f"P{i + 1}" for i in session.human_seats()) + ")"
        else:
            who = f"P{seat + 1}"
        click.echo(f"  {who}: {_url(host, port, '/play/' + token)}")
    ai = [f"P{i + 1} {k}" for i, k in enumerate(kinds) if k != "human"]
    if ai:
        click.echo(f"  AI seats: {', '.join(ai)}")


def serve(file: str | None, *, players: int | None, options: dict, variants: list[str], seed: int,
          seats: list[str], hot_seat: bool, host: str, port: int, db: str, max_games: int,
          idle_minutes: float, ai_delay: float, replay_log: str | None, lang: str | None = None) -> None:
    try:
        import uvicorn
        from .app import create_app
    except ImportError as exc:  # the optional extra is missing
        raise InputError(f"rulebook serve needs the web extra: pip install 'rulebook[web]' ({exc})") from None
    if replay_log:
        from .replay import ReplaySession
        replay = ReplaySession(replay_log, secrets.token_urlsafe(24))
        app = create_app(Sessions(Store(":memory:")), replay=replay)
        click.echo(f"{replay.game.name}: replay of {replay_log} ({replay.steps} decisions)")
        click.echo(f"  replay: {_url(host, port, '/replay/' + replay.token)}")
    else:
        if file is None:
            raise click.UsageError("give a rule file, or --replay LOG")
        game = check_setup(file, variants, players, options, seed, seats)  # before the database is touched
        store = Store(db)
        sessions = Sessions(store, max_games=max_games, idle_seconds=idle_minutes * 60, ai_delay=ai_delay)
        sessions.remember_rules(file, variants, game)
        for problem in sessions.resume_all():
            click.echo(f"warning: {problem}", err=True)
        resumed = list(sessions.games.values())
        if resumed:
            click.echo(f"resumed {len(resumed)} game(s) from {db}; their URLs still work:")
            for session in resumed:
                click.echo(f"{session.game.name} (game {session.id}, {session.version} decisions):")
                print_urls(session, host, port)
        if not any(not s.state.is_terminal() for s in resumed):
            try:
                session = sessions.create(file, variants, players, options, seed, seats, hot_seat, lang)
            except Refused as exc:
                raise InputError(f"{db}: {exc.message}") from None
            click.echo(f"{session.game.name}: {len(session.kinds)} players, seed {seed}; games kept in {db}")
            print_urls(session, host, port)
        admin = secrets.token_urlsafe(24)
        new_game = {"file": file, "variants": variants, "players": players, "options": options,
                    "seed": seed, "seats": seats, "lang": lang}
        app = create_app(sessions, admin_token=admin, new_game=new_game)
        click.echo(f"  more games: POST {_url(host, port, '/api/games')} with 'Authorization: Bearer {admin}'")
    if host not in ("127.0.0.1", "localhost", "::1"):
        click.echo(f"warning: listening on {host}: anyone who can reach it and has a URL can play", err=True)
    click.echo("serving; press Ctrl+C to stop", err=True)
    sys.stdout.flush()
    uvicorn.run(app, host=host, port=port, log_level="warning")
