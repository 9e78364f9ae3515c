"""Moves: the combination types, the sequences' windows, and the two move values (rules §3, §5).

A *move* is a declared combination: its type, its key (the rank that names it;
for a sequence the lowest rank of its window), for a straight flush its suit,
and the cards it spends. Two granularities (rules §5):

* :class:`Move` — card granularity: the physical cards spent.
* :class:`RankMove` — rank granularity: how many natural (non-wild) cards of
  each rank it spends, and how many wilds.

The meaning of each wild follows from the declaration and the cards, so a move
does not store it; :attr:`Move.declared` computes the declared faces. A move is valid
when it exists: its constructor checks that the cards make the declaration (see
:mod:`guandan.core.classify` for every declaration a set of cards can make, and
:mod:`guandan.core.order` for which move beats which).

>>> from guandan import classify
>>> move = classify("S3 C4 D4 C5 D5 H2", level=2)[0]
>>> move.type.label, move.key.label, move.size, [card_name(c) for c in move.declared]
('pair_run', '3', 6, ['S3', 'H3', 'C4', 'D4', 'C5', 'D5'])
>>> print(move.to_rank())
pair_run 3: 3 4 4 5 5 +1 wild
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from ..errors import InvalidCardsError, InvalidMoveError
from . import packed
from .cards import (
    CARD_RANKS,
    RANKS,
    SUITS,
    Cards,
    Rank,
    Suit,
    as_cards,
    card_name,
    integer,
    parse_level,
    parse_rank,
    wild_of,
)

__all__ = [
    "MoveType",
    "Move",
    "RankMove",
    "AnyMove",
    "BOMB_TYPES",
    "SEQUENCE_TYPES",
    "FIXED_SIZE",
    "window_ranks",
    "window_keys",
    "window_start",
    "is_bomb",
    "parse_declaration",
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
    def parse(cls, value: int | str) -> MoveType:
        """The type named ``value`` (``pair_run``, ``pair-run`` and ``PAIR_RUN`` all work),
        or numbered ``value`` (an int 0..10, a Python or numpy int).

        >>> MoveType.parse("pair-run"), MoveType.parse(10)
        (<MoveType.PAIR_RUN: 6>, <MoveType.JOKER_BOMB: 10>)
        """
        if type(value) is cls:
            return value
        if isinstance(value, str):
            found = cls.__members__.get(value.strip().upper().replace("-", "_"))
            if found is not None:
                return found
        else:
            n = integer(value)
            if n is not None and 0 <= n <= 10:
                return cls(n)
        names = ", ".join(t.label for t in cls)
        raise InvalidMoveError(f"unknown move type {value!r} (one of {names}, or its number 0..10)")


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


def window_start(key: int) -> int:
    """The position of a window's lowest rank (its key) on the sequence line: the low ace 0,
    2 at 1, …, K at 12 (the high ace is 13): the order in which windows compare.

    >>> window_start(Rank.ACE), window_start(Rank.TEN)
    (0, 9)
    """
    return 0 if key == Rank.ACE else key - 1


def _rank_at(position: int) -> Rank:
    return Rank.ACE if position in (0, 13) else Rank(position + 1)


def window_ranks(move_type: MoveType | int | str, key: int | str) -> tuple[Rank, ...]:
    """The ranks of a sequence's window, low to high (ace low in ``A`` windows).

    >>> window_ranks(MoveType.STRAIGHT, Rank.ACE)
    (<Rank.ACE: 14>, <Rank.TWO: 2>, <Rank.THREE: 3>, <Rank.FOUR: 4>, <Rank.FIVE: 5>)
    >>> window_ranks(MoveType.PAIR_RUN, Rank.QUEEN)
    (<Rank.QUEEN: 12>, <Rank.KING: 13>, <Rank.ACE: 14>)
    """
    move_type = MoveType.parse(move_type)
    _sequence(move_type)
    try:
        rank = parse_rank(key)
    except InvalidCardsError:
        rank = None
    if rank is None or rank.is_joker:
        raise InvalidMoveError(f"a sequence's key is a natural rank 2..14, got {key!r}")
    window = _WINDOWS.get((move_type, rank))
    if window is None:
        raise InvalidMoveError(f"no {move_type.label} starts at {rank.label}")
    return window


def window_keys(move_type: MoveType | int | str) -> tuple[Rank, ...]:
    """Every key of a sequence type, lowest window first (10 straights, 12 pair runs, 13 triple runs).

    >>> [k.letter for k in window_keys(MoveType.STRAIGHT)]
    ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T']
    """
    move_type = MoveType.parse(move_type)
    _sequence(move_type)
    return _KEYS_OF[move_type]


#: Each sequence type's keys, lowest window first, and each window's ranks (for parsed values).
_KEYS_OF: dict[MoveType, tuple[Rank, ...]] = {
    t: tuple(_rank_at(p) for p in range(0, 15 - length)) for t, (length, _) in SEQUENCE_TYPES.items()
}
_WINDOWS: dict[tuple[MoveType, Rank], tuple[Rank, ...]] = {
    (t, key): tuple(_rank_at(p) for p in range(window_start(key), window_start(key) + SEQUENCE_TYPES[t][0]))
    for t, keys in _KEYS_OF.items()
    for key in keys
}


def _sequence(move_type: object) -> tuple[int, int]:
    shape = SEQUENCE_TYPES.get(move_type) if isinstance(move_type, MoveType) else None
    if shape is None:
        names = ", ".join(t.label for t in SEQUENCE_TYPES)
        raise InvalidMoveError(f"not a sequence type: {move_type!r} (one of {names})")
    return shape


def is_bomb(move_type: MoveType | int | str) -> bool:
    """Whether a type beats every non-bomb (bomb, straight flush, joker bomb).

    >>> is_bomb(MoveType.STRAIGHT_FLUSH), is_bomb("straight")
    (True, False)
    """
    return MoveType.parse(move_type) in BOMB_TYPES


def _key_letter(move_type: MoveType, key: Rank | None) -> str:
    if move_type == MoveType.JOKER_BOMB:
        return "JOKER"
    if key is None:
        return "PASS"
    return key.letter


# -- checking what a move is made of ---------------------------------------------------------------
#
# A Move or RankMove is valid when it exists: the constructor parses each field once (ints and
# names are accepted and turned into MoveType / Rank / Suit) and checks that the declaration is
# one the cards (or the counts and wilds) make, through the one check of guandan.core.packed. Moves
# the engine makes itself (classify, the reference generator, words the core wrote) are built
# with the private _trusted constructors, without the check.

_set = object.__setattr__
_NO_CARDS = Cards()


def _parse_fields(
    move_type: object, key: object, suit: object, level: object
) -> tuple[MoveType, Rank | None, Suit | None, Rank]:
    """The declaration fields of a move, parsed: the type (a MoveType, its number or name),
    the key (a Rank, an int 2..16 or a rank name, or None), the suit (a Suit or an int 0..3,
    or None) and the level (a rank 2..A)."""
    t = move_type if type(move_type) is MoveType else MoveType.parse(move_type)  # type: ignore[arg-type]
    k = key if key is None or type(key) is Rank else _parse_field(parse_rank, key, "key")
    s: Suit | None
    if suit is None or type(suit) is Suit:
        s = suit
    else:
        n = integer(suit)
        if n is None or not 0 <= n <= 3:
            raise InvalidMoveError(f"a move's suit is a Suit, an int 0..3 or None, got {suit!r}")
        s = SUITS[n]
    lvl = level if type(level) is Rank and level <= Rank.ACE else _parse_field(parse_level, level, "level")
    return t, k, s, lvl


def _parse_field(parse: Callable[[Any], Rank], value: object, what: str) -> Rank:
    try:
        return parse(value)
    except InvalidCardsError as error:
        raise InvalidMoveError(f"a move's {what}: {error}") from None


def _declaration_text(move_type: MoveType, key: Rank | None, suit: Suit | None) -> str:
    text = move_type.label if key is None else f"{move_type.label}:{key.label}"
    return text if suit is None else f"{text} {suit.letter}"


def _check_shape(move_type: MoveType, key: Rank | None, suit: Suit | None, spent: str) -> None:
    """What the declaration alone decides: a pass has no key and no suit and spends nothing
    (``spent``: the cards, as text); only a straight flush has a suit."""
    if move_type == MoveType.PASS:
        if key is not None or suit is not None or spent:
            raise InvalidMoveError(
                f"a pass has no key, no suit and spends no cards, got key {key!r}, suit {suit!r}, cards {spent!r}"
            )
    elif (suit is None) == (move_type == MoveType.STRAIGHT_FLUSH):
        raise InvalidMoveError(
            f"a straight flush is declared with its suit, no other move with one:"
            f" got {move_type.label} with suit {suit!r}"
        )


def _check_card_move(move: Move) -> None:
    t, key, suit, cards, level = move.type, move.key, move.suit, move.cards, move.level
    if t == MoveType.PASS:
        _check_shape(t, key, suit, str(cards))
        return
    _check_shape(t, key, suit, "")
    counts = cards.counts
    lo, hi = packed.card_words(t, key, suit, counts, level)
    if not packed.is_card_move(lo, hi, counts, level):
        made = sorted(
            (MoveType(dt), None if dk is None else Rank(dk), None if ds is None else SUITS[ds])
            for dt, dk, ds in packed.declarations(counts, level)
        )
        made.sort(key=lambda d: (d[0], window_start(d[1] or 0) if d[0] in SEQUENCE_TYPES else (d[1] or 0)))
        found = " or ".join(_declaration_text(*d) for d in made)
        raise InvalidMoveError(
            f"{cards or 'no cards'} cannot be played as {_declaration_text(t, key, suit)} at level {level.label}"
            f" (they make {found or 'no combination'})"
        )


_INT = {int}


def _parse_counts(ranks: object) -> tuple[int, ...]:
    """A rank-level move's counts: 15 ints (Python or numpy), 0..8 per natural rank, 0..2 per joker."""
    values: tuple[int, ...]
    if (
        type(ranks) is tuple
        and len(ranks) == 15
        and set(map(type, ranks)) == _INT  # Python ints only: the common case, checked in C
        and min(ranks) >= 0
        and max(ranks) <= 8
    ):
        values = ranks
    else:
        parsed = [integer(n) for n in ranks] if isinstance(ranks, Iterable) and not isinstance(ranks, str) else []
        if len(parsed) != 15 or any(n is None or not 0 <= n <= 8 for n in parsed):
            raise InvalidMoveError(
                f"a rank-level move's ranks are 15 ints (0..8 per natural rank, then the jokers), got {ranks!r:.80}"
            )
        values = tuple(n or 0 for n in parsed)
    if values[13] > 2 or values[14] > 2:
        raise InvalidMoveError(f"a move spends at most 2 of each joker, got {values[13]} and {values[14]}")
    return values


