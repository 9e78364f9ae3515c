"""Deals per second through the game layer (Deal + agents), one process, one core.

    python benchmarks/deal_speed.py [--deals N] [--agents greedy|random] [--match]

Each deal is dealt from its seed (``Deal.new``) and played out by four agents with
``guandan.bots.loop.play_out``; the time includes dealing, observations, move generation,
the agents' choices and applying the moves.

Instructions per action, repeatable (``--deals 0`` counts the import alone, to subtract)::

    PYTHONHASHSEED=0 valgrind --tool=callgrind python benchmarks/deal_speed.py --deals 100
    PYTHONHASHSEED=0 valgrind --tool=callgrind python benchmarks/deal_speed.py --deals 0
"""

from __future__ import annotations

import argparse
import time

from guandan import Deal, Match, make_agents
from guandan.bots.loop import play_out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--agents", default="greedy")
    parser.add_argument("--match", action="store_true", help="play whole matches (tribute included) instead")
    args = parser.parse_args()
    agents = make_agents(args.agents, 0)
    deals = actions = 0
    start = time.perf_counter()
    seed = 0
    state: Match | Deal
    while deals < args.deals:
        if args.match:
            state = Match(seed)
            play_out(state, agents)
            deals += len(state.results)
            actions += sum(log.deal.ply + len(log.before_play) for log in state.deal_logs if log.deal is not None)
        else:
            state = Deal.new(seed, 2 + seed % 13)
            play_out(state, agents)
            deals += 1
            actions += state.ply
        seed += 1
    elapsed = time.perf_counter() - start
    if not deals:  # --deals 0: the import alone (the baseline of a callgrind count)
        print("0 deals")
        return
    print(
        f"{deals} deals, {actions} actions in {elapsed:.2f} s: {deals / elapsed:.0f} deals/s,"
        f" {actions / deals:.1f} actions/deal, {elapsed / actions * 1e6:.1f} µs/action"
    )


if __name__ == "__main__":
    main()
