"""Moves as people write and read them: declarations and a readable order.

A *declaration* names how a set of cards is played: ``TYPE`` or ``TYPE:KEY``
(``full_house:5``, ``straight_flush:7``, ``joker_bomb``), the form the command
line's ``--as`` takes. :func:`parse_play` turns cards and an optional
declaration into the one :class:`~guandan.core.moves.Move` they mean;
:func:`sort_moves` puts a list of moves in the order a person scans it.

>>> from guandan import classify
>>> from guandan.core.notation import declaration, parse_play
>>> [declaration(m) for m in classify("S3 C3 S5 C5 H9", 9)]
['full_house:3', 'full_house:5']
>>> print(parse_play("S3 C3 S5 C5 H9", 9, "full_house:5"))
full_house 5: S3 C3 S5 C5 H9 (H9 as 5)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..errors import AmbiguousMoveError, InvalidMoveError
from .cards import CardsLike, as_cards, parse_level
from .classify import classify
from .moves import SEQUENCE_TYPES, AnyMove, Move, MoveType, RankMove, parse_declaration, window_keys
from .order import elevated_order

__all__ = ["declaration", "parse_play", "strength_key", "sort_moves"]


def declaration(move: AnyMove) -> str:
    """The declaration of a move as ``--as`` takes it: ``TYPE:KEY``, or ``TYPE`` alone for
    the joker bomb and the pass. Keys are written as people write ranks (``10``, ``SB``).

    >>> from guandan import classify
    >>> [declaration(m) for m in classify("S9 ST SJ SQ SK", 2)]
    ['straight:9', 'straight_flush:9']
    >>> declaration(classify("SB SB HR HR", 2)[0]), declaration(classify("ST", 2)[0])
    ('joker_bomb', 'single:10')
    """
    if not isinstance(move, Move | RankMove):
        raise InvalidMoveError(f"not a move: {move!r:.80}")
    if move.key is None:
        return move.type.label
    return f"{move.type.label}:{move.key.label}"


def parse_play(cards: CardsLike, level: int | str, declared_as: str | None = None) -> Move:
    """The move that ``cards`` make at ``level``, declared as ``declared_as`` (``TYPE`` or
    ``TYPE:KEY``) when the cards can be played more than one way.

    Raises :class:`~guandan.InvalidCardsError` for bad cards,
    :class:`~guandan.InvalidMoveError` when the cards form no combination or none that
    matches the declaration, and :class:`~guandan.AmbiguousMoveError` (listing the
    declarations to choose from) when several remain.

    >>> print(parse_play("S3 C4 D4 C5 D5 H2", 2))
    pair_run 3: S3 C4 D4 C5 D5 H2 (H2 as 3)
    >>> print(parse_play("D3 D4 D6 D7 H2", 2, "straight_flush"))
    straight_flush 3 D: D3 D4 D6 D7 H2 (H2 as D5)
    >>> print(parse_play("S7 C7 D7 H3 H3", 3, "full_house:7"))
    full_house 7: S7 C7 D7 H3 H3
    >>> parse_play("S3 C3 S5 C5 H9", 9)
    Traceback (most recent call last):
    ...
    guandan.errors.AmbiguousMoveError: S3 C3 S5 C5 H9 can be played as full_house:3 or full_house:5 at level 9
    """
    cards = as_cards(cards)
    lvl = parse_level(level)
    moves = classify(cards, lvl)
    if not moves:
        raise InvalidMoveError(f"{cards} form no combination at level {lvl.label}")
    if declared_as is not None:
        move_type, key = parse_declaration(declared_as)
        matching = [m for m in moves if m.type == move_type and (key is None or m.key == key)]
        if not matching:
            raise InvalidMoveError(
                f"{cards} cannot be played as {declared_as} at level {lvl.label}"
                f" (only as {_or_list(moves)})"
            )
        moves = matching
    if len(moves) > 1:
        raise AmbiguousMoveError(
            f"{cards} can be played as {_or_list(moves)} at level {lvl.label}"
        )
    return moves[0]


def _or_list(moves: list[Move]) -> str:
    names = [declaration(m) for m in moves]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def strength_key(move: AnyMove) -> tuple[Any, ...]:
    """A sort key: by type (in :class:`~guandan.MoveType` order), then by strength within
    the type as :func:`~guandan.beats` compares it (bombs by size, then rank in elevated
    order; sequences by window; the rest by rank in elevated order), then by suit, then
    moves that spend fewer wilds first, then by the cards spent. The pass sorts last.

    >>> from guandan import legal_moves
    >>> [str(m) for m in sort_moves(legal_moves("S2 SA H3", 2))]
    ['single 3: H3', 'single A: SA', 'single 2: S2']
    """
    if not isinstance(move, Move | RankMove):
        raise InvalidMoveError(f"not a move: {move!r:.80}")
    if move.type == MoveType.PASS:
        return (1,)
    if move.type == MoveType.JOKER_BOMB or move.key is None:
        order = 0
    elif move.type in SEQUENCE_TYPES:
        order = window_keys(move.type).index(move.key)
    else:
        order = elevated_order(move.key, move.level)
    size = move.size if move.type == MoveType.BOMB else 0
    suit = -1 if move.suit is None else int(move.suit)
    spent = tuple(move.cards) if isinstance(move, Move) else tuple(-n for n in move.ranks)
    return (0, move.type, size, order, suit, move.wilds, spent)


def sort_moves(moves: Iterable[AnyMove]) -> list[AnyMove]:
    """The moves in a readable order (see :func:`strength_key`), as a new list.

    >>> from guandan import classify, legal_moves
    >>> play = classify("S4 C4", 2)[0]
    >>> for move in sort_moves(legal_moves("S2 C2 S5 D5 SA H2", 2, beat=play)):
    ...     print(move)
    pair 5: S5 D5
    pair 5: S5 H2 (H2 as 5)
    pair 5: D5 H2 (H2 as 5)
    pair A: SA H2 (H2 as A)
    pair 2: S2 C2
    pair 2: S2 H2
    pair 2: C2 H2
    pass
    """
    return sorted(moves, key=strength_key)
