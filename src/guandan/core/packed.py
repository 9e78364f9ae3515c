"""The packed formats: the words the native core reads and writes, and the one check that
a declaration is what its cards make. This module is their one home in Python: every
module that reads a word, a packed hand or a native state does it through the names here.

The layouts are those of ``csrc/gd_core.h``, which stays the authority (the test suite
reads the header and checks every constant here against it):

* **A packed hand** (a ``gd_cards``): 2 bits a face, faces 0..53 (``4 * rank + suit`` for
  the natural ranks, spades, hearts, clubs, diamonds; 52 the small joker, 53 the big joker),
  in two 64-bit words, kept in Python as one 108-bit int (:func:`bits_of_cards`,
  :func:`cards_of_bits`, :func:`hand_words`).
* **A rank-level move**: one 64-bit word. Bits 0..51 hold the natural (non-wild) cards
  spent per rank, a nibble each (rank ``r`` = 0..12, the 2 to the ace, at bit ``4 r``);
  on top, the *declaration* (:data:`DECLARATION_MASK`): the wilds spent (bits 52..53), ``x``
  (bits 54..55: a straight flush's suit, a full house's joker pair: 1 small, 2 big), the
  key (bits 56..59: rank 0..12, 13 small joker, 14 big joker, 15 none) and the type (bits
  60..63, :class:`~guandan.core.moves.MoveType`). A sequence's key is the lowest rank of its
  window (12, the ace, for the ace-low windows). The jokers spent follow from the
  declaration (:func:`word_jokers`).
* **A card-level move**: two words, ``lo`` and ``hi``: the faces spent as a packed hand
  (108 bits), with the declaration of its rank-level move in bits 52..63 of ``hi``
  (:func:`move_bits`).
* **A native deal state** (:class:`DealState`), the public part of one (:class:`SearchState`),
  and what one seat knows (:class:`InfoSet`): what playouts, perft and the search take.

>>> from guandan import Cards, classify
>>> word = 0x2310000000001000                  # pair 5: a natural five and a wild, at level 2
>>> word_type(word), word_key(word), word_wilds(word), word_count(word, 3), word_size(word)
(2, 3, 1, 1, 2)
>>> bits = bits_of_cards(Cards.parse("S3 S3 HR"))
>>> cards_of_bits(bits), size_of_bits(bits), hand_words(bits) == (0b10 << 8, 1 << 42)
(Cards('S3 S3 HR'), 3, True)

The native core converts between the forms too (the conversions a deal makes every action):

>>> hand = bits_of_cards(Cards.parse("S3 S3 C3 H2 D9"))
>>> word = 0x3110000000000020                  # triple 3: two natural threes and a wild, at level 2
>>> lo, hi = canonical_words(hand, 2, PASS_WORD, word)     # the cards it spends, as a card-level move
>>> Cards(unpack_cards(lo, hi & MASK52)), card_to_rank(lo, hi, 2) == word
(Cards('H2 S3 S3'), True)
>>> spend_cards(Cards.parse("S3 S3 C3 H2 D9").counts, 2, word) == lo
True
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from ..errors import GuandanError
from . import _core
from .cards import BIG_JOKER, NUM_FACES, SMALL_JOKER, Cards, Rank, wild_of
from .rng import MASK64

__all__ = [
    "MASK64",
    "MASK52",
    "DECLARATION_MASK",
    "TYPE_SHIFT",
    "KEY_SHIFT",
    "X_SHIFT",
    "WILDS_SHIFT",
    "KEY_SMALL_JOKER",
    "KEY_BIG_JOKER",
    "KEY_NONE",
    "PASS_WORD",
    "MAX_RANK_MOVES",
    "MAX_MOVE_SIZE",
    "HAND_SIZE",
    "word_type",
    "word_key",
    "word_x",
    "word_wilds",
    "word_count",
    "word_counts",
    "word_jokers",
    "word_size",
    "declaration_bits",
    "move_bits",
    "cards_of_bits",
    "bits_of_cards",
    "bits_of_words",
    "hand_words",
    "size_of_bits",
    "face_bit",
    "rank_bits",
    "DealState",
    "SearchState",
    "InfoSet",
    "card_words",
    "rank_word",
    "is_card_move",
    "is_rank_move",
    "declarations",
    "unpack_cards",
    "card_to_rank",
    "canonical_words",
    "spend_cards",
]

# -- the fields of a move word ----------------------------------------------------------------------

#: Bits 0..51: natural counts (a rank-level word) or faces (the second card-level word).
MASK52 = (1 << 52) - 1
#: The declaration: bits 52..63 (type, key, x, wilds).
DECLARATION_MASK = 0xFFF << 52
TYPE_SHIFT = 60
KEY_SHIFT = 56
X_SHIFT = 54
WILDS_SHIFT = 52
#: Key fields of the jokers, and of a move without a key (the pass, the joker bomb).
KEY_SMALL_JOKER = 13
KEY_BIG_JOKER = 14
KEY_NONE = 15
#: The packed pass; as the play to beat it means "lead".
PASS_WORD: int = _core.PASS_MOVE
#: Room for the rank-level moves of any position (the core's fixed buffer).
MAX_RANK_MOVES: int = _core.MAX_RANK_MOVES
#: The most cards a move spends (a ten-card bomb).
MAX_MOVE_SIZE = 10
#: The most cards a seat holds: 27 dealt (a tribute card received is returned before play).
HAND_SIZE = 27

_SINGLE, _PAIR, _FULL_HOUSE, _STRAIGHT_FLUSH, _JOKER_BOMB = 1, 2, 4, 9, 10

# -- conversions made by the native core (its own functions: a deal calls them every action) ----

#: The count vector (54 ``bytes``) of a packed hand's two words ``lo, hi``.
unpack_cards = _core.unpack_cards
#: The rank-level word of a card-level move ``lo, hi`` at a level (its cards' counts by rank
#: and its declaration).
card_to_rank = _core.card_to_rank
#: The card-level move ``(lo, hi)`` that plays a rank-level word from a packed hand facing a
#: play to beat, its cards spent canonically; :class:`~guandan.IllegalMoveError` unless legal.
canonical_words = _core.canonical_words
#: The cards a rank-level word spends from a hand's counts at a level, canonically, packed.
spend_cards = _core.spend_cards


def word_type(word: int) -> int:
    """The type of a move word (a rank-level word, or a card-level move's ``hi``)."""
    return word >> TYPE_SHIFT


def word_key(word: int) -> int:
    """The key field: rank 0..12 (2..A), 13 or 14 for a joker, 15 (:data:`KEY_NONE`) for none."""
    return (word >> KEY_SHIFT) & 15


def word_x(word: int) -> int:
    """The x field: a straight flush's suit, a full house's joker pair (1 small, 2 big), else 0."""
    return (word >> X_SHIFT) & 3


def word_wilds(word: int) -> int:
    """How many wilds the move spends."""
    return (word >> WILDS_SHIFT) & 3


def word_count(word: int, rank: int) -> int:
    """How many natural cards of rank ``rank`` (0..12: the 2 to the ace) a rank-level word spends."""
    return (word >> (4 * rank)) & 15


def word_counts(word: int) -> list[int]:
    """The natural cards a rank-level word spends per rank, the 2 to the ace (13 ints)."""
    return [(word >> (4 * r)) & 15 for r in range(13)]


def word_jokers(word: int) -> tuple[int, int]:
    """The small and big jokers a rank-level word spends (they follow from its declaration)."""
    move_type, key, x = word >> TYPE_SHIFT, (word >> KEY_SHIFT) & 15, (word >> X_SHIFT) & 3
    if move_type in (_SINGLE, _PAIR) and key in (KEY_SMALL_JOKER, KEY_BIG_JOKER):
        n = 1 if move_type == _SINGLE else 2
        return (n, 0) if key == KEY_SMALL_JOKER else (0, n)
    if move_type == _FULL_HOUSE:
        return (2 if x == 1 else 0, 2 if x == 2 else 0)
    if move_type == _JOKER_BOMB:
        return 2, 2
    return 0, 0


def word_size(word: int) -> int:
    """How many cards a rank-level word spends: its naturals, wilds and jokers."""
    return sum(word_counts(word)) + word_wilds(word) + sum(word_jokers(word))


def declaration_bits(move_type: int, key: int | None, x: int, wilds: int) -> int:
    """The top 12 bits of a word: type, key (a rank 2..16, ``None``: no key), x, wilds spent."""
    k = KEY_NONE if key is None else key - 2
    return (move_type << TYPE_SHIFT) | (k << KEY_SHIFT) | (x << X_SHIFT) | (wilds << WILDS_SHIFT)


def move_bits(lo: int, hi: int) -> int:
    """The faces a card-level move spends, as a packed hand (its declaration dropped)."""
    return lo | (hi & MASK52) << 64


# -- packed hands -------------------------------------------------------------------------------

#: The high bit of each face's 2-bit count in a packed hand (01 one copy, 10 two).
_HIGH_BITS = int("10" * NUM_FACES, 2)


def cards_of_bits(bits: int) -> Cards:
    """The :class:`~guandan.Cards` of a packed 108-bit hand (2 bits per face), made without re-checking.

    >>> cards_of_bits(bits_of_cards(Cards.parse("S3 S3 HR")))
    Cards('S3 S3 HR')
    """
    return Cards._trusted(_core.unpack_cards(bits & MASK64, bits >> 64))


def bits_of_cards(cards: Cards) -> int:
    """A hand packed into one 108-bit int, 2 bits per face.

    >>> bin(bits_of_cards(Cards.parse("S2 S2 H2")))
    '0b110'
    """
    lo, hi = _core.pack_cards(cards.counts)
    return int(lo) | (int(hi) << 64)


def bits_of_words(lo: int, hi: int) -> int:
    """A packed hand's two words (``gd_cards``) as one 108-bit int."""
    return int(lo) | (int(hi) << 64)


def hand_words(bits: int) -> tuple[int, int]:
    """A packed hand as the core's two words, ``(lo, hi)``."""
    return bits & MASK64, bits >> 64


def face_bit(face: int) -> int:
    """One copy of a face, as a packed hand (add it to a hand, or take it away).

    >>> cards_of_bits(face_bit(53) + face_bit(53) + face_bit(0))
    Cards('S2 HR HR')
    """
    return 1 << (2 * face)


def rank_bits(rank: int) -> int:
    """The 8 bits of a natural rank's four faces (2..14) in a packed hand: ``hand & rank_bits(r)``
    keeps the hand's cards of that rank."""
    return 0xFF << (8 * (rank - 2))


def size_of_bits(bits: int) -> int:
    """How many cards a packed hand holds.

    >>> size_of_bits(bits_of_cards(Cards.parse("S3 S3 HR")))
    3
    """
    return bits.bit_count() + (bits & _HIGH_BITS).bit_count()


# -- native states ---------------------------------------------------------------------------------


class SearchState(NamedTuple):
    """The public part of a deal state, as the search's root takes it: the level (a rank
    2..14), the seat to act, the seat of the play to beat (-1 to lead), the rank-level word
    of that play (:data:`PASS_WORD` to lead), the passes since it, the finish order."""

    level: int
    turn: int
    last: int
    beat: int
    passes: int
    finished: tuple[int, ...]


class DealState(NamedTuple):
    """A deal in progress as the native core takes it (playouts, perft, rollouts): the four
    packed hands (108-bit ints), then the fields of :class:`SearchState`.

    >>> from guandan import Deal
    >>> state = Deal.new(seed=7, level=2, leader=0).native_state()
    >>> state.turn, state.last, state.beat == PASS_WORD, [size_of_bits(h) for h in state.hands]
    (0, -1, True, [27, 27, 27, 27])
    """

    hands: tuple[int, ...]
    level: int
    turn: int
    last: int
    beat: int
    passes: int
    finished: tuple[int, ...]

    def public(self) -> SearchState:
        """The state without the hands."""
        return SearchState(*self[1:])


class InfoSet(NamedTuple):
    """What one seat knows, as the native sampler and search take it: the seat, the level
    (2..14), its packed hand, the pool of cards the others may hold (packed), the cards known
    to be in each seat's hand, the cards each seat cannot hold, how many cards each seat
    holds (0 for the seat itself), and the public events (``uint64 (n, 3)``: what the play
    reveals, for weighted sampling)."""

    seat: int
    level: int
    hand: int
    pool: int
    known: tuple[int, ...]
    forbid: tuple[int, ...]
    need: tuple[int, ...]
    events: np.ndarray


# -- declarations and their check ---------------------------------------------------------------


def declarations(counts: bytes, level: Rank) -> list[tuple[int, int | None, int | None]]:
    """Every declaration that exactly these cards (a count vector) make at ``level``: (type,
    key rank or ``None``, a straight flush's suit or ``None``), as the core lists them.

    >>> declarations(Cards.parse("S3 C3 S5 C5 H9").counts, Rank.NINE)
    [(4, 3, None), (4, 5, None)]
    """
    total = sum(counts)
    found = []
    for lo, hi in _core.card_moves(counts, level).tolist():
        if size_of_bits(move_bits(lo, hi)) == total:
            t, k = word_type(hi), word_key(hi)
            found.append((t, None if k == KEY_NONE else k + 2, word_x(hi) if t == _STRAIGHT_FLUSH else None))
    return found


def _blocks(level: int, suit: int | None) -> tuple[tuple[bytes | None, ...], ...]:
    """The counts of one rank's four faces holding n natural cards, per rank and n = 0..15:
    in ``suit`` alone (a straight flush's), else both copies of each suit, spades first;
    never the wild; None when no cards hold n naturals of the rank."""
    out = []
    for r in range(13):
        suits = range(4) if suit is None else (suit,)
        copies = 2 if suit is None else 1  # a straight flush holds one card of each rank
        faces = [f for f in (4 * r + s for s in suits for _ in range(copies)) if f != 4 * level - 7]
        row: list[bytes | None] = []
        for n in range(16):
            if n > len(faces):
                row.append(None)
                continue
            block = bytearray(4)
            for f in faces[:n]:
                block[f - 4 * r] += 1
            row.append(bytes(block))
        out.append(tuple(row))
    return tuple(out)


# A hand of exactly a rank-level move's natural cards is built from these blocks, per level
# and per suit of a straight flush (None: any other move).
_BLOCKS = {(level, suit): _blocks(level, suit) for level in range(2, 15) for suit in (None, 0, 1, 2, 3)}


def full_house_x(small: int, big: int) -> int:
    """The x field of a full house: 1 with a small-joker pair, 2 with a big-joker pair, else 0."""
    return 1 if small == 2 else 2 if big == 2 else 0


def card_words(
    move_type: int, key: int | None, suit: int | None, counts: bytes, level: Rank
) -> tuple[int, int]:
    """The two words of a card-level declaration with its cards (a count vector)."""
    lo, hi = _core.pack_cards(counts)
    if move_type == _STRAIGHT_FLUSH:
        x = suit or 0
    elif move_type == _FULL_HOUSE:
        x = full_house_x(counts[SMALL_JOKER], counts[BIG_JOKER])
    else:
        x = 0
    return lo, hi | declaration_bits(move_type, key, x, counts[wild_of(level)])


def rank_word(move_type: int, key: int | None, suit: int | None, ranks: Sequence[int], wilds: int) -> int:
    """The word of a rank-level declaration with its counts (15 ints, natural ranks then the
    jokers, each 0..15). Jokers are not part of the word: they follow from the declaration."""
    nibbles = 0
    for r in range(13):
        nibbles |= ranks[r] << (4 * r)
    if move_type == _STRAIGHT_FLUSH:
        x = suit or 0
    elif move_type == _FULL_HOUSE:
        x = full_house_x(ranks[13], ranks[14])
    else:
        x = 0
    return declaration_bits(move_type, key, x, wilds) | nibbles


def is_card_move(lo: int, hi: int, counts: bytes, level: Rank) -> bool:
    """Whether two words (whose faces are ``counts``) are a card-level move at ``level``: the
    pass holding nothing, or a move the core makes from exactly those cards."""
    if word_type(hi) == 0:
        return lo == 0 and hi == PASS_WORD
    if not 0 < sum(counts) <= MAX_MOVE_SIZE:
        return False
    return _holds(_core.card_moves(counts, level), _CARD_ROW.pack(lo, hi))


def is_rank_move(word: int, level: Rank) -> bool:
    """Whether a word is a rank-level move at ``level``: the pass, or a move the core makes
    from a hand of exactly its cards (naturals spread over the suits, a straight flush's in
    its suit; the wilds; the jokers its declaration spends)."""
    try:
        _core.check_move(word)
    except GuandanError:
        return False
    if word == PASS_WORD:
        return True
    blocks = _BLOCKS[level, word_x(word) if word_type(word) == _STRAIGHT_FLUSH else None]
    naturals = [blocks[r][word_count(word, r)] for r in range(13)]
    if None in naturals:
        return False
    counts = bytearray(b"".join(naturals))  # type: ignore[arg-type]
    counts += bytes(word_jokers(word))
    counts[wild_of(level)] = word_wilds(word)
    return _holds(_core.rank_moves(counts, level), _RANK_ROW.pack(word))


_CARD_ROW = struct.Struct("=QQ")  # a row of the core's uint64 arrays, in the machine's byte order
_RANK_ROW = struct.Struct("=Q")


def _holds(array: np.ndarray, row: bytes) -> bool:
    """Whether a C-contiguous uint64 array holds a row (its bytes): one scan of the buffer,
    faster than making Python ints of every word."""
    data = array.tobytes()
    i = data.find(row)
    while i > 0 and i % len(row):  # a match straddling two rows is not a row
        i = data.find(row, i + 1)
    return i >= 0
