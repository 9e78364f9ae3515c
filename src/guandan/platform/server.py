"""The platform server: ``ws://HOST:PORT/game/{name}``, asyncio and the ``websockets`` package.

A thin layer around :class:`~guandan.platform.table.PlatformTable`: one coroutine per
connection reads the bot's messages into its table's inbox, one coroutine per table
takes them one at a time, asks the table what they do and sends what it says. Nothing
here knows the rules or the message formats.

* Connections are seated in order: connection ``4t + s`` sits at table ``t``, seat ``s``
  (a bot that leaves before its table starts frees its seat for the next one). A table
  starts as soon as four bots sit at it and plays ``games`` whole matches.
* A message that is not the valid answer to the pending ``act`` (not JSON, no
  ``actIndex``, out of range, not asked) is logged and ignored; the table keeps waiting.
* A bot that disconnects during the games, or (with ``act_timeout``) does not answer
  within that many seconds, ends its table: the current game stays unfinished, its record
  is written, the other bots' connections are closed with code 4001 (a seat
  disconnected) or 4002 (a seat was too slow), with the reason. After the last game the
  connections are closed with 1000; when the server is shut down, with 1001. Other paths
  than ``/game/{name}`` get HTTP 404; connections when every table is taken, HTTP 503.
  There are no keepalive pings: a bot may think as long as it likes unless
  ``act_timeout`` says otherwise (a bot that dies closes its socket, which ends the table).
  The first close code chosen for a table is the one its connections get.
* **Bounded** whatever a peer does (see :data:`MAX_MESSAGE` and the other limits below):
  a message over :data:`MAX_MESSAGE` bytes is the one input that closes its sender's
  connection (logged with that reason; it ends the table, as a disconnect does) — the
  largest valid answer is 23 bytes; every other bad input (not JSON, not UTF-8, …) is
  ignored. At most :data:`INBOX_PER_SEAT` messages of a seat wait to be read (then its
  connection is not read until they are: TCP holds the rest); once its table has ended, a
  connection's messages are dropped unread, and a peer that has not completed the close
  handshake :data:`CLOSE_GRACE` seconds after the server began it is cut. The server
  stops, and :meth:`PlatformServer.wait` returns, once every table is done and its
  connections closed; :meth:`PlatformServer.close` interrupts even a send to a bot that
  does not read.
* ``records``: a directory; every game is written as ``table{t}-game{g}.json`` (a
  :mod:`guandan.records.games` match record, replayable with :func:`guandan.records.games.replay`),
  and ``summary.json`` at the end. ``log``: a JSONL file of every message sent and
  received and every connection event, each with its time (:mod:`~guandan.platform.log`).
* ``hooks``: what a server built on this one adds (:class:`ServerHooks`, each given a
  table's :class:`TableView`): the one way to extend it — the browser's server is built so.

>>> import asyncio
>>> async def main():
...     async with PlatformServer(port=0, seed=1, ruleset="platform+cap1") as server:
...         return server.url.startswith("ws://127.0.0.1:"), server.tables[0].state.value
>>> asyncio.run(main())
(True, 'seating')
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import logging
import os
import secrets
import socket
import time
from collections.abc import Sequence
from http import HTTPStatus
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response
from websockets.protocol import State

from ..core.rng import derive_seed
from ..errors import GuandanError, check_int, check_number, printable
from ..game.rules import PLATFORM, Ruleset, get_ruleset
from ..records.games import match_record
from .log import RECEIVED_LIMIT, MessageLog
from .results import SeatStats, ServeResult, TableResult
from .table import PlatformTable, Send, TableState

__all__ = [
    "DEFAULT_HOST",
    "DEFAULT_PORT",
    "MAX_MESSAGE",
    "INBOX_PER_SEAT",
    "CLOSE_GRACE",
    "IGNORED_LOGGED",
    "CLOSE_DONE",
    "CLOSE_SHUTDOWN",
    "CLOSE_INTERNAL",
    "CLOSE_DISCONNECTED",
    "CLOSE_TIMEOUT",
    "PlatformServer",
    "ServerHooks",
    "TableView",
    "serve_platform",
]

#: The platform's address: the offline server listens on 127.0.0.1:23456.
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 23456
#: Close codes: every game played; the server shut down; an internal error (a bug: it is logged);
#: a seat of the table disconnected; a seat did not answer (or read) within the act timeout.
CLOSE_DONE = 1000
CLOSE_SHUTDOWN = 1001
CLOSE_INTERNAL = 1011
CLOSE_DISCONNECTED = 4001
CLOSE_TIMEOUT = 4002

#: The largest message the server reads, in bytes: a larger one closes its sender's connection
#: (close code 1009, "message too big"; logged with that reason). A bot sends only answers
#: ``{"actIndex": i}``: an ``actionList`` holds fewer than 10**9 entries (a 27-card hand's
#: sub-multisets of at most 10 cards, each declared a few ways; the most found is about
#: 17,000), so the largest valid answer, ``{"actIndex": 999999999}``, is 23 bytes — this
#: limit is 2,849 times that, room for any JSON writer's spacing.
MAX_MESSAGE = 2**16
#: At most this many messages of one connection wait in its table's inbox; while they do, the
#: connection is not read (the peer's TCP window fills), so a flooding peer holds at most
#: about ``(INBOX_PER_SEAT + 16) * MAX_MESSAGE`` bytes of the server's memory (16: the
#: messages the WebSocket library buffers per connection).
INBOX_PER_SEAT = 16
#: Seconds a peer has to complete the close handshake once the server began it; then its
#: TCP connection is cut.
CLOSE_GRACE = 5.0
#: Messages of one seat that are ignored and logged (on the ``guandan.platform`` logger and in
#: the ``log``); past this many, one line says so and the rest are only counted (``ignored``).
IGNORED_LOGGED = 100

_PATH_PREFIX = "/game/"
_JOIN, _MESSAGE, _LEAVE, _WAKE = "join", "message", "leave", "wake"

logger = logging.getLogger("guandan.platform")


class _Runtime:
    """The I/O state of one table: its connections, its inbox, the answer clock."""

    def __init__(self, server: PlatformServer, index: int, table: PlatformTable) -> None:
        self.index = index
        self.table = table
        self.connections: list[ServerConnection | None] = [None] * 4
        # (kind, seat, payload, time received, the connection's credit to give back)
        self.inbox: asyncio.Queue[tuple[str, int, Any, float, asyncio.Semaphore | None]] = asyncio.Queue()
        self.credits: list[asyncio.Semaphore | None] = [None] * 4  # of each seat's connection
        self.left = [False] * 4  # the seat's leaving is told to the runner
        self.ended = False  # the runner reads no more: the connections' messages are dropped
        self.closing = False  # the runner is closing the connections (it is not interrupted then)
        self.runner: asyncio.Task[None] | None = None
        self.stats = [SeatStats(s) for s in range(4)]
        self.asked_at = 0.0
        self.act_sent = 0.0  # when the last request was sent
        self.added: list[float] = []  # from a valid answer received to the next request sent
        self.added_cpu: list[float] = []  # the server thread's CPU time in that span
        self.sent = 0  # messages sent (one per recipient)
        self.received = 0  # messages received
        self.close_code: int | None = None  # the first chosen is the one sent (CLOSE_DONE if none)
        self.records: list[dict[str, Any]] = []
        self.record_files: list[str] = []
        self.written = 0  # games whose record is written
        self.view = TableView(server, self)  # what the server's hooks see of this table


class TableView:
    """A running table as :class:`ServerHooks` see it: its number and
    :class:`~guandan.platform.table.PlatformTable`, whether it has ended, its close code, and
    what a hook may do to its seats' connections. One per table, made by the server
    (:attr:`PlatformServer.views`).

    >>> server = PlatformServer(port=0, seed=1)
    >>> view = server.views[0]
    >>> view.index, view.table is server.tables[0], view.ended, view.close_code, view.connection(0)
    (0, True, False, None, None)
    """

    def __init__(self, server: PlatformServer, runtime: _Runtime) -> None:
        self._server = server
        self._runtime = runtime
        self.index = runtime.index
        self.table = runtime.table

    @property
    def ended(self) -> bool:
        """Whether the table's runner has ended (it reads no more messages)."""
        return self._runtime.ended

    @property
    def close_code(self) -> int | None:
        """The close code chosen for the table's connections (``None``: none yet, 1000 when they close)."""
        return self._runtime.close_code

    def connection(self, seat: int) -> ServerConnection | None:
        """The connection the table sends ``seat``'s messages to (``None``: none)."""
        return self._runtime.connections[seat]

    def detach(self, seat: int) -> None:
        """Send nothing more to ``seat``'s connection (until :meth:`reseat`)."""
        self._runtime.connections[seat] = None

    def leave(self, seat: int, why: str) -> None:
        """Tell the table that ``seat``'s connection is gone, ``why`` (once): during the games
        the table ends as for a bot that left (see :meth:`ServerHooks.keep_seat`)."""
        self._server._tell_left(self._runtime, seat, why)

    async def reseat(self, seat: int, ws: ServerConnection) -> None:
        """Read ``ws`` as ``seat``'s connection from now on (the seat taken back, the table not
        told), until it closes; then the seat is left as any seat's."""
        await self._server._read_seat(self._runtime, seat, ws, self.table.names[seat] or "", join=False)

    def event(self, seat: int | None, event: str, **details: Any) -> None:
        """Log an event of the table (and of ``seat``) in the server's log; the hooks hear it too."""
        self._server._event(self._runtime, seat, event, **details)


