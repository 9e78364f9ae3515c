"""``guandan imitate``: the learned rollout policy of ``mc``, made in steps
(:mod:`guandan.rl.imitate`; the same steps and options as ``python -m guandan.rl.imitate``).

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="guandan")
>>> add_parser(parser.add_subparsers())
>>> args = parser.parse_args(["imitate", "fit", "pos-0.jsonl", "pos-1.jsonl", "--out", "fit.json"])
>>> args.step, args.positions, args.l2, args.out
('fit', ['pos-0.jsonl', 'pos-1.jsonl'], 1.0, 'fit.json')
"""

from __future__ import annotations

from typing import Any

from ...rl import imitate
from .common import subcommand

__all__ = ["add_parser"]

_EPILOG = """\
steps:
  positions  seeded deals played by mc at a high budget: its decisions, to a JSON-lines file
  fit        the policy's weights regressed on those decisions
  improve    the weights improved by play (an evolution strategy)
Run 'guandan imitate STEP --help' for a step's options.

examples:
  guandan imitate positions --deals 60 --first 0 --rollouts 8000 --out pos-0.jsonl
  guandan imitate fit pos-0.jsonl --features first --out fit.json
  guandan imitate improve --weights fit.json --generations 40 --out first.json
"""


def add_parser(commands: Any) -> None:
    """Add ``guandan imitate`` to the command line's subcommands."""
    p = subcommand(
        commands,
        "imitate",
        help="make mc's learned rollout policy: positions, fit, improve",
        description=imitate.DESCRIPTION,
        epilog=_EPILOG,
    )
    imitate.add_arguments(p)
    p.set_defaults(run=imitate.run)
