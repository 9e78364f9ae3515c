"""``guandan.core.rng``: SplitMix64, the one generator of the engine, and derived seeds."""

from __future__ import annotations

import pytest
from refusals import check

from guandan import (
    GuandanError,
)
from guandan.core import _core, rng
from guandan.core.rng import SplitMix64, derive_seed

# -- bad input -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: rng.SplitMix64("a"), GuandanError, "seed"),
        (lambda: rng.SplitMix64(1).below(0), GuandanError, "below"),
        (lambda: rng.SplitMix64(1).below(1.5), GuandanError, "below"),
        (lambda: rng.SplitMix64(1).choice([]), GuandanError, "below"),
        (lambda: rng.derive_seed("a", 1), GuandanError, "a seed is an int"),
    ],
)
def test_bad_seeds_and_bounds_raise(call, error, match):
    check(call, error, match)


def test_native_splitmix64_is_the_python_one_bit_for_bit():
    bounds = [0, 1, 2, 3, 7, 108, 2**63 + 5, 0, 13, 2**64 - 1] * 20
    rng = SplitMix64(987654321)
    expected = [rng.next_u64() if b == 0 else rng.below(b) for b in bounds]
    assert _core.rng_draws(987654321, bounds) == expected


def test_splitmix64_gives_the_published_reference_outputs():
    # the outputs of Vigna's reference splitmix64.c for the seed 1234567
    rng = SplitMix64(1234567)
    assert [rng.next_u64() for _ in range(5)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ]


def test_a_seed_is_taken_modulo_2_64():
    for seed in (5, -1, 2**64 - 1, 2**70 + 3):
        a, b = SplitMix64(seed), SplitMix64(seed % 2**64)
        assert a.state == seed % 2**64 and [a.next_u64() for _ in range(3)] == [b.next_u64() for _ in range(3)]


def test_below_stays_in_range_and_its_extremes_are_exact():
    rng = SplitMix64(11)
    for n in (1, 2, 3, 7, 54, 108, 2**32 + 1, 2**63 + 5):
        draws = [rng.below(n) for _ in range(200)]
        assert all(0 <= d < n for d in draws)
    assert {SplitMix64(s).below(1) for s in range(50)} == {0}
    a, b = SplitMix64(99), SplitMix64(99)
    assert [a.below(2**64) for _ in range(5)] == [b.next_u64() for _ in range(5)]  # the raw output


def test_below_is_uniform_on_a_small_range():
    rng = SplitMix64(2026)
    counts = [0] * 6
    for _ in range(60_000):
        counts[rng.below(6)] += 1
    assert all(abs(c - 10_000) < 400 for c in counts), counts  # about 4 standard deviations


def test_shuffle_is_a_seeded_permutation_and_choice_draws_below():
    items = list(range(54))
    a, b = items.copy(), items.copy()
    SplitMix64(3).shuffle(a)
    SplitMix64(3).shuffle(b)
    assert a == b and sorted(a) == items and a != items
    c = items.copy()
    SplitMix64(4).shuffle(c)
    assert c != a
    rng, twin = SplitMix64(8), SplitMix64(8)
    assert [rng.choice(items) for _ in range(10)] == [items[twin.below(54)] for _ in range(10)]


def test_derived_seeds_depend_on_the_seed_and_every_index_in_order():
    assert derive_seed(7) == 7 and derive_seed(-1) == 2**64 - 1
    seeds = {derive_seed(7, i) for i in range(1000)} | {derive_seed(8, i) for i in range(1000)}
    assert len(seeds) == 2000 and all(0 <= s < 2**64 for s in seeds)
    assert derive_seed(7, 1, 2) != derive_seed(7, 2, 1)
    assert derive_seed(7, 1, 2) == derive_seed(derive_seed(7, 1), 2)
