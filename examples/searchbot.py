"""A search bot from the public API: determinization, Deal.copy/play/undo, native playouts.

docs/search-bots.md explains it step by step. Run it against the greedy bot from this
directory (seats 0 and 2 against seats 1 and 3):

    guandan simulate 100 --deals --agents searchbot:SampleSearchBot,greedy
"""

import numpy as np

from guandan import GreedyAgent, Phase, elevated_order
from guandan.bots.determinize import determinize, sampled_deal
from guandan.bots.playout import playouts
from guandan.core.rng import SplitMix64
from guandan.game.scoring import side_scores


def outcome(deal, side, promotion):
    """A finished deal's result for a side, in levels (+3 .. -3 under the competitive rules), as playouts score it."""
    order = list(deal.result.finish_order)
    return float(side_scores(np.array([order + [-1] * (4 - len(order))]), side, promotion)[0])


class SampleSearchBot:
    """At each play: sample ``worlds`` deals consistent with what it has seen; in each,
    play every candidate move, play the deal out natively, undo; keep the candidate with
    the best mean result in levels. Tribute and return: the greedy agent's choice."""

    def __init__(self, seed=0, worlds=12, candidates=24, policy="greedy", playouts=1):
        self.rng = SplitMix64(seed)
        self.worlds = worlds
        self.candidates = candidates
        self.policy = policy
        self.playouts = playouts
        self.greedy = GreedyAgent(seed)

    def act(self, observation):
        legal = observation.legal_actions
        if observation.phase != Phase.PLAY or len(legal) == 1:
            return self.greedy.act(observation)
        candidates = self.candidate_moves(observation)
        side = observation.seat % 2
        promotion = observation.ruleset.promotion  # what a win is worth under the rules played
        totals = np.zeros(len(candidates))
        for _ in range(self.worlds):
            world = sampled_deal(observation, determinize(observation, self.rng))
            for i, move in enumerate(candidates):
                world.play(move)
                if world.is_over:
                    totals[i] += outcome(world, side, promotion)
                else:
                    orders = playouts(world, self.playouts, self.policy, seed=self.rng.next_u64())
                    totals[i] += side_scores(orders, side, promotion).mean()
                world.undo()
        return candidates[int(np.argmax(totals))]

    def candidate_moves(self, observation):
        """The greedy agent's move, then one move per way of playing ranks and wilds, the
        weakest first (no bombs, fewest wilds, lowest key, most cards), the pass last."""
        level = observation.level
        ways = {}
        for move in observation.legal_actions:
            ways.setdefault(move.to_rank(), move)
        plays = [m for m in ways.values() if not m.is_pass]
        plays.sort(key=lambda m: (m.is_bomb, m.wilds, elevated_order(m.key, level) if m.key else 15, -m.size))
        chosen = [self.greedy.act(observation)]
        chosen += [m for m in plays if m.to_rank() != chosen[0].to_rank()][: self.candidates - 1]
        passes = [m for m in ways.values() if m.is_pass]
        return chosen + [m for m in passes if m not in chosen]
