"""The Starlette application: pages, the JSON API, WebSocket notices, static files.

    GET  /play/{token}              a seat's page (or the hot-seat table's)
    GET  /api/play/{token}[?seat=N] that seat's view as JSON (seat=N only for the table token)
    POST /api/play/{token}          {"option": i, "version": v[, "seat": N]} → the new view
    WS   /ws/{token}                {"version": n} whenever the game changes
    POST /api/games                 (admin token) start another game with the server's rules
    GET  /replay/{token}, /api/replay/{token}?step=K&seat=N|all

A token reads and acts for its own seat only; anything else is 403 with an empty body.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import time
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..errors import InputError
from .replay import ReplaySession, parse_step
from .sessions import TABLE_SEAT, Refused, Sessions

MAX_BODY = 4096
SECURITY_HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",  # page URLs carry the token: never pass them on
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": ("default-src 'self'; connect-src 'self'; img-src 'self' data:; "
                                "style-src 'self'; script-src 'self'; frame-ancestors 'none'"),
}


def _static_dir() -> str:
    return str(resources.files("interpreter.web") / "static")


def _page(name: str) -> Response:
    html = (resources.files("interpreter.web") / "static" / name).read_text(encoding="utf-8")
    return Response(html, media_type="text/html; charset=utf-8", headers=SECURITY_HEADERS)


def _json(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers=SECURITY_HEADERS)


def _refusal(exc: Refused) -> Response:
    if exc.status == 403:
        return Response(b"", status_code=403, headers=SECURITY_HEADERS)  # nothing shown
    return _json({"error": exc.message}, exc.status)


async def _read_json(request: Request) -> dict:
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise Refused(415, "send JSON (Content-Type: application/json)")
    body = await request.body()
    if len(body) > MAX_BODY:
        raise Refused(413, f"request body larger than {MAX_BODY} bytes")
    try:
        data = json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise Refused(400, f"malformed JSON: {exc}") from None
    if not isinstance(data, dict):
        raise Refused(400, "expected a JSON object like {\"option\": 0, \"version\": 3}")
    unknown = set(data) - {"option", "version", "seat"}
    if unknown:
        raise Refused(400, f"unknown field(s) {', '.join(sorted(unknown))}; fields: option, version, seat")
    if "option" not in data:
        raise Refused(400, "missing field \"option\" (the index of the chosen option)")
    version = data.get("version")
    if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
        raise Refused(400, f"version must be a whole number, not {version!r}")
    return data


def create_app(sessions: Sessions, *, admin_token: str | None = None,
               replay: ReplaySession | None = None, new_game: dict | None = None,
               expire_every: float = 60.0) -> Starlette:
    """`new_game`: the setup POST /api/games starts (file, variants, players, options, seed)."""

    async def index(request: Request) -> Response:
        return Response("rulebook server: open the private URL printed when it started.\n",
                        media_type="text/plain", headers=SECURITY_HEADERS)

    async def play_page(request: Request) -> Response:
        try:
            sessions.lookup(request.path_params["token"])
        except Refused as exc:
            return _refusal(exc)
        return _page("play.html")

    async def play_state(request: Request) -> Response:
        try:
            session, token_seat = sessions.lookup(request.path_params["token"])
            asked = request.query_params.get("seat")
            if token_seat == TABLE_SEAT and asked is None:
                return _json(session.table_summary())
            seat = session.seat_for(token_seat, asked)
            return _json(session.payload(seat))
        except Refused as exc:
            return _refusal(exc)

    async def play_decide(request: Request) -> Response:
        try:
            session, token_seat = sessions.lookup(request.path_params["token"])
            data = await _read_json(request)
            seat = session.seat_for(token_seat, data.get("seat"))
            started = time.perf_counter()
            session.decide(seat, data["option"], data.get("version"))
            response = _json(session.payload(seat))
            # how long the server worked on it (apply, commit, the new view), for load tests
            response.headers["Server-Timing"] = f"app;dur={1000 * (time.perf_counter() - started):.2f}"
            return response
        except Refused as exc:
            return _refusal(exc)

    async def notices(ws: WebSocket) -> None:
        try:
            session, _ = sessions.lookup(ws.path_params["token"])
        except Refused:
            await ws.close(code=1008)  # before accept: the handshake is answered with 403
            return
        await ws.accept()
        queue: asyncio.Queue = asyncio.Queue()
        session.listeners.add(queue)

        async def send_notices() -> None:
            await ws.send_json({"version": session.version})
            while True:
                version = await queue.get()
                while not queue.empty():  # several changes at once: one notice
                    version = queue.get_nowait()
                await ws.send_json({"version": version})

        sender = asyncio.ensure_future(send_notices())
        try:
            while True:  # pages send nothing; this returns when the page goes away
                await ws.receive_text()
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            sender.cancel()
            session.listeners.discard(queue)
            session.last_active = time.time()

    async def new_game_api(request: Request) -> Response:
        auth = request.headers.get("authorization", "")
        if admin_token is None or new_game is None or auth != f"Bearer {admin_token}":
            return Response(b"", status_code=403, headers=SECURITY_HEADERS)
        try:
            body = await request.body()
            if len(body) > MAX_BODY:
                raise Refused(413, f"request body larger than {MAX_BODY} bytes")
            try:
                data = json.loads(body or b"{}")
            except json.JSONDecodeError as exc:
                raise Refused(400, f"malformed JSON: {exc}") from None
            if not isinstance(data, dict):
                raise Refused(400, "expected a JSON object")
            seats = data.get("seats", new_game["seats"])
            seed = data.get("seed", new_game["seed"])
            if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
                raise Refused(400, "seats must be a list of agent kinds, e.g. [\"human\", \"random\"]")
            if isinstance(seed, bool) or not isinstance(seed, int):
                raise Refused(400, "seed must be a whole number")
            try:
                session = sessions.create(new_game["file"], new_game["variants"], new_game["players"],
                                          new_game["options"], seed, seats, bool(data.get("hot_seat", False)),
                                          new_game.get("lang"))
            except InputError as exc:
                raise Refused(422, str(exc)) from None
            session.kick_ai()
            base = str(request.base_url).rstrip("/")
            return _json({"game": session.id, "seats": {
                str(seat): f"{base}/play/{token}" for token, seat in session.tokens.items()}}, 201)
        except Refused as exc:
            return _refusal(exc)

    async def replay_page(request: Request) -> Response:
        if replay is None or request.path_params["token"] != replay.token:
            return Response(b"", status_code=403, headers=SECURITY_HEADERS)
        return _page("replay.html")

    async def replay_state(request: Request) -> Response:
        if replay is None or request.path_params["token"] != replay.token:
            return Response(b"", status_code=403, headers=SECURITY_HEADERS)
        try:
            step = parse_step(request.query_params.get("step", "0"), replay.steps)
        except ValueError as exc:
            return _json({"error": str(exc)}, 400)
        seat_text = request.query_params.get("seat", "all")
        if seat_text == "all":
            seat = None
        elif seat_text.isdigit() and int(seat_text) < replay.players:
            seat = int(seat_text)
        else:
            return _json({"error": f"seat must be all or 0–{replay.players - 1}, not {seat_text!r}"}, 400)
        return _json(replay.payload(step, seat))

    async def expire_loop() -> None:
        while True:
            await asyncio.sleep(expire_every)
            sessions.expire_idle()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        sessions.start_ai()
        expirer = asyncio.get_running_loop().create_task(expire_loop())
        try:
            yield
        finally:
            expirer.cancel()

    async def forbidden(request: Request) -> Response:
        return Response(b"", status_code=403, headers=SECURITY_HEADERS)

    routes = [
        Route("/", index),
        *[Route(path, forbidden, methods=["GET", "POST"]) for path in ("/play", "/play/", "/api/play", "/api/play/",
                                                                       "/replay", "/replay/", "/api/replay/")],
        Route("/play/{token}", play_page),
        Route("/api/play/{token}", play_state, methods=["GET"]),
        Route("/api/play/{token}", play_decide, methods=["POST"]),
        WebSocketRoute("/ws/{token}", notices),
        Route("/api/games", new_game_api, methods=["POST"]),
        Route("/replay/{token}", replay_page),
        Route("/api/replay/{token}", replay_state),
        Mount("/static", StaticFiles(directory=_static_dir()), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)
