"""perft: count the action sequences of a deal, native and reference, as chess engines do.

``perft(deal, depth)`` is the number of card-level action sequences of exactly ``depth``
plies from a deal in progress — passes and every declaration counted (the same cards
played as threes-full and as fives-full are two actions); a sequence cut short by the end
of the deal counts 0; depth 0 counts 1. The native core counts the last ply without
playing it (Stockfish's bulk counting); the reference walks the tree with the Python
:class:`~guandan.Deal` and :func:`guandan.core.reference.generate_moves`. ``divide`` splits
the count by first action, which is how a disagreement is tracked down
(``tools/perft.py`` prints it).

>>> from guandan import Deal, Cards
>>> hands = [Cards.parse(h) for h in ("S3 S3 C4", "D5 D6", "H7 SK", "SA CA")]
>>> deal = Deal(hands, level=2, leader=0)
>>> perft(deal, 1), perft(deal, 2), perft(deal, 2, "reference")
(3, 7, 7)
"""

from __future__ import annotations

from typing import Literal

from ..core.cards import Cards, Rank
from ..core.playouts import perft as native_perft
from ..core.reference import generate_moves
from ..core.rng import SplitMix64
from ..errors import GuandanError, check_int, describe
from .deal import Deal

__all__ = ["perft", "divide", "position", "Implementation"]

Implementation = Literal["native", "reference"]


def position(seed: int, cards: int = 27, level: int | str | Rank | None = None) -> Deal:
    """A seeded perft position: the deck shuffled with ``SplitMix64(seed)``, ``cards`` cards
    dealt to each seat (seat i takes the next ``cards``), the level 2 + seed % 13 unless
    given, seat ``seed % 4`` to lead.

    >>> deal = position(3, cards=5)
    >>> deal.card_counts, deal.turn, deal.level.label
    ((5, 5, 5, 5), 3, '5')
    """
    cards = check_int("cards", cards, 1, 27)
    deck = [face for face in range(54) for _ in range(2)]
    SplitMix64(seed).shuffle(deck)
    hands = [Cards.from_cards(deck[cards * i : cards * (i + 1)]) for i in range(4)]
    return Deal(hands, level=level if level is not None else 2 + seed % 13, leader=seed % 4)


def _reference(deal: Deal, depth: int) -> int:
    if depth == 0:
        return 1
    if deal.is_over:
        return 0
    assert deal.turn is not None
    to_beat = deal.to_beat
    moves = generate_moves(deal.hands[deal.turn], deal.level, to_beat.move if to_beat else None)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        deal.play(move)
        total += _reference(deal, depth - 1)
        deal.undo()
    return total


def perft(deal: Deal, depth: int, implementation: Implementation = "native") -> int:
    """The number of card-level action sequences of exactly ``depth`` plies from ``deal``."""
    depth = check_int("depth", depth, 0)
    if implementation == "native":
        if deal.is_over:
            return 1 if depth == 0 else 0
        return int(native_perft(deal.native_state(), depth))
    if implementation == "reference":
        return _reference(deal.copy(), depth)
    raise GuandanError(f"implementation must be 'native' or 'reference', got {describe(implementation)}")


def divide(deal: Deal, depth: int, implementation: Implementation = "native") -> dict[str, int]:
    """perft split by the first action: ``{str(move): count}`` over the legal first actions."""
    depth = check_int("divide's depth", depth, 1)
    if implementation not in ("native", "reference"):
        raise GuandanError(f"implementation must be 'native' or 'reference', got {describe(implementation)}")
    out: dict[str, int] = {}
    work = deal.copy()
    for move in list(work.legal_moves()):
        work.play(move)
        out[str(move)] = perft(work, depth - 1, implementation)
        work.undo()
    return out
