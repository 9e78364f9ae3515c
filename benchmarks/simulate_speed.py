#!/usr/bin/env python3
"""Simulation throughput through the Python game layer: one process vs a process pool.

    python benchmarks/simulate_speed.py                      # 300 greedy matches, 1 and 2 workers
    python benchmarks/simulate_speed.py --matches 500 --agents random --json

The same seeded run is played on one worker (in this process) and on ``--workers``
processes; it reports deals per second for each, the speedup, and checks that the rows are
identical (results must not depend on the number of workers).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from guandan.bots.simulate import simulate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=300, help="matches to play (default 300)")
    parser.add_argument("--agents", default="greedy", help="agents (default greedy)")
    parser.add_argument(
        "--workers", type=int, default=os.cpu_count() or 1, help="processes for the pool (default: all)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    one = simulate(args.matches, args.agents, seed=args.seed, workers=1)
    many = simulate(args.matches, args.agents, seed=args.seed, workers=args.workers)
    report = {
        "matches": args.matches,
        "deals": len(one.rows),
        "agents": args.agents,
        "one_worker_deals_per_s": len(one.rows) / one.seconds,
        "workers": args.workers,
        "pool_deals_per_s": len(many.rows) / many.seconds,
        "speedup": one.seconds / many.seconds,
        "identical": one.rows == many.rows,
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(
            f"{report['deals']} deals ({args.matches} matches, {args.agents}): "
            f"1 worker {report['one_worker_deals_per_s']:.0f} deals/s, "
            f"{args.workers} workers {report['pool_deals_per_s']:.0f} deals/s, speedup {report['speedup']:.2f}x, "
            f"identical rows: {report['identical']}"
        )
    return 0 if report["identical"] else 1


if __name__ == "__main__":
    sys.exit(main())