class ServerHooks:
    """What a server built on :class:`PlatformServer` adds to it, at a few documented points:
    give an instance as ``PlatformServer(hooks=...)``. Every method does what the platform
    alone does (nothing, or the platform's own answer), so a subclass overrides only what it
    needs. The browser's server (:mod:`guandan.web.server`) is built this way.

    * :meth:`request` and :meth:`connection`: a request before the WebSocket handshake, and a
      connection once it is open (the platform's: :meth:`PlatformServer.answer` and
      :meth:`PlatformServer.take_seat`);
    * :meth:`seated`, :meth:`keep_seat`: a seat taken (or taken back), a seat's connection gone;
    * :meth:`sending`, :meth:`sent`: the messages of a table, before and after they are sent;
    * :meth:`event`, :meth:`stored`, :meth:`closed`: an event logged, a game's record stored,
      a table's connections closed.

    Each table hook is given the table's :class:`TableView`.

    >>> class Counting(ServerHooks):
    ...     def __init__(self) -> None:
    ...         self.events: list[str] = []
    ...     def event(self, view, seat, event, details) -> None:
    ...         self.events.append(event)
    >>> import asyncio
    >>> hooks = Counting()
    >>> async def main():
    ...     async with PlatformServer(port=0, seed=1, hooks=hooks):
    ...         pass
    >>> asyncio.run(main())
    >>> hooks.events
    ['ready', 'summary']
    """

    def request(self, server: PlatformServer, connection: ServerConnection, request: Request) -> Response | None:
        """The answer to an HTTP request before the WebSocket handshake, or ``None`` to go on
        with the handshake. By default the platform's (:meth:`PlatformServer.answer`)."""
        return server.answer(connection, request)

    async def connection(self, server: PlatformServer, ws: ServerConnection) -> None:
        """A WebSocket connection has opened: serve it until it closes. By default it takes
        a seat (:meth:`PlatformServer.take_seat`)."""
        await server.take_seat(ws)

    async def seated(self, view: TableView, seat: int, ws: ServerConnection, join: bool) -> None:
        """``ws`` has just taken ``seat`` (``join``: before the table hears of it; else it took
        the seat back, :meth:`TableView.reseat`). Nothing by default."""

    def keep_seat(self, view: TableView, seat: int, why: str) -> bool:
        """``seat``'s connection is gone, ``why``, after its table started: whether to keep the
        seat for now (the table waits; the hook's owner then calls :meth:`TableView.leave` or
        :meth:`TableView.reseat`). By default ``False``: the table ends as for a bot that left."""
        return False

    def sending(self, view: TableView, sends: Sequence[Send]) -> None:
        """The table's messages ``sends`` are about to be sent. Nothing by default."""

    def sent(self, view: TableView, sends: Sequence[Send]) -> None:
        """The table's messages ``sends`` have been sent (or the table ended sending them). Nothing by default."""

    def event(self, view: TableView | None, seat: int | None, event: str, details: dict[str, Any]) -> None:
        """An event has been logged (``view`` ``None``: of the server). Nothing by default."""

    def stored(self, view: TableView, game: int, record: dict[str, Any]) -> None:
        """Game ``game`` (from 0) of the table is over (or left unfinished) and its record
        stored (and written when the server has a records directory). Nothing by default."""

    def closed(self, view: TableView) -> None:
        """The table has ended and its seats' connections are closed. Nothing by default."""


