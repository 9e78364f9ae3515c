"""Determinization: sample the hidden hands of the other seats from one seat's observation.

A seat knows its own hand, every card played so far, every seat's card count, and the
tribute and return cards (public, rules §6). Every deal consistent with that is sampled
with the same probability: the cards whose place is known are put there — a tribute card
in its receiver's hand and a return card in its payer's, as long as that seat has not
played a card of that face since — and the rest of the unseen cards are shuffled
(:class:`~guandan.core.rng.SplitMix64`) and dealt to fill each seat's count. Treating the 108
cards as distinct physical cards, this is exactly the posterior of a uniformly random deal
given the public information, when the choice of plays is taken to say nothing about the
hands (the usual determinization assumption; a player's inference from how others played,
or from a tribute card being its payer's highest, is left to the bot).

**Weighted** (``determinize(observation, seed, weighted=True)``): the deals are weighted by
what the play so far reveals, in the native core. A tribute payer's hand holds no card
above its tribute but a wild (a rule, not a guess: those cards are dealt to the other
seats). A seat that passed on an opponent's play while holding a combination of the same
type that beats it without a wild and without breaking a bomb is taken to be
``pass_weight`` times as likely as one that could not (a seat that passed on a pair is less
likely to hold a higher pair), and a seat that broke up four or more of a rank in a
non-bomb ``bomb_weight`` times as likely. ``tries`` consistent deals are drawn for each
sample and one is kept in proportion to its weight (sampling-importance-resampling: the
more tries, the closer to the weighted distribution). The seat's own events say nothing
it does not know.

**The sampled deal** (:func:`sampled_deal`): the deal behind an observation rebuilt with
sampled hands (each seat dealt its hand and the cards it has played since, the plays made
again), for a search to play its candidates and rollouts on; :func:`sampled_observation` is
a seat's view of it as the match would show it.

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

import numpy as np

from ..core.cards import NUM_FACES, Cards, card_name, card_rank, wild_card
from ..core.order import elevated_order
from ..core.packed import InfoSet, bits_of_cards, cards_of_bits, face_bit, move_bits, word_type
from ..core.rng import SplitMix64
from ..core.search import sample_deals
from ..errors import ArgumentError, InvalidCardsError, check_int, describe
from ..game.deal import Deal
from ..game.history import Phase, Play, Return, Tribute
from ..game.observation import Observation

__all__ = [
    "determinize",
    "sampled_deal",
    "sampled_observation",
    "sample_hands",
    "known_cards",
    "information_set",
    "tribute_above",
    "PASS_WEIGHT",
    "BOMB_WEIGHT",
    "TRIES",
]

#: The weighted sampler's defaults (see the module's description): a pass on an opponent's
#: play that the seat could have beaten cheaply, and a bomb broken up, each make a deal this
#: many times as likely; deals drawn for each sample kept.
PASS_WEIGHT = 0.5
BOMB_WEIGHT = 0.1
TRIES = 8

_EVENT_PLAY, _EVENT_PASS = 1, 2
_DECK = bits_of_cards(Cards.deck())


def known_cards(observation: Observation) -> dict[int, Cards]:
    """The cards other seats are known to hold: tribute cards their receivers got, return
    cards their payers got, less the cards of those faces each has played since."""
    me = observation.seat
    paid: dict[int, list[int]] = {}  # payer -> tribute cards
    received: dict[int, list[int]] = {s: [] for s in range(4)}
    history = observation.history
    for record in history.prefix:
        if isinstance(record, Tribute):
            paid.setdefault(record.seat, []).append(record.card)
        elif isinstance(record, Return):
            received[record.to].append(record.card)  # the payer gets the return card
            tribute = paid.pop(record.to, [])  # and the returner got the payer's tribute,
            if record.card in tribute:  # unless it gave that very face back (any card may be returned)
                tribute.remove(record.card)
            received[record.seat].extend(tribute)
    played = [0, 0, 0, 0]  # each seat's cards played, packed, read from the packed plays
    if any(received[s] for s in range(4) if s != me):
        for seat, lo, hi in history.packed_plays:
            if word_type(hi):  # not a pass
                played[seat] += move_bits(lo, hi)
    known: dict[int, Cards] = {}
    for seat in range(4):
        if seat == me:
            continue
        counts = [0] * NUM_FACES
        for card in received[seat]:
            counts[card] += 1
        if played[seat]:
            spent = cards_of_bits(played[seat])
            for card in set(received[seat]):
                counts[card] = max(0, counts[card] - spent.count(card))
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


def tribute_above(card: int, level: int) -> int:
    """The faces a tribute payer cannot hold after paying ``card`` at a level: those above it
    in the elevated order, but the wild (a packed set, 2 bits a face).

    >>> tribute_above(52, 2) == 1 << (2 * 53)  # after a small joker: the big jokers
    True
    """
    order = elevated_order(card_rank(card), level)
    wild = wild_card(level)
    bits = 0
    for face in range(NUM_FACES):
        if face != wild and elevated_order(card_rank(face), level) > order:
            bits |= face_bit(face)
    return bits


def information_set(observation: Observation) -> InfoSet:
    """What a seat knows, in the native core's form, an :class:`~guandan.core.packed.InfoSet`
    ``(seat, level, hand, pool, known, forbid, need, events)`` — its packed hand; the packed
    cards whose place it does not know
    (the deck less its hand, the cards played, the cards known to be held and the tribute
    cards still on the table); for each seat the packed cards it is known to hold (see
    :func:`known_cards`) and the faces it cannot hold (a tribute payer's cards above its
    tribute, but a wild); how many unknown cards each other seat holds; and the plays and
    passes as a ``uint64 (E, 3)`` array (``kind | seat << 8 | other << 16``, kind 1 a play,
    2 a pass on ``other``'s play; then the play's two words). Input of
    :func:`guandan.core.search.sample_deals` and of the search bot.

    >>> from guandan import Deal
    >>> deal = Deal.new(seed=3, level=2, leader=0)
    >>> _ = deal.play(deal.legal_moves()[0]); _ = deal.play(deal.legal_moves()[-1])
    >>> seat, level, hand, pool, known, forbid, need, events = information_set(deal.observation(2))
    >>> seat, level, need, events[:, 0].tolist()
    (2, 2, (26, 27, 0, 27), [1, 258])
    """
    if not isinstance(observation, Observation):
        raise InvalidCardsError(f"an information set is taken from an Observation, got {describe(observation)}")
    me = observation.seat
    level = int(observation.level)
    seen = 0
    forbid = [0, 0, 0, 0]
    rows: list[tuple[int, int, int]] = []
    last: tuple[int, int, int] | None = None
    history = observation.history
    for record in history.prefix:
        if isinstance(record, Tribute):
            if observation.phase == Phase.TRIBUTE:  # paid, on the table until the tribute is settled
                seen += face_bit(record.card)
            if record.seat != me:
                forbid[record.seat] |= tribute_above(record.card, level)
    for seat, lo, hi in history.packed_plays:  # the plays as the deal keeps them: none decoded
        if not word_type(hi):  # a pass
            if last is not None:
                rows.append((_EVENT_PASS | seat << 8 | last[0] << 16, last[1], last[2]))
            continue
        seen += move_bits(lo, hi)
        last = (seat, lo, hi)
        rows.append((_EVENT_PLAY | seat << 8, lo, hi))
    known = known_cards(observation)
    known_bits = [0 if s == me else bits_of_cards(known[s]) for s in range(4)]
    pool = _DECK - observation.packed_hand - seen - sum(known_bits)
    need = tuple(0 if s == me else observation.card_counts[s] - len(known[s]) for s in range(4))
    events = np.array(rows, dtype=np.uint64).reshape(-1, 3)
    return InfoSet(me, level, observation.packed_hand, pool, tuple(known_bits), tuple(forbid), need, events)


def determinize(
    observation: Observation,
    seed: int | SplitMix64 = 0,
    *,
    weighted: bool = False,
    tries: int = TRIES,
    pass_weight: float = PASS_WEIGHT,
    bomb_weight: float = BOMB_WEIGHT,
) -> tuple[Cards, Cards, Cards, Cards]:
    """Sample the four hands of the deal behind an observation (the observer's own hand
    as it is), uniformly among the deals consistent with what the observer has seen; with
    ``weighted``, weighted by what the play so far reveals (the module's description).

    >>> from guandan import Deal
    >>> deal = Deal.new(seed=3, level=2, leader=0)
    >>> hands = determinize(deal.observation(1), seed=5, weighted=True)
    >>> hands[1] == deal.hands[1], [len(h) for h in hands]
    (True, [27, 27, 27, 27])
    """
    if not isinstance(observation, Observation):
        raise InvalidCardsError(f"determinize takes an Observation, got {describe(observation)}")
    if weighted:
        or_int = "an int or a SplitMix64"
        native_seed = seed.next_u64() if isinstance(seed, SplitMix64) else check_int("a seed", seed, expected=or_int)
        (packed,) = sample_deals(information_set(observation), 1, native_seed, tries, pass_weight, bomb_weight)
        a, b, c, d = (cards_of_bits(h) for h in packed)
        return a, b, c, d
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


def sampled_deal(observation: Observation, hands: Sequence[Cards], *, replay: bool = True) -> Deal:
    """The deal behind ``observation`` as it would be if the four seats held ``hands`` now (a
    sample of :func:`determinize`, or the true hands): each seat dealt its hand and every
    card it has played since, under the observation's level and ruleset, the first play's
    seat leading (the seat to play when nothing has been played), the seats out before the
    play (a position set up mid-deal) out again, and every play and pass of the observation
    made again. A search plays its candidates and rollouts on it. Its history holds the plays
    only; :func:`sampled_observation` is a seat's view of it with the observation's tribute
    records and match levels, as a match would show it. Hands that do not fit the
    observation raise :class:`~guandan.errors.InvalidCardsError` naming the problem: a
    seat's count, the seat's own hand, a face held and played more than twice (with the
    seats that hold or played it). With ``replay`` false the deal is left at the start of
    play, before any of the plays (for a caller that makes them again itself).

    >>> from guandan import Match
    >>> from guandan.bots.agents import GreedyAgent
    >>> match, greedy = Match(seed=3), GreedyAgent()
    >>> for _ in range(9):
    ...     _ = match.act(greedy.act(match.observation(match.turn)))
    >>> world = sampled_deal(match.observation(match.turn), match.hands)
    >>> world.hands == match.hands, world.history == match.deal.history, world.turn == match.turn
    (True, True, True)
    >>> sampled = sampled_deal(match.observation(1), determinize(match.observation(1), seed=4))
    >>> sampled.hand(1) == match.hands[1], sampled.card_counts == match.card_counts
    (True, True)
    >>> sampled.to_beat == match.deal.to_beat, sampled.hands == match.hands  # the hidden cards drawn
    (True, False)
    """
    if not isinstance(observation, Observation):
        raise ArgumentError(f"a sampled deal is rebuilt from an Observation, got {describe(observation)}")
    if observation.phase != Phase.PLAY:
        raise ArgumentError(f"a sampled deal is rebuilt in the play; the observation is in {observation.phase.label}")
    if observation.turn is None:
        raise ArgumentError("a sampled deal is rebuilt with a seat to play; the observation has none")
    if not isinstance(replay, bool):
        raise ArgumentError(f"replay is true or false, got {describe(replay)}")
    four = isinstance(hands, Sequence) and not isinstance(hands, (str, bytes)) and len(hands) == 4
    if not four or not all(isinstance(h, Cards) for h in hands):
        raise InvalidCardsError(f"hands are four Cards, one a seat, got {describe(hands)}")
    for seat, hand in enumerate(hands):
        if len(hand) != observation.card_counts[seat]:
            counted = observation.card_counts[seat]
            raise InvalidCardsError(f"seat {seat} holds {len(hand)} cards in hands, {counted} in the observation")
    if hands[observation.seat] != observation.hand:
        raise InvalidCardsError(f"seat {observation.seat}'s hand is not the observation's own hand")
    plays = [record for record in observation.history if isinstance(record, Play)]
    dealt = [hand.numpy().astype(np.int64) for hand in hands]
    for record in plays:
        dealt[record.seat] += record.move.cards.numpy()
    total = np.sum(dealt, axis=0)
    if total.max() > 2:
        face = int(total.argmax())
        holders = " and ".join(str(seat) for seat in range(4) if dealt[seat][face])
        times = int(total[face])
        raise InvalidCardsError(f"{card_name(face)} is held or played {times} times (seats {holders}): the deck has 2")
    start = [Cards(counts) for counts in dealt]
    out_before = [seat for seat in observation.finish_order if not start[seat]]
    leader = plays[0].seat if plays else observation.turn
    deal = Deal(start, level=observation.level, leader=leader, finish_order=out_before, ruleset=observation.ruleset)
    if replay:
        for record in plays:
            deal.play(record.move, record.seat)
    return deal


def sampled_observation(deal: Deal, seat: int, observation: Observation) -> Observation:
    """What ``seat`` sees in ``deal``, a :func:`sampled_deal` of ``observation``: the deal's
    own observation with the observation's tribute and return records before the plays and
    its match levels and deal index, as the match would show it had the hands been
    ``deal``'s. (With the true hands it is the match's own observation, record for record.)
    A deal of another level or ruleset is refused.

    >>> from guandan import Match
    >>> from guandan.bots.agents import GreedyAgent
    >>> match, greedy = Match(seed=3), GreedyAgent()
    >>> while match.deal_index == 0 or match.phase != Phase.PLAY:
    ...     _ = match.act(greedy.act(match.observation(match.turn)))
    >>> root = match.observation(match.turn)
    >>> view = sampled_observation(sampled_deal(root, match.hands), 2, root)
    >>> seen = match.observation(2)
    >>> [getattr(view, f) == getattr(seen, f) for f in ("hand", "history", "card_counts", "levels", "deal_index")]
    [True, True, True, True, True]
    >>> [type(record).__name__ for record in view.history][:2]
    ['Tribute', 'Return']
    """
    if not isinstance(observation, Observation):
        raise ArgumentError(f"a sampled deal's view takes its Observation, got {describe(observation)}")
    if not isinstance(deal, Deal):
        raise ArgumentError(f"a sampled deal's view is of a Deal, got {describe(deal)}")
    if deal.level != observation.level or deal.ruleset != observation.ruleset:
        raise ArgumentError(
            f"the deal (level {deal.level.label}, {deal.ruleset.name}) is not a sampled deal of the observation "
            f"(level {observation.level.label}, {observation.ruleset.name})"
        )
    return deal.observation(seat, prefix=observation.history.prefix, levels=observation.levels,
                            level_side=observation.level_side, deal_index=observation.deal_index)  # fmt: skip
