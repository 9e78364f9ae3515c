"""Cards, ranks, suits, the double deck, and the text notation (SPEC §1).

A *card* is a face of the double deck, an ``int`` from 0 to 53: the 52 suited
faces in rank-major order (``4 * (rank - 2) + suit``) and then the small joker
(52) and the big joker (53). Each face exists twice in the 108-card deck.

A multiset of cards (a hand, the cards of a move) is a :class:`Cards`: an
immutable count vector of 54 faces, each 0, 1 or 2.

>>> from guandan import Cards, card_name, parse_card
>>> hand = Cards.parse("S3 ht H10 ♠3 SB hr")
>>> print(hand)
S3 S3 H10 H10 SB HR
>>> hand.unicode()
'♠3 ♠3 ♥10 ♥10 SB HR'
>>> hand.codes()
['S3', 'S3', 'HT', 'HT', 'SB', 'HR']
>>> card_name(parse_card("DQ"), "unicode")
'♦Q'
"""

from __future__ import annotations

import enum
import operator
import re
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Literal

from .errors import GuandanError, InvalidCardsError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "Rank",
    "Suit",
    "RANKS",
    "NATURAL_RANKS",
    "SUITS",
    "NUM_FACES",
    "SMALL_JOKER",
    "BIG_JOKER",
    "card",
    "card_rank",
    "card_suit",
    "card_name",
    "parse_card",
    "parse_rank",
    "parse_level",
    "wild_card",
    "card_index",
    "Cards",
    "CardStyle",
]


class Rank(enum.IntEnum):
    """A rank: the natural ranks 2..14 (ace) and the two jokers.

    >>> Rank.ACE, Rank(10).letter, Rank.SMALL_JOKER.letter
    (<Rank.ACE: 14>, 'T', 'B')
    """

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14
    SMALL_JOKER = 15
    BIG_JOKER = 16

    @property
    def letter(self) -> str:
        """The one-letter name of the AI-competition protocol: ``2``-``9``, ``T``, ``J``, ``Q``, ``K``, ``A``,
        ``B``, ``R``."""
        return _RANK_LETTERS[self - 2]

    @property
    def label(self) -> str:
        """The name people write: ``2``-``10``, ``J``, ``Q``, ``K``, ``A``, ``SB``, ``HR``."""
        return _RANK_LABELS[self - 2]

    @property
    def is_joker(self) -> bool:
        """Whether this is one of the two joker ranks."""
        return self >= Rank.SMALL_JOKER


class Suit(enum.IntEnum):
    """A suit. Suits matter only for straight flushes and for which hearts are wild.

    >>> Suit.HEARTS.letter, Suit.HEARTS.symbol
    ('H', '♥')
    """

    SPADES = 0
    HEARTS = 1
    CLUBS = 2
    DIAMONDS = 3

    @property
    def letter(self) -> str:
        """``S``, ``H``, ``C`` or ``D``."""
        return "SHCD"[self]

    @property
    def symbol(self) -> str:
        """``♠``, ``♥``, ``♣`` or ``♦``."""
        return "♠♥♣♦"[self]


_RANK_LETTERS = "23456789TJQKABR"
_RANK_LABELS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "SB", "HR")

#: All ranks, jokers included, low to high in natural order.
RANKS: tuple[Rank, ...] = tuple(Rank)
#: The thirteen non-joker ranks, 2 to ace.
NATURAL_RANKS: tuple[Rank, ...] = tuple(r for r in Rank if not r.is_joker)
#: The four suits.
SUITS: tuple[Suit, ...] = tuple(Suit)
#: Number of distinct faces in the double deck (each present twice).
NUM_FACES = 54
#: The small (black) joker's card index.
SMALL_JOKER = 52
#: The big (red) joker's card index.
BIG_JOKER = 53

CardStyle = Literal["text", "unicode", "code"]


def card(rank: int, suit: int | None = None) -> int:
    """The card index of a face: a natural rank with a suit, or a joker rank.

    >>> card(Rank.TEN, Suit.HEARTS), card(Rank.BIG_JOKER)
    (33, 53)
    """
    if rank in (Rank.SMALL_JOKER, Rank.BIG_JOKER):
        if suit is not None:
            raise InvalidCardsError(f"a joker has no suit, got suit {suit!r}")
        return SMALL_JOKER if rank == Rank.SMALL_JOKER else BIG_JOKER
    if not (isinstance(rank, int) and 2 <= rank <= 14):
        raise InvalidCardsError(f"rank must be 2..14 or a joker rank, got {rank!r}")
    if not (isinstance(suit, int) and 0 <= suit <= 3):
        raise InvalidCardsError(f"a natural card needs a suit 0..3, got {suit!r}")
    return 4 * (rank - 2) + suit


