"""Combinations, their keys and order, beating a play, and classifying cards (SPEC §2–§4).

A *move* is a declared combination: its type, its key (the rank that names it;
for a sequence the lowest rank of its window), for a straight flush its suit,
and the cards it spends. Two granularities (SPEC §5):

* :class:`Move` — card granularity: the physical cards spent.
* :class:`RankMove` — rank granularity: how many natural (non-wild) cards of
  each rank it spends, and how many wilds.

The meaning of each wild follows from the declaration and the cards, so a move
does not store it; :attr:`Move.declared` computes the declared faces.

>>> from guandan import Cards, classify
>>> for move in classify(Cards.parse("S3 C4 D4 C5 D5 H2"), level=2):
...     print(move)
pair_run 3: S3 C4 D4 C5 D5 H2 (H2 as 3)
>>> [str(m) for m in classify("S3 C3 S5 C5 H9", level=9)]
['full_house 3: S3 C3 S5 C5 H9 (H9 as 3)', 'full_house 5: S3 C3 S5 C5 H9 (H9 as 5)']
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

from .cards import (
    BIG_JOKER,
    NATURAL_RANKS,
    SMALL_JOKER,
    Cards,
    CardsLike,
    Rank,
    Suit,
    as_cards,
    card,
    card_name,
    card_rank,
    card_suit,
    parse_level,
    parse_rank,
    wild_card,
)
from .errors import InvalidCardsError, InvalidMoveError

__all__ = [
    "MoveType",
    "Move",
    "RankMove",
    "AnyMove",
    "BOMB_TYPES",
    "SEQUENCE_TYPES",
    "elevated_order",
    "window_ranks",
    "window_keys",
    "beats",
    "classify",
    "is_bomb",
]


class MoveType(enum.IntEnum):
    """The kinds of move: the ten combination types and the pass.

    >>> MoveType.PAIR_RUN.label, MoveType.parse("straight_flush")
    ('pair_run', <MoveType.STRAIGHT_FLUSH: 9>)
    """

    PASS = 0
    SINGLE = 1
    PAIR = 2
    TRIPLE = 3
    FULL_HOUSE = 4
    STRAIGHT = 5
    PAIR_RUN = 6
    TRIPLE_RUN = 7
    BOMB = 8
    STRAIGHT_FLUSH = 9
    JOKER_BOMB = 10

    @property
    def label(self) -> str:
        """The name used in code, CLI and JSON: ``single``, ``pair_run``, ``pass``, …"""
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> MoveType:
        """The type named ``text`` (``pair_run``, ``pair-run`` and ``PAIR_RUN`` all work)."""
        try:
            return cls[text.strip().upper().replace("-", "_")]
        except (KeyError, AttributeError):
            names = ", ".join(t.label for t in cls)
            raise InvalidMoveError(f"unknown move type {text!r} (one of {names})") from None


#: The types that beat any non-bomb.
BOMB_TYPES = frozenset({MoveType.BOMB, MoveType.STRAIGHT_FLUSH, MoveType.JOKER_BOMB})

#: Sequence types: (ranks in the window, cards per rank). Their ranks take their natural place.
SEQUENCE_TYPES: dict[MoveType, tuple[int, int]] = {
    MoveType.STRAIGHT: (5, 1),
    MoveType.STRAIGHT_FLUSH: (5, 1),
    MoveType.PAIR_RUN: (3, 2),
    MoveType.TRIPLE_RUN: (2, 3),
}

#: Sizes of the fixed-size types.
FIXED_SIZE: dict[MoveType, int] = {
    MoveType.PASS: 0,
    MoveType.SINGLE: 1,
    MoveType.PAIR: 2,
    MoveType.TRIPLE: 3,
    MoveType.FULL_HOUSE: 5,
    MoveType.STRAIGHT: 5,
    MoveType.PAIR_RUN: 6,
    MoveType.TRIPLE_RUN: 6,
    MoveType.STRAIGHT_FLUSH: 5,
    MoveType.JOKER_BOMB: 4,
}


# -- order ---------------------------------------------------------------------------------------


def elevated_order(rank: int, level: int) -> int:
    """The place of a rank in the elevated order of singles, pairs, triples, full houses
    and bombs at a level: 0 for the lowest, 12 for the level rank, 13 and 14 for the jokers.

    >>> [elevated_order(r, 7) for r in (Rank.TWO, Rank.SIX, Rank.EIGHT, Rank.ACE, Rank.SEVEN)]
    [0, 4, 5, 11, 12]
    """
    if isinstance(rank, bool) or not isinstance(rank, int) or not 2 <= rank <= 16:
        raise InvalidCardsError(f"a rank is 2..16 (15, 16: the jokers), got {rank!r}")
    if rank >= Rank.SMALL_JOKER:
        return rank - 2
    if rank == level:
        return 12
    return rank - 2 if rank < level else rank - 3


def _window_start(key: int) -> int:
    """Position of a window's lowest rank on the sequence line A(low)=0, 2=1, …, K=12, A(high)=13."""
    return 0 if key == Rank.ACE else key - 1


