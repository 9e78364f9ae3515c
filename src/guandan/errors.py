"""The exceptions the library raises.

Every error a caller can provoke with bad input is a :class:`ValueError`, so
``except ValueError`` catches them all; the subclasses say what went wrong:

>>> import guandan
>>> try:
...     guandan.Cards.parse("S3 X9")
... except guandan.InvalidCardsError as error:
...     print(error)
bad card token 'X9' (expected a suit letter S/H/C/D or ♠♥♣♦ then a rank 2-10/T/J/Q/K/A, or SB/HR/BJ/RJ for a joker)

**Fields.** Besides its English message, an error of the game carries what it is about as
attributes, so that a program (the terminal table, a web page, a bot's log) can phrase it
its own way without reading the message: ``reason`` (a short code naming the rule, e.g.
``"not_held"``, ``"not_turn"``, ``"does_not_beat"``), and the fields that reason has —
``seat`` (the seat it concerns), ``turn`` (the seat to act), ``phase``, ``cards``,
``expected``, ``got``, ``to_beat``, ``to_beat_seat``… (:attr:`GuandanError.fields` lists
them). An error without a reason is about an argument, and its message is all there is.

>>> deal = guandan.Deal(["S3 S4", "S9", "D5", "D6"], level=2, leader=0)
>>> try:
...     deal.play(guandan.classify("S9", 2)[0])
... except guandan.IllegalMoveError as error:
...     print(error, "|", error.reason, error.seat, error.cards)
seat 0 does not hold S9 | not_held 0 S9
"""

from __future__ import annotations

import reprlib
from typing import Any

__all__ = [
    "describe",
    "printable",
    "GuandanError",
    "InvalidCardsError",
    "InvalidMoveError",
    "IllegalMoveError",
    "AmbiguousMoveError",
    "RecordError",
    "ProtocolError",
    "ModelError",
]


class GuandanError(ValueError):
    """Base class of every error raised for bad input; raised itself for a bad argument that
    is neither cards nor a move (a seed, a count, a seat number, a policy, a granularity,
    a ruleset, a range of positions).

    ``GuandanError(message, reason=..., **fields)``: the keywords become attributes (see
    the module's description); :attr:`fields` holds them, and an attribute a reason does
    not have is ``None``.

    Python's protocols keep their own errors: ``TypeError`` for an operand or a sequence
    index of the wrong type, ``IndexError`` for a move index out of range of a list.

    >>> error = GuandanError("seat 2 leads and cannot pass", reason="leads_cannot_pass", seat=2)
    >>> error.reason, error.seat, error.fields, error.turn
    ('leads_cannot_pass', 2, {'seat': 2}, None)
    >>> str(error.in_context("deal 3")), error.in_context("deal 3").seat
    ('deal 3: seat 2 leads and cannot pass', 2)
    """

    reason: str | None = None

    def __init__(self, message: str = "", *, reason: str | None = None, **fields: Any) -> None:
        super().__init__(message)
        self.reason = reason
        self.fields: dict[str, Any] = fields
        for name, value in fields.items():
            setattr(self, name, value)

    def __getattr__(self, name: str) -> Any:
        # a field the error's reason does not have (read only for plain names: never a dunder)
        if name.startswith("__") or name in ("fields", "reason"):
            raise AttributeError(name)
        return None

    def in_context(self, where: str) -> GuandanError:
        """The same error (type, reason, fields) with ``where`` before its message: how a
        caller says where it happened (``deal 3``, ``task 7 (seed 99)``)."""
        again = type(self)(f"{where}: {self}", reason=self.reason, **self.fields)
        return again


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


class ModelError(GuandanError):
    """A network model that cannot be played: a file that is missing or not a model, a
    runtime that is not installed, an input or output of the wrong shape or type (the
    message names what the model has and what an agent needs)."""


class ProtocolError(GuandanError):
    """A message that does not follow the AI-competition platform's protocol: an answer
    that is not ``{"actIndex": i}`` with ``i`` in range, or an answer when none was asked."""


class _Short(reprlib.Repr):
    """``reprlib``'s bounded repr (which already survives a failing repr), also for ints too long to print."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxstring = self.maxother = 60

    def repr_int(self, x: int, level: int) -> str:
        return repr(x) if x.bit_length() <= 256 else f"<int of {x.bit_length()} bits>"


_SHORT = _Short()


def describe(value: object, limit: int = 80) -> str:
    """A value given as input, as short text for an error message: bounded in length and in
    nesting whatever the value (a list nested a million deep, a huge int, a failing repr).

    >>> describe([[[[[1]]]]]), describe(10**400), describe("x" * 100, limit=20)
    ('[[[[...]]]]', '<int of 1329 bits>', "'xxxxxxxxxxxxxxxx...")
    """
    text = _SHORT.repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def printable(text: object) -> str:
    """Text that came from outside (a bot's name, a close reason, a server's message) made
    safe to print for a person: every character that is not printable — control characters
    such as a newline, an escape or a bell, format characters such as a right-to-left
    override, line and paragraph separators — is written as its Python escape (``\\n``,
    ``\\x1b``, ``\\u202e``), so that it cannot forge a log line, move the cursor or clear
    the screen; everything else (spaces, accents, Chinese) stays as it is. Idempotent.
    Machine-readable output (the JSON logs and records) keeps the exact text: this is for
    what a person reads.

    >>> printable("bot 1"), printable("名字")
    ('bot 1', '名字')
    >>> print(printable("evil\\n12:00:00 table 0 aborted\\x1b[2J\\x07\\x00"))
    evil\\n12:00:00 table 0 aborted\\x1b[2J\\x07\\x00
    """
    text = text if isinstance(text, str) else str(text)
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
