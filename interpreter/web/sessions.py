"""Games being played on the server: seats, tokens, AI seats, live listeners, limits.

A GameSession owns one State and talks to it only through the forward-model API. Every
decision is validated, applied, committed to the Store, and then announced to the pages that
listen (they fetch their own seat's view). All engine calls run on the event loop's thread;
AI agents think on a clone in a worker thread, so pages stay responsive meanwhile.
"""
from __future__ import annotations

import asyncio
import secrets
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..agents import make_agent, parse_agents
from ..errors import InputError, RulebookError
from ..game import Game
from .payload import seat_payload
from .store import Store
from .tablelayout import TableLayout, table_layout

TABLE_SEAT = -1  # the hot-seat token: acts for every human seat, from one page


class Refused(Exception):
    """A request the server turns down; `status` is the HTTP status to answer with."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


def new_token() -> str:
    return secrets.token_urlsafe(24)  # 192 random bits


@dataclass
class GameSession:
    id: str
    game: Game
    setup: dict  # file, variants, players, options, seed, seats (kinds), hot_seat, lang
    state: Any
    table: TableLayout
    tokens: dict  # token -> seat (TABLE_SEAT for the hot-seat table)
    version: int
    store: Store
    ai_delay: float = 0.6
    agents: dict = field(default_factory=dict)  # seat -> agent
    listeners: set = field(default_factory=set)  # asyncio.Queue per open WebSocket
    last_active: float = field(default_factory=time.time)
    ai_task: Any = None
    _payloads: dict = field(default_factory=dict)  # (version, seat) -> payload
    since: dict = field(default_factory=dict)  # seat -> version since which its decision is as shown
    _asked: dict = field(default_factory=dict)  # seat -> (prompt, option labels) last shown

    def __post_init__(self) -> None:
        S = self.state
        for seat in range(len(self.kinds)):
            self.since[seat] = self.version  # pages older than this (before a restart) reload
            self._asked[seat] = (S.prompt(seat), tuple(S.option_labels(seat))) if seat in S.current_players() else None

    # ------------------------------------------------------------------ reading
    @property
    def kinds(self) -> list[str]:
        return list(self.setup["seats"])

    def human_seats(self) -> list[int]:
        return [i for i, k in enumerate(self.kinds) if k == "human"]

    def seats_info(self) -> list[dict]:
        return [{"seat": i, "name": f"P{i + 1}", "agent": k} for i, k in enumerate(self.kinds)]

    def payload(self, seat: int) -> dict:
        key = (self.version, seat)
        cached = self._payloads.get(key)
        if cached is None:
            if len(self._payloads) > 64:
                self._payloads.clear()
            cached = self._payloads[key] = seat_payload(
                self.state, self.table, seat, version=self.version, game_name=self.game.name,
                seats=self.seats_info())
            cached["hot_seat"] = bool(self.setup.get("hot_seat"))
        return cached

    def table_summary(self) -> dict:
        """What the hot-seat page needs before it knows whose hand to show: public facts only."""
        return {"table": True, "game": self.game.name, "version": self.version, "seats": self.seats_info(),
                "human_seats": self.human_seats(), "waiting_for": list(self.state.current_players()),
                "over": bool(self.state.is_terminal())}

    def seat_for(self, token_seat: int, asked: Any) -> int:
        """The seat a request may read or act for. A seat token: its own seat only; the table
        token: any human seat, named in the request."""
        if token_seat != TABLE_SEAT:
            if asked is not None and str(asked) != str(token_seat):
                raise Refused(403, "forbidden")
            return token_seat
        if asked is None:
            raise Refused(400, "this is a hot-seat table: name the seat (seat=N, 0-based)")
        try:
            seat = int(asked)
        except (TypeError, ValueError):
            raise Refused(400, f"seat must be a whole number, not {asked!r}") from None
        if seat not in self.human_seats():
            raise Refused(403, "forbidden")
        return seat

    # ------------------------------------------------------------------ acting
    def decide(self, seat: int, option: Any, version: Any) -> None:
        """Apply `seat`'s choice of option index `option`; the game is untouched if refused."""
        S = self.state
        if S.is_terminal():
            raise Refused(409, "the game is over")
        if version is not None and not self.since.get(seat, 0) <= version <= self.version:
            raise Refused(409, f"your options changed since you saw them (version {version}, now "
                          f"{self.version}); reload")
        if seat not in S.current_players():
            raise Refused(409, f"P{seat + 1} is not deciding now (waiting for "
                          f"{', '.join(f'P{p + 1}' for p in S.current_players()) or 'nobody'})")
        if isinstance(option, bool) or not isinstance(option, int):
            raise Refused(400, f"option must be an option index (a whole number), not {option!r}")
        count = len(S.legal_actions(seat))
        if not 0 <= option < count:
            raise Refused(422, f"no option {option}: P{seat + 1} has options 0–{count - 1}")
        self._apply(seat, option)

    def _apply(self, seat: int, option: int) -> None:
        try:
            self.state.apply(seat, option)
        except RulebookError as exc:  # a rule that fails at run time: say so, keep serving
            raise Refused(500, f"the rules failed at this decision: {exc}") from None
        n = self.version
        self.version += 1
        self._note_changes(seat)
        self.store.record_decision(self.id, n, seat, option, self.state.to_json())
        self.last_active = time.time()
        self._announce()
        self.kick_ai()

    def _note_changes(self, mover: int) -> None:
        """A page's version stays good for its seat while that seat's decision is unchanged:
        others' secret picks in a simultaneous block do not make it stale; the seat's own
        decision (a double click) and any change to its options do."""
        S = self.state
        self.since[mover] = self.version
        for seat in range(len(self.kinds)):
            asked = (S.prompt(seat), tuple(S.option_labels(seat))) if seat in S.current_players() else None
            if seat != mover and asked != self._asked.get(seat):
                self.since[seat] = self.version
            self._asked[seat] = asked

    def _announce(self) -> None:
        for queue in list(self.listeners):
            queue.put_nowait(self.version)

    # ------------------------------------------------------------------ AI seats
    def kick_ai(self) -> None:
        """Start the AI loop if an AI seat must decide and it is not running yet."""
        if self.ai_task is not None and not self.ai_task.done():
            return
        if self._ai_to_move() is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # not serving yet: started when the server starts
        self.ai_task = loop.create_task(self._ai_loop())

    def _ai_to_move(self) -> int | None:
        S = self.state
        if S.is_terminal():
            return None
        for p in S.current_players():
            if self.kinds[p] != "human":
                return p
        return None

    async def _ai_loop(self) -> None:
        while True:
            seat = self._ai_to_move()
            if seat is None:
                return
            await asyncio.sleep(self.ai_delay)  # a short, visible pause before an AI moves
            seat = self._ai_to_move()
            if seat is None:
                return
            version = self.version
            agent = self.agents.get(seat)
            if agent is None:
                agent = self.agents[seat] = make_agent(self.kinds[seat], int(self.setup["seed"]), seat)
            snapshot = self.state.clone()
            choice = await asyncio.to_thread(agent.choose, snapshot, seat)
            if self.version != version or seat not in self.state.current_players():
                continue  # a human moved meanwhile (simultaneous block): think again
            try:
                self._apply(seat, int(choice))
            except Refused as exc:
                print(f"game {self.id}: AI seat P{seat + 1}: {exc.message}", file=sys.stderr)
                return