def _rank_at(position: int) -> Rank:
    return Rank.ACE if position in (0, 13) else Rank(position + 1)


def window_ranks(move_type: MoveType, key: int) -> tuple[Rank, ...]:
    """The ranks of a sequence's window, low to high (ace low in ``A`` windows).

    >>> window_ranks(MoveType.STRAIGHT, Rank.ACE)
    (<Rank.ACE: 14>, <Rank.TWO: 2>, <Rank.THREE: 3>, <Rank.FOUR: 4>, <Rank.FIVE: 5>)
    >>> window_ranks(MoveType.PAIR_RUN, Rank.QUEEN)
    (<Rank.QUEEN: 12>, <Rank.KING: 13>, <Rank.ACE: 14>)
    """
    length, _ = _sequence(move_type)
    if isinstance(key, bool) or not isinstance(key, int) or not 2 <= key <= 14:
        raise InvalidMoveError(f"a sequence's key is a natural rank 2..14, got {key!r}")
    start = _window_start(key)
    if not 0 <= start <= 14 - length:
        raise InvalidMoveError(f"no {move_type.label} starts at {Rank(key).label}")
    return tuple(_rank_at(p) for p in range(start, start + length))


def window_keys(move_type: MoveType) -> tuple[Rank, ...]:
    """Every key of a sequence type, lowest window first (10 straights, 12 pair runs, 13 triple runs).

    >>> [k.letter for k in window_keys(MoveType.STRAIGHT)]
    ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T']
    """
    length, _ = _sequence(move_type)
    return tuple(_rank_at(p) for p in range(0, 15 - length))


def _sequence(move_type: object) -> tuple[int, int]:
    shape = SEQUENCE_TYPES.get(move_type) if isinstance(move_type, MoveType) else None
    if shape is None:
        names = ", ".join(t.label for t in SEQUENCE_TYPES)
        raise InvalidMoveError(f"not a sequence type: {move_type!r} (one of {names})")
    return shape


def is_bomb(move_type: MoveType) -> bool:
    """Whether a type beats every non-bomb (bomb, straight flush, joker bomb)."""
    return move_type in BOMB_TYPES


class _Declared(Protocol):
    @property
    def type(self) -> MoveType: ...
    @property
    def key(self) -> Rank | None: ...
    @property
    def level(self) -> Rank: ...
    @property
    def size(self) -> int: ...


def _bomb_class(move: _Declared) -> int:
    """4 cards < 5 cards < straight flush < 6 < 7 < 8 < 9 < 10 cards < joker bomb."""
    if move.type == MoveType.JOKER_BOMB:
        return 8
    if move.type == MoveType.STRAIGHT_FLUSH:
        return 2
    return move.size - 4 if move.size <= 5 else move.size - 3


def _key_order(move: _Declared) -> int:
    assert move.key is not None
    if move.type in SEQUENCE_TYPES:
        return _window_start(move.key)
    return elevated_order(move.key, move.level)


