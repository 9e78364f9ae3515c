"""Determinization: sample the hidden hands of the other seats from one seat's observation.

A seat knows its own hand, every card played so far, every seat's card count, and the
tribute and return cards (public, SPEC §6). Every deal consistent with that is sampled
with the same probability: the cards whose place is known are put there — a tribute card
in its receiver's hand and a return card in its payer's, as long as that seat has not
played a card of that face since — and the rest of the unseen cards are shuffled
(:class:`~guandan.rng.SplitMix64`) and dealt to fill each seat's count. Treating the 108
cards as distinct physical cards, this is exactly the posterior of a uniformly random deal
given the public information, when the choice of plays is taken to say nothing about the
hands (the usual determinization assumption; a player's inference from how others played,
or from a tribute card being its payer's highest, is left to the bot).

>>> from guandan import Deal
>>> deal = Deal.new(seed=3, level=2, leader=0)
>>> _ = deal.play(deal.legal_moves()[0])
>>> hands = determinize(deal.observation(1), seed=11)
>>> hands[1] == deal.hands[1], [len(h) for h in hands] == list(deal.card_counts)
(True, True)
>>> sum(hands, start=Cards()) + Cards.from_cards(c for p in deal.history for c in p.move.cards) == Cards.deck()
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .cards import NUM_FACES, Cards
from .errors import InvalidCardsError, describe
from .history import Play, Return, Tribute
from .observation import Observation
from .rng import SplitMix64

__all__ = ["determinize", "sample_hands", "known_cards"]


def known_cards(observation: Observation) -> dict[int, Cards]:
    """The cards other seats are known to hold: tribute cards their receivers got, return
    cards their payers got, less the cards of those faces each has played since."""
    me = observation.seat
    paid: dict[int, list[int]] = {}  # payer -> tribute cards
    received: dict[int, list[int]] = {s: [] for s in range(4)}
    played: dict[int, list[int]] = {s: [] for s in range(4)}
    for record in observation.history:
        if isinstance(record, Tribute):
            paid.setdefault(record.seat, []).append(record.card)
        elif isinstance(record, Return):
            received[record.to].append(record.card)  # the payer gets the return card
            for card in paid.get(record.to, []):  # and the returner got the payer's tribute
                received[record.seat].append(card)
            paid.pop(record.to, None)
        elif isinstance(record, Play) and not record.is_pass:
            played[record.seat].extend(record.move.cards)
    known: dict[int, Cards] = {}
    for seat in range(4):
        if seat == me:
            continue
        counts = [0] * NUM_FACES
        for card in received[seat]:
            counts[card] += 1
        for card in played[seat]:
            counts[card] = max(0, counts[card] - 1)
        known[seat] = Cards(counts)
    return known


def sample_hands(
    seat: int,
    hand: Cards,
    card_counts: Sequence[int],
    seen: Cards,
    known: Mapping[int, Cards] | None = None,
    rng: SplitMix64 | None = None,
) -> tuple[Cards, Cards, Cards, Cards]:
    """Four hands: ``hand`` for ``seat``, and for the others their ``known`` cards plus a
    uniform share of the unseen cards (the deck less ``hand``, ``seen`` and the known
    cards) up to ``card_counts``. Raises if no deal is consistent."""
    rng = rng or SplitMix64(0)
    if isinstance(seat, bool) or seat not in (0, 1, 2, 3):
        raise InvalidCardsError(f"seat is 0..3, got {describe(seat)}")
    if len(card_counts) != 4 or not all(isinstance(n, int) and 0 <= n <= 27 for n in card_counts):
        raise InvalidCardsError(f"card counts are four ints 0..27, got {describe(card_counts)}")
    if not isinstance(hand, Cards) or not isinstance(seen, Cards):
        raise InvalidCardsError("hand and seen are Cards")
    known = dict(known or {})
    if not all(s in (0, 1, 2, 3) and s != seat and isinstance(c, Cards) for s, c in known.items()):
        raise InvalidCardsError(f"known maps other seats 0..3 to Cards, got {describe(known)}")
    if len(hand) != card_counts[seat]:
        raise InvalidCardsError(f"seat {seat} holds {len(hand)} cards but its count says {card_counts[seat]}")
    try:
        pool = Cards.deck() - hand - seen
        for cards in known.values():
            pool = pool - cards
    except InvalidCardsError as error:
        raise InvalidCardsError(f"no deal is consistent: {error}") from None
    unseen = list(pool)
    need = [0 if s == seat else card_counts[s] - len(known.get(s, Cards())) for s in range(4)]
    if any(n < 0 for n in need) or sum(need) != len(unseen):
        raise InvalidCardsError(f"no deal is consistent: {len(unseen)} unseen cards for counts {list(card_counts)}")
    rng.shuffle(unseen)
    hands: list[Cards] = []
    start = 0
    for s in range(4):
        if s == seat:
            hands.append(hand)
            continue
        hands.append(Cards.from_cards(unseen[start : start + need[s]]) + known.get(s, Cards()))
        start += need[s]
    return hands[0], hands[1], hands[2], hands[3]


def determinize(observation: Observation, seed: int | SplitMix64 = 0) -> tuple[Cards, Cards, Cards, Cards]:
    """Sample the four hands of the deal behind an observation (the observer's own hand
    as it is), uniformly among the deals consistent with what the observer has seen."""
    if not isinstance(observation, Observation):
        raise InvalidCardsError(f"determinize takes an Observation, got {describe(observation)}")
    rng = seed if isinstance(seed, SplitMix64) else SplitMix64(seed)
    seen_counts = [0] * NUM_FACES
    for record in observation.history:
        move: Any = getattr(record, "move", None)
        if move is not None:
            for card in move.cards:
                seen_counts[card] += 1
    return sample_hands(
        observation.seat,
        observation.hand,
        observation.card_counts,
        Cards(seen_counts),
        known_cards(observation),
        rng,
    )
