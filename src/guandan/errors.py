"""The exceptions the library raises.

Every error a caller can provoke with bad input is a :class:`ValueError`, so
``except ValueError`` catches them all; the subclasses say what went wrong:

>>> import guandan
>>> try:
...     guandan.Cards.parse("S3 X9")
... except guandan.InvalidCardsError as error:
...     print(error)
bad card token 'X9' (expected a suit letter S/H/C/D or ♠♥♣♦ then a rank 2-10/T/J/Q/K/A, or SB/HR/BJ/RJ for a joker)
"""

from __future__ import annotations

__all__ = [
    "GuandanError",
    "InvalidCardsError",
    "InvalidMoveError",
    "IllegalMoveError",
    "AmbiguousMoveError",
    "RecordError",
    "ProtocolError",
]


class GuandanError(ValueError):
    """Base class of every error raised for bad input; raised itself for a bad argument that
    is neither cards nor a move (a seed, a count, a seat number, a policy, a granularity,
    a ruleset, a range of positions).

    Python's protocols keep their own errors: ``TypeError`` for an operand or a sequence
    index of the wrong type, ``IndexError`` for a move index out of range of a list."""


class InvalidCardsError(GuandanError):
    """A card string, card index or count vector is malformed or impossible."""


class InvalidMoveError(GuandanError):
    """Cards or a declaration that do not form any combination."""


class IllegalMoveError(GuandanError):
    """A well-formed move that is not legal in this position (not in hand, does not beat, wrong turn)."""


class AmbiguousMoveError(GuandanError):
    """Cards that can be declared more than one way and no declaration was given."""


class RecordError(GuandanError):
    """A game record that does not replay: malformed, or an action illegal or inconsistent
    with the state it is replayed in (the message names the action and its index)."""


class ProtocolError(GuandanError):
    """A message that does not follow the AI-competition platform's protocol: an answer
    that is not ``{"actIndex": i}`` with ``i`` in range, or an answer when none was asked."""
