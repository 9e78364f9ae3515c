"""``guandan train``: deep Monte Carlo training of a network (:mod:`guandan.rl.train`; the
same options as ``python -m guandan.rl.train``). torch is imported only by a run on
``--backend torch`` (the default with ``--actors``: the learner of the Ray actors), never to parse
the options.

>>> from guandan.ui.cli import build_parser
>>> parser = build_parser()
>>> args = parser.parse_args(["train", "--out", "runs/dmc", "--minutes", "30", "--hidden", "64,64"])
>>> args.out, args.minutes, args.hidden, args.backend
('runs/dmc', 30.0, (64, 64), None)
"""

from __future__ import annotations

import argparse
import functools

from ...rl import train

__all__ = ["HELP", "DESCRIPTION", "EPILOG", "add_arguments", "run"]

EPILOG = """\
It writes to --out: config.json (the options), log.jsonl (an evaluation a line),
checkpoint.npz (or checkpoint.pt with --backend torch), model.onnx and
model-<frames>.onnx (the network for onnx:model=FILE). The same seed gives the same run
(with one BLAS thread, OPENBLAS_NUM_THREADS=1).

examples:
  guandan train --out runs/dmc --minutes 30 --plot curve.png
  guandan train --out runs/torch --backend torch --frames 50000000   # goes on from runs/torch
"""


HELP = "train a network by deep Monte Carlo self-play (numpy, or torch with the train extra)"
DESCRIPTION = train.DESCRIPTION


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``python -m guandan.rl.train``; the run reports a usage error with ``p``."""
    train.add_arguments(p)
    p.set_defaults(run=functools.partial(run, parser=p))


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Run ``guandan train`` with parsed arguments (``parser``: theirs); the exit status."""
    return train.run(args, parser)
