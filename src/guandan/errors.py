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
its own way without reading the message: ``reason`` (a :class:`Reason`, a short code naming
the rule, e.g. ``"not_held"``, ``"not_turn"``, ``"does_not_beat"``), and the fields that reason has —
``seat`` (the seat it concerns), ``turn`` (the seat to act), ``phase``, ``cards``,
``expected``, ``got``, ``to_beat``, ``to_beat_seat``… (:attr:`GuandanError.fields` lists
them). An error without a reason is about an argument, and its message is all there is.

**Arguments.** :func:`check_int`, :func:`check_number`, :func:`check_bool` and
:func:`check_choice` check an argument and raise an :class:`ArgumentError` naming it, what
it should be and what was given.

>>> deal = guandan.Deal(["S3 S4", "S9", "D5", "D6"], level=2, leader=0)
>>> try:
...     deal.play(guandan.classify("S9", 2)[0])
... except guandan.IllegalMoveError as error:
...     print(error, "|", error.reason, error.seat, error.cards)
seat 0 does not hold S9 | not_held 0 S9
"""

from __future__ import annotations

import enum
import numbers
import reprlib
from collections.abc import Collection
from typing import Any, Literal, cast, overload

__all__ = [
    "describe",
    "printable",
    "Reason",
    "is_int",
    "is_number",
    "check_int",
    "check_number",
    "check_bool",
    "check_choice",
    "GuandanError",
    "ArgumentError",
    "InvalidCardsError",
    "InvalidMoveError",
    "IllegalMoveError",
    "AmbiguousMoveError",
    "RecordError",
    "ProtocolError",
    "ModelError",
]


class Reason(enum.StrEnum):
    """Why the game refuses an action: the ``reason`` of its error. A member is its code's
    text (a ``str``): it compares equal to it, prints as it and is written as it in JSON.

    >>> Reason.NOT_HELD == "not_held", f"{Reason.NOT_TURN}", Reason("wrong_phase").name
    (True, 'not_turn', 'WRONG_PHASE')
    """

    BAD_INDEX = "bad_index"  #: a move index out of range of the legal moves
    DEAL_OVER = "deal_over"  #: the deal is over
    DOES_NOT_BEAT = "does_not_beat"  #: the play does not beat the play on the table
    DROPPED_BY_RULESET = "dropped_by_ruleset"  #: a combination the ruleset does not allow
    GAME_OVER = "game_over"  #: the match is over
    LEADS_CANNOT_PASS = "leads_cannot_pass"  #: the seat that leads may not pass
    NOT_HELD = "not_held"  #: cards the seat does not hold
    NOT_LEGAL = "not_legal"  #: a move that is not among the legal moves here
    NOT_TURN = "not_turn"  #: not the seat's turn
    RETURN_NOT_ALLOWED = "return_not_allowed"  #: a card that may not be returned
    TRIBUTE_NOT_ALLOWED = "tribute_not_allowed"  #: a card that may not be paid as tribute
    WRONG_LEVEL = "wrong_level"  #: a move made at another level than the deal's
    WRONG_PHASE = "wrong_phase"  #: an action of another phase (play, tribute, return)


class GuandanError(ValueError):
    """Base class of every error raised for bad input; raised itself (or as its subclass
    :class:`ArgumentError`) for a bad argument that is neither cards nor a move (a seed, a
    count, a seat number, a policy, a granularity, a ruleset, a range of positions).

    ``GuandanError(message, reason=..., **fields)``: the keywords become attributes (see
    the module's description; ``reason`` a :class:`Reason`, or its code's text);
    :attr:`fields` holds them, and an attribute a reason does not have is ``None``.

    Python's protocols keep their own errors: ``TypeError`` for an operand or a sequence
    index of the wrong type, ``IndexError`` for a move index out of range of a list.

    >>> error = GuandanError("seat 2 leads and cannot pass", reason="leads_cannot_pass", seat=2)
    >>> error.reason, error.seat, error.fields, error.turn
    (<Reason.LEADS_CANNOT_PASS: 'leads_cannot_pass'>, 2, {'seat': 2}, None)
    >>> str(error.in_context("deal 3")), error.in_context("deal 3").seat
    ('deal 3: seat 2 leads and cannot pass', 2)
    """

    reason: Reason | None = None

    def __init__(self, message: str = "", *, reason: Reason | str | None = None, **fields: Any) -> None:
        super().__init__(message)
        self.reason = None if reason is None else Reason(reason)
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


class ArgumentError(GuandanError):
    """A bad argument that is neither cards nor a move: a seed, a count, a seat number, a
    timeout, a flag, a choice among names (the ``check_`` functions raise it). A
    :class:`GuandanError`, so a :class:`ValueError`.

    >>> isinstance(ArgumentError("games is an int >= 1, got 0"), ValueError)
    True
    """


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


def is_int(value: object) -> bool:
    """Whether ``value`` is an integer — a Python int, an int enum or a numpy integer — and
    not a bool (which Python counts as an int, but no argument means as a number).

    >>> is_int(3), is_int(True), is_int(3.0), is_int("3")
    (True, False, False, False)
    """
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def is_number(value: object) -> bool:
    """Whether ``value`` is a real number given as an ``int`` or a ``float``, not a bool.

    >>> is_number(2), is_number(0.5), is_number(False), is_number("1")
    (True, True, False, False)
    """
    return isinstance(value, int | float) and not isinstance(value, bool)


def _range(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f" {low}..{high}"
    if low is not None:
        return f" >= {low}"
    return "" if high is None else f" <= {high}"


@overload
def check_int(
    name: str,
    value: object,
    low: int | None = None,
    high: int | None = None,
    *,
    optional: Literal[False] = False,
    expected: str | None = None,
) -> int: ...
@overload
def check_int(
    name: str, value: object, low: int | None = None, high: int | None = None, *, optional: Literal[True],
    expected: str | None = None,
) -> int | None: ...  # fmt: skip
def check_int(
    name: str,
    value: object,
    low: int | None = None,
    high: int | None = None,
    *,
    optional: bool = False,
    expected: str | None = None,
) -> int | None:
    """``value`` as an ``int`` if it is an integer (:func:`is_int`) from ``low`` to ``high``
    (each included; ``None``: no bound), or ``None`` if it is ``None`` and ``optional``; else an
    :class:`ArgumentError` naming ``name`` and saying what is expected (``expected``: in the
    caller's words) and what was given.

    >>> check_int("games", 3, 1), check_int("a seed", None, optional=True)
    (3, None)
    >>> check_int("games", 0, 1)
    Traceback (most recent call last):
    ...
    guandan.errors.ArgumentError: games is an int >= 1, got 0
    >>> check_int("the seat", True, 0, 3, expected="a seat 0..3")
    Traceback (most recent call last):
    ...
    guandan.errors.ArgumentError: the seat is a seat 0..3, got True
    """
    if value is None and optional:
        return None
    number = int(cast(numbers.Integral, value)) if is_int(value) else None
    if number is None or (low is not None and number < low) or (high is not None and number > high):
        what = expected or f"an int{_range(low, high)}"
        raise ArgumentError(f"{name} is {what}{' or None' if optional else ''}, got {describe(value)}")
    return number


def _figure(x: float) -> str:
    return str(int(x)) if float(x).is_integer() and abs(x) < 1e16 else f"{x:g}"


def _interval(above: float | None, at_least: float | None, below: float | None, at_most: float | None) -> str:
    low = f"({_figure(above)}" if above is not None else None if at_least is None else f"[{_figure(at_least)}"
    high = f"{_figure(below)})" if below is not None else None if at_most is None else f"{_figure(at_most)}]"
    if low is not None and high is not None:
        return f" in {low}, {high}"
    if low is not None:
        return f" {'>' if low[0] == '(' else '>='} {low[1:]}"
    return "" if high is None else f" {'<' if high[-1] == ')' else '<='} {high[:-1]}"


def _within(
    value: float, above: float | None, at_least: float | None, below: float | None, at_most: float | None
) -> bool:
    # each test written so that NaN fails it
    return (
        (above is None or value > above)
        and (at_least is None or value >= at_least)
        and (below is None or value < below)
        and (at_most is None or value <= at_most)
    )


@overload
def check_number(
    name: str,
    value: object,
    *,
    above: float | None = None,
    at_least: float | None = None,
    below: float | None = None,
    at_most: float | None = None,
    optional: Literal[False] = False,
    unit: str = "",
    expected: str | None = None,
) -> float: ...
@overload
def check_number(
    name: str,
    value: object,
    *,
    above: float | None = None,
    at_least: float | None = None,
    below: float | None = None,
    at_most: float | None = None,
    optional: Literal[True],
    unit: str = "",
    expected: str | None = None,
) -> float | None: ...
def check_number(
    name: str,
    value: object,
    *,
    above: float | None = None,
    at_least: float | None = None,
    below: float | None = None,
    at_most: float | None = None,
    optional: bool = False,
    unit: str = "",
    expected: str | None = None,
) -> float | None:
    """``value`` if it is a real number (an int or a float, not a bool) within the bounds
    given — greater than ``above``, at least ``at_least``, less than ``below``, at most
    ``at_most`` (``None``: no bound; NaN is within none) — or ``None`` if it is ``None`` and
    ``optional``; else an :class:`ArgumentError`. ``unit`` names what it counts, for the
    message; ``expected`` says what is expected in the caller's words instead.

    >>> check_number("act_timeout", 2.5, above=0, unit="seconds")
    2.5
    >>> check_number("act_timeout", 0, above=0, optional=True, unit="seconds")
    Traceback (most recent call last):
    ...
    guandan.errors.ArgumentError: act_timeout is a number of seconds > 0 or None, got 0
    >>> check_number("bomb_weight", 1, above=0, at_most=1), check_number("alpha", 0.05, above=0, below=1)
    (1, 0.05)
    >>> check_number("bomb_weight", float("nan"), above=0, at_most=1)
    Traceback (most recent call last):
    ...
    guandan.errors.ArgumentError: bomb_weight is a number in (0, 1], got nan
    """
    if value is None and optional:
        return None
    if not is_number(value) or not _within(value, above, at_least, below, at_most):  # type: ignore[arg-type]  # a real number here
        what = expected or f"a number{' of ' + unit if unit else ''}{_interval(above, at_least, below, at_most)}"
        raise ArgumentError(f"{name} is {what}{' or None' if optional else ''}, got {describe(value)}")
    return value  # type: ignore[return-value]  # an int or a float here


def check_bool(name: str, value: object) -> bool:
    """``value`` if it is ``True`` or ``False`` (not 0 or 1, not a string); else an
    :class:`ArgumentError`.

    >>> check_bool("plain_straight_flush", False)
    False
    >>> check_bool("plain_straight_flush", 1)
    Traceback (most recent call last):
    ...
    guandan.errors.ArgumentError: plain_straight_flush is a bool, got 1
    """
    if not isinstance(value, bool):
        raise ArgumentError(f"{name} is a bool, got {describe(value)}")
    return value


def check_choice(name: str, value: object, choices: Collection[object], expected: str | None = None) -> Any:
    """The choice ``value`` is, if it is one of ``choices`` — equal to it and of its type (a
    ``str`` subclass for a ``str``, any integer for an ``int``; a bool is not the int 1 or 0:
    ``True`` is refused where the choices are numbers) — as the member of ``choices`` it
    equals; else an :class:`ArgumentError` listing them (``expected``: in the caller's words).

    >>> check_choice("side", 1, (0, 1), "0 or 1")
    1
    >>> check_choice("granularity", "cards", ("card", "rank"))
    Traceback (most recent call last):
    ...
    guandan.errors.ArgumentError: granularity is one of 'card', 'rank', got 'cards'
    >>> check_choice("side", True, (0, 1), "0 or 1")
    Traceback (most recent call last):
    ...
    guandan.errors.ArgumentError: side is 0 or 1, got True
    """
    for choice in choices:
        try:
            alike = isinstance(value, type(choice)) or (is_int(value) and is_int(choice))  # not a 0-d array
            if alike and isinstance(value, bool) == isinstance(choice, bool) and bool(value == choice):
                return choice
        except (TypeError, ValueError):  # a value that does not compare (a numpy array)
            break
    what = expected or "one of " + ", ".join(repr(c) for c in choices)
    raise ArgumentError(f"{name} is {what}, got {describe(value)}")
