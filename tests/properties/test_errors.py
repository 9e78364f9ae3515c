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
    named = [getattr(errors, name) for name in errors.__all__]
    classes = [c for c in named if isinstance(c, type) and issubclass(c, BaseException)]
    assert errors.Reason in named and guandan.Reason is errors.Reason  # the one class that is not an error
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


# -- the argument checks ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: errors.check_int("games", 0, 1), "games is an int >= 1, got 0"),
        (lambda: errors.check_int("games", True, 1), "games is an int >= 1, got True"),
        (lambda: errors.check_int("games", 2.0, 1), "games is an int >= 1, got 2.0"),
        (lambda: errors.check_int("cards", 28, 1, 27), "cards is an int 1..27, got 28"),
        (lambda: errors.check_int("depth", 6, high=5), "depth is an int <= 5, got 6"),
        (lambda: errors.check_int("a seed", "7", optional=True), "a seed is an int or None, got '7'"),
        (lambda: errors.check_int("x", 9, 0, 3, expected="a seat 0..3"), "x is a seat 0..3, got 9"),
        (lambda: errors.check_number("t", 0, above=0, unit="seconds"), "t is a number of seconds > 0, got 0"),
        (lambda: errors.check_number("t", False), "t is a number, got False"),
        (lambda: errors.check_number("t", "1", optional=True), "t is a number or None, got '1'"),
        (lambda: errors.check_number("w", 1.5, above=0, at_most=1), "w is a number in (0, 1], got 1.5"),
        (lambda: errors.check_number("a", 1, above=0, below=1), "a is a number in (0, 1), got 1"),
        (lambda: errors.check_number("e", -900, at_least=-800, at_most=800), "e is a number in [-800, 800], got -900"),
        (
            lambda: errors.check_number("t", 2e9, at_most=1e9, unit="ms"),
            "t is a number of ms <= 1000000000, got 2000000000.0",
        ),
        (lambda: errors.check_number("q", -1, at_least=0), "q is a number >= 0, got -1"),
        (lambda: errors.check_number("q", float("nan"), below=5), "q is a number < 5, got nan"),
        (lambda: errors.check_number("q", 7, at_most=1, expected="a share"), "q is a share, got 7"),
        (lambda: errors.check_bool("flag", 0), "flag is a bool, got 0"),
        (lambda: errors.check_bool("flag", "yes"), "flag is a bool, got 'yes'"),
        (lambda: errors.check_choice("side", 2, (0, 1), "0 or 1"), "side is 0 or 1, got 2"),
        (lambda: errors.check_choice("side", False, (0, 1)), "side is one of 0, 1, got False"),
        (lambda: errors.check_choice("kind", [1], ("deal", "match")), "kind is one of 'deal', 'match', got [1]"),
        (lambda: errors.check_int("n", "x" * 500), "n is an int, got 'xxxxxxxx"),
    ],
)
def test_a_bad_argument_is_an_argument_error_naming_it_what_it_should_be_and_what_was_given(call, message):
    with pytest.raises(errors.ArgumentError) as raised:
        call()
    assert str(raised.value).startswith(message) and len(str(raised.value)) < 200
    assert isinstance(raised.value, GuandanError) and isinstance(raised.value, ValueError)
    assert raised.value.reason is None


def test_a_good_argument_is_returned_as_what_it_is():
    import numpy as np

    assert errors.check_int("n", np.int64(5), 0, 5) == 5 and type(errors.check_int("n", np.int64(5))) is int
    assert errors.check_int("n", None, optional=True) is None
    assert errors.check_number("t", 0.5, above=0) == 0.5 and errors.check_number("t", None, optional=True) is None
    assert (
        errors.check_number("w", 1, above=0, at_most=1) == 1 and errors.check_number("e", -800, at_least=-800) == -800
    )
    assert errors.check_number("x", float("inf")) == float("inf")  # no bound: any real number
    assert errors.check_bool("b", True) is True
    assert errors.check_choice("g", "rank", ("card", "rank")) == "rank"
    assert errors.check_choice("flag", True, (True, False)) is True
    assert type(errors.check_choice("side", np.int64(1), (0, 1))) is int  # the member matched
    assert type(errors.check_choice("g", np.str_("rank"), ("card", "rank"))) is str
    with pytest.raises(errors.ArgumentError, match="granularity is"):
        errors.check_choice("granularity", np.array("rank"), ("card", "rank"))  # equal, but not a str
    assert not errors.is_int(True) and errors.is_int(np.uint8(3)) and not errors.is_int(np.float64(3))


def test_a_reason_is_its_code_s_text_in_comparisons_and_json():
    import json

    error = IllegalMoveError("not seat 2's turn", reason="not_turn", seat=2)
    assert error.reason is errors.Reason.NOT_TURN and error.reason == "not_turn"
    assert json.dumps({"reason": error.reason}) == '{"reason": "not_turn"}'
    assert error.in_context("deal 3").reason is errors.Reason.NOT_TURN
    with pytest.raises(ValueError):
        GuandanError("x", reason="no_such_reason")