def beats(move: _Declared, play: _Declared) -> bool:
    """Whether ``move`` beats ``play`` (SPEC §4); both at the same level, either granularity.

    Same type and size with a strictly higher key, or a bomb over a non-bomb, or a
    higher bomb. A pass beats nothing and is beaten by nothing (there is nothing to beat).

    >>> from guandan import classify
    >>> six_threes = classify("S3 S3 C3 C3 D3 D3", 2)[0]
    >>> flush = classify("S9 ST SJ SQ SK", 2)
    >>> [m.type.label for m in flush]
    ['straight', 'straight_flush']
    >>> beats(six_threes, flush[1]), beats(flush[1], six_threes)
    (True, False)
    """
    if not isinstance(move, (Move, RankMove)) or not isinstance(play, (Move, RankMove)):
        raise InvalidMoveError(f"beats compares two moves, got {move!r:.60} and {play!r:.60}")
    if move.level != play.level:
        raise InvalidMoveError(f"moves at different levels ({move.level.label} and {play.level.label})")
    if move.type == MoveType.PASS or play.type == MoveType.PASS:
        return False
    move_bomb, play_bomb = move.type in BOMB_TYPES, play.type in BOMB_TYPES
    if move_bomb != play_bomb:
        return move_bomb
    if move_bomb:
        a, b = _bomb_class(move), _bomb_class(play)
        if a != b:
            return a > b
        if move.type == MoveType.JOKER_BOMB:
            return False
        return _key_order(move) > _key_order(play)
    return move.type == play.type and move.size == play.size and _key_order(move) > _key_order(play)


# -- moves ---------------------------------------------------------------------------------------


def _key_letter(move_type: MoveType, key: Rank | None) -> str:
    if move_type == MoveType.JOKER_BOMB:
        return "JOKER"
    if key is None:
        return "PASS"
    return key.letter


def _check_declaration(move: Move | RankMove) -> None:
    """The declaration fields of a move are of their types (the cards are checked by
    :func:`classify`, :func:`~guandan.movegen.pack_move` and the deal, not here)."""
    if not (
        isinstance(move.type, MoveType)
        and (move.key is None or isinstance(move.key, Rank))
        and (move.suit is None or isinstance(move.suit, Suit))
        and isinstance(move.level, Rank)
        and not move.level.is_joker
    ):
        raise InvalidMoveError(
            f"a move is declared with a MoveType, a Rank key or None, a Suit or None and a level Rank 2..A, "
            f"got {move.type!r}, {move.key!r}, {move.suit!r}, {move.level!r}"
        )


