"""What a deal records: its actions, its history, its result, its phase (rules §6, §7).

The values both a deal and what a seat sees of it are made of, below both
(:mod:`guandan.game.deal` and :mod:`guandan.game.observation` import them; this module imports
neither): the action records :class:`Play`, :class:`Tribute` and :class:`Return`, a
deal's :class:`History` kept packed until read, the :class:`DealResult`, the
:class:`Phase`, and the packed 108-bit hands (2 bits per face, the layout of the native
core) with the moves the core writes as two words.

>>> from guandan.core.classify import classify
>>> from guandan.core.movegen import pack_move
>>> lo, hi = pack_move(classify("S5 H2", 2)[0])
>>> print(decode_play(1, lo, hi, Rank.TWO))
seat 1: pair 5: S5 H2 (H2 as 5)
>>> history = History((Tribute(3, 53), Return(0, 3, 4)), ((1, lo, hi),), Rank.TWO)
>>> len(history), [str(record) for record in history]
(3, ['seat 3: tribute HR', 'seat 0: return S3 to seat 3', 'seat 1: pair 5: S5 H2 (H2 as 5)'])
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload

from ..core.cards import Rank, card_name
from ..core.movegen import _card_move_of
from ..core.moves import Move, MoveType
from ..core.packed import word_type

__all__ = [
    "Phase",
    "Play",
    "Tribute",
    "Return",
    "History",
    "decode_play",
    "decode_move",
]



class Phase(enum.IntEnum):
    """The phase of a deal in a match: tribute, return, play, over.

    >>> [p.label for p in Phase]
    ['tribute', 'return', 'play', 'over']
    """

    TRIBUTE = 0
    RETURN = 1
    PLAY = 2
    OVER = 3

    @property
    def label(self) -> str:
        """The name used in code, CLI and JSON."""
        return self.name.lower()


# -- action records --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Play:
    """A play or a pass by a seat: an entry of the history, and the play to beat.

    >>> from guandan import classify
    >>> print(Play(2, classify("S5 C5", 2)[0]))
    seat 2: pair 5: S5 C5
    """

    seat: int
    move: Move

    @property
    def is_pass(self) -> bool:
        """Whether this is a pass."""
        return self.move.type == MoveType.PASS

    def __str__(self) -> str:
        return f"seat {self.seat}: {self.move.format('text')}"


@dataclass(frozen=True, slots=True)
class Tribute:
    """A tribute card paid by a seat (its receiver is settled once every payer has paid).

    >>> print(Tribute(3, 53))
    seat 3: tribute HR
    """

    seat: int
    card: int

    def __str__(self) -> str:
        return f"seat {self.seat}: tribute {card_name(self.card)}"


@dataclass(frozen=True, slots=True)
class Return:
    """A card returned by a tribute receiver to the seat that paid it.

    >>> print(Return(0, 3, 4))
    seat 0: return S3 to seat 3
    """

    seat: int
    to: int
    card: int

    def __str__(self) -> str:
        return f"seat {self.seat}: return {card_name(self.card)} to seat {self.to}"


# -- packed moves ----------------------------------------------------------------------------------

def decode_move(lo: int, hi: int, level: Rank) -> Move:
    """The card-level move of two words the native core wrote, without re-checking it
    (only for words the core produced: the hot path of a deal's history and legal moves).

    >>> from guandan.core.classify import classify
    >>> from guandan.core.movegen import pack_move
    >>> print(decode_move(*pack_move(classify("S5 H2", 2)[0]), Rank.TWO))
    pair 5: S5 H2 (H2 as 5)
    """
    return _card_move_of(lo, hi, level)


def decode_play(seat: int, lo: int, hi: int, level: Rank) -> Play:
    """The :class:`Play` of a packed card-level move (``lo``, ``hi``) by a seat at a level.

    >>> from guandan.core.classify import classify
    >>> from guandan.core.movegen import pack_move
    >>> print(decode_play(1, *pack_move(classify("S5 H2", 2)[0]), Rank.TWO))
    seat 1: pair 5: S5 H2 (H2 as 5)
    """
    return Play(seat, decode_move(lo, hi, level))


class History(Sequence[Any]):
    """A deal's public history: tribute and return records, then the plays and passes.

    Plays are kept packed (``(seat, lo, hi)``) and decoded into :class:`Play` records
    when read; see the module's example.
    """

    __slots__ = ("_prefix", "_raw", "_level", "_decoded")

    def __init__(self, prefix: tuple[Any, ...], raw: tuple[tuple[int, int, int], ...], level: Rank) -> None:
        self._prefix = prefix
        self._raw = raw
        self._level = level
        self._decoded: list[Any] | None = None

    def _all(self) -> list[Any]:
        if self._decoded is None:
            self._decoded = list(self._prefix) + [decode_play(s, lo, hi, self._level) for s, lo, hi in self._raw]
        return self._decoded

    def __len__(self) -> int:
        return len(self._prefix) + len(self._raw)

    @property
    def prefix(self) -> tuple[Any, ...]:
        """The tribute and return records before the plays (none of them decoded).

        >>> History((Tribute(3, 53),), ((0, 16, 1 << 60),), Rank.TWO).prefix
        (Tribute(seat=3, card=53),)
        """
        return self._prefix

    @property
    def packed_plays(self) -> tuple[tuple[int, int, int], ...]:
        """The deal's plays and passes as the deal keeps them, ``(seat, lo, hi)`` (each move's
        two packed card-level words), oldest first; the tribute and return records are not in it.

        >>> History((), ((0, 16, 1 << 60), (1, 0, 0)), Rank.TWO).packed_plays
        ((0, 16, 1152921504606846976), (1, 0, 0))
        """
        return self._raw

    def trailing_passes(self) -> int:
        """How many passes end the history (read from the packed plays, none decoded).

        >>> History((), ((0, 16, 1 << 60), (1, 0, 0), (2, 0, 0)), Rank.TWO).trailing_passes()
        2
        """
        passes = 0
        for _seat, _lo, hi in reversed(self._raw):
            if word_type(hi):
                return passes
            passes += 1
        return passes

    @overload
    def __getitem__(self, i: int) -> Any: ...
    @overload
    def __getitem__(self, i: slice) -> list[Any]: ...
    def __getitem__(self, i: int | slice) -> Any:
        return self._all()[i]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._all())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, History):
            return self._all() == other._all()
        if isinstance(other, (list, tuple)):
            return self._all() == list(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"History({self._all()!r})"