class Sessions:
    """Every game on this server, bounded in number, with idle games expired."""

    def __init__(self, store: Store, *, max_games: int = 64, idle_seconds: float = 6 * 3600,
                 ai_delay: float = 0.6):
        self.store = store
        self.max_games = max_games
        self.idle_seconds = idle_seconds
        self.ai_delay = ai_delay
        self.games: dict[str, GameSession] = {}
        self.by_token: dict[str, tuple[str, int]] = {}
        self._rules: dict = {}  # (file, variants) -> Game

    def load_rules(self, file: str, variants: list[str]) -> Game:
        key = _rules_key(file, variants)
        game = self._rules.get(key)
        if game is None:
            game = self._rules[key] = Game.load(key[0], list(key[1]))
        return game

    def remember_rules(self, file: str, variants: list[str], game: Game) -> None:
        self._rules[_rules_key(file, variants)] = game

    def create(self, file: str, variants: list[str], players: int | None, options: dict, seed: int,
               seats: list[str], hot_seat: bool = False, lang: str | None = None) -> GameSession:
        self.expire_idle()
        if len(self.games) >= self.max_games:
            raise Refused(503, f"this server already runs {self.max_games} games (its limit)")
        game = self.load_rules(file, variants)
        n = game.default_players if players is None else players
        opts = game.resolve_options(options)
        kinds = _seat_kinds(seats, n)
        for i, kind in enumerate(kinds):
            if kind != "human":
                make_agent(kind, seed, i)  # refuses unknown agent kinds now, not mid-game
        S = game.new_game(n, opts, seed, lang)
        tokens = {}
        if hot_seat:
            tokens[new_token()] = TABLE_SEAT
        else:
            for i, kind in enumerate(kinds):
                if kind == "human":
                    tokens[new_token()] = i
        setup = {"file": str(Path(file).resolve()), "variants": [str(Path(v).resolve()) for v in variants],
                 "players": n, "options": opts, "seed": seed, "seats": kinds, "hot_seat": hot_seat,
                 "lang": lang}
        gid = secrets.token_hex(8)
        self.store.add_game(gid, setup, S.to_json(), tokens)
        return self._register(GameSession(gid, game, setup, S, table_layout(game, n, opts), tokens, 0,
                                          self.store, self.ai_delay))

    def resume_all(self) -> list[str]:
        """Load every stored game (after a restart); returns problems with games that cannot be."""
        problems = []
        for stored in self.store.games():
            setup = stored.setup
            try:
                game = self.load_rules(setup["file"], setup.get("variants") or [])
                S = game.restore(stored.state)
            except InputError as exc:
                problems.append(f"game {stored.id} cannot be resumed: {exc}")
                continue
            version = len(self.store.decisions(stored.id))
            table = table_layout(game, int(setup["players"]), game.resolve_options(setup["options"]))
            session = GameSession(stored.id, game, setup, S, table, dict(stored.tokens), version,
                                  self.store, self.ai_delay, last_active=stored.active)
            self._register(session)
        return problems

    def _register(self, session: GameSession) -> GameSession:
        self.games[session.id] = session
        for token, seat in session.tokens.items():
            self.by_token[token] = (session.id, seat)
        return session

    def lookup(self, token: str) -> tuple[GameSession, int]:
        """The game and seat of a token; a missing, forged or expired token is refused alike."""
        found = self.by_token.get(token) if isinstance(token, str) else None
        if found is None or found[0] not in self.games:
            raise Refused(403, "forbidden")
        session = self.games[found[0]]
        session.last_active = time.time()
        return session, found[1]

    def start_ai(self) -> None:
        for session in self.games.values():
            session.kick_ai()

    def expire_idle(self, now: float | None = None) -> list[str]:
        """Remove games nobody has touched for idle_seconds (and nobody is watching)."""
        now = time.time() if now is None else now
        gone = [gid for gid, s in self.games.items()
                if not s.listeners and now - s.last_active > self.idle_seconds]
        for gid in gone:
            session = self.games.pop(gid)
            for token in session.tokens:
                self.by_token.pop(token, None)
            if session.ai_task is not None:
                session.ai_task.cancel()
            self.store.remove_game(gid)
        return gone


