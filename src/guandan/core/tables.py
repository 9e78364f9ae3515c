"""Vectorized tables in C: many seeded deals stepped in one call, for the learning
environments (:mod:`guandan.rl.vector`).

:class:`NativeTables` is the compiled core's class under its public name, documented where
it is defined.

>>> import numpy as np
>>> states = np.arange(1, 3, dtype=np.uint64)            # each table's two generator states
>>> tables = NativeTables(2, states, states + 10, 2, ["external", "greedy"] * 2, (3, 2, 1), False)
>>> offsets = np.zeros(3, dtype=np.int64)
>>> tables.gather(offsets) == int(offsets[-1]), tables.moves(0).shape == (offsets[1], 2)
(True, True)
"""

from __future__ import annotations

from . import _core

__all__ = ["NativeTables"]

#: ``n`` tables of seeded deals, stepped, observed and restarted in one call each.
NativeTables = _core.NativeTables
