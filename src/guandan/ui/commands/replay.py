"""``guandan replay``: a game record printed in the terminal, checked as it is replayed.

>>> from guandan.ui.cli import build_parser
>>> parser = build_parser()
>>> args = parser.parse_args(["replay", "match.json", "--deal", "2"])
>>> args.file, args.seat, args.deal
('match.json', 0, 2)
"""

from __future__ import annotations

import argparse

from ...errors import GuandanError, RecordError
from . import options

__all__ = ["HELP", "DESCRIPTION", "parents", "add_arguments", "run"]


HELP = "print a game record in the terminal"
DESCRIPTION = (
    "Replay a record (serve --records, play --record, simulate --records, web --records) and\n"
    "print it: each deal's hands as dealt, every tribute, return, play and pass, the results.\n"
    "The record is checked as it is replayed: one that does not replay is refused, naming why."
)


def parents() -> list[argparse.ArgumentParser]:
    """The shared options of ``guandan replay``."""
    return [options.seat("whose chair to see it from (default 0)")]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``guandan replay`` of its own."""
    p.add_argument("file", metavar="FILE", help="the record (JSON)")
    p.add_argument("--deal", type=int, metavar="N", help="only deal N (from 1) of a match")


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