def _rules_key(file: str, variants: list[str]) -> tuple:
    return str(Path(file).resolve()), tuple(str(Path(v).resolve()) for v in variants)


def check_setup(file: str, variants: list[str], players: int | None, options: dict, seed: int,
                seats: list[str]) -> Game:
    """Load the rules and check players, options and seats, before anything is written."""
    game = Game.load(file, variants)
    n = game.default_players if players is None else players
    opts = game.resolve_options(options)
    problems = game.check_setup(n, opts)
    if problems:
        raise InputError("; ".join(problems))
    for i, kind in enumerate(_seat_kinds(seats, n)):
        if kind != "human":
            make_agent(kind, seed, i)
    return game


def _seat_kinds(seats: list[str], players: int) -> list[str]:
    """One agent spec per seat, written back by the agent registry (`mcts:200,depth=20`). The
    items are read as one comma-separated list, so a setting split off its agent (as the command
    line's `--seats human,mcts:200,depth=20` arrives) goes back to the agent before it."""
    text = ",".join(k for k in seats if k.strip())
    kinds = [spec.name for spec in parse_agents(text)] if text.strip(", ") else ["human"]
    if len(kinds) == 1:
        kinds = kinds * players
    if len(kinds) != players:
        raise InputError(f"--seats lists {len(kinds)} seats for {players} players")
    if "human" not in kinds:
        raise InputError("--seats needs at least one human seat (or use `rulebook simulate`)")
    return kinds
