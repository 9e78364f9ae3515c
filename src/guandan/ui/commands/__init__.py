"""The ``guandan`` command's subcommands, a module each: its parser (``add_parser(commands)``,
which adds the subcommand with its options and help and sets its ``run``) and its run
(``run(args)``: the exit status). The options several commands share are written once, as
parent parsers, in :mod:`~guandan.ui.commands.options`; the messages and logs of a run in
:mod:`~guandan.ui.commands.common`. ``guandan arena`` is :mod:`guandan.ui.arena`.

>>> COMMANDS[:3]
('moves', 'play', 'simulate')
"""

from __future__ import annotations

__all__ = ["COMMANDS"]

#: The subcommands in the order ``guandan --help`` lists them: each the name of its module
#: here (``arena``: :mod:`guandan.ui.arena`).
COMMANDS: tuple[str, ...] = (
    "moves",
    "play",
    "simulate",
    "arena",
    "serve",
    "connect",
    "web",
    "replay",
    "train",
    "imitate",
    "expert",
    "value",
)
