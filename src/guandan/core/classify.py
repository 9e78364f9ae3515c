"""Classifying cards: every declaration an exact set of cards can be played as (rules §2, §3).

>>> for move in classify("S3 C4 D4 C5 D5 H2", level=2):
...     print(move)
pair_run 3: S3 C4 D4 C5 D5 H2 (H2 as 3)
>>> [str(m) for m in classify("S3 C3 S5 C5 H9", level=9)]
['full_house 3: S3 C3 S5 C5 H9 (H9 as 3)', 'full_house 5: S3 C3 S5 C5 H9 (H9 as 5)']
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import (
    BIG_JOKER,
    CARD_RANKS,
    NATURAL_RANKS,
    SMALL_JOKER,
    SUITS,
    Cards,
    CardsLike,
    Rank,
    Suit,
    as_cards,
    parse_level,
    wild_of,
)
from .moves import SEQUENCE_TYPES, Move, MoveType, window_keys, window_ranks, window_start

__all__ = ["classify"]


@dataclass(frozen=True)
class _Parts:
    """A card multiset split the way classification needs it."""

    naturals: dict[Rank, int]  # non-wild natural cards per rank
    suits: set[Suit]  # suits of the non-wild natural cards
    wilds: int
    small: int
    big: int
    size: int

    @classmethod
    def of(cls, cards: Cards, level: Rank) -> _Parts:
        wild = wild_of(level)
        naturals = {r: 0 for r in NATURAL_RANKS}
        suits: set[Suit] = set()
        for c in cards:
            if c in (SMALL_JOKER, BIG_JOKER) or c == wild:
                continue
            naturals[CARD_RANKS[c]] += 1
            suits.add(SUITS[c % 4])
        return cls(naturals, suits, cards.count(wild), cards.count(SMALL_JOKER), cards.count(BIG_JOKER), len(cards))

    def ranks_present(self) -> set[Rank]:
        return {r for r, n in self.naturals.items() if n}


def _group_rank(p: _Parts, level: Rank) -> Rank | None:
    """The rank of a set of cards that are all one rank (naturals plus wilds completing them);
    wilds alone are the level rank. None if the cards are not one rank or hold jokers."""
    if p.small or p.big:
        return None
    present = p.ranks_present()
    if not present:
        return level if p.wilds else None
    if len(present) == 1:
        return present.pop()
    return None


def classify(cards: CardsLike, level: int | str) -> list[Move]:
    """Every declaration the exact set of ``cards`` can be played as at ``level``.

    The list is empty when the cards form no combination, and holds several moves
    when wilds or a same-suit run allow several declarations. Moves come in
    ascending type and key order.

    >>> [str(m) for m in classify("S7 C7 D7 H3 H3", 3)]
    ['full_house 7: S7 C7 D7 H3 H3', 'bomb 7: S7 C7 D7 H3 H3 (H3 as 7, H3 as 7)']
    >>> classify("S7 C7 D7 SB H3", 3), classify("SQ CK DA S2 C3", 2)
    ([], [])
    """
    cards = as_cards(cards)
    lvl = parse_level(level)
    p = _Parts.of(cards, lvl)
    found: list[tuple[MoveType, Rank | None, Suit | None]] = []
    n = p.size

    # single, pair, triple, bomb: one rank, wilds completing it (rules §3)
    group = _group_rank(p, lvl)
    if n == 1:
        if group is not None:
            found.append((MoveType.SINGLE, group, None))
        elif p.small or p.big:
            found.append((MoveType.SINGLE, Rank.SMALL_JOKER if p.small else Rank.BIG_JOKER, None))
    elif n == 2 and (p.small == 2 or p.big == 2):
        found.append((MoveType.PAIR, Rank.SMALL_JOKER if p.small else Rank.BIG_JOKER, None))
    elif group is not None and n in (2, 3):
        found.append((MoveType.PAIR if n == 2 else MoveType.TRIPLE, group, None))
    if group is not None and 4 <= n <= 10:
        found.append((MoveType.BOMB, group, None))
    if n == 4 and p.small == 2 and p.big == 2:
        found.append((MoveType.JOKER_BOMB, None, None))

    if n == 5:
        found += [(MoveType.FULL_HOUSE, t, None) for t in _full_house_keys(p, lvl)]
    if not (p.small or p.big):
        for move_type in SEQUENCE_TYPES:
            length, width = SEQUENCE_TYPES[move_type]
            if n != length * width:
                continue
            if move_type == MoveType.STRAIGHT_FLUSH and len(p.suits) != 1:
                continue
            for key in window_keys(move_type):
                window = window_ranks(move_type, key)
                if p.ranks_present() <= set(window) and all(p.naturals[r] <= width for r in window):
                    # the wilds exactly fill what the naturals leave empty
                    suit = next(iter(p.suits)) if move_type == MoveType.STRAIGHT_FLUSH else None
                    found.append((move_type, key, suit))

    found.sort(key=lambda d: (d[0], window_start(d[1] or 0) if d[0] in SEQUENCE_TYPES else (d[1] or 0)))
    return [Move._trusted(t, key, suit, cards, lvl) for t, key, suit in found]


def _full_house_keys(p: _Parts, level: Rank) -> list[Rank]:
    """Triple ranks t for which the five cards split into a triple of t and a pair of another rank."""
    keys = []
    for t in NATURAL_RANKS:
        need_t = 3 - p.naturals[t]
        if need_t < 0 or need_t > p.wilds or (p.naturals[t] == 0 and t != level):
            continue
        wilds_left = p.wilds - need_t
        others = p.ranks_present() - {t}
        if p.small or p.big:
            # a joker pair takes no wild and nothing else may remain
            ok = not others and wilds_left == 0 and (p.small == 2 or p.big == 2)
        elif len(others) == 1:
            q = others.pop()
            ok = p.naturals[q] + wilds_left == 2
        elif not others:
            # the two wilds alone are the level pair, which must differ from the triple
            ok = wilds_left == 2 and t != level
        else:
            ok = False
        if ok:
            keys.append(t)
    return keys

