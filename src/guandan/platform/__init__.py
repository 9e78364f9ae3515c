"""The AI-competition platform, both sides: a drop-in game server for the bots written for
the public Guandan AI competition (``guandan serve``), and a client that plays any agent of
this package on such a server (``guandan connect``).

The protocol (``ws://HOST:PORT/game/{name}``, eleven JSON message kinds, answers
``{"actIndex": i}``) is built in layers:

* :mod:`~guandan.platform.actions` — the platform's action format (``[type, rank, cards]``)
  to and from the engine's moves;
* :mod:`~guandan.platform.messages` — each message kind, built from the engine's state,
  and :func:`~guandan.platform.messages.parse_answer`;
* :mod:`~guandan.platform.table` — :class:`PlatformTable`, one table without any I/O:
  seats, games, stages, whose turn, what to send to whom, what an answer does;
* :mod:`~guandan.platform.server` — :class:`PlatformServer`, the asyncio WebSocket server
  that moves JSON between tables and connections, and :class:`ServerHooks`, the one way a
  server built on it (the browser's) adds to it;
* :mod:`~guandan.platform.thread` — :class:`ServerThread` and :func:`start_server`, a server
  in a thread of its own, for synchronous code (the one thread runner);
* :mod:`~guandan.platform.results` — the result (:class:`ServeResult`): every table's games
  and records, each bot's answer times, the summary.

The client side, in layers too:

* :mod:`~guandan.platform.wire` — the server's values (seats, ranks, cards, actions) read
  tolerantly;
* :mod:`~guandan.platform.seat` — :class:`SeatView`, one seat's view rebuilt from the
  messages, and the observation an agent decides from;
* :mod:`~guandan.platform.client` — :class:`PlatformClient`, an agent answering the
  requests, without any I/O;
* :mod:`~guandan.platform.connect` — :func:`run_client`, a client over a WebSocket;
* :mod:`~guandan.platform.local` — :func:`run_local`, a whole game on this machine.

>>> with start_server(port=0, seed=7) as running:
...     running.url.startswith("ws://127.0.0.1:")
True
"""

from .client import ClientResult, PlatformClient
from .connect import client_url, run_client, run_client_sync
from .local import LocalResult, run_local
from .messages import parse_answer
from .results import SeatStats, ServeResult, TableResult
from .seat import GameSummary, SeatView
from .server import DEFAULT_HOST, DEFAULT_PORT, PlatformServer, ServerHooks, TableView, serve_platform
from .table import PlatformTable, Reply, Send, TableState
from .thread import ServerThread, start_server

__all__ = [
    "ClientResult",
    "GameSummary",
    "LocalResult",
    "PlatformClient",
    "SeatView",
    "client_url",
    "run_client",
    "run_client_sync",
    "run_local",
    "DEFAULT_HOST",
    "DEFAULT_PORT",
    "PlatformServer",
    "PlatformTable",
    "Reply",
    "SeatStats",
    "Send",
    "ServeResult",
    "ServerHooks",
    "ServerThread",
    "TableResult",
    "TableView",
    "TableState",
    "parse_answer",
    "serve_platform",
    "start_server",
]
