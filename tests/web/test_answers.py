"""The web server's plain answers and what it reads of a path, without sockets: the query's
value, a page's connection, the page sockets, a spectator's table, the headers every answer
carries, and a notice to a page that is gone."""

from __future__ import annotations

import asyncio

from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response
from websockets.server import ServerProtocol

from guandan.web.answers import (
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
from guandan.web.guard import SECURITY_HEADERS


class Connection:
    """What an answer is made with: a connection's ``respond``, the protocol's."""

    def __init__(self) -> None:
        self.respond = ServerProtocol().reject


def test_the_query_and_a_page_are_read_from_the_path():
    assert query("/game/me?page=1&reclaim=s3cret", "reclaim") == "s3cret"
    assert query("/game/me?page=1", "reclaim") is None
    assert is_page("/game/me?page=1") and not is_page("/game/me?page=0") and not is_page("/game/me")


def test_the_page_sockets_are_the_assist_the_spectators_and_the_pages_seats():
    assert [is_page_socket(p) for p in ("/assist", "/watch/3", "/game/me?page=1")] == [True, True, True]
    assert [is_page_socket(p) for p in ("/game/bot", "/", "/assist/x")] == [False, False, False]
    assert is_upgrade(Request("/", Headers(Upgrade="WebSocket")))
    assert not is_upgrade(Request("/", Headers()))


def test_a_spectators_table_is_one_of_the_tables():
    assert [table_number(f"/watch/{t}", 3) for t in ("0", "2", "3", "-1", "1x", "", "0000001")] == [
        0, 2, None, None, None, None, None]


def test_every_answer_carries_the_security_headers_once():
    headers = Headers()
    headers["X-Frame-Options"] = "SAMEORIGIN"
    answer = secured(Response(200, "OK", headers))
    for name, value in SECURITY_HEADERS.items():
        assert answer.headers.get_all(name) == [value]
    refused = refuse(Connection(), 409, "seat 2 is taken\n")
    assert refused.status_code == 409 and refused.body == b"seat 2 is taken\n"
    assert refused.headers["Content-Security-Policy"] == SECURITY_HEADERS["Content-Security-Policy"]


def test_an_answer_with_a_body_says_its_type_and_length():
    answer = with_body(Connection(), 200, b'{"a": 1}', "application/json")
    assert answer.body == b'{"a": 1}'
    assert answer.headers.get_all("Content-Type") == ["application/json"]
    assert answer.headers.get_all("Content-Length") == ["8"]


def test_the_page_of_a_server_follows_its_scheme():
    assert page_url_for("ws://127.0.0.1:8765/game/") == "http://127.0.0.1:8765/"
    assert page_url_for("wss://example.org/game/", "/viewer") == "https://example.org/viewer"


def test_a_notice_to_a_page_that_is_gone_is_dropped_and_to_a_page_there_sent():
    class Page:
        def __init__(self, gone: bool) -> None:
            self.gone, self.sent = gone, []

        async def send(self, text: str) -> None:
            if self.gone:
                raise ConnectionClosed(None, None)
            self.sent.append(text)

    gone, there = Page(True), Page(False)
    asyncio.run(notify(gone, "{}"))
    asyncio.run(notify(there, '{"type": "notify"}'))
    assert gone.sent == [] and there.sent == ['{"type": "notify"}']
