"""``guandan play``: a match at the terminal against three bots (:mod:`guandan.ui.terminal`).

>>> from guandan.ui.cli import build_parser
>>> parser = build_parser()
>>> args = parser.parse_args(["play", "--seat", "2", "--bots", "mc,greedy"])
>>> args.seat, args.bots, args.seed, args.ruleset
(2, 'mc,greedy', None, 'competitive_2022')
"""

from __future__ import annotations

import argparse
import sys

from . import options

__all__ = ["HELP", "DESCRIPTION", "EPILOG", "parents", "add_arguments", "run"]

EPILOG = (
    """\
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

"""
    + options.AGENT_SPECS
    + """
  --bots: one for all three bots, two (one per side: seats 0 and 2, then 1 and 3) or
  four (seats 0-3, yours ignored), separated by commas.

examples:
  guandan play --seat 0 --seed 7 --bots greedy
  guandan play --bots mc,greedy            # your partner (seat 2) mc, the opponents greedy
"""
)

#: ``--bots`` of a match a person plays (``guandan play``, ``guandan web``).
BOTS_HELP = (
    "the bots: one agent for all three, two (seats 0 and 2, then 1 and 3) or four (seats 0-3; "
    "yours is ignored), each greedy, random, mc (the search bot) or package.module:Class, "
    "options after colons (mc:think_ms=100)"
)


HELP = "play a match against three bots in the terminal"
DESCRIPTION = "Play a match at the terminal: you hold one seat, bots the other three.\n\n" + options.NOTATION


def parents() -> list[argparse.ArgumentParser]:
    """The shared options of ``guandan play``."""
    return [
        options.seat(),
        options.match_seed(),
        options.agents("--bots", BOTS_HELP),
        options.ruleset("competitive_2022", "competitive_2022 (default), huaian or nanjing"),
    ]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``guandan play`` of its own."""
    p.add_argument(
        "--record",
        metavar="FILE",
        help="write the match's record to FILE when it ends (JSON, as serve --records; guandan replay FILE shows it)",
    )


def run(args: argparse.Namespace) -> int:
    """Run ``guandan play`` with parsed arguments; the exit status."""
    from ..terminal import play_match

    return play_match(
        seat=args.seat,
        seed=args.seed,
        bots=args.bots,
        ruleset=args.ruleset,
        stdin=sys.stdin,
        stdout=sys.stdout,
        record=args.record,
    )
