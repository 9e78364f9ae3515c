"""The platform server with the page: :class:`WebServer` serves the table and the replay
viewer on the port its bots connect to, and :class:`WebGame` is ``guandan web`` — one table
of in-process bots and a seat for a person at the browser.

**One port.** A :class:`WebServer` runs a :class:`~guandan.platform.server.PlatformServer`
(its ``platform``) and is that server's hooks (:class:`~guandan.platform.server.ServerHooks`):
the bots' protocol at ``ws://HOST:PORT/game/{name}`` is unchanged (seats, messages, close
codes, HTTP 404 and 503), and the same port also answers, over plain HTTP:

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

**Coming back** (:mod:`~guandan.web.reclaim`). A page's seat is given a secret (a notice to
that page only); when the page's connection goes away during the games, the seat waits
``reclaim_grace`` seconds (the table with it) for a page connecting with ``&reclaim=SECRET``,
which is sent the seat's messages since the deal began and plays on; a page still at the
seat is closed (:data:`CLOSE_TAKEN_OVER`). After the grace the table ends as for a bot that
left.

**Spectators** (:mod:`~guandan.web.watch`). ``/watch/T`` sends a spectator table ``T``'s
public messages, a message at each deal's beginning (the dealt hands only with
``spectators_see_hands``) and one at each turn; never a hand otherwise, a request or a
secret. At most ``spectators`` per table. Every page socket — the seats of pages,
``/assist``, spectators — passes the same :class:`~guandan.web.guard.Guard`; the plain HTTP
answers are made by :mod:`~guandan.web.answers`.

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
import dataclasses
import json
import logging
import os
import secrets
import threading
import time
from collections.abc import Callable, Coroutine, Sequence
from http import HTTPStatus
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from ..bots.registry import agent_name, make_agent, seat_specs
from ..core.rng import derive_seed
from ..errors import GuandanError, describe, printable
from ..game.match import Match
from ..game.rules import Ruleset, get_ruleset
from ..platform.connect import run_client
from ..platform.results import ServeResult
from ..platform.server import PlatformServer, ServerHooks, TableView
from ..platform.table import PlatformTable, Send
from ..platform.thread import ServerThread
from .answers import (
    ASSIST,
    GAME,
    WATCH,
    is_page,
    is_page_socket,
    is_upgrade,
    notify,
    page_url_for,
    query,
    refuse,
    secured,
    table_number,
    with_body,
)
from .assist import MAX_REQUEST, Assistant, Budget, Parts, read_record_file
from .guard import Guard
from .pages import CONTENT_TYPES, asset
from .reclaim import CLOSE_TAKEN_OVER, RECLAIM_GRACE, Reclaims
from .timeline import MAX_RECORD_BYTES
from .watch import SPECTATOR_BACKLOG, SPECTATORS, Spectators

__all__ = [
    "WebServer",
    "WebTable",
    "WebGame",
    "WebThread",
    "start_web",
    "page_url_for",
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



class WebServer(ServerHooks):
    """A :class:`~guandan.platform.server.PlatformServer` (:attr:`platform`) that also serves
    the page, the viewer and their requests on its port, being the platform server's hooks
    (see the module's description). ``browse``: the directory of records the viewer offers
    (by default the server's ``records``); ``hint``: the search bot's spec behind the page's
    hint; ``record_prefix``: with ``records`` given, the records are written as
    ``{record_prefix}-game{g}.json`` instead of ``table{t}-game{g}.json``; ``spectators``:
    spectators admitted per table at once (0: none); ``spectators_see_hands``: show them every
    hand; ``reclaim_grace``: seconds a page's seat waits for its page to come back (0: none).
    Every other option is the platform server's; so are :attr:`url`, :attr:`port`,
    :attr:`tables`, :meth:`wait` and :meth:`result`.

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
        self.platform = PlatformServer(hooks=self, **options)
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
        close = self.platform.close_connection
        self._watching = Spectators(self.platform.views, limit=spectators, see_hands=self.spectators_see_hands,
                                    close=close)
        self._reclaims = Reclaims(self.platform.views, grace=self.reclaim_grace, close=close)

    # -- the platform server's ------------------------------------------------------------------------

    @property
    def host(self) -> str:
        """The address it listens on."""
        return self.platform.host

    @property
    def port(self) -> int:
        """The port it listens on."""
        return self.platform.port

    @property
    def url(self) -> str:
        """The protocol's URL, ``ws://HOST:PORT/game/``."""
        return self.platform.url

    @property
    def tables(self) -> list[PlatformTable]:
        """The tables."""
        return self.platform.tables

    @property
    def games(self) -> int:
        """The matches each table plays."""
        return self.platform.games

    @property
    def ruleset(self) -> Ruleset:
        """The rules played."""
        return self.platform.ruleset

    @property
    def seed(self) -> int:
        """The server's seed."""
        return self.platform.seed

    async def wait(self) -> ServeResult:
        """Wait until every table is done, stop listening and return the result (see the platform server's)."""
        return await self.platform.wait()

    def result(self) -> ServeResult:
        """The result so far (see the platform server's)."""
        return self.platform.result()

    async def __aenter__(self) -> WebServer:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- the page's -----------------------------------------------------------------------------------

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
        await self.platform.start()
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
        return await self.platform.close()

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
                "spectators": self._watching.count(t),
                "away": [self._reclaims.is_away(t, seat) for seat in range(4)],
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

    # -- HTTP and the page's sockets (hooks) ----------------------------------------------------------

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
        if is_upgrade(request):
            problem = self.guard.origin_problem(origin, host)
            if problem is not None:
                return problem
        if self.guard.token is None or Guard.is_static(request.path):
            return None
        if is_upgrade(request) and origin is None and self._is_bot_seat(request.path):
            return None  # the protocol's bots: no browser, no token (as a plain serve)
        given = {k: v for k in ("Cookie", "Authorization") if (v := headers.get(k)) is not None}
        return self.guard.token_problem(request.path, given)

    def _is_bot_seat(self, path: str) -> bool:
        """Whether a connection to ``path`` takes a bot's seat: a name at ``/game/`` without
        ``?page=1``, and not the person's seat of a table of ``guandan web``."""
        parts = urlsplit(path)
        if not parts.path.startswith(GAME) or is_page(path):
            return False
        name = unquote(parts.path[len(GAME) :])
        return not any(isinstance(t, WebTable) and t.seat_for(name) == t.person for t in self.tables)

    def request(self, server: PlatformServer, connection: ServerConnection, request: Request) -> Response | None:
        """Every request's answer (the hook): the guard's refusal, the page's files, ``/status.json``,
        a record, or ``None`` for a WebSocket admitted; the bots' seats as the platform server's."""
        path = urlsplit(request.path).path
        problem = self._refusal(request)
        if problem is not None:
            logger.warning("web: refused %s %s: %s", "a socket to" if is_upgrade(request) else "GET",
                           printable(path), problem)
            return refuse(connection, HTTPStatus.FORBIDDEN, problem)
        page_socket = is_upgrade(request) and is_page_socket(request.path)
        if page_socket and self._page_sockets >= MAX_PAGE_SOCKETS:
            return refuse(connection, HTTPStatus.SERVICE_UNAVAILABLE,
                          f"the server has {MAX_PAGE_SOCKETS} pages connected, as many as it takes")
        if path.startswith(WATCH):
            return self._watching.refusal(connection, request, path)
        if path.startswith(GAME) and is_page(request.path) and query(request.path, "reclaim") is not None:
            if self._reclaims.reclaimable(query(request.path, "reclaim") or "") is None:
                why = "no seat to take back with that secret (its table has ended, or the secret is not a seat's)"
                logger.warning("web: refused a page coming back: %s", why)
                return refuse(connection, HTTPStatus.CONFLICT, why)
            return None
        if path.startswith(GAME):
            name = unquote(path[len(GAME) :])
            for table in self.tables:
                if isinstance(table, WebTable) and not table.seat_free(name):
                    seat = table.seat_for(name)
                    why = f"seat {seat} is taken" if table.names[seat] is not None else "the games have begun"
                    logger.warning("web: refused a connection as %r: %s", name, why)
                    return refuse(connection, HTTPStatus.CONFLICT, why)
            response = server.answer(connection, request)
            return None if response is None else secured(response)
        if path == ASSIST:
            if not is_upgrade(request):
                return refuse(connection, HTTPStatus.UPGRADE_REQUIRED, "/assist is the page's WebSocket")
            return None
        if path == "/status.json":
            return with_body(connection, 200, json.dumps(self.status()).encode(), CONTENT_TYPES[".json"])
        if path.startswith("/records/"):
            return self._record_file(connection, unquote(path[len("/records/") :]))
        page = asset(path)
        if page is None:
            return refuse(connection, HTTPStatus.NOT_FOUND,
                          f"nothing at {path}: the table is at /, the viewer at /viewer")
        response = with_body(connection, 200, page.body, page.content_type)
        if self.guard.token is not None and page.name.endswith(".html"):
            response.headers["Set-Cookie"] = self.guard.set_cookie()  # the page's requests carry the token
        return response

    def _record_file(self, connection: ServerConnection, name: str) -> Response:
        """``/records/NAME``: the record's bytes, within :data:`RECORDS_IN_FLIGHT` bytes sent at once."""
        try:
            body = read_record_file(self.browse, name)
        except GuandanError as error:
            return refuse(connection, HTTPStatus.NOT_FOUND, str(error))
        if not self._records_in_flight.take(len(body)):
            response = refuse(connection, HTTPStatus.SERVICE_UNAVAILABLE, "the server is sending other records: retry")
            response.headers["Retry-After"] = "1"
            return response
        self._spawn(self._sent(connection, len(body)))
        return with_body(connection, 200, body, CONTENT_TYPES[".json"])

    async def _sent(self, connection: ServerConnection, size: int) -> None:
        """Give back a record's bytes once its connection is closed (its answer sent or the peer gone)."""
        try:
            await connection.wait_closed()
        finally:
            self._records_in_flight.give(size)

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        """Run ``work`` on the loop, kept until it is done."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def connection(self, server: PlatformServer, ws: ServerConnection) -> None:
        """Every WebSocket (the hook): a page's (``/assist``, a spectator's, a page's seat, a
        page coming back), at most :data:`MAX_PAGE_SOCKETS` at once; a bot's as the platform server's."""
        request = ws.request
        path = urlsplit(request.path).path if request else ""
        if request is None or not is_page_socket(request.path):
            await server.take_seat(ws)
            return
        if self._page_sockets >= MAX_PAGE_SOCKETS:  # the handshakes raced past the check
            await server.close_connection(ws, 1013, "too many pages connected")
            return
        self._page_sockets += 1
        try:
            if path == ASSIST:
                await self._assist(ws)
            elif path.startswith(WATCH):
                await self._watching.watch(ws, table_number(path, len(self.tables)))
            elif (secret := query(request.path, "reclaim")) is not None:
                await self._reclaims.come_back(ws, secret)
            else:
                await server.take_seat(ws)
        finally:
            self._page_sockets -= 1

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

    # -- the tables (hooks) ---------------------------------------------------------------------------

    async def seated(self, view: TableView, seat: int, ws: ServerConnection, join: bool) -> None:
        """A seat taken: a page's is given its secret (:mod:`~guandan.web.reclaim`)."""
        await self._reclaims.seated(view, seat, ws, join)

    def keep_seat(self, view: TableView, seat: int, why: str) -> bool:
        """A page's seat waits for its page (:mod:`~guandan.web.reclaim`)."""
        return self._reclaims.keep_seat(view, seat, why)

    def sending(self, view: TableView, sends: Sequence[Send]) -> None:
        """What a page coming back and the spectators need, kept (and the public messages passed on)."""
        self._reclaims.sending(view, sends)
        self._watching.sending(view, sends)

    def sent(self, view: TableView, sends: Sequence[Send]) -> None:
        """The spectators told whose turn it is."""
        self._watching.sent(view, sends)

    def closed(self, view: TableView) -> None:
        """A table ended: its spectators closed, its seats wait no more."""
        self._watching.closed(view)
        self._reclaims.closed(view)

    def event(self, view: TableView | None, seat: int | None, event: str, details: dict[str, Any]) -> None:
        """A message of a page's seat ignored: the page is told (:data:`PAGE_NOTICE`)."""
        if event != "ignored" or view is None or seat is None:
            return
        ws = view.connection(seat)
        if ws is None or ws.request is None or not is_page(ws.request.path):
            return
        notice = json.dumps({"type": "notify", "stage": PAGE_NOTICE, "error": details.get("error")})
        self._spawn(notify(ws, notice))

    def stored(self, view: TableView, game: int, record: dict[str, Any]) -> None:
        """A game's record written under :attr:`record_prefix` (when given)."""
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

    @property
    def port(self) -> int:
        """The port it listens on."""
        return self.server.port

    @property
    def tables(self) -> list[PlatformTable]:
        """The one table, in a list (as a server's)."""
        return [self.table]

    def result(self) -> ServeResult:
        """The server's result so far."""
        return self.server.result()

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

    async def wait(self) -> ServeResult:
        """Wait until the table's games are played (or the table was aborted) and the server
        has stopped; the server's result."""
        result = await self.server.wait()
        if self._bots is not None:
            await asyncio.to_thread(self._bots.join, 10)
        return result

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


class WebThread(ServerThread):
    """The browser's server in a thread of its own (for tests and synchronous code): a
    :class:`~guandan.platform.thread.ServerThread` running a :class:`WebGame` (or, with
    ``serve=True``, a bare :class:`WebServer` whose options are ``options``) until
    :meth:`stop`, so the page stays served after the games. :attr:`server` is the
    :class:`WebServer`, :attr:`game` the :class:`WebGame` (``None`` for a bare server);
    ``.page_url``, ``.url``, ``.stop()``; a context manager.

    >>> with start_web(seat=1, bots="random", seed=2) as running:
    ...     running.page_url.startswith("http://127.0.0.1:")
    True
    """

    server: WebServer

    def __init__(self, serve: bool = False, **options: Any) -> None:
        self.game: WebGame | None = None if serve else WebGame(**options)
        web = self.game.server if self.game is not None else WebServer(**options)
        super().__init__(self.game if self.game is not None else web, until_stopped=True, name="guandan-web")
        self.server = web

    @property
    def page_url(self) -> str:
        """The table's page, ``http://HOST:PORT/``."""
        return self.server.page_url


def start_web(**options: Any) -> WebThread:
    """Start a :class:`WebGame` (options as its) in a thread of its own; ``serve=True``
    and :class:`WebServer` options for a bare server. Returns once it listens.

    >>> with start_web(serve=True, port=0, seed=1) as running:
    ...     running.url.startswith("ws://127.0.0.1:"), running.server.tables[0].state.value
    (True, 'seating')
    """
    return WebThread(**options).start()

