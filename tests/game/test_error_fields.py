"""Errors of the game carry fields (reason, seat, cards, …) and the terminal phrases them
from those fields, never from the English message."""

from __future__ import annotations

import pickle

import pytest

from guandan import Cards, Deal, IllegalMoveError, Match, Move, Phase, classify
from guandan.errors import GuandanError
from guandan.game.render import phrase_error


def caught(call):
    with pytest.raises(IllegalMoveError) as info:
        call()
    return info.value


def test_a_play_refused_names_its_reason_and_fields():
    deal = Deal(["S3 S4", "S9", "D5", "D6"], level=2, leader=0)
    error = caught(lambda: deal.play(classify("S9", 2)[0]))
    assert (error.reason, error.seat, error.cards) == ("not_held", 0, Cards.parse("S9"))
    error = caught(lambda: deal.play(Move.pass_(2)))
    assert (error.reason, error.seat) == ("leads_cannot_pass", 0)
    error = caught(lambda: deal.play(classify("S3", 2)[0], seat=2))
    assert (error.reason, error.seat, error.turn, error.phase) == ("not_turn", 2, 0, Phase.PLAY)
    error = caught(lambda: deal.play(classify("S3", 3)[0]))
    assert (error.reason, error.seat, error.expected, error.got) == ("wrong_level", 0, 2, 3)


def test_a_response_that_does_not_beat_names_the_play_to_beat_and_its_seat():
    deal = Deal(["S3 S9", "S4 S5", "D5", "D6"], level=2, leader=0)
    deal.play(classify("S9", 2)[0])
    error = caught(lambda: deal.play(classify("S4", 2)[0]))
    assert error.reason == "does_not_beat" and error.seat == 1 and error.to_beat_seat == 0
    assert str(error.to_beat) == "single 9: S9" and str(error.move) == "single 4: S4"


def test_tribute_and_return_refusals_name_what_was_allowed():
    match = Match(seed=3, levels=(5, 9), previous=(1, 0, 3, 2), hands=[["S3 HR", "D4 HR", "S8 SA DA", "C5"]])
    error = caught(lambda: match.pay_tribute("S8", 2))
    assert error.reason == "tribute_not_allowed" and error.seat == 2 and set(error.expected) == {48, 51}
    error = caught(lambda: match.pay_tribute("SA", 1))
    assert (error.reason, error.seat, error.turn, error.phase) == ("not_turn", 1, 2, Phase.TRIBUTE)
    match.pay_tribute("DA")
    error = caught(lambda: match.return_card("HR"))
    assert error.reason == "return_not_allowed" and error.seat == 1 and error.rule == "low"


def test_fields_survive_pickling_and_context():
    error = IllegalMoveError("seat 0 does not hold S9", reason="not_held", seat=0, cards=Cards.parse("S9"))
    again = pickle.loads(pickle.dumps(error))
    assert (again.reason, again.seat, again.cards, str(again)) == ("not_held", 0, Cards.parse("S9"), str(error))
    where = error.in_context("deal 2")
    assert type(where) is IllegalMoveError and where.fields == error.fields and str(where).startswith("deal 2: ")
    assert GuandanError("a bad seed").reason is None and GuandanError("x").seat is None


@pytest.mark.parametrize(
    "fields, viewer, text",
    [
        ({"reason": "not_held", "seat": 0, "cards": Cards.parse("SA")}, 0, "you do not hold SA"),
        ({"reason": "not_held", "seat": 3, "cards": Cards.parse("SA")}, 0, "Left (seat 3) does not hold SA"),
        ({"reason": "leads_cannot_pass", "seat": 1}, 1, "you lead and cannot pass"),
        ({"reason": "not_turn", "seat": 1, "turn": 2, "phase": Phase.TRIBUTE}, 1,
         "not your turn: Right (seat 2) pays tribute now"),
        ({"reason": "tribute_not_allowed", "seat": 2, "expected": (51,), "got": 28}, 2,
         "you must pay your highest card except a wild: DA, not S9"),
    ],
)
def test_the_terminal_phrases_errors_from_their_fields_not_their_message(fields, viewer, text):
    # a message reworded (here: none at all) phrases the same: the fields decide
    assert phrase_error(IllegalMoveError("reworded", **fields), viewer) == text
    assert phrase_error(IllegalMoveError("", **fields), viewer) == text


def test_an_error_without_a_reason_is_its_message():
    assert phrase_error(GuandanError("bad card token 'XX'"), 0) == "bad card token 'XX'"
