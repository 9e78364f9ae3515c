"""Bad input, everywhere, gets a clear error of the hierarchy.

Every public entry point that can be fed bad input raises an error of ``guandan.errors``
(all ``ValueError``) naming the problem: never a crash, never a bare ``TypeError`` /
``IndexError`` / ``KeyError`` / ``OverflowError`` from deep inside, never a silent
conversion. A rejected action leaves the state exactly as it was. (Sequence indexing and
the multiset operators keep Python's protocols: ``IndexError`` for a move index out of
range, ``TypeError`` for an index or operand of the wrong type.)

Each module's bad-input cases live in its own test file, in a section "bad input", all
checked by ``refusals.check`` (the error named, its message, and the hierarchy); this file
keeps what holds across every module: the hierarchy itself, the fields, and the bounded
description of a bad value in a message.
"""

from __future__ import annotations

import pytest
from refusals import check

import guandan
from guandan import (
    AmbiguousMoveError,
    Cards,
    GuandanError,
    IllegalMoveError,
    InvalidCardsError,
    InvalidMoveError,
    RecordError,
    errors,
)


def test_the_hierarchy_is_under_value_error():
    for cls in (InvalidCardsError, InvalidMoveError, IllegalMoveError, AmbiguousMoveError, RecordError):
        assert issubclass(cls, GuandanError) and issubclass(cls, ValueError)


def test_every_error_the_library_defines_is_of_the_hierarchy_and_exported():
    classes = [getattr(errors, name) for name in errors.__all__ if isinstance(getattr(errors, name), type)]
    assert {c.__name__ for c in classes} >= {"GuandanError", "ProtocolError", "RecordError"}
    for cls in classes:
        assert issubclass(cls, errors.GuandanError) and issubclass(cls, ValueError), cls
        assert getattr(guandan, cls.__name__) is cls, f"{cls.__name__} is not importable from guandan"


def test_an_error_keeps_its_fields_and_none_for_the_others():
    error = IllegalMoveError("seat 1 does not hold S9", reason="not_held", seat=1, cards=Cards.parse("S9"))
    assert (error.reason, error.seat, str(error.cards), error.turn) == ("not_held", 1, "S9", None)
    assert error.fields == {"seat": 1, "cards": Cards.parse("S9")} and str(error) == "seat 1 does not hold S9"
    assert GuandanError("bad seed").reason is None and GuandanError("bad seed").fields == {}


@pytest.mark.parametrize(
    "value, limit",
    [("x" * 10_000, 80), (1 << 20_000, 80), ([[[[[[1]]]]]] * 1000, 80), (list(range(10**5)), 40), ("short", 80)],
    ids=["long text", "huge int", "deep and long list", "long list", "short text"],
)
def test_a_bad_value_is_described_in_bounded_text(value, limit):
    text = errors.describe(value, limit)
    assert 0 < len(text) <= limit
    assert text.startswith("<int of") or "..." in text or text == repr(value)


def test_a_value_whose_repr_fails_is_still_described():
    class Broken:
        def __repr__(self):
            raise RuntimeError("no repr")

    text = errors.describe(Broken())
    assert "Broken" in text and len(text) <= 80
    check(lambda: Cards.parse(None), InvalidCardsError, "must be given as a string")