class PlatformServer:
    """The AI-competition platform's game server (see the module's description).

    ``host``, ``port``: where to listen (``port=0``: any free port, read :attr:`port`).
    ``games``: whole matches each table plays. ``tables``: tables hosted at once (or the
    :class:`~guandan.platform.table.PlatformTable` objects to host, built by the caller:
    then ``games``, ``ruleset`` and ``seed`` are theirs).
    ``ruleset``: a :class:`~guandan.game.rules.Ruleset` or preset name (default ``platform``).
    ``seed``: table ``t`` plays game ``g`` dealt from the match seed
    ``derive_seed(derive_seed(seed, t), g)`` (default: a random seed, reported in the
    result). ``act_timeout``: seconds a bot may take to answer (default: no limit).
    ``records``: a directory for the records; ``log``: a JSONL file. ``close_timeout``:
    seconds a peer has to complete the close handshake before its connection is cut.
    ``host`` ``""`` listens on every interface (IPv4 and IPv6, on one port). ``hooks``: what a
    server built on this one adds (a :class:`ServerHooks`; by default none: the platform alone).

    Use it as an async context manager (it listens from entering to leaving), then
    ``await server.wait()`` for the result; :meth:`close` shuts it down early.
    """

    def __init__(
        self,
        *,
        host: str = DEFAULT_HOST,
        port: int = DEFAULT_PORT,
        games: int = 1,
        tables: int | Sequence[PlatformTable] = 1,
        ruleset: Ruleset | str | None = PLATFORM,
        seed: int | None = None,
        act_timeout: float | None = None,
        records: str | os.PathLike[str] | None = None,
        log: str | os.PathLike[str] | None = None,
        close_timeout: float = CLOSE_GRACE,
        hooks: ServerHooks | None = None,
    ) -> None:
        if isinstance(tables, Sequence):
            if not tables or not all(isinstance(t, PlatformTable) and t.state is TableState.SEATING for t in tables):
                raise GuandanError(f"tables is a count or a list of new PlatformTable objects, got {tables!r:.80}")
            hosted = list(tables)
            games = hosted[0].games
            ruleset = hosted[0].ruleset
            count = len(hosted)
        else:
            hosted, count = [], tables
        games, count = check_int("games", games, 1), check_int("tables", count, 1)
        port = check_int("port", port, 0, 65535)
        act_timeout = check_number("act_timeout", act_timeout, above=0, optional=True, unit="seconds")
        seed = check_int("a seed", seed, optional=True)
        close_timeout = check_number("close_timeout", close_timeout, above=0, unit="seconds")
        if not isinstance(host, str):
            raise GuandanError(f"host must be a string (an address or a name; '' for every interface), got {host!r}")
        self.host = host
        self.port = port
        self.games = games
        self.ruleset = get_ruleset(PLATFORM if ruleset is None else ruleset)
        self.seed = secrets.randbits(32) if seed is None else seed
        self.act_timeout = None if act_timeout is None else float(act_timeout)
        self.close_timeout = float(close_timeout)
        self.records_dir = None if records is None else Path(records)
        self.log_path = None if log is None else Path(log)
        if not hosted:
            hosted = [PlatformTable(games, seed=derive_seed(self.seed, t), ruleset=self.ruleset) for t in range(count)]
        self.hooks = ServerHooks() if hooks is None else hooks
        self._runtimes = [_Runtime(self, t, table) for t, table in enumerate(hosted)]
        self._server: Server | None = None
        self._runners: list[asyncio.Task[None]] = []
        self._log: MessageLog | None = None
        self._result: ServeResult | None = None
        self._finishing: asyncio.Future[ServeResult] | None = None
        self._reaper: asyncio.Task[None] | None = None

    # -- public ----------------------------------------------------------------------------------

    @property
    def tables(self) -> list[PlatformTable]:
        """The tables (their state, games and matches)."""
        return [rt.table for rt in self._runtimes]

    @property
    def views(self) -> list[TableView]:
        """The running tables as the hooks see them (:class:`TableView`)."""
        return [rt.view for rt in self._runtimes]

    @property
    def url(self) -> str:
        """The URL a bot on this machine connects to, less its name: ``ws://HOST:PORT/game/``
        (an IPv6 address in brackets; for a wildcard host, ``""``, ``0.0.0.0`` or ``::``,
        the loopback address)."""
        return f"ws://{_url_host(self.host)}:{self.port}{_PATH_PREFIX}"

    async def start(self) -> None:
        """Listen, and start one coroutine per table (raises :class:`~guandan.GuandanError`
        if the address cannot be bound or the records or log cannot be written)."""
        if self._server is not None:
            raise GuandanError("the server is already started")
        if self.records_dir is not None:
            try:
                self.records_dir.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise GuandanError(f"cannot create the records directory {str(self.records_dir)!r}: {error}") from None
        if self.log_path is not None:
            self._log = MessageLog(self.log_path)
        try:
            self._server = await self._listen()
        except (OSError, ValueError) as error:  # ValueError: a host no address can be made of ("\0")
            self._close_log()
            raise GuandanError(f"cannot listen on {self.host}:{self.port}: {error}") from None
        self.port = self._server.sockets[0].getsockname()[1]
        self._runners = [asyncio.create_task(self._run_table(rt)) for rt in self._runtimes]
        for rt, runner in zip(self._runtimes, self._runners, strict=True):
            rt.runner = runner
        self._reaper = asyncio.create_task(self._reap())
        self._event(None, None, "ready", url=self.url, seed=self.seed, ruleset=self.ruleset.name)
        n = len(self._runtimes)
        logger.info(
            "Ready for connect: %s{name} (%d table%s, %d game%s each, ruleset %s, seed %d%s)",
            self.url,
            n,
            "s" if n != 1 else "",
            self.games,
            "s" if self.games != 1 else "",
            self.ruleset.name,
            self.seed,
            "; listening on every interface" if self.host in _WILDCARDS else "",
        )

    async def _listen(self) -> Server:
        """Bind every address of the host on one port (with port 0, a free port of the first:
        a host of several addresses, such as ``""`` or ``localhost``, would otherwise get
        a different free port per address)."""
        host = self.host or None
        port = self.port
        for attempt in range(5):
            if self.port == 0:
                port = await _shared_free_port(host)
            try:
                return await serve(
                    self._handler,
                    host,
                    port,
                    process_request=self._process_request,
                    compression=None,  # loopback and LAN: compressing the action lists costs more than it saves
                    max_size=MAX_MESSAGE,
                    ping_interval=None,  # no keepalive: a bot may think as long as it likes (see act_timeout)
                    close_timeout=self.close_timeout,
                )
            except OSError as error:  # the port found free was taken meanwhile: find another
                if self.port != 0 or error.errno != errno.EADDRINUSE or attempt == 4:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    async def wait(self) -> ServeResult:
        """Wait until every table has finished (or was aborted) and its connections are
        closed, stop listening, and return the result."""
        if self._server is None:
            raise GuandanError("the server is not started")
        await asyncio.gather(*self._runners, return_exceptions=False)
        return await self._finish()

    async def close(self) -> ServeResult:
        """Shut down now: tables still playing or seating are aborted, their connections
        closed with code 1001 (a table whose connections are already being closed keeps its
        code); a table waiting on a send to a bot that does not read is interrupted.
        Returns the result."""
        for rt in self._runtimes:
            if rt.closing:
                continue
            if not rt.table.is_done:
                rt.table.abort("the server shut down")
            self._choose_code(rt, CLOSE_SHUTDOWN)
            if rt.runner is not None and not rt.runner.done():
                rt.runner.cancel()  # wherever it waits (the inbox, a send), it goes on to close the connections
        if self._runners:
            await asyncio.gather(*self._runners, return_exceptions=True)
        return await self._finish()

    async def __aenter__(self) -> PlatformServer:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def result(self) -> ServeResult:
        """The result so far (final once :meth:`wait` or :meth:`close` returned)."""
        if self._result is not None:
            return self._result
        return self._build_result()

    # -- connections -----------------------------------------------------------------------------

    def _process_request(self, connection: ServerConnection, request: Request) -> Response | None:
        return self.hooks.request(self, connection, request)

    def answer(self, connection: ServerConnection, request: Request) -> Response | None:
        """The platform's answer to an HTTP request before the handshake: HTTP 404 for a path
        other than ``/game/{name}``, 503 when every table is taken; else ``None`` (go on)."""
        path = urlsplit(request.path).path
        if not path.startswith(_PATH_PREFIX):
            return connection.respond(HTTPStatus.NOT_FOUND, f"the platform's address is {self.url}{{name}}\n")
        if self._free_table() is None:
            return connection.respond(HTTPStatus.SERVICE_UNAVAILABLE, "every table is taken\n")
        return None

    def _free_table(self) -> _Runtime | None:
        for rt in self._runtimes:
            if rt.table.state is TableState.SEATING and not rt.table.is_full:
                return rt
        return None

    async def _handler(self, ws: ServerConnection) -> None:
        await self.hooks.connection(self, ws)

    async def take_seat(self, ws: ServerConnection) -> None:
        """Seat a bot's connection at the next free seat and read its messages until it closes."""
        name = unquote(urlsplit(ws.request.path).path[len(_PATH_PREFIX) :]) if ws.request else ""
        rt = self._free_table()
        if rt is None:  # the last seat was taken during the handshake
            await self.close_connection(ws, 1013, "every table is taken")
            return
        seat = rt.table.join(name)
        rt.stats[seat] = SeatStats(seat, name)
        self._event(rt, seat, "connect", name=name)
        logger.info("table %d seat %d: %s connected", rt.index, seat, printable(name))
        await self._read_seat(rt, seat, ws, name, join=True)

    async def _read_seat(self, rt: _Runtime, seat: int, ws: ServerConnection, name: str, *, join: bool) -> None:
        """Read the messages of ``ws``, the connection of ``seat``, into the table's inbox until
        it closes (``join``: tell the table the seat is taken first); then the seat is left —
        unless another connection has taken it over meanwhile."""
        credit = asyncio.Semaphore(INBOX_PER_SEAT)
        rt.connections[seat] = ws
        rt.credits[seat] = credit
        rt.left[seat] = False
        try:
            await self.hooks.seated(rt.view, seat, ws, join)
            if join:
                rt.inbox.put_nowait((_JOIN, seat, None, time.perf_counter(), None))
            while True:
                message = await ws.recv(decode=False)  # bytes: text that is not UTF-8 is ignored, not fatal
                if rt.ended:
                    continue  # the table reads no more: dropped, until the connection closes
                await credit.acquire()  # at most INBOX_PER_SEAT waiting: then this connection is not read
                if rt.ended:
                    continue
                rt.inbox.put_nowait((_MESSAGE, seat, message, time.perf_counter(), credit))
        except ConnectionClosed:
            pass
        finally:
            why = _why_closed(ws)
            if rt.connections[seat] is not ws:  # taken over by another connection (a page that came back)
                pass
            elif rt.table.state is TableState.SEATING:  # leave at once, so the seat is free for the next bot
                rt.table.leave(seat)
                rt.connections[seat] = None
                rt.credits[seat] = None
                self._event(rt, seat, "disconnect", name=name, **_close_details(ws))
                logger.info(
                    "table %d seat %d: %s %s before the start; the seat is free", rt.index, seat, printable(name), why
                )
            elif rt.ended:
                self._event(rt, seat, "disconnect", name=name, **_close_details(ws))
            else:
                self._leave(rt, seat, why)

    # -- a table ---------------------------------------------------------------------------------

    async def _run_table(self, rt: _Runtime) -> None:
        try:
            await self._play_table(rt)
        except asyncio.CancelledError:
            if not rt.table.is_done:  # not the shutdown's: someone else's cancellation
                raise
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()
        finally:
            rt.ended = rt.closing = True
            for credit in rt.credits:  # a connection waiting for room in the inbox: it drops from now on
                if credit is not None:
                    credit.release()
            self._write_records(rt)
            await self._close_connections(rt)

    async def _play_table(self, rt: _Runtime) -> None:
        table = rt.table
        while not table.is_done:
            timeout = None
            if table.awaiting is not None and self.act_timeout is not None:
                timeout = max(0.0, rt.asked_at + self.act_timeout - time.perf_counter())
            try:
                async with asyncio.timeout(timeout):
                    kind, seat, payload, at, credit = await rt.inbox.get()
            except TimeoutError:
                seat = table.awaiting if table.awaiting is not None else -1
                self._abort(rt, f"{self._who(rt, seat)} did not answer within {self.act_timeout:g} s", CLOSE_TIMEOUT)
                return
            if credit is not None:
                credit.release()
            if kind == _JOIN:
                if table.state is TableState.SEATING and table.is_full:
                    self._event(rt, None, "start", names=list(table.names))
                    logger.info(
                        "table %d: four bots seated (%s), game 1 of %d begins",
                        rt.index,
                        ", ".join(printable(n) for n in table.names),
                        table.games,
                    )
                    await self._send(rt, table.start())
            elif kind == _LEAVE:
                self._event(rt, seat, "disconnect", name=table.names[seat], **_close_details(rt.connections[seat]))
                if table.state is TableState.PLAYING:
                    self._abort(rt, f"{self._who(rt, seat)} {payload}", CLOSE_DISCONNECTED)
            elif kind == _MESSAGE:
                cpu = time.thread_time()
                rt.received += 1
                try:
                    reply = table.receive(seat, payload)
                except Exception as error:  # a bug of the engine: end this table, keep the server
                    self._received(rt, seat, payload)
                    logger.exception("table %d: internal error on a message of seat %d", rt.index, seat)
                    self._abort(rt, f"internal error: {error!r:.200}", CLOSE_INTERNAL)
                    return
                if not reply.accepted:
                    self._ignored(rt, seat, payload, reply.error or "")
                    continue
                self._received(rt, seat, payload)
                rt.stats[seat].times.append(max(0.0, at - rt.asked_at))  # an answer sent early counts 0
                await self._send(rt, reply.sends)
                if table.awaiting is not None:
                    rt.added.append(rt.act_sent - at)
                    rt.added_cpu.append(time.thread_time() - cpu)
                self._game_ended(rt)

    def _ignored(self, rt: _Runtime, seat: int, payload: Any, error: str) -> None:
        """A message that is not a valid answer: counted; the first :data:`IGNORED_LOGGED`
        of each seat logged (here and in the log file), then one line saying the rest are not."""
        stats = rt.stats[seat]
        stats.ignored += 1
        if stats.ignored > IGNORED_LOGGED + 1:
            return
        name = printable(rt.table.names[seat])
        if stats.ignored == IGNORED_LOGGED + 1:
            self._event(rt, seat, "log_limit", ignored=stats.ignored, limit=IGNORED_LOGGED)
            logger.warning(
                "table %d seat %d (%s): more than %d messages ignored; the rest are counted, not logged",
                rt.index,
                seat,
                name,
                IGNORED_LOGGED,
            )
            return
        self._received(rt, seat, payload)
        self._event(rt, seat, "ignored", error=error)
        logger.warning("table %d seat %d (%s): ignored: %s", rt.index, seat, name, printable(error))

    def _who(self, rt: _Runtime, seat: int) -> str:
        return f"seat {seat} ({rt.table.names[seat]})" if 0 <= seat < 4 else "a seat"

    def _choose_code(self, rt: _Runtime, code: int) -> None:
        """The close code of the table's connections: the first chosen stays."""
        if rt.close_code is None:
            rt.close_code = code

    def _abort(self, rt: _Runtime, reason: str, code: int) -> None:
        table = rt.table
        game = table.games_played + 1
        table.abort(f"{reason} during game {game}")
        self._choose_code(rt, code)
        self._event(rt, None, "abort", reason=table.abort_reason)
        logger.error(
            "table %d aborted: %s; its game %d is left unfinished", rt.index, printable(table.abort_reason), game
        )

    async def _send(self, rt: _Runtime, sends: Sequence[Send]) -> None:
        self.hooks.sending(rt.view, sends)
        await self._send_each(rt, sends)
        self.hooks.sent(rt.view, sends)

    async def _send_each(self, rt: _Runtime, sends: Sequence[Send]) -> None:
        for send in sends:
            text = send.wire
            is_act = send.message["type"] == "act"
            if self._log is not None:
                self._log.json_message(text, table=rt.index, dir="out", seats=list(send.seats))
            for seat in send.seats:
                ws = rt.connections[seat]
                if is_act:
                    rt.asked_at = time.perf_counter()
                if ws is None:
                    continue
                try:
                    async with asyncio.timeout(self.act_timeout):
                        await ws.send(text)
                    rt.sent += 1
                    if is_act:
                        rt.act_sent = time.perf_counter()
                except ConnectionClosed:
                    self._abort(rt, f"{self._who(rt, seat)} {_why_closed(ws)}", CLOSE_DISCONNECTED)
                    return
                except TimeoutError:
                    self._abort(
                        rt,
                        f"{self._who(rt, seat)} did not read its messages within {self.act_timeout:g} s",
                        CLOSE_TIMEOUT,
                    )
                    return

    def _received(self, rt: _Runtime, seat: int, payload: Any) -> None:
        if self._log is not None:
            self._log.message(payload, limit=RECEIVED_LIMIT, table=rt.index, dir="in", seat=seat)

    def _event(self, rt: _Runtime | None, seat: int | None, event: str, **details: Any) -> None:
        if self._log is not None:
            fields: dict[str, Any] = {}
            if rt is not None:
                fields["table"] = rt.index
            if seat is not None:
                fields["seat"] = seat
            fields.update(details)
            self._log.event(event, **fields)
        self.hooks.event(None if rt is None else rt.view, seat, event, details)

    def _game_ended(self, rt: _Runtime) -> None:
        table = rt.table
        while rt.written < table.games_played:
            match = table.matches[rt.written]
            self._store(rt, rt.written, match_record(match))
            rt.written += 1
            winner = match.winner
            outcome = "a draw" if winner is None else f"side {winner} (seats {winner}, {winner + 2}) won"
            self._event(
                rt,
                None,
                "game_over",
                game=rt.written,
                winner=winner,
                end_reason=match.end_reason,
                deals=len(match.results),
            )
            logger.info(
                "table %d game %d/%d: %s (%s) after %d deals",
                rt.index,
                rt.written,
                table.games,
                outcome,
                match.end_reason,
                len(match.results),
            )

    def _write_records(self, rt: _Runtime) -> None:
        self._game_ended(rt)
        table = rt.table
        if len(table.matches) > rt.written:  # the unfinished game of an aborted table
            self._store(rt, rt.written, match_record(table.matches[rt.written]))
            rt.written += 1

    def _store(self, rt: _Runtime, game: int, record: dict[str, Any]) -> None:
        self._write_record(rt, game, record)
        self.hooks.stored(rt.view, game, record)

    def _write_record(self, rt: _Runtime, game: int, record: dict[str, Any]) -> None:
        rt.records.append(record)
        if self.records_dir is None:
            return
        width = len(str(self.games))
        path = self.records_dir / f"table{rt.index}-game{game + 1:0{width}d}.json"
        try:
            path.write_text(json.dumps(record) + "\n", encoding="utf-8")
        except OSError as error:
            logger.error("cannot write the record %s: %s", path, error)
            return
        rt.record_files.append(str(path))

    async def _reap(self) -> None:
        """Cut every connection whose closing handshake the library began (a message over
        the limit, a protocol error) and its peer has not completed within
        :attr:`close_timeout` seconds: nothing else would, while its table waits for it."""
        closing: dict[ServerConnection, float] = {}
        every = min(1.0, self.close_timeout / 2)
        while True:
            await asyncio.sleep(every)
            now = time.monotonic()
            live = set()
            for rt in self._runtimes:
                for seat, ws in enumerate(rt.connections):
                    if ws is None or ws.state is not State.CLOSING:
                        continue
                    live.add(ws)
                    if ws not in closing:
                        closing[ws] = now + self.close_timeout
                        self._leave(rt, seat, _why_closed(ws))  # its table need not wait for the cut
                    elif now >= closing[ws]:
                        ws.transport.abort()
            for ws in [ws for ws in closing if ws not in live]:
                del closing[ws]

    def _leave(self, rt: _Runtime, seat: int, why: str) -> None:
        """A seat's connection is gone: tell the table's runner, unless the hooks keep the seat."""
        if not self.hooks.keep_seat(rt.view, seat, why):
            self._tell_left(rt, seat, why)

    def _tell_left(self, rt: _Runtime, seat: int, why: str) -> None:
        """Tell the table's runner that a seat's connection is gone (once)."""
        if not rt.left[seat] and not rt.ended:
            rt.left[seat] = True
            rt.inbox.put_nowait((_LEAVE, seat, why, time.perf_counter(), None))

    async def _close_connections(self, rt: _Runtime) -> None:
        code = CLOSE_DONE if rt.close_code is None else rt.close_code
        reason = {CLOSE_DONE: "every game is played", CLOSE_SHUTDOWN: "the server shut down"}.get(
            code, rt.table.abort_reason or ""
        )
        reason = reason.encode("utf-8")[:120].decode("utf-8", "ignore")  # a close reason is at most 123 bytes
        seats = [(seat, ws) for seat, ws in enumerate(rt.connections) if ws is not None]
        cut = await asyncio.gather(*(self.close_connection(ws, code, reason) for _, ws in seats))
        for (seat, _), was_cut in zip(seats, cut, strict=True):
            if was_cut:
                self._event(rt, seat, "cut", after=self.close_timeout)
                logger.warning(
                    "table %d seat %d (%s): the close handshake was not completed within %g s; the connection is cut",
                    rt.index,
                    seat,
                    printable(rt.table.names[seat]),
                    self.close_timeout,
                )
        self.hooks.closed(rt.view)

    async def close_connection(self, ws: ServerConnection, code: int, reason: str) -> bool:
        """Close a connection with ``code``, waiting at most :attr:`close_timeout` seconds for
        the peer (also when it does not read, so that even the close frame cannot be sent);
        then cut it. Whether it was cut."""
        with contextlib.suppress(TimeoutError, ConnectionClosed, OSError):
            async with asyncio.timeout(self.close_timeout + 0.5):  # the library cuts at close_timeout
                await ws.close(code, reason)
        cut = ws.state is not State.CLOSED or ws.protocol.close_rcvd is None
        if ws.state is not State.CLOSED:
            ws.transport.abort()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(1):
                    await ws.wait_closed()
        return cut

    # -- the end ---------------------------------------------------------------------------------

    def _build_result(self) -> ServeResult:
        tables = []
        for rt in self._runtimes:
            t = rt.table
            tables.append(
                TableResult(
                    index=rt.index,
                    seed=t.seed,
                    state=t.state.value,
                    games=t.games,
                    games_played=t.games_played,
                    deals=t.deals,
                    victories=(t.victories[0], t.victories[1]),
                    draws=t.draws,
                    seats=rt.stats,
                    records=list(rt.records),
                    record_files=list(rt.record_files),
                    abort_reason=t.abort_reason,
                    added=list(rt.added),
                    added_cpu=list(rt.added_cpu),
                    messages_sent=rt.sent,
                    messages_received=rt.received,
                )
            )
        return ServeResult(self.seed, self.ruleset, self.games, tables)

    async def _finish(self) -> ServeResult:
        """Stop listening, write the summary, close the log: once, however many callers wait."""
        if self._finishing is None:
            self._finishing = asyncio.ensure_future(self._finish_once())
        return await asyncio.shield(self._finishing)

    async def _finish_once(self) -> ServeResult:
        if self._reaper is not None:
            self._reaper.cancel()
        if self._server is not None:
            # every seated connection is closed by now; others (a handshake under way, a bot
            # turned away) end within the library's open and close timeouts: then they are cut
            self._server.close()
            try:
                async with asyncio.timeout(self.close_timeout + 12):
                    await self._server.wait_closed()
            except TimeoutError:
                for ws in list(self._server.connections):
                    ws.transport.abort()
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(2):
                        await self._server.wait_closed()
        result = self._build_result()
        self._event(None, None, "summary", **result.to_json())
        if self.records_dir is not None:
            try:
                (self.records_dir / "summary.json").write_text(json.dumps(result.to_json(), indent=2) + "\n")
            except OSError as error:
                logger.error("cannot write the summary: %s", error)
        self._close_log()
        self._result = result
        return result

    def _close_log(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None


_WILDCARDS = ("", "0.0.0.0", "::")


def _url_host(host: str) -> str:
    """A host as it goes in a URL a bot on this machine uses (IPv6 in brackets, a wildcard as the loopback).

    >>> _url_host("127.0.0.1"), _url_host("::1"), _url_host(""), _url_host("::"), _url_host("example.org")
    ('127.0.0.1', '[::1]', '127.0.0.1', '[::1]', 'example.org')
    """
    if host in ("", "0.0.0.0"):
        return "127.0.0.1"
    if host == "::":
        return "[::1]"
    return f"[{host}]" if ":" in host else host


async def _shared_free_port(host: str | None) -> int:
    """A port free on the host's first address (0 when the host has one address: the system picks)."""
    loop = asyncio.get_running_loop()
    infos = await loop.getaddrinfo(host, 0, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    addresses = list(dict.fromkeys((family, address[0]) for family, *_, address in infos))
    if len(addresses) < 2:
        return 0
    family, address = addresses[0]
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.bind((address, 0))
        port: int = probe.getsockname()[1]
    return port


def _why_closed(ws: ServerConnection) -> str:
    """How a connection ended, for a person: ``disconnected``, or the limit or rule it broke."""
    sent, received = ws.protocol.close_sent, ws.protocol.close_rcvd
    ours = sent is not None and (received is None or ws.protocol.close_rcvd_then_sent is False)
    if ours and sent is not None and sent.code == 1009:
        return f"sent a message over the server's limit of {MAX_MESSAGE:,} bytes (its connection closed with 1009)"
    if ours and sent is not None and sent.code in (1002, 1003, 1007, 1008):
        return f"broke the WebSocket protocol ({printable(sent.reason)}; its connection closed with {sent.code})"
    if received is None and sent is None:
        return "disconnected (without a close frame)"
    return "disconnected"


def _close_details(ws: ServerConnection | None) -> dict[str, Any]:
    """The close codes and reasons of a connection, for the log."""
    if ws is None:
        return {}
    details: dict[str, Any] = {}
    for key, frame in (("received", ws.protocol.close_rcvd), ("sent", ws.protocol.close_sent)):
        if frame is not None:
            details[key] = {"code": frame.code, "reason": frame.reason}
    return details


async def serve_platform(**options: Any) -> ServeResult:
    """Run a :class:`PlatformServer` with ``options`` until every table is done; the result.

    >>> import asyncio
    >>> asyncio.run(asyncio.wait_for(serve_platform(port=0, games=0), 5))
    Traceback (most recent call last):
    ...
    guandan.errors.ArgumentError: games is an int >= 1, got 0
    """
    server = PlatformServer(**options)
    async with server:
        return await server.wait()

