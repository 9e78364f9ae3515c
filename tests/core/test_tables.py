"""guandan.core.tables: the vectorized tables under their public name."""

import numpy as np
import pytest

from guandan import GuandanError
from guandan.core import _core, tables


def test_the_class_is_the_native_one_and_its_tables_deal_legal_positions():
    assert tables.NativeTables is _core.NativeTables
    states = np.arange(1, 4, dtype=np.uint64)
    native = tables.NativeTables(3, states, states + 7, 2, ["external", "random"] * 2, (3, 2, 1), False)
    offsets = np.zeros(4, dtype=np.int64)
    total = native.gather(offsets)
    assert native.n == 3 and total == int(offsets[-1]) > 0
    assert all(native.moves(i).shape == (int(offsets[i + 1] - offsets[i]), 2) for i in range(3))


def test_a_table_needs_a_seat_for_the_caller():
    states = np.arange(1, 3, dtype=np.uint64)
    with pytest.raises(GuandanError, match="external"):
        tables.NativeTables(2, states, states, 2, ["random"] * 4, (3, 2, 1), False)
