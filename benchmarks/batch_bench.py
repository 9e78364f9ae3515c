#!/usr/bin/env python3
"""The batch calls alone, for callgrind instruction counts of the batch loops (the Cython
boundary included) — the counterpart of ``core_bench.c`` one layer up.

    python benchmarks/batch_bench.py count-rank                 # one call over the corpus
    python benchmarks/batch_bench.py count-rank --api batch --positions 4 --calls 2001

``--api core`` calls ``guandan.core._core`` (``batch_count``, ``batch_rank_moves``, ...);
``--api batch`` the public ``guandan.core.batch`` functions, which add the Python door. Modes:
count-rank, count-card, rank-moves, card-moves, mask, fill-rank, fill-card (the fills
stream through one reused buffer, as ``batch.iter_legal_moves`` does).

Instructions a position in the loops (the corpus of ``tests/data/corpus.npz``, 10,000
positions; OpenBLAS's spinning threads would add noise)::

    OPENBLAS_NUM_THREADS=1 valgrind --tool=callgrind \\
        --toggle-collect='__pyx_pw_7guandan_5_core_*batch_count' \\
        python benchmarks/batch_bench.py count-rank

(callgrind's total / 10,000). Instructions a call of the Python door: run ``--calls 1``
and ``--calls 2001`` without ``--toggle-collect`` and divide the difference by 2,000.
``--packed`` packs the hands first (``batch.pack_hands``, not measured) and passes
``packed=True``.
"""

from __future__ import annotations

import argparse
import pathlib
from collections.abc import Callable

import numpy as np

from guandan.core import _core, batch
from guandan.core.movegen import Granularity

CORPUS = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "corpus.npz"
MODES = ("count-rank", "count-card", "rank-moves", "card-moves", "mask", "fill-rank", "fill-card")
#: Each mode's granularity (a dict lookup: no call of its own in the measured one).
GRANULARITY: dict[str, Granularity] = {"count-rank": "rank", "count-card": "card", "rank-moves": "rank",
                                       "card-moves": "card", "fill-rank": "rank", "fill-card": "card"}  # fmt: skip

#: A fill function of the core (``fill_rank_moves``, ``fill_card_moves``): hands, levels, beats,
#: start, end, out, offsets, packed; the next start.
Fill = Callable[[np.ndarray, np.ndarray, np.ndarray, int, int, np.ndarray, np.ndarray, bool], int]


def _fill(fn: Fill, width: int, hands: np.ndarray, levels: np.ndarray, beats: np.ndarray, packed: bool) -> None:
    n = len(hands)
    out = np.empty((1 << 16,) if width == 1 else (1 << 16, 2), np.uint64)
    offsets = np.zeros(n + 1, np.int64)
    start = 0
    while start < n:
        start = fn(hands, levels, beats, start, n, out, offsets, packed)


def call(mode: str, api: str, hands: np.ndarray, levels: np.ndarray, beats: np.ndarray, packed: bool = False) -> None:
    """One call of the mode's batch function (``packed``: the hands are packed, ``uint64 (N, 2)``)."""
    if api == "batch":
        if mode.startswith("count"):
            batch.count_moves(hands, levels, beats, GRANULARITY[mode], packed=packed)
        elif mode.endswith("moves"):
            batch.legal_moves(hands, levels, beats, GRANULARITY[mode], packed=packed)
        elif mode == "mask":
            batch.legal_mask(hands, levels, beats, packed=packed)
        else:
            for _ in batch.iter_legal_moves(hands, levels, beats, GRANULARITY[mode], packed=packed):
                pass
        return
    if mode.startswith("count"):
        _core.batch_count(hands, levels, beats, GRANULARITY[mode], packed=packed)
    elif mode == "rank-moves":
        _core.batch_rank_moves(hands, levels, beats, packed=packed)
    elif mode == "card-moves":
        _core.batch_card_moves(hands, levels, beats, packed=packed)
    elif mode == "mask":
        _core.batch_mask(hands, levels, beats, packed=packed)
    elif mode == "fill-rank":
        _fill(_core.fill_rank_moves, 1, hands, levels, beats, packed)
    else:
        _fill(_core.fill_card_moves, 2, hands, levels, beats, packed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=MODES)
    parser.add_argument("--api", choices=("core", "batch"), default="core")
    parser.add_argument("--positions", type=int, default=10_000, help="the first positions of the corpus")
    parser.add_argument("--calls", type=int, default=1)
    parser.add_argument("--packed", action="store_true", help="the hands packed first, uint64 (N, 2), packed=True")
    args = parser.parse_args()
    corpus = np.load(CORPUS)
    hands, levels, beats = (corpus[k][: args.positions].copy() for k in ("hands", "levels", "beats"))
    if args.packed:
        hands = batch.pack_hands(hands)
    for _ in range(args.calls):
        call(args.mode, args.api, hands, levels, beats, args.packed)


if __name__ == "__main__":
    main()
