"""The ``guandan`` command: parses arguments, calls the library, prints.

>>> main(["moves", "S5 C5 H2", "--level", "2"])
single 5: ♠5
single 5: ♣5
single 2: ♥2
pair 5: ♠5 ♣5
pair 5: ♠5 ♥2 (♥2 as 5)
pair 5: ♣5 ♥2 (♥2 as 5)
triple 5: ♠5 ♣5 ♥2 (♥2 as 5)
7 legal moves
0
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import sys
from collections.abc import Iterator, Sequence
from importlib.metadata import version

from ..core.cards import Cards, parse_level
from ..core.movegen import legal_moves
from ..core.moves import Move, RankMove
from ..core.notation import parse_play, sort_moves
from ..errors import AmbiguousMoveError, GuandanError, InvalidCardsError, printable
from ..game.rules import get_ruleset
from ..records.jsonio import moves_to_json
from . import interrupt

__all__ = ["main", "build_parser"]

PROG = "guandan"

_NOTATION = """\
cards: a suit letter S H C D (or ♠ ♥ ♣ ♦) then a rank 2-10, T, J, Q, K, A;
  jokers are SB (small, black) and HR (big, red), BJ/RJ accepted too;
  case-insensitive, separated by spaces or commas: "S3 h10 CJ dA SB".
levels: 2-10, T, J, Q, K, A. The two hearts of the level rank are wild."""

_AGENT_SPECS = """\
agents: a registered name (greedy, random, mc, mc-basic, onnx:model=PATH) or an import path package.module:Class
  (a class or factory taking seed=; modules in the current directory are found), then
  options as :KEY=VALUE, values read as int, float, true/false, none or text:
    mc:rollouts=8000:threads=2            greedy:bomb_threshold=3
    mybots.strong:SearchBot:depth=3       mybot:LongestBot"""

_MAIN_EPILOG = """

example:
  guandan moves "S3 C4 D4 C5 D5 H2" --level 2
Run 'guandan COMMAND --help' for a command's options."""

_MOVES_EPILOG = """\
Each line is a move: its type, key and the cards it spends (a wild's meaning
in parentheses); the last line counts them. The pass is listed, last, when
responding to --beat.

declarations (--as): single pair triple full_house straight pair_run
  triple_run bomb straight_flush joker_bomb, optionally :KEY, the key being
  the triple's rank for a full_house and the lowest rank for a sequence
  (A for ace-low), e.g. full_house:5, straight_flush:7.

--json prints one object {"level", "granularity", "moves"}; each move has
  type, key (protocol rank letter, JOKER, or null for the pass), size, suit
  (straight flush only), and cards + as (declared faces) at card granularity
  or ranks + wilds at rank granularity.

examples:
  guandan moves "S3 C4 D4 C5 D5 H2" --level 2
  guandan moves "S5 C5 D5 S9 H2" --level 2 --beat "S4 C4 D4 S8 C8" --json
  guandan moves "SK CK DK H9" --level 9 --beat "S3 C3 S5 C5 H9" --as full_house:5
"""


