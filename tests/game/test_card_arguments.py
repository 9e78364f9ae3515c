"""Every door that takes one card (a tribute, a return, an action's card) checks it with the one
validator, :func:`guandan.core.cards.as_card`: a card index as a Python or numpy int, or a
card token; a bool, a float or an index out of range is refused alike."""

from __future__ import annotations

import numpy as np
import pytest

from guandan import InvalidCardsError, Match
from guandan.core.cards import as_card
from guandan.platform.actions import back_action, tribute_action


def tribute_match() -> Match:
    return Match(seed=3, levels=(5, 9), previous=(1, 0, 3, 2), hands=[["S3 HR", "D4 HR", "S8 SA DA", "C5"]])


@pytest.mark.parametrize("card", [51, np.int64(51), np.uint8(51), "DA", "♦A", "da"], ids=repr)
def test_a_match_takes_a_tribute_card_as_any_int_or_a_token(card):
    match = tribute_match()
    assert match.can_pay_tribute(card)
    assert match.pay_tribute(card).card == 51


@pytest.mark.parametrize("card", [True, 51.0, -1, 54, 2**70, "XX", None, [51]], ids=repr)
def test_every_card_door_refuses_the_same_values(card):
    with pytest.raises(InvalidCardsError):
        as_card(card)
    match = tribute_match()
    before = match.snapshot()
    with pytest.raises(InvalidCardsError):
        match.pay_tribute(card)
    assert match.snapshot() == before and not match.can_pay_tribute(card)
    with pytest.raises(InvalidCardsError):
        tribute_action(card)
    with pytest.raises(InvalidCardsError):
        back_action(card)


def test_a_return_card_is_checked_the_same_way():
    match = tribute_match()
    match.pay_tribute("DA")
    assert match.can_return_card(np.int16(as_card("D4"))) and not match.can_return_card(np.float64(9))
    assert match.return_card(np.int16(as_card("D4"))).card == as_card("D4")
