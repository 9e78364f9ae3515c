"""Spectators of the web server's tables: ``/watch/T`` sends a spectator what every seat of
table ``T`` is sent (the notices to all four), a message at each deal's beginning (levels,
counts; the dealt hands only when the server shows them) and one at each turn (the public
part of the request); never a hand otherwise, a request or a secret. At most ``limit`` per
table; what a spectator sends closes it (1008); a spectator :data:`SPECTATOR_BACKLOG`
messages behind is cut.

:class:`Spectators` keeps them for a :class:`~guandan.web.server.WebServer`, which calls it
from its hooks (:class:`~guandan.platform.server.ServerHooks`).

>>> from guandan.platform.server import PlatformServer
>>> server = PlatformServer(port=0, seed=1)
>>> spectators = Spectators(server.views, limit=2, see_hands=False, close=server.close_connection)
>>> spectators.count(0), spectators.turn(server.views[0]) is None
(0, True)
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Sequence
from http import HTTPStatus
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from ..errors import printable
from ..platform.messages import to_text
from ..platform.server import TableView
from ..platform.table import Send
from .answers import WATCH, is_upgrade, refuse, table_number

__all__ = ["Spectators", "SPECTATORS", "SPECTATOR_BACKLOG", "CLOSE_WATCHER", "SEND_TIMEOUT"]

logger = logging.getLogger("guandan.web")

#: Spectators a table admits at once by default (``--spectators``); more are refused (HTTP 503).
SPECTATORS = 8
#: Messages waiting to be sent to one spectator: a spectator further behind is cut (it does not read).
SPECTATOR_BACKLOG = 1024
#: Seconds a spectator has to complete the close handshake.
CLOSE_WATCHER = 5.0
#: Seconds a spectator has to read a message: then it is cut.
SEND_TIMEOUT = 10.0


class Spectators:
    """The spectators of the tables ``views``: at most ``limit`` per table, shown the dealt
    hands with ``see_hands``; ``close`` closes a connection that cannot be admitted (the
    platform server's :meth:`~guandan.platform.server.PlatformServer.close_connection`).
    See the module's example."""

    def __init__(
        self,
        views: Sequence[TableView],
        *,
        limit: int,
        see_hands: bool,
        close: Callable[[ServerConnection, int, str], Coroutine[Any, Any, bool]],
    ) -> None:
        self.views = list(views)
        self.limit = limit
        self.see_hands = see_hands
        self._close = close
        self._watchers: dict[int, set[_Watcher]] = {t: set() for t in range(len(self.views))}
        self._public: dict[int, list[str]] = {}  # each table's public messages of its current deal

    def count(self, t: int) -> int:
        """How many spectators watch table ``t``."""
        return len(self._watchers.get(t, ()))

    def refusal(self, connection: ServerConnection, request: Request, path: str) -> Response | None:
        """Why a spectator's socket ``/watch/T`` is refused (an answer), or ``None``."""
        if not is_upgrade(request):
            return refuse(connection, HTTPStatus.UPGRADE_REQUIRED,
                          f"{printable(path)} is a spectator's WebSocket: watch it from the page /watch")
        t = table_number(path, len(self.views))
        if t is None:
            return refuse(connection, HTTPStatus.NOT_FOUND,
                          f"no table {printable(path[len(WATCH):])}: the tables are 0..{len(self.views) - 1}")
        if self.limit == 0:
            return refuse(connection, HTTPStatus.FORBIDDEN, "this server admits no spectators (--spectators 0)")
        if self.views[t].table.is_done:
            return refuse(connection, HTTPStatus.GONE,
                          f"table {t}'s games are over: replay them in the viewer (/viewer)")
        if len(self._watchers[t]) >= self.limit:
            logger.warning("web: refused a spectator of table %d: it has %d, as many as it takes", t, self.limit)
            return refuse(connection, HTTPStatus.SERVICE_UNAVAILABLE,
                          f"table {t} has {self.limit} spectators, as many as it takes (--spectators)")
        return None

    async def watch(self, ws: ServerConnection, t: int | None) -> None:
        """A spectator of table ``t``: its public messages (the hands too with ``see_hands``),
        from the current deal's beginning on; what it sends closes it."""
        if t is None or self.views[t].table.is_done or len(self._watchers[t]) >= self.limit:  # raced
            await self._close(ws, 1013, "the table takes no more spectators")
            return
        view = self.views[t]
        table = view.table
        watcher = _Watcher(ws)
        self._watchers[t].add(watcher)
        hello = {
            "type": "notify", "stage": "watching", "table": t, "state": table.state.value, "games": table.games,
            "played": table.games_played, "labels": getattr(table, "labels", None),
            "seeHands": self.see_hands,
        }
        watcher.put(to_text(hello))
        for text in self._public.get(t, []):
            watcher.put(text)
        turn = self.turn(view)
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
                async with asyncio.timeout(CLOSE_WATCHER + SEND_TIMEOUT):
                    await sender
            except TimeoutError:
                sender.cancel()

    def publish(self, t: int, text: str) -> None:
        """Send ``text`` to table ``t``'s spectators (one too far behind is cut)."""
        for watcher in list(self._watchers.get(t, ())):
            if not watcher.put(text):
                logger.warning("web: a spectator of table %d is %d messages behind: cut", t, SPECTATOR_BACKLOG)
                self._watchers[t].discard(watcher)

    def turn(self, view: TableView) -> str | None:
        """The spectators' message saying whose turn it is (public: what every seat's request shows)."""
        table = view.table
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

    def deal_begins(self, view: TableView) -> str:
        """The spectators' message of a deal's beginning: the levels, the game and deal, and the
        dealt hands only with ``see_hands``."""
        table = view.table
        match = table.match
        assert match is not None
        levels = match.levels
        begin: dict[str, Any] = {
            "type": "notify", "stage": "beginning", "spectator": True, "table": view.index,
            "game": len(table.matches), "deal": match.deal_index + 1, "curRank": match.level.letter,
            "levels": [levels[0].letter, levels[1].letter], "counts": [len(h) for h in match.dealt_hands],
        }
        if self.see_hands:
            begin["hands"] = [h.codes() for h in match.dealt_hands]
        return to_text(begin)

    def sending(self, view: TableView, sends: Sequence[Send]) -> None:
        """The table's messages about to be sent: the public ones kept and passed on, a deal's
        beginning as the spectators' own."""
        t = view.index
        for send in sends:
            message = send.message
            if message.get("type") == "act":
                continue
            if message.get("stage") == "beginning":
                if send.seats == (0,):
                    self._public[t] = [self.deal_begins(view)]
                    self.publish(t, self._public[t][0])
                continue
            if len(send.seats) == 4:  # a notice to every seat: public
                self._public.setdefault(t, []).append(send.wire)
                self.publish(t, send.wire)

    def sent(self, view: TableView, sends: Sequence[Send]) -> None:
        """The table's messages sent: a request's turn passed on."""
        turn = self.turn(view)
        if turn is not None and any(send.message.get("type") == "act" for send in sends):
            self.publish(view.index, turn)

    def closed(self, view: TableView) -> None:
        """The table has ended: its spectators are closed with its close code."""
        code = 1000 if view.close_code is None else view.close_code
        reason = "every game is played" if code == 1000 else (view.table.abort_reason or "")
        for watcher in list(self._watchers.get(view.index, ())):
            watcher.close(code, reason.encode("utf-8")[:120].decode("utf-8", "ignore"))


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
                async with asyncio.timeout(SEND_TIMEOUT):
                    await self.ws.send(item)
        except (ConnectionClosed, TimeoutError, OSError):
            self.ws.transport.abort()
