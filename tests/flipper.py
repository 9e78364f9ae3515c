"""A second process that flips an array in shared memory between two contents as fast as it
can (for ``test_read_once.py``: the native core must read each input element once).

It runs in a process of its own (``multiprocessing``, spawn), attaches to a
``multiprocessing.shared_memory`` block by name, signals ``ready``, then writes ``a`` and
``b`` over the array in turn until ``stop`` is set or ``seconds`` have passed, and stores
how many times it did in ``flips``.

Only the elements where ``a`` and ``b`` differ are written, one by one through a typed
``memoryview``: each is one aligned store, so no element is ever seen half written (numpy's
``copyto`` goes through ``memmove``, which may copy a word in parts — ASan's interceptor,
preloaded by ``tools/sanitize.sh``, does — and a torn word is the content of neither).
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
        first = np.frombuffer(a, dtype=dtype)
        second = np.frombuffer(b, dtype=dtype)
        assert np.dtype(dtype).isnative and first.size == int(np.prod(shape))
        where = np.flatnonzero(first != second).tolist()
        one, other = first[where].tolist(), second[where].tolist()
        words = shm.buf.cast(np.dtype(dtype).char)  # the block is page-aligned: aligned stores
        count = 0
        ready.set()
        deadline = time.monotonic() + seconds
        while not stop.is_set() and time.monotonic() < deadline:
            for _ in range(500):
                for i, x in zip(where, one):
                    words[i] = x
                for i, x in zip(where, other):
                    words[i] = x
            count += 1000
        for i, x in zip(where, one):
            words[i] = x
        flips.value = count
        words.release()
    finally:
        shm.close()
