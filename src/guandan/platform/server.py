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
* ``records``: a directory; every game is written as ``table{t}-game{g}.json`` (a
  :mod:`guandan.records.games` match record, replayable with :func:`guandan.records.games.replay`),
  and ``summary.json`` at the end. ``log``: a JSONL file of every message sent and
  received and every connection event, each with its time (:mod:`~guandan.platform.log`).

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
import json
import logging
import os
import secrets
import time
from collections.abc import Sequence
from http import HTTPStatus
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from ..core.rng import derive_seed
from ..errors import GuandanError
from ..game.rules import PLATFORM, Ruleset, get_ruleset
from ..records.games import match_record
from .log import MessageLog
from .results import SeatStats, ServeResult, TableResult
from .table import PlatformTable, Send, TableState

__all__ = [
    "DEFAULT_HOST",
    "DEFAULT_PORT",
    "CLOSE_DONE",
    "CLOSE_SHUTDOWN",
    "CLOSE_INTERNAL",
    "CLOSE_DISCONNECTED",
    "CLOSE_TIMEOUT",
    "PlatformServer",
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

_PATH_PREFIX = "/game/"
_JOIN, _MESSAGE, _LEAVE, _WAKE = "join", "message", "leave", "wake"

logger = logging.getLogger("guandan.platform")


class _Runtime:
    """The I/O state of one table: its connections, its inbox, the answer clock."""

    def __init__(self, index: int, table: PlatformTable) -> None:
        self.index = index
        self.table = table
        self.connections: list[ServerConnection | None] = [None] * 4
        self.inbox: asyncio.Queue[tuple[str, int, Any, float]] = asyncio.Queue()
        self.stats = [SeatStats(s) for s in range(4)]
        self.asked_at = 0.0
        self.act_sent = 0.0  # when the last request was sent
        self.added: list[float] = []  # from a valid answer received to the next request sent
        self.added_cpu: list[float] = []  # the server thread's CPU time in that span
        self.sent = 0  # messages sent (one per recipient)
        self.received = 0  # messages received
        self.close_code = CLOSE_DONE
        self.records: list[dict[str, Any]] = []
        self.record_files: list[str] = []
        self.written = 0  # games whose record is written


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
    ``records``: a directory for the records; ``log``: a JSONL file.

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
        for name, value, low in (("games", games, 1), ("tables", count, 1), ("port", port, 0)):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise GuandanError(f"{name} must be an int >= {low}, got {value!r}")
        if port > 65535:
            raise GuandanError(f"port must be 0..65535, got {port}")
        if act_timeout is not None and (
            isinstance(act_timeout, bool) or not isinstance(act_timeout, int | float) or not act_timeout > 0
        ):
            raise GuandanError(f"act_timeout must be a number of seconds > 0 or None, got {act_timeout!r}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise GuandanError(f"a seed is an int, got {seed!r}")
        self.host = host
        self.port = port
        self.games = games
        self.ruleset = get_ruleset(PLATFORM if ruleset is None else ruleset)
        self.seed = secrets.randbits(32) if seed is None else seed
        self.act_timeout = None if act_timeout is None else float(act_timeout)
        self.records_dir = None if records is None else Path(records)
        self.log_path = None if log is None else Path(log)
        if not hosted:
            hosted = [PlatformTable(games, seed=derive_seed(self.seed, t), ruleset=self.ruleset) for t in range(count)]
        self._runtimes = [_Runtime(t, table) for t, table in enumerate(hosted)]
        self._server: Server | None = None
        self._runners: list[asyncio.Task[None]] = []
        self._log: MessageLog | None = None
        self._result: ServeResult | None = None
        self._finishing: asyncio.Future[ServeResult] | None = None

    # -- public ----------------------------------------------------------------------------------

    @property
    def tables(self) -> list[PlatformTable]:
        """The tables (their state, games and matches)."""
        return [rt.table for rt in self._runtimes]

    @property
    def url(self) -> str:
        """The URL a bot connects to, less its name: ``ws://HOST:PORT/game/``."""
        return f"ws://{self.host}:{self.port}{_PATH_PREFIX}"

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
            self._server = await serve(
                self._handler,
                self.host,
                self.port,
                process_request=self._process_request,
                compression=None,  # loopback and LAN: compressing the action lists costs more than it saves
                max_size=2**16,  # an answer is a few bytes
                ping_interval=None,  # no keepalive: a bot may think as long as it likes (see act_timeout)
            )
        except OSError as error:
            self._close_log()
            raise GuandanError(f"cannot listen on {self.host}:{self.port}: {error}") from None
        self.port = self._server.sockets[0].getsockname()[1]
        self._runners = [asyncio.create_task(self._run_table(rt)) for rt in self._runtimes]
        self._event(None, None, "ready", url=self.url, seed=self.seed, ruleset=self.ruleset.name)
        n = len(self._runtimes)
        logger.info(
            "Ready for connect: %s{name} (%d table%s, %d game%s each, ruleset %s, seed %d)",
            self.url,
            n,
            "s" if n != 1 else "",
            self.games,
            "s" if self.games != 1 else "",
            self.ruleset.name,
            self.seed,
        )

    async def wait(self) -> ServeResult:
        """Wait until every table has finished (or was aborted), stop listening, and return the result."""
        if self._server is None:
            raise GuandanError("the server is not started")
        await asyncio.gather(*self._runners, return_exceptions=False)
        return await self._finish()

    async def close(self) -> ServeResult:
        """Shut down now: tables still playing or seating are aborted, their connections
        closed with code 1001; returns the result."""
        for rt in self._runtimes:
            if not rt.table.is_done:
                rt.table.abort("the server shut down")
                rt.close_code = CLOSE_SHUTDOWN
                rt.inbox.put_nowait((_WAKE, -1, None, 0.0))
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
        name = unquote(urlsplit(ws.request.path).path[len(_PATH_PREFIX) :]) if ws.request else ""
        rt = self._free_table()
        if rt is None:  # the last seat was taken during the handshake
            await ws.close(1013, "every table is taken")
            return
        seat = rt.table.join(name)
        rt.connections[seat] = ws
        rt.stats[seat] = SeatStats(seat, name)
        self._event(rt, seat, "connect", name=name)
        logger.info("table %d seat %d: %s connected", rt.index, seat, name)
        rt.inbox.put_nowait((_JOIN, seat, None, time.perf_counter()))
        try:
            async for message in ws:
                rt.inbox.put_nowait((_MESSAGE, seat, message, time.perf_counter()))
        except ConnectionClosed:
            pass
        finally:
            if rt.table.state is TableState.SEATING:  # leave at once, so the seat is free for the next bot
                rt.table.leave(seat)
                rt.connections[seat] = None
                self._event(rt, seat, "disconnect", name=name)
                logger.info("table %d seat %d: %s left before the start; the seat is free", rt.index, seat, name)
            else:
                rt.inbox.put_nowait((_LEAVE, seat, None, time.perf_counter()))

    # -- a table ---------------------------------------------------------------------------------

    async def _run_table(self, rt: _Runtime) -> None:
        table = rt.table
        try:
            while not table.is_done:
                timeout = None
                if table.awaiting is not None and self.act_timeout is not None:
                    timeout = max(0.0, rt.asked_at + self.act_timeout - time.perf_counter())
                try:
                    async with asyncio.timeout(timeout):
                        kind, seat, payload, at = await rt.inbox.get()
                except TimeoutError:
                    seat = table.awaiting if table.awaiting is not None else -1
                    self._abort(
                        rt, f"{self._who(rt, seat)} did not answer within {self.act_timeout:g} s", CLOSE_TIMEOUT
                    )
                    break
                if kind == _JOIN:
                    if table.state is TableState.SEATING and table.is_full:
                        self._event(rt, None, "start", names=list(table.names))
                        logger.info(
                            "table %d: four bots seated (%s), game 1 of %d begins",
                            rt.index,
                            ", ".join(str(n) for n in table.names),
                            table.games,
                        )
                        await self._send(rt, table.start())
                elif kind == _LEAVE:
                    self._event(rt, seat, "disconnect", name=table.names[seat])
                    if table.state is TableState.PLAYING:
                        self._abort(rt, f"{self._who(rt, seat)} disconnected", CLOSE_DISCONNECTED)
                elif kind == _MESSAGE:
                    cpu = time.thread_time()
                    rt.received += 1
                    self._received(rt, seat, payload, at)
                    try:
                        reply = table.receive(seat, payload)
                    except Exception as error:  # a bug of the engine: end this table, keep the server
                        logger.exception("table %d: internal error on a message of seat %d", rt.index, seat)
                        self._abort(rt, f"internal error: {error!r:.200}", CLOSE_INTERNAL)
                        break
                    if not reply.accepted:
                        rt.stats[seat].ignored += 1
                        self._event(rt, seat, "ignored", error=reply.error)
                        logger.warning(
                            "table %d seat %d (%s): ignored: %s", rt.index, seat, table.names[seat], reply.error
                        )
                        continue
                    rt.stats[seat].times.append(max(0.0, at - rt.asked_at))  # an answer sent early counts 0
                    await self._send(rt, reply.sends)
                    if table.awaiting is not None:
                        rt.added.append(rt.act_sent - at)
                        rt.added_cpu.append(time.thread_time() - cpu)
                    self._game_ended(rt)
        finally:
            self._write_records(rt)
            await self._close_connections(rt)

    def _who(self, rt: _Runtime, seat: int) -> str:
        return f"seat {seat} ({rt.table.names[seat]})" if 0 <= seat < 4 else "a seat"

    def _abort(self, rt: _Runtime, reason: str, code: int) -> None:
        table = rt.table
        game = table.games_played + 1
        table.abort(f"{reason} during game {game}")
        rt.close_code = code
        self._event(rt, None, "abort", reason=table.abort_reason)
        logger.error("table %d aborted: %s; its game %d is left unfinished", rt.index, table.abort_reason, game)

    async def _send(self, rt: _Runtime, sends: Sequence[Send]) -> None:
        for send in sends:
            text = send.wire
            is_act = send.message["type"] == "act"
            if self._log is not None:
                self._log.json_message(text, table=rt.index, dir="out", seats=list(send.seats))
            for seat in send.seats:
                ws = rt.connections[seat]
                if ws is None:
                    continue
                if is_act:
                    rt.asked_at = time.perf_counter()
                try:
                    async with asyncio.timeout(self.act_timeout):
                        await ws.send(text)
                    rt.sent += 1
                    if is_act:
                        rt.act_sent = time.perf_counter()
                except ConnectionClosed:
                    self._abort(rt, f"{self._who(rt, seat)} disconnected", CLOSE_DISCONNECTED)
                    return
                except TimeoutError:
                    self._abort(
                        rt,
                        f"{self._who(rt, seat)} did not read its messages within {self.act_timeout:g} s",
                        CLOSE_TIMEOUT,
                    )
                    return

    def _received(self, rt: _Runtime, seat: int, payload: Any, at: float) -> None:
        if self._log is not None:
            self._log.message(payload, table=rt.index, dir="in", seat=seat)

    def _event(self, rt: _Runtime | None, seat: int | None, event: str, **details: Any) -> None:
        if self._log is None:
            return
        fields: dict[str, Any] = {}
        if rt is not None:
            fields["table"] = rt.index
        if seat is not None:
            fields["seat"] = seat
        fields.update(details)
        self._log.event(event, **fields)

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

    async def _close_connections(self, rt: _Runtime) -> None:
        reason = {CLOSE_DONE: "every game is played", CLOSE_SHUTDOWN: "the server shut down"}.get(
            rt.close_code, rt.table.abort_reason or ""
        )
        reason = reason.encode("utf-8")[:120].decode("utf-8", "ignore")  # a close reason is at most 123 bytes
        closing = [ws.close(rt.close_code, reason) for ws in rt.connections if ws is not None]
        with contextlib.suppress(Exception):
            async with asyncio.timeout(5):
                await asyncio.gather(*closing, return_exceptions=True)

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
        if self._server is not None:
            self._server.close()
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


async def serve_platform(**options: Any) -> ServeResult:
    """Run a :class:`PlatformServer` with ``options`` until every table is done; the result.

    >>> import asyncio
    >>> asyncio.run(asyncio.wait_for(serve_platform(port=0, games=0), 5))
    Traceback (most recent call last):
    ...
    guandan.errors.GuandanError: games must be an int >= 1, got 0
    """
    server = PlatformServer(**options)
    async with server:
        return await server.wait()

