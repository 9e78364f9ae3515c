"""``guandan simulate``: many seeded matches or deals between agents, summarised
(:mod:`guandan.bots.simulate`).

>>> from guandan.ui.cli import build_parser
>>> parser = build_parser()
>>> args = parser.parse_args(["simulate", "20", "--deals", "--agents", "mc,greedy", "--workers", "2"])
>>> args.n, args.deals, args.agents, args.seed, args.workers
(20, True, 'mc,greedy', 0, 2)
"""

from __future__ import annotations

import argparse
import json
import sys
import traceback
from pathlib import Path

from ...errors import GuandanError, printable
from . import options
from .common import PROG

__all__ = ["HELP", "DESCRIPTION", "EPILOG", "parents", "add_arguments", "run"]

EPILOG = (
    options.AGENT_SPECS
    + """
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
)


HELP = "play many seeded matches or deals and summarise them"
DESCRIPTION = (
    "Play N seeded matches (or deals) with the given agents on every core and print\n"
    "win rates with 95% intervals, the results (1-2, 1-3, 1-4), levels, bombs and passes.\n"
    "Task i is seeded from --seed and i: results do not depend on --workers."
)


def parents() -> list[argparse.ArgumentParser]:
    """The shared options of ``guandan simulate``."""
    return [
        options.agents(
            "--agents",
            "one agent for every seat, two (one per side: seats 0 and 2, then 1 and 3) or four "
            "(seats 0-3); each greedy, random, mc or package.module:Class, with options after colons "
            "(mc:think_ms=100)",
        ),
        options.seed(0, "the run seed (default 0)"),
        options.workers(),
        options.ruleset("competitive_2022", "competitive_2022 (default), huaian or nanjing"),
        options.records(
            "write every match (or deal) as a record to DIR (made if missing): ONE FILE PER GAME, "
            "match-000000.json, ... (a few hundred kB a match: 10000 matches take gigabytes)"
        ),
        options.output("print the summary as JSON", "no progress bar"),
    ]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``guandan simulate`` of its own."""
    p.add_argument("n", type=int, metavar="N", help="how many matches (or deals with --deals)")
    p.add_argument("--deals", action="store_true", help="play single deals at level 2 instead of matches")
    p.add_argument(
        "--out",
        metavar="FILE",
        help="write one row per deal to FILE.jsonl (JSON Lines), FILE.json (a JSON array) or FILE.csv (CSV)",
    )
    p.add_argument(
        "--plot",
        metavar="FILE.png",
        help="draw the win-rate convergence and the results to FILE.png (.svg, .pdf; needs matplotlib)",
    )


def run(args: argparse.Namespace) -> int:
    """Run ``guandan simulate`` with parsed arguments; the exit status."""
    from ...bots.registry import make_agents
    from ...bots.simulate import check_out, check_plot, check_records, format_summary, simulate
    from ...game.rules import get_ruleset

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
        if not agent_error(error):
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


def agent_error(error: BaseException) -> bool:
    """Report an exception a plug-in agent (one named by import path) raised during a run:
    one error line naming the task and seed, the seat and the agent (the play loop's
    :class:`~guandan.bots.loop.AgentRaised` note), then the traceback's lines of the agent's
    own code (not this package's, not the worker process's machinery). ``False`` for any
    other exception — a built-in agent's is the library's bug, left to surface.

    >>> agent_error(RuntimeError("not an agent's"))
    False
    """
    from ...bots.loop import AgentRaised

    raised = next((n for n in getattr(error, "__notes__", ()) if isinstance(n, AgentRaised)), None)
    if raised is None or ":" not in raised.agent:  # a registered agent of this package: a bug of the library
        return False
    where = f"task {raised.task} (seed {raised.seed}): " if raised.task is not None else ""
    print(
        f"{PROG}: error: {where}{raised.where} raised {type(error).__name__}: {printable(error)}",
        file=sys.stderr,
    )
    for line in _own_frames(error):
        print(line, file=sys.stderr)
    return True


def _own_frames(error: BaseException) -> list[str]:
    """The traceback lines of the frames outside this package (the agent's code), from the
    exception itself or, raised in a worker process, from the traceback it carries."""
    package = str(Path(__file__).resolve().parents[2])
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