def _check_rank_move(move: RankMove) -> None:
    t, key, suit, ranks, wilds, level = move.type, move.key, move.suit, move.ranks, move.wilds, move.level
    if t == MoveType.PASS:
        _check_shape(t, key, suit, _count_text(ranks, wilds))
        return
    _check_shape(t, key, suit, "")
    word = packed.rank_word(t, key, suit, ranks, wilds)
    if not packed.is_rank_move(word, level) or packed.word_jokers(word) != ranks[13:]:
        raise InvalidMoveError(
            f"{_count_text(ranks, wilds) or 'no cards'} cannot be played as {_declaration_text(t, key, suit)}"
            f" at level {level.label}"
        )


def _count_text(ranks: tuple[int, ...], wilds: int) -> str:
    parts = [RANKS[i].label for i, n in enumerate(ranks) for _ in range(n)]
    if wilds:
        parts.append(f"+{wilds} wild" + ("s" if wilds > 1 else ""))
    return " ".join(parts)


# -- moves ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Move:
    """A move at card granularity: a declaration and the physical cards it spends.

    A move is valid when it exists: the constructor takes the type (a :class:`MoveType`, its
    number or name), the key (a :class:`Rank`, an int or a rank name; ``None`` for the pass and
    the joker bomb), the suit (a straight flush's :class:`Suit` or int 0..3, else ``None``), the
    cards (:class:`~guandan.Cards` or anything :func:`~guandan.core.cards.as_cards` reads) and the
    level (anything :func:`~guandan.parse_level` reads), and raises
    :class:`~guandan.InvalidMoveError` unless the declaration is one of the cards' own
    (:func:`classify`). Every function that takes a move can rely on it.

    >>> from guandan import classify
    >>> move = classify("D9 DT DJ H2 H2", 2)[0]
    >>> move.type.label, move.key.label, move.suit, move.size
    ('straight', '7', None, 5)
    >>> " ".join(card_name(c) for c in move.declared)
    'H7 H8 D9 D10 DJ'
    >>> print(move.to_rank())
    straight 7: 9 10 J +2 wilds
    >>> Move(MoveType.PAIR, 5, None, "S5 H2", 2) == classify("S5 H2", 2)[0]
    True
    >>> Move(MoveType.SINGLE, Rank.THREE, None, "S3 SB", 2)
    Traceback (most recent call last):
    ...
    guandan.errors.InvalidMoveError: S3 SB cannot be played as single:3 at level 2 (they make no combination)
    """

    type: MoveType
    key: Rank | None
    suit: Suit | None
    cards: Cards
    level: Rank

    def __post_init__(self) -> None:
        t, key, suit, level = _parse_fields(self.type, self.key, self.suit, self.level)
        cards = self.cards if type(self.cards) is Cards else _parse_cards(self.cards)
        if t is not self.type or key is not self.key or suit is not self.suit or level is not self.level:
            _set(self, "type", t)
            _set(self, "key", key)
            _set(self, "suit", suit)
            _set(self, "level", level)
        if cards is not self.cards:
            _set(self, "cards", cards)
        _check_card_move(self)

    @classmethod
    def _trusted(cls, move_type: MoveType, key: Rank | None, suit: Suit | None, cards: Cards, level: Rank) -> Move:
        """A move made without parsing or checking: only for moves the engine made itself."""
        move = object.__new__(cls)
        _set(move, "type", move_type)
        _set(move, "key", key)
        _set(move, "suit", suit)
        _set(move, "cards", cards)
        _set(move, "level", level)
        return move

    @classmethod
    def pass_(cls, level: int | str) -> Move:
        """The pass at a level.

        >>> print(Move.pass_("K"))
        pass
        """
        return cls._trusted(MoveType.PASS, None, None, _NO_CARDS, parse_level(level))

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
        return self.cards.counts[wild_of(self.level)]

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
        wild = wild_of(self.level)
        ranks = [0] * 15
        for c in self.cards:
            if c != wild:
                ranks[_RANK_INDEX[c]] += 1
        return RankMove._trusted(self.type, self.key, self.suit, tuple(ranks), self.wilds, self.level)

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
        if self.key is not None:
            head += f" {self.key.label}"
        if self.suit is not None:
            head += f" {self.suit.symbol if style == 'unicode' else self.suit.letter}"
        wild = wild_of(self.level)
        # natural cards in order, then the wilds, then what the wilds stand for
        order = [c for c in self.cards if c != wild] + [wild] * self.cards.count(wild)
        text = f"{head}: " + " ".join(card_name(c, style) for c in order)  # type: ignore[arg-type]
        meaning = _wild_meanings(self, style)
        if meaning:
            name = card_name(wild, style)  # type: ignore[arg-type]
            text += " (" + ", ".join(f"{name} as {m}" for m in meaning) + ")"
        return text


