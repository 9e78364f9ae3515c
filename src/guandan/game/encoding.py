"""Encodings of what a seat knows, for learning agents (the layouts: ``docs/encodings.md``).

* **The 567-value rows** (:func:`encode_rows`): for a decision, one row per legal action
  (card granularity, in the order of ``observation.legal_actions``), each the 513 values of
  the seat's state (:func:`encode_state`) followed by the 54 values of the action's card
  vector. This is the input of the published Q-networks of the field (one network call a
  decision, ``(n, 567)`` in, ``(n, 1)`` out). Made in the native core
  (``csrc/gd_encode.c``); :func:`reference_rows` is the same in plain Python, the one it is
  checked against.
* **Card vectors** (:func:`card_vector`): 54 counts indexed ``suit * 13 + rank`` with the
  suits in the order hearts, spades, clubs, diamonds and the ranks 2..A, then the small
  and the big joker (52, 53) — not the engine's face numbering (:data:`VECTOR_INDEX` maps
  a face to its index).
* **History tokens** (:func:`history_tokens`): the deal's plays and passes as a padded
  sequence of (seat, card vector) tokens with its length, for sequence models.

Only the seat's own information is read: its hand, the public record of the deal (who played
which cards: ``observation.history``), the card counts and the levels.

>>> from guandan.game.deal import Deal
>>> deal = Deal.new(seed=2026, level=2)
>>> obs = deal.observation(deal.turn)
>>> rows = encode_rows(obs)
>>> rows.shape == (len(obs.legal_actions), ROW_SIZE), rows.dtype
(True, dtype('float32'))
>>> bool((rows == reference_rows(obs)).all())
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..core import encode as native
from ..core.cards import NUM_FACES, Cards, CardsLike, as_cards

# The sizes (a state 513, a card vector 54, a row 567, the wild flags 12) and ``VECTOR_INDEX[face]``,
# the card-vector index of an engine face: the core's own, handed on.
from ..core.encode import ACTION_SIZE, ROW_SIZE, STATE_SIZE, VECTOR_INDEX, WILD_FLAGS
from ..core.packed import MASK52, bits_of_words, cards_of_bits
from ..errors import GuandanError, check_int, describe, is_int
from .observation import Observation

__all__ = [
    "STATE_SIZE",
    "ACTION_SIZE",
    "ROW_SIZE",
    "WILD_FLAGS",
    "VECTOR_INDEX",
    "card_vector",
    "decision_levels",
    "encode_state",
    "encode_rows",
    "encode_actions",
    "history_tokens",
    "reference_wild_flags",
    "reference_state",
    "reference_rows",
]


_VECTOR_SUIT = (1, 0, 2, 3)  # the card-vector suit of the engine's suits S, H, C, D


def _check_observation(observation: object) -> Observation:
    if not isinstance(observation, Observation):
        raise GuandanError(f"an encoding reads an Observation, got {describe(observation)}")
    return observation


def decision_levels(observation: Observation) -> tuple[int, int, int]:
    """The three levels an encoded state holds, as rank numbers 2..14: the deal's, the seat's
    side's and the other side's (outside a match both sides are at the deal's level).

    >>> from guandan.game.deal import Deal
    >>> decision_levels(Deal.new(seed=1, level=9).observation(0))
    (9, 9, 9)
    """
    obs = _check_observation(observation)
    level = int(obs.level)
    if obs.levels is None:
        return level, level, level
    mine = obs.seat & 1
    return level, int(obs.levels[mine]), int(obs.levels[1 - mine])


_NativeArgs = tuple[int, int, tuple[tuple[int, int, int], ...], tuple[int, ...], int, int, int]


def _native_args(obs: Observation) -> _NativeArgs:
    level, own, other = decision_levels(obs)
    return (obs.packed_hand, obs.seat, obs.history.packed_plays, tuple(obs.card_counts), level, own, other)


def _legal_array(obs: Observation) -> np.ndarray:
    actions = obs.legal_actions
    array = getattr(actions, "array", None)
    if not isinstance(array, np.ndarray) or array.ndim != 2:
        raise GuandanError(
            f"rows are made for a decision of the play phase (legal_actions a card-level MoveList), "
            f"got legal_actions {describe(actions)}"
        )
    return np.ascontiguousarray(array, dtype=np.uint64)


def encode_state(observation: Observation) -> np.ndarray:
    """The 513 state values of a seat (``float32 (513,)``; layout: ``docs/encodings.md``),
    made natively.

    >>> from guandan.game.deal import Deal
    >>> state = encode_state(Deal.new(seed=2026, level=2).observation(2))
    >>> state.shape, float(state[:54].sum())
    ((513,), 27.0)
    """
    obs = _check_observation(observation)
    return native.encode_state(*_native_args(obs))


def encode_rows(observation: Observation) -> np.ndarray:
    """The 567-value rows of a decision: ``float32 (n_legal, 567)``, row ``i`` the state then
    the card vector of ``observation.legal_actions[i]`` (a pass: 54 zeros). Made natively.

    >>> from guandan.game.deal import Deal
    >>> deal = Deal.new(seed=2026, level=2)
    >>> rows = encode_rows(deal.observation(deal.turn))
    >>> rows.shape[1], bool((rows[:, :513] == rows[0, :513]).all())
    (567, True)
    """
    obs = _check_observation(observation)
    moves = _legal_array(obs)
    return native.encode_rows(*_native_args(obs), moves)


def encode_actions(moves: np.ndarray) -> np.ndarray:
    """The card vectors (``float32 (n, 54)``) of card-level moves given packed
    (``uint64 (n, 2)``, a :class:`~guandan.MoveList`'s ``array``).

    >>> from guandan.game.deal import Deal
    >>> deal = Deal(["S3 H4", "S9", "D5", "D6"], level=2, leader=0)
    >>> vectors = encode_actions(deal.legal_moves().array)
    >>> [sorted(np.flatnonzero(v).tolist()) for v in vectors]
    [[14], [2]]
    """
    return native.encode_actions(moves)


# -- the plain-Python reference --------------------------------------------------------------------


def card_vector(cards: object) -> np.ndarray:
    """The card vector of a multiset of cards (``float32 (54,)``), in plain Python.

    >>> v = card_vector("H2 S2 SB HR HR")
    >>> {int(i): float(v[i]) for i in np.flatnonzero(v)}
    {0: 1.0, 13: 1.0, 52: 1.0, 53: 2.0}
    """
    hand = as_cards(_as_cards(cards))
    out = np.zeros(NUM_FACES, dtype=np.float32)
    for face, n in enumerate(hand.counts):
        if n:
            index = face if face >= 52 else _VECTOR_SUIT[face % 4] * 13 + face // 4
            out[index] = n
    return out


def _as_cards(cards: Any) -> CardsLike:
    """A packed 108-bit int as :class:`~guandan.Cards`; anything else as it is."""
    if is_int(cards):
        return cards_of_bits(int(cards))
    held: CardsLike = cards
    return held


def reference_wild_flags(hand: object, level: int) -> np.ndarray:
    """The 12 wild flags of a hand at a level (2..14), in plain Python (``docs/encodings.md``).

    >>> reference_wild_flags("S3 S4", 2).tolist()[0], reference_wild_flags("H2 S3", 2).tolist()[:2]
    (0.0, [1.0, 0.0])
    """
    cards = as_cards(_as_cards(hand))
    out = [0.0] * 12
    r_level = level - 2
    wild = 4 * r_level + 1  # the heart of the level
    if not cards.counts[wild]:
        return np.array(out, dtype=np.float32)
    out[0] = 1.0
    presence = [[0] * 13 for _ in range(4)]
    for face in range(52):
        if cards.counts[face]:
            presence[_VECTOR_SUIT[face % 4]][face // 4] = 1
    presence[0][r_level] = 0
    if any(sum(row[start : start + 5]) >= 4 for row in presence for start in range(8)):
        out[1] = 1.0
    n = [sum(presence[s][r] for s in range(4)) for r in range(13)]
    most = max(n)
    first = {6: 2, 5: 3, 4: 4, 3: 5, 2: 6}.get(min(most, 6), 7)
    for i in range(first, 8):
        out[i] = 1.0
    run = 0
    for r in range(13):
        run = run + 1 if n[r] > 0 else 0
        if r >= 1:
            if (n[r] == 2 and n[r - 1] >= 3) or (n[r] >= 3 and n[r - 1] == 2):
                out[9] = 1.0
            elif n[r] == 2 and n[r - 1] == 2:
                out[11] = 1.0
        if r >= 2:
            window = n[r - 2 : r + 1]
            if sum(x == 1 for x in window) == 1 and sum(x >= 2 for x in window) == 2:
                out[10] = 1.0
    if run >= 4:
        out[8] = 1.0
    return np.array(out, dtype=np.float32)


def _played_cards(lo: int, hi: int) -> Cards:
    return cards_of_bits(bits_of_words(lo, hi & MASK52))


def reference_state(observation: Observation) -> np.ndarray:
    """:func:`encode_state` in plain Python, from the observation's own fields.

    >>> from guandan.game.deal import Deal
    >>> obs = Deal.new(seed=4, level=3).observation(1)
    >>> bool((reference_state(obs) == encode_state(obs)).all())
    True
    """
    obs = _check_observation(observation)
    seat = obs.seat
    level, own, other = decision_levels(obs)
    counts = obs.card_counts
    played = [Cards() for _ in range(4)]
    last: list[Cards | None] = [None] * 4
    latest = -1
    for s, lo, hi in obs.history.packed_plays:
        cards = _played_cards(lo, hi)
        played[s] = played[s] + cards
        last[s] = cards
        latest = s
    nxt, mate, prev = (seat + 1) % 4, seat ^ 2, (seat + 3) % 4
    minus = np.full(54, -1.0, dtype=np.float32)
    zeros = np.zeros(54, dtype=np.float32)
    hand = obs.hand
    unseen = 2.0 - card_vector(hand) - sum((card_vector(p) for p in played), zeros)
    if latest < 0:
        previous = minus
    elif latest == prev:
        previous = card_vector(last[prev])
    else:
        previous = zeros if counts[prev] else minus
    partner = minus if last[mate] is None or not counts[mate] else card_vector(last[mate])

    def one_hot(size: int, index: int) -> np.ndarray:
        v = np.zeros(size, dtype=np.float32)
        v[index] = 1.0
        return v

    parts = [
        card_vector(hand),
        reference_wild_flags(hand, level),
        unseen,
        previous,
        partner,
        card_vector(played[nxt]),
        card_vector(played[mate]),
        card_vector(played[prev]),
        one_hot(28, min(counts[nxt], 27)),  # a tribute's receiver holds 28 until it returns one
        one_hot(28, min(counts[mate], 27)),
        one_hot(28, min(counts[prev], 27)),
        one_hot(13, own - 2),
        one_hot(13, other - 2),
        one_hot(13, level - 2),
    ]
    return np.concatenate(parts).astype(np.float32)


def reference_rows(observation: Observation) -> np.ndarray:
    """:func:`encode_rows` in plain Python.

    >>> from guandan.game.deal import Deal
    >>> obs = Deal.new(seed=4, level=3).observation(Deal.new(seed=4, level=3).turn)
    >>> reference_rows(obs).shape[1]
    567
    """
    obs = _check_observation(observation)
    moves = _legal_array(obs)
    state = reference_state(obs)
    rows = [np.concatenate([state, card_vector(_played_cards(int(lo), int(hi)))]) for lo, hi in moves]
    return np.array(rows, dtype=np.float32).reshape(len(rows), ROW_SIZE)


# -- history tokens -------------------------------------------------------------------------------


def history_tokens(
    observation: Observation, max_len: int = 256, *, relative: bool = True
) -> tuple[np.ndarray, np.ndarray, int]:
    """The deal's plays and passes so far as tokens for a sequence model: ``(seats, cards,
    length)`` with ``seats`` ``int8 (max_len,)`` (-1 past the end), ``cards`` ``float32
    (max_len, 54)`` (each token's card vector; a pass and the padding are all 0) and the
    number of tokens. A seat is relative to the observer (0 itself, 1 the next seat, 2 the
    partner, 3 the previous seat) unless ``relative=False``. A deal longer than ``max_len``
    keeps its latest ``max_len`` actions. Tribute and return are not in it (they come
    before the deal's play: :attr:`~guandan.game.observation.Observation.history` has them).

    >>> from guandan.game.deal import Deal
    >>> deal = Deal.new(seed=3, level=2); deal.play_index(0); deal.play_index(0)
    >>> seats, cards, length = history_tokens(deal.observation(1), max_len=4)
    >>> seats.tolist(), length, cards.shape
    ([1, 2, -1, -1], 2, (4, 54))
    """
    obs = _check_observation(observation)
    max_len = check_int("max_len", max_len, 1)
    plays: Sequence[tuple[int, int, int]] = obs.history.packed_plays[-max_len:]
    seats = np.full(max_len, -1, dtype=np.int8)
    cards = np.zeros((max_len, ACTION_SIZE), dtype=np.float32)
    if plays:
        array = np.array(plays, dtype=np.uint64).reshape(-1, 3)
        n = len(plays)
        who = array[:, 0].astype(np.int64)
        seats[:n] = (who - obs.seat) % 4 if relative else who
        moves = np.ascontiguousarray(array[:, 1:])
        cards[:n] = native.encode_actions(moves)
    return seats, cards, len(plays)

