"""``guandan.records.jsonio``: moves and move lists as JSON."""

from __future__ import annotations

import pytest
from refusals import check

from guandan import (
    GuandanError,
    InvalidMoveError,
)
from guandan.records import jsonio

# -- bad input -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: jsonio.move_to_json(None), InvalidMoveError, "not a move"),
        (lambda: jsonio.moves_to_json([], 2, "x"), GuandanError, "granularity"),
    ],
)
def test_bad_moves_to_json_raise(call, error, match):
    check(call, error, match)