def _parse_cards(cards: object) -> Cards:
    if isinstance(cards, (str, Cards)) or (isinstance(cards, Iterable) and not isinstance(cards, (bytes, bytearray))):
        return as_cards(cards)
    raise InvalidMoveError(f"a move's cards are Cards, card text or card indices, got {cards!r:.60}")


@dataclass(frozen=True, slots=True)
class RankMove:
    """A move at rank granularity: a declaration, how many natural cards of each rank
    it spends (``ranks[rank - 2]``, jokers at 13 and 14), and how many wilds.

    Valid when it exists, as :class:`Move`: the fields are parsed the same way (``ranks`` is
    any sequence of 15 ints, ``wilds`` an int 0..2), and the counts and wilds must make the
    declaration, else :class:`~guandan.InvalidMoveError`.

    >>> from guandan import classify
    >>> move = classify("S5 H2", 2)[0].to_rank()
    >>> print(move), move.ranks[Rank.FIVE - 2], move.wilds
    pair 5: 5 +1 wild
    (None, 1, 1)
    >>> RankMove(MoveType.SINGLE, Rank.THREE, None, (0, 1) + (0,) * 11 + (2, 2), 0, 2)
    Traceback (most recent call last):
    ...
    guandan.errors.InvalidMoveError: 3 SB SB HR HR cannot be played as single:3 at level 2
    """

    type: MoveType
    key: Rank | None
    suit: Suit | None
    ranks: tuple[int, ...]
    wilds: int
    level: Rank

    def __post_init__(self) -> None:
        t, key, suit, level = _parse_fields(self.type, self.key, self.suit, self.level)
        ranks = _parse_counts(self.ranks)
        wilds = integer(self.wilds)
        if wilds is None or not 0 <= wilds <= 2:
            raise InvalidMoveError(f"a move spends 0, 1 or 2 wilds, got {self.wilds!r}")
        for name, value in (("type", t), ("key", key), ("suit", suit), ("ranks", ranks), ("wilds", wilds)):
            _set(self, name, value)
        _set(self, "level", level)
        _check_rank_move(self)

    @classmethod
    def _trusted(
        cls, move_type: MoveType, key: Rank | None, suit: Suit | None, ranks: tuple[int, ...], wilds: int, level: Rank
    ) -> RankMove:
        """A move made without parsing or checking: only for moves the engine made itself."""
        move = object.__new__(cls)
        _set(move, "type", move_type)
        _set(move, "key", key)
        _set(move, "suit", suit)
        _set(move, "ranks", ranks)
        _set(move, "wilds", wilds)
        _set(move, "level", level)
        return move

    @classmethod
    def pass_(cls, level: int | str) -> RankMove:
        """The pass at a level.

        >>> RankMove.pass_(2).size
        0
        """
        return cls._trusted(MoveType.PASS, None, None, (0,) * 15, 0, parse_level(level))

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
        return {RANKS[i]: n for i, n in enumerate(self.ranks) if n}

    def __str__(self) -> str:
        if self.type == MoveType.PASS:
            return "pass"
        head = self.type.label
        if self.key is not None:
            head += f" {self.key.label}"
        if self.suit is not None:
            head += f" {self.suit.letter}"
        return f"{head}: {_count_text(self.ranks, self.wilds)}"


