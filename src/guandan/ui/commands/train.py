"""``guandan train``: deep Monte Carlo training of a network (:mod:`guandan.rl.train`; the
same options as ``python -m guandan.rl.train``). torch is imported only by a run on
``--backend torch``, never to parse the options.

>>> parser = argparse.ArgumentParser(prog="guandan")
>>> add_parser(parser.add_subparsers())
>>> args = parser.parse_args(["train", "--out", "runs/dmc", "--minutes", "30", "--hidden", "64,64"])
>>> args.out, args.minutes, args.hidden, args.backend
('runs/dmc', 30.0, (64, 64), 'numpy')
"""

from __future__ import annotations

import argparse
from typing import Any

from ...rl import train
from .common import subcommand

__all__ = ["add_parser"]

_EPILOG = """\
It writes to --out: config.json (the options), log.jsonl (an evaluation a line),
checkpoint.npz (or checkpoint.pt with --backend torch), model.onnx and
model-<frames>.onnx (the network for onnx:model=FILE). The same seed gives the same run
(with one BLAS thread, OPENBLAS_NUM_THREADS=1).

examples:
  guandan train --out runs/dmc --minutes 30 --plot curve.png
  guandan train --out runs/torch --backend torch --frames 50000000   # goes on from runs/torch
"""


def add_parser(commands: Any) -> None:
    """Add ``guandan train`` to the command line's subcommands."""
    p = subcommand(
        commands,
        "train",
        help="train a network by deep Monte Carlo self-play (numpy, or torch with the train extra)",
        description=train.DESCRIPTION,
        epilog=_EPILOG,
    )
    train.add_arguments(p)

    def run(args: argparse.Namespace) -> int:
        return train.run(args, p)

    p.set_defaults(run=run)
