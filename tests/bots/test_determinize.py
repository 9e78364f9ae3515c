"""Determinization samples the hidden hands uniformly among the consistent deals.

The uniformity tests use cases small enough to list every consistent deal: almost the
whole deck has been seen, and the few unseen physical cards (two copies of a face are two
cards) are shared among the other seats. The exact probability of each outcome is the
share of the orderings of those physical cards that deal it; the sampler's frequencies are
compared with a chi-square test at a small significance level.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter

import numpy as np
import pytest
from games import second_deal_position
from refusals import check
from stats import chi_square_critical

from guandan import (
    ArgumentError,
    Cards,
    Deal,
    GreedyAgent,
    InvalidCardsError,
    Match,
    make_agents,
)
from guandan.bots.determinize import determinize, sample_hands, sampled_deal, sampled_observation
from guandan.core.cards import card_name
from guandan.core.packed import cards_of_bits
from guandan.core.rng import SplitMix64
from guandan.game.encoding import encode_rows, encode_state
from guandan.game.history import Phase, Play


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


# -- the sampled deal behind an observation --------------------------------------------------------


def same_view(a, b):
    """Two observations show the same: every field, the legal moves and the encoded views alike."""
    fields = ("seat", "phase", "level", "turn", "card_counts", "finish_order", "levels", "level_side",
              "deal_index", "ruleset", "hand", "to_beat", "history")  # fmt: skip
    assert [getattr(a, f) for f in fields] == [getattr(b, f) for f in fields]
    assert list(a.legal_actions) == list(b.legal_actions)
    np.testing.assert_array_equal(encode_state(a), encode_state(b))


@pytest.mark.parametrize("ruleset", ["competitive_2022", "huaian"])
def test_the_sampled_deal_of_the_true_hands_is_the_deal_every_seat_sees(ruleset):
    match = second_deal_position(5, 21, ruleset)
    root = match.observation(match.turn)
    assert any(not isinstance(r, Play) for r in root.history)  # tribute records before the play
    world = sampled_deal(root, match.hands)
    deal = match.deal
    assert (world.hands, world.turn, world.to_beat, world.level) == (deal.hands, deal.turn, deal.to_beat, deal.level)
    assert (world.history, world.finish_order, world.ruleset) == (deal.history, deal.finish_order, deal.ruleset)
    for seat in range(4):
        same_view(sampled_observation(world, seat, root), match.observation(seat))
    np.testing.assert_array_equal(encode_rows(sampled_observation(world, world.turn, root)), encode_rows(root))
    start = sampled_deal(root, match.hands, replay=False)  # the start of play: the plays made again by hand
    assert not start.history and start.turn == deal.history[0].seat
    for record in deal.history:
        start.play(record.move, record.seat)
    assert (start.hands, start.history, start.turn) == (deal.hands, deal.history, deal.turn)


def test_a_sampled_deal_keeps_what_the_seat_knows_and_draws_the_rest():
    match = second_deal_position(8, 30)
    root = match.observation(match.turn)
    plays = [(r.seat, r.move) for r in root.history if isinstance(r, Play)]
    for seed in range(3):
        hands = determinize(root, seed, weighted=True)
        world = sampled_deal(root, hands)
        assert world.hands == tuple(hands) and world.hand(root.seat) == root.hand
        assert world.card_counts == root.card_counts and world.turn == root.turn
        assert [(p.seat, p.move) for p in world.history] == plays
        assert world.hands != match.hands  # the hidden cards are drawn, not the true ones
        same_view(sampled_observation(world, root.seat, root), root)  # the seat's own view, as it was


def test_a_position_set_up_mid_deal_keeps_its_seats_out():
    deal = Deal(["S3 S4 C9", "", "S9 H9", "D5 D6"], level=2, leader=0, finish_order=(1,))
    deal.play(next(m for m in deal.legal_moves() if m.cards == Cards.parse("S3")))
    root = deal.observation(deal.turn)
    world = sampled_deal(root, deal.hands)
    assert (world.hands, world.finish_order, world.turn, world.history) == (deal.hands, (1,), deal.turn, deal.history)
    world.play(world.legal_moves()[0])  # it plays on as the deal would


@pytest.mark.slow
def test_every_sampled_deal_of_the_true_hands_is_the_match_deal():
    """Rebuilt from observations all through matches (tribute, returns, jiefeng, seats out)
    with the real hands, it is the match's deal and every seat's view the match's own."""
    checked = 0
    for seed in range(3):
        match = Match(seed)
        agents = make_agents("greedy,random", seed)
        while not match.is_over:
            seat = match.turn
            if match.phase == Phase.PLAY and match.deal.ply % 7 == 0:
                root = match.observation(seat)
                world = sampled_deal(root, match.hands)
                deal = match.deal
                assert (world.hands, world.turn, world.to_beat) == (deal.hands, deal.turn, deal.to_beat)
                assert (world.history, world.finish_order) == (deal.history, deal.finish_order)
                same_view(sampled_observation(world, (seat + 1) % 4, root), match.observation((seat + 1) % 4))
                checked += 1
            match.act(agents[seat].act(match.observation(seat)))
    assert checked > 100