_PLAY_EPILOG = """\
at your turn, type:
  pair Q, straight 3, bomb 9  play that type and key (asks which cards only when it matters)
  cards [as TYPE:KEY]         play those cards, e.g.  S3 C3 S5 C5 H9 as full_house:5
  a number                    play that move of a numbered list (1 = the weakest)
  pass                        pass (when responding)
  moves                       your moves, grouped by type and key (numbered when few)
  moves all, moves pair       every legal move, or those of one type, numbered
  help                        this help
  quit                        leave the match (Ctrl-D too)
in the tribute and return phases: a number from the list, or a card (e.g. HA).
play passes counter-clockwise: Right plays after you, then Partner, then Left.
On a terminal, lines can be edited and the arrow keys recall earlier ones (readline).
Exit status: 0 at the end of the match, on quit or at the end of input; 130 on Ctrl-C.

""" + _AGENT_SPECS + """
  --bots: one for all three bots, two (one per side: seats 0 and 2, then 1 and 3) or
  four (seats 0-3, yours ignored), separated by commas.

examples:
  guandan play --seat 0 --seed 7 --bots greedy
  guandan play --bots mc,greedy            # your partner (seat 2) mc, the opponents greedy
"""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser, one subcommand per task."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="A Guandan engine: every legal move, exactly.",
        epilog=_NOTATION + _MAIN_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {version('guandan')}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    moves = commands.add_parser(
        "moves",
        help="list the legal moves of a hand",
        description="List every legal move of HAND at a level: every lead, or with --beat\n"
        "every play that beats the given one, and the pass.\n\n" + _NOTATION,
        epilog=_MOVES_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    moves.add_argument(
        "hand",
        nargs="+",
        metavar="HAND",
        help='the cards held: one quoted string ("S3 C4 D4 C5 D5 H2") or several words',
    )
    moves.add_argument(
        "--level", "-l", required=True, metavar="L", help="the deal's level rank: 2-10, T, J, Q, K, A"
    )
    moves.add_argument("--beat", metavar="CARDS", help="the cards of the play to beat (omit to lead)")
    moves.add_argument(
        "--as",
        dest="declared_as",
        metavar="TYPE[:KEY]",
        help="how the --beat cards are declared, when they can be played more than one way",
    )
    moves.add_argument(
        "--granularity",
        "-g",
        choices=("card", "rank"),
        default="card",
        help="card: moves differ by the physical cards spent (default); "
        "rank: by the ranks spent and the number of wilds",
    )
    moves.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    moves.set_defaults(run=_run_moves)

    play = commands.add_parser(
        "play",
        help="play a match against three bots in the terminal",
        description="Play a match at the terminal: you hold one seat, bots the other three.\n\n" + _NOTATION,
        epilog=_PLAY_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    play.add_argument("--seat", type=int, choices=range(4), default=0, help="your seat, 0-3 (default 0)")
    play.add_argument("--seed", type=int, default=None, help="the match seed (default: from the clock)")
    play.add_argument(
        "--bots",
        default="greedy",
        metavar="A[,A[,A,A]]",
        help="the bots: one agent for all three, two (seats 0 and 2, then 1 and 3) or four (seats 0-3; "
        "yours is ignored), each greedy, random, mc (the search bot) or package.module:Class, "
        "options after colons (mc:think_ms=100); default greedy",
    )
    play.add_argument(
        "--ruleset",
        default="competitive_2022",
        help="competitive_2022 (default), huaian or nanjing; add +capN for a cap of N deals",
    )
    play.add_argument(
        "--record",
        metavar="FILE",
        help="write the match's record to FILE when it ends (JSON, as serve --records; guandan replay FILE shows it)",
    )
    play.set_defaults(run=_run_play)

    simulate = commands.add_parser(
        "simulate",
        help="play many seeded matches or deals and summarise them",
        description="Play N seeded matches (or deals) with the given agents on every core and print\n"
        "win rates with 95% intervals, the results (1-2, 1-3, 1-4), levels, bombs and passes.\n"
        "Task i is seeded from --seed and i: results do not depend on --workers.",
        epilog=_SIMULATE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    simulate.add_argument("n", type=int, metavar="N", help="how many matches (or deals with --deals)")
    simulate.add_argument(
        "--agents",
        default="greedy",
        metavar="A[,A[,A,A]]",
        help="one agent for every seat, two (one per side: seats 0 and 2, then 1 and 3) or four "
        "(seats 0-3); each greedy, random, mc or package.module:Class, with options after colons "
        "(mc:think_ms=100); default greedy",
    )
    simulate.add_argument("--deals", action="store_true", help="play single deals at level 2 instead of matches")
    simulate.add_argument("--seed", type=int, default=0, help="the run seed (default 0)")
    simulate.add_argument("--workers", type=int, default=None, help="processes (default: every core; 1: this process)")
    simulate.add_argument(
        "--ruleset", default="competitive_2022", help="competitive_2022 (default), huaian, nanjing[+capN]"
    )
    simulate.add_argument(
        "--out",
        metavar="FILE",
        help="write one row per deal to FILE.jsonl (JSON Lines), FILE.json (a JSON array) or FILE.csv (CSV)",
    )
    simulate.add_argument(
        "--plot",
        metavar="FILE.png",
        help="draw the win-rate convergence and the results to FILE.png (.svg, .pdf; needs matplotlib)",
    )
    simulate.add_argument(
        "--records",
        metavar="DIR",
        help="write every match (or deal) as a record to DIR (made if missing): ONE FILE PER GAME, "
        "match-000000.json, ... (a few hundred kB a match: 10000 matches take gigabytes)",
    )
    simulate.add_argument("--json", action="store_true", help="print the summary as JSON")
    simulate.add_argument("--quiet", action="store_true", help="no progress bar")
    simulate.set_defaults(run=_run_simulate)

    from .arena import add_parser as add_arena_parser  # guandan arena: its arguments and its run are there

    add_arena_parser(commands)

    serve = commands.add_parser(
        "serve",
        help="host the AI-competition platform's game server for WebSocket bots",
        description="A drop-in server for the bots of the Guandan AI competition: they connect to\n"
        "ws://HOST:PORT/game/{name} (seats in connection order; four make a table) and play\n"
        "--games whole matches, exchanging the platform's JSON messages.",
        epilog=_SERVE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=23456, help="the port (default 23456, the platform's; 0: any)")
    serve.add_argument("--games", type=int, default=1, metavar="N", help="whole matches each table plays (default 1)")
    serve.add_argument(
        "--tables", type=int, default=1, metavar="K", help="tables hosted at once; connections 4t..4t+3 sit at table t"
    )
    serve.add_argument(
        "--ruleset",
        default="platform",
        help="platform (default), competitive_2022, huaian or nanjing; add +capN for a cap of N deals",
    )
    serve.add_argument(
        "--failed-a-limit",
        type=int,
        metavar="N",
        help="failed deals at its own A after which a side drops back to 2 (platform: 2, the manual;"
        " a public re-implementation: 4)",
    )
    serve.add_argument(
        "--double-tribute-tie",
        choices=("next", "previous"),
        help="who pays 1st place on equal tribute cards: the seat after it (next, default) or before it",
    )
    serve.add_argument(
        "--seed", type=int, default=None, help="the run seed: the same seed, the same deals (default: random)"
    )
    serve.add_argument(
        "--act-timeout",
        type=float,
        default=None,
        metavar="SEC",
        help="end a table whose bot does not answer within SEC seconds (default: wait, as the platform does)",
    )
    serve.add_argument("--records", metavar="DIR", help="write every game as a match record, and summary.json, to DIR")
    serve.add_argument(
        "--log", metavar="FILE", help="write every message sent and received, with times, to FILE (JSONL)"
    )
    serve.add_argument(
        "--web",
        action="store_true",
        help="also serve the page on the same port: a person opens http://HOST:PORT/ and takes the next seat; "
        "the replay viewer at /viewer shows the --records",
    )
    _add_page_options(serve, "with --web: ")
    serve.add_argument("--json", action="store_true", help="print the summary at the end as JSON")
    serve.add_argument("--quiet", action="store_true", help="no progress lines on stderr (connections, games, errors)")
    serve.set_defaults(run=_run_serve)

    connect = commands.add_parser(
        "connect",
        help="play an agent of this package on an AI-competition platform server",
        description="Connect to a platform server (guandan serve, or the competition's own) as one bot\n"
        "and play AGENT until the games end: every request is answered with the index of the\n"
        "agent's choice in the server's actionList.",
        epilog=_CONNECT_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    connect.add_argument(
        "url",
        metavar="URL",
        help="the server: ws://HOST:PORT/game/ (the bot's name is added) or a full ws://HOST:PORT/game/NAME",
    )
    connect.add_argument(
        "--agent", default="greedy", metavar="SPEC", help="the agent to play: greedy (default), random, mc, ..."
    )
    connect.add_argument("--name", help="the bot's name in the URL (default: the agent's spec)")
    connect.add_argument("--seed", type=int, default=0, help="the agent's seed (default 0)")
    connect.add_argument(
        "--log", metavar="FILE", help="write every message received and sent, with times, to FILE (JSONL)"
    )
    connect.add_argument(
        "--idle-timeout",
        type=float,
        default=None,
        metavar="SEC",
        help="give up when the server sends nothing for SEC seconds (default: wait, as the platform's bots do)",
    )
    connect.add_argument("--json", action="store_true", help="print the result at the end as JSON")
    connect.add_argument(
        "--quiet", action="store_true", help="no per-game lines, and no warnings on stderr (errors only)"
    )
    connect.set_defaults(run=_run_connect)

    web = commands.add_parser(
        "web",
        help="play a match against bots in the browser, and replay records",
        description="Play a match in the browser: a page on 127.0.0.1 where you hold one seat and bots the\n"
        "other three (they run in this process). The page speaks the AI-competition platform's\n"
        "protocol to a platform server on the same port, which also serves the replay viewer.",
        epilog=_WEB_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    web.add_argument("--seat", type=int, choices=range(4), default=0, help="your seat, 0-3 (default 0)")
    web.add_argument(
        "--bots",
        default="greedy",
        metavar="A[,A[,A,A]]",
        help="the bots, as for guandan play: one agent for all three, two (seats 0 and 2, then 1 and 3) or "
        "four (yours ignored); default greedy",
    )
    web.add_argument("--seed", type=int, default=None, help="the match seed (default: from the clock)")
    web.add_argument("--games", type=int, default=1, metavar="N", help="whole matches to play (default 1)")
    web.add_argument(
        "--ruleset",
        default="competitive_2022",
        help="competitive_2022 (default), huaian, nanjing or platform; add +capN for a cap of N deals",
    )
    web.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    web.add_argument("--port", type=int, default=0, help="the port (default: any free port)")
    web.add_argument(
        "--records",
        metavar="DIR",
        help="the viewer offers the records of DIR, and your games are written there (web-SEED-gameN.json)",
    )
    web.add_argument("--hint", default="mc", metavar="SPEC", help="the search bot behind the hint (default mc)")
    web.add_argument("--log", metavar="FILE", help="write every message sent and received, with times, to FILE")
    web.add_argument("--no-browser", action="store_true", help="print the URL only; do not open a browser")
    web.add_argument(
        "--exit", action="store_true", help="stop when the games are over (default: keep serving the viewer)"
    )
    _add_page_options(web, "")
    web.set_defaults(run=_run_web)

    replay = commands.add_parser(
        "replay",
        help="print a game record in the terminal",
        description="Replay a record (serve --records, play --record, simulate --records, web --records) and\n"
        "print it: each deal's hands as dealt, every tribute, return, play and pass, the results.\n"
        "The record is checked as it is replayed: one that does not replay is refused, naming why.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    replay.add_argument("file", metavar="FILE", help="the record (JSON)")
    replay.add_argument("--seat", type=int, choices=range(4), default=0, help="whose chair to see it from (default 0)")
    replay.add_argument("--deal", type=int, metavar="N", help="only deal N (from 1) of a match")
    replay.set_defaults(run=_run_replay)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for bad input, with a message on stderr)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # --help, --version, or a usage error already printed
        return exit_.code if isinstance(exit_.code, int) else 2
    _importable_current_directory()
    try:
        interrupt.loaded()  # from here Ctrl-C is a KeyboardInterrupt, caught below
        status: int = args.run(args)
        return status
    except GuandanError as error:  # its message may quote what came from outside: made printable
        print(f"{PROG}: error: {printable(error)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C: one line, no traceback, the shell's status for SIGINT
        print(f"\n{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (``guandan moves … | head``): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _importable_current_directory() -> None:
    """Let agents named by import path (``mybot:MyBot``) be found in the current directory,
    as ``python -m`` does; searched after the installed packages, so it shadows none."""
    here = os.getcwd()
    if "" not in sys.path and here not in sys.path:
        sys.path.append(here)


_SIMULATE_EPILOG = _AGENT_SPECS + """
  --agents: one for every seat, two (one per side: seats 0 and 2, then 1 and 3) or four
  (seats 0-3), separated by commas.

An agent that raises stops the run: the error names the task, its seed (to replay it),
the seat and the agent, with the agent's own lines of the traceback; exit status 1.

examples:
  guandan simulate 200                                  # greedy vs greedy, 200 matches, seconds
  guandan simulate 40 --deals --agents mc:rollouts=200,greedy --out runs.jsonl --plot runs.png
                                                        # the search bot: about 12 s of CPU
  guandan simulate 100 --agents mybot:LongestBot,greedy # mybot.py in this directory
  guandan simulate 10000 --deals --agents random --workers 2 --json
  guandan simulate 20 --deals --agents mc:rollouts=200,greedy --records runs/
                                                        # then: guandan web --records runs/

--records writes one JSON file per match (or deal): a match record is some
hundred kB, so a run of thousands of games writes thousands of files and gigabytes.
"""


def _run_simulate(args: argparse.Namespace) -> int:
    from ..bots.registry import make_agents
    from ..bots.simulate import check_out, check_plot, check_records, format_summary, simulate

    if args.n < 1:
        raise GuandanError(f"N must be at least 1, got {args.n}")
    if args.workers is not None and args.workers < 1:
        raise GuandanError(
            f"--workers: at least 1 process (1 plays in this one; omit it for every core), got {args.workers}"
        )
    make_agents(args.agents, args.seed)  # every check before the run, none after it: the specs and their options
    get_ruleset(args.ruleset)
    if args.out:
        check_out(args.out)
    if args.plot:
        check_plot(args.plot)
    if args.records:
        check_records(args.records)
    try:
        result = simulate(
            args.n,
            args.agents,
            seed=args.seed,
            kind="deal" if args.deals else "match",
            ruleset=args.ruleset,
            workers=args.workers,
            progress=not args.quiet and sys.stderr.isatty(),
            records=args.records,
        )
    except GuandanError:
        raise
    except Exception as error:
        if not _agent_error(error):
            raise  # the library's own: a bug, with its traceback
        return 1
    summary = result.summary()
    if args.out:
        result.write(args.out)
    if args.plot:
        result.plot(args.plot)
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(format_summary(summary))
        for path in (args.out, args.plot):
            if path:
                print(f"wrote {path}")
        if args.records:
            print(f"wrote {args.n} record{'s' if args.n != 1 else ''} to {args.records}")
    return 0


def _agent_error(error: BaseException) -> bool:
    """Report an exception a plug-in agent raised during a run (the play loop noted the
    seat, the run the task and seed): one error line, then the traceback's lines of the
    agent's own code (not this package's, not the worker process's machinery). ``False``
    for any other exception — a built-in agent's is the library's bug, left to surface."""
    from ..bots.loop import AGENT_RAISED

    notes = [str(n) for n in getattr(error, "__notes__", ())]
    raised = next((n for n in notes if n.startswith(AGENT_RAISED)), None)
    if raised is None or "agent of seat" not in raised:
        return False
    name = raised.split("(", 1)[1].split(")", 1)[0] if "(" in raised else ""
    if ":" not in name:  # a registered agent of this package: a bug of the library
        return False
    where = " ".join(n for n in notes if n.startswith("in task")).removeprefix("in ").removesuffix(" of the run")
    print(
        f"{PROG}: error: {where + ': ' if where else ''}{raised.removeprefix(AGENT_RAISED).strip()} raised "
        f"{type(error).__name__}: {printable(error)}",
        file=sys.stderr,
    )
    for line in _own_frames(error):
        print(line, file=sys.stderr)
    return True


def _own_frames(error: BaseException) -> list[str]:
    """The traceback lines of the frames outside this package (the agent's code), from the
    exception itself or, raised in a worker process, from the traceback it carries."""
    import traceback
    from pathlib import Path

    package = str(Path(__file__).resolve().parents[1])
    remote = error.__cause__
    if remote is not None and hasattr(remote, "tb"):  # concurrent.futures' _RemoteTraceback
        text = str(remote.tb).splitlines()
        frames, keep = [], False
        for line in text:
            if line.startswith('  File "'):
                keep = package not in line and "concurrent/futures" not in line
            if keep and line.startswith("  "):
                frames.append(line)
        return frames
    summary = traceback.extract_tb(error.__traceback__)
    own = [f for f in summary if not str(Path(f.filename).resolve()).startswith(package)]
    return [line.rstrip("\n") for line in traceback.format_list(own) for line in line.splitlines()]


_SERVE_EPILOG = """\
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


def _add_page_options(parser: argparse.ArgumentParser, prefix: str) -> None:
    """The options of the page's server: who may use it besides the page's own origin."""
    parser.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help=f"{prefix}let pages of ORIGIN (http://host:port) use the page's sockets too; repeatable "
        "(default: the page's own origin only)",
    )
    parser.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help=f"{prefix}a name this machine is reached by that requests may give in Host, besides 127.0.0.1, "
        "localhost, [::1] and --host; repeatable",
    )
    parser.add_argument("--spectators", type=int, default=8, metavar="N",
                        help=f"{prefix}pages that may watch each table at once, read only, from /watch "
                        "(default 8; 0: none)")
    parser.add_argument("--spectators-see-hands", action="store_true",
                        help=f"{prefix}show spectators every hand, for teaching or commentary "
                        "(default: what every seat sees only)")
    parser.add_argument("--reclaim-grace", type=float, default=60.0, metavar="SECONDS",
                        help=f"{prefix}how long a page's seat waits for the page to come back (reloaded) during the "
                        "games before its table ends (default 60; 0: at once)")


def _run_serve(args: argparse.Namespace) -> int:
    import asyncio
    import dataclasses
    import signal

    from ..game.rules import get_ruleset
    from ..platform import PlatformServer, ServeResult
    from ..web.server import WebServer

    ruleset = get_ruleset(args.ruleset)
    changes = {
        name: value
        for name, value in (("failed_a_limit", args.failed_a_limit), ("double_tribute_tie", args.double_tribute_tie))
        if value is not None and value != getattr(ruleset, name)
    }
    if changes:
        suffix = "".join(f"+{name}={value}" for name, value in changes.items())
        ruleset = dataclasses.replace(ruleset, name=ruleset.name + suffix, **changes)
    options = {
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
    server: PlatformServer
    if args.web:
        server = WebServer(allow_origins=args.allow_origin, allow_hosts=args.allow_host, spectators=args.spectators,
                           spectators_see_hands=args.spectators_see_hands, reclaim_grace=args.reclaim_grace, **options)
    else:
        server = PlatformServer(**options)

    async def run() -> ServeResult:
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

    with _stderr_log("guandan.platform", logging.ERROR if args.quiet else logging.INFO, "%(asctime)s %(message)s"):
        result = asyncio.run(run())
    if args.json:
        print(json.dumps(result.to_json(), indent=2))
    else:
        print(result.format())
    return 0 if result.complete else 1


_CONNECT_EPILOG = """\
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


_WEB_EPILOG = """\
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


def _run_web(args: argparse.Namespace) -> int:
    import asyncio
    import signal
    import webbrowser

    from ..web.server import WebGame

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

    async def run() -> None:
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
        print(f"the table: {game.page_url} (seat {args.seat}, seed {game.seed}); the viewer: {game.server.viewer_url}",
              flush=True)
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

    with _stderr_log("guandan", logging.WARNING, "%(asctime)s %(message)s"):
        asyncio.run(run())
    return 128 + signals[0] if signals else 0  # Ctrl-C: 130, as the shell's status for SIGINT


def _run_replay(args: argparse.Namespace) -> int:
    from ..errors import RecordError
    from ..game.render import format_replay
    from ..records.games import replay
    from ..web.timeline import read_record

    try:
        with open(args.file, "rb") as f:
            data = read_record(f.read())
    except OSError as error:
        raise GuandanError(f"cannot read {args.file!r}: {error.strerror}") from None
    try:
        state = replay(data)
    except RecordError as error:
        raise RecordError(f"{args.file} does not replay: {error}") from None
    for line in format_replay(state, viewer=args.seat, deal=args.deal):
        print(line)
    return 0


class _PrintableFormatter(logging.Formatter):
    """Log lines for a person: each line's message made printable (:func:`~guandan.errors.printable`:
    a bot's name or a server's text cannot forge a line or drive the terminal); a traceback
    after it is left as Python wrote it."""

    def formatMessage(self, record: logging.LogRecord) -> str:  # noqa: N802 - logging's name
        return printable(super().formatMessage(record))


@contextlib.contextmanager
def _stderr_log(name: str, level: int, fmt: str) -> Iterator[None]:
    """The log lines of logger ``name`` from ``level`` on stderr (with their time), for the duration."""
    log = logging.getLogger(name)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_PrintableFormatter(fmt, "%H:%M:%S"))
    saved = (log.level, log.propagate)
    log.addHandler(handler)
    log.setLevel(level)
    log.propagate = False
    try:
        yield
    finally:
        log.removeHandler(handler)
        log.setLevel(saved[0])
        log.propagate = saved[1]


def _run_connect(args: argparse.Namespace) -> int:
    import asyncio

    from ..bots.registry import agent_factory
    from ..platform import run_client

    agent_factory(args.agent)  # a bad spec is refused before connecting

    def report(line: str) -> None:
        if not args.quiet and not args.json:
            print(line, flush=True)

    level = logging.ERROR if args.quiet else logging.WARNING
    with _stderr_log("guandan.platform.client", level, "%(asctime)s %(levelname)s %(message)s"):
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


def _run_play(args: argparse.Namespace) -> int:
    from .terminal import play_match

    return play_match(
        seat=args.seat,
        seed=args.seed,
        bots=args.bots,
        ruleset=args.ruleset,
        stdin=sys.stdin,
        stdout=sys.stdout,
        record=args.record,
    )


def _run_moves(args: argparse.Namespace) -> int:
    try:
        level = parse_level(args.level)
    except GuandanError:
        message = f"--level: bad level {args.level!r} (expected a rank 2-10, T, J, Q, K or A)"
        raise InvalidCardsError(message) from None
    hand = Cards.parse(" ".join(args.hand))
    if not hand:
        given = " ".join(args.hand)
        raise InvalidCardsError(f'HAND holds no card: give the cards held, e.g. "S3 C4 D4" (got {given!r})')
    beat: Move | RankMove | None = None
    if args.beat is not None:
        try:
            beat = parse_play(args.beat, level, args.declared_as)
        except AmbiguousMoveError as error:
            raise AmbiguousMoveError(f"--beat: {error}; choose one with --as") from None
        except GuandanError as error:
            raise error.in_context("--beat") from None
        if args.granularity == "rank":
            beat = beat.to_rank()
    elif args.declared_as is not None:
        raise GuandanError("--as declares the --beat cards; give --beat too")
    moves = sort_moves(legal_moves(hand, level, beat=beat, granularity=args.granularity))
    if args.json:
        print(json.dumps(moves_to_json(moves, level, args.granularity)))
    else:
        for move in moves:
            print(move.format("unicode") if isinstance(move, Move) else str(move))
        print(f"{len(moves)} legal move{'' if len(moves) == 1 else 's'}")
    return 0
