"""Scoring: how a deal ended, the levels it gains, promotion (rules §7).

The one place where a finish order becomes levels: :class:`DealResult` (the finish order
and what follows from it), :func:`promote` (a level raised, stopping at A) and
:func:`side_scores` (many finish orders scored for a side under a ruleset's promotion, as
the search bots score their rollouts), and :func:`settle` (a deal's result applied to a
match's levels: promotion, the A gate, failures at A). A ruleset's ``promotion`` says how many levels a
win is worth (:meth:`~guandan.game.rules.Ruleset.gain`); the competitive rules' 3, 2, 1,
Nanjing's 3, 2, 0 (a 1st-and-4th win gains nothing).

>>> import numpy as np
>>> from guandan.game.rules import NANJING
>>> r = DealResult((1, 2, 3, 0))
>>> r.first, r.winning_side, r.partner_place, NANJING.gain(r.partner_place)
(1, 1, 3, 2)
>>> orders = np.array([[0, 2, -1, -1], [1, 0, 2, 3], [3, 0, 1, 2]], dtype=np.int8)
>>> side_scores(orders, side=0).tolist(), side_scores(orders, side=0, promotion=NANJING.promotion).tolist()
([3.0, -1.0, -2.0], [3.0, 0.0, -2.0])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..core.cards import Rank, parse_level
from ..errors import GuandanError, check_choice, check_int, describe, is_int, is_number
from .rules import Ruleset

__all__ = ["DealResult", "promote", "side_scores", "DEFAULT_PROMOTION", "Settlement", "settle"]

#: The competitive rules' levels for a win with the partner 2nd, 3rd, 4th.
DEFAULT_PROMOTION: tuple[int, int, int] = (3, 2, 1)


@dataclass(frozen=True, slots=True)
class DealResult:
    """How a deal ended: the finish order (2 seats after a double-down, else all 4).

    >>> r = DealResult((1, 2, 3, 0))
    >>> r.first, r.winning_side, r.partner_place, r.is_double_down, r.place(3)
    (1, 1, 3, False, 3)
    >>> DealResult((0, 2)).losers, DealResult((0, 2)).place(1)
    ((1, 3), None)
    """

    finish_order: tuple[int, ...]

    @property
    def first(self) -> int:
        """The seat that finished first."""
        return self.finish_order[0]

    @property
    def winning_side(self) -> int:
        """The side of the first seat."""
        return self.finish_order[0] & 1

    @property
    def is_double_down(self) -> bool:
        """Whether partners finished 1st and 2nd."""
        return len(self.finish_order) == 2

    @property
    def partner_place(self) -> int:
        """Where the winner's partner finished: 2, 3 or 4."""
        return self.finish_order.index(self.first ^ 2) + 1 if (self.first ^ 2) in self.finish_order else 4

    @property
    def losers(self) -> tuple[int, int]:
        """The seats of the losing side, in seat order."""
        s = 1 - self.winning_side
        return (s, s + 2)

    def place(self, seat: int) -> int | None:
        """A seat's place 1..4 (``None`` for a loser of a double-down: never decided)."""
        if seat in self.finish_order:
            return self.finish_order.index(seat) + 1
        return None

    def __str__(self) -> str:
        return "finish order " + " ".join(f"{i + 1}:seat {s}" for i, s in enumerate(self.finish_order))



def promote(level: int | str | Rank, gain: int) -> Rank:
    """A level raised by ``gain``, stopping at A.

    >>> promote(9, 3), promote(13, 3)
    (<Rank.QUEEN: 12>, <Rank.ACE: 14>)
    """
    gain = check_int("a gain", gain, 0)
    return Rank(min(int(parse_level(level)) + gain, int(Rank.ACE)))


