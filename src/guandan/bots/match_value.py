"""What a deal's result is worth in a match: the chance to win the match after it.

A search scores the deals it plays out. Counted in levels (``mc``'s default), a win with the
partner 2nd is worth +3 wherever the match stands; but what a player wants is the match.
Levels stop at A; a side at A passes only by winning a deal at its *own* A with its partner
in one of the ruleset's places (2nd or 3rd; the platform's rules: 2nd only), so at A a
1st-and-4th win is worth nothing more than staying, and against a side at its own A any win
that stops it is worth a great deal. ``mc:objective=match`` scores each result of the deal
in hand by the chance to win the match from where it leaves the match.

That chance comes from a model of the deals to come (:class:`MatchModel`): each is won by
either side with the same probability, the winner's partner 2nd, 3rd or 4th with the
probabilities :data:`PLACES` (as in ``mc``'s own play against itself), the match settled by
the ruleset exactly as :class:`~guandan.game.match.Match` settles it
(:func:`~guandan.game.scoring.settle`: promotion, the A gate, failures and drops back to 2, a
deal cap with its tie rule). Its values solve the model's equations (value iteration over
every state: both levels, whose level is played, both sides' failures at A, and, under a deal
cap, the deals left), once per ruleset. What the model leaves out: tribute (the model is
symmetric between the sides), a draw after a number of drops (the platform's rules: 50), and
the failures at A that an observation does not show (taken as none).

>>> from guandan.game.rules import COMPETITIVE_2022 as rules
>>> model = MatchModel(rules)
>>> round(model.chance(("2", "2"), None), 3)  # the start: an even match
0.5
>>> ace = model.outcomes(("A", "10"), 0, side=0)  # at its own A, side 0 passes with its partner 2nd or 3rd
>>> ace[0] == ace[1] == 1.0, 0 < ace[2] < 1  # a 1st-and-4th win leaves it at A
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from ..core.cards import Rank, parse_level
from ..errors import GuandanError, check_choice, describe, is_number
from ..game.observation import Observation
from ..game.rules import Ruleset
from ..game.scoring import settle

__all__ = ["PLACES", "MatchModel", "match_model", "deal_payoffs", "PAYOFF_SCALE"]

#: The model's chances that the winner's partner finishes 2nd, 3rd, 4th: as often as in
#: ``mc``'s play against itself, 249, 78 and 151 of 478 deals of 40 seeded matches
#: (``benchmarks/README.md``, "The levels that decide a match").
PLACES: tuple[float, float, float] = (0.52, 0.16, 0.32)
#: The payoffs of ``objective=match`` are the chance to win the match times this (integers:
#: the search sums them exactly).
PAYOFF_SCALE = 10_000

_LEVELS = 13  # 2 .. A


class MatchModel:
    """The chance to win a match from any state of it, under a ruleset and a model of the
    deals to come (see the module's description): each deal won by either side with
    probability 1/2, the winner's partner 2nd, 3rd, 4th with probabilities ``places``.

    >>> from guandan.game.rules import PLATFORM
    >>> m = MatchModel(PLATFORM)
    >>> m.chance(("A", "A"), 0) > m.chance(("A", "A"), 1)  # whose A is played matters
    True
    """

    def __init__(self, ruleset: Ruleset, places: Sequence[float] = PLACES) -> None:
        if (
            isinstance(places, (str, bytes))
            or not isinstance(places, Sequence)
            or len(places) != 3
            or not all(is_number(q) and q >= 0 for q in places)
            or not abs(sum(places) - 1.0) < 1e-9
        ):
            raise GuandanError(
                f"places are three chances >= 0 summing to 1 (partner 2nd, 3rd, 4th), got {describe(places)}"
            )
        self.ruleset = ruleset
        self.places = tuple(float(q) for q in places)
        limit = ruleset.failed_a_limit
        self._fails = limit if limit is not None else 1  # failures count only where they can drop a side
        self._cap = ruleset.max_deals
        self._build()

    # -- states ------------------------------------------------------------------------------

    def _index(self, l0: int, l1: int, side: int, f0: int, f1: int) -> int:
        return (((l0 * _LEVELS + l1) * 2 + side) * self._fails + f0) * self._fails + f1

    def _clamp(self, f: int) -> int:
        return f if self.ruleset.failed_a_limit is not None else 0

    def _build(self) -> None:
        """Each state's next state (or the match's end) after each of the six results."""
        n = _LEVELS * _LEVELS * 2 * self._fails * self._fails
        self._n = n
        # results: side 0 wins with its partner 2nd, 3rd, 4th, then side 1 likewise
        self._p = np.array([0.5 * q for q in self.places] * 2)
        self._next = np.full((6, n), -1, dtype=np.int64)
        self._end = np.zeros((6, n))  # the chance side 0 wins when the result ends the match
        self._winner = np.zeros(6, dtype=np.int64)
        for l0 in range(_LEVELS):
            for l1 in range(_LEVELS):
                for side in (0, 1):
                    for f0 in range(self._fails):
                        for f1 in range(self._fails):
                            i = self._index(l0, l1, side, f0, f1)
                            levels = (Rank(l0 + 2), Rank(l1 + 2))
                            for r in range(6):
                                winner, place = r // 3, 2 + r % 3
                                self._winner[r] = winner
                                done = settle(levels, side, (f0, f1), winner, place, self.ruleset)
                                if done.passed:
                                    self._end[r, i] = 1.0 if winner == 0 else 0.0
                                    continue
                                a, b = (int(v) - 2 for v in done.levels)
                                g0, g1 = (self._clamp(f) for f in done.failures)
                                self._next[r, i] = self._index(a, b, winner, g0, g1)
        self._values = self._solve()

    def _step(self, v: np.ndarray) -> np.ndarray:
        out = np.zeros(self._n)
        for r in range(6):
            nxt = self._next[r]
            out += self._p[r] * np.where(nxt >= 0, v[np.maximum(nxt, 0)], self._end[r])
        return out

    def _capped(self, v: np.ndarray) -> np.ndarray:
        """The chance side 0 wins when no deal is left: the higher level wins, on equal levels
        the side that won the last deal (whose level is played next)."""
        out = np.zeros(self._n)
        for l0 in range(_LEVELS):
            for l1 in range(_LEVELS):
                for side in (0, 1):
                    for f0 in range(self._fails):
                        for f1 in range(self._fails):
                            won = l0 > l1 or (l0 == l1 and side == 0)
                            out[self._index(l0, l1, side, f0, f1)] = 1.0 if won else 0.0
        return out

    def _solve(self) -> np.ndarray:
        """The values: without a deal cap, one array (the fixed point, by value iteration);
        with one, an array per number of deals left (0 .. the cap)."""
        if self._cap is not None:
            rows = [self._capped(np.zeros(self._n))]
            for _ in range(self._cap):
                rows.append(self._step(rows[-1]))
            return np.stack(rows)
        v = np.full(self._n, 0.5)
        for _ in range(100_000):
            new = self._step(v)
            if np.max(np.abs(new - v)) < 1e-13:
                return new
            v = new
        raise GuandanError("the match model's values did not converge")  # pragma: no cover

    # -- queries -----------------------------------------------------------------------------

    def _value(self, l0: int, l1: int, side: int, f0: int, f1: int, deals_left: int | None) -> float:
        i = self._index(l0, l1, side, self._clamp(f0), self._clamp(f1))
        if self._cap is None:
            return float(self._values[i])
        return float(self._values[max(0, min(self._cap, deals_left or 0)), i])

    def chance(
        self,
        levels: tuple[Any, Any],
        level_side: int | None,
        failures: tuple[int, int] = (0, 0),
        deals_played: int = 0,
        side: int = 0,
    ) -> float:
        """The chance that ``side`` wins the match before a deal played at the level of
        ``level_side`` (``None``: the first deal, at 2), both sides at ``levels``, after
        ``deals_played`` deals (under a deal cap)."""
        after = self.outcomes(levels, level_side, failures, deals_played, 0)
        first = sum(float(p) * v for p, v in zip(self._p, after, strict=True))
        return first if side == 0 else 1.0 - first

    def outcomes(
        self,
        levels: tuple[Any, Any],
        level_side: int | None,
        failures: tuple[int, int] = (0, 0),
        deals_played: int = 0,
        side: int = 0,
    ) -> tuple[float, ...]:
        """The chance that ``side`` wins the match after each result of the deal in hand: it
        wins with its partner 2nd, 3rd, 4th; it loses with the other side's partner 2nd,
        3rd, 4th (the order of :func:`guandan.core.search.search`'s payoffs)."""
        check_choice("side", side, (0, 1), "0 or 1")
        ranks = (parse_level(levels[0]), parse_level(levels[1]))
        out = []
        left = None if self._cap is None else self._cap - deals_played - 1
        for r in (0, 1, 2, 3, 4, 5):
            winner = side if r < 3 else 1 - side
            place = 2 + r % 3
            done = settle(ranks, level_side, failures, winner, place, self.ruleset)
            if done.passed:
                value = 1.0 if winner == 0 else 0.0
            elif left is not None and left <= 0:
                high, low = done.levels
                value = 1.0 if high > low or (high == low and winner == 0) else 0.0
            else:
                a, b = (int(x) - 2 for x in done.levels)
                value = self._value(a, b, winner, done.failures[0], done.failures[1], left)
            out.append(value if side == 0 else 1.0 - value)
        return tuple(out)


@lru_cache(maxsize=16)
def match_model(ruleset: Ruleset) -> MatchModel:
    """The model of a ruleset with the default :data:`PLACES`, made once per process.

    >>> from guandan.game.rules import PLATFORM
    >>> match_model(PLATFORM) is match_model(PLATFORM)
    True
    """
    return MatchModel(ruleset)


def deal_payoffs(observation: Observation) -> tuple[int, ...] | None:
    """The six payoffs of ``objective=match`` for the observation's seat: its side's chance
    to win the match after each result of the deal (a win with the partner 2nd, 3rd, 4th;
    a loss likewise), times :data:`PAYOFF_SCALE`, rounded; ``None`` outside a match (a single
    deal: its levels are what counts).

    >>> from guandan import Match
    >>> deal_payoffs(Match(seed=1).observation(0))[:3]  # the first deal: a win is worth a little
    (6007, 5653, 5319)
    """
    if observation.levels is None:
        return None
    model = match_model(observation.ruleset)
    values = model.outcomes(
        observation.levels, observation.level_side, (0, 0), observation.deal_index, observation.seat & 1
    )
    return tuple(int(round(v * PAYOFF_SCALE)) for v in values)
