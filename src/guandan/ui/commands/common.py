"""What the commands share: the program's name, a subcommand's parser made the same way
for each from its module, and log lines on stderr for a person.

>>> import types
>>> hello = types.SimpleNamespace(HELP="say hello", DESCRIPTION="Say hello.", run=lambda args: 0)
>>> parser = argparse.ArgumentParser(prog=PROG)
>>> p = add_command(parser.add_subparsers(), "hello", hello)
>>> p.prog, parser.parse_args(["hello"]).run is hello.run
('guandan hello', True)
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import sys
from collections.abc import Callable, Iterator
from typing import Any

from ...errors import printable

__all__ = ["PROG", "add_command", "stderr_log"]

#: The command's name, in its messages.
PROG = "guandan"


def add_command(commands: Any, name: str, module: Any) -> argparse.ArgumentParser:
    """Add subcommand ``name`` to ``commands`` (the main parser's subparsers) as ``module``
    says: its ``HELP`` (a line in ``guandan --help``), ``DESCRIPTION`` and ``EPILOG`` (printed
    as written), the shared options of its ``parents()`` (:mod:`~guandan.ui.commands.options`),
    its own options (``add_arguments(parser)``) and ``run(args)``, the exit status (unless
    ``add_arguments`` set a ``run`` of its own)."""
    parents: Callable[[], list[argparse.ArgumentParser]] = getattr(module, "parents", list)
    parser: argparse.ArgumentParser = commands.add_parser(
        name,
        help=module.HELP,
        description=module.DESCRIPTION,
        epilog=getattr(module, "EPILOG", None),
        parents=parents(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    if hasattr(module, "add_arguments"):
        module.add_arguments(parser)
    if parser.get_default("run") is None:
        parser.set_defaults(run=module.run)
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
