"""Tribute and return: who pays whom, the cards each may give, resisting (rules §7).

Pure functions of the previous deal's result, the hands and the level, which
:class:`~guandan.game.match.Match` applies and every other module asks of it (the
platform's table, the search bots' sampled tributes).

>>> from guandan import Cards, card_name
>>> from guandan.game.scoring import DealResult
>>> tribute_payers(DealResult((1, 0, 2, 3))), tribute_payers(DealResult((1, 3)))
((3,), (2, 0))
>>> [card_name(c) for c in tribute_choices(Cards.parse("S3 SA H7 D7 C7").counts, 7)]  # H7 is wild
['C7', 'D7']
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.cards import BIG_JOKER, NUM_FACES, SMALL_JOKER, Rank, card_rank, parse_level, wild_card
from ..core.order import elevated_order
from ..errors import GuandanError, InvalidCardsError, describe
from .rules import ReturnRule, TieRule
from .scoring import DealResult

__all__ = [
    "tribute_payers",
    "resists",
    "settle_tributes",
    "tribute_choices",
    "return_choices",
    "holds_both_big_jokers",
]


def tribute_payers(previous: DealResult) -> tuple[int, ...]:
    """The seats that pay tribute in the deal after ``previous``: both losers after a
    double-down (the seat playing next after the 1st place first), else the 4th place
    (after a 1st-and-4th result, the winner's own partner)."""
    first = previous.first
    if previous.is_double_down:
        return ((first + 1) & 3, (first + 3) & 3)
    return (previous.finish_order[3],)


def resists(payers: Sequence[int], hands: Sequence[bytes]) -> tuple[int, ...]:
    """The payers holding a big joker when, between them, they hold both (the tribute is
    resisted: no tribute, no return); else ``()``. ``hands``: each seat's count vector.

    >>> from guandan import Cards
    >>> hands = [Cards.parse(h).counts for h in ("S3", "HR", "D4", "HR S5")]
    >>> resists((1, 3), hands), resists((3,), hands)
    ((1, 3), ())
    """
    if not holds_both_big_jokers(*(hands[p] for p in payers)):
        return ()
    return tuple(p for p in payers if hands[p][BIG_JOKER])


def settle_tributes(
    paid: Sequence[tuple[int, int]], previous: DealResult, level: Rank, tie: TieRule = "next"
) -> tuple[list[tuple[int, int, int]], int]:
    """Who receives each tribute card once all are paid, and who leads: ``paid`` lists
    (payer, card) in payment order (in a double tribute, the seat playing next after the
    1st place first). Returns the (payer, receiver, card) triples and the seat that leads.

    A single tribute goes to the 1st place and its payer leads. In a double tribute the
    higher card goes to the 1st place and the lower to the 2nd; on equal cards the payer
    the ``tie`` rule names (``"next"``: the seat after the 1st place; ``"previous"``: the
    other) pays the 1st; the seat whose card went to the 1st leads.

    >>> settle_tributes([(3, 53)], DealResult((1, 0, 2, 3)), Rank.TWO)
    ([(3, 1, 53)], 3)
    >>> settle_tributes([(2, 4), (0, 51)], DealResult((1, 3)), Rank.TWO)
    ([(0, 1, 51), (2, 3, 4)], 0)
    """
    if len(paid) == 1:
        (payer, card), receiver = paid[0], previous.first
        return [(payer, receiver, card)], payer
    (a, ca), (b, cb) = paid  # a plays next after 1st
    first, second = previous.finish_order[0], previous.finish_order[1]
    higher, lower = elevated_order(card_rank(cb), level), elevated_order(card_rank(ca), level)
    if higher > lower or (higher == lower and tie == "previous"):
        a, ca, b, cb = b, cb, a, ca
    return [(a, first, ca), (b, second, cb)], a


def _counts_of(counts: bytes) -> bytes:
    """A hand's 54-byte count vector, checked."""
    if not isinstance(counts, bytes | bytearray) or len(counts) != NUM_FACES or any(n > 2 for n in counts):
        raise InvalidCardsError(f"a hand is a count vector of {NUM_FACES} bytes 0..2, got {describe(counts)}")
    return bytes(counts)


def tribute_choices(counts: bytes, level: int | str | Rank) -> tuple[int, ...]:
    """The faces a tribute payer may give: its highest cards in the elevated order of
    ``level``, wilds excluded (``counts``: the hand's 54-byte count vector). Ascending.

    >>> from guandan import Cards, card_name
    >>> [card_name(c) for c in tribute_choices(Cards.parse("S3 SA H7 D7 C7").counts, 7)]  # H7 is wild
    ['C7', 'D7']
    >>> [card_name(c) for c in tribute_choices(Cards.parse("S3 H7 H7 SB").counts, 7)]
    ['SB']
    """
    counts = _counts_of(counts)
    lvl = parse_level(level)
    wild = wild_card(lvl)
    best = -1
    out: list[int] = []
    for face in range(NUM_FACES):
        if not counts[face] or face == wild:
            continue
        order = elevated_order(card_rank(face), lvl)
        if order > best:
            best, out = order, [face]
        elif order == best:
            out.append(face)
    return tuple(out)


def return_choices(counts: bytes, level: int | str | Rank, rule: ReturnRule = "low") -> tuple[int, ...]:
    """The faces a tribute receiver may return (``counts``: its hand after receiving).

    ``"low"``: natural rank 2..10, not the level rank; with none, its lowest cards in the
    elevated order. ``"any"``: every face held. Ascending.

    >>> from guandan import Cards, card_name
    >>> [card_name(c) for c in return_choices(Cards.parse("S3 D5 H5 SJ").counts, 5)]
    ['S3']
    >>> [card_name(c) for c in return_choices(Cards.parse("SJ DJ SQ H5 SB").counts, 5)]
    ['SJ', 'DJ']
    """
    counts = _counts_of(counts)
    lvl = parse_level(level)
    held = [face for face in range(NUM_FACES) if counts[face]]
    if not isinstance(rule, str) or rule not in ("low", "any"):
        raise GuandanError(f"return rule must be 'low' or 'any', got {describe(rule)}")
    if rule == "any" or not held:
        return tuple(held)
    low = [f for f in held if f < SMALL_JOKER and card_rank(f) <= Rank.TEN and card_rank(f) != lvl]
    if low:
        return tuple(low)
    lowest = min(elevated_order(card_rank(f), lvl) for f in held)
    return tuple(f for f in held if elevated_order(card_rank(f), lvl) == lowest)


def holds_both_big_jokers(*counts: bytes) -> bool:
    """Whether the given hands hold both big jokers between them (resisting the tribute).

    >>> from guandan import Cards
    >>> holds_both_big_jokers(Cards.parse("HR S3").counts, Cards.parse("HR").counts)
    True
    """
    return sum(c[BIG_JOKER] for c in counts) >= 2