def card_index(c: object) -> int:
    """A card index checked: an ``int`` (or numpy integer) 0..53, else :class:`InvalidCardsError`.

    >>> card_index(53)
    53
    """
    if type(c) is int and 0 <= c < NUM_FACES:
        return c
    try:
        index = -1 if isinstance(c, bool) else operator.index(c)  # type: ignore[arg-type]
    except TypeError:
        index = -1
    if not 0 <= index < NUM_FACES:  # checked: a negative index would wrap around a table
        raise InvalidCardsError(f"card index must be an int 0..53, got {c!r}")
    return index


def card_rank(c: int) -> Rank:
    """The rank of a card.

    >>> card_rank(parse_card("HT")), card_rank(SMALL_JOKER)
    (<Rank.TEN: 10>, <Rank.SMALL_JOKER: 15>)
    """
    return _CARD_RANK[card_index(c)]


def card_suit(c: int) -> Suit | None:
    """The suit of a card, ``None`` for a joker.

    >>> card_suit(parse_card("DA")), card_suit(BIG_JOKER)
    (<Suit.DIAMONDS: 3>, None)
    """
    return _CARD_SUIT[card_index(c)]


def wild_card(level: int) -> int:
    """The wild face at a level: the heart of the level rank.

    >>> card_name(wild_card(7))
    'H7'
    """
    return card(parse_level(level), Suit.HEARTS)


def card_name(c: int, style: CardStyle = "text") -> str:
    """A card's name: ``text`` (``H10``, the spec's notation), ``unicode`` (``♥10``)
    or ``code`` (``HT``, the AI-competition protocol). Jokers are ``SB`` and ``HR``.

    >>> [card_name(parse_card("HT"), s) for s in ("text", "unicode", "code")]
    ['H10', '♥10', 'HT']
    """
    return _style_names(style)[card_index(c)]


def _style_names(style: object) -> tuple[str, ...]:
    names = _CARD_NAMES.get(style) if isinstance(style, str) else None
    if names is None:
        raise GuandanError(f"card style must be 'text', 'unicode' or 'code', got {style!r}")
    return names


