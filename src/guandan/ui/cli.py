"""The ``guandan`` command: parses arguments and runs the subcommand they name, each a
module of :mod:`guandan.ui.commands` with its parser and its run (``arena``:
:mod:`guandan.ui.arena`); bad input exits with status 2 and a one-line message.

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
import importlib
import os
import sys
from collections.abc import Sequence
from importlib.metadata import version

from ..errors import GuandanError, printable
from . import arena, interrupt
from .commands import COMMANDS
from .commands.common import PROG, add_command
from .commands.options import NOTATION

__all__ = ["main", "build_parser"]

_EPILOG = """

example:
  guandan moves "S3 C4 D4 C5 D5 H2" --level 2
Run 'guandan COMMAND --help' for a command's options."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser, one subcommand per task.

    >>> build_parser().parse_args(["replay", "match.json"]).command
    'replay'
    """
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="A Guandan engine: every legal move, exactly.",
        epilog=NOTATION + _EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {version('guandan')}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        if name == "arena":
            arena.add_parser(commands)  # its parser and its run are in guandan.ui.arena
        else:
            add_command(commands, name, importlib.import_module(f".commands.{name}", __package__))
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
    except SystemExit as exit_:  # a usage error found by the run (parser.error), already printed
        return exit_.code if isinstance(exit_.code, int) else 2
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
