"""Cards, ranks, suits, the double deck, and the text notation (rules §1).

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
import numbers
import re
from collections.abc import Iterable, Iterator
from itertools import chain, compress
from typing import TYPE_CHECKING, Literal, NoReturn, cast

import numpy as np

from ..errors import GuandanError, InvalidCardsError, describe, is_int

if TYPE_CHECKING:
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
    "as_card",
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


def integer(value: object) -> int | None:
    """``value`` as an ``int`` when it is a Python or numpy integer, else ``None``.

    The one rule of every door: ints are accepted, never a ``bool`` (nor ``numpy.bool_``),
    a float or a string where a number is meant.

    >>> import numpy as np
    >>> integer(5), integer(np.uint8(5)), integer(True), integer(5.0), integer("5")
    (5, 5, None, None, None)
    """
    if type(value) is int:
        return value
    return int(cast(numbers.Integral, value)) if is_int(value) else None  # an int enum such as Rank, numpy integers


def card(rank: int | str, suit: int | None = None) -> int:
    """The card index of a face: a natural rank with a suit, or a joker rank.

    ``rank`` is anything :func:`parse_rank` reads, ``suit`` a :class:`Suit` or an int 0..3
    (``None`` for a joker).

    >>> card(Rank.TEN, Suit.HEARTS), card(Rank.BIG_JOKER), card("A", 3)
    (33, 53, 51)
    """
    r = parse_rank(rank)
    if r.is_joker:
        if suit is not None:
            raise InvalidCardsError(f"a joker has no suit, got suit {suit!r}")
        return SMALL_JOKER if r == Rank.SMALL_JOKER else BIG_JOKER
    s = integer(suit)
    if s is None or not 0 <= s <= 3:
        raise InvalidCardsError(f"a natural card needs a suit 0..3, got {suit!r}")
    return 4 * (r - 2) + s


def card_index(c: object) -> int:
    """A card index checked: an ``int`` (or numpy integer) 0..53, else :class:`InvalidCardsError`.

    >>> card_index(53)
    53
    """
    index = integer(c)
    if index is None or not 0 <= index < NUM_FACES:  # checked: a negative index would wrap around a table
        raise InvalidCardsError(f"card index must be an int 0..53, got {c!r}")
    return index


def as_card(value: object) -> int:
    """A card argument checked: a card index 0..53 (a Python or numpy int) or a card token
    (``"HA"``, ``"♥A"``, ``"SB"``), else :class:`InvalidCardsError`. The one validator of
    every door that takes one card (a tribute, a return, a card to name).

    >>> import numpy as np
    >>> as_card(53), as_card("HA"), as_card(np.uint8(4))
    (53, 49, 4)
    """
    if isinstance(value, str):
        return parse_card(value)
    index = integer(value)
    if index is None or not 0 <= index < NUM_FACES:
        raise InvalidCardsError(f"a card is a card index 0..53 or a card token, got {describe(value)}")
    return index


def card_rank(c: int) -> Rank:
    """The rank of a card.

    >>> card_rank(parse_card("HT")), card_rank(SMALL_JOKER)
    (<Rank.TEN: 10>, <Rank.SMALL_JOKER: 15>)
    """
    return CARD_RANKS[card_index(c)]


def card_suit(c: int) -> Suit | None:
    """The suit of a card, ``None`` for a joker.

    >>> card_suit(parse_card("DA")), card_suit(BIG_JOKER)
    (<Suit.DIAMONDS: 3>, None)
    """
    return _CARD_SUIT[card_index(c)]


def wild_card(level: int | str) -> int:
    """The wild face at a level (anything :func:`parse_level` reads): the heart of the level rank.

    >>> card_name(wild_card(7)), card_name(wild_card("Q"))
    ('H7', 'HQ')
    """
    return wild_of(parse_level(level))


def wild_of(level: Rank) -> int:
    """The wild face at a parsed level (no check: for code that holds a :class:`Rank`)."""
    return 4 * level - 7  # card(level, HEARTS) = 4 * (level - 2) + 1


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


#: The rank of each card index (a table, for code that has checked its indices).
CARD_RANKS: tuple[Rank, ...] = tuple(Rank(2 + i // 4) for i in range(52)) + (Rank.SMALL_JOKER, Rank.BIG_JOKER)
_CARD_SUIT: tuple[Suit | None, ...] = tuple(Suit(i % 4) for i in range(52)) + (None, None)


def _names(style: str) -> tuple[str, ...]:
    out = []
    for i in range(52):
        rank, suit = CARD_RANKS[i], Suit(i % 4)
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
    """Parse a rank given as a number (2..14, 15/16 for the jokers; a Python or numpy int),
    a :class:`Rank`, or a name (``2``..``10``, ``T``, ``J``, ``Q``, ``K``, ``A``, ``B``/``SB``, ``R``/``HR``).

    >>> parse_rank("t"), parse_rank(14), parse_rank("R")
    (<Rank.TEN: 10>, <Rank.ACE: 14>, <Rank.BIG_JOKER: 16>)
    """
    if type(value) is Rank:
        return value
    if isinstance(value, str):
        t = value.strip().upper()
        if t in _RANK_OF:
            return _RANK_OF[t]
        if t in ("B", "SB", "BJ"):
            return Rank.SMALL_JOKER
        if t in ("R", "HR", "RJ"):
            return Rank.BIG_JOKER
        raise InvalidCardsError(f"bad rank {value!r} (expected 2-10, T, J, Q, K, A, B or R)")
    n = integer(value)
    if n is None:
        raise InvalidCardsError(f"not a rank: {value!r} (a rank is an int 2..16 or a name)")
    if not 2 <= n <= 16:
        raise InvalidCardsError(f"rank must be 2..16 (2..14 natural, 15/16 jokers), got {value!r}")
    return RANKS[n - 2]


def parse_level(value: int | str) -> Rank:
    """Parse a level: a natural rank 2..14 (ace), as a number (a Python or numpy int),
    a :class:`Rank` or a name.

    >>> parse_level("J"), parse_level(2)
    (<Rank.JACK: 11>, <Rank.TWO: 2>)
    """
    if type(value) is Rank and value <= Rank.ACE:
        return value
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

    def __init__(self, counts: Iterable[int] | bytes | npt.NDArray[np.integer] = ()) -> None:
        self._counts = _EMPTY if type(counts) is tuple and not counts else _count_vector(counts)
        self._hash: int | None = None

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def _trusted(cls, counts: bytes) -> Cards:
        """Cards from a count vector the native core wrote (54 bytes, each 0..2), not re-checked."""
        cards = object.__new__(cls)
        cards._counts = counts
        cards._hash = None
        return cards

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
        """Build from card indices (Python or numpy ints 0..53; a face may appear at most twice).

        >>> Cards.from_cards([52, 52]).codes()
        ['SB', 'SB']
        """
        counts = bytearray(NUM_FACES)
        if isinstance(cards, (str, bytes, bytearray, memoryview)) or not isinstance(cards, Iterable):
            raise InvalidCardsError(f"cards are an iterable of card indices 0..53, got {cards!r:.80}")
        for c in cards:
            i = c if type(c) is int and 0 <= c < NUM_FACES else card_index(c)
            counts[i] += 1
            if counts[i] > 2:
                raise InvalidCardsError(
                    f"too many copies of {_CARD_NAMES['text'][i]}: more than 2 (the double deck has 2)"
                )
        return cls(bytes(counts))

    @classmethod
    def from_counts(cls, counts: Iterable[int] | bytes | npt.NDArray[np.integer]) -> Cards:
        """Build from a count vector of 54 entries, one per face, each 0, 1 or 2: a sequence
        of Python or numpy ints, ``bytes`` (one byte per face, as :attr:`counts` gives it) or a
        numpy array of an integer dtype and shape ``(54,)``. The same as ``Cards(counts)``.

        >>> len(Cards.from_counts([2] * 54))
        108
        """
        return cls(counts)

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
        """How many copies of card ``c`` (a card index 0..53)."""
        return self._counts[c if type(c) is int and 0 <= c < NUM_FACES else card_index(c)]

    def rank_counts(self) -> dict[Rank, int]:
        """How many cards of each rank (jokers included), as a dict over all 15 ranks."""
        out = dict.fromkeys(RANKS, 0)
        for i, n in enumerate(self._counts):
            if n:
                out[CARD_RANKS[i]] += n
        return out

    def suit_ranks(self, suit: int) -> tuple[Rank, ...]:
        """The natural ranks present in a suit (a :class:`Suit` or an int 0..3), ascending (each once)."""
        s = integer(suit)
        if s is None or not 0 <= s <= 3:
            raise InvalidCardsError(f"a suit is 0..3, got {suit!r}")
        return tuple(r for r in NATURAL_RANKS if self._counts[4 * (r - 2) + s])

    def wilds(self, level: int | str) -> int:
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
        counts = self._counts
        if _TWO not in counts:  # each face once: pick them out of 0..53
            return compress(_FACES, counts)
        return iter(sorted(chain(compress(_FACES, counts), compress(_FACES, counts.translate(_SECOND_COPY)))))

    def __contains__(self, c: object) -> bool:
        i = integer(c)
        return i is not None and 0 <= i < NUM_FACES and self._counts[i] > 0

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
        return Cards(bytes(a + b for a, b in zip(self._counts, other._counts)))

    def __sub__(self, other: object) -> Cards:
        if not isinstance(other, Cards):
            return NotImplemented
        if not other.issubset(self):
            missing = other._missing_from(self)
            raise InvalidCardsError(f"cannot remove {missing}: not all of them are held")
        return Cards(bytes(a - b for a, b in zip(self._counts, other._counts)))

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
        counts = self._counts
        if _TWO not in counts:
            return list(compress(names, counts))
        return [names[c] for c in self]

    def __repr__(self) -> str:
        return f"Cards({str(self)!r})"


CardsLike = Cards | str | Iterable[int]

_EMPTY = bytes(NUM_FACES)
_FACES = range(NUM_FACES)
_TWO = b"\x02"
#: Maps a count byte to 1 when the face has a second copy (count 2), else to 0.
_SECOND_COPY = bytes(1 if i == 2 else 0 for i in range(256))
_COUNT_VALUES = b"\x00\x01\x02"


def _count_vector(counts: object) -> bytes:
    """A count vector checked, as 54 bytes 0..2: ``bytes``/``bytearray`` (a byte per face),
    a numpy array of an integer dtype and shape (54,), or an iterable of 54 ints."""
    if isinstance(counts, (bytes, bytearray)):
        data = bytes(counts)
    elif isinstance(counts, np.ndarray):
        if counts.dtype.kind not in "iu" or counts.shape != (NUM_FACES,):
            raise InvalidCardsError(
                f"a count vector array has an integer dtype and shape ({NUM_FACES},), "
                f"got an array of dtype {counts.dtype} and shape {counts.shape}"
            )
        bad = np.flatnonzero((counts < 0) | (counts > 2))
        if len(bad):
            _bad_count(int(bad[0]), counts[bad[0]])
        data = counts.astype(np.uint8).tobytes()
    elif isinstance(counts, str):
        raise InvalidCardsError("a count vector is 54 small ints, not a string (use Cards.parse for card text)")
    elif not isinstance(counts, Iterable):
        raise InvalidCardsError(
            f"a count vector is {NUM_FACES} ints 0..2 (a sequence, bytes or an integer numpy array), got {counts!r:.80}"
        )
    else:
        try:
            values = list(counts)
        except (TypeError, NotImplementedError):  # e.g. a memoryview of several dimensions
            raise InvalidCardsError(f"a count vector is {NUM_FACES} ints 0..2, got {counts!r:.80}") from None
        if len(values) != NUM_FACES:
            raise InvalidCardsError(f"a count vector has {NUM_FACES} entries, got {len(values)}")
        out = bytearray(NUM_FACES)
        for i, n in enumerate(values):
            v = n if type(n) is int else integer(n)
            if v is None or not 0 <= v <= 2:
                _bad_count(i, n)
            out[i] = v
        return bytes(out)
    if len(data) != NUM_FACES:
        raise InvalidCardsError(f"a count vector has {NUM_FACES} entries, got {len(data)}")
    if data.translate(None, _COUNT_VALUES):
        i = next(i for i, n in enumerate(data) if n > 2)
        _bad_count(i, data[i])
    return data


def _bad_count(i: int, n: object) -> NoReturn:
    name = _CARD_NAMES["text"][i]
    value = integer(n)
    if value is not None and value > 2:
        raise InvalidCardsError(f"too many copies of {name}: {value} (the double deck has 2)")
    raise InvalidCardsError(f"count of {name} must be 0, 1 or 2 in a count vector, got {n!r}")


def as_cards(value: CardsLike) -> Cards:
    """Accept :class:`Cards`, a card string, or an iterable of card indices."""
    if isinstance(value, Cards):
        return value
    if isinstance(value, str):
        return Cards.parse(value)
    return Cards.from_cards(value)
