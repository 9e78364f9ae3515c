"""What one seat sees: the :class:`Observation` an agent decides from (rules §6, §7).

An observation is immutable. It holds the seat's own hand, the public state of the
deal — whose turn it is, the play to beat and who made it, every seat's card count
(public at all times), the finish order so far, the public history of the deal (plays,
passes, tribute and return cards) — the match's levels, and the seat's legal actions
when it is the seat's turn (a :class:`~guandan.MoveList` in play, a tuple of cards in the
tribute and return phases).

It is built for speed: the history is decoded into :class:`~guandan.game.history.Play` records
only when read, and the legal moves stay packed (``legal_actions.array``) until someone
looks at one.

>>> from guandan.game.deal import Deal
>>> deal = Deal.new(seed=7, level=2, leader=0)
>>> obs = deal.observation(0)
>>> obs.seat, obs.turn, obs.phase.label, obs.card_counts, obs.to_beat
(0, 0, 'play', (27, 27, 27, 27), None)
>>> len(obs.hand), obs.legal_actions is deal.legal_moves()
(27, True)
>>> deal.observation(1).legal_actions
()
"""

from __future__ import annotations

from typing import Any

from ..core.cards import Cards, Rank
from ..core.packed import cards_of_bits
from .history import History, Phase, Play, decode_play
from .rules import COMPETITIVE_2022, Ruleset

__all__ = ["Observation"]


