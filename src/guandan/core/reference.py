"""The reference move generator: pure Python, written to be read (rules §5).

This is the executable specification the native core is checked against, so it
is built from the rules directly and favours clarity over speed.

Every combination is a *template*: a declaration (type, key, suit) and the
*groups* of cards it is made of — a group is "``count`` cards of ``rank``"
(and of ``suit`` for a straight flush). A single, pair, triple or bomb is one
group; a full house is a triple group and a pair group; a straight is five
groups of one card, a pair run three groups of two, a triple run two groups of
three. A move fills each group with natural cards of that rank from the hand
and with wilds, under two rules (rules §3):

* wilds never fill a joker group;
* in a *set* group (single, pair, triple, bomb, either part of a full house) of a
  rank other than the level rank, wilds only complete a group that holds at
  least one natural card of that rank. (Wilds *are* level cards, so a group of
  the level rank may be all wilds: the lone wild single and the level pair.)
  In a *sequence* a wild may fill any card.

Every way to fill every template is a move; at card granularity the natural
cards are chosen as multisets of physical faces, at rank granularity only how
many of each rank. Responses are the moves that :func:`~guandan.core.order.beats`
the play, plus the pass.

>>> from guandan import Cards
>>> from guandan.core.reference import generate_moves
>>> for move in generate_moves(Cards.parse("S5 C5 H2"), level=2):
...     print(move)
single 2: H2
single 5: S5
single 5: C5
pair 5: S5 C5
pair 5: S5 H2 (H2 as 5)
pair 5: C5 H2 (H2 as 5)
triple 5: S5 C5 H2 (H2 as 5)
>>> for move in generate_moves("S5 C5 H2", level=2, granularity="rank"):
...     print(move)
single 2: +1 wild
single 5: 5
pair 5: 5 5
pair 5: 5 +1 wild
triple 5: 5 5 +1 wild
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from ..errors import GuandanError, InvalidMoveError
from .cards import (
    BIG_JOKER,
    NATURAL_RANKS,
    SMALL_JOKER,
    SUITS,
    Cards,
    CardsLike,
    Rank,
    Suit,
    as_cards,
    card,
    parse_level,
    wild_of,
)
from .moves import SEQUENCE_TYPES, AnyMove, Move, MoveType, RankMove, window_keys, window_ranks
from .order import beats

__all__ = ["generate_moves", "templates", "Granularity"]

Granularity = Literal["card", "rank"]


@dataclass(frozen=True)
class Group:
    """``count`` cards of ``rank`` (of ``suit`` if given); ``in_sequence`` lets wilds fill it entirely."""

    rank: Rank
    count: int
    suit: Suit | None = None
    in_sequence: bool = False


@dataclass(frozen=True)
class Template:
    """A declaration and the groups of cards it is made of."""

    type: MoveType
    key: Rank | None
    suit: Suit | None
    groups: tuple[Group, ...]


def templates() -> Iterator[Template]:
    """Every declaration of every combination type (independent of level and hand)."""
    jokers = (Rank.SMALL_JOKER, Rank.BIG_JOKER)
    for rank in NATURAL_RANKS + jokers:
        yield Template(MoveType.SINGLE, rank, None, (Group(rank, 1),))
    for rank in NATURAL_RANKS + jokers:
        yield Template(MoveType.PAIR, rank, None, (Group(rank, 2),))
    for rank in NATURAL_RANKS:
        yield Template(MoveType.TRIPLE, rank, None, (Group(rank, 3),))
    for triple in NATURAL_RANKS:
        for pair in NATURAL_RANKS + jokers:
            if pair != triple:
                yield Template(MoveType.FULL_HOUSE, triple, None, (Group(triple, 3), Group(pair, 2)))
    for move_type, (_, width) in SEQUENCE_TYPES.items():
        for key in window_keys(move_type):
            ranks = window_ranks(move_type, key)
            suits: tuple[Suit | None, ...] = SUITS if move_type == MoveType.STRAIGHT_FLUSH else (None,)
            for suit in suits:
                groups = tuple(Group(r, width, suit, in_sequence=True) for r in ranks)
                yield Template(move_type, key, suit, groups)
    for rank in NATURAL_RANKS:
        for size in range(4, 11):
            yield Template(MoveType.BOMB, rank, None, (Group(rank, size),))
    yield Template(MoveType.JOKER_BOMB, None, None, (Group(Rank.SMALL_JOKER, 2), Group(Rank.BIG_JOKER, 2)))


class _Hand:
    """A hand seen by the generator: natural (non-wild) cards per rank and suit, and the wilds."""

    def __init__(self, cards: Cards, level: Rank) -> None:
        self.level = level
        self.wild = wild_of(level)
        self.wilds = cards.count(self.wild)
        self.copies: dict[Rank, dict[Suit, int]] = {
            r: {s: cards.count(card(r, s)) for s in SUITS if card(r, s) != self.wild} for r in NATURAL_RANKS
        }
        self.jokers = {Rank.SMALL_JOKER: cards.count(SMALL_JOKER), Rank.BIG_JOKER: cards.count(BIG_JOKER)}

    def naturals(self, group: Group) -> int:
        """How many natural cards the hand could put in this group."""
        if group.rank in self.jokers:
            return self.jokers[group.rank]
        copies = self.copies[group.rank]
        return copies.get(group.suit, 0) if group.suit is not None else sum(copies.values())

    def wild_choices(self, group: Group) -> range:
        """How many wilds may go into this group (before counting what other groups use)."""
        if group.rank in self.jokers:
            return range(0, 1)
        most = min(group.count, self.wilds)
        if not group.in_sequence and group.rank != self.level:
            most = min(most, group.count - 1)  # at least one natural card of the rank
        return range(0, most + 1)

    def natural_choices(self, group: Group, n: int) -> Iterator[tuple[int, ...]]:
        """Every multiset of ``n`` natural cards for the group, as card indices."""
        if group.rank in self.jokers:
            if self.jokers[group.rank] >= n:
                yield (SMALL_JOKER if group.rank == Rank.SMALL_JOKER else BIG_JOKER,) * n
            return
        copies = self.copies[group.rank]
        suits = [s for s in copies if group.suit is None or s == group.suit]
        for taken in itertools.product(*(range(copies[s], -1, -1) for s in suits)):
            if sum(taken) == n:
                yield tuple(card(group.rank, s) for s, k in zip(suits, taken) for _ in range(k))


def _fills(hand: _Hand, template: Template) -> Iterator[tuple[int, ...]]:
    """Every wild count per group (a tuple) that the hand can fill the template with."""
    options = []
    for group in template.groups:
        room = hand.naturals(group)
        options.append([w for w in hand.wild_choices(group) if group.count - w <= room])
    for wilds in itertools.product(*options):
        if sum(wilds) <= hand.wilds:
            yield wilds


def _card_moves(hand: _Hand, template: Template) -> Iterator[Move]:
    for wilds in _fills(hand, template):
        per_group = [hand.natural_choices(g, g.count - w) for g, w in zip(template.groups, wilds)]
        for naturals in itertools.product(*per_group):
            cards = [c for chosen in naturals for c in chosen] + [hand.wild] * sum(wilds)
            yield Move._trusted(template.type, template.key, template.suit, Cards.from_cards(cards), hand.level)


def _rank_moves(hand: _Hand, template: Template) -> Iterator[RankMove]:
    for wilds in _fills(hand, template):
        ranks = [0] * 15
        for group, w in zip(template.groups, wilds):
            ranks[group.rank - 2] += group.count - w
        yield RankMove._trusted(template.type, template.key, template.suit, tuple(ranks), sum(wilds), hand.level)


def generate_moves(
    hand: CardsLike,
    level: int | str,
    beat: AnyMove | None = None,
    granularity: Granularity = "card",
) -> list[AnyMove]:
    """Every legal move of a position, in template order, the pass last when responding.

    ``hand`` is any multiset of cards, ``level`` the deal's level rank, ``beat`` the
    play to beat (``None`` to lead), ``granularity`` ``"card"`` (:class:`Move`) or
    ``"rank"`` (:class:`RankMove`).

    >>> from guandan import classify
    >>> play = classify("S9 C9", 2)[0]
    >>> [str(m) for m in generate_moves("SK CK DK H2", 2, beat=play, granularity="rank")]
    ['pair K: K K', 'pair K: K +1 wild', 'bomb K: K K K +1 wild', 'pass']
    """
    cards = as_cards(hand)
    lvl = parse_level(level)
    if not isinstance(granularity, str) or granularity not in ("card", "rank"):
        raise GuandanError(f"granularity must be 'card' or 'rank', got {granularity!r}")
    if beat is not None and not isinstance(beat, Move | RankMove):
        raise InvalidMoveError(f"the play to beat must be a Move, a RankMove or None, got {beat!r:.80}")
    if beat is not None and beat.level != lvl:
        raise InvalidMoveError(f"the play to beat is at level {beat.level.label}, the position at {lvl.label}")
    if beat is not None and beat.type == MoveType.PASS:
        raise InvalidMoveError("a pass is not a play to beat (use beat=None to lead)")
    view = _Hand(cards, lvl)
    make = _card_moves if granularity == "card" else _rank_moves
    moves: list[AnyMove] = []
    for template in templates():
        for move in make(view, template):
            if beat is None or beats(move, beat):
                moves.append(move)
    if beat is not None:
        moves.append(Move.pass_(lvl) if granularity == "card" else RankMove.pass_(lvl))
    return moves
