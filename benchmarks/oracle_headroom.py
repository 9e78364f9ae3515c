"""How much a better belief could buy the search: a bot that sees every hand (or a share of
the hidden cards) against itself.

The search samples the hidden hands from what its seat knows (:mod:`guandan.bots.determinize`);
a better belief (a network reading the play so far) can only move those samples toward the
true hands. This script measures the ceiling of that road: the *oracle* side runs the same
agent spec, but each of its searches samples the deal as it really is (every other seat's
hand known: the information set's pool empty), so all its rollouts play the true deal. The
other side is the unchanged spec. Each seeded deal (level 2, leader drawn by the deal's seed)
is played twice, the oracle at seats 0 and 2, then at 1 and 3; the report is the share of
deals the oracle side won with the 95% interval from the pairs' variance, and levels a deal.

``--reveal Q`` below 1 makes a partial oracle: at each decision every hidden card (a card of
another seat, not known to the seat) is revealed in its true hand with the chance ``Q``
(drawn from the decision's own generator, seeded by the deal and the ply), and the search
samples the rest as usual. The share of the hidden cards a sampled deal places in their true
hand then rises from the sampler's own (about half) toward 1: a ladder from today's belief
to a perfect one.

    python benchmarks/oracle_headroom.py mc --pairs 100 --seed 7001 --workers 2
    python benchmarks/oracle_headroom.py mc:temperature=1 --reveal 0.5 --pairs 100 --seed 7006
    python benchmarks/oracle_headroom.py --placement 10

``--belief FILE`` (a network of ``belief_network.py --out``) puts a learned belief in the
oracle's place: from the seat's public view only, each face's unseen copies are taken as known
in the seat the network gives them with a probability above ``--commit`` (0.9; when the seat
has room), the rest sampled as usual. A crude belief, committed rather than weighted, but it
needs no change to the search.

    python benchmarks/oracle_headroom.py mc:temperature=1 --belief belief.pt --pairs 100 --seed 7009

``--placement N`` measures the ladder's rungs instead of playing: over every third position of
``N`` seeded deals played by ``greedy``, the share of the hidden cards (pooled) that 20 sampled
deals put in their true hands, for the uniform sampler and ``mc``'s rule-weighted one, with
0, a quarter, a half and three quarters of them revealed.

A bot whose searches are not :class:`~guandan.bots.search.MonteCarloAgent`'s (``greedy``,
``net``) sees nothing more as the oracle: the script refuses specs that do not make one.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import guandan.bots.search as search_module
from guandan import Deal
from guandan.bots.determinize import information_set
from guandan.bots.loop import play_out
from guandan.bots.registry import make_agent
from guandan.bots.search import MonteCarloAgent
from guandan.core.moves import Move
from guandan.core.packed import InfoSet, bits_of_cards
from guandan.core.rng import SplitMix64, derive_seed
from guandan.game.observation import Observation
from guandan.game.rules import get_ruleset

_honest = information_set  # the seat's own information set (search_module's, until _install routes it here)
_truth: list[int] | None = None  # the packed hands while an oracle searches
_reveal: tuple[float, SplitMix64] | None = None  # with a partial oracle: the share and its generator
_believed: tuple[Any, float] | None = None  # with a belief: its (3, 54) distribution and the threshold


def _believed_information_set(observation: Observation, info: InfoSet) -> InfoSet:
    """``info`` with the unseen copies of each face given to a seat wherever the belief puts
    them there with a probability above the threshold (and the seat has room for them)."""
    assert _believed is not None
    p, threshold = _believed
    known, need, pool = list(info.known), list(info.need), info.pool
    for r in range(3):
        s = (info.seat + 1 + r) & 3
        for face in range(54):
            copies = (pool >> (2 * face)) & 3
            if copies and p[r, face] > threshold and need[s] >= copies:
                known[s] += copies << (2 * face)
                pool -= copies << (2 * face)
                need[s] -= copies
    forbid = tuple(0 if need[s] == 0 else f for s, f in enumerate(info.forbid))
    return info._replace(pool=pool, known=tuple(known), need=tuple(need), forbid=forbid)


def _oracle_information_set(observation: Observation) -> InfoSet:
    """The seat's information set, or, while an oracle searches, one whose only deal is the
    true one (or, with a share to reveal, one where that share of the hidden cards is known)."""
    info = _honest(observation)
    if _believed is not None:
        return _believed_information_set(observation, info)
    if _truth is None:
        return info
    if _reveal is None:
        known = tuple(0 if s == info.seat else _truth[s] for s in range(4))
        return info._replace(pool=0, known=known, forbid=(0, 0, 0, 0), need=(0, 0, 0, 0))
    share, rng = _reveal
    known_l, need, pool = list(info.known), list(info.need), info.pool
    for s in range(4):
        if s == info.seat:
            continue
        hidden = _truth[s] - info.known[s]  # the seat's cards not known: all in the pool
        for face in range(54):
            for _ in range((hidden >> (2 * face)) & 3):
                if rng.next_u64() < share * 2**64:
                    bit = 1 << (2 * face)
                    known_l[s] += bit
                    pool -= bit
                    need[s] -= 1
    forbid = tuple(0 if need[s] == 0 else f for s, f in enumerate(info.forbid))
    return info._replace(pool=pool, known=tuple(known_l), need=tuple(need), forbid=forbid)


def _install() -> None:
    """Route the search bot's information sets through the oracle (in the process that plays)."""
    search_module.information_set = _oracle_information_set  # type: ignore[attr-defined]  # imported there, not exported


