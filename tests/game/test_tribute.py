"""``guandan.game.tribute``: who pays tribute, the cards allowed to be paid and returned."""

from __future__ import annotations

import itertools
import random

import pytest
from refusals import check

from guandan import (
    Cards,
    GuandanError,
    InvalidCardsError,
    Rank,
    card,
    card_rank,
    wild_card,
)
from guandan.core.order import elevated_order
from guandan.game import tribute
from guandan.game.scoring import DealResult
from guandan.game.tribute import (
    holds_both_big_jokers,
    resists,
    return_choices,
    settle_tributes,
    tribute_choices,
    tribute_payers,
)

# -- bad input -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: tribute.tribute_choices(b"", 2), InvalidCardsError, "count vector"),
        (lambda: tribute.tribute_choices(None, 2), InvalidCardsError, "count vector"),
        (lambda: tribute.return_choices(bytes(54), 2, "x"), GuandanError, "return rule"),
    ],
)
def test_bad_tribute_arguments_raise(call, error, match):
    check(call, error, match)


# -- who pays --------------------------------------------------------------------------------------


@pytest.mark.parametrize("order", list(itertools.permutations(range(4))))
def test_the_4th_place_pays_after_a_deal_played_out(order):
    result = DealResult(order)
    assert tribute_payers(result) == (order[3],)


@pytest.mark.parametrize("first", range(4))
def test_both_losers_pay_after_a_double_down_the_seat_after_the_winner_first(first):
    result = DealResult((first, first ^ 2))
    payers = tribute_payers(result)
    assert payers == ((first + 1) % 4, (first + 3) % 4)
    assert set(payers) == set(result.losers)


def test_payers_resist_when_they_hold_both_big_jokers_between_them():
    hands = [Cards.parse(h).counts for h in ("S3", "HR", "D4 HR", "HR HR S5")]
    assert resists((1, 2), hands) == (1, 2)  # one each: both resist
    assert resists((3,), hands) == (3,) and resists((1, 3), hands) == (1, 3)
    assert resists((1,), hands) == () and resists((0, 2), hands) == ()
    assert holds_both_big_jokers(hands[1], hands[2]) and not holds_both_big_jokers(hands[0], hands[1])


# -- the cards ---------------------------------------------------------------------------------------


def _hands(seed, n=300):
    rng = random.Random(seed)
    for _ in range(n):
        counts = bytearray(54)
        for face in rng.sample(range(54), rng.randint(1, 12)):
            counts[face] = rng.randint(1, 2)
        yield bytes(counts), rng.randint(2, 14)


def test_the_tribute_is_every_face_of_the_highest_rank_held_in_the_elevated_order_never_the_wild():
    for counts, level in _hands(1):
        wild = wild_card(level)
        held = [f for f in range(54) if counts[f] and f != wild]
        choices = tribute_choices(counts, level)
        if not held:
            assert choices == ()
            continue
        best = max(elevated_order(card_rank(f), level) for f in held)
        assert choices == tuple(f for f in held if elevated_order(card_rank(f), level) == best)


def test_the_return_is_a_low_card_of_2_to_10_not_of_the_level_rank_or_else_the_lowest_held():
    for counts, level in _hands(2):
        held = [f for f in range(54) if counts[f]]
        assert return_choices(counts, level, "any") == tuple(held)
        low = [f for f in held if f < 52 and card_rank(f) <= Rank.TEN and card_rank(f) != level]
        choices = return_choices(counts, level)
        if low:
            assert choices == tuple(low)
        else:
            lowest = min(elevated_order(card_rank(f), level) for f in held)
            assert choices and all(elevated_order(card_rank(f), level) == lowest for f in choices)
            assert set(choices) == {f for f in held if elevated_order(card_rank(f), level) == lowest}


# -- who receives, who leads ---------------------------------------------------------------------


def test_a_single_tribute_goes_to_the_winner_and_its_payer_leads():
    for order in itertools.permutations(range(4)):
        result = DealResult(order)
        assert settle_tributes([(order[3], 53)], result, Rank.TWO) == ([(order[3], order[0], 53)], order[3])


@pytest.mark.parametrize("tie", ["next", "previous"])
def test_in_a_double_tribute_the_higher_card_goes_to_the_winner_whose_payer_leads(tie):
    level = Rank.FIVE
    result = DealResult((1, 3))
    a, b = tribute_payers(result)  # a plays next after the 1st place
    sa, s5, dk, sa2 = card(14, 0), card(5, 0), card(13, 3), card(14, 2)
    assert settle_tributes([(a, sa), (b, s5)], result, level, tie) == ([(b, 1, s5), (a, 3, sa)], b)  # 5 above A
    assert settle_tributes([(a, sa), (b, dk)], result, level, tie) == ([(a, 1, sa), (b, 3, dk)], a)
    # equal ranks: the tie rule names the payer of the 1st place
    triples, leader = settle_tributes([(a, sa), (b, sa2)], result, level, tie)
    expected = a if tie == "next" else b
    assert leader == expected and triples[0] == (expected, 1, sa if expected == a else sa2)
    assert {t[1] for t in triples} == {1, 3}
