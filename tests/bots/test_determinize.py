"""Determinization samples the hidden hands uniformly among the consistent deals.

The uniformity tests use cases small enough to list every consistent deal: almost the
whole deck has been seen, and the few unseen physical cards (two copies of a face are two
cards) are shared among the other seats. The exact probability of each outcome is the
share of the orderings of those physical cards that deal it; the sampler's frequencies are
compared with a chi-square test at a small significance level.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from refusals import check
from stats import chi_square_critical

from guandan import (
    Cards,
    Deal,
    InvalidCardsError,
)
from guandan.bots.determinize import determinize, sample_hands
from guandan.core.rng import SplitMix64


def exact_distribution(seat, hand, counts, seen, known):
    """Every consistent deal of the unseen physical cards, with its probability."""
    pool = Cards.deck() - hand - seen
    for cards in known.values():
        pool = pool - cards
    cards = list(pool)
    need = [0 if s == seat else counts[s] - len(known.get(s, Cards())) for s in range(4)]
    outcomes: Counter = Counter()
    for order in itertools.permutations(range(len(cards))):
        start, deal = 0, []
        for s in range(4):
            if s == seat:
                deal.append(hand)
                continue
            deal.append(Cards.from_cards(cards[i] for i in order[start : start + need[s]]) + known.get(s, Cards()))
            start += need[s]
        outcomes[tuple(deal)] += 1
    total = sum(outcomes.values())
    return {k: v / total for k, v in outcomes.items()}


def assert_uniform(seat, hand, counts, seen, known, samples=20_000):
    exact = exact_distribution(seat, hand, counts, seen, known)
    rng = SplitMix64(20261130)
    observed = Counter(sample_hands(seat, hand, counts, seen, known, rng) for _ in range(samples))
    assert set(observed) <= set(exact), "a sampled deal is not consistent"
    chi2 = sum((observed[k] - samples * p) ** 2 / (samples * p) for k, p in exact.items())
    df = len(exact) - 1
    assert chi2 < chi_square_critical(df), f"chi-square {chi2:.1f} with {df} degrees of freedom"
    return exact


def small_case(pool_text: str, hand_text: str):
    pool, hand = Cards.parse(pool_text), Cards.parse(hand_text)
    seen = Cards.deck() - pool - hand
    return hand, seen


@pytest.mark.slow
def test_distinct_unseen_cards_are_dealt_uniformly():
    hand, seen = small_case("S3 C4 D5 H6 S7 C8", "SA DA")
    exact = assert_uniform(0, hand, (2, 2, 2, 2), seen, {})
    assert len(exact) == 90  # 6! / (2! 2! 2!) equally likely deals
    assert max(exact.values()) == pytest.approx(min(exact.values()))


@pytest.mark.slow
def test_two_copies_of_a_face_count_as_two_cards():
    hand, seen = small_case("S3 S3 C4 C4 D5 H6", "SA")
    exact = assert_uniform(2, hand, (2, 2, 1, 2), seen, {})
    # six physical cards, two to seat 0: both S3 there is 1 of C(6,2) = 15 pairs; one S3 in
    # seat 0 (8 of 15) and the other among seat 1's two of the four left (1/2) is 4/15
    p_together = sum(p for deal, p in exact.items() if deal[0].count(4) == 2)
    p_split = sum(p for deal, p in exact.items() if deal[0].count(4) == 1 and deal[1].count(4) == 1)
    assert p_together == pytest.approx(1 / 15) and p_split == pytest.approx(4 / 15)


@pytest.mark.slow
def test_known_tribute_card_stays_with_its_receiver():
    hand, seen = small_case("S3 C4 D5 H6 S7 SB", "SA")
    known = {3: Cards.parse("SB")}
    exact = assert_uniform(0, hand, (1, 2, 2, 2), seen, known)
    assert all(deal[3].count(52) == 1 for deal in exact)


def test_inconsistent_information_raises():
    hand, seen = small_case("S3 C4", "SA")
    with pytest.raises(InvalidCardsError, match="no deal is consistent"):
        sample_hands(0, hand, (1, 2, 2, 2), seen)
    with pytest.raises(InvalidCardsError, match="count says"):
        sample_hands(0, hand, (2, 1, 1, 0), seen)


def test_determinize_an_observation_keeps_what_the_seat_knows():
    deal = Deal.new(seed=5, level=3, leader=0)
    for _ in range(9):
        deal.play(deal.legal_moves()[-1] if deal.to_beat else deal.legal_moves()[0])
    obs = deal.observation(2)
    played = Cards.from_cards(c for p in deal.history for c in p.move.cards)
    for seed in range(20):
        hands = determinize(obs, seed)
        assert hands[2] == deal.hands[2]
        assert tuple(len(h) for h in hands) == deal.card_counts
        assert sum(hands, start=Cards()) + played == Cards.deck()
    assert determinize(obs, 1) == determinize(obs, 1)
    assert determinize(obs, 1) != determinize(obs, 2)


# -- bad input -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: sample_hands(9, Cards(), [0, 0, 0, 0], Cards()), InvalidCardsError, "seat"),
        (lambda: sample_hands(0, Cards(), [0], Cards()), InvalidCardsError, "card counts"),
        (lambda: sample_hands(0, "S3", [1, 0, 0, 0], Cards()), InvalidCardsError, "Cards"),
        (
            lambda: sample_hands(0, Cards(), [0, 27, 27, 27], Cards(), {5: Cards()}),
            InvalidCardsError,
            "known",
        ),
        (lambda: sample_hands(0, Cards(), [0, 0, 0, 0], Cards()), InvalidCardsError, "no deal"),
        (lambda: determinize(None), InvalidCardsError, "Observation"),
    ],
)
def test_bad_sampling_arguments_raise(call, error, match):
    check(call, error, match)
