"""How many cards the exact endgame solver can solve within a budget: seeded deals played by
the greedy agent until the four hands hold at most C cards together, each such position solved
for the side to act with a budget of visited states; the share solved, the states visited (mean,
max) and the time, by band of cards left.

    python benchmarks/solve_reach.py [--deals N] [--budget NODES] [--seed S]
    python benchmarks/solve_reach.py --decisions 12 [--deals N] [--seed S]

With ``--decisions C``: instead, the search bot's decision (``mc``, 4,000 rollouts) at the first
position of each deal with at most C cards left, without and with the core's exact endgames
from C cards (``SearchParams.solve_cards``; ``mc`` had it as the option ``solve_cards``, removed
after 0.1.0 as it measured no gain): the time a decision takes (mean, p99, max) and how often
the two choose the same move.

One position a deal and band (the first position of the deal with at most the band's top
number of cards, when it still has more than the band's bottom); one thread.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace

from guandan import Deal, GreedyAgent
from guandan.bots.search import MonteCarloAgent
from guandan.core import _core
from guandan.core.moves import Move

BANDS = ((8, 11), (12, 15), (16, 19), (20, 23), (24, 27), (28, 31))


class SolvingAgent(MonteCarloAgent):
    """``mc`` whose search solves the endgames of ``solve_cards`` cards or fewer exactly (the
    core's parameter; 0: never)."""

    def __init__(self, seed: int, rollouts: int, solve_cards: int) -> None:
        super().__init__(seed=seed, rollouts=rollouts)
        self._params = replace(self._params, solve_cards=solve_cards)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40, help="seeded deals (default 40)")
    parser.add_argument("--budget", type=int, default=200_000, help="states a solve may visit (default 200,000)")
    parser.add_argument("--seed", type=int, default=1, help="the first deal's seed (default 1)")
    parser.add_argument("--decisions", type=int, default=0, help="time mc's endgame decisions at this many cards")
    args = parser.parse_args()
    if args.decisions:
        decisions(args.deals, args.seed, args.decisions)
        return
    rows: dict[tuple[int, int], list[tuple[bool, int, float]]] = {band: [] for band in BANDS}
    agent = GreedyAgent()
    for s in range(args.seed, args.seed + args.deals):
        deal = Deal.new(s, 2 + s % 13)
        pending = list(reversed(BANDS))
        while deal.turn is not None and pending:  # not over
            left = sum(deal.card_counts)
            while pending and left < pending[0][0]:
                pending.pop(0)
            if pending and left <= pending[0][1]:
                start = time.perf_counter()
                value, nodes = _core.solve(deal.native_state(), deal.turn & 1, budget=args.budget)
                rows[pending.pop(0)].append((value is not None, nodes, time.perf_counter() - start))
                continue
            move = agent.act(deal.observation(deal.turn))
            assert isinstance(move, Move)  # in play, a move
            deal.act(move)
    print(f"{args.deals} seeded deals from seed {args.seed}, greedy play, a budget of {args.budget:,} states")
    print(f"{'cards left':>10}  {'positions':>9}  {'solved':>7}  {'states (mean, max)':>20}  {'time (mean, max)':>18}")
    for (lo, hi), found in sorted(rows.items()):
        if not found:
            continue
        solved = sum(ok for ok, _, _ in found)
        visited = [n for ok, n, _ in found if ok]
        secs = [t for _, _, t in found]
        mean_nodes = f"{sum(visited) / len(visited):,.0f}, {max(visited):,}" if visited else "-"
        print(
            f"{f'{lo}-{hi}':>10}  {len(found):>9}  {solved / len(found):>7.0%}  {mean_nodes:>20}  "
            f"{1000 * sum(secs) / len(secs):>8.1f} ms, {1000 * max(secs):.0f} ms"
        )


def decisions(deals: int, seed: int, cards: int) -> None:
    agent = GreedyAgent()
    times: dict[int, list[float]] = {0: [], cards: []}
    same = positions = 0
    for s in range(seed, seed + deals):
        deal = Deal.new(s, 2 + s % 13)
        while deal.turn is not None and sum(deal.card_counts) > cards:  # not over
            move = agent.act(deal.observation(deal.turn))
            assert isinstance(move, Move)  # in play, a move
            deal.act(move)
        if deal.turn is None:  # over
            continue
        observation = deal.observation(deal.turn)
        chosen = []
        for solve in (0, cards):
            bot = SolvingAgent(s, 4000, solve)
            start = time.perf_counter()
            chosen.append(bot.act(observation))
            times[solve].append(time.perf_counter() - start)
        positions += 1
        same += chosen[0] == chosen[1]
    print(f"{positions} endgame decisions (at most {cards} cards left) of mc at 4,000 rollouts, one thread")
    for solve, found in times.items():
        found.sort()
        p99 = found[min(len(found) - 1, int(0.99 * len(found)))]
        print(
            f"  solve_cards={solve:<3} mean {1000 * sum(found) / len(found):6.1f} ms, p99 {1000 * p99:6.1f} ms, "
            f"max {1000 * found[-1]:6.1f} ms"
        )
    print(f"  the same move in {same} of {positions} ({same / positions:.0%})")


if __name__ == "__main__":
    main()
