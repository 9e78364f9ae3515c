"""What a choice of SPRT bounds costs: the arena's sequential test run many times on synthetic
pairs of known strength (:func:`guandan.bots.elo.simulate_sprt`), at each hypothesis: the share
of runs that ended the wrong way (the measured type I and type II errors, with 95% intervals)
and the pairs a run took (mean, and the 90th percentile). The table of docs/arena.md.

    python benchmarks/arena_sprt.py --runs 500 --drawn 0.5
    python benchmarks/arena_sprt.py --bounds 0,30 --runs 3000 --alpha 0.05 --beta 0.1
"""

from __future__ import annotations

import argparse
import sys

from guandan.bots.elo import simulate_sprt
from guandan.bots.simulate import wilson_interval

BOUNDS = ["0,100", "0,50", "0,20", "0,10", "-10,10"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bounds", nargs="*", default=BOUNDS, metavar="ELO0,ELO1", help="the tests (default: five)")
    parser.add_argument("--runs", type=int, default=500, help="runs at each hypothesis (default 500)")
    parser.add_argument("--drawn", type=float, default=0.5, help="the share of pairs split 1-1 (default 0.5)")
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"{args.runs} runs a hypothesis, alpha {args.alpha}, beta {args.beta}, "
          f"{args.drawn:.0%} of the pairs split 1-1")
    print(f"{'bounds':>8}  {'type I [95%]':>22}  {'pairs at ELO0 (p90)':>20}  {'type II [95%]':>22}  "
          f"{'pairs at ELO1 (p90)':>20}")  # fmt: skip
    for text in args.bounds:
        elo0, elo1 = (float(x) for x in text.split(","))
        at0 = simulate_sprt(elo0, elo0, elo1, args.alpha, args.beta, runs=args.runs, drawn=args.drawn, seed=args.seed)
        at1 = simulate_sprt(elo1, elo0, elo1, args.alpha, args.beta, runs=args.runs, drawn=args.drawn,
                            seed=args.seed + 1)  # fmt: skip
        cells = []
        for rate, at in ((at0["H1"], at0), (at1["H0"], at1)):
            low, high = wilson_interval(round(rate * args.runs), args.runs)
            cells.append(f"{rate:6.1%} [{low:.1%}, {high:.1%}]")
            cells.append(f"{at['mean_pairs']:8.0f} ({at['p90_pairs']:.0f})")
        print(f"{text:>8}  {cells[0]:>22}  {cells[1]:>20}  {cells[2]:>22}  {cells[3]:>20}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