AnyMove = Move | RankMove


# -- what wilds stand for ------------------------------------------------------------------------


def _group_needs(move: Move) -> list[tuple[Rank, int]]:
    """The (rank, count) groups a declaration is made of, low rank first for sequences."""
    t, key = move.type, move.key
    if key is None:
        return []  # pass and joker bomb use no wilds
    if t in SEQUENCE_TYPES:
        _, width = SEQUENCE_TYPES[t]
        return [(r, width) for r in _WINDOWS[t, key]]
    if t == MoveType.FULL_HOUSE:
        wild = wild_of(move.level)
        pair = [CARD_RANKS[c] for c in move.cards if c != wild and CARD_RANKS[c] != key]
        return [(key, 3), (pair[0] if pair else move.level, 2)]
    return [(key, move.size)]  # single, pair, triple, bomb


def _wild_faces(move: Move) -> list[int]:
    """The face each wild of the move stands for: the rank it completes, in the flush's
    suit for a straight flush and in its own heart suit otherwise."""
    wild = wild_of(move.level)
    n_wild = move.cards.count(wild)
    if n_wild == 0:
        return []
    have = move.cards.rank_counts()
    have[move.level] -= n_wild  # count natural cards only
    suit = move.suit if move.suit is not None else Suit.HEARTS  # only a straight flush has a suit
    return [4 * (rank - 2) + suit for rank, need in _group_needs(move) for _ in range(need - have[rank])]


def _wild_meanings(move: Move, style: str) -> list[str]:
    """``as 3`` notes for the wilds that stand for something other than themselves."""
    wild = wild_of(move.level)
    notes = []
    for face in _wild_faces(move):
        if face != wild:
            meaning = card_name(face, style) if move.type == MoveType.STRAIGHT_FLUSH else CARD_RANKS[face].label  # type: ignore[arg-type]
            notes.append(meaning)
    return notes


def _declare(move: Move) -> Iterator[int]:
    wild = wild_of(move.level)
    yield from (c for c in move.cards if c != wild)
    yield from _wild_faces(move)


_RANK_INDEX: tuple[int, ...] = tuple(r - 2 for r in CARD_RANKS)


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

