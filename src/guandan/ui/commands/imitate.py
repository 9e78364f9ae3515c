"""``guandan imitate``: the learned rollout policy of ``mc``, made in steps
(:mod:`guandan.rl.imitate`; the same steps and options as ``python -m guandan.rl.imitate``).

>>> from guandan.ui.cli import build_parser
>>> parser = build_parser()
>>> args = parser.parse_args(["imitate", "fit", "pos-0.jsonl", "pos-1.jsonl", "--out", "fit.json"])
>>> args.step, args.positions, args.l2, args.out
('fit', ['pos-0.jsonl', 'pos-1.jsonl'], 1.0, 'fit.json')
"""

from __future__ import annotations

import argparse

from ...rl import imitate

__all__ = ["HELP", "DESCRIPTION", "EPILOG", "add_arguments", "run"]

EPILOG = """\
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


HELP = "make mc's learned rollout policy: positions, fit, improve"
DESCRIPTION = imitate.DESCRIPTION


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The steps of ``python -m guandan.rl.imitate`` and their options."""
    imitate.add_arguments(p)


#: Run the step the parsed arguments name; the exit status.
run = imitate.run
