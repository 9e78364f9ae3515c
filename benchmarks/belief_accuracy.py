"""How well the search bot's sampled deals guess the hidden hands: positions of seeded deals
played by four ``mc`` bots, and at each the share of the unseen cards that sampled deals put in
the seat that really holds them, for the samplers ``mc`` can use:

- ``uniform``: every consistent deal alike (``tries=1``);
- ``rules``: the weighted sampler's rules (a pass on a play the seat could beat, a broken
  bomb; ``tries=8``, ``pass_weight=0.5``, ``bomb_weight=0.1``, ``mc``'s defaults);
- ``rules+policy M/E``: the same deals, each weighted by the learned policy's belief
  (``_core.policy_belief``: M to the power of the other seats' latest E plays and passes the
  policy would not have made with that deal's hands), as ``mc:policy_weight=M:policy_events=E``
  weighs them in its means.

Each position's share is the mean over its samples (weighted by the belief for the last
rows); the table gives the mean over positions, by stage of the deal (cards left in the
four hands), the effective sample size of the weights (``(Σw)² / Σw²`` over ``--samples``
deals), and the time a belief takes in the core.

    python benchmarks/belief_accuracy.py [--deals N] [--samples S] [--seed S] [--rollouts R]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from guandan import Deal
from guandan.bots.determinize import BOMB_WEIGHT, PASS_WEIGHT, TRIES, information_set
from guandan.bots.rollout_policy import load_weights
from guandan.bots.search import MonteCarloAgent
from guandan.core import _core
from guandan.core.moves import Move
from guandan.core.packed import bits_of_cards, cards_of_bits

STAGES = ((60, 108), (30, 59), (0, 29))
BELIEFS = ((0.5, 4), (0.5, 16), (0.25, 16), (0.5, 1000))


def placed(sample: tuple[int, ...], truth: tuple[int, ...], me: int) -> float:
    """The share of the other seats' cards that a sampled deal puts in their true seat."""
    right = total = 0
    for seat in range(4):
        if seat == me:
            continue
        have, guess = cards_of_bits(truth[seat]).counts, cards_of_bits(sample[seat]).counts
        right += sum(min(a, b) for a, b in zip(have, guess, strict=True))
        total += sum(have)
    return right / total if total else 1.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20, help="seeded deals (default 20)")
    parser.add_argument("--samples", type=int, default=200, help="sampled deals a position (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="the first deal's seed (default 1)")
    parser.add_argument("--rollouts", type=int, default=500, help="the players' rollouts a decision (default 500)")
    parser.add_argument("--every", type=int, default=3, help="measure every this many plies (default 3)")
    args = parser.parse_args()
    weights = load_weights()
    names = ["uniform", "rules", *(f"rules+policy {m}/{e}" for m, e in BELIEFS)]
    rows: dict[tuple[int, int], list[list[float]]] = {stage: [] for stage in STAGES}
    ess: dict[tuple[float, int], list[float]] = {b: [] for b in BELIEFS}
    spent, beliefs = 0.0, 0
    for s in range(args.seed, args.seed + args.deals):
        deal = Deal.new(s, 2 + s % 13)
        bots = [MonteCarloAgent(seed=s * 4 + i, rollouts=args.rollouts) for i in range(4)]
        ply = 0
        while deal.turn is not None:  # not over
            seat = deal.turn
            observation = deal.observation(seat)
            if ply % args.every == 0 and ply:
                info = information_set(observation)
                truth = tuple(bits_of_cards(h) for h in deal.hands)
                uniform = _core.sample_deals(info, args.samples, seed=ply)
                ruled = _core.sample_deals(info, args.samples, ply, TRIES, PASS_WEIGHT, BOMB_WEIGHT)
                row = [
                    float(np.mean([placed(h, truth, seat) for h in uniform])),
                    float(np.mean([placed(h, truth, seat) for h in ruled])),
                ]
                shares = np.array([placed(h, truth, seat) for h in ruled])
                for miss, events in BELIEFS:
                    start = time.perf_counter()
                    w = np.array([_core.policy_belief(info, h, weights, miss, events) for h in ruled])
                    spent += time.perf_counter() - start
                    beliefs += len(ruled)
                    row.append(float(np.sum(w * shares) / np.sum(w)))
                    ess[(miss, events)].append(float(np.sum(w) ** 2 / np.sum(w * w)))
                left = sum(deal.card_counts)
                for stage in STAGES:
                    if stage[0] <= left <= stage[1]:
                        rows[stage].append(row)
            move = bots[seat].act(observation)
            assert isinstance(move, Move)  # in play, a move
            deal.act(move, seat)
            ply += 1
    positions = sum(len(r) for r in rows.values())
    print(
        f"{args.deals} seeded deals from seed {args.seed}, four mc bots at {args.rollouts} rollouts; "
        f"{positions} positions (every {args.every} plies), {args.samples} sampled deals each"
    )
    print("share of the unseen cards placed in their true seat (mean over positions):")
    print(f"  {'sampler':<26}" + "".join(f"{f'{lo}-{hi} cards':>14}" for lo, hi in STAGES) + f"{'all':>10}")
    every = [r for stage in STAGES for r in rows[stage]]
    for i, name in enumerate(names):
        cells = "".join(
            f"{np.mean([r[i] for r in rows[st]]) * 100:13.2f}%" if rows[st] else f"{'':>14}" for st in STAGES
        )
        print(f"  {name:<26}{cells}{np.mean([r[i] for r in every]) * 100:9.2f}%")
    print(f"effective sample size of the policy's weights (of {args.samples}), mean over positions:")
    for (miss, events), values in ess.items():
        print(f"  rules+policy {miss}/{events}: {np.mean(values):.1f}")
    print(f"a belief in the core, called from Python: {spent / max(beliefs, 1) * 1e6:.1f} µs on average")


if __name__ == "__main__":
    main()
