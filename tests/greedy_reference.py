"""The greedy agent's choice as it was written in numpy before its scan moved to C: the reference that
``guandan.core._core.greedy_choose`` (``csrc/gd_agents.c``) must agree with, move for move.

``reference_choose(observation, bomb_threshold)`` is ``GreedyAgent.choose`` of that version.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from guandan.core.moves import MoveType
from guandan.core.order import elevated_order

_M52 = np.uint64((1 << 52) - 1)
_ODD64 = np.uint64(int("10" * 32, 2))  # the high bit of every 2-bit face count
_SHIFT60 = np.uint64(60)
_SHIFT56 = np.uint64(56)
_F15 = np.uint64(15)
_F4 = np.uint64(4)
_BOMB16 = np.uint64(16 * MoveType.BOMB)
_BIG = np.int64(1 << 40)
_DIRTY = np.int64(1 << 20)
_SEQUENCES = (MoveType.STRAIGHT, MoveType.PAIR_RUN, MoveType.TRIPLE_RUN, MoveType.STRAIGHT_FLUSH)
_SIZES = {MoveType.SINGLE: 1, MoveType.PAIR: 2, MoveType.TRIPLE: 3, MoveType.FULL_HOUSE: 5,
          MoveType.STRAIGHT: 5, MoveType.PAIR_RUN: 6, MoveType.TRIPLE_RUN: 6}
_TABLES: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def _key_order(move_type: int, key_index: int, level: int) -> int:
    """1 + the elevated order of the key for rank types; for sequences 0 for the ace-low
    window, else 1 + the place of the window's lowest rank among the ranks other than the
    level rank (so a sequence and a group starting at the same low rank score alike)."""
    if key_index == 15:
        return 0
    if move_type in _SEQUENCES:
        if key_index == 12:
            return 0
        rank = key_index + 2
        return rank - 2 - (rank > level) + 1
    return elevated_order(key_index + 2, level) + 1


def _tables(level: int) -> tuple[np.ndarray, np.ndarray]:
    """Per level: the score of a non-bomb (key order, then more cards first) and the key
    order of a bomb, both indexed by ``type * 16 + key index``."""
    tables = _TABLES.get(level)
    if tables is None:
        plain = np.full(256, _BIG, dtype=np.int64)
        bomb = np.zeros(256, dtype=np.int64)
        for t in range(1, 11):
            for k in range(16):
                order = _key_order(t, k, level)
                if MoveType(t) in _SIZES:
                    plain[16 * t + k] = order * 16 + (15 - _SIZES[MoveType(t)])
                bomb[16 * t + k] = order
        tables = _TABLES[level] = (plain, bomb)
    return tables


def _sizes(array: np.ndarray) -> np.ndarray:
    lo = array[:, 0]
    hi = array[:, 1] & _M52
    sizes: np.ndarray = (
        np.bitwise_count(lo).astype(np.int64)
        + np.bitwise_count(lo & _ODD64)
        + np.bitwise_count(hi)
        + np.bitwise_count(hi & _ODD64)
    )
    return sizes


_C33 = int("0011" * 28, 2)
_C0F = int("00001111" * 14, 2)
_C04 = sum(4 << (8 * r) for r in range(13))
_C08 = sum(8 << (8 * r) for r in range(13))
_MASK64 = (1 << 64) - 1


def _protected(hand: int, level: int) -> tuple[np.uint64, np.uint64]:
    """Masks (low word, high word) of the cards a greedy agent keeps: the wilds, every
    card of a rank held four or more times (wilds not counted), the jokers when all four are held.

    The hand is packed 2 bits per face, a byte per rank; the cards of every rank are
    summed at once (bit-parallel), then each byte of 4 or more becomes ``0xFF``.
    """
    wild = 4 * (level - 2) + 1
    pairs = (hand & _C33) + ((hand >> 2) & _C33)
    per_rank = (pairs & _C0F) + ((pairs >> 4) & _C0F)
    per_rank -= ((hand >> (2 * wild)) & 3) << (8 * (level - 2))
    bits = (((per_rank + _C04) & _C08) >> 3) * 0xFF | (3 << (2 * wild))
    if (hand >> 104) & 0xF == 0b1010:
        bits |= 0xF << 104
    return np.uint64(bits & _MASK64), np.uint64(bits >> 64)


class ReferenceGreedy:
    """``GreedyAgent``'s scan of the packed moves in numpy (the version before the native scan)."""

    def __init__(self, bomb_threshold: int = 5) -> None:
        self.bomb_threshold = bomb_threshold
        self._masks: dict[int, tuple[np.uint64, np.uint64]] = {}

    def choose(self, observation: Any) -> int:
        """The index of the chosen move in ``observation.legal_actions`` (play phase)."""
        array = observation.legal_actions.array
        n = len(array)
        beat_seat = observation.to_beat_seat
        responding = beat_seat is not None
        if responding and n == 1:
            return 0
        seat = observation.seat
        counts = observation.card_counts
        mine = counts[seat]
        if responding and mine > 10 and beat_seat == seat ^ 2:
            return n - 1  # let the partner's play stand
        level = int(observation.level)
        plain, bomb_order = _tables(level)
        lo = array[:, 0]
        hi = array[:, 1]
        index = hi >> _SHIFT56  # type * 16 + key index
        score = plain[index]
        if mine <= 10:
            out = ((score & 15) == 15 - mine).nonzero()[0]  # a non-bomb of exactly my cards
            if not len(out) and mine >= 4:
                bombs = (index >= _BOMB16).nonzero()[0]
                if len(bombs):
                    out = bombs[_sizes(array[bombs]) == mine]
            if len(out):
                return self._lowest_of(out, lo, hi)
        if responding and beat_seat == seat ^ 2:
            return n - 1
        hand = observation.packed_hand
        masks = self._masks
        mask_key = hand | (level << 112)
        mask = masks.get(mask_key)
        if mask is None:
            if len(masks) > 256:
                masks.clear()
            mask = masks[mask_key] = _protected(hand, level)
        plo, phi = mask
        ranked = score + (((lo & plo) | (hi & phi)) != 0) * _DIRTY
        best = ranked.min()
        if best < _DIRTY:
            return self._lowest(ranked, best, lo, hi)
        opp = self.bomb_threshold
        if not responding or 0 < counts[seat ^ 1] <= opp or 0 < counts[seat ^ 3] <= opp:
            if best < _BIG:
                return self._lowest(ranked, best, lo, hi)
            bombs = (index >= _BOMB16).nonzero()[0]
            if len(bombs):
                return self._smallest_bomb(array, bombs, index >> _F4, index, bomb_order)
        return n - 1  # pass

    @staticmethod
    def _lowest(score: np.ndarray, best: Any, lo: np.ndarray, hi: np.ndarray) -> int:
        """Among the rows scoring ``best``, the one spending the lowest cards."""
        return ReferenceGreedy._lowest_of((score == best).nonzero()[0], lo, hi)

    @staticmethod
    def _lowest_of(ties: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> int:
        """Among the given rows, the one whose cards are lowest (highest face first compared):
        a choice that does not depend on the order of the list."""
        if len(ties) > 1:
            top = hi[ties] & _M52
            ties = ties[top == top.min()]
            if len(ties) > 1:
                return int(ties[int(np.argmin(lo[ties]))])
        return int(ties[0])

    @staticmethod
    def _smallest_bomb(array: np.ndarray, rows: np.ndarray, t: np.ndarray, index: np.ndarray, order: np.ndarray) -> int:
        sizes = _sizes(array[rows])
        types = t[rows]
        cls = np.where(sizes <= 5, sizes - 4, sizes - 3)
        cls = np.where(types == np.uint64(MoveType.STRAIGHT_FLUSH), 2, cls)
        cls = np.where(types == np.uint64(MoveType.JOKER_BOMB), 8, cls)
        strength = cls * 64 + order[index[rows]]
        return ReferenceGreedy._lowest_of(rows[strength == strength.min()], array[:, 0], array[:, 1])



def reference_choose(observation: Any, bomb_threshold: int = 5) -> int:
    """The index the numpy greedy scan chooses in ``observation.legal_actions``."""
    return ReferenceGreedy(bomb_threshold).choose(observation)
