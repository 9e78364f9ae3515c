"""``guandan.game.scoring``: what a deal's finish order is worth, promotion and the sides' scores."""

from __future__ import annotations

import numpy as np
import pytest
from refusals import check

from guandan import (
    GuandanError,
    InvalidCardsError,
)
from guandan.game import scoring

# -- bad input -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: scoring.promote(20, 1), InvalidCardsError, "level"),
        (lambda: scoring.promote(5, -10), GuandanError, "gain"),
        (lambda: scoring.promote(5, "a"), GuandanError, "gain"),
        (lambda: scoring.side_scores(np.zeros((1, 4), np.int8), 3), GuandanError, "side"),
        (lambda: scoring.side_scores(np.zeros(4, np.int8), 0), GuandanError, r"shape \(n, 4\)"),
        (lambda: scoring.side_scores("x", 0), GuandanError, r"shape \(n, 4\)"),
        (lambda: scoring.side_scores(np.full((1, 4), 7), 0), GuandanError, "seats 0..3"),
    ],
)
def test_bad_scoring_arguments_raise(call, error, match):
    check(call, error, match)
