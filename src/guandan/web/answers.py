"""The web server's plain HTTP answers and what it reads of a request's path, without any
state: the paths it routes (:data:`GAME`, :data:`ASSIST`, :data:`WATCH`), a query's value,
whether a connection is a page's, the answers themselves — each carrying the headers of
:data:`~guandan.web.guard.SECURITY_HEADERS` — and a notice to a page.

An answer is made with the connection's own ``respond`` (as the WebSocket server does), so
the examples use the protocol's:

>>> from websockets.server import ServerProtocol
>>> class Connection:
...     respond = ServerProtocol().reject
>>> answer = refuse(Connection(), 404, "nothing here")
>>> answer.status_code, answer.body, answer.headers["X-Frame-Options"]
(404, b'nothing here\\n', 'DENY')
"""

from __future__ import annotations

import contextlib
import dataclasses
from urllib.parse import parse_qs, quote, urlsplit

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from .guard import SECURITY_HEADERS

__all__ = [
    "GAME",
    "ASSIST",
    "WATCH",
    "query",
    "is_page",
    "is_upgrade",
    "is_page_socket",
    "table_number",
    "secured",
    "with_body",
    "refuse",
    "page_url_for",
    "notify",
]

#: The protocol's seats (``/game/{name}``, a page adds ``?page=1``), the page's requests, a spectator's socket.
GAME = "/game/"
ASSIST = "/assist"
WATCH = "/watch/"


def query(path: str, name: str) -> str | None:
    """The first value of ``name`` in the query of ``path`` (``None``: not given).

    >>> query("/game/me?page=1&reclaim=abc", "reclaim"), query("/game/me", "reclaim")
    ('abc', None)
    """
    values = parse_qs(urlsplit(path).query).get(name)
    return values[0] if values else None


def is_page(path: str) -> bool:
    """Whether a connection to ``path`` is a page's (``?page=1``).

    >>> is_page("/game/you?page=1"), is_page("/game/bot")
    (True, False)
    """
    return "1" in parse_qs(urlsplit(path).query).get("page", [])


def is_upgrade(request: Request) -> bool:
    """Whether ``request`` asks for a WebSocket.

    >>> from websockets.datastructures import Headers
    >>> is_upgrade(Request("/assist", Headers(Upgrade="websocket"))), is_upgrade(Request("/", Headers()))
    (True, False)
    """
    return "websocket" in request.headers.get("Upgrade", "").lower()


def is_page_socket(path: str) -> bool:
    """Whether a WebSocket to ``path`` (with its query) is one of the page sockets the server
    bounds: ``/assist``, a spectator's, or a page's seat.

    >>> [is_page_socket(p) for p in ("/assist", "/watch/0", "/game/you?page=1", "/game/bot")]
    [True, True, True, False]
    """
    where = urlsplit(path).path
    return where == ASSIST or where.startswith(WATCH) or is_page(path)


def table_number(path: str, tables: int) -> int | None:
    """The table ``T`` of ``/watch/T`` (``None`` when it is not one of ``tables``).

    >>> table_number("/watch/1", 2), table_number("/watch/2", 2), table_number("/watch/x", 2)
    (1, None, None)
    """
    text = path[len(WATCH) :]
    if not text.isdigit() or len(text) > 6 or int(text) >= tables:
        return None
    return int(text)


def secured(response: Response) -> Response:
    """``response`` with the headers every answer of the web UI carries (:mod:`~guandan.web.guard`).

    >>> from websockets.datastructures import Headers
    >>> secured(Response(200, "OK", Headers())).headers["X-Content-Type-Options"]
    'nosniff'
    """
    for name, value in SECURITY_HEADERS.items():
        if name in response.headers:
            del response.headers[name]
        response.headers[name] = value
    return response


def with_body(connection: ServerConnection, status: int, body: bytes, content_type: str) -> Response:
    """An answer of ``status`` with ``body`` of ``content_type`` (see the module's example).

    >>> from websockets.server import ServerProtocol
    >>> class Connection:
    ...     respond = ServerProtocol().reject
    >>> answer = with_body(Connection(), 200, b"{}", "application/json")
    >>> answer.body, answer.headers["Content-Type"], answer.headers["Content-Length"]
    (b'{}', 'application/json', '2')
    """
    response = connection.respond(status, "")
    headers = response.headers
    for name in ("Content-Type", "Content-Length"):
        del headers[name]
    headers["Content-Type"] = content_type
    headers["Content-Length"] = str(len(body))
    return secured(dataclasses.replace(response, body=body))


def refuse(connection: ServerConnection, status: int, text: str) -> Response:
    """An answer of ``status`` saying ``text`` on a line.

    >>> from websockets.server import ServerProtocol
    >>> class Connection:
    ...     respond = ServerProtocol().reject
    >>> refuse(Connection(), 403, "no").headers["Content-Type"]
    'text/plain; charset=utf-8'
    """
    return secured(connection.respond(status, text.rstrip("\n") + "\n"))


def page_url_for(server_url: str, page: str = "/") -> str:
    """The page of a server ``ws://HOST:PORT/game/``: ``http://HOST:PORT/`` (``page`` added).

    >>> page_url_for("ws://127.0.0.1:23456/game/", "/viewer")
    'http://127.0.0.1:23456/viewer'
    """
    parts = urlsplit(server_url)
    scheme = "https" if parts.scheme == "wss" else "http"
    return f"{scheme}://{parts.netloc}{quote(page)}"


async def notify(ws: ServerConnection, text: str) -> None:
    """Send a page ``text`` if it is still there (a page gone is not told).

    >>> import asyncio
    >>> class Gone:
    ...     async def send(self, text: str) -> None:
    ...         raise ConnectionClosed(None, None)
    >>> asyncio.run(notify(Gone(), '{"type": "notify"}'))
    """
    with contextlib.suppress(ConnectionClosed):
        await ws.send(text)
