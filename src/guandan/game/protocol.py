"""What a game in play is, whether a single deal or a match: the :class:`Game` protocol.

A :class:`~guandan.game.deal.Deal` and a :class:`~guandan.game.match.Match` both satisfy it,
so a driver — the play loop (:func:`guandan.bots.loop.play_out`), the learning
environments, the records — reads the seat to act, shows it its observation and applies its
action without asking which of the two it holds. ``deal`` is the deal in play (a deal's is
itself; a match's its current deal) and ``levels`` the two sides' levels (a single deal's
level for both), so the play phase's fast paths read one deal either way.

>>> from guandan import Deal, Match
>>> isinstance(Deal.new(seed=1), Game), isinstance(Match(seed=1), Game)
(True, True)
>>> deal = Deal.new(seed=1, level=5)
>>> deal.deal is deal, [r.label for r in deal.levels]
(True, ['5', '5'])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from ..core.cards import Rank
from .history import Phase
from .observation import Observation

if TYPE_CHECKING:
    from .deal import Deal

__all__ = ["Game"]


@runtime_checkable
class Game(Protocol):
    """A deal or a match in play (see the module's description): its phase, the seat to
    act, the level played and both sides' levels, whether it is over, the actions so far,
    each seat's card count, the deal in play, and the seat to act's legal actions,
    observation and action (a move in play; a card in the tribute and return phases)."""

    @property
    def phase(self) -> Phase: ...

    @property
    def turn(self) -> int | None: ...

    @property
    def level(self) -> Rank: ...

    @property
    def levels(self) -> tuple[Rank, Rank]: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def history(self) -> tuple[Any, ...]: ...

    @property
    def card_counts(self) -> tuple[int, int, int, int]: ...

    @property
    def deal(self) -> Deal | None: ...

    def legal_actions(self) -> Any: ...

    def observation(self, seat: int) -> Observation: ...

    def act(self, action: Any, seat: int | None = None) -> Any: ...

    def play_index(self, index: int) -> None: ...

    def play_canonical(self, word: int) -> None: ...

    def snapshot(self) -> tuple[Any, ...]: ...
