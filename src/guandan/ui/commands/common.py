"""What the commands share when they run: the program's name, a subcommand's parser made
the same way for each, and log lines on stderr for a person.

>>> parser = argparse.ArgumentParser(prog=PROG)
>>> p = subcommand(parser.add_subparsers(), "hello", help="say hello", description="Say hello.")
>>> p.prog
'guandan hello'
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import sys
from collections.abc import Iterator, Sequence
from typing import Any

from ...errors import printable

__all__ = ["PROG", "subcommand", "stderr_log"]

#: The command's name, in its messages.
PROG = "guandan"


def subcommand(
    commands: Any,
    name: str,
    *,
    help: str,
    description: str,
    epilog: str | None = None,
    parents: Sequence[argparse.ArgumentParser] = (),
) -> argparse.ArgumentParser:
    """Add subcommand ``name`` to ``commands`` (the main parser's subparsers), its shared
    options taken from ``parents`` (:mod:`~guandan.ui.commands.options`); its description
    and epilog are printed as written."""
    parser: argparse.ArgumentParser = commands.add_parser(
        name,
        help=help,
        description=description,
        epilog=epilog,
        parents=list(parents),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    return parser


class _PrintableFormatter(logging.Formatter):
    """Log lines for a person: each line's message made printable (:func:`~guandan.errors.printable`:
    a bot's name or a server's text cannot forge a line or drive the terminal); a traceback
    after it is left as Python wrote it."""

    def formatMessage(self, record: logging.LogRecord) -> str:  # noqa: N802 - logging's name
        return printable(super().formatMessage(record))


@contextlib.contextmanager
def stderr_log(name: str, level: int, fmt: str) -> Iterator[None]:
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
