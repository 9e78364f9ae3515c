"""The spend that keeps straight flushes (:func:`guandan.core.movegen.flush_keeping_move`),
checked by brute force: every card-level move that plays the same rank-level move, from the
move generator, and the straight flushes each leaves, counted from the card-level moves."""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pytest
from strategies import corpus_small_positions, random_hand

from guandan import Cards, IllegalMoveError, MoveType, classify, legal_moves
from guandan.core.movegen import (
    MAX_SPENDS,
    canonical_move,
    flush_keeping_move,
    pack_rank_move,
    straight_flushes,
)
from guandan.core.packed import PASS_WORD


def plain_straight_flushes(hand: Cards, level: int) -> int:
    """The straight flushes a hand can lead, from its card-level moves: one per top rank and suit."""
    return len({(m.key, m.suit) for m in legal_moves(hand, level) if m.type == MoveType.STRAIGHT_FLUSH})


def _one_suit_straight(move, level: int) -> bool:
    wild = Cards.parse(f"H{'23456789TJQKA'[level - 2]}")
    naturals = [c for c in move.cards if c not in wild]
    return move.type == MoveType.STRAIGHT and len({c % 4 for c in naturals}) == 1


def _flush_rich(seed: int) -> tuple[Cards, int]:
    """A hand built around straight flushes: runs of one suit with copies of their ranks in
    other suits, wilds and a few cards more."""
    rng = np.random.default_rng(seed)
    level = int(rng.integers(2, 15))
    counts = bytearray(54)
    for _ in range(int(rng.integers(1, 3))):
        suit, low = int(rng.integers(0, 4)), int(rng.integers(0, 9))
        for rank in range(low, low + 5 + int(rng.integers(0, 2))):
            counts[min(rank, 12) * 4 + suit] = min(2, counts[min(rank, 12) * 4 + suit] + 1)
            other = int(rng.integers(0, 4))
            if rng.random() < 0.6:
                counts[min(rank, 12) * 4 + other] = min(2, counts[min(rank, 12) * 4 + other] + 1)
    counts[(level - 2) * 4 + 1] = int(rng.integers(0, 3))  # the wilds
    while sum(counts) < 14:
        face = int(rng.integers(0, 54))
        counts[face] = min(2, counts[face] + 1)
    return Cards(bytes(counts)), level


POSITIONS = (
    [_flush_rich(seed) for seed in range(10)]
    + corpus_small_positions(6, seed=23, max_cards=12)
    + [(random_hand(np.random.default_rng(seed), size=18), 2 + seed % 13) for seed in range(3)]
)
#: More of them, in the whole suite: a few seconds each
MORE = [_flush_rich(seed) for seed in range(10, 40)] + [
    (random_hand(np.random.default_rng(seed), size=20), 2 + seed % 13) for seed in range(3, 9)
]


@pytest.mark.parametrize("hand, level", POSITIONS)
def test_the_straight_flushes_of_a_hand_are_those_of_its_card_level_moves(hand, level):
    assert straight_flushes(hand, level) == plain_straight_flushes(hand, level)


@pytest.mark.slow
@pytest.mark.parametrize(
    "hand, level", POSITIONS + [pytest.param(h, lv, marks=pytest.mark.slow) for h, lv in MORE]
)
def test_the_spend_leaves_the_most_straight_flushes_of_every_way_to_play_the_move(hand, level):
    ways = defaultdict(list)
    for move in legal_moves(hand, level):
        if not _one_suit_straight(move, level):
            ways[move.to_rank()].append(move)
    for rank_move in legal_moves(hand, level, granularity="rank"):
        word = pack_rank_move(rank_move)
        played = flush_keeping_move(word, hand, level)
        canonical = canonical_move(word, hand, level)
        assert played.to_rank() == rank_move and played in legal_moves(hand, level)
        left = plain_straight_flushes(hand - played.cards, level)
        if rank_move.type == MoveType.STRAIGHT_FLUSH:
            assert played == canonical  # the suits are the move's own
            continue
        # the canonical spend, or another that is not a plain straight all of one suit
        assert played == canonical or played in ways[rank_move]
        best = max(plain_straight_flushes(hand - m.cards, level) for m in [canonical, *ways[rank_move]])
        if len(ways[rank_move]) <= MAX_SPENDS:
            assert left == best, (str(hand), level, str(rank_move))
        if plain_straight_flushes(hand - canonical.cards, level) == left:
            assert played == canonical  # the canonical spend unless another keeps more


def test_it_keeps_a_straight_flush_the_canonical_spend_breaks():
    single_5 = pack_rank_move(classify("S5", 2)[0].to_rank())
    hand = Cards.parse("C3 C4 C5 C6 C7 D5")
    assert str(canonical_move(single_5, hand, 2)) == "single 5: C5"
    assert str(flush_keeping_move(single_5, hand, 2)) == "single 5: D5"
    assert straight_flushes(hand - Cards.parse("D5"), 2) == 1 and straight_flushes(hand - Cards.parse("C5"), 2) == 0
    # a full house whose pair can come from three suits: never the diamond of the flush
    full_house = pack_rank_move(classify("S9 H9 C9 S4 H4", 3)[0].to_rank())
    hand = Cards.parse("S4 C4 D4 D5 D6 D7 D8 S9 H9 C9")
    played = flush_keeping_move(full_house, hand, 3)
    assert played.type == MoveType.FULL_HOUSE and Cards.parse("D4") not in played.cards
    assert straight_flushes(hand - played.cards, 3) == straight_flushes(hand, 3) == 1


def test_the_pass_and_a_move_the_hand_cannot_play():
    assert flush_keeping_move(PASS_WORD, "S3", 2).is_pass
    with pytest.raises(IllegalMoveError):
        flush_keeping_move(pack_rank_move(classify("SB SB HR HR", 2)[0].to_rank()), "S3", 2)


@pytest.mark.slow
def test_the_positions_above_hold_moves_whose_spend_it_changes():
    changed = sum(
        flush_keeping_move(pack_rank_move(m), hand, level) != canonical_move(pack_rank_move(m), hand, level)
        for hand, level in POSITIONS
        for m in legal_moves(hand, level, granularity="rank")
    )
    assert changed >= 50  # the brute-force check above is not only of canonical spends
