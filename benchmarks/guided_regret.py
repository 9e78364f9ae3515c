"""What a network adds to the search, judged by a longer search: ``mc-net``'s blend at each
``prior``, without playing whole deals. The blend is judged on the search's result
(``mc-net:halving=0``): every prior on the same rollouts; with the prior in the search's
standings (``mc-net``'s default) each prior would play other rollouts.

Positions: the play decisions of more than two legal actions in ``--deals`` seeded single
deals of ``greedy`` play (deal seeds from ``--seed``), each taken with probability
``--take``, until ``--positions`` are taken. At each one:

* a long search, ``mc`` of ``--truth`` rollouts, values every candidate: the judge;
* ``mc`` of ``--rollouts`` rollouts (another seed) gives each candidate its mean and
  rollouts, and the network (``--model``, the shipped ``net`` by default) its value in levels
  (:meth:`GuidedSearchAgent.q_values <guandan.bots.guided.GuidedSearchAgent.q_values>`);
  ``mc-net`` at ``prior=P`` plays the best of :func:`~guandan.bots.guided.blend` (the same
  search, so every prior is judged on the same rollouts);
* the ``net`` agent's own choice and the smart policy's first choice (``net:candidates=1``).

A choice's regret is the judge's value of its best candidate less its value of the choice,
in levels (0 when the choice is the judge's best). The table has each one's mean regret with
its 95% interval, how often it chose the judge's best, and the paired difference of each
prior's regret from the search alone's (``prior=0``): below zero, the network helped.

The judge's values of the candidates it dropped early rest on fewer rollouts; a choice of
one of them is judged less surely than a choice of its finalists.

    python benchmarks/guided_regret.py --positions 400
    python benchmarks/guided_regret.py --positions 400 --model runs/expert/model.onnx --priors 0,25,100
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np

from guandan import Deal
from guandan.bots.agents import GreedyAgent
from guandan.bots.guided import GuidedSearchAgent, blend
from guandan.bots.network import SHIPPED_MODEL, NetAgent, search_candidates
from guandan.bots.search import MonteCarloAgent
from guandan.core.moves import Move
from guandan.game.history import Phase
from guandan.game.observation import Observation


def positions(count: int, seed: int, take: float) -> list[Observation]:
    """The observations taken from greedy play (see the module's description)."""
    taken: list[Observation]
    rng, greedy, taken, deal_seed = np.random.default_rng(seed), GreedyAgent(), [], seed
    while len(taken) < count:
        deal = Deal.new(seed=deal_seed, level=2 + deal_seed % 13)
        deal_seed += 1
        while deal.turn is not None and len(taken) < count:  # not over
            obs = deal.observation(deal.turn)
            if obs.phase == Phase.PLAY and len(obs.legal_actions) > 2 and rng.random() < take:
                taken.append(obs)
            move = greedy.act(obs)
            assert isinstance(move, Move)  # in play, a move
            deal.play(move)
    return taken


def interval(values: np.ndarray) -> str:
    half = 1.96 * float(np.std(values)) / math.sqrt(len(values))
    return f"{np.mean(values):+.4f} ± {half:.4f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=400, help="positions judged (default 400)")
    parser.add_argument("--seed", type=int, default=900000, help="the first deal's seed (default 900000)")
    parser.add_argument("--take", type=float, default=0.15, help="the chance a decision is taken (default 0.15)")
    parser.add_argument("--model", default=SHIPPED_MODEL, help="the network (default: the shipped net)")
    parser.add_argument("--rollouts", type=int, default=2000, help="the search's rollouts (default 2000, mc's)")
    parser.add_argument("--truth", type=int, default=16000, help="the judge's rollouts (default 16000)")
    parser.add_argument("--priors", default="0,25,50,100,200,400,1000,1e9", help="mc-net's priors, comma-separated")
    args = parser.parse_args(argv)
    priors = [float(p) for p in args.priors.split(",")]
    guided, net = GuidedSearchAgent(model=args.model, prior=1.0), NetAgent(args.model)
    taken = positions(args.positions, args.seed, args.take)
    regret: dict[str, list[float]] = {**{f"mc-net prior={p:g}": [] for p in priors}, "net": [], "net:candidates=1": []}
    start = time.perf_counter()
    for i, obs in enumerate(taken):
        judge = MonteCarloAgent(seed=2 * i + 1, rollouts=args.truth).analyze(obs)
        value = {c.action: c.value for c in judge.choices}
        best = max(value.values())
        searched = MonteCarloAgent(seed=2 * i + 2, rollouts=args.rollouts).analyze(obs)
        moves = [c.action for c in searched.choices]
        q = guided.q_values(obs, moves)  # type: ignore[arg-type]
        means = np.array([c.value for c in searched.choices])
        counts = np.array([c.rollouts for c in searched.choices], dtype=np.float64)
        for p in priors:
            regret[f"mc-net prior={p:g}"].append(best - value[moves[int(np.argmax(blend(means, counts, q, p)))]])
        regret["net"].append(best - value[net.act(obs)])
        regret["net:candidates=1"].append(best - value[search_candidates(obs, 1)[0]])
        if (i + 1) % 50 == 0 or i + 1 == len(taken):
            print(f"[{time.perf_counter() - start:6.0f} s] {i + 1}/{len(taken)} positions", file=sys.stderr, flush=True)
    alone = np.array(regret[f"mc-net prior={priors[0]:g}"])
    print(f"{len(taken)} positions; judge mc:rollouts={args.truth}; search mc:rollouts={args.rollouts}; "
          "regret in levels")
    print(f"{'choice':<24} {'mean regret, 95%':>20} {'judge best':>11} {'against prior=' + format(priors[0], 'g'):>22}")
    for name, values in regret.items():
        r = np.array(values)
        print(f"{name:<24} {interval(r):>20} {np.mean(r < 1e-9):>10.1%} {interval(r - alone):>22}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
