"""The order of moves: the elevated order of ranks, and which move beats which (rules §2, §4).

>>> from guandan import classify
>>> elevated_order(Rank.TWO, 2), elevated_order(Rank.ACE, 2), elevated_order(Rank.SMALL_JOKER, 2)
(12, 11, 13)
>>> beats(classify("S9 C9", 2)[0], classify("S8 C8", 2)[0]), beats(classify("S8 C8", 2)[0], classify("S9 C9", 2)[0])
(True, False)
"""

from __future__ import annotations

from typing import Protocol

from ..errors import InvalidMoveError
from .cards import Rank, parse_level, parse_rank
from .moves import BOMB_TYPES, SEQUENCE_TYPES, Move, MoveType, RankMove, window_start

__all__ = ["elevated_order", "beats"]


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
        return window_start(key)
    return _elevated(key, move.level)


def beats(move: _Declared, play: _Declared) -> bool:
    """Whether ``move`` beats ``play`` (rules §4); both at the same level, either granularity.

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

