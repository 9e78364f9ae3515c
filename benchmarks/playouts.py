#!/usr/bin/env python3
"""Native playouts per second: whole deals played to the end inside the C core.

    python benchmarks/playouts.py                 # 200 seeded opening states x 500 playouts
    python benchmarks/playouts.py --json

Each state is the start of a seeded deal (four 27-card hands, the opening leader to
play); each playout plays it to the end with a built-in policy (``random``: uniform over
the rank-level legal moves; ``greedy``), single thread, the GIL released. Reported:
playouts (full deals) per second and plies per second, best of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import numpy as np

from guandan import Deal
from guandan.core import _core


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--states", type=int, default=200, help="seeded opening states (default 200)")
    parser.add_argument("--playouts", type=int, default=500, help="playouts per state (default 500)")
    parser.add_argument("--repeat", type=int, default=3, help="runs, the best kept (default 3)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)

    states = [(Deal.new(seed=seed, level=2 + seed % 13)).native_state() for seed in range(args.states)]
    report: dict[str, Any] = {"states": args.states, "playouts_per_state": args.playouts, "policies": {}}
    for policy in ("random", "greedy"):
        best = float("inf")
        for _ in range(args.repeat):
            t = time.perf_counter()
            for i, state in enumerate(states):
                _core.playouts(state, args.playouts, policy, i)
            best = min(best, time.perf_counter() - t)
        total = args.states * args.playouts
        lengths = [np.count_nonzero(_core.playouts(s, 1, policy, 0)[0] >= 0) for s in states[:1]]
        report["policies"][policy] = {"playouts_per_s": total / best, "seconds": best, "sample_places": lengths}
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for policy, r in report["policies"].items():
            shape = f"single thread, {args.states} states x {args.playouts}"
            print(f"{policy:7s} {r['playouts_per_s']:>10,.0f} full deals/s ({shape})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
