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
from ..errors import AmbiguousMoveError, GuandanError, InvalidCardsError
from ..records.jsonio import moves_to_json

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
    simulate.add_argument("--json", action="store_true", help="print the summary as JSON")
    simulate.add_argument("--quiet", action="store_true", help="no progress bar")
    simulate.set_defaults(run=_run_simulate)

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
    connect.add_argument("--json", action="store_true", help="print the result at the end as JSON")
    connect.add_argument(
        "--quiet", action="store_true", help="no per-game lines, and no warnings on stderr (errors only)"
    )
    connect.set_defaults(run=_run_connect)
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
        status: int = args.run(args)
        return status
    except GuandanError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
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

examples:
  guandan simulate 200                                  # greedy vs greedy, 200 matches
  guandan simulate 100 --agents mc,greedy --out runs.jsonl --plot runs.png
  guandan simulate 100 --agents mybot:LongestBot,greedy # mybot.py in this directory
  guandan simulate 10000 --deals --agents random --workers 2 --json
"""


def _run_simulate(args: argparse.Namespace) -> int:
    from ..bots.registry import seat_specs
    from ..bots.simulate import check_out, check_plot, format_summary, simulate

    if args.n < 1:
        raise GuandanError(f"N must be at least 1, got {args.n}")
    seat_specs(args.agents)  # every check before the run, none after it
    if args.out:
        check_out(args.out)
    if args.plot:
        check_plot(args.plot)
    result = simulate(
        args.n,
        args.agents,
        seed=args.seed,
        kind="deal" if args.deals else "match",
        ruleset=args.ruleset,
        workers=args.workers,
        progress=not args.quiet and sys.stderr.isatty(),
    )
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
    return 0


_SERVE_EPILOG = """\
The server prints "Ready for connect." when it listens, then one line per game on
stderr, and a summary at the end: games, deals, wins per side, each bot's answer
times. It exits with status 0 when every table played all its games, 1 when a table
was ended early (a bot disconnected or, with --act-timeout, was too slow; Ctrl-C).

examples:
  guandan serve --games 10                       # the offline platform: ./server 10
  guandan serve --games 100 --tables 8 --seed 1 --records runs/ --log runs/messages.jsonl
  guandan serve --ruleset competitive_2022 --act-timeout 5
"""


def _run_serve(args: argparse.Namespace) -> int:
    import asyncio
    import dataclasses
    import signal

    from ..game.rules import get_ruleset
    from ..platform import PlatformServer, ServeResult

    ruleset = get_ruleset(args.ruleset)
    changes = {
        name: value
        for name, value in (("failed_a_limit", args.failed_a_limit), ("double_tribute_tie", args.double_tribute_tie))
        if value is not None and value != getattr(ruleset, name)
    }
    if changes:
        suffix = "".join(f"+{name}={value}" for name, value in changes.items())
        ruleset = dataclasses.replace(ruleset, name=ruleset.name + suffix, **changes)
    server = PlatformServer(
        host=args.host,
        port=args.port,
        games=args.games,
        tables=args.tables,
        ruleset=ruleset,
        seed=args.seed,
        act_timeout=args.act_timeout,
        records=args.records,
        log=args.log,
    )

    async def run() -> ServeResult:
        await server.start()
        print("Ready for connect.", flush=True)  # the offline platform's words, on a line of their own
        print(f"{server.url}{{name}}", flush=True)
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
not connect.

examples:
  guandan connect ws://127.0.0.1:23456/game/ --agent greedy     # as the bot named "greedy"
  guandan connect ws://127.0.0.1:23456/game/team7 --agent mc --seed 3 --log team7.jsonl
"""


@contextlib.contextmanager
def _stderr_log(name: str, level: int, fmt: str) -> Iterator[None]:
    """The log lines of logger ``name`` from ``level`` on stderr (with their time), for the duration."""
    log = logging.getLogger(name)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter(fmt, "%H:%M:%S"))
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
            run_client(args.url, args.agent, name=args.name, seed=args.seed, log=args.log, report=report)
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
    )


def _run_moves(args: argparse.Namespace) -> int:
    try:
        level = parse_level(args.level)
    except GuandanError:
        message = f"--level: bad level {args.level!r} (expected a rank 2-10, T, J, Q, K or A)"
        raise InvalidCardsError(message) from None
    hand = Cards.parse(" ".join(args.hand))
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
