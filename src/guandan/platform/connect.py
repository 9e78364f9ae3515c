"""Playing on a platform server over a WebSocket (``guandan connect``): :func:`run_client`
connects a :class:`~guandan.platform.client.PlatformClient` to
``ws://HOST:PORT/game/{name}`` with the ``websockets`` package, sends its answers and
returns its :class:`~guandan.platform.client.ClientResult`; :func:`run_client_sync` does it
from synchronous code, and :func:`client_url` makes the URL from a base URL and a name.
With ``log``, every message received and sent is written as a JSON line with its time
(:mod:`~guandan.platform.log`).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from typing import IO, Any
from urllib.parse import quote, unquote, urlsplit, urlunsplit

from ..bots.agents import Agent
from ..errors import GuandanError, check_number, describe
from .client import ClientResult, PlatformClient
from .log import MessageLog

__all__ = ["client_url", "run_client", "run_client_sync", "MAX_RECEIVED"]

#: The largest message the client reads, in bytes; a larger one closes the connection (code
#: 1009). The server's largest messages are requests for a full hand: about 0.8 MB for the
#: hand of the most moves found (17,062 entries), twenty times below this.
MAX_RECEIVED = 2**24
#: What the client's log keeps of a message received (longer ones are cut, and say so).
MAX_RECEIVED_LOGGED = 2**22


def client_url(url: str, name: str | None = None) -> str:
    """The URL to connect to: a base URL (``ws://HOST:PORT/game/``, or just ``ws://HOST:PORT``)
    plus the bot's ``name``, or a full ``ws://HOST:PORT/game/{name}`` URL as it is.

    >>> client_url("ws://127.0.0.1:23456/game/", "greedy 1")
    'ws://127.0.0.1:23456/game/greedy%201'
    >>> client_url("ws://127.0.0.1:23456", "g"), client_url("ws://10.0.0.5:9000/game/team7")
    ('ws://127.0.0.1:23456/game/g', 'ws://10.0.0.5:9000/game/team7')
    """
    if not isinstance(url, str):
        raise GuandanError(f"a URL is a string ws://HOST:PORT/game/NAME, got {describe(url)}")
    expected = "expected ws://HOST:PORT/game/NAME or ws://HOST:PORT/game/"
    try:
        parts = urlsplit(url.strip())
        port, host = parts.port, parts.hostname  # each raises ValueError when it is not one
    except ValueError as error:
        raise GuandanError(f"not a WebSocket URL: {url!r}: {error} ({expected})") from None
    if parts.scheme not in ("ws", "wss") or not parts.netloc or not host:
        raise GuandanError(f"not a WebSocket URL: {url!r} ({expected})")
    if port == 0:
        raise GuandanError(f"not a WebSocket URL: {url!r}: port 0 (a port is 1 to 65535)")
    if not parts.netloc.isprintable() or any(c.isspace() for c in parts.netloc):
        raise GuandanError(f"not a WebSocket URL: {url!r}: a host has no spaces or control characters")
    try:
        host.encode("idna")
    except UnicodeError as error:
        raise GuandanError(f"not a WebSocket URL: {url!r}: {host!r:.60} is not a host name ({error})") from None
    path = parts.path
    if path in ("", "/"):
        path = "/game/"
    elif path.endswith("/game"):
        path += "/"
    if path.endswith("/"):
        if not name:
            raise GuandanError(f"the URL {url!r} names no bot: give a name (--name) or a URL ending in /game/NAME")
        path += quote(str(name), safe="")
    elif name and unquote(path.rsplit("/", 1)[-1]) != name:
        raise GuandanError(f"the URL {url!r} already names the bot; give --name only with a URL ending in /game/")
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))


async def run_client(
    url: str,
    agent: Agent | str,
    *,
    name: str | None = None,
    seed: int = 0,
    log: str | os.PathLike[str] | IO[str] | None = None,
    report: Callable[[str], None] | None = None,
    open_timeout: float = 10,
    linger: float = 2,
    idle_timeout: float | None = None,
) -> ClientResult:
    """Connect to a platform server and play ``agent`` (an agent or a spec such as
    ``"greedy"``) until the games end; the :class:`ClientResult`.

    ``url``: a full ``ws://HOST:PORT/game/NAME`` URL, or a base URL and ``name`` (default:
    the agent's spec). ``seed`` seeds an agent made from a spec. ``log``: a file (path or
    open text file) for every message received and sent, with times (JSONL). ``report``:
    called with a line at each game's end. After ``gameResult`` the client waits
    ``linger`` seconds for the server to close the connection, then closes it itself.
    ``idle_timeout``: seconds without any message from the server after which the client
    gives up and closes the connection (default ``None``: it waits as long as the server
    says nothing, as the platform's own bots do — the other bots may think for long).

    A message larger than :data:`MAX_RECEIVED` bytes makes the client close the connection
    (code 1009); the result says so (:attr:`ClientResult.ended_by`), as it says when the
    idle timeout ended the games.

    Raises :class:`~guandan.GuandanError` when it cannot connect (refused, HTTP status,
    timeout), naming the URL. A connection closed before ``gameResult`` is not an error:
    the result says how it was closed (``complete`` is false).
    """
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus, InvalidURI

    idle_timeout = check_number("idle_timeout", idle_timeout, above=0, optional=True, unit="seconds")
    client = PlatformClient(agent, seed=seed, report=report)
    target = client_url(url, name if name is not None else (None if _has_name(url) else client.agent_name))
    client.result.url = target
    messages = MessageLog(log)
    try:
        try:
            ws = await connect(
                target,
                open_timeout=open_timeout,
                ping_interval=None,  # an agent may think for long: no keepalive to time out
                max_size=MAX_RECEIVED,
                compression=None,
                proxy=None,
                close_timeout=5,  # then the connection is cut
            )
        except InvalidStatus as error:
            status = error.response.status_code
            body = error.response.body.decode("utf-8", "replace").strip()[:200] if error.response.body else ""
            raise GuandanError(f"cannot connect to {target}: HTTP {status}{': ' + body if body else ''}") from None
        except (OSError, TimeoutError, InvalidHandshake, InvalidURI, ValueError) as error:
            why = str(error) or type(error).__name__
            raise GuandanError(f"cannot connect to {target}: {why}") from None
        messages.event("connect", url=target, agent=client.agent_name)
        result = client.result
        try:
            async with ws:
                while True:
                    text: str | bytes
                    wait = linger if result.complete else idle_timeout
                    try:
                        async with asyncio.timeout(wait):
                            text = await ws.recv()
                    except TimeoutError:
                        if not result.complete:
                            result.ended_by = f"the server sent nothing for {wait:g} s (the idle timeout)"
                            await ws.close(1001, "no message from the server within the idle timeout")
                        break
                    messages.message(text, limit=MAX_RECEIVED_LOGGED, dir="in")
                    answer = client.receive(text)
                    if answer is not None:
                        await ws.send(answer)
                        messages.message(answer, dir="out")
        except ConnectionClosed:
            pass
        sent, received = ws.protocol.close_sent, ws.protocol.close_rcvd
        if sent is not None and sent.code == 1009 and (received is None or not ws.protocol.close_rcvd_then_sent):
            result.ended_by = f"the server sent a message over this client's limit of {MAX_RECEIVED:,} bytes"
        result.close_code = ws.close_code
        result.close_reason = ws.close_reason or ""
        messages.event("close", code=ws.close_code, reason=ws.close_reason, ended_by=result.ended_by or None)
    finally:
        messages.close()
    return client.result


def _has_name(url: str) -> bool:
    try:
        path = urlsplit(url.strip()).path if isinstance(url, str) else ""
    except ValueError:  # not a URL: client_url says why
        return False
    return path not in ("", "/") and not path.endswith(("/game", "/"))


def run_client_sync(url: str, agent: Agent | str, **options: Any) -> ClientResult:
    """:func:`run_client` for synchronous code (runs its own event loop).

    >>> run_client_sync("ws://127.0.0.1:1/game/", "greedy", open_timeout=5)
    Traceback (most recent call last):
    ...
    guandan.errors.GuandanError: cannot connect to ws://127.0.0.1:1/game/greedy: ...
    """
    return asyncio.run(run_client(url, agent, **options))
