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
    GreedyAgent,
    InvalidCardsError,
    Match,
)
from guandan.bots.determinize import determinize, sample_hands
from guandan.core.packed import cards_of_bits
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


def _decoded_information_set(observation):
    """The information set read from the decoded history, record by record (how
    ``information_set`` and ``known_cards`` read it before they took the packed plays)."""
    import numpy as np

    from guandan.bots.determinize import tribute_above
    from guandan.core.cards import NUM_FACES, Cards
    from guandan.core.movegen import pack_move
    from guandan.core.packed import bits_of_cards, face_bit, move_bits
    from guandan.game.history import Phase, Play, Return, Tribute

    me, level = observation.seat, int(observation.level)
    paid, received, played = {}, {s: [] for s in range(4)}, {s: [] for s in range(4)}
    seen, forbid, rows, last = 0, [0, 0, 0, 0], [], None
    for record in observation.history:
        if isinstance(record, Tribute):
            paid.setdefault(record.seat, []).append(record.card)
            if observation.phase == Phase.TRIBUTE:
                seen += face_bit(record.card)
            if record.seat != me:
                forbid[record.seat] |= tribute_above(record.card, level)
        elif isinstance(record, Return):
            received[record.to].append(record.card)
            tribute = paid.pop(record.to, [])
            if record.card in tribute:
                tribute.remove(record.card)
            received[record.seat].extend(tribute)
        elif isinstance(record, Play):
            if record.is_pass:
                if last is not None:
                    rows.append((2 | record.seat << 8 | last[0] << 16, last[1], last[2]))
                continue
            played[record.seat].extend(record.move.cards)
            lo, hi = pack_move(record.move)
            seen += move_bits(lo, hi)
            last = (record.seat, lo, hi)
            rows.append((1 | record.seat << 8, lo, hi))
    known = {}
    for seat in range(4):
        counts = [0] * NUM_FACES
        for card in received[seat]:
            counts[card] += 1
        for card in played[seat]:
            counts[card] = max(0, counts[card] - 1)
        known[seat] = Cards(counts)
    known_bits = [0 if s == me else bits_of_cards(known[s]) for s in range(4)]
    pool = bits_of_cards(Cards.deck()) - observation.packed_hand - seen - sum(known_bits)
    need = tuple(0 if s == me else observation.card_counts[s] - len(known[s]) for s in range(4))
    return (me, level, observation.packed_hand, pool, tuple(known_bits), tuple(forbid), need,
            np.array(rows, dtype=np.uint64).reshape(-1, 3).tolist())  # fmt: skip


@pytest.mark.slow
def test_the_information_set_read_from_the_packed_plays_is_the_decoded_historys():
    """Every seat's view at every step of a seeded match's first deals (tribute and return
    included, with cards known to be held and played again since)."""
    from guandan.bots.determinize import information_set, known_cards
    from guandan.bots.loop import play_out

    match = Match(seed=21)
    checked = tributes = 0
    while not match.is_over and match.deal_index < 4:
        for seat in range(4):
            obs = match.observation(seat)
            *head, events = information_set(obs)
            expected = _decoded_information_set(obs)
            assert (*head, events.tolist()) == expected
            assert all(known_cards(obs)[s] == cards_of_bits(expected[4][s]) for s in range(4) if s != seat)
            tributes += any(expected[4])
            checked += 1
        play_out(match, [GreedyAgent()] * 4, max_actions=1)
    assert checked > 400 and tributes > 0
