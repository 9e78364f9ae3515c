"""Deals won by an ONNX Q-network (the ``onnx`` agent) against ``random`` and ``greedy``, over
seeded single deals played twice with sides swapped (the same deals: ``simulate`` seeds each
deal from the run seed and its index, whatever the agents), with 95% Wilson intervals.

    python benchmarks/rl_strength.py MODEL.onnx [--deals N] [--seed S] [--workers W]
"""

from __future__ import annotations

import argparse

from guandan.bots.simulate import simulate, wilson_interval


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("--deals", type=int, default=300, help="seeded deals, each played twice (sides swapped)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--workers", type=int, default=1)
    a = parser.parse_args()
    net = f"onnx:model={a.model}"
    for opponent in ("random", "greedy"):
        won = 0
        for side, agents in ((0, [net, opponent]), (1, [opponent, net])):
            run = simulate(a.deals, agents, seed=a.seed, kind="deal", workers=a.workers)
            won += sum(1 for row in run.rows if row["winner_side"] == side)
        n = 2 * a.deals
        lo, hi = wilson_interval(won, n)
        print(f"vs {opponent}: {won}/{n} deals won = {won / n:.1%} [{lo:.1%}, {hi:.1%}]")


if __name__ == "__main__":
    main()