class Observation:
    """One seat's view of a deal (and match), immutable.

    Attributes: ``seat``, ``phase`` (:class:`Phase`), ``level`` (the deal's level),
    ``turn`` (the seat to act, ``None`` when over), ``card_counts`` (4 ints),
    ``finish_order`` (seats out so far, in order), ``legal_actions`` (empty unless it is
    this seat's turn), ``levels`` (both sides' levels, ``None`` outside a match),
    ``level_side`` (the side whose level is played, ``None`` if neither),
    ``deal_index``, ``ruleset`` (the rules played: what a win is worth, the return rule);
    properties ``hand``, ``hand_counts``, ``packed_hand``, ``to_beat``, ``to_beat_seat``,
    ``history``.

    Built by the game (:meth:`~guandan.Deal.observation`, :meth:`~guandan.Match.observation`)
    and by a platform client from the server's messages, always with keywords: ``beat`` is
    the play to beat as ``(seat, lo, hi)`` (its packed card-level words) or ``None`` to lead;
    ``packed_hand`` the seat's hand as a packed 108-bit int.

    >>> from guandan.game.deal import Deal
    >>> deal = Deal(["S3 S4", "S9", "D5", "D6"], level=2, leader=0); deal.play_index(0)
    >>> obs = deal.observation(1)
    >>> print(obs.to_beat), obs.to_beat_seat, obs.is_my_turn
    seat 0: single 3: S3
    (None, 0, True)
    """

    __slots__ = (
        "seat",
        "phase",
        "level",
        "turn",
        "card_counts",
        "finish_order",
        "legal_actions",
        "levels",
        "level_side",
        "deal_index",
        "ruleset",
        "packed_hand",
        "to_beat_seat",
        "_beat",
        "_history",
        "_cache",
    )

    seat: int
    phase: Phase
    level: Rank
    turn: int | None
    card_counts: tuple[int, ...]
    finish_order: tuple[int, ...]
    legal_actions: Any
    levels: tuple[Rank, Rank] | None
    level_side: int | None
    deal_index: int
    ruleset: Ruleset
    packed_hand: int
    to_beat_seat: int | None
    _beat: tuple[int, int, int] | None
    _history: History
    _cache: dict[str, Any]

    def __init__(
        self,
        *,
        seat: int,
        phase: Phase,
        level: Rank,
        turn: int | None,
        card_counts: tuple[int, ...],
        finish_order: tuple[int, ...],
        legal_actions: Any,
        packed_hand: int,
        beat: tuple[int, int, int] | None,
        history: History,
        levels: tuple[Rank, Rank] | None = None,
        level_side: int | None = None,
        deal_index: int = 0,
        ruleset: Ruleset = COMPETITIVE_2022,
    ) -> None:
        to_beat_seat = None if beat is None else beat[0]
        if type(self) is not Observation:  # a subclass of the user's: its own layout, one store at a time
            values: tuple[Any, ...] = (seat, phase, level, turn, card_counts, finish_order, legal_actions, packed_hand,
                                       beat, to_beat_seat, history, levels, level_side, deal_index, ruleset,
                                       {})  # fmt: skip
            for name, value in zip(_FIELDS, values):
                object.__setattr__(self, name, value)
            return
        # Filled in as a _Filling (the same slots, plain attribute stores: one observation an
        # action makes 15 object.__setattr__ calls cost more than the rest of it), then turned
        # into the immutable Observation.
        object.__setattr__(self, "__class__", _Filling)
        self.seat = seat
        self.phase = phase
        self.level = level
        self.turn = turn
        self.card_counts = card_counts
        self.finish_order = finish_order
        self.legal_actions = legal_actions
        self.packed_hand = packed_hand
        self._beat = beat
        self.to_beat_seat = to_beat_seat
        self._history = history
        self.levels = levels
        self.level_side = level_side
        self.deal_index = deal_index
        self.ruleset = ruleset
        self._cache = {}
        self.__class__ = Observation

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("an Observation is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("an Observation is immutable")

    @property
    def hand(self) -> Cards:
        """The seat's own cards."""
        cards: Cards | None = self._cache.get("hand")
        if cards is None:
            cards = self._cache["hand"] = cards_of_bits(self.packed_hand)
        return cards

    @property
    def hand_counts(self) -> bytes:
        """The seat's own cards as a 54-byte count vector."""
        return self.hand.counts

    @property
    def to_beat(self) -> Play | None:
        """The play to beat and who made it (a :class:`~guandan.game.history.Play`), ``None`` when the turn leads."""
        if self._beat is None:
            return None
        play: Play | None = self._cache.get("beat")
        if play is None:
            seat, lo, hi = self._beat
            play = self._cache["beat"] = decode_play(seat, lo, hi, self.level)
        return play

    @property
    def history(self) -> History:
        """The deal's public history (tribute and return records, plays and passes), oldest first."""
        return self._history

    @property
    def is_my_turn(self) -> bool:
        """Whether this seat is to act."""
        return self.turn == self.seat

    def replace(self, **changes: Any) -> Observation:
        """A copy with some fields changed (the constructor's keywords).

        >>> from guandan.game.deal import Deal
        >>> obs = Deal(["S3", "S9", "D5", "D6"], level=2, leader=0).observation(0)
        >>> over = obs.replace(phase=Phase.OVER, turn=None, legal_actions=())
        >>> over.phase.label, over.hand, obs.phase.label
        ('over', Cards('S3'), 'play')
        """
        fields: dict[str, Any] = {
            "seat": self.seat, "phase": self.phase, "level": self.level, "turn": self.turn,
            "card_counts": self.card_counts, "finish_order": self.finish_order, "legal_actions": self.legal_actions,
            "packed_hand": self.packed_hand, "beat": self._beat, "history": self._history, "levels": self.levels,
            "level_side": self.level_side, "deal_index": self.deal_index, "ruleset": self.ruleset,
        }  # fmt: skip
        unknown = set(changes) - set(fields)
        if unknown:
            raise TypeError(f"Observation has no field {sorted(unknown)[0]!r}")
        return type(self)(**(fields | changes))

    def __repr__(self) -> str:
        return (
            f"<Observation seat {self.seat} {self.phase.label} level {self.level.label} turn {self.turn}"
            f" counts {self.card_counts} {len(self.legal_actions)} legal actions>"
        )


_FIELDS = (
    "seat", "phase", "level", "turn", "card_counts", "finish_order", "legal_actions", "packed_hand", "_beat",
    "to_beat_seat", "_history", "levels", "level_side", "deal_index", "ruleset", "_cache",
)  # fmt: skip


class _Filling(Observation):
    """An Observation while its constructor fills it in (attributes may be set)."""

    __slots__ = ()
    __setattr__ = object.__setattr__  # type: ignore[assignment]
    # both object's: with either left to the immutable base, every store goes through a Python hook
    __delattr__ = object.__delattr__
