"""``guandan arena``: is one bot stronger than another? The command's arguments and what it
prints; the pairs, the test and the ratings are :mod:`guandan.bots.arena`'s.

>>> parser = argparse.ArgumentParser(prog="guandan")
>>> add_parser(parser.add_subparsers(dest="command"))
>>> args = parser.parse_args(["arena", "greedy", "random", "--sprt", "0,100"])
>>> args.bots, parse_sprt(args.sprt), args.alpha
(['greedy', 'random'], (0.0, 100.0), 0.05)
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from typing import Any

from ..errors import GuandanError, describe

__all__ = ["add_parser", "run", "parse_sprt"]

_EPILOG = """\
A pair is one deal (or with --games one whole game) played twice from the same seed,
the sides swapped: the first bot at seats 0 and 2, then at seats 1 and 3. The luck of
the cards cancels within a pair; pair i of a run is seeded from --seed and i, so a run
is the same whatever --workers.

Head to head (two bots), one of:
  --sprt ELO0,ELO1   a sequential test: H1 "the first bot is ELO1 stronger" against H0
                     "it is ELO0 stronger", stopping as soon as the pairs decide (or at
                     --max-pairs: inconclusive); --alpha and --beta are its error rates
  --pairs N          N pairs: Elo and win rate with 95% intervals from the pairs' variance
Many bots: --round-robin (every pairing) or --gauntlet BOT (BOT against each other one),
  --pairs N each, then ratings by maximum likelihood (the first bot, or BOT, at 0).
A pair scores the deals (or games) its first bot won, halved: 0, 1/2 or 1; with --score
levels it scores 1/2 + (its levels a deal won less lost)/6, from 0 to 1 (thirteen outcomes
for a pair of deals): the test, the Elo and the ratings are then on the levels.

A bot may be a program that speaks the AI competition's protocol: "cmd:COMMAND", its
{url} (and {port}, {seed}) filled in; then every pair is played at a platform server,
seat by seat in connection order (the deals are the server's, not those of the in-process
pairs), e.g. "cmd:python mybot.py {url}" or "cmd:guandan connect {url} --agent greedy".

--out FILE logs every finished pair (JSON Lines); the same command again continues the
run from it, and --report FILE prints its state. Exit status 0 when the run ends (at H0,
H1 or inconclusive alike), 2 for bad input.

examples:
  guandan arena greedy random --sprt 0,100                 # seconds
  guandan arena mc:rollouts=400 greedy --sprt 0,50 --out mc.jsonl --workers 2
  guandan arena greedy greedy:bomb_threshold=3 --pairs 500 --json
  guandan arena greedy greedy:bomb_threshold=3 --sprt 0,20 --score levels
  guandan arena mc greedy random --round-robin --pairs 100 --plot ratings.png
  guandan arena mybot:Bot greedy --games --sprt -20,20 --dask tcp://scheduler:8786 --chunk 4
  guandan arena "cmd:python mybot.py {url}" greedy --games --pairs 10
  guandan arena --report mc.jsonl
