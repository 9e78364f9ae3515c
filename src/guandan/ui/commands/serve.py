"""``guandan serve``: the AI-competition platform's game server, for WebSocket bots
(:mod:`guandan.platform`; with ``--web`` the page too, :mod:`guandan.web`).

>>> from guandan.ui.cli import build_parser
>>> parser = build_parser()
>>> args = parser.parse_args(["serve", "--games", "10", "--tables", "2"])
>>> args.host, args.port, args.games, args.tables, args.ruleset, args.seed
('127.0.0.1', 23456, 10, 2, 'platform', None)
"""

from __future__ import annotations

import argparse
import json
import logging

from . import options
from .common import stderr_log

__all__ = ["HELP", "DESCRIPTION", "EPILOG", "parents", "add_arguments", "run"]

EPILOG = """\
The server prints "Ready for connect." when it listens, then one line per game on
stderr, and a summary at the end: games, deals, wins per side, each bot's answer
times. It exits with status 0 when every table played all its games, 1 when a table
was ended early (a bot disconnected or, with --act-timeout, was too slow; Ctrl-C).

examples:
  guandan serve --games 10                       # the offline platform: ./server 10
  guandan serve --games 100 --tables 8 --seed 1 --records runs/ --log runs/messages.jsonl
  guandan serve --ruleset competitive_2022 --act-timeout 5
  guandan serve --web --records runs/            # a person joins at http://127.0.0.1:23456/

With --web the same port also serves the page: a person opens http://HOST:PORT/ in a
browser and takes the next free seat, next to the bots that connected (seats follow
connection order: start the page first for seat 0). The page joins only the server that
served it: a page of another server is refused (same origin only; see --allow-origin).
"""


HELP = "host the AI-competition platform's game server for WebSocket bots"
DESCRIPTION = (
    "A drop-in server for the bots of the Guandan AI competition: they connect to\n"
    "ws://HOST:PORT/game/{name} (seats in connection order; four make a table) and play\n"
    "--games whole matches, exchanging the platform's JSON messages."
)


def parents() -> list[argparse.ArgumentParser]:
    """The shared options of ``guandan serve``."""
    return [
        options.server(23456, "the port (default 23456, the platform's; 0: any)"),
        options.games("whole matches each table plays (default 1)"),
        options.ruleset("platform", "platform (default), competitive_2022, huaian or nanjing"),
        options.seed(None, "the run seed: the same seed, the same deals (default: random)"),
        options.records("write every game as a match record, and summary.json, to DIR"),
        options.log(),
        options.page("with --web: "),
        options.output(
            "print the summary at the end as JSON", "no progress lines on stderr (connections, games, errors)"
        ),
    ]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``guandan serve`` of its own."""
    p.add_argument(
        "--tables", type=int, default=1, metavar="K", help="tables hosted at once; connections 4t..4t+3 sit at table t"
    )
    p.add_argument(
        "--failed-a-limit",
        type=int,
        metavar="N",
        help="failed deals at its own A after which a side drops back to 2 (platform: 2, the manual;"
        " a public re-implementation: 4)",
    )
    p.add_argument(
        "--double-tribute-tie",
        choices=("next", "previous"),
        help="who pays 1st place on equal tribute cards: the seat after it (next, default) or before it",
    )
    p.add_argument(
        "--act-timeout",
        type=float,
        default=None,
        metavar="SEC",
        help="end a table whose bot does not answer within SEC seconds (default: wait, as the platform does)",
    )
    p.add_argument(
        "--web",
        action="store_true",
        help="also serve the page on the same port: a person opens http://HOST:PORT/ and takes the next seat; "
        "the replay viewer at /viewer shows the --records",
    )


def run(args: argparse.Namespace) -> int:
    """Run ``guandan serve`` with parsed arguments; the exit status."""
    import asyncio
    import dataclasses
    import signal

    from ...game.rules import get_ruleset
    from ...platform import PlatformServer, ServeResult
    from ...web.server import WebServer

    ruleset = get_ruleset(args.ruleset)
    changes = {
        name: value
        for name, value in (("failed_a_limit", args.failed_a_limit), ("double_tribute_tie", args.double_tribute_tie))
        if value is not None and value != getattr(ruleset, name)
    }
    if changes:
        suffix = "".join(f"+{name}={value}" for name, value in changes.items())
        ruleset = dataclasses.replace(ruleset, name=ruleset.name + suffix, **changes)
    settings = {
        "host": args.host,
        "port": args.port,
        "games": args.games,
        "tables": args.tables,
        "ruleset": ruleset,
        "seed": args.seed,
        "act_timeout": args.act_timeout,
        "records": args.records,
        "log": args.log,
    }
    server: PlatformServer | WebServer
    if args.web:
        server = WebServer(allow_origins=args.allow_origin, allow_hosts=args.allow_host, spectators=args.spectators,
                           spectators_see_hands=args.spectators_see_hands, reclaim_grace=args.reclaim_grace,
                           **settings)
    else:
        server = PlatformServer(**settings)

    async def serve() -> ServeResult:
        await server.start()
        print("Ready for connect.", flush=True)  # the offline platform's words, on a line of their own
        print(f"{server.url}{{name}}", flush=True)
        if isinstance(server, WebServer):
            print(
                f"the table's page: {server.page_url} (a person takes the next free seat); "
                f"the viewer: {server.viewer_url}",
                flush=True,
            )
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                loop.add_signal_handler(sig, lambda: asyncio.ensure_future(server.close()))
            except (NotImplementedError, RuntimeError):  # not the main thread, or not on this platform
                pass
        return await server.wait()

    with stderr_log("guandan.platform", logging.ERROR if args.quiet else logging.INFO, "%(asctime)s %(message)s"):
        result = asyncio.run(serve())
    if args.json:
        print(json.dumps(result.to_json(), indent=2))
    else:
        print(result.format())
    return 0 if result.complete else 1