def side_scores(
    finish_orders: np.ndarray,
    side: int,
    promotion: Sequence[int] = DEFAULT_PROMOTION,
    payoffs: Sequence[float] | None = None,
) -> np.ndarray:
    """Each finish order's result for a side (0: seats 0 and 2; 1: seats 1 and 3), in levels
    under ``promotion`` (the levels of a win with the partner 2nd, 3rd, 4th: a ruleset's
    ``promotion``): + when the side wins, - when it loses; or, given six ``payoffs``, what
    each result is worth to the side (a win with the partner 2nd, 3rd, 4th, then a loss with
    the other side's partner 2nd, 3rd, 4th: a match's stakes). ``finish_orders``: an integer
    array ``(n, 4)``, 1st place first, -1 for the places a double-down leaves undecided.
    See the module's example.

    >>> side_scores(np.array([[1, 0, 3, 2]]), side=0, payoffs=(9, 8, 7, 3, 2, 1)).tolist()
    [2.0]
    """
    check_choice("side", side, (0, 1), "0 or 1")
    if payoffs is not None and (
        isinstance(payoffs, (str, bytes))
        or not isinstance(payoffs, Sequence)
        or len(payoffs) != 6
        or not all(is_number(v) and abs(v) < 1e30 for v in payoffs)
    ):
        raise GuandanError(
            f"payoffs are six numbers (a win with the partner 2nd, 3rd, 4th; a loss), got {describe(payoffs)}"
        )
    if (
        isinstance(promotion, (str, bytes))
        or not isinstance(promotion, Sequence)
        or len(promotion) != 3
        or not all(is_int(g) and 0 <= g <= 12 for g in promotion)
    ):
        raise GuandanError(f"promotion is three gains 0..12 (partner 2nd, 3rd, 4th), got {describe(promotion)}")
    orders = np.asarray(finish_orders) if not isinstance(finish_orders, str) else np.asarray(None)
    if orders.ndim != 2 or orders.shape[1] != 4 or orders.dtype.kind not in "iu":
        raise GuandanError(f"finish orders are an integer array of shape (n, 4), got {orders.dtype} {orders.shape}")
    if orders.size and (orders[:, 0].min() < 0 or orders.max() > 3):
        raise GuandanError("finish orders list seats 0..3, 1st place first (-1 only for undecided places)")
    first = orders[:, 0]
    mate = orders == ((first ^ 2)[:, None])
    partner_index = np.where(mate.any(axis=1), np.argmax(mate, axis=1), 3)  # 1, 2 or 3: partner 2nd, 3rd, 4th
    won = (first & 1) == side
    if payoffs is not None:
        table = np.asarray(payoffs, dtype=np.float64)
        worth: np.ndarray = np.where(won, table[partner_index - 1], table[partner_index + 2]) + 0.0
        return worth
    gain = np.asarray(promotion, dtype=np.float64)[partner_index - 1]
    scores: np.ndarray = np.where(won, gain, -gain) + 0.0  # + 0.0: no negative zero
    return scores


@dataclass(frozen=True, slots=True)
class Settlement:
    """What a deal's result did to a match: both sides' ``levels`` and ``failures`` (failed
    deals at their own A) after it, whether the winner ``passed`` A (won the match), and the
    side ``demoted`` to 2 (``None``: none)."""

    levels: tuple[Rank, Rank]
    failures: tuple[int, int]
    passed: bool
    demoted: int | None


def settle(
    levels: tuple[Rank, Rank],
    level_side: int | None,
    failures: tuple[int, int],
    winner: int,
    place: int,
    ruleset: Ruleset,
) -> Settlement:
    """A deal's result applied to a match (rules §7): the deal was played at the level of
    ``level_side`` (``None``: the first deal, at level 2), the side ``winner`` won it with
    its partner in ``place`` (2, 3 or 4). A side at A passes by winning a deal at its own A
    with its partner in one of the ruleset's ``pass_a_places``; any other deal at its own A
    is a failure, and ``failed_a_limit`` failures drop it back to 2. The one home of the
    rule: :class:`~guandan.game.match.Match` settles its deals with it.

    >>> from guandan.game.rules import COMPETITIVE_2022 as rules
    >>> settle((Rank.ACE, Rank.TEN), 0, (0, 0), 0, 4, rules)
    Settlement(levels=(<Rank.ACE: 14>, <Rank.TEN: 10>), failures=(1, 0), passed=False, demoted=None)
    >>> settle((Rank.ACE, Rank.TEN), 0, (0, 0), 0, 3, rules).passed
    True
    """
    new = [levels[0], levels[1]]
    fails = [failures[0], failures[1]]
    level_now = levels[level_side if level_side is not None else 0]
    at_own_a = level_now == Rank.ACE and level_side is not None
    passed = at_own_a and level_side == winner and place in ruleset.pass_a_places
    demoted = None
    if not passed:
        new[winner] = promote(new[winner], ruleset.gain(place))
        if at_own_a:  # a deal at its own A that it did not pass
            assert level_side is not None
            fails[level_side] += 1
            limit = ruleset.failed_a_limit
            if limit is not None and fails[level_side] >= limit:
                new[level_side] = Rank.TWO
                fails[level_side] = 0
                demoted = level_side
    return Settlement((new[0], new[1]), (fails[0], fails[1]), passed, demoted)