"""


def add_parser(commands: Any) -> None:
    """Add the ``arena`` subcommand to the command line's subcommands."""
    p = commands.add_parser(
        "arena",
        help="bot against bot on seeded deal pairs: a sequential test, Elo, ratings",
        description="Play bots against each other on seeded pairs of deals (or games), the sides\n"
        "swapped, and say which is stronger: a sequential probability ratio test, a fixed run\n"
        "with Elo and 95% intervals, or ratings of many bots.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    # "--sprt -20,20": a negative pair of Elo differences is a value, not an option (argparse's
    # own rule knows only single negative numbers)
    p._negative_number_matcher = re.compile(r"^-\d+$|^-\d*\.\d+$|^-\d*\.?\d*,-?\d*\.?\d*$")
    p.add_argument("bots", nargs="*", metavar="BOT", help="agent specs: greedy, mc:rollouts=400, mybot:Bot, ...")
    p.add_argument("--sprt", metavar="ELO0,ELO1", help="the sequential test's hypotheses, e.g. 0,50")
    p.add_argument("--alpha", type=float, default=0.05, help="the test's type I error rate (default 0.05)")
    p.add_argument("--beta", type=float, default=0.05, help="the test's type II error rate (default 0.05)")
    p.add_argument("--max-pairs", type=int, default=20000, help="stop the test here, inconclusive (default 20000)")
    p.add_argument("--pairs", type=int, metavar="N", help="a fixed run of N pairs (each pairing's, with many bots)")
    p.add_argument("--games", action="store_true", help="pairs of whole games (default rules: platform)")
    p.add_argument(
        "--score",
        default="wins",
        metavar="wins|levels",
        help="what a pair scores: the deals (games) won, or the levels won less lost (default wins)",
    )
    p.add_argument("--round-robin", action="store_true", help="every pairing of the bots, then ratings")
    p.add_argument("--gauntlet", metavar="BOT", help="BOT against each of the others, then ratings (BOT at 0)")
    p.add_argument("--seed", type=int, default=0, help="the run seed (default 0)")
    p.add_argument(
        "--ruleset", help="competitive_2022 (the default for deals), platform (for --games), huaian, nanjing[+capN]"
    )
    p.add_argument("--workers", type=int, default=None, help="processes (default: every core; 1: this process)")
    p.add_argument("--dask", metavar="ADDRESS", help="play on the Dask cluster at ADDRESS (tcp://HOST:8786)")
    p.add_argument("--chunk", type=int, metavar="N", help="pairs per task sent to a worker or the cluster (default 1)")
    p.add_argument("--out", metavar="FILE", help="log every finished pair to FILE (JSON Lines); continues a run")
    p.add_argument("--report", metavar="FILE", help="print the state of the run logged in FILE, and play nothing")
    p.add_argument("--plot", metavar="FILE.png", help="draw the LLR and Elo (or the ratings) to FILE (.svg, .pdf)")
    p.add_argument("--json", action="store_true", help="print one JSON object at the end")
    p.add_argument("--quiet", action="store_true", help="no progress line")
    p.set_defaults(run=run)


def parse_sprt(text: str) -> tuple[float, float]:
    """``"ELO0,ELO1"`` as two numbers.

    >>> parse_sprt("-5, 20")
    (-5.0, 20.0)
    >>> parse_sprt("5")
    Traceback (most recent call last):
    ...
    guandan.errors.GuandanError: --sprt: two Elo differences ELO0,ELO1 (e.g. 0,50), got '5'
    """
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        return float(parts[0]), float(parts[1])
    except ValueError:
        raise GuandanError(f"--sprt: two Elo differences ELO0,ELO1 (e.g. 0,50), got {describe(text)}") from None


def run(args: argparse.Namespace) -> int:
    """Run ``guandan arena`` with parsed arguments; the exit status."""
    from ..bots import arena
    from ..bots.elo import check_sprt

    if args.report is not None:
        if args.bots:
            raise GuandanError("--report FILE prints a logged run: give no BOT with it")
        state = arena.from_log(args.report)
        _finish(state, args)
        return 0
    bots = list(args.bots)
    many = args.round_robin or args.gauntlet is not None
    if args.round_robin and args.gauntlet is not None:
        raise GuandanError("--round-robin or --gauntlet BOT, not both")
    gauntlet = None
    if args.gauntlet is not None:
        gauntlet = bots.index(args.gauntlet) if args.gauntlet in bots else 0
        if args.gauntlet not in bots:
            bots.insert(0, args.gauntlet)
    if len(bots) < 2 or (len(bots) != 2 and not many):
        raise GuandanError(
            f"give two bots (head to head), or more with --round-robin or --gauntlet BOT; got {len(bots)}"
        )
    sprt = parse_sprt(args.sprt) if args.sprt is not None else None
    if sprt is not None:
        check_sprt(sprt[0], sprt[1], args.alpha, args.beta)
        if many:
            raise GuandanError("--sprt tests two bots head to head: with many bots give --pairs N")
    for name, value in (
        ("--pairs", args.pairs),
        ("--max-pairs", args.max_pairs),
        ("--workers", args.workers),
        ("--chunk", args.chunk),
    ):
        if value is not None and value < 1:
            raise GuandanError(f"{name} must be at least 1, got {value}")
    if sprt is None and args.pairs is None:
        raise GuandanError("give --sprt ELO0,ELO1 (a sequential test) or --pairs N (a fixed run)")
    if args.plot:
        from ..bots.simulate import check_plot

        check_plot(args.plot)
    kind = "games" if args.games else "deals"
    if args.score not in arena.SCORINGS:
        raise GuandanError(f"--score is wins or levels, got {describe(args.score)}")
    options: dict[str, Any] = {
        "kind": kind,
        "seed": args.seed,
        "ruleset": args.ruleset,
        "out": args.out,
        "chunk": args.chunk,
        "scoring": args.score,
    }
    client = None
    if args.dask is not None:
        client = _dask(args.dask)
        options["executor"] = client.get_executor()
        options["workers"] = args.workers or max(1, len(client.scheduler_info().get("workers", {})))
    else:
        options["workers"] = args.workers
    from ..platform.seated import check_command, is_command, play_pairs_served

    commands = [b for b in bots if is_command(b)]
    for spec in commands:
        check_command(spec)
    if commands:
        options["player"] = play_pairs_served  # programs play at a platform server, and so do the others
    live = _Live(not args.quiet and sys.stderr.isatty())
    try:
        result: arena.HeadToHead | arena.Tournament
        if many:
            result = arena.tournament(bots, pairs=args.pairs, gauntlet=gauntlet, progress=live.count, **options)
        else:
            result = arena.head_to_head(
                bots[0], bots[1], sprt=sprt, alpha=args.alpha, beta=args.beta, pairs=args.pairs,
                max_pairs=args.max_pairs, progress=live.line, **options,
            )  # fmt: skip
    finally:
        live.close()
        if client is not None:
            client.close()
    _finish(result, args)
    return 0


def _dask(address: str) -> Any:
    try:
        import distributed  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise GuandanError(
            "--dask needs the distributed package: pip install '.[dask]' from the guandan checkout"
        ) from None
    try:
        return distributed.Client(address, timeout=30)  # type: ignore[no-untyped-call,unused-ignore]
    except (OSError, TimeoutError, ValueError) as error:
        raise GuandanError(f"--dask: cannot reach the scheduler at {address!r}: {error}") from None


def _finish(result: Any, args: argparse.Namespace) -> None:
    if args.plot:
        from ..bots.simulate import check_plot

        check_plot(args.plot)
        result.plot(args.plot)
    if args.json:
        print(json.dumps(result.summary(), indent=2))
    else:
        print(result.format())
        if args.out:
            print(f"logged in {args.out}")
        if args.plot:
            print(f"wrote {args.plot}")


class _Live:
    """The progress line on stderr (a terminal only), redrawn at most five times a second."""

    def __init__(self, on: bool) -> None:
        self.on = on
        self.last = 0.0
        self.drawn = False

    def _draw(self, text: str) -> None:
        now = time.monotonic()
        if self.on and now - self.last >= 0.2:
            self.last = now
            print(f"\r\x1b[K{text}", end="", file=sys.stderr, flush=True)
            self.drawn = True

    def line(self, run: Any) -> None:
        self._draw(run.progress())

    def count(self, done: int, total: int) -> None:
        self._draw(f"pairs {done} of {total}")

    def close(self) -> None:
        if self.drawn:
            print(file=sys.stderr, flush=True)
