"""``guandan.game.tribute``: who pays tribute, the cards allowed to be paid and returned."""

from __future__ import annotations

import pytest
from refusals import check

from guandan import (
    GuandanError,
    InvalidCardsError,
)
from guandan.game import tribute

# -- bad input -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: tribute.tribute_choices(b"", 2), InvalidCardsError, "count vector"),
        (lambda: tribute.tribute_choices(None, 2), InvalidCardsError, "count vector"),
        (lambda: tribute.return_choices(bytes(54), 2, "x"), GuandanError, "return rule"),
    ],
)
def test_bad_tribute_arguments_raise(call, error, match):
    check(call, error, match)