class Oracle:
    """An agent that searches with every hand of ``deal`` known (set ``deal`` before each
    deal), or with each hidden card known with the chance ``reveal``."""

    def __init__(
        self, agent: MonteCarloAgent, reveal: float = 1.0, seed: int = 0, belief: tuple[Any, float] | None = None
    ) -> None:
        self.agent = agent
        self.reveal = reveal
        self.seed = seed
        self.belief = belief  # (network, threshold): the side believes instead of seeing
        self.deal: Deal | None = None
        self.name = f"oracle {getattr(agent, 'name', 'mc')}"

    def act(self, observation: Observation) -> Any:
        global _truth, _reveal, _believed
        assert self.deal is not None
        if self.belief is not None:  # the public view only: its hand, the counts and the play
            belief_network = _belief_module()
            x, _ = belief_network.features(self.deal, observation.seat)
            _believed = (belief_network.predict(self.belief[0], x[None])[0], self.belief[1])
        else:
            _truth = [bits_of_cards(h) for h in self.deal.hands]
            if self.reveal < 1.0:
                _reveal = (self.reveal, SplitMix64(derive_seed(self.seed, len(self.deal.history))))
        try:
            return self.agent.act(observation)
        finally:
            _truth, _reveal, _believed = None, None, None


_networks: dict[str, Any] = {}


def _belief_module() -> Any:
    """``benchmarks/belief_network.py``, beside this script."""
    import importlib
    import os

    here = os.path.dirname(os.path.abspath(__file__))
    if here not in sys.path:
        sys.path.insert(0, here)
    return importlib.import_module("belief_network")


def play_pair(
    spec: str, pair: int, run_seed: int, reveal: float = 1.0, belief: tuple[str, float] | None = None
) -> tuple[int, int, int, int]:
    """Deal ``pair`` twice: the oracle side's (wins, levels) with it at seats 0/2, then 1/3."""
    _install()
    believe = None
    if belief is not None:
        if belief[0] not in _networks:
            _networks[belief[0]] = _belief_module().load(belief[0])
        believe = (_networks[belief[0]], belief[1])
    seed = derive_seed(run_seed, pair)
    rules = get_ruleset("competitive_2022")
    out: list[int] = []
    for side in (0, 1):
        agents: list[Any] = []
        for seat in range(4):
            agent = make_agent(spec, derive_seed(seed, seat))
            if not isinstance(agent, MonteCarloAgent):
                raise SystemExit(f"{spec!r} does not make a search bot (MonteCarloAgent): an oracle sees nothing more")
            oracle = Oracle(agent, reveal, derive_seed(seed, 9, seat), believe)
            agents.append(oracle if seat % 2 == side else agent)
        deal = Deal.new(seed=seed, level=2, ruleset=rules)
        for a in agents:
            if isinstance(a, Oracle):
                a.deal = deal
        play_out(deal, agents)
        assert deal.result is not None
        won = deal.result.winning_side == side
        gain = rules.gain(deal.result.partner_place)
        out += [int(won), gain if won else -gain]
    return out[0], out[1], out[2], out[3]


