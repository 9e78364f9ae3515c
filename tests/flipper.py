"""A second process that flips an array in shared memory between two contents as fast as it
can (for ``test_read_once.py``: the native core must read each input element once).

It runs in a process of its own (``multiprocessing``, spawn), attaches to a
``multiprocessing.shared_memory`` block by name, signals ``ready``, then copies ``a`` and
``b`` over the array in turn until ``stop`` is set or ``seconds`` have passed, and stores
how many copies it made in ``flips``.
"""

from __future__ import annotations

import time
from multiprocessing import shared_memory
from typing import Any

import numpy as np


def flip(
    name: str,
    dtype: str,
    shape: tuple[int, ...],
    a: bytes,
    b: bytes,
    ready: Any,
    stop: Any,
    seconds: float,
    flips: Any,
) -> None:
    """Flip the shared array between ``a`` and ``b`` (its bytes) until told to stop."""
    shm = shared_memory.SharedMemory(name=name)
    try:
        arr = np.ndarray(shape, dtype=dtype, buffer=shm.buf)
        first = np.frombuffer(a, dtype=dtype).reshape(shape)
        second = np.frombuffer(b, dtype=dtype).reshape(shape)
        count = 0
        ready.set()
        deadline = time.monotonic() + seconds
        while not stop.is_set() and time.monotonic() < deadline:
            for _ in range(500):
                np.copyto(arr, first)
                np.copyto(arr, second)
            count += 1000
        np.copyto(arr, first)
        flips.value = count
        del arr
    finally:
        shm.close()
