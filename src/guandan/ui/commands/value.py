"""``guandan value``: a state value taught by a network's self-play, which ends ``mc``'s rollouts
early (:mod:`guandan.rl.state_value`; the same steps and options as ``python -m
guandan.rl.state_value``).

>>> from guandan.ui.cli import build_parser
>>> args = build_parser().parse_args(["value", "collect", "--out", "states", "--states", "1000000"])
>>> args.step, args.out, args.states, args.epsilon
('collect', 'states', 1000000, 0.1)
"""

from __future__ import annotations

import argparse

from ...rl import state_value

__all__ = ["HELP", "DESCRIPTION", "EPILOG", "add_arguments", "run"]

EPILOG = """\
steps:
  collect  the shipped network plays itself; each deal departs from it once (a decision in ten
           plays a search candidate at random until one departs), and every later decision's
           whole deal state is kept with the levels its side won, in chunk files
  train    a network of two hidden layers fitted to them (torch: the train extra), written as a
           state value file for mc:value=FILE
Run 'guandan value STEP --help' for a step's options. collect resumes: run the same command again.

examples:
  guandan value collect --out states --states 6000000 --seed 41 --workers 2
  guandan value train states --out value.npz
  guandan arena mc:value=value.npz:rollouts=2240 mc --pairs 100
"""

HELP = "teach a state value that ends mc's rollouts early: collect, train"
DESCRIPTION = state_value.DESCRIPTION


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The steps of ``python -m guandan.rl.state_value`` and their options."""
    state_value.add_arguments(p)


def run(args: argparse.Namespace) -> int:
    """Run the step the parsed arguments name; the exit status."""
    return state_value.run(args)