def placement(
    deals: int, shares: tuple[float, ...] = (0.0, 0.25, 0.5, 0.75), samples: int = 20
) -> dict[str, list[float]]:
    """The share of the hidden cards that sampled deals place in their true hands (``--placement``):
    per sampler (``uniform``, ``rules``: ``mc``'s weighted one), one share per rung of ``shares``."""
    global _truth, _reveal
    from guandan.bots.agents import GreedyAgent
    from guandan.bots.determinize import BOMB_WEIGHT, PASS_WEIGHT, TRIES
    from guandan.core.search import sample_deals

    samplers = {"uniform": (1, 1.0, 1.0), "rules": (TRIES, PASS_WEIGHT, BOMB_WEIGHT)}
    right = {name: [0] * len(shares) for name in samplers}
    total = {name: [0] * len(shares) for name in samplers}
    for seed in range(deals):
        deal = Deal.new(seed=seed, level=2)
        ply = 0
        while deal.turn is not None:  # not over
            if ply % 3 == 0:
                me = deal.turn
                observation = deal.observation(me)
                truth = [bits_of_cards(h) for h in deal.hands]
                for k, share in enumerate(shares):
                    _truth = truth if share > 0 else None
                    _reveal = (share, SplitMix64(derive_seed(seed, ply))) if share > 0 else None
                    try:
                        info = _oracle_information_set(observation)
                    finally:
                        _truth, _reveal = None, None
                    for name, (tries, pass_weight, bomb_weight) in samplers.items():
                        for hands in sample_deals(info, samples, ply, tries, pass_weight, bomb_weight):
                            for s in range(4):
                                if s == me:
                                    continue
                                for face in range(54):
                                    true = (truth[s] >> (2 * face)) & 3
                                    right[name][k] += min((hands[s] >> (2 * face)) & 3, true)
                                    total[name][k] += true
            move = GreedyAgent().act(deal.observation(deal.turn))
            assert isinstance(move, Move)  # in play, a move
            deal.play(move)
            ply += 1
    return {name: [r / t for r, t in zip(right[name], total[name], strict=True)] for name in samplers}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("spec", nargs="?", default="mc", help="the search bot's agent spec (default: mc)")
    parser.add_argument("--pairs", type=int, default=100, help="seeded deals, each played twice (default: 100)")
    parser.add_argument("--seed", type=int, default=7001, help="the run's seed (default: 7001)")
    parser.add_argument("--workers", type=int, default=2, help="processes (default: 2)")
    parser.add_argument("--reveal", type=float, default=1.0,
                        help="the chance each hidden card is revealed to the oracle (default 1: every hand)")
    parser.add_argument("--belief", metavar="FILE",
                        help="instead of seeing: a network of belief_network.py --out, whose confident places "
                             "the side takes as known")
    parser.add_argument("--commit", type=float, default=0.9,
                        help="with --belief: the probability above which a face's unseen copies are placed (0.9)")
    parser.add_argument("--placement", type=int, metavar="N",
                        help="measure the share of hidden cards placed right at each rung over N greedy deals")
    args = parser.parse_args(argv)
    if not 0.0 < args.reveal <= 1.0:
        parser.error("--reveal is a chance in (0, 1]")
    if args.placement is not None:
        shares = (0.0, 0.25, 0.5, 0.75)
        print(f"hidden cards placed in their true hands, every third position of {args.placement} greedy deals, "
              "20 sampled deals each")  # fmt: skip
        print("  sampler   " + "".join(f"{f'revealed {q:g}':>14}" for q in shares))
        for name, row in placement(args.placement, shares).items():
            print(f"  {name:<10}" + "".join(f"{100 * x:13.1f}%" for x in row))
        return 0
    began = time.perf_counter()
    results: list[tuple[int, int, int, int]] = []
    with ProcessPoolExecutor(args.workers) as pool:
        futures = [pool.submit(play_pair, args.spec, p, args.seed, args.reveal,
                               None if args.belief is None else (args.belief, args.commit)) for p in range(args.pairs)]
        for i, f in enumerate(futures, 1):
            results.append(f.result())
            if i % 10 == 0 or i == args.pairs:
                print(f"  {i}/{args.pairs} pairs, oracle {sum(r[0] + r[2] for r in results)}/{2 * i} deals",
                      file=sys.stderr)  # fmt: skip
    scores = [(r[0] + r[2]) / 2 for r in results]
    n = len(scores)
    mean = sum(scores) / n
    sd = math.sqrt(sum((s - mean) ** 2 for s in scores) / (n - 1)) if n > 1 else 0.0
    half = 1.959963984540054 * sd / math.sqrt(n)
    wins = sum(r[0] + r[2] for r in results)
    levels = sum(r[1] + r[3] for r in results) / (2 * n)
    what = "oracle" if args.reveal >= 1.0 else f"oracle revealing {args.reveal:g}"
    if args.belief is not None:
        what = f"belief {args.belief} above {args.commit:g}"
    print(f"{what} {args.spec} vs {args.spec}: {wins}/{2 * n} deals won by the oracle = {100 * mean:.1f}% "
          f"[{100 * max(0.0, mean - half):.1f}%, {100 * min(1.0, mean + half):.1f}%], {levels:+.2f} levels a deal "
          f"({time.perf_counter() - began:.0f} s)")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
