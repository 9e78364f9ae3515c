"""The platform server with the page: :class:`WebServer` serves the table and the replay
viewer on the port its bots connect to, and :class:`WebGame` is ``guandan web`` — one table
of in-process bots and a seat for a person at the browser.

**One port.** A :class:`WebServer` is a :class:`~guandan.platform.server.PlatformServer`
(the bots' protocol at ``ws://HOST:PORT/game/{name}`` is unchanged: seats, messages, close
codes, HTTP 404 and 503) that also answers, over plain HTTP on the same port:

=====================  ==================================================================
``/``                  the table: a person plays a seat (``?name=…`` the name it connects
                       with)
``/viewer``            the replay viewer (``?record=NAME`` opens a record of the records
                       directory)
``/watch``             the tables, each to watch live (the table page with ``?watch=T``)
``/watch/T``           (WebSocket) a spectator of table ``T``: its public messages, read only
``/status.json``       the tables (state, seats taken, games), the ruleset, the person's seat
``/records/NAME``      a record of the records directory, as JSON
``/assist``            (WebSocket) the page's requests besides the game
                       (:mod:`~guandan.web.assist`)
=====================  ==================================================================

The page connects to ``/game/{name}?page=1``: like any bot, plus one courtesy — when the
table ignores a message of a page's seat (stale, malformed), that seat is sent
``{"type": "notify", "stage": "ignored", "error": "…"}`` so the page can say so (a bot
never gets it). A page whose seat is taken is refused with HTTP 409 (a browser sees only a
failed connection: the page reads ``/status.json`` to say why).

**Coming back.** A page's seat is given a secret (``{"type": "notify", "stage": "seat",
"reclaim": …}``, to that page only). When the page's connection goes away during the games,
the seat waits ``reclaim_grace`` seconds (the table with it) for a page connecting with
``&reclaim=SECRET``: that page is sent the seat's messages since the deal began and the
request awaiting its answer, and plays on; a page still at the seat is closed
(:data:`CLOSE_TAKEN_OVER`). After the grace the table ends as for a bot that left.

**Spectators.** ``/watch/T`` sends a spectator what every seat of table ``T`` is sent
(the notices to all four), a message at each deal's beginning (levels, counts; the dealt
hands only with ``spectators_see_hands``) and one at each turn (the public part of the
request); never a hand otherwise, a request or a secret. At most ``spectators`` per table;
what a spectator sends closes it (1008). Every page socket — the seats of pages, ``/assist``,
spectators — passes the same :class:`~guandan.web.guard.Guard`.

**guandan web.** :class:`WebGame` hosts one :class:`WebTable` — the bots' seats are kept
for them by name, any other name takes the person's seat — and connects the bots from a
thread of their own (:func:`~guandan.platform.connect.run_client` over loopback, so their
thinking never holds up the server), each made from its spec and seeded
``derive_seed(seed, seat)``. The table starts when the page connects.

>>> import asyncio
>>> async def main():
...     async with WebGame(seat=0, bots="greedy", seed=1, port=0) as game:
...         return game.page_url.startswith("http://127.0.0.1:"), game.table.names.count(None)
>>> asyncio.run(main())
(True, 1)
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import os
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from http import HTTPStatus
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, unquote, urlsplit

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from ..bots.registry import agent_name, make_agent, seat_specs
from ..core.rng import derive_seed
from ..errors import GuandanError, describe, printable
from ..game.match import Match
from ..game.rules import Ruleset, get_ruleset
from ..platform.connect import run_client
from ..platform.messages import to_text
from ..platform.results import ServeResult
from ..platform.server import PlatformServer
from ..platform.table import PlatformTable
from ..platform.thread import LoopThread
from .assist import MAX_REQUEST, Assistant, Budget, Parts, read_record_file
from .guard import SECURITY_HEADERS, Guard
from .pages import CONTENT_TYPES, asset
from .timeline import MAX_RECORD_BYTES

__all__ = [
    "WebServer",
    "WebTable",
    "WebGame",
    "WebThread",
    "start_web",
    "PAGE_NOTICE",
    "MAX_PAGE_SOCKETS",
    "ASSIST_WORKERS",
    "ASSIST_BUFFERED",
    "RECORDS_IN_FLIGHT",
    "SPECTATORS",
    "SPECTATOR_BACKLOG",
    "RECLAIM_GRACE",
    "CLOSE_TAKEN_OVER",
]

logger = logging.getLogger("guandan.web")

#: The stage of the notice a page's seat gets when the table ignored its message.
PAGE_NOTICE = "ignored"
_GAME = "/game/"
_ASSIST = "/assist"
_WATCH = "/watch/"

#: The most sockets of pages open at once (``/assist``, the seats of pages, spectators): more are
#: refused (HTTP 503 at the handshake).
MAX_PAGE_SOCKETS = 16
#: Requests of pages answered at once (a hint searches, a replay reads a record): the others wait.
ASSIST_WORKERS = 2
#: The characters of requests sent in parts that all ``/assist`` connections together may hold
#: while their last part has not come (each at most :data:`~guandan.web.assist.MAX_REQUEST`).
ASSIST_BUFFERED = 2 * MAX_REQUEST
#: The bytes of record files (``/records/NAME``) being sent at once: more wait for 503's retry.
RECORDS_IN_FLIGHT = 4 * MAX_RECORD_BYTES
#: Seconds a page has to read a reply of ``/assist`` (it holds a worker meanwhile): then it is cut.
ASSIST_SEND_TIMEOUT = 10.0
#: Spectators a table admits at once by default (``--spectators``); more are refused (HTTP 503).
SPECTATORS = 8
#: Messages waiting to be sent to one spectator: a spectator further behind is cut (it does not read).
SPECTATOR_BACKLOG = 1024
#: Seconds the seat of a page that went away during the games waits for the page to come back
#: (``--reclaim-grace``; 0: the table ends at once, as for a bot).
RECLAIM_GRACE = 60.0
#: The close code of a page's seat taken over by another page of the same person (its secret).
CLOSE_TAKEN_OVER = 4003


def _query(path: str, name: str) -> str | None:
    values = parse_qs(urlsplit(path).query).get(name)
    return values[0] if values else None


def _is_page(path: str) -> bool:
    return "1" in parse_qs(urlsplit(path).query).get("page", [])


def _secured(response: Response) -> Response:
    """``response`` with the headers every answer of the web UI carries (:mod:`~guandan.web.guard`)."""
    for name, value in SECURITY_HEADERS.items():
        if name in response.headers:
            del response.headers[name]
        response.headers[name] = value
    return response


def _response(connection: ServerConnection, status: int, body: bytes, content_type: str) -> Response:
    response = connection.respond(status, "")
    headers = response.headers
    for name in ("Content-Type", "Content-Length"):
        del headers[name]
    headers["Content-Type"] = content_type
    headers["Content-Length"] = str(len(body))
    return _secured(dataclasses.replace(response, body=body))


def _refuse(connection: ServerConnection, status: int, text: str) -> Response:
    return _secured(connection.respond(status, text.rstrip("\n") + "\n"))


def _is_upgrade(request: Request) -> bool:
    return "websocket" in request.headers.get("Upgrade", "").lower()


class WebTable(PlatformTable):
    """A platform table whose seats are given by name: each name of ``bots`` (name → seat)
    sits at its seat, any other name at the person's seat ``person``; ``labels`` name each
    seat for the page. Otherwise a :class:`~guandan.platform.table.PlatformTable`.

    >>> table = WebTable(person=2, bots={"b0": 0, "b1": 1, "b3": 3}, seed=1)
    >>> [table.join(n) for n in ("b3", "you", "b0", "b1")]
    [3, 2, 0, 1]
    >>> table.seat_for("someone else"), table.seat_free("someone else")
    (2, False)
    """

    def __init__(
        self,
        games: int = 1,
        *,
        person: int,
        bots: dict[str, int],
        labels: Sequence[str] | None = None,
        seed: int = 0,
        ruleset: Ruleset | str | None = "competitive_2022",
        new_match: Callable[[int], Match] | None = None,
    ) -> None:
        super().__init__(games, seed=seed, ruleset=ruleset, new_match=new_match)
        if isinstance(person, bool) or person not in range(4):
            raise GuandanError(f"the person's seat is 0..3, got {describe(person)}")
        if sorted(bots.values()) != sorted(set(range(4)) - {person}):
            raise GuandanError(f"the bots take every seat but the person's ({person}), got {describe(bots)}")
        self.person = person
        self.bots = dict(bots)
        self.labels = list(labels) if labels is not None else ["bot"] * 4

    def seat_for(self, name: str) -> int:
        """The seat a connection named ``name`` takes."""
        return self.bots.get(name, self.person)

    def seat_free(self, name: str) -> bool:
        """Whether the seat of ``name`` is free (and the table still seating)."""
        return not self.is_done and self.names[self.seat_for(name)] is None and not self.matches

    def join(self, name: str) -> int:
        """Seat ``name`` at its seat (a bot's, or the person's); :class:`~guandan.GuandanError`
        when that seat is taken or the games have begun."""
        if self.matches or self.is_done:
            raise GuandanError("the games have begun")
        seat = self.seat_for(name)
        if self.names[seat] is not None:
            raise GuandanError(f"seat {seat} is taken (by {self.names[seat]})")
        self.names[seat] = str(name)
        return seat


class WebServer(PlatformServer):
    """A :class:`~guandan.platform.server.PlatformServer` that also serves the page, the
    viewer and their requests on its port (see the module's description). ``browse``: the
    directory of records the viewer offers (by default the server's ``records``); ``hint``:
    the search bot's spec behind the page's hint; ``record_prefix``: with ``records`` given,
    the records are written as ``{record_prefix}-game{g}.json`` instead of
    ``table{t}-game{g}.json``; ``spectators``: spectators admitted per table at once (0: none);
    ``spectators_see_hands``: show them every hand; ``reclaim_grace``: seconds a page's seat
    waits for its page to come back (0: none). Every other option is the platform server's.

    >>> import asyncio, urllib.request
    >>> async def main():
    ...     async with WebServer(port=0, seed=1) as server:
    ...         page = await asyncio.to_thread(urllib.request.urlopen, server.page_url + "viewer")
    ...         return page.status, page.headers["Content-Type"], server.status()["tables"][0]["state"]
    >>> asyncio.run(main())
    (200, 'text/html; charset=utf-8', 'seating')
    """

    #: The longest request of a page, its parts joined (characters).
    request_limit = MAX_REQUEST

    def __init__(
        self,
        *,
        browse: str | os.PathLike[str] | None = None,
        hint: str = "mc",
        record_prefix: str | None = None,
        allow_origins: Sequence[str] = (),
        allow_hosts: Sequence[str] = (),
        token: str | bool | None = None,
        spectators: int = SPECTATORS,
        spectators_see_hands: bool = False,
        reclaim_grace: float = RECLAIM_GRACE,
        **options: Any,
    ) -> None:
        if isinstance(spectators, bool) or not isinstance(spectators, int) or spectators < 0:
            raise GuandanError(f"--spectators: a number of spectators >= 0, got {describe(spectators)}")
        if (
            isinstance(reclaim_grace, bool)
            or not isinstance(reclaim_grace, int | float)
            or not 0 <= reclaim_grace <= 3600
        ):
            raise GuandanError(f"--reclaim-grace: seconds from 0 to 3600, got {describe(reclaim_grace)}")
        records = options.get("records")
        if record_prefix is not None:
            options["records"] = None  # written here, under their own names
        super().__init__(**options)
        self.record_prefix = record_prefix
        self.web_records = None if records is None else Path(records)
        self.browse = Path(browse) if browse is not None else self.web_records
        self.assistant = Assistant(records=self.browse, hint=hint, ruleset=self.ruleset, seed=self.seed)
        self.guard = Guard.for_server(
            self.host, self.port, allow_origins=allow_origins, allow_hosts=allow_hosts, token=token
        )
        self._tasks: set[asyncio.Task[Any]] = set()
        self.web_record_files: list[str] = []
        self._page_sockets = 0
        self._assist_buffered = Budget(ASSIST_BUFFERED)
        self._records_in_flight = Budget(RECORDS_IN_FLIGHT)
        self._workers: asyncio.Semaphore | None = None
        self.spectators = spectators
        self.spectators_see_hands = bool(spectators_see_hands)
        self.reclaim_grace = float(reclaim_grace)
        self._watchers: dict[int, set[_Watcher]] = {t: set() for t in range(len(self.tables))}
        self._public: dict[int, list[str]] = {}  # each table's public messages of its current deal
        self._secrets: dict[tuple[int, int], str] = {}  # (table, seat) of a page: its secret to come back
        self._seen: dict[tuple[int, int], list[str]] = {}  # what that seat was sent in the current deal
        self._last_act: dict[tuple[int, int], str] = {}  # the last request that seat was sent
        self._away: dict[tuple[int, int], asyncio.TimerHandle] = {}  # seats waiting for their page
        self._coming_back: set[tuple[int, int]] = set()  # seats a page is being given back

    @property
    def token(self) -> str | None:
        """The secret the web UI asks for (``None`` on a loopback server: none needed)."""
        return self.guard.token

    @property
    def page_url(self) -> str:
        """The table's page: ``http://HOST:PORT/`` (with ``?token=…`` when the server needs its token)."""
        return page_url_for(self.url, "/") + (f"?token={self.guard.token}" if self.guard.token else "")

    @property
    def viewer_url(self) -> str:
        """The replay viewer's page (with the token when the server needs it)."""
        return page_url_for(self.url, "/viewer") + (f"?token={self.guard.token}" if self.guard.token else "")

    async def start(self) -> None:
        """Listen (see :meth:`PlatformServer.start`); the records directory is made first."""
        if self.record_prefix is not None and self.web_records is not None:
            try:
                self.web_records.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise GuandanError(f"cannot create the records directory {str(self.web_records)!r}: {error}") from None
        self._workers = asyncio.Semaphore(ASSIST_WORKERS)
        await super().start()
        self.guard = dataclasses.replace(self.guard, port=self.port)

    async def close(self) -> ServeResult:
        """Shut down (see :meth:`PlatformServer.close`), saying which games are left unfinished."""
        for t, table in enumerate(self.tables):
            if table.state.value == "playing":
                logger.warning(
                    "web: the server shuts down: table %d's game %d is left unfinished (its pages are told)",
                    t,
                    table.games_played + 1,
                )
        return await super().close()

    def status(self) -> dict[str, Any]:
        """What ``/status.json`` says: the server, the ruleset, each table's state and seats."""
        tables = []
        for t, table in enumerate(self.tables):
            entry: dict[str, Any] = {
                "state": table.state.value,
                "games": table.games,
                "played": table.games_played,
                "taken": [name is not None for name in table.names],
                "abort_reason": table.abort_reason,
                "spectators": len(self._watchers.get(t, ())),
                "away": [(t, seat) in self._away for seat in range(4)],
            }
            if isinstance(table, WebTable):
                entry["person"] = table.person
                entry["labels"] = table.labels
            tables.append(entry)
        return {
            "server": "guandan",
            "url": self.url,
            "ruleset": self.ruleset.name,
            "title": self.ruleset.title,
            "promotion": list(self.ruleset.promotion),
            "tables": tables,
            "records": self.browse is not None,
            "spectators": {"limit": self.spectators, "hands": self.spectators_see_hands},
            "reclaim_grace": self.reclaim_grace,
        }

    # -- HTTP and the page's sockets ------------------------------------------------------------------

    def _refusal(self, request: Request) -> str | None:
        """Why the guard refuses a request (:mod:`~guandan.web.guard`), or ``None``."""
        headers = request.headers
        for name in ("Host", "Origin", "Cookie", "Authorization"):
            if len(headers.get_all(name)) > 1:
                return f"the request gives {name} more than once"
        host = headers.get("Host")
        problem = self.guard.host_problem(host)
        if problem is not None:
            return problem
        origin = headers.get("Origin")
        if _is_upgrade(request):
            problem = self.guard.origin_problem(origin, host)
            if problem is not None:
                return problem
        if self.guard.token is None or Guard.is_static(request.path):
            return None
        if _is_upgrade(request) and origin is None and self._is_bot_seat(request.path):
            return None  # the protocol's bots: no browser, no token (as a plain serve)
        given = {k: v for k in ("Cookie", "Authorization") if (v := headers.get(k)) is not None}
        return self.guard.token_problem(request.path, given)

    def _is_bot_seat(self, path: str) -> bool:
        """Whether a connection to ``path`` takes a bot's seat: a name at ``/game/`` without
        ``?page=1``, and not the person's seat of a table of ``guandan web``."""
        parts = urlsplit(path)
        if not parts.path.startswith(_GAME) or _is_page(path):
            return False
        name = unquote(parts.path[len(_GAME) :])
        return not any(isinstance(t, WebTable) and t.seat_for(name) == t.person for t in self.tables)

    def _process_request(self, connection: ServerConnection, request: Request) -> Response | None:
        path = urlsplit(request.path).path
        problem = self._refusal(request)
        if problem is not None:
            logger.warning("web: refused %s %s: %s", "a socket to" if _is_upgrade(request) else "GET",
                           printable(path), problem)
            return _refuse(connection, HTTPStatus.FORBIDDEN, problem)
        page_socket = _is_upgrade(request) and (
            path == _ASSIST or path.startswith(_WATCH) or _is_page(request.path)
        )
        if page_socket and self._page_sockets >= MAX_PAGE_SOCKETS:
            return _refuse(connection, HTTPStatus.SERVICE_UNAVAILABLE,
                           f"the server has {MAX_PAGE_SOCKETS} pages connected, as many as it takes")
        if path.startswith(_WATCH):
            return self._watch_refusal(connection, request, path)
        if path.startswith(_GAME) and _is_page(request.path) and _query(request.path, "reclaim") is not None:
            if self._reclaimable(_query(request.path, "reclaim") or "") is None:
                why = "no seat to take back with that secret (its table has ended, or the secret is not a seat's)"
                logger.warning("web: refused a page coming back: %s", why)
                return _refuse(connection, HTTPStatus.CONFLICT, why)
            return None
        if path.startswith(_GAME):
            name = unquote(path[len(_GAME) :])
            for table in self.tables:
                if isinstance(table, WebTable) and not table.seat_free(name):
                    seat = table.seat_for(name)
                    why = f"seat {seat} is taken" if table.names[seat] is not None else "the games have begun"
                    logger.warning("web: refused a connection as %r: %s", name, why)
                    return _refuse(connection, HTTPStatus.CONFLICT, why)
            response = super()._process_request(connection, request)
            return None if response is None else _secured(response)
        if path == _ASSIST:
            if not _is_upgrade(request):
                return _refuse(connection, HTTPStatus.UPGRADE_REQUIRED, "/assist is the page's WebSocket")
            return None
        if path == "/status.json":
            return _response(connection, 200, json.dumps(self.status()).encode(), CONTENT_TYPES[".json"])
        if path.startswith("/records/"):
            return self._record_file(connection, unquote(path[len("/records/") :]))
        page = asset(path)
        if page is None:
            return _refuse(connection, HTTPStatus.NOT_FOUND,
                           f"nothing at {path}: the table is at /, the viewer at /viewer")
        response = _response(connection, 200, page.body, page.content_type)
        if self.guard.token is not None and page.name.endswith(".html"):
            response.headers["Set-Cookie"] = self.guard.set_cookie()  # the page's requests carry the token
        return response

    def _watch_refusal(self, connection: ServerConnection, request: Request, path: str) -> Response | None:
        """Why a spectator's socket ``/watch/T`` is refused (an answer), or ``None``."""
        if not _is_upgrade(request):
            return _refuse(connection, HTTPStatus.UPGRADE_REQUIRED,
                           f"{printable(path)} is a spectator's WebSocket: watch it from the page /watch")
        t = _table_number(path, len(self.tables))
        if t is None:
            return _refuse(connection, HTTPStatus.NOT_FOUND,
                           f"no table {printable(path[len(_WATCH):])}: the tables are 0..{len(self.tables) - 1}")
        if self.spectators == 0:
            return _refuse(connection, HTTPStatus.FORBIDDEN, "this server admits no spectators (--spectators 0)")
        if self.tables[t].is_done:
            return _refuse(connection, HTTPStatus.GONE,
                           f"table {t}'s games are over: replay them in the viewer (/viewer)")
        if len(self._watchers[t]) >= self.spectators:
            logger.warning("web: refused a spectator of table %d: it has %d, as many as it takes", t, self.spectators)
            return _refuse(connection, HTTPStatus.SERVICE_UNAVAILABLE,
                           f"table {t} has {self.spectators} spectators, as many as it takes (--spectators)")
        return None

    def _record_file(self, connection: ServerConnection, name: str) -> Response:
        """``/records/NAME``: the record's bytes, within :data:`RECORDS_IN_FLIGHT` bytes sent at once."""
        try:
            body = read_record_file(self.browse, name)
        except GuandanError as error:
            return _refuse(connection, HTTPStatus.NOT_FOUND, str(error))
        if not self._records_in_flight.take(len(body)):
            response = _refuse(connection, HTTPStatus.SERVICE_UNAVAILABLE, "the server is sending other records: retry")
            response.headers["Retry-After"] = "1"
            return response
        task = asyncio.get_running_loop().create_task(self._sent(connection, len(body)))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return _response(connection, 200, body, CONTENT_TYPES[".json"])

    async def _sent(self, connection: ServerConnection, size: int) -> None:
        """Give back a record's bytes once its connection is closed (its answer sent or the peer gone)."""
        try:
            await connection.wait_closed()
        finally:
            self._records_in_flight.give(size)

    async def _handler(self, ws: ServerConnection) -> None:
        request = ws.request
        path = urlsplit(request.path).path if request else ""
        page_socket = request is not None and (path == _ASSIST or path.startswith(_WATCH) or _is_page(request.path))
        if not page_socket:
            await super()._handler(ws)
            return
        if self._page_sockets >= MAX_PAGE_SOCKETS:  # the handshakes raced past the check
            await self._close_one(ws, 1013, "too many pages connected")
            return
        self._page_sockets += 1
        try:
            if path == _ASSIST:
                await self._assist(ws)
            elif path.startswith(_WATCH):
                await self._watch(ws, _table_number(path, len(self.tables)))
            elif request is not None and (secret := _query(request.path, "reclaim")) is not None:
                await self._come_back(ws, secret)
            else:
                await super()._handler(ws)
        finally:
            self._page_sockets -= 1

    # -- spectators ------------------------------------------------------------------------------------

    async def _watch(self, ws: ServerConnection, t: int | None) -> None:
        """A spectator of table ``t``: its public messages (the hands too with
        ``spectators_see_hands``), from the current deal's beginning on; what it sends closes it."""
        if t is None or self.tables[t].is_done or len(self._watchers[t]) >= self.spectators:  # raced
            await self._close_one(ws, 1013, "the table takes no more spectators")
            return
        rt = self._runtimes[t]
        table = rt.table
        watcher = _Watcher(ws)
        self._watchers[t].add(watcher)
        hello = {
            "type": "notify", "stage": "watching", "table": t, "state": table.state.value, "games": table.games,
            "played": table.games_played, "labels": getattr(table, "labels", None),
            "seeHands": self.spectators_see_hands,
        }
        watcher.put(to_text(hello))
        for text in self._public.get(t, []):
            watcher.put(text)
        turn = self._turn(rt)
        if turn is not None:
            watcher.put(turn)
        logger.info("web: a spectator watches table %d (%d now)", t, len(self._watchers[t]))
        sender = asyncio.get_running_loop().create_task(watcher.run())
        try:
            async for _ in ws:
                logger.warning("web: a spectator of table %d sent a message: closed (a spectator only watches)", t)
                watcher.close(1008, "a spectator only watches: it cannot play")
                break
        except ConnectionClosed:
            pass
        finally:
            self._watchers[t].discard(watcher)
            watcher.close(1000, "")
            try:
                async with asyncio.timeout(CLOSE_WATCHER + ASSIST_SEND_TIMEOUT):
                    await sender
            except TimeoutError:
                sender.cancel()

    def _publish(self, t: int, text: str) -> None:
        for watcher in list(self._watchers.get(t, ())):
            if not watcher.put(text):
                logger.warning("web: a spectator of table %d is %d messages behind: cut", t, SPECTATOR_BACKLOG)
                self._watchers[t].discard(watcher)

    def _turn(self, rt: Any) -> str | None:
        """The spectators' message saying whose turn it is (public: what every seat's request shows)."""
        table = rt.table
        seat, pending, match = table.awaiting, table.pending, table.match
        if seat is None or pending is None or match is None:
            return None
        levels = match.levels
        turn = {
            "type": "notify", "stage": "turn", "seat": seat, "act": pending["stage"],
            "greaterPos": pending["greaterPos"], "greaterAction": pending["greaterAction"],
            "curPos": pending["curPos"], "curAction": pending["curAction"], "publicInfo": pending["publicInfo"],
            "curRank": pending["curRank"], "levels": [levels[0].letter, levels[1].letter],
        }
        return to_text(turn)

    def _deal_begins(self, rt: Any) -> str:
        """The spectators' message of a deal's beginning: the levels, the game and deal, and the
        dealt hands only with ``spectators_see_hands``."""
        table = rt.table
        match = table.match
        levels = match.levels
        begin: dict[str, Any] = {
            "type": "notify", "stage": "beginning", "spectator": True, "table": rt.index,
            "game": len(table.matches), "deal": match.deal_index + 1, "curRank": match.level.letter,
            "levels": [levels[0].letter, levels[1].letter], "counts": [len(h) for h in match.dealt_hands],
        }
        if self.spectators_see_hands:
            begin["hands"] = [h.codes() for h in match.dealt_hands]
        return to_text(begin)

    async def _send(self, rt: Any, sends: Sequence[Any]) -> None:
        """Send (see the platform server), keeping what the spectators and a page coming back need."""
        t = rt.index
        for send in sends:
            message = send.message
            stage = message.get("stage")
            if message.get("type") == "act":
                for seat in send.seats:
                    if (t, seat) in self._secrets:
                        self._last_act[t, seat] = send.wire
                continue
            if stage == "beginning":
                for seat in send.seats:
                    if (t, seat) in self._secrets:
                        self._seen[t, seat] = [send.wire]
                        self._last_act.pop((t, seat), None)
                if send.seats == (0,):
                    self._public[t] = [self._deal_begins(rt)]
                    self._publish(t, self._public[t][0])
                continue
            for seat in send.seats:
                if (t, seat) in self._seen:
                    self._seen[t, seat].append(send.wire)
            if len(send.seats) == 4:  # a notice to every seat: public
                self._public.setdefault(t, []).append(send.wire)
                self._publish(t, send.wire)
        await super()._send(rt, sends)
        turn = self._turn(rt)
        if turn is not None and any(send.message.get("type") == "act" for send in sends):
            self._publish(t, turn)

    async def _close_connections(self, rt: Any) -> None:
        await super()._close_connections(rt)
        code = 1000 if rt.close_code is None else rt.close_code
        reason = "every game is played" if code == 1000 else (rt.table.abort_reason or "")
        for watcher in list(self._watchers.get(rt.index, ())):
            watcher.close(code, reason.encode("utf-8")[:120].decode("utf-8", "ignore"))
        for key in [k for k in self._away if k[0] == rt.index]:
            self._away.pop(key).cancel()

    # -- a page coming back to its seat ----------------------------------------------------------------

    async def _seated(self, rt: Any, seat: int, ws: ServerConnection, join: bool) -> None:
        """A page's seat: its secret to come back with (a notice only it gets); a page coming
        back: the request awaiting its answer, sent again."""
        key = (rt.index, seat)
        if join:  # a new connection at the seat: a secret of a page that sat there before is void
            self._secrets.pop(key, None)
            self._seen.pop(key, None)
            self._last_act.pop(key, None)
        if ws.request is None or not _is_page(ws.request.path) or self.reclaim_grace <= 0:
            return
        if join:
            self._secrets[key] = secrets.token_urlsafe(24)
            await self._notify(ws, to_text(self._seat_notice(rt, seat)))
        elif rt.table.awaiting == seat and key in self._last_act:
            await self._notify(ws, self._last_act[key])

    def _seat_notice(self, rt: Any, seat: int) -> dict[str, Any]:
        notice: dict[str, Any] = {
            "type": "notify", "stage": "seat", "table": rt.index, "seat": seat,
            "reclaim": self._secrets[rt.index, seat], "grace": self.reclaim_grace,
        }
        match = rt.table.match
        if match is not None:
            levels = match.levels
            notice.update(game=len(rt.table.matches), deal=match.deal_index + 1, curRank=match.level.letter,
                          selfRank=levels[seat % 2].letter, oppoRank=levels[1 - seat % 2].letter)
        return notice

    def _reclaimable(self, secret: str) -> tuple[int, int] | None:
        """The (table, seat) whose secret is ``secret``, while its table plays; else ``None``."""
        for key, known in self._secrets.items():
            if secrets.compare_digest(known.encode(), secret.encode()):
                rt = self._runtimes[key[0]]
                return key if rt.table.state.value == "playing" and not rt.ended else None
        return None

    def _leave(self, rt: Any, seat: int, why: str) -> None:
        """A seat's connection is gone: a page's seat waits :attr:`reclaim_grace` seconds for it
        to come back (its table waits meanwhile); a bot's, or after that, as the platform server."""
        key = (rt.index, seat)
        if (
            key in self._secrets and self.reclaim_grace > 0 and rt.table.state.value == "playing"
            and not rt.ended and key not in self._away
        ):
            rt.connections[seat] = None
            rt.credits[seat] = None
            loop = asyncio.get_running_loop()
            self._away[key] = loop.call_later(self.reclaim_grace, self._gone, rt, seat, why)
            self._event(rt, seat, "away", why=why, grace=self.reclaim_grace)
            logger.warning("web: table %d seat %d (%s) %s: the seat waits %g s for its page to come back",
                           rt.index, seat, printable(rt.table.names[seat]), why, self.reclaim_grace)
            return
        super()._leave(rt, seat, why)

    def _gone(self, rt: Any, seat: int, why: str) -> None:
        self._away.pop((rt.index, seat), None)
        if rt.connections[seat] is None:
            super()._leave(rt, seat, f"{why} and did not come back within {self.reclaim_grace:g} s")

    async def _come_back(self, ws: ServerConnection, secret: str) -> None:
        """A page with its seat's secret takes the seat back: told its seat, sent again what the
        seat was sent since the deal began, and the request awaiting its answer; a page still at
        that seat (the same person's other tab) is closed."""
        key = self._reclaimable(secret)
        if key is None or key in self._coming_back:  # the table ended during the handshake, or a page races
            await self._close_one(ws, 1013, "no seat to take back")
            return
        self._coming_back.add(key)
        try:
            await self._take_back(ws, key)
        finally:
            self._coming_back.discard(key)

    async def _take_back(self, ws: ServerConnection, key: tuple[int, int]) -> None:
        t, seat = key
        rt = self._runtimes[t]
        timer = self._away.pop(key, None)
        if timer is not None:
            timer.cancel()
        old = rt.connections[seat]
        rt.connections[seat] = None  # the table sends it nothing more
        if old is not None:
            task = asyncio.get_running_loop().create_task(
                self._close_one(old, CLOSE_TAKEN_OVER, "another page of this seat took it over"))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        name = rt.table.names[seat] or ""
        self._event(rt, seat, "back", name=name)
        logger.warning("web: table %d seat %d (%s): its page came back", t, seat, printable(name))
        try:
            await ws.send(to_text(self._seat_notice(rt, seat)))
            history: list[str] = []
            sent = 0
            while True:  # what the seat was sent since the deal began, also while this is being sent
                now = self._seen.get(key, [])
                if now is not history:
                    history, sent = now, 0
                if sent >= len(history):
                    break
                for text in history[sent:]:
                    await ws.send(text)
                sent = len(history)
        except ConnectionClosed:
            self._leave(rt, seat, "disconnected while coming back")
            return
        if rt.ended:
            await self._close_one(ws, 1000 if rt.close_code is None else rt.close_code, "the table has ended")
            return
        self._coming_back.discard(key)  # seated again: another page with the secret takes it over
        await self._read_seat(rt, seat, ws, name, join=False)  # from here the table sends to this page

    def _answer(self, text: str) -> str:
        """A request's text answered, as the reply's text (in a worker thread)."""
        return json.dumps(self.assistant.handle_text(text))

    async def _assist(self, ws: ServerConnection) -> None:
        """The page's requests, one at a time, each answered in a worker thread (a hint searches),
        at most :data:`ASSIST_WORKERS` of all pages at once."""
        assert self._workers is not None
        parts = Parts(self.request_limit, self._assist_buffered)
        try:
            async for message in ws:
                try:
                    text = parts.feed(message)
                except GuandanError as error:
                    logger.warning("web: a request of the page: %s", error)
                    await ws.send(json.dumps({"id": None, "ok": False, "error": str(error)}))
                    continue
                if text is None:
                    continue
                async with self._workers:  # at most ASSIST_WORKERS requests, and their replies, held at once
                    reply = await asyncio.to_thread(self._answer, text)
                    del text
                    try:
                        async with asyncio.timeout(ASSIST_SEND_TIMEOUT):
                            await ws.send(reply)
                    except TimeoutError:
                        logger.warning("web: a page did not read its reply within %g s: closed", ASSIST_SEND_TIMEOUT)
                        ws.transport.abort()
                        return
                    del reply
        except ConnectionClosed:
            pass
        finally:
            parts.close()

    def _event(self, rt: Any, seat: int | None, event: str, **details: Any) -> None:
        super()._event(rt, seat, event, **details)
        if event != "ignored" or rt is None or seat is None:
            return
        ws = rt.connections[seat]
        if ws is None or ws.request is None or not _is_page(ws.request.path):
            return
        notice = json.dumps({"type": "notify", "stage": PAGE_NOTICE, "error": details.get("error")})
        task = asyncio.get_running_loop().create_task(self._notify(ws, notice))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @staticmethod
    async def _notify(ws: ServerConnection, text: str) -> None:
        with contextlib.suppress(ConnectionClosed):
            await ws.send(text)

    def _store(self, rt: Any, game: int, record: dict[str, Any]) -> None:
        super()._store(rt, game, record)
        if self.record_prefix is None or self.web_records is None:
            return
        width = len(str(self.games))
        path = self.web_records / f"{self.record_prefix}-game{game + 1:0{width}d}.json"
        try:
            path.write_text(json.dumps(record) + "\n", encoding="utf-8")
        except OSError as error:
            logger.error("cannot write the record %s: %s", path, error)
            return
        self.web_record_files.append(str(path))
        logger.info("wrote the record %s", path)


class WebGame:
    """``guandan web``: a :class:`WebServer` hosting one :class:`WebTable` — ``bots`` (agent
    specs as ``guandan play --bots`` takes them) at every seat but the person's ``seat`` —
    and the bots, connected from a thread of their own. ``games``, ``seed`` (default: from
    the clock), ``ruleset`` (default ``competitive_2022``, as ``guandan play``), ``host``,
    ``port`` (default any free port), ``act_timeout``, ``log``, ``hint``, ``spectators``,
    ``spectators_see_hands``, ``reclaim_grace`` and the guard's options as the server's;
    ``records``: a directory where the games are written (``web-{seed}-game{g}.json``) and
    which the viewer offers; ``new_match`` builds game ``g``'s match (a table set up with
    chosen hands or levels, as :class:`~guandan.platform.table.PlatformTable` takes it). An
    async context manager; :attr:`page_url` is the table.

    >>> import asyncio
    >>> from guandan.platform import run_client
    >>> async def main():                      # a bot in the person's seat plays the match out
    ...     async with WebGame(seat=3, seed=4, ruleset="competitive_2022+cap1") as game:
    ...         person = await run_client(game.url, "greedy", name="me")
    ...         await game.finished()
    ...         return person.seat, person.complete, game.table.state.value
    >>> asyncio.run(main())
    (3, True, 'finished')
    """

    def __init__(
        self,
        *,
        seat: int = 0,
        bots: Any = "greedy",
        games: int = 1,
        seed: int | None = None,
        ruleset: Ruleset | str = "competitive_2022",
        host: str = "127.0.0.1",
        port: int = 0,
        records: str | os.PathLike[str] | None = None,
        hint: str = "mc",
        act_timeout: float | None = None,
        log: str | os.PathLike[str] | None = None,
        new_match: Callable[[int], Match] | None = None,
        allow_origins: Sequence[str] = (),
        allow_hosts: Sequence[str] = (),
        token: str | bool | None = None,
        spectators: int = SPECTATORS,
        spectators_see_hands: bool = False,
        reclaim_grace: float = RECLAIM_GRACE,
    ) -> None:
        if isinstance(seat, bool) or seat not in range(4):
            raise GuandanError(f"--seat: a seat is 0..3, got {describe(seat)}")
        if seed is None:
            seed = time.time_ns() & ((1 << 63) - 1)
        self.seat = seat
        self.seed = seed
        specs = seat_specs(bots)
        self.agents = {s: make_agent(specs[s], derive_seed(seed, s)) for s in range(4) if s != seat}
        tag = secrets.token_hex(4)
        self.bot_names = {s: f"{agent_name(specs[s])}-{s}-{tag}" for s in self.agents}
        labels = [agent_name(specs[s]) if s != seat else "you" for s in range(4)]
        rules = get_ruleset(ruleset)
        self.table = WebTable(
            games,
            person=seat,
            bots={name: s for s, name in self.bot_names.items()},
            labels=labels,
            seed=seed,
            ruleset=rules,
            new_match=new_match,
        )
        self.server = WebServer(
            host=host,
            port=port,
            tables=[self.table],
            seed=seed,
            act_timeout=act_timeout,
            records=records,
            log=log,
            hint=hint,
            record_prefix=f"web-{seed}" if records is not None else None,
            allow_origins=allow_origins,
            allow_hosts=allow_hosts,
            token=token,
            spectators=spectators,
            spectators_see_hands=spectators_see_hands,
            reclaim_grace=reclaim_grace,
        )
        self._bots: threading.Thread | None = None
        self._bot_loop: asyncio.AbstractEventLoop | None = None

    @property
    def page_url(self) -> str:
        """The table's page."""
        return self.server.page_url

    @property
    def url(self) -> str:
        """The protocol's URL, ``ws://HOST:PORT/game/``."""
        return self.server.url

    async def start(self) -> None:
        """Listen, and connect the bots (from their thread); returns once they are seated."""
        await self.server.start()
        ready = threading.Event()

        def run() -> None:
            async def clients() -> None:
                self._bot_loop = asyncio.get_running_loop()
                tasks = [
                    asyncio.create_task(run_client(self.server.url, self.agents[s], name=self.bot_names[s]))
                    for s in self.agents
                ]
                ready.set()
                for result in await asyncio.gather(*tasks, return_exceptions=True):
                    if isinstance(result, BaseException):
                        logger.error("web: a bot's connection failed: %s", result)

            asyncio.run(clients())

        self._bots = threading.Thread(target=run, name="guandan-web-bots", daemon=True)
        self._bots.start()
        ready.wait()
        deadline = time.monotonic() + 10
        while sum(n is not None for n in self.table.names) < 3 and time.monotonic() < deadline:
            await asyncio.sleep(0.005)
        if sum(n is not None for n in self.table.names) < 3:
            raise GuandanError("the bots could not take their seats")

    async def finished(self) -> None:
        """Wait until the table's games are played (or the table was aborted)."""
        while not self.table.is_done:
            await asyncio.sleep(0.05)

    async def close(self) -> ServeResult:
        """Shut down (a game in progress is aborted); the server's result."""
        result = await self.server.close()
        if self._bots is not None:
            await asyncio.to_thread(self._bots.join, 10)
        return result

    async def __aenter__(self) -> WebGame:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


class WebThread(LoopThread):
    """A :class:`WebGame` (or, with ``serve=True``, a bare :class:`WebServer` whose options
    are ``options``) running on an event loop in a thread of its own: for tests and
    synchronous code. ``.page_url``, ``.url``, ``.stop()``; a context manager.

    >>> with start_web(seat=1, bots="random", seed=2) as running:
    ...     running.page_url.startswith("http://127.0.0.1:")
    True
    """

    def __init__(self, serve: bool = False, **options: Any) -> None:
        self.game: WebGame | None = None if serve else WebGame(**options)
        self.server: WebServer = self.game.server if self.game is not None else WebServer(**options)
        self._stop: asyncio.Event | None = None
        self.result: ServeResult | None = None
        super().__init__("guandan-web")

    async def _start(self) -> None:
        self._stop = asyncio.Event()
        await (self.game.start() if self.game is not None else self.server.start())

    async def _run(self) -> None:
        assert self._stop is not None
        await self._stop.wait()
        self.result = await (self.game.close() if self.game is not None else self.server.close())

    @property
    def page_url(self) -> str:
        """The table's page, ``http://HOST:PORT/``."""
        return self.server.page_url

    @property
    def url(self) -> str:
        """The protocol's URL, ``ws://HOST:PORT/game/``."""
        return self.server.url

    def call(self, function: Any, *args: Any) -> Any:
        """Run ``function(*args)`` on the server's loop and return what it returns."""
        assert self._loop is not None

        async def run() -> Any:
            return function(*args)

        return asyncio.run_coroutine_threadsafe(run(), self._loop).result(10)

    def stop(self, timeout: float = 30) -> ServeResult | None:
        """Shut down and return the server's result."""
        if self._loop is not None and self._stop is not None and self._thread.is_alive():
            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(timeout)
        return self.result


def start_web(**options: Any) -> WebThread:
    """Start a :class:`WebGame` (options as its) in a thread of its own; ``serve=True``
    and :class:`WebServer` options for a bare server. Returns once it listens.

    >>> with start_web(serve=True, port=0, seed=1) as running:
    ...     running.url.startswith("ws://127.0.0.1:"), running.server.tables[0].state.value
    (True, 'seating')
    """
    return WebThread(**options).start()


def page_url_for(server_url: str, page: str = "/") -> str:
    """The page of a server ``ws://HOST:PORT/game/``: ``http://HOST:PORT/`` (``page`` added).

    >>> page_url_for("ws://127.0.0.1:23456/game/", "/viewer")
    'http://127.0.0.1:23456/viewer'
    """
    parts = urlsplit(server_url)
    scheme = "https" if parts.scheme == "wss" else "http"
    return f"{scheme}://{parts.netloc}{quote(page)}"


def _table_number(path: str, tables: int) -> int | None:
    """The table ``T`` of ``/watch/T`` (``None`` when it is not one of ``tables``)."""
    text = path[len(_WATCH) :]
    if not text.isdigit() or len(text) > 6 or int(text) >= tables:
        return None
    return int(text)


class _Watcher:
    """A spectator's connection and the messages waiting to be sent to it (at most
    :data:`SPECTATOR_BACKLOG`: then it is cut)."""

    def __init__(self, ws: ServerConnection) -> None:
        self.ws = ws
        self.queue: asyncio.Queue[str | tuple[int, str]] = asyncio.Queue()
        self.closed = False

    def put(self, text: str) -> bool:
        """Queue a message; ``False`` (and the connection cut) when the spectator is too far behind."""
        if self.closed:
            return True
        if self.queue.qsize() >= SPECTATOR_BACKLOG:
            self.closed = True
            self.ws.transport.abort()
            self.queue.put_nowait((1008, "too far behind"))  # the sender stops at its next send
            return False
        self.queue.put_nowait(text)
        return True

    def close(self, code: int, reason: str) -> None:
        """Close once the messages queued are sent."""
        if not self.closed:
            self.closed = True
            self.queue.put_nowait((code, reason))

    async def run(self) -> None:
        """Send the queued messages, then close with the code given to :meth:`close`."""
        try:
            while True:
                item = await self.queue.get()
                if isinstance(item, tuple):
                    code, reason = item
                    async with asyncio.timeout(CLOSE_WATCHER):
                        await self.ws.close(code, reason)
                    return
                async with asyncio.timeout(ASSIST_SEND_TIMEOUT):
                    await self.ws.send(item)
        except (ConnectionClosed, TimeoutError, OSError):
            self.ws.transport.abort()


#: Seconds a spectator has to complete the close handshake.
CLOSE_WATCHER = 5.0