@dataclass(frozen=True, slots=True)
class Move:
    """A move at card granularity: a declaration and the physical cards it spends.

    >>> from guandan import classify
    >>> move = classify("D9 DT DJ H2 H2", 2)[0]
    >>> move.type.label, move.key.label, move.suit, move.size
    ('straight', '7', None, 5)
    >>> " ".join(card_name(c) for c in move.declared)
    'H7 H8 D9 D10 DJ'
    >>> print(move.to_rank())
    straight 7: 9 10 J +2 wilds
    """

    type: MoveType
    key: Rank | None
    suit: Suit | None
    cards: Cards
    level: Rank

    def __post_init__(self) -> None:
        _check_declaration(self)
        if not isinstance(self.cards, Cards):
            raise InvalidMoveError(f"a move's cards are Cards, got {self.cards!r:.60}")

    @classmethod
    def pass_(cls, level: int) -> Move:
        """The pass at a level."""
        return cls(MoveType.PASS, None, None, Cards(), parse_level(level))

    @property
    def size(self) -> int:
        """How many cards the move spends."""
        return len(self.cards)

    @property
    def is_pass(self) -> bool:
        """Whether this is the pass."""
        return self.type == MoveType.PASS

    @property
    def is_bomb(self) -> bool:
        """Whether this beats every non-bomb."""
        return self.type in BOMB_TYPES

    @property
    def wilds(self) -> int:
        """How many wilds the move spends."""
        return self.cards.count(wild_card(self.level))

    @property
    def declared(self) -> tuple[int, ...]:
        """The declared faces, ascending: the cards with each wild replaced by what it stands for.

        Outside a straight flush a wild keeps its heart suit (only its rank is declared);
        in a straight flush it takes the flush's suit. A tuple, not :class:`Cards`: declared
        faces may repeat more than the deck's two copies (``H3 H3`` and a wild as a 3 declare
        three ``H3``; a ten-card bomb declares ten cards of one rank).

        >>> from guandan import classify
        >>> [card_name(c) for c in classify("H3 H3 H2", 2)[0].declared]
        ['H3', 'H3', 'H3']
        """
        return tuple(sorted(_declare(self)))

    def to_rank(self) -> RankMove:
        """The same move at rank granularity (suits of natural cards forgotten)."""
        wild = wild_card(self.level)
        ranks = [0] * 15
        for c in self.cards:
            if c != wild:
                ranks[card_rank(c) - 2] += 1
        return RankMove(self.type, self.key, self.suit, tuple(ranks), self.wilds, self.level)

    @property
    def key_letter(self) -> str:
        """The key as the AI-competition protocol writes it (``JOKER`` for the joker bomb, ``PASS``)."""
        return _key_letter(self.type, self.key)

    def __str__(self) -> str:
        return self.format("text")

    def format(self, style: str = "text") -> str:
        """``type key: cards (wilds as …)`` in the given card style (``text``, ``unicode``, ``code``)."""
        if self.type == MoveType.PASS:
            return "pass"
        head = self.type.label
        if self.type != MoveType.JOKER_BOMB:
            assert self.key is not None
            head += f" {self.key.label}"
            if self.suit is not None:
                head += f" {self.suit.symbol if style == 'unicode' else self.suit.letter}"
        wild = wild_card(self.level)
        # natural cards in order, then the wilds, then what the wilds stand for
        order = [c for c in self.cards if c != wild] + [wild] * self.cards.count(wild)
        text = f"{head}: " + " ".join(card_name(c, style) for c in order)  # type: ignore[arg-type]
        meaning = _wild_meanings(self, style)
        if meaning:
            name = card_name(wild, style)  # type: ignore[arg-type]
            text += " (" + ", ".join(f"{name} as {m}" for m in meaning) + ")"
        return text


@dataclass(frozen=True, slots=True)
class RankMove:
    """A move at rank granularity: a declaration, how many natural cards of each rank
    it spends (``ranks[rank - 2]``, jokers at 13 and 14), and how many wilds.

    >>> from guandan import classify
    >>> move = classify("S5 H2", 2)[0].to_rank()
    >>> print(move), move.ranks[Rank.FIVE - 2], move.wilds
    pair 5: 5 +1 wild
    (None, 1, 1)
    """

    type: MoveType
    key: Rank | None
    suit: Suit | None
    ranks: tuple[int, ...]
    wilds: int
    level: Rank

    def __post_init__(self) -> None:
        _check_declaration(self)
        ranks = self.ranks
        if type(ranks) is not tuple or len(ranks) != 15 or not all(type(n) is int and 0 <= n <= 8 for n in ranks):
            raise InvalidMoveError(f"a rank-level move's ranks are 15 ints 0..8, got {ranks!r:.80}")
        if type(self.wilds) is not int or not 0 <= self.wilds <= 2:
            raise InvalidMoveError(f"a move spends 0, 1 or 2 wilds, got {self.wilds!r}")

    @classmethod
    def pass_(cls, level: int) -> RankMove:
        """The pass at a level."""
        return cls(MoveType.PASS, None, None, (0,) * 15, 0, parse_level(level))

    @property
    def size(self) -> int:
        """How many cards the move spends."""
        return sum(self.ranks) + self.wilds

    @property
    def is_pass(self) -> bool:
        """Whether this is the pass."""
        return self.type == MoveType.PASS

    @property
    def is_bomb(self) -> bool:
        """Whether this beats every non-bomb."""
        return self.type in BOMB_TYPES

    @property
    def key_letter(self) -> str:
        """The key as the AI-competition protocol writes it (``JOKER`` for the joker bomb, ``PASS``)."""
        return _key_letter(self.type, self.key)

    def rank_counts(self) -> dict[Rank, int]:
        """The natural cards spent per rank, only ranks with a nonzero count, low to high."""
        return {Rank(i + 2): n for i, n in enumerate(self.ranks) if n}

    def __str__(self) -> str:
        if self.type == MoveType.PASS:
            return "pass"
        head = self.type.label
        if self.type != MoveType.JOKER_BOMB:
            assert self.key is not None
            head += f" {self.key.label}"
            if self.suit is not None:
                head += f" {self.suit.letter}"
        parts = [r.label for r, n in self.rank_counts().items() for _ in range(n)]
        if self.wilds:
            parts.append(f"+{self.wilds} wild" + ("s" if self.wilds > 1 else ""))
        return f"{head}: {' '.join(parts)}"


