"""``guandan expert``: a network taught by ``mc``'s own values, in two steps or every round at once
(:mod:`guandan.rl.expert`; the same steps and options as ``python -m guandan.rl.expert``).

>>> from guandan.ui.cli import build_parser
>>> args = build_parser().parse_args(["expert", "positions", "--out", "pos", "--deals", "30", "--workers", "2"])
>>> args.step, args.out, args.deals, args.rollouts, args.workers
('positions', 'pos', 30, 200, 2)
"""

from __future__ import annotations

import argparse

from ...rl import expert

__all__ = ["HELP", "DESCRIPTION", "EPILOG", "add_arguments", "run"]

EPILOG = """\
steps:
  positions  seeded deals played by four mc bots: each decision's searched values, in chunk files
  train      a network trained on them (torch: the train extra), exported as model.onnx
  iterate    both, round after round, each network playing the next round's positions (the
             shipped network's recipe by default)
Run 'guandan expert STEP --help' for a step's options. Every step resumes: run the same command again.

examples:
  guandan expert positions --out pos --deals 3000 --rollouts 300 --chunk 10 --workers 2
  guandan expert train pos --out run --hidden 256,256 --epochs 6 --advantage --place-prior
  guandan arena net:model=run/model.onnx greedy --pairs 40
  guandan expert iterate --out ei --workers 2
"""

HELP = "teach a network mc's own values: positions, train, iterate"
DESCRIPTION = expert.DESCRIPTION


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The steps of ``python -m guandan.rl.expert`` and their options."""
    expert.add_arguments(p)


def run(args: argparse.Namespace) -> int:
    """Run the step the parsed arguments name; the exit status."""
    return expert.run(args)
