"""``_core.packed_card_moves``: a deal's legal moves from its packed hand, the same
array as ``card_moves`` on the same cards, for small and very large move lists."""

from __future__ import annotations

import numpy as np
import pytest
from strategies import random_hand

from guandan import Cards, InvalidCardsError, InvalidMoveError
from guandan.core import _core


def _packed(cards):
    return _core.pack_cards(cards.counts)


def test_packed_card_moves_are_the_card_moves_of_the_same_cards():
    rng = np.random.default_rng(12)
    sizes = []
    for k in range(600):
        hand = random_hand(rng, int(rng.integers(1, 28)))
        level = int(rng.integers(2, 15))
        beat = _core.PASS_MOVE
        if k % 2:
            leads = _core.rank_moves(random_hand(rng, 27).counts, level)
            beat = int(leads[int(rng.integers(0, len(leads)))])
        want = _core.card_moves(hand.counts, level, beat)
        got = _core.packed_card_moves(*_packed(hand), level, beat)
        assert got.dtype == np.uint64 and got.shape == want.shape and got.flags.c_contiguous
        assert np.array_equal(got, want)
        sizes.append(len(want))
    assert max(sizes) > 1024 and min(sizes) <= 1  # both the stack and the regenerated paths ran


def test_a_hand_with_thousands_of_moves():
    hand = Cards.parse("H2 H2 S3 S3 C3 D3 S4 H4 C4 D4 S5 H5 C5 D5 S6 H6 C6 D6 S7 H7 C7 D7 S8 H8 C8 SB HR")
    want = _core.card_moves(hand.counts, 2)
    assert len(want) > 4 * 1024
    assert np.array_equal(_core.packed_card_moves(*_packed(hand), 2), want)


@pytest.mark.parametrize(
    ("args", "error", "message"),
    [
        ((3, 0, 2), InvalidCardsError, "3 copies of S2"),
        ((0, 1 << 44, 2), InvalidCardsError, "beyond the 54 faces"),
        ((-1, 0, 2), InvalidCardsError, "lo must be an int"),
        ((0, 2**64, 2), InvalidCardsError, "hi must be an int"),
        ((0, 0, 15), InvalidCardsError, "level"),
        ((0, 0, 2, 0xFF << 56), InvalidMoveError, "the play to beat"),
        ((0, 0, 2, 1.0), InvalidMoveError, "the play to beat"),
    ],
)
def test_packed_card_moves_refuses_bad_arguments_by_name(args, error, message):
    with pytest.raises(error, match=message):
        _core.packed_card_moves(*args)