_CARD_RANK: tuple[Rank, ...] = tuple(Rank(2 + i // 4) for i in range(52)) + (Rank.SMALL_JOKER, Rank.BIG_JOKER)
_CARD_SUIT: tuple[Suit | None, ...] = tuple(Suit(i % 4) for i in range(52)) + (None, None)


def _names(style: str) -> tuple[str, ...]:
    out = []
    for i in range(52):
        rank, suit = _CARD_RANK[i], _CARD_SUIT[i]
        assert suit is not None
        prefix = suit.symbol if style == "unicode" else suit.letter
        out.append(prefix + (rank.letter if style == "code" else rank.label))
    return tuple(out) + ("SB", "HR")


_CARD_NAMES = {style: _names(style) for style in ("text", "unicode", "code")}

_SUIT_OF = {"S": 0, "H": 1, "C": 2, "D": 3, "♠": 0, "♥": 1, "♣": 2, "♦": 3, "♤": 0, "♡": 1, "♧": 2, "♢": 3}
_RANK_OF = {label: Rank(r) for r, label in zip(range(2, 15), _RANK_LABELS)} | {"T": Rank.TEN}
_JOKERS = {"SB": SMALL_JOKER, "BJ": SMALL_JOKER, "HR": BIG_JOKER, "RJ": BIG_JOKER}
_TOKEN_HELP = "expected a suit letter S/H/C/D or ♠♥♣♦ then a rank 2-10/T/J/Q/K/A, or SB/HR/BJ/RJ for a joker"


def parse_card(token: str) -> int:
    """Parse one card token (case-insensitive): ``S3``, ``H10``, ``HT``, ``♠Q``, ``SB``, ``HR``, ``BJ``, ``RJ``.

    Raises :class:`InvalidCardsError` naming the token when it is not a card.

    >>> parse_card("h10") == parse_card("♥T") == card(Rank.TEN, Suit.HEARTS)
    True
    """
    if not isinstance(token, str):
        raise InvalidCardsError(f"a card token must be a string, got {token!r}")
    t = token.strip().upper()
    joker = _JOKERS.get(t)
    if joker is not None:
        return joker
    suit = _SUIT_OF.get(t[:1])
    rank = _RANK_OF.get(t[1:])
    if suit is None or rank is None:
        raise InvalidCardsError(f"bad card token {token!r} ({_TOKEN_HELP})")
    return 4 * (rank - 2) + suit


def parse_rank(value: int | str) -> Rank:
    """Parse a rank given as a number (2..14, 15/16 for the jokers), a
    :class:`Rank`, or a name (``2``..``10``, ``T``, ``J``, ``Q``, ``K``, ``A``, ``B``/``SB``, ``R``/``HR``).

    >>> parse_rank("t"), parse_rank(14), parse_rank("R")
    (<Rank.TEN: 10>, <Rank.ACE: 14>, <Rank.BIG_JOKER: 16>)
    """
    if isinstance(value, bool):
        raise InvalidCardsError(f"not a rank: {value!r}")
    if isinstance(value, int):
        if 2 <= value <= 16:
            return Rank(value)
        raise InvalidCardsError(f"rank must be 2..16 (2..14 natural, 15/16 jokers), got {value}")
    if isinstance(value, str):
        t = value.strip().upper()
        if t in _RANK_OF:
            return _RANK_OF[t]
        if t in ("B", "SB", "BJ"):
            return Rank.SMALL_JOKER
        if t in ("R", "HR", "RJ"):
            return Rank.BIG_JOKER
        raise InvalidCardsError(f"bad rank {value!r} (expected 2-10, T, J, Q, K, A, B or R)")
    raise InvalidCardsError(f"not a rank: {value!r}")


def parse_level(value: int | str) -> Rank:
    """Parse a level: a natural rank 2..14 (ace), as a number or a name.

    >>> parse_level("J"), parse_level(2)
    (<Rank.JACK: 11>, <Rank.TWO: 2>)
    """
    try:
        rank = parse_rank(value)
    except InvalidCardsError:
        raise InvalidCardsError(f"bad level {value!r} (expected a rank 2-10, T, J, Q, K or A)") from None
    if rank.is_joker:
        raise InvalidCardsError(f"a level is a rank from 2 to A, not a joker: {value!r}")
    return rank


_SPLIT = re.compile(r"[\s,]+")


class Cards:
    """An immutable multiset of cards: how many copies (0, 1 or 2) of each of the 54 faces.

    Used for hands and for the cards a move spends. Iteration yields card
    indices in ascending order, repeated for the second copy.

    >>> hand = Cards.parse("S3, C3 D4 SB")
    >>> len(hand), hand.count(parse_card("C3")), parse_card("D4") in hand
    (4, 1, True)
    >>> print(hand - Cards.parse("C3"))
    S3 D4 SB
    >>> hand.rank_counts()[Rank.THREE], hand.suit_ranks(Suit.DIAMONDS)
    (2, (<Rank.FOUR: 4>,))
    """

    __slots__ = ("_counts", "_hash")

    def __init__(self, counts: Iterable[int] = ()) -> None:
        if isinstance(counts, str):
            raise InvalidCardsError("a count vector is 54 small ints, not a string (use Cards.parse for card text)")
        try:
            data = bytes(NUM_FACES) if isinstance(counts, tuple) and not counts else bytes(counts)
        except (TypeError, ValueError):
            raise InvalidCardsError(f"a count vector is 54 ints 0..2, got {counts!r:.80}") from None
        if len(data) != NUM_FACES:
            raise InvalidCardsError(f"a count vector has {NUM_FACES} entries, got {len(data)}")
        for i, n in enumerate(data):
            if n > 2:
                raise InvalidCardsError(f"too many copies of {_CARD_NAMES['text'][i]}: {n} (the double deck has 2)")
        self._counts = data
        self._hash: int | None = None

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str) -> Cards:
        """Parse cards separated by spaces or commas; an empty string is no cards.

        >>> print(Cards.parse("sb,HR  h2"))
        H2 SB HR
        """
        if not isinstance(text, str):
            raise InvalidCardsError(f"cards must be given as a string, got {type(text).__name__}")
        tokens = [t for t in _SPLIT.split(text.strip()) if t]
        return cls.from_cards(parse_card(t) for t in tokens)

    @classmethod
    def from_cards(cls, cards: Iterable[int]) -> Cards:
        """Build from card indices (a face may appear at most twice).

        >>> Cards.from_cards([52, 52]).codes()
        ['SB', 'SB']
        """
        counts = bytearray(NUM_FACES)
        if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
            raise InvalidCardsError(f"cards are an iterable of card indices 0..53, got {cards!r:.80}")
        for c in cards:
            if not (isinstance(c, int) and not isinstance(c, bool) and 0 <= c < NUM_FACES):
                raise InvalidCardsError(f"card index must be an int 0..53, got {c!r}")
            counts[c] += 1
            if counts[c] > 2:
                raise InvalidCardsError(
                    f"too many copies of {_CARD_NAMES['text'][c]}: more than 2 (the double deck has 2)"
                )
        return cls(counts)

    @classmethod
    def from_counts(cls, counts: Iterable[int]) -> Cards:
        """Build from a count vector of 54 entries (a list, bytes or a numpy array).

        >>> len(Cards.from_counts([2] * 54))
        108
        """
        if isinstance(counts, str) or not isinstance(counts, Iterable):
            raise InvalidCardsError(f"a count vector is 54 ints 0..2, got {counts!r:.80}")
        values = list(counts)
        if len(values) != NUM_FACES:
            raise InvalidCardsError(f"a count vector has {NUM_FACES} entries, got {len(values)}")
        for i, n in enumerate(values):
            try:
                ok = n in (0, 1, 2) and not isinstance(n, (bool, str, bytes))
            except (TypeError, ValueError):  # e.g. an array where a number should be
                ok = False
            if not ok:
                raise InvalidCardsError(f"count of {_CARD_NAMES['text'][i]} must be 0, 1 or 2, got {n!r}")
        return cls(int(n) for n in values)

    @classmethod
    def deck(cls) -> Cards:
        """The whole double deck: 108 cards.

        >>> len(Cards.deck())
        108
        """
        return cls(bytes([2]) * NUM_FACES)

    # -- views ----------------------------------------------------------------------------------

    @property
    def counts(self) -> bytes:
        """The count vector: 54 bytes, one per face."""
        return self._counts

    def count(self, c: int) -> int:
        """How many copies of card ``c``."""
        return self._counts[card_index(c)]

    def rank_counts(self) -> dict[Rank, int]:
        """How many cards of each rank (jokers included), as a dict over all 15 ranks."""
        out = dict.fromkeys(RANKS, 0)
        for i, n in enumerate(self._counts):
            if n:
                out[_CARD_RANK[i]] += n
        return out

    def suit_ranks(self, suit: int) -> tuple[Rank, ...]:
        """The natural ranks present in a suit, ascending (each once)."""
        if isinstance(suit, bool) or suit not in (0, 1, 2, 3):
            raise InvalidCardsError(f"a suit is 0..3, got {suit!r}")
        return tuple(Rank(r) for r in range(2, 15) if self._counts[4 * (r - 2) + suit])

    def wilds(self, level: int) -> int:
        """How many wild cards (hearts of the level rank) this holds: 0, 1 or 2."""
        return self._counts[wild_card(level)]

    def numpy(self) -> npt.NDArray[np.uint8]:
        """The count vector as a new ``numpy.uint8`` array of shape ``(54,)``."""
        import numpy as np

        return np.frombuffer(self._counts, dtype=np.uint8).copy()

    # -- multiset operations --------------------------------------------------------------------

    def __len__(self) -> int:
        return sum(self._counts)

    def __iter__(self) -> Iterator[int]:
        for i, n in enumerate(self._counts):
            for _ in range(n):
                yield i

    def __contains__(self, c: object) -> bool:
        return isinstance(c, int) and 0 <= c < NUM_FACES and self._counts[c] > 0

    def __bool__(self) -> bool:
        return any(self._counts)

    def issubset(self, other: CardsLike) -> bool:
        """Whether every card here is also in ``other`` (with multiplicity)."""
        other = as_cards(other)
        return all(a <= b for a, b in zip(self._counts, other._counts))

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Cards):
            return NotImplemented
        return self.issubset(other)

    def __add__(self, other: object) -> Cards:
        if not isinstance(other, Cards):
            return NotImplemented
        return Cards(a + b for a, b in zip(self._counts, other._counts))

    def __sub__(self, other: object) -> Cards:
        if not isinstance(other, Cards):
            return NotImplemented
        if not other.issubset(self):
            missing = other._missing_from(self)
            raise InvalidCardsError(f"cannot remove {missing}: not all of them are held")
        return Cards(a - b for a, b in zip(self._counts, other._counts))

    def _missing_from(self, other: Cards) -> str:
        missing = [
            _CARD_NAMES["text"][i]
            for i, (a, b) in enumerate(zip(self._counts, other._counts))
            for _ in range(max(0, a - b))
        ]
        return " ".join(missing)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Cards) and self._counts == other._counts

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self._counts)
        return self._hash

    # -- printing -------------------------------------------------------------------------------

    def format(self, style: CardStyle = "text") -> str:
        """The cards in a given style (see :func:`card_name`), ascending, space separated."""
        names = _style_names(style)
        return " ".join(names[c] for c in self)

    def __str__(self) -> str:
        return self.format("text")

    def unicode(self) -> str:
        """The cards with suit symbols: ``♠3 ♥10 SB``."""
        return self.format("unicode")

    def codes(self) -> list[str]:
        """The cards as AI-competition protocol codes: ``['S3', 'HT', 'SB']``."""
        names = _CARD_NAMES["code"]
        return [names[c] for c in self]

    def __repr__(self) -> str:
        return f"Cards({str(self)!r})"


CardsLike = Cards | str | Iterable[int]


def as_cards(value: CardsLike) -> Cards:
    """Accept :class:`Cards`, a card string, or an iterable of card indices."""
    if isinstance(value, Cards):
        return value
    if isinstance(value, str):
        return Cards.parse(value)
    return Cards.from_cards(value)