def test_a_sampled_deal_before_any_play_leads_with_the_seat_to_play():
    match = second_deal_position(3, 0)
    root = match.observation(match.turn)
    assert not any(isinstance(r, Play) for r in root.history)
    for seed in range(2):
        world = sampled_deal(root, determinize(root, seed))
        assert world.turn == root.turn and world.to_beat is None and not world.history
        same_view(sampled_observation(world, root.seat, root), root)


@functools.cache
def _sampled_deal_refusals():
    match = second_deal_position(8, 12)
    root = match.observation(match.turn)
    hands = list(match.hands)
    played = next(r for r in root.history if isinstance(r, Play) and r.seat != root.seat and r.move.cards)
    other = played.seat
    short = hands.copy()
    short[other] = hands[other] - Cards.from_cards([next(iter(hands[other]))])
    mine = next(iter(hands[root.seat]))
    theirs = next(c for c in hands[other] if c != mine)
    swapped = hands.copy()  # one card exchanged: the counts right, the seat's own hand not
    swapped[root.seat] = hands[root.seat] - Cards.from_cards([mine]) + Cards.from_cards([theirs])
    swapped[other] = hands[other] - Cards.from_cards([theirs]) + Cards.from_cards([mine])
    face = next(iter(played.move.cards))
    twice = hands.copy()  # a face the seat played, twice more in its hand: three in the deal
    keep = [c for c in hands[other] if c != face][: len(hands[other]) - 2]
    twice[other] = Cards.from_cards(keep + [face, face])
    card = next(iter(hands[other]))
    third = next(s for s in range(4) if s not in (root.seat, other) and not hands[s].count(card))
    across = hands.copy()  # a card of one seat's hand also in another's: three in the deck
    across[third] = hands[third] - Cards.from_cards([next(iter(hands[third]))]) + Cards.from_cards([card])
    tribute = Match(seed=8)
    while tribute.phase != Phase.TRIBUTE:
        tribute.act(GreedyAgent().act(tribute.observation(tribute.turn)))
    over = Deal(["S3", "S9", "", "D6"], level=2, leader=0, finish_order=(2,))
    over.play(over.legal_moves()[0])  # seats 2 and 0 out: the deal is over
    world = sampled_deal(root, hands)
    elsewhere = Deal.new(seed=1, level=9)
    return {
        "not an observation": (lambda: sampled_deal(None, hands), ArgumentError, "Observation"),
        "tribute": (lambda: sampled_deal(tribute.observation(tribute.turn), tribute.hands), ArgumentError, "tribute"),
        "over": (lambda: sampled_deal(over.observation(0), over.hands), ArgumentError, "in the play"),
        "three hands": (lambda: sampled_deal(root, hands[:3]), InvalidCardsError, "four Cards"),
        "a string": (lambda: sampled_deal(root, "S3 S4"), InvalidCardsError, "four Cards"),
        "strings": (lambda: sampled_deal(root, [str(h) for h in hands]), InvalidCardsError, "four Cards"),
        "a count": (lambda: sampled_deal(root, short), InvalidCardsError, f"seat {other} holds"),
        "own hand": (lambda: sampled_deal(root, swapped), InvalidCardsError, "own hand"),
        "held and played": (lambda: sampled_deal(root, twice), InvalidCardsError,
                            rf"{card_name(face)} is held or played \d times \(seats [0-9 and]*{other}"),
        "two seats": (lambda: sampled_deal(root, across), InvalidCardsError,
                      rf"{card_name(card)} is held or played 3 times \(seats [0-9 and]*{third}"),
        "replay": (lambda: sampled_deal(root, hands, replay="no"), ArgumentError, "replay is true or false"),
        "no deal": (lambda: sampled_observation(None, 0, root), ArgumentError, "of a Deal"),
        "another deal": (lambda: sampled_observation(elsewhere, 0, root), ArgumentError, "level 9"),
        "no observation": (lambda: sampled_observation(world, 0, None), ArgumentError, "Observation"),
    }


REFUSALS = ["not an observation", "tribute", "over", "three hands", "a string", "strings", "a count", "own hand",
            "held and played", "two seats", "replay", "no deal", "another deal", "no observation"]  # fmt: skip


@pytest.mark.parametrize("case", REFUSALS)
def test_a_sampled_deal_refuses_what_does_not_fit_by_name(case):
    cases = _sampled_deal_refusals()
    assert sorted(cases) == sorted(REFUSALS)  # every case is run
    call, error, match = cases[case]
    check(call, error, match)


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
