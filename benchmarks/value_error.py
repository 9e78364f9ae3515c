"""How well state values predict held-out results: each value file's mean squared error on the
last chunk of each collection (``guandan value collect``'s folders), beside the error of
predicting that chunk's mean. Values trained on different collections are compared on the
same states this way; ``guandan value train`` reports only its own collection's last chunk.

    python benchmarks/value_error.py dec1.npz once1.npz --on dec1 once1
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from guandan.bots.state_value import load_value
from guandan.rl.state_value import load_chunks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("values", nargs="+", help="state value files (.npz)")
    parser.add_argument("--on", nargs="+", required=True, help="collections; each one's last chunk is scored")
    args = parser.parse_args(argv)
    values = {path: load_value(path) for path in args.values}
    width = max(len(p) for p in args.values)
    print("held-out mean squared error, levels squared")
    for folder in args.on:
        held = load_chunks(folder)[-1]
        target = held["target"]
        print(f"{folder}: last chunk, {len(target):,} states; predicting its mean {np.var(target):.4f}")
        for path, value in values.items():
            error = float(np.mean((value.values(held) - target) ** 2))
            print(f"  {path:<{width}}  {error:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
