"""``guandan.bots.loop``: the one play loop, ``play_out``, that drives a deal or a match with four agents."""

from __future__ import annotations

import pytest
from refusals import check

from guandan import (
    Deal,
    GuandanError,
)
from guandan.bots import agents, loop

# -- bad input -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: loop.play_out(Deal.new(1), [agents.GreedyAgent()] * 3), GuandanError, "four agents"),
        (lambda: loop.play_out(Deal.new(1), [None] * 4), GuandanError, "act"),
    ],
)
def test_bad_play_loop_arguments_raise(call, error, match):
    check(call, error, match)
