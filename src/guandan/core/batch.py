"""Many positions per call: counts, moves and legal-move masks over numpy arrays.

The work runs in the native core with the GIL released, so ``threads > 1`` splits a
batch over threads that really run in parallel (and callers may use their own threads).

Arrays, never converted silently (a wrong dtype, shape or layout raises
:class:`~guandan.InvalidCardsError` naming the problem):

* ``hands``: ``uint8 (N, 54)``, the count (0..2) of each face; or, with ``packed=True``,
  ``uint64 (N, 2)``, each hand already packed in the core's own layout (2 bits a face, the
  two words of a 108-bit packed hand as :class:`~guandan.Deal` and the playouts hold it;
  :func:`pack_hands` makes them from counts). Packed hands skip the packing; they are
  checked all the same (no face with 3 copies, no bits beyond the 54 faces);
* ``levels``: ``uint8 (N,)``, the level rank 2..14;
* ``beats``: ``uint64 (N,)``, the rank-level word of the play to beat
  (:data:`~guandan.core.packed.PASS_WORD` to lead), or ``None`` for all leads.

Each position's hand, level and play to beat is read once, into the core's own copy, which
alone is checked and used: the arrays may change during a call (another thread, shared
memory) without ever giving more than the result or the error of one of their contents.
Counts (``threads``, ``buffer_moves``, ``n``) are Python or numpy integers, never bools,
floats or strings; ``granularity`` is the string ``"rank"`` or ``"card"``; ``packed`` is
``True`` or ``False``.

>>> import numpy as np
>>> from guandan import Cards, batch
>>> hands = np.stack([Cards.parse("S3 C4 D4 C5 D5 H2").numpy(), Cards.parse("SB SB HR HR").numpy()])
>>> levels = np.array([2, 2], dtype=np.uint8)
>>> batch.count_moves(hands, levels).tolist(), batch.count_moves(hands, levels, granularity="card").tolist()
([14, 5], [18, 5])
>>> moves, offsets = batch.legal_moves(hands, levels)
>>> offsets.tolist(), moves.dtype
([0, 14, 19], dtype('uint64'))
>>> mask = batch.legal_mask(hands, levels)
>>> mask.shape == (2, len(batch.ACTION_SPACE)), mask.sum(axis=1).tolist()
(True, [14, 5])
>>> packed = batch.pack_hands(hands)
>>> packed.dtype, packed.shape, batch.count_moves(packed, levels, packed=True).tolist()
(dtype('uint64'), (2, 2), [14, 5])
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from ..errors import InvalidCardsError
from . import _core
from .movegen import Granularity, check_granularity

__all__ = [
    "ACTION_SPACE",
    "pack_hands",
    "count_moves",
    "legal_moves",
    "iter_legal_moves",
    "legal_mask",
    "action_indices",
    "rank_mask",
    "lead_beats",
]

#: Every rank-level move of any position at any level, sorted by packed word (2,213 words).
ACTION_SPACE: np.ndarray = _core.ACTION_SPACE

#: The index in :data:`ACTION_SPACE` of each rank-level word of an array (``intp``).
action_indices = _core.action_indices
#: Mark one position's legal rank-level moves (a packed hand, the level, the word to beat) in
#: an ``int8`` or ``uint8`` array of ``len(ACTION_SPACE)``, zeroed first; returns how many.
rank_mask = _core.rank_mask


#: A Python or numpy integer (never a bool).
Int = int | np.integer[Any]
#: The most threads one call runs on.
MAX_THREADS = 1024


def lead_beats(n: Int) -> np.ndarray:
    """A ``beats`` array meaning "every position leads".

    >>> lead_beats(2)
    array([1080863910568919040, 1080863910568919040], dtype=uint64)
    """
    return np.full(_core._int_arg(n, "n", 0, _core._MAX_ROWS), _core.PASS_MOVE, dtype=np.uint64)


def pack_hands(hands: np.ndarray) -> np.ndarray:
    """Pack count rows (``uint8 (N, 54)``) into the core's layout, ``uint64 (N, 2)``, for the
    batch calls' ``packed=True``: pack once, query many times.

    >>> from guandan import Cards
    >>> pack_hands(np.stack([Cards.parse("S2 S2 H2").numpy()])).tolist()
    [[6, 0]]
    """
    return _core.batch_pack(hands)


def _checked(
    hands: np.ndarray, levels: np.ndarray, beats: np.ndarray | None, packed: bool = False
) -> tuple[np.ndarray, int]:
    """The beats (``beats`` None: all leads) and the number of positions of a batch whose
    hands are a 2-D array; any other hands (a 0-d array, a list, ...) or a ``packed`` that
    is not a bool raise the core's error naming them. The core checks the arrays in full
    when it is called."""
    if not isinstance(hands, np.ndarray) or hands.ndim != 2 or not isinstance(packed, (bool, np.bool_)):
        _core._check_batch(hands, levels, lead_beats(0) if beats is None else beats, packed)
    n = hands.shape[0]
    return lead_beats(n) if beats is None else beats, n


def _chunks(n: int, threads: Int | None) -> list[tuple[int, int]]:
    """Split n positions into one slice per thread (threads None: as many as cores)."""
    count = (os.cpu_count() or 1) if threads is None else _core._int_arg(threads, "threads", 1, MAX_THREADS)
    count = min(count, max(n, 1))
    if count == 1:
        return [(0, n)]
    bounds = [n * t // count for t in range(count + 1)]
    return list(zip(bounds[:-1], bounds[1:]))


def count_moves(
    hands: np.ndarray,
    levels: np.ndarray,
    beats: np.ndarray | None = None,
    granularity: Granularity = "rank",
    threads: Int | None = 1,
    packed: bool = False,
) -> np.ndarray:
    """How many legal moves each position has: ``int64 (N,)``. ``threads=None``: all cores."""
    beats, n = _checked(hands, levels, beats, packed)
    granularity = check_granularity(granularity)
    chunks = _chunks(n, threads)
    if len(chunks) == 1:
        return _core.batch_count(hands, levels, beats, granularity, packed=packed)
    out = np.zeros(n, dtype=np.int64)
    with ThreadPoolExecutor(len(chunks)) as pool:
        for f in [
            pool.submit(_core.batch_count, hands, levels, beats, granularity, a, b, out, packed) for a, b in chunks
        ]:
            f.result()
    return out


def legal_moves(
    hands: np.ndarray,
    levels: np.ndarray,
    beats: np.ndarray | None = None,
    granularity: Granularity = "rank",
    threads: Int | None = 1,
    packed: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """The legal moves of each position: ``(moves, offsets)``.

    ``moves`` holds every position's moves in turn (``uint64 (M,)`` at rank granularity,
    ``uint64 (M, 2)`` at card granularity); position i's are ``moves[offsets[i]:offsets[i+1]]``.
    """
    beats, n = _checked(hands, levels, beats, packed)
    fn = _core.batch_rank_moves if check_granularity(granularity) == "rank" else _core.batch_card_moves
    chunks = _chunks(n, threads)
    if len(chunks) == 1:
        return fn(hands, levels, beats, packed=packed)
    with ThreadPoolExecutor(len(chunks)) as pool:
        parts = [f.result() for f in [pool.submit(fn, hands, levels, beats, a, b, packed) for a, b in chunks]]
    moves = np.concatenate([m for m, _ in parts])
    offsets = [np.zeros(1, dtype=np.int64)]
    base = 0
    for _, off in parts:
        offsets.append(off[1:] + base)
        base += int(off[-1])
    return moves, np.concatenate(offsets)


def iter_legal_moves(
    hands: np.ndarray,
    levels: np.ndarray,
    beats: np.ndarray | None = None,
    granularity: Granularity = "rank",
    buffer_moves: Int = 1 << 16,
    packed: bool = False,
) -> Iterator[tuple[int, int, np.ndarray, np.ndarray]]:
    """The legal moves of each position, a chunk at a time, written into one reused buffer.

    Yields ``(start, stop, moves, offsets)``: the moves of positions ``start..stop-1``, those
    of position ``start + k`` being ``moves[offsets[k]:offsets[k+1]]``. ``moves`` and
    ``offsets`` are views of buffers the next chunk overwrites: copy what you keep. No
    allocation per chunk, and the buffer stays in cache, so this is the fastest way to
    stream moves (Stockfish's fixed move list, at batch scale). The buffer grows when a
    single card-level position needs more than ``buffer_moves``.

    >>> import numpy as np
    >>> from guandan import Cards
    >>> hands = np.stack([Cards.parse("S3 C3 H2").numpy()] * 3)
    >>> levels = np.full(3, 2, dtype=np.uint8)
    >>> [(a, b, len(m)) for a, b, m, _ in iter_legal_moves(hands, levels, buffer_moves=4096)]
    [(0, 1, 5), (1, 2, 5), (2, 3, 5)]

    The arguments are checked when it is called, not when the first chunk is asked for.
    """
    beats, _ = _checked(hands, levels, beats, packed)
    _core._check_batch(hands, levels, beats, packed)  # now: the core's calls come with the first chunk
    size = _core._int_arg(buffer_moves, "buffer_moves", 1, _core._MAX_ROWS)
    granularity = check_granularity(granularity)
    if granularity == "rank":
        out = np.empty(max(size, _core.MAX_RANK_MOVES), dtype=np.uint64)
    else:
        out = np.empty((size, 2), dtype=np.uint64)
    return _stream(hands, levels, beats, granularity, out, bool(packed))


def _stream(
    hands: np.ndarray,
    levels: np.ndarray,
    beats: np.ndarray,
    granularity: Granularity,
    out: np.ndarray,
    packed: bool,
) -> Iterator[tuple[int, int, np.ndarray, np.ndarray]]:
    n = len(hands)
    fill = _core.fill_rank_moves if granularity == "rank" else _core.fill_card_moves
    offsets = np.zeros(n + 1, dtype=np.int64)
    start = 0
    while start < n:
        try:
            stop = fill(hands, levels, beats, start, n, out, offsets, packed)
        except InvalidCardsError as error:
            if granularity != "card" or "alone has" not in str(error):
                raise
            one = slice(start, start + 1)
            need = int(_core.batch_count(hands[one], levels[one], beats[one], "card", packed=packed)[0])
            # at least doubled: the position is read again here, so if the arrays change
            # meanwhile (another thread) the buffer still grows every round, and the loop ends
            out = np.empty((max(need, 2 * len(out)), 2), dtype=np.uint64)
            continue
        yield start, stop, out[: offsets[stop - start]], offsets[: stop - start + 1]
        start = stop


def legal_mask(
    hands: np.ndarray,
    levels: np.ndarray,
    beats: np.ndarray | None = None,
    threads: Int | None = 1,
    packed: bool = False,
) -> np.ndarray:
    """Legal-move masks over :data:`ACTION_SPACE` (rank granularity): ``bool (N, 2213)``."""
    beats, n = _checked(hands, levels, beats, packed)
    chunks = _chunks(n, threads)
    if len(chunks) == 1:
        return _core.batch_mask(hands, levels, beats, packed=packed)
    out = np.zeros((n, len(ACTION_SPACE)), dtype=np.bool_)
    with ThreadPoolExecutor(len(chunks)) as pool:
        for f in [pool.submit(_core.batch_mask, hands, levels, beats, a, b, out, packed) for a, b in chunks]:
            f.result()
    return out
