"""``guandan.game.scoring``: what a deal's finish order is worth, promotion and the sides' scores."""

from __future__ import annotations

import numpy as np
import pytest
from refusals import check

from guandan import (
    GuandanError,
    InvalidCardsError,
    Rank,
)
from guandan.game import scoring
from guandan.game.scoring import DEFAULT_PROMOTION, DealResult, promote, side_scores

# -- bad input -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: scoring.promote(20, 1), InvalidCardsError, "level"),
        (lambda: scoring.promote(5, -10), GuandanError, "gain"),
        (lambda: scoring.promote(5, "a"), GuandanError, "gain"),
        (lambda: scoring.side_scores(np.zeros((1, 4), np.int8), 3), GuandanError, "side"),
        (lambda: scoring.side_scores(np.zeros(4, np.int8), 0), GuandanError, r"shape \(n, 4\)"),
        (lambda: scoring.side_scores("x", 0), GuandanError, r"shape \(n, 4\)"),
        (lambda: scoring.side_scores(np.full((1, 4), 7), 0), GuandanError, "seats 0..3"),
    ],
)
def test_bad_scoring_arguments_raise(call, error, match):
    check(call, error, match)


def test_scores_follow_promotion():
    orders = np.array([[0, 2, -1, -1], [1, 2, 3, 0], [2, 1, 3, 0], [3, 0, 2, 1]], dtype=np.int8)
    assert side_scores(orders, side=0).tolist() == [3.0, -2.0, 1.0, -1.0]
    assert side_scores(orders, side=1).tolist() == [-3.0, 2.0, -1.0, 1.0]


# -- how a deal ended ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "order, first, side, partner, double_down, losers",
    [
        ((0, 2), 0, 0, 2, True, (1, 3)),
        ((3, 1), 3, 1, 2, True, (0, 2)),
        ((1, 2, 3, 0), 1, 1, 3, False, (0, 2)),
        ((2, 1, 3, 0), 2, 0, 4, False, (1, 3)),
        ((0, 1, 2, 3), 0, 0, 3, False, (1, 3)),
    ],
)
def test_a_deal_result_reads_the_finish_order(order, first, side, partner, double_down, losers):
    result = DealResult(order)
    assert (result.first, result.winning_side, result.partner_place) == (first, side, partner)
    assert (result.is_double_down, result.losers) == (double_down, losers)
    assert [result.place(s) for s in order] == list(range(1, len(order) + 1))
    assert all(result.place(s) is None for s in range(4) if s not in order)
    assert str(result).startswith("finish order 1:seat ")


def test_promotion_adds_the_gain_and_stops_at_the_ace():
    assert [promote(level, 1) for level in (2, 12, 13, 14)] == [Rank.THREE, Rank.KING, Rank.ACE, Rank.ACE]
    assert promote("9", 3) is Rank.QUEEN and promote(Rank.JACK, 0) is Rank.JACK and promote(2, 40) is Rank.ACE


@pytest.mark.parametrize("promotion", [DEFAULT_PROMOTION, (3, 2, 0), (1, 1, 1), (4, 2, 1)])
def test_side_scores_are_the_gain_of_each_result_for_the_winners_and_its_opposite_for_the_losers(promotion):
    orders = [(0, 2, -1, -1), (1, 3, -1, -1), (0, 1, 2, 3), (1, 0, 2, 3), (2, 1, 3, 0), (3, 2, 0, 1)]
    for side in (0, 1):
        got = side_scores(np.array(orders, dtype=np.int8), side, promotion).tolist()
        expected = []
        for order in orders:
            result = DealResult(tuple(s for s in order if s >= 0))
            gain = promotion[result.partner_place - 2]
            expected.append(float(gain if result.winning_side == side else -gain))
        assert got == expected
    assert side_scores(np.zeros((0, 4), np.int8), 0).shape == (0,)
