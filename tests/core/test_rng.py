"""``guandan.core.rng``: SplitMix64, the one generator of the engine, and derived seeds."""

from __future__ import annotations

import pytest
from refusals import check

from guandan import (
    GuandanError,
)
from guandan.core import rng

# -- bad input -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: rng.SplitMix64("a"), GuandanError, "seed"),
        (lambda: rng.SplitMix64(1).below(0), GuandanError, "below"),
        (lambda: rng.SplitMix64(1).below(1.5), GuandanError, "below"),
        (lambda: rng.SplitMix64(1).choice([]), GuandanError, "below"),
        (lambda: rng.derive_seed("a", 1), GuandanError, "ints"),
    ],
)
def test_bad_seeds_and_bounds_raise(call, error, match):
    check(call, error, match)