AnyMove = Move | RankMove


# -- what wilds stand for ------------------------------------------------------------------------


def _group_needs(move: Move) -> list[tuple[Rank, int]]:
    """The (rank, count) groups a declaration is made of, low rank first for sequences."""
    t, key = move.type, move.key
    if t in SEQUENCE_TYPES:
        assert key is not None
        _, width = SEQUENCE_TYPES[t]
        return [(r, width) for r in window_ranks(t, key)]
    if t == MoveType.FULL_HOUSE:
        assert key is not None
        wild = wild_card(move.level)
        pair = [card_rank(c) for c in move.cards if c != wild and card_rank(c) != key]
        return [(key, 3), (pair[0] if pair else move.level, 2)]
    if t in (MoveType.SINGLE, MoveType.PAIR, MoveType.TRIPLE, MoveType.BOMB):
        assert key is not None
        return [(key, move.size)]
    return []  # pass and joker bomb use no wilds


def _wild_faces(move: Move) -> list[int]:
    """The face each wild of the move stands for: the rank it completes, in the flush's
    suit for a straight flush and in its own heart suit otherwise."""
    wild = wild_card(move.level)
    n_wild = move.cards.count(wild)
    if n_wild == 0:
        return []
    have = move.cards.rank_counts()
    have[move.level] -= n_wild  # count natural cards only
    suit = move.suit if move.type == MoveType.STRAIGHT_FLUSH and move.suit is not None else Suit.HEARTS
    return [card(rank, suit) for rank, need in _group_needs(move) for _ in range(need - have[rank])]


def _wild_meanings(move: Move, style: str) -> list[str]:
    """``as 3`` notes for the wilds that stand for something other than themselves."""
    wild = wild_card(move.level)
    notes = []
    for face in _wild_faces(move):
        if face != wild:
            meaning = card_name(face, style) if move.type == MoveType.STRAIGHT_FLUSH else card_rank(face).label  # type: ignore[arg-type]
            notes.append(meaning)
    return notes


def _declare(move: Move) -> Iterator[int]:
    wild = wild_card(move.level)
    yield from (c for c in move.cards if c != wild)
    yield from _wild_faces(move)


# -- classify ------------------------------------------------------------------------------------


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
        wild = wild_card(level)
        naturals = {r: 0 for r in NATURAL_RANKS}
        suits: set[Suit] = set()
        for c in cards:
            if c in (SMALL_JOKER, BIG_JOKER) or c == wild:
                continue
            naturals[card_rank(c)] += 1
            s = card_suit(c)
            assert s is not None
            suits.add(s)
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

    # single, pair, triple, bomb: one rank, wilds completing it (SPEC §3)
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

    found.sort(key=lambda d: (d[0], _window_start(d[1] or 0) if d[0] in SEQUENCE_TYPES else (d[1] or 0)))
    return [Move(t, key, suit, cards, lvl) for t, key, suit in found]


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


def parse_declaration(text: str) -> tuple[MoveType, Rank | None]:
    """Parse ``TYPE`` or ``TYPE:KEY`` as given to ``--as`` (``full_house:5``, ``straight_flush:T``).

    >>> parse_declaration("full_house:5")
    (<MoveType.FULL_HOUSE: 4>, <Rank.FIVE: 5>)
    """
    if not isinstance(text, str):
        raise InvalidMoveError(f"a declaration is a string TYPE or TYPE:KEY, got {text!r}")
    name, _, key = text.partition(":")
    move_type = MoveType.parse(name)
    return move_type, (parse_rank(key) if key else None)

