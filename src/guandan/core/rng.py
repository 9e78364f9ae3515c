"""Seeded randomness that is identical on every platform and every version.

Deals, opening leaders, agents' choices and simulation tasks draw from
:class:`SplitMix64`, a 64-bit generator whose whole algorithm is written here
(and again, bit for bit, in the native core's playouts), so a seed means the
same deal everywhere. Python's :mod:`random` and numpy's ``Generator`` methods
do not promise that across versions.

>>> rng = SplitMix64(2026)
>>> rng.next_u64()
15824617304438902051
>>> [rng.below(6) for _ in range(5)]
[2, 4, 2, 4, 4]
>>> derive_seed(7, 0) != derive_seed(7, 1)
True

:func:`rng_draws` makes a run of ``below`` draws natively (a deal's shuffle is 108 of them):

>>> rng = SplitMix64(2026)
>>> rng_draws(2026, [6, 6, 6]) == [rng.below(6) for _ in range(3)]
True
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

from ..errors import check_int
from . import _core

__all__ = ["SplitMix64", "derive_seed", "MASK64", "rng_draws"]

MASK64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15

T = TypeVar("T")


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


class SplitMix64:
    """Steele, Lea and Flood's SplitMix64: a 64-bit state advanced by a constant, then mixed.

    ``below(n)`` draws uniformly from ``range(n)`` without bias (Lemire's method).
    """

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = check_int("a seed", seed) & MASK64

    def next_u64(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + _GAMMA) & MASK64
        return _mix(self.state)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``, ``n`` from 1 to 2**64."""
        if type(n) is not int or not 1 <= n <= 1 << 64:  # the common case checked inline: this is hot
            n = check_int("below(n)'s n", n, 1, 1 << 64, expected="an int 1 <= n <= 2**64")
        product = self.next_u64() * n
        low = product & MASK64
        if low < n:
            threshold = ((1 << 64) - n) % n
            while low < threshold:
                product = self.next_u64() * n
                low = product & MASK64
        return product >> 64

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle in place (Fisher–Yates, from the end)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: list[T]) -> T:
        """One item, uniformly."""
        return items[self.below(len(items))]


def derive_seed(seed: int, *path: int) -> int:
    """A 64-bit seed for a sub-task: the seed mixed with each index of ``path`` in turn.

    Task ``i`` of a run seeded ``s`` uses ``derive_seed(s, i)``, whatever the number of
    workers, so results do not depend on how the work is split.
    """
    seed = check_int("a seed", seed)
    path = tuple(check_int("a seed's path", index) for index in path)
    z = seed & MASK64
    for index in path:
        z = _mix((z ^ _mix((index + _GAMMA) & MASK64)) & MASK64)
    return z


#: ``[SplitMix64(seed).below(b) for b in bounds]`` (one generator, drawn in order), made by
#: the native core's copy of the generator: the same numbers, faster (a deal's shuffle).
rng_draws = _core.rng_draws
