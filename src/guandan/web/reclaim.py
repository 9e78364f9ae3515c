"""A page coming back to its seat: a page's seat is given a secret (``{"type": "notify",
"stage": "seat", "reclaim": …}``, to that page only). When the page's connection goes away
during the games, the seat waits ``grace`` seconds (the table with it) for a page connecting
with ``&reclaim=SECRET``: that page is sent the seat's messages since the deal began and the
request awaiting its answer, and plays on; a page still at the seat is closed
(:data:`CLOSE_TAKEN_OVER`). After the grace the table ends as for a bot that left.

:class:`Reclaims` keeps the secrets for a :class:`~guandan.web.server.WebServer`, which calls
it from its hooks (:class:`~guandan.platform.server.ServerHooks`).

>>> from guandan.platform.server import PlatformServer
>>> server = PlatformServer(port=0, seed=1)
>>> reclaims = Reclaims(server.views, grace=60, close=server.close_connection)
>>> reclaims.reclaimable("no such secret"), reclaims.is_away(0, 0)
(None, False)
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from ..errors import printable
from ..platform.messages import to_text
from ..platform.server import TableView
from ..platform.table import Send
from .answers import is_page, notify

__all__ = ["Reclaims", "RECLAIM_GRACE", "CLOSE_TAKEN_OVER"]

logger = logging.getLogger("guandan.web")

#: Seconds the seat of a page that went away during the games waits for the page to come back
#: (``--reclaim-grace``; 0: the table ends at once, as for a bot).
RECLAIM_GRACE = 60.0
#: The close code of a page's seat taken over by another page of the same person (its secret).
CLOSE_TAKEN_OVER = 4003


class Reclaims:
    """The secrets of the pages' seats at the tables ``views``, and the seats waiting ``grace``
    seconds for their page; ``close`` closes a connection (the platform server's
    :meth:`~guandan.platform.server.PlatformServer.close_connection`). See the module's example."""

    def __init__(
        self,
        views: Sequence[TableView],
        *,
        grace: float,
        close: Callable[[ServerConnection, int, str], Coroutine[Any, Any, bool]],
    ) -> None:
        self.views = list(views)
        self.grace = grace
        self._close = close
        self._tasks: set[asyncio.Task[Any]] = set()
        self._secrets: dict[tuple[int, int], str] = {}  # (table, seat) of a page: its secret to come back
        self._seen: dict[tuple[int, int], list[str]] = {}  # what that seat was sent in the current deal
        self._last_act: dict[tuple[int, int], str] = {}  # the last request that seat was sent
        self._away: dict[tuple[int, int], asyncio.TimerHandle] = {}  # seats waiting for their page
        self._coming_back: set[tuple[int, int]] = set()  # seats a page is being given back

    def is_away(self, t: int, seat: int) -> bool:
        """Whether ``seat`` of table ``t`` waits for its page."""
        return (t, seat) in self._away

    async def seated(self, view: TableView, seat: int, ws: ServerConnection, join: bool) -> None:
        """A page's seat: its secret to come back with (a notice only it gets); a page coming
        back: the request awaiting its answer, sent again."""
        key = (view.index, seat)
        if join:  # a new connection at the seat: a secret of a page that sat there before is void
            self._secrets.pop(key, None)
            self._seen.pop(key, None)
            self._last_act.pop(key, None)
        if ws.request is None or not is_page(ws.request.path) or self.grace <= 0:
            return
        if join:
            self._secrets[key] = secrets.token_urlsafe(24)
            await notify(ws, to_text(self._seat_notice(view, seat)))
        elif view.table.awaiting == seat and key in self._last_act:
            await notify(ws, self._last_act[key])

    def sending(self, view: TableView, sends: Sequence[Send]) -> None:
        """The table's messages about to be sent: what a page coming back to its seat needs
        (the seat's messages since the deal began, its last request) kept."""
        t = view.index
        for send in sends:
            message = send.message
            if message.get("type") == "act":
                for seat in send.seats:
                    if (t, seat) in self._secrets:
                        self._last_act[t, seat] = send.wire
                continue
            if message.get("stage") == "beginning":
                for seat in send.seats:
                    if (t, seat) in self._secrets:
                        self._seen[t, seat] = [send.wire]
                        self._last_act.pop((t, seat), None)
                continue
            for seat in send.seats:
                if (t, seat) in self._seen:
                    self._seen[t, seat].append(send.wire)

    def closed(self, view: TableView) -> None:
        """The table has ended: its seats wait no more."""
        for key in [k for k in self._away if k[0] == view.index]:
            self._away.pop(key).cancel()

    def _seat_notice(self, view: TableView, seat: int) -> dict[str, Any]:
        notice: dict[str, Any] = {
            "type": "notify", "stage": "seat", "table": view.index, "seat": seat,
            "reclaim": self._secrets[view.index, seat], "grace": self.grace,
        }
        match = view.table.match
        if match is not None:
            levels = match.levels
            notice.update(game=len(view.table.matches), deal=match.deal_index + 1, curRank=match.level.letter,
                          selfRank=levels[seat % 2].letter, oppoRank=levels[1 - seat % 2].letter)
        return notice

    def reclaimable(self, secret: str) -> tuple[int, int] | None:
        """The (table, seat) whose secret is ``secret``, while its table plays; else ``None``."""
        for key, known in self._secrets.items():
            if secrets.compare_digest(known.encode(), secret.encode()):
                view = self.views[key[0]]
                return key if view.table.state.value == "playing" and not view.ended else None
        return None

    def keep_seat(self, view: TableView, seat: int, why: str) -> bool:
        """A seat's connection is gone: a page's seat waits :attr:`grace` seconds for it to come
        back (its table waits meanwhile), and ``True``; a bot's (or after that): ``False``."""
        key = (view.index, seat)
        if (
            key in self._secrets and self.grace > 0 and view.table.state.value == "playing"
            and not view.ended and key not in self._away
        ):
            view.detach(seat)
            loop = asyncio.get_running_loop()
            self._away[key] = loop.call_later(self.grace, self._gone, view, seat, why)
            view.event(seat, "away", why=why, grace=self.grace)
            logger.warning("web: table %d seat %d (%s) %s: the seat waits %g s for its page to come back",
                           view.index, seat, printable(view.table.names[seat]), why, self.grace)
            return True
        return False

    def _gone(self, view: TableView, seat: int, why: str) -> None:
        self._away.pop((view.index, seat), None)
        if view.connection(seat) is None:
            view.leave(seat, f"{why} and did not come back within {self.grace:g} s")

    async def come_back(self, ws: ServerConnection, secret: str) -> None:
        """A page with its seat's secret takes the seat back: told its seat, sent again what the
        seat was sent since the deal began, and the request awaiting its answer; a page still at
        that seat (the same person's other tab) is closed."""
        key = self.reclaimable(secret)
        if key is None or key in self._coming_back:  # the table ended during the handshake, or a page races
            await self._close(ws, 1013, "no seat to take back")
            return
        self._coming_back.add(key)
        try:
            await self._take_back(ws, key)
        finally:
            self._coming_back.discard(key)

    async def _take_back(self, ws: ServerConnection, key: tuple[int, int]) -> None:
        t, seat = key
        view = self.views[t]
        timer = self._away.pop(key, None)
        if timer is not None:
            timer.cancel()
        old = view.connection(seat)
        view.detach(seat)  # the table sends it nothing more
        if old is not None:
            task = asyncio.get_running_loop().create_task(
                self._close(old, CLOSE_TAKEN_OVER, "another page of this seat took it over"))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        name = view.table.names[seat] or ""
        view.event(seat, "back", name=name)
        logger.warning("web: table %d seat %d (%s): its page came back", t, seat, printable(name))
        try:
            await ws.send(to_text(self._seat_notice(view, seat)))
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
            if not self.keep_seat(view, seat, "disconnected while coming back"):
                view.leave(seat, "disconnected while coming back")
            return
        if view.ended:
            await self._close(ws, 1000 if view.close_code is None else view.close_code, "the table has ended")
            return
        self._coming_back.discard(key)  # seated again: another page with the secret takes it over
        await view.reseat(seat, ws)  # from here the table sends to this page
