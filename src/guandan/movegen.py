"""Legal moves from the native core, and the packed move formats (SPEC §5).

:func:`legal_moves` returns a :class:`MoveList`: a view over the packed moves the
core wrote, which makes :class:`~guandan.Move` / :class:`~guandan.RankMove` objects
only for what the caller looks at (python-chess's ``board.legal_moves`` habit).

>>> from guandan import Cards, classify, legal_moves
>>> hand = Cards.parse("S3 C4 D4 C5 D5 H2 SB SB")
>>> moves = legal_moves(hand, level=2)
>>> len(moves), moves.count()
(22, 22)
>>> play = classify("S9 C9", 2)[0]
>>> [str(m) for m in legal_moves(hand, 2, beat=play)]
['pair SB: SB SB', 'pass']
>>> print(legal_moves(hand, 2, granularity="rank")[-1])
pair_run 3: 3 4 4 5 5 +1 wild

Packed forms (see ``csrc/gd_core.h``): a rank-level move is one 64-bit word, a
card-level move two. :func:`pack_rank_move` / :func:`unpack_rank_move` and
:func:`pack_move` / :func:`unpack_move` convert; the level is not part of the
packed form.

>>> move = classify("S3 C4 D4 C5 D5 H2", 2)[0]
>>> unpack_move(*pack_move(move), level=2) == move
True
>>> hex(pack_rank_move(move.to_rank()))
'0x6110000000002210'
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Literal, overload

import numpy as np

from . import _core
from .cards import BIG_JOKER, SMALL_JOKER, Cards, CardsLike, Rank, Suit, as_cards, parse_level
from .combos import AnyMove, Move, MoveType, RankMove
from .errors import GuandanError, InvalidMoveError

__all__ = [
    "MoveList",
    "legal_moves",
    "count_moves",
    "pack_move",
    "unpack_move",
    "pack_rank_move",
    "unpack_rank_move",
    "PASS_WORD",
]

Granularity = Literal["card", "rank"]

#: The packed pass; as the play to beat it means "lead".
PASS_WORD: int = _core.PASS_MOVE

_KEY_NONE = 15
_DECL_SHIFT = 52
_MASK52 = (1 << 52) - 1


def _decl(move_type: int, key: Rank | None, x: int, wilds: int) -> int:
    k = _KEY_NONE if key is None else key - 2
    return (move_type << 60) | (k << 56) | (x << 54) | (wilds << 52)


def _x_of(move: AnyMove, small: int, big: int) -> int:
    """The x field: a straight flush's suit, a full house's joker pair."""
    if move.type == MoveType.STRAIGHT_FLUSH:
        assert move.suit is not None
        return int(move.suit)
    if move.type == MoveType.FULL_HOUSE:
        return 1 if small == 2 else 2 if big == 2 else 0
    return 0


def pack_rank_move(move: RankMove) -> int:
    """The 64-bit word of a rank-level move."""
    if not isinstance(move, RankMove):
        raise InvalidMoveError(f"not a rank-level move: {move!r:.80}")
    if move.type == MoveType.PASS:
        return PASS_WORD
    nibbles = 0
    for r in range(13):
        n = move.ranks[r]
        if not 0 <= n <= 8:
            raise InvalidMoveError(f"cannot pack {move}: {n} cards of one rank")
        nibbles |= n << (4 * r)
    word = _decl(move.type, move.key, _x_of(move, move.ranks[13], move.ranks[14]), move.wilds) | nibbles
    _core.check_move(word)
    return word


def unpack_rank_move(word: int, level: int | str) -> RankMove:
    """The rank-level move of a 64-bit word at a level."""
    _core.check_move(word)
    lvl = parse_level(level)
    move_type = MoveType(word >> 60)
    key_index = (word >> 56) & 15
    key = None if key_index == _KEY_NONE else Rank(key_index + 2)
    x = (word >> 54) & 3
    ranks = [(word >> (4 * r)) & 15 for r in range(13)] + [0, 0]
    if move_type in (MoveType.SINGLE, MoveType.PAIR) and key is not None and key.is_joker:
        ranks[key - 2] = 1 if move_type == MoveType.SINGLE else 2
    elif move_type == MoveType.FULL_HOUSE and x:
        ranks[12 + x] = 2
    elif move_type == MoveType.JOKER_BOMB:
        ranks[13] = ranks[14] = 2
    suit = Suit(x) if move_type == MoveType.STRAIGHT_FLUSH else None
    return RankMove(move_type, key, suit, tuple(ranks), (word >> 52) & 3, lvl)


def pack_move(move: Move) -> tuple[int, int]:
    """The two 64-bit words of a card-level move: the faces spent, the declaration on top.

    The cards are checked against the declaration (:class:`~guandan.InvalidMoveError` when
    they do not make it).
    """
    if not isinstance(move, Move):
        raise InvalidMoveError(f"not a card-level move: {move!r:.80}")
    if move.type == MoveType.PASS:
        return 0, PASS_WORD
    lo, hi = _core.pack_cards(move.cards.counts)
    x = _x_of(move, move.cards.count(SMALL_JOKER), move.cards.count(BIG_JOKER))
    decl = _decl(move.type, move.key, x, move.wilds)
    _core.check_move(_core.card_to_rank(lo, hi | decl, int(move.level)))
    return lo, hi | decl


def unpack_move(lo: int, hi: int, level: int | str) -> Move:
    """The card-level move of two 64-bit words at a level."""
    lvl = parse_level(level)
    _core.check_move(_core.card_to_rank(lo, hi, int(lvl)))
    word = int(hi) & ~_MASK52
    move_type = MoveType(word >> 60)
    key_index = (word >> 56) & 15
    key = None if key_index == _KEY_NONE else Rank(key_index + 2)
    suit = Suit((word >> 54) & 3) if move_type == MoveType.STRAIGHT_FLUSH else None
    return Move(move_type, key, suit, Cards(_core.unpack_cards(lo, hi)), lvl)


def _beat_word(beat: AnyMove | int | None, level: Rank) -> int:
    if beat is None:
        return PASS_WORD
    if isinstance(beat, (int, np.integer)) and not isinstance(beat, bool):
        _core.check_move(int(beat))
        return int(beat)
    if isinstance(beat, (Move, RankMove)):
        if beat.level != level:
            raise InvalidMoveError(f"the play to beat is at level {beat.level.label}, the position at {level.label}")
        if beat.type == MoveType.PASS:
            raise InvalidMoveError("a pass is not a play to beat (use beat=None to lead)")
        return pack_rank_move(beat.to_rank() if isinstance(beat, Move) else beat)
    raise InvalidMoveError(f"the play to beat must be a Move, a RankMove, a packed word or None, got {beat!r}")


class MoveList(Sequence[AnyMove]):
    """The legal moves of a position: a view over the packed moves.

    ``len()``, indexing, iteration and ``in`` work as on a list; :attr:`array` is the
    packed form (``uint64``: shape ``(n,)`` at rank granularity, ``(n, 2)`` at card
    granularity) for code that wants no Python objects at all.
    """

    __slots__ = ("array", "level", "granularity")

    def __init__(self, array: np.ndarray, level: Rank, granularity: Granularity) -> None:
        self.array = array
        self.level = level
        self.granularity = granularity

    def __len__(self) -> int:
        return len(self.array)

    def count(self, value: object = None) -> int:
        """Without an argument, how many moves (as python-chess's ``legal_moves.count()``);
        with one, how many times it occurs (0 or 1)."""
        if value is None:
            return len(self.array)
        return int(value in self)

    def _make(self, i: int) -> AnyMove:
        if self.granularity == "rank":
            return unpack_rank_move(int(self.array[i]), self.level)
        lo, hi = self.array[i]
        return unpack_move(int(lo), int(hi), self.level)

    @overload
    def __getitem__(self, i: int) -> AnyMove: ...
    @overload
    def __getitem__(self, i: slice) -> list[AnyMove]: ...
    def __getitem__(self, i: int | slice) -> AnyMove | list[AnyMove]:
        if isinstance(i, slice):
            return [self._make(j) for j in range(*i.indices(len(self)))]
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)):
            raise TypeError(f"move indices must be integers or slices, not {type(i).__name__}")
        i = int(i)
        n = len(self)
        if not -n <= i < n:
            raise IndexError("move index out of range")
        return self._make(i % n)

    def __iter__(self) -> Iterator[AnyMove]:
        for i in range(len(self)):
            yield self._make(i)

    def __contains__(self, move: object) -> bool:
        if self.granularity == "rank":
            if not isinstance(move, RankMove) or move.level != self.level:
                return False
            return bool(np.any(self.array == np.uint64(pack_rank_move(move))))
        if not isinstance(move, Move) or move.level != self.level:
            return False
        lo, hi = pack_move(move)
        return bool(np.any((self.array[:, 0] == np.uint64(lo)) & (self.array[:, 1] == np.uint64(hi))))

    def __repr__(self) -> str:
        return f"<MoveList {len(self)} {self.granularity}-level moves at level {self.level.label}>"


def legal_moves(
    hand: CardsLike,
    level: int | str,
    beat: AnyMove | int | None = None,
    granularity: Granularity = "card",
) -> MoveList:
    """The legal moves of a position, from the native core.

    ``hand``: the cards held (:class:`~guandan.Cards`, a card string or card indices).
    ``level``: the deal's level rank. ``beat``: the play to beat (a move of either
    granularity or a packed rank-level word), ``None`` to lead. The pass comes last
    when responding. Exactly the moves of :func:`guandan.reference.generate_moves`.
    """
    cards = as_cards(hand)
    lvl = parse_level(level)
    word = _beat_word(beat, lvl)
    if granularity == "rank":
        return MoveList(_core.rank_moves(cards.counts, int(lvl), word), lvl, "rank")
    if granularity == "card":
        return MoveList(_core.card_moves(cards.counts, int(lvl), word), lvl, "card")
    raise GuandanError(f"granularity must be 'card' or 'rank', got {granularity!r}")


def count_moves(
    hand: CardsLike,
    level: int | str,
    beat: AnyMove | int | None = None,
    granularity: Granularity = "card",
) -> int:
    """How many legal moves a position has, counted without making them.

    >>> count_moves("S3 C4 D4 C5 D5 H2", 2), count_moves("S3 C4 D4 C5 D5 H2", 2, granularity="rank")
    (18, 14)
    """
    cards = as_cards(hand)
    lvl = parse_level(level)
    word = _beat_word(beat, lvl)
    if granularity == "rank":
        return int(_core.count_rank_moves(cards.counts, int(lvl), word))
    if granularity == "card":
        return int(_core.count_card_moves(cards.counts, int(lvl), word))
    raise GuandanError(f"granularity must be 'card' or 'rank', got {granularity!r}")
