"""``guandan replay``: a game record printed in the terminal, checked as it is replayed.

>>> parser = argparse.ArgumentParser(prog="guandan")
>>> add_parser(parser.add_subparsers())
>>> args = parser.parse_args(["replay", "match.json", "--deal", "2"])
>>> args.file, args.seat, args.deal
('match.json', 0, 2)
"""

from __future__ import annotations

import argparse
from typing import Any

from ...errors import GuandanError, RecordError
from . import options
from .common import subcommand

__all__ = ["add_parser", "run"]


def add_parser(commands: Any) -> None:
    """Add ``guandan replay`` to the command line's subcommands."""
    p = subcommand(
        commands,
        "replay",
        help="print a game record in the terminal",
        description="Replay a record (serve --records, play --record, simulate --records, web --records) and\n"
        "print it: each deal's hands as dealt, every tribute, return, play and pass, the results.\n"
        "The record is checked as it is replayed: one that does not replay is refused, naming why.",
        parents=[options.seat("whose chair to see it from (default 0)")],
    )
    p.add_argument("file", metavar="FILE", help="the record (JSON)")
    p.add_argument("--deal", type=int, metavar="N", help="only deal N (from 1) of a match")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``guandan replay`` with parsed arguments; the exit status."""
    from ...game.render import format_replay
    from ...records.games import replay
    from ...web.timeline import read_record

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
