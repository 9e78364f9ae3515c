"""``guandan connect``: an agent of this package as a bot of an AI-competition platform
server (:func:`guandan.platform.run_client`).

>>> from guandan.ui.cli import build_parser
>>> parser = build_parser()
>>> args = parser.parse_args(["connect", "ws://127.0.0.1:23456/game/", "--agent", "mc"])
>>> args.url, args.agent, args.name, args.seed
('ws://127.0.0.1:23456/game/', 'mc', None, 0)
"""

from __future__ import annotations

import argparse
import json
import logging

from . import options
from .common import stderr_log

__all__ = ["HELP", "DESCRIPTION", "EPILOG", "parents", "add_arguments", "run"]

EPILOG = """\
It prints the seat it got, a line at the end of each game and the result; warnings
about the server's messages (a list that disagrees with the engine's, a field it cannot
read) go to stderr. It exits with status 0 after gameResult (or when the server closes
the connection normally, code 1000), 1 when the connection was closed otherwise before
it or the agent raised (its requests were answered by the fallback), and 2 when it could
not connect or the URL is not a WebSocket URL.

examples:
  guandan connect ws://127.0.0.1:23456/game/ --agent greedy     # as the bot named "greedy"
  guandan connect ws://127.0.0.1:23456/game/team7 --agent mc --seed 3 --log team7.jsonl
"""


HELP = "play an agent of this package on an AI-competition platform server"
DESCRIPTION = (
    "Connect to a platform server (guandan serve, or the competition's own) as one bot\n"
    "and play AGENT until the games end: every request is answered with the index of the\n"
    "agent's choice in the server's actionList."
)


def parents() -> list[argparse.ArgumentParser]:
    """The shared options of ``guandan connect``."""
    return [
        options.seed(0, "the agent's seed (default 0)"),
        options.log("write every message received and sent, with times, to FILE (JSONL)"),
        options.output(
            "print the result at the end as JSON", "no per-game lines, and no warnings on stderr (errors only)"
        ),
    ]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``guandan connect`` of its own."""
    p.add_argument(
        "url",
        metavar="URL",
        help="the server: ws://HOST:PORT/game/ (the bot's name is added) or a full ws://HOST:PORT/game/NAME",
    )
    p.add_argument(
        "--agent", default="greedy", metavar="SPEC", help="the agent to play: greedy (default), random, mc, ..."
    )
    p.add_argument("--name", help="the bot's name in the URL (default: the agent's spec)")
    p.add_argument(
        "--idle-timeout",
        type=float,
        default=None,
        metavar="SEC",
        help="give up when the server sends nothing for SEC seconds (default: wait, as the platform's bots do)",
    )


def run(args: argparse.Namespace) -> int:
    """Run ``guandan connect`` with parsed arguments; the exit status."""
    import asyncio

    from ...bots.registry import agent_factory
    from ...platform import run_client

    agent_factory(args.agent)  # a bad spec is refused before connecting

    def report(line: str) -> None:
        if not args.quiet and not args.json:
            print(line, flush=True)

    level = logging.ERROR if args.quiet else logging.WARNING
    with stderr_log("guandan.platform.client", level, "%(asctime)s %(levelname)s %(message)s"):
        result = asyncio.run(
            run_client(
                args.url,
                args.agent,
                name=args.name,
                seed=args.seed,
                log=args.log,
                report=report,
                idle_timeout=args.idle_timeout,
            )
        )
    if args.json:
        print(json.dumps(result.to_json(), indent=2))
    else:
        print(result.format())
    return 0 if result.ok else 1
