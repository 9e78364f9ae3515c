"""The packed move words (SPEC §5; the layout is in ``csrc/gd_core.h``) and the one check
that a declaration is what its cards make.

A rank-level move is one 64-bit word, a card-level move two (the faces spent, the
declaration in the top 12 bits of the second). A declaration with its cards is *valid*
exactly when the native generator, given those very cards as a hand, makes that move:
the generator is exact (checked move for move against :mod:`guandan.core.reference`), so this
is :func:`~guandan.classify` at native speed. Every door that builds a move from outside
data goes through :func:`is_card_move` or :func:`is_rank_move`; moves the core wrote are
trusted as they are.

This module is private: :mod:`guandan.core.movegen` is the public face of the packed forms.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

import numpy as np

from ..errors import GuandanError
from . import _core
from .cards import BIG_JOKER, SMALL_JOKER, Rank, wild_of

#: The packed pass; as the play to beat it means "lead".
PASS_WORD: int = _core.PASS_MOVE
#: The key field of a move without a key (the pass, the joker bomb).
KEY_NONE = 15
#: Bits 0..51: natural counts (a rank-level word) or faces (the second card-level word).
MASK52 = (1 << 52) - 1
#: The most cards a move spends (a ten-card bomb).
MAX_MOVE_SIZE = 10

_STRAIGHT_FLUSH = 9
_FULL_HOUSE = 4
_SINGLE, _PAIR, _JOKER_BOMB = 1, 2, 10



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


def declaration_bits(move_type: int, key: int | None, x: int, wilds: int) -> int:
    """The top 12 bits of a word: type, key (``None``: no key), x (a straight flush's suit,
    a full house's joker pair), wilds spent."""
    k = KEY_NONE if key is None else key - 2
    return (move_type << 60) | (k << 56) | (x << 54) | (wilds << 52)


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


def word_jokers(word: int) -> tuple[int, int]:
    """The small and big jokers a rank-level word spends (they follow from its declaration)."""
    move_type, key, x = word >> 60, (word >> 56) & 15, (word >> 54) & 3
    if move_type in (_SINGLE, _PAIR) and key in (13, 14):
        n = 1 if move_type == _SINGLE else 2
        return (n, 0) if key == 13 else (0, n)
    if move_type == _FULL_HOUSE:
        return (2 if x == 1 else 0, 2 if x == 2 else 0)
    if move_type == _JOKER_BOMB:
        return 2, 2
    return 0, 0


def is_card_move(lo: int, hi: int, counts: bytes, level: Rank) -> bool:
    """Whether two words (whose faces are ``counts``) are a card-level move at ``level``: the
    pass holding nothing, or a move the core makes from exactly those cards."""
    if hi >> 60 == 0:
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
    blocks = _BLOCKS[level, (word >> 54) & 3 if word >> 60 == _STRAIGHT_FLUSH else None]
    naturals = [blocks[r][(word >> (4 * r)) & 15] for r in range(13)]
    if None in naturals:
        return False
    counts = bytearray(b"".join(naturals))  # type: ignore[arg-type]
    counts += bytes(word_jokers(word))
    counts[wild_of(level)] = (word >> 52) & 3
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
