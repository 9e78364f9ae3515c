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
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from ..errors import InvalidCardsError, InvalidMoveError
from . import packed as _packed
from .cards import (
    BIG_JOKER,
    CARD_RANKS,
    NATURAL_RANKS,
    RANKS,
    SMALL_JOKER,
    SUITS,
    Cards,
    CardsLike,
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


# -- order ---------------------------------------------------------------------------------------


def elevated_order(rank: int | str, level: int | str) -> int:
    """The place of a rank in the elevated order of singles, pairs, triples, full houses
    and bombs at a level: 0 for the lowest, 12 for the level rank, 13 and 14 for the jokers.

    >>> [elevated_order(r, 7) for r in (Rank.TWO, Rank.SIX, Rank.EIGHT, Rank.ACE, Rank.SEVEN)]
    [0, 4, 5, 11, 12]
    """
    return _elevated(parse_rank(rank), parse_level(level))


def _elevated(rank: Rank, level: Rank) -> int:
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
    (t, key): tuple(_rank_at(p) for p in range(_window_start(key), _window_start(key) + SEQUENCE_TYPES[t][0]))
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
    """The key's place in its order (a valid move of a type that is compared by key has a key)."""
    key = move.key
    if key is None:  # only the pass and the joker bomb have no key, and neither gets here
        raise InvalidMoveError(f"{move} has no key to compare")
    if move.type in SEQUENCE_TYPES:
        return _window_start(key)
    return _elevated(key, move.level)


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
    lo, hi = _packed.card_words(t, key, suit, counts, level)
    if not _packed.is_card_move(lo, hi, counts, level):
        found = " or ".join(_declaration_text(m.type, m.key, m.suit) for m in classify(cards, level))
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
    word = _packed.rank_word(t, key, suit, ranks, wilds)
    if not _packed.is_rank_move(word, level) or _packed.word_jokers(word) != ranks[13:]:
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
            for key in _KEYS_OF[move_type]:
                window = _WINDOWS[move_type, key]
                if p.ranks_present() <= set(window) and all(p.naturals[r] <= width for r in window):
                    # the wilds exactly fill what the naturals leave empty
                    suit = next(iter(p.suits)) if move_type == MoveType.STRAIGHT_FLUSH else None
                    found.append((move_type, key, suit))

    found.sort(key=lambda d: (d[0], _window_start(d[1] or 0) if d[0] in SEQUENCE_TYPES else (d[1] or 0)))
    return [Move._trusted(t, key, suit, cards, lvl) for t, key, suit in found]


_RANK_INDEX: tuple[int, ...] = tuple(r - 2 for r in CARD_RANKS)


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

