"""``guandan web``: a match in the browser against bots, and the replay viewer
(:class:`guandan.web.server.WebGame`).

>>> from guandan.ui.cli import build_parser
>>> parser = build_parser()
>>> args = parser.parse_args(["web", "--bots", "mc", "--seat", "2", "--no-browser"])
>>> args.seat, args.bots, args.port, args.ruleset, args.hint, args.no_browser
(2, 'mc', 0, 'competitive_2022', 'mc', True)
"""

from __future__ import annotations

import argparse
import logging

from ...errors import GuandanError
from . import options
from .common import stderr_log
from .play import BOTS_HELP

__all__ = ["HELP", "DESCRIPTION", "EPILOG", "parents", "add_arguments", "run"]

EPILOG = """\
The page: click cards to select them; the buttons offer every declaration the request
allows for exactly those cards (at level 9, S3 C3 S5 C5 H9 is full house 3 or full house
5), Pass when you may, Hint for the search bot's best three. Keys: arrows move along the
hand, Space selects, 1-9 plays a declaration, Enter the only one, P passes, H hints, Esc
clears, ? lists them. The replay viewer is at /viewer: open any record file, or one of
--records DIR with /viewer?record=NAME.

examples:
  guandan web                                   # you at seat 0, greedy bots
  guandan web --bots mc --seat 2 --records games/
  guandan web --no-browser --port 8765          # then open http://127.0.0.1:8765/
"""


HELP = "play a match against bots in the browser, and replay records"
DESCRIPTION = (
    "Play a match in the browser: a page on 127.0.0.1 where you hold one seat and bots the\n"
    "other three (they run in this process). The page speaks the AI-competition platform's\n"
    "protocol to a platform server on the same port, which also serves the replay viewer."
)


def parents() -> list[argparse.ArgumentParser]:
    """The shared options of ``guandan web``."""
    return [
        options.seat(),
        options.agents("--bots", BOTS_HELP),
        options.match_seed(),
        options.games("whole matches to play (default 1)"),
        options.ruleset("competitive_2022", "competitive_2022 (default), huaian, nanjing or platform"),
        options.server(0, "the port (default: any free port)"),
        options.records("the viewer offers the records of DIR, and your games are written there (web-SEED-gameN.json)"),
        options.log("write every message sent and received, with times, to FILE"),
        options.page(),
    ]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``guandan web`` of its own."""
    p.add_argument("--hint", default="mc", metavar="SPEC", help="the search bot behind the hint (default mc)")
    p.add_argument("--no-browser", action="store_true", help="print the URL only; do not open a browser")
    p.add_argument(
        "--exit", action="store_true", help="stop when the games are over (default: keep serving the viewer)"
    )


def run(args: argparse.Namespace) -> int:
    """Run ``guandan web`` with parsed arguments; the exit status."""
    import asyncio
    import signal
    import webbrowser

    from ...web.server import WebGame

    if args.games < 1:
        raise GuandanError(f"--games must be at least 1, got {args.games}")
    game = WebGame(
        seat=args.seat,
        bots=args.bots,
        games=args.games,
        seed=args.seed,
        ruleset=args.ruleset,
        host=args.host,
        port=args.port,
        records=args.records,
        hint=args.hint,
        log=args.log,
        allow_origins=args.allow_origin,
        allow_hosts=args.allow_host,
        spectators=args.spectators,
        spectators_see_hands=args.spectators_see_hands,
        reclaim_grace=args.reclaim_grace,
    )
    signals: list[int] = []

    async def play() -> None:
        await game.start()
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()

        def stopped(sig: int) -> None:
            signals.append(sig)
            stop.set()

        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                loop.add_signal_handler(sig, stopped, sig)
            except (NotImplementedError, RuntimeError):  # not the main thread, or not on this platform
                pass
        print(
            f"the table: {game.page_url} (seat {args.seat}, seed {game.seed}); the viewer: {game.server.viewer_url}",
            flush=True,
        )
        if not args.no_browser:
            webbrowser.open(game.page_url)
        done = asyncio.ensure_future(game.finished())
        waiting = asyncio.ensure_future(stop.wait())
        await asyncio.wait([done, waiting], return_when=asyncio.FIRST_COMPLETED)
        table = game.table
        if table.is_done:
            outcome = "played" if table.state.value == "finished" else f"ended: {table.abort_reason}"
            print(f"the table's games are {outcome}", flush=True)
            for path in game.server.web_record_files:
                print(f"wrote {path}", flush=True)
        if not args.exit and not stop.is_set():
            print("the viewer stays open; Ctrl-C stops the server", flush=True)
            await waiting
        done.cancel()
        waiting.cancel()
        await game.close()

    with stderr_log("guandan", logging.WARNING, "%(asctime)s %(message)s"):
        asyncio.run(play())
    return 128 + signals[0] if signals else 0  # Ctrl-C: 130, as the shell's status for SIGINT
