"""The search bot's speed: rollouts per second per thread, and wall time per decision.

Five parts (``--part``, default all):

* ``rollouts`` — full deals played to their end from the deal's first lead by each rollout
  policy (``_core.rollouts``: random, greedy, smart, learned with the package's weights, and
  with each policy file of ``--weights``), one thread: rollouts per second.
* ``search`` — the native search alone (``_core.search``) on the first decision of seeded
  deals at a fixed rollout budget, 1 and 2 threads: rollouts per second (each rollout
  begins after a candidate move, from a sampled deal: sampling and the weighting included).
* ``decisions`` — the bot as a user runs it: ``--deals`` seeded single deals of ``mc`` (at
  each ``--budgets`` entry: ``rollouts=N``, ``think_ms=T`` or ``max_cost=C``, other options of ``mc`` after
  colons, ``policy=learned:rollouts=2000``) in seats 0 and 2 against
  ``greedy``; every searched decision (more than one legal action) timed around
  ``act``: mean, p50, p99 and max wall time in ms, and the rollouts a decision played;
  with ``--by-cards``, each budget's decisions by the cards left in the four hands too
  (their mean and max time, rollouts, and time a rollout: what ``mc:max_cost=`` models).
* ``spend`` — the cards a choice spends: at every decision of 200 seeded single deals of
  ``greedy`` play, the seat's rank-level moves (at most 32, as ``mc``'s candidates) made
  card-level by ``canonical_move`` and as ``mc`` does (``flush_keeping_move`` when the hand
  holds a straight flush): CPU time a decision, mean over all, p99 and max of each one's.

* ``agents`` (only when asked) — any agent (``--agents``, default ``net``) in seats 0 and 2
  against ``greedy``, each decision of two legal actions or more timed around ``act``.

* ``infoset`` — ``information_set`` (an observation read into the native information set,
  what every decision of ``mc`` does first) at every tenth ply of 20 seeded greedy deals:
  CPU time a call.

Run it with nothing else on the machine for clean times; ``--nice`` lowers its priority.

    python benchmarks/search_speed.py
    python benchmarks/search_speed.py --part decisions --budgets rollouts=2000 think_ms=100 --deals 20
    python benchmarks/search_speed.py --part decisions --cpu --budgets rollouts=2000 policy=smart:rollouts=4000
    python benchmarks/search_speed.py --part decisions --cpu --by-cards --budgets rollouts=2000 max_cost=800
    python benchmarks/search_speed.py --part spend
    python benchmarks/search_speed.py --part agents --cpu --agents net net:candidates=1 --deals 20
    python benchmarks/search_speed.py --part rollouts --cpu --weights my_policy.json
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time

import numpy as np

import guandan
from guandan import Deal
from guandan.bots.agents import Agent, GreedyAgent
from guandan.bots.determinize import information_set
from guandan.bots.playout import native_state
from guandan.bots.registry import parse_spec
from guandan.bots.rollout_policy import load_weights
from guandan.bots.search import MonteCarloAgent, SearchPolicy
from guandan.core import _core
from guandan.core.cards import Cards, Rank
from guandan.core.movegen import canonical_move, flush_keeping_move, pack_rank_move, straight_flushes
from guandan.core.moves import Move
from guandan.core.packed import PASS_WORD, DealState
from guandan.core.rng import derive_seed
from guandan.core.search import SearchParams
from guandan.game.observation import Observation


def rollout_speed(states: list[DealState], per_state: int, files: list[str], cpu: bool) -> None:
    clock = time.process_time if cpu else time.perf_counter
    print(f"rollouts: full deals from the first lead, {len(states)} deals x {per_state}, one thread"
          + ("; CPU time" if cpu else ""))
    policies: tuple[SearchPolicy, ...] = ("random", "greedy", "smart", "learned")
    rows: list[tuple[str, SearchPolicy, np.ndarray]] = [(p, p, load_weights()) for p in policies]
    rows += [(f"learned ({path})", "learned", load_weights(path)) for path in files]
    for name, policy, weights in rows:
        begin = clock()
        for i, state in enumerate(states):
            _core.rollouts(state, per_state, policy, seed=i, weights=weights)
        rate = len(states) * per_state / (clock() - begin)
        print(f"  {name:<7} {rate:>10,.0f} rollouts/s")


def search_speed(deals: int, budget: int) -> None:
    print(f"search: the first decision of {deals} deals, {budget} rollouts each (policy smart, weighted sampling)")
    roots = []
    for i in range(deals):
        deal = Deal.new(seed=derive_seed(7, i), level=2)
        assert deal.turn is not None  # a new deal: its leader to play
        obs = deal.observation(deal.turn)
        hand = obs.hand
        state = native_state((hand,) * 4, 2, obs.seat, None, (), ())[1:]
        info = information_set(obs)
        roots.append((info, state, _core.search_candidates(info, state, 32)))
    for threads in (1, 2):
        begin = time.perf_counter()
        done = 0
        for i, (info, state, words) in enumerate(roots):
            _, n = _core.search(info, state, words, SearchParams(budget, 0.0, threads, "smart", i, 16, 0.25, 0.5))
            done += n
        seconds = time.perf_counter() - begin
        print(f"  {threads} thread{'s' if threads > 1 else ' '} {done / seconds:>10,.0f} rollouts/s "
              f"({done / seconds / threads:,.0f} per thread), {1000 * seconds / deals:.1f} ms a decision")


class Timed:
    """An agent timing each decision of another that has more than one legal action: wall
    time, or with ``cpu`` the process's CPU time (one thread: the time the decision takes
    alone on a core, whatever else the machine runs)."""

    def __init__(self, agent: MonteCarloAgent, cpu: bool = False) -> None:
        self.agent = agent
        self.clock = time.process_time if cpu else time.perf_counter
        self.times: list[float] = []
        self.rollouts: list[int] = []
        self.cards_left: list[int] = []

    def act(self, observation: Observation) -> Move | int:
        if len(observation.legal_actions) == 1:
            return self.agent.act(observation)
        begin = self.clock()
        result = self.agent.analyze(observation)
        self.times.append(self.clock() - begin)
        self.rollouts.append(result.rollouts)
        self.cards_left.append(sum(observation.card_counts))
        return result.best


#: The bands of cards left in the four hands of ``--by-cards``.
CARD_BANDS = ((0, 18), (19, 36), (37, 54), (55, 72), (73, 90), (91, 108))


def by_cards(times: np.ndarray, rolls: list[int], cards_left: list[int]) -> None:
    """A budget's decisions by the cards left in the four hands: their count, mean and max
    time, mean rollouts, and the time a rollout (µs)."""
    left = np.array(cards_left)
    played = np.array(rolls)
    for low, high in CARD_BANDS:
        band = (left >= low) & (left <= high)
        if band.any():
            per = 1000 * times[band].sum() / max(1, played[band].sum())
            print(f"    {low:>3}-{high:<3} cards left {band.sum():>5} {times[band].mean():>8.1f} "
                  f"{times[band].max():>8.1f} {played[band].mean():>10,.0f} {per:>8.1f} µs a rollout")


def decision_speed(budgets: list[str], deals: int, seed: int, cpu: bool = False, cards: bool = False) -> None:
    print(f"decisions: mc in seats 0 and 2 against greedy, {deals} single deals (seed {seed}); searched decisions"
          + ("; CPU time" if cpu else ""))
    print(f"  {'budget':<30} {'decisions':>9} {'mean ms':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} "
          f"{'rollouts/decision':>18}")
    for budget in budgets:
        _, options = parse_spec(f"mc:{budget}")
        timed = [Timed(MonteCarloAgent(seed=s, **options), cpu) for s in (1, 2)]
        for i in range(deals):
            deal = Deal.new(seed=derive_seed(seed, i), level=2)
            agents: list[Agent] = [timed[0], GreedyAgent(), timed[1], GreedyAgent()]
            while deal.turn is not None:  # not over
                move = agents[deal.turn].act(deal.observation(deal.turn))
                assert isinstance(move, Move)  # in play, a move
                deal.act(move)
        times = np.array(timed[0].times + timed[1].times) * 1000
        rolls = timed[0].rollouts + timed[1].rollouts
        print(f"  {budget:<30} {len(times):>9} {times.mean():>8.1f} {np.percentile(times, 50):>8.1f} "
              f"{np.percentile(times, 99):>8.1f} {times.max():>8.1f} {statistics.mean(rolls):>18,.0f}")
        if cards:
            by_cards(times, rolls, timed[0].cards_left + timed[1].cards_left)


def agent_speed(specs: list[str], deals: int, seed: int, cpu: bool = False) -> None:
    """Any agent as a user runs it (``--agents``: specs such as ``net``): in seats 0 and 2
    against ``greedy``, every decision of more than one legal action timed around ``act``."""
    from guandan.bots.registry import make_agent

    print(f"agents: each in seats 0 and 2 against greedy, {deals} single deals (seed {seed}); decisions of"
          " two legal actions or more" + ("; CPU time" if cpu else ""))
    print(f"  {'agent':<30} {'decisions':>9} {'mean ms':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    clock = time.process_time if cpu else time.perf_counter
    for spec in specs:
        players = [make_agent(spec, seed=s) for s in (1, 2)]
        times: list[float] = []
        for i in range(deals):
            deal = Deal.new(seed=derive_seed(seed, i), level=2)
            agents = [players[0], GreedyAgent(), players[1], GreedyAgent()]
            while deal.turn is not None:  # not over
                observation = deal.observation(deal.turn)
                begin = clock()
                action = agents[deal.turn].act(observation)
                if deal.turn % 2 == 0 and len(observation.legal_actions) > 1:
                    times.append(clock() - begin)
                assert not isinstance(action, int)  # in play, a move (any spec's agent: a RankMove plays too)
                deal.act(action)
        ms = np.array(times) * 1000
        print(f"  {spec:<30} {len(ms):>9} {ms.mean():>8.2f} {np.percentile(ms, 50):>8.2f} "
              f"{np.percentile(ms, 99):>8.2f} {ms.max():>8.2f}")


def spend_speed(deals: int) -> None:
    agent, cases = GreedyAgent(), []
    for seed in range(deals):
        deal = Deal.new(seed=seed, level=2 + seed % 13)
        while deal.turn is not None:  # not over
            obs = deal.observation(deal.turn)
            beat = PASS_WORD if obs.to_beat is None else pack_rank_move(obs.to_beat.move.to_rank())
            words = [int(w) for w in _core.rank_moves(obs.hand_counts, int(obs.level), beat)][:32]
            cases.append((obs.hand, obs.level, words))
            move = agent.act(obs)
            assert isinstance(move, Move)  # in play, a move
            deal.act(move)

    def canonical(hand: Cards, level: Rank, words: list[int]) -> None:
        for w in words:
            canonical_move(w, hand, level)

    def as_mc(hand: Cards, level: Rank, words: list[int]) -> None:
        spend = flush_keeping_move if straight_flushes(hand, level) else canonical_move
        for w in words:
            spend(w, hand, level)

    held = sum(bool(straight_flushes(hand, level)) for hand, level, _ in cases)
    print(f"spend: {len(cases)} decisions of {deals} seeded deals of greedy play, at most 32 rank-level moves each;"
          f" {held} hands ({held / len(cases):.1%}) hold a straight flush; CPU time a decision")
    for name, spend in (("canonical_move", canonical), ("as mc (flush_keeping_move)", as_mc)):
        start = time.process_time()
        for case in cases:
            spend(*case)
        mean = (time.process_time() - start) / len(cases)
        each = []
        for case in cases:
            t = time.thread_time_ns()
            spend(*case)
            each.append(time.thread_time_ns() - t)
        print(f"  {name:<28} mean {1e6 * mean:7.1f} us  p99 {np.percentile(each, 99) / 1e3:7.1f} us"
              f"  max {max(each) / 1e3:7.1f} us")


def infoset_speed(deals: int) -> None:
    """CPU time of ``information_set`` (what a decision of ``mc`` reads from its observation)
    at every tenth ply of seeded greedy deals, 20 calls a position on a fresh copy."""
    positions = []
    for s in range(deals):
        deal, agent = Deal.new(seed=s, level=2), GreedyAgent()
        while deal.turn is not None:  # not over
            obs = deal.observation(deal.turn)
            if len(obs.history) % 10 == 5:
                positions.append(obs)
            move = agent.act(obs)
            assert isinstance(move, Move)  # in play, a move
            deal.act(move)
    begin, calls = time.process_time(), 0
    for obs in positions:
        for _ in range(20):
            information_set(obs.replace())
            calls += 1
    print(f"infoset: {len(positions)} positions of {deals} greedy deals, information_set "
          f"{1e6 * (time.process_time() - begin) / calls:.1f} us CPU each")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--part", choices=["rollouts", "search", "decisions", "spend", "infoset", "agents", "all"],
                        default="all", help="one part (default all; agents only when asked: it needs onnxruntime)")
    parser.add_argument("--budgets", nargs="+", default=["rollouts=2000", "think_ms=100"],
                        help="decision budgets: rollouts=N, think_ms=T or max_cost=C, other options of mc after colons "
                             "(default rollouts=2000 think_ms=100)")
    parser.add_argument("--agents", nargs="+", default=["net"], help="the agents part's agent specs (default net)")
    parser.add_argument("--deals", type=int, default=10, help="single deals for the decisions part (default 10)")
    parser.add_argument("--seed", type=int, default=2027, help="the decisions part's seed (default 2027)")
    parser.add_argument("--cpu", action="store_true",
                        help="time rollouts and decisions in CPU time (one thread: as alone on a core, on a busy "
                             "machine)")
    parser.add_argument("--by-cards", action="store_true",
                        help="the decisions part also shows each budget's decisions by the cards left in the four "
                             "hands")
    parser.add_argument("--weights", nargs="*", default=[], metavar="FILE",
                        help="the rollouts part also times the learned policy with each of these policy files")
    parser.add_argument("--nice", type=int, default=0, help="lower this process's priority by this much")
    args = parser.parse_args(argv)
    if args.nice:
        os.nice(args.nice)
    print(f"machine: {os.cpu_count()} cpus, Python {platform.python_version()}, guandan {guandan.__version__}")
    if args.part in ("rollouts", "all"):
        rollout_speed([(Deal.new(seed=i, level=2)).native_state() for i in range(200)], 100, args.weights, args.cpu)
    if args.part in ("search", "all"):
        search_speed(40, 4000)
    if args.part in ("decisions", "all"):
        decision_speed(args.budgets, args.deals, args.seed, args.cpu, args.by_cards)
    if args.part == "agents":
        agent_speed(args.agents, args.deals, args.seed, args.cpu)
    if args.part in ("spend", "all"):
        spend_speed(200)
    if args.part in ("infoset", "all"):
        infoset_speed(20)
    return 0


if __name__ == "__main__":
    sys.exit(main())
