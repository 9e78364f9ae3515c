"""A page's seat and its secret without sockets: the secret given to a page's seat only, the
seat found by its secret while its table plays, what the seat was sent kept for a page that
comes back, and a bot's seat never kept. Over sockets: tests/web/test_spectate.py."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace

from guandan.platform.server import PlatformServer
from guandan.web.reclaim import Reclaims


class Socket:
    """A connection's path and what it was sent."""

    def __init__(self, path: str) -> None:
        self.request = SimpleNamespace(path=path)
        self.sent: list[str] = []

    async def send(self, text: str) -> None:
        self.sent.append(text)


def seated(grace: float = 60):
    """A server's table with a page at seat 0 and bots at the others; the reclaims; the page."""
    server = PlatformServer(port=0, seed=5, ruleset="platform+cap1")
    view = server.views[0]
    reclaims = Reclaims(server.views, grace=grace, close=server.close_connection)
    page = Socket("/game/me?page=1")
    for seat, (name, ws) in enumerate([("me", page), *((f"bot{s}", Socket(f"/game/bot{s}")) for s in (1, 2, 3))]):
        assert view.table.join(name) == seat
        asyncio.run(reclaims.seated(view, seat, ws, True))
    return view, reclaims, page


def test_a_pages_seat_gets_its_secret_and_a_bots_does_not():
    view, reclaims, page = seated()
    notice = json.loads(page.sent[0])
    assert notice["stage"] == "seat" and notice["seat"] == 0 and notice["grace"] == 60
    assert reclaims.reclaimable(notice["reclaim"]) is None  # the table is not playing yet
    view.table.start()
    assert reclaims.reclaimable(notice["reclaim"]) == (0, 0)
    assert reclaims.reclaimable(notice["reclaim"] + "x") is None
    assert not reclaims.keep_seat(view, 1, "disconnected")  # a bot's seat


def test_without_a_grace_no_secret_is_given():
    _, _, page = seated(grace=0)
    assert page.sent == []


def test_what_the_pages_seat_was_sent_in_the_deal_is_kept():
    view, reclaims, _ = seated()
    sends = view.table.start()
    reclaims.sending(view, sends)
    mine = [s.wire for s in sends if 0 in s.seats and s.message.get("type") != "act"]
    assert reclaims._seen[0, 0] == mine and (0, 1) not in reclaims._seen
    acts = [s.wire for s in sends if s.message.get("type") == "act" and 0 in s.seats]
    assert reclaims._last_act.get((0, 0)) == (acts[-1] if acts else None)
