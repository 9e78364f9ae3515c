"""A search bot built on the public API: determinized Monte Carlo with native playouts.

At each of its plays, :class:`MonteCarloAgent`

1. lists its candidate moves at rank granularity (the suits of a combination change
   little; its physical cards are then chosen canonically, keeping one card of as many
   suits as possible), keeping the ``candidates`` weakest when there are more (bombs last);
2. samples ``determinizations`` deals consistent with what it has seen
   (:func:`guandan.determinize.determinize`), the same ones for every candidate;
3. plays each candidate in each sampled deal and plays the deal out ``playouts`` times in
   the native core with a built-in policy (greedy by default: deterministic, so one
   playout per sample suffices);
4. plays the candidate with the best mean result for its side, in levels (+3/+2/+1 for a
   win with the partner 2nd/3rd/4th, negative for a loss; :func:`guandan.playout.scores`).

Tribute and return choices are the greedy agent's. Deterministic given its seed.

>>> from guandan import Deal
>>> from guandan.agents import GreedyAgent, play_out
>>> deal = Deal.new(seed=4, level=2)
>>> play_out(deal, [MonteCarloAgent(seed=1), GreedyAgent(), MonteCarloAgent(seed=2), GreedyAgent()])
>>> deal.is_over
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _core
from .agents import GreedyAgent
from .combos import Move
from .determinize import determinize
from .errors import GuandanError, describe
from .movegen import PASS_WORD, pack_rank_move, unpack_move
from .observation import Observation, Phase
from .playout import Policy, native_state, scores
from .rng import SplitMix64

__all__ = ["MonteCarloAgent"]

_MASK64 = (1 << 64) - 1
_BOMBS = (8, 9, 10)


def _weakness(word: int, level: int) -> tuple[int, int, int, int]:
    """Weakest first: non-bombs before bombs, then key order, then more cards, then fewer wilds."""
    move_type, key, wilds = word >> 60, (word >> 56) & 15, (word >> 52) & 3
    if move_type in (5, 6, 7, 9):
        order = 0 if key == 12 else key + 1
    else:
        lvl = level - 2
        order = key if key >= 13 else 12 if key == lvl else key if key < lvl else key - 1
    size = int(_core.move_size(word)) if word != PASS_WORD else 0
    return (move_type in _BOMBS, order, -size, wilds)


class MonteCarloAgent:
    """Determinized Monte Carlo search over native playouts (see the module docstring)."""

    name = "mc"

    def __init__(
        self,
        seed: int = 0,
        determinizations: int = 12,
        playouts: int = 1,
        policy: Policy = "greedy",
        candidates: int = 24,
    ) -> None:
        if not all(
            isinstance(x, int) and not isinstance(x, bool) and x >= 1 for x in (determinizations, playouts, candidates)
        ):
            raise GuandanError("determinizations, playouts and candidates must be ints >= 1")
        if policy not in ("random", "greedy"):
            raise GuandanError(f"policy must be 'random' or 'greedy', got {describe(policy)}")
        self.seed = seed
        self.determinizations = determinizations
        self.playouts = playouts
        self.policy = policy
        self.candidates = candidates
        self._rng = SplitMix64(seed)
        self._fallback = GreedyAgent(seed)

    def __repr__(self) -> str:
        return (
            f"MonteCarloAgent(determinizations={self.determinizations}, playouts={self.playouts}, "
            f"policy={self.policy!r}, candidates={self.candidates})"
        )

    def act(self, observation: Observation) -> Move | int:
        """The action for the observation's phase: a searched move in play, else the greedy choice."""
        if observation.phase != Phase.PLAY:
            return self._fallback.act(observation)
        legal = observation.legal_actions
        if len(legal) == 1:
            only: Move = legal[0]
            return only
        level = int(observation.level)
        to_beat = observation.to_beat
        beat = PASS_WORD if to_beat is None else pack_rank_move(to_beat.move.to_rank())
        words = [int(w) for w in _core.rank_moves(observation.hand_counts, level, beat)]
        words.sort(key=lambda w: _weakness(w, level))
        if len(words) > self.candidates:
            keep = words[: self.candidates]
            if PASS_WORD in words and PASS_WORD not in keep:
                keep[-1] = PASS_WORD
            words = keep
        if len(words) == 1:
            return self._move(observation, words[0], beat)
        states = [self._state(observation, determinize(observation, self._rng)) for _ in range(self.determinizations)]
        orders = _core.evaluate(states, words, self.playouts, self.policy, self._rng.next_u64())
        result = scores(orders.reshape(-1, 4), side=observation.seat & 1).reshape(len(states), len(words), -1)
        best = int(np.argmax(result.mean(axis=(0, 2))))
        return self._move(observation, words[best], beat)

    @staticmethod
    def _state(observation: Observation, hands: Any) -> tuple[Any, ...]:
        return native_state(
            hands, int(observation.level), observation.seat, observation.to_beat, observation.history,
            observation.finish_order,
        )

    @staticmethod
    def _move(observation: Observation, word: int, beat: int) -> Move:
        """The card-level move of a rank-level word, its cards spent canonically."""
        spent = _core.spend_cards(observation.hand_counts, int(observation.level), word)
        if word == PASS_WORD:
            return Move.pass_(observation.level)
        return unpack_move(spent & _MASK64, (spent >> 64) | (word & ~((1 << 52) - 1)), observation.level)
