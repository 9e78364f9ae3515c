#!/usr/bin/env python3
"""Move-generation throughput: native core vs the pure-Python reference, on one corpus, in one run.

    python benchmarks/throughput.py                      # the opening corpus (27-card hands)
    python benchmarks/throughput.py --kind play          # positions from whole deals
    python benchmarks/throughput.py --corpus tests/data/corpus.npz --json

For lead, response and mixed positions, at rank and card granularity, it measures:

* ``enumerate``: every legal move written out. ``stream`` writes each chunk of positions
  into one reused buffer (``guandan.core.batch.iter_legal_moves``: the caller-provided buffer
  of the core's API); ``arrays`` returns all moves as one new array
  (``guandan.core.batch.legal_moves``), paying for fresh memory.
* ``count``: the number of legal moves only (``guandan.core.batch.count_moves``).

each on one thread and on all cores (the batch API releases the GIL, so threads run in
parallel), and the reference generator (``guandan.core.reference.generate_moves``) on a sample
of the same positions, with the native/reference ratio measured on that same sample.
Figures are positions per second and moves per second; the best of ``--repeat`` runs.

``--json`` prints one object with these stable keys::

    {"corpus": {"kind", "positions", "leads", "responses", "cards_per_hand", "seed", "policy", "file"},
     "machine": {"cpus", "python", "numpy", "guandan", "threads"},
     "native": {SUBSET: {GRANULARITY: {
         "moves_per_position": float,
         "stream": {"1": RATE, "all": RATE}, "arrays": {"1": RATE, "all": RATE},
         "count": {"1": RATE, "all": RATE}}}},
     "reference": {SUBSET: {GRANULARITY: {"sample": int, "reference": RATE, "native": RATE, "ratio": float}}}}

with SUBSET one of ``lead``, ``response``, ``mixed``; GRANULARITY ``rank`` or ``card``;
RATE ``{"positions_per_s": float, "moves_per_s": float}``.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import platform
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

import guandan
from guandan import Cards
from guandan.core import batch
from guandan.core.movegen import Granularity, unpack_rank_move
from guandan.core.packed import PASS_WORD
from guandan.core.reference import generate_moves

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from make_corpus import make_corpus  # type: ignore[import-not-found]  # noqa: E402  (tools/: not on mypy's path)

SUBSETS = ("lead", "response", "mixed")
GRANULARITIES: tuple[Granularity, ...] = ("rank", "card")


def best_time(fn: Callable[..., object], repeat: int) -> float:
    """The best of ``repeat`` timed calls of ``fn``, called without arguments (a lambda's
    defaults bind a loop's values)."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def stream(h: np.ndarray, lv: np.ndarray, b: np.ndarray, granularity: Granularity, threads: int) -> int:
    """Stream every position's moves through reused buffers, on `threads` threads; total moves."""

    def run(a: int, z: int) -> int:
        total = 0
        for _, _, moves, _ in batch.iter_legal_moves(h[a:z], lv[a:z], b[a:z], granularity):
            total += len(moves)
        return total

    if threads == 1:
        return run(0, len(h))
    bounds = [len(h) * t // threads for t in range(threads + 1)]
    with ThreadPoolExecutor(threads) as pool:
        return sum(pool.map(run, bounds[:-1], bounds[1:]))


def rate(positions: int, moves: int, seconds: float) -> dict[str, float]:
    return {"positions_per_s": positions / seconds, "moves_per_s": moves / seconds}


def measure_native(
    h: np.ndarray, lv: np.ndarray, b: np.ndarray, granularity: Granularity, threads: int, repeat: int
) -> dict[str, Any]:
    n = len(h)
    moves = int(batch.count_moves(h, lv, b, granularity).sum())
    out: dict[str, Any] = {"moves_per_position": moves / n}
    for label, t in (("1", 1), ("all", threads)):
        calls = {
            "stream": lambda t=t: stream(h, lv, b, granularity, t),
            "arrays": lambda t=t: batch.legal_moves(h, lv, b, granularity, threads=t),
            "count": lambda t=t: batch.count_moves(h, lv, b, granularity, threads=t),
        }
        for mode, call in calls.items():
            out.setdefault(mode, {})[label] = rate(n, moves, best_time(call, repeat))
    return out


def measure_reference(
    h: np.ndarray, lv: np.ndarray, b: np.ndarray, granularity: Granularity, sample: int, repeat: int
) -> dict[str, Any]:
    idx = np.arange(min(sample, len(h)))
    hs, ls, bs = h[idx], lv[idx], b[idx]
    positions = [
        (
            Cards(hs[i].tobytes()),
            int(ls[i]),
            None if int(bs[i]) == PASS_WORD else unpack_rank_move(int(bs[i]), int(ls[i])),
        )
        for i in range(len(idx))
    ]

    def run_reference() -> int:
        return sum(len(generate_moves(hand, lvl, beat, granularity)) for hand, lvl, beat in positions)

    t0 = time.perf_counter()
    moves = run_reference()
    ref_seconds = time.perf_counter() - t0
    # the native core on the very same positions, repeated until it takes measurable time
    loops = 1
    while True:
        t = best_time(lambda loops=loops: [stream(hs, ls, bs, granularity, 1) for _ in range(loops)], repeat)
        if t > 0.2 or loops > 1 << 16:
            break
        loops *= 4
    native = rate(len(idx) * loops, moves * loops, t)
    reference = rate(len(idx), moves, ref_seconds)
    return {
        "sample": len(idx),
        "reference": reference,
        "native": native,
        "ratio": native["positions_per_s"] / reference["positions_per_s"],
    }


def human(x: float) -> str:
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if x >= size:
            return f"{x / size:6.2f}{unit}"
    return f"{x:7.1f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", help="an .npz from tools/make_corpus.py (default: build one in memory)")
    parser.add_argument("--kind", choices=("opening", "play"), default="opening", help="corpus kind when building one")
    parser.add_argument("--positions", type=int, default=20_000, help="corpus size when building one (default 20000)")
    parser.add_argument("--seed", type=int, default=2, help="corpus seed when building one (default 2)")
    parser.add_argument("--reference", type=int, default=200, help="reference sample per subset (default 200)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure, the best kept (default 3)")
    parser.add_argument(
        "--threads", type=int, default=os.cpu_count() or 1, help="threads for 'all cores' (default: all)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)

    if args.corpus:
        data = dict(np.load(args.corpus))
        meta = {
            "kind": str(data.get("kind", "play")),
            "seed": int(data.get("seed", -1)),
            "policy": str(data.get("policy", "")),
            "file": args.corpus,
        }
    else:
        data = make_corpus(args.positions, args.seed, kind=args.kind)
        meta = {"kind": args.kind, "seed": args.seed, "policy": "human", "file": None}
    hands, levels, beats = data["hands"], data["levels"], data["beats"]
    leads = beats == np.uint64(PASS_WORD)
    meta |= {
        "positions": int(len(hands)),
        "leads": int(leads.sum()),
        "responses": int((~leads).sum()),
        "cards_per_hand": float(hands.sum(axis=1).mean()),
    }
    selections = {"lead": leads, "response": ~leads, "mixed": np.ones(len(hands), dtype=bool)}
    report: dict[str, Any] = {
        "corpus": meta,
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "numpy": np.__version__,
            "guandan": guandan.__version__,
            "threads": args.threads,
        },
        "native": {},
        "reference": {},
    }
    for subset in SUBSETS:
        sel = selections[subset]
        h, lv, b = (np.ascontiguousarray(a[sel]) for a in (hands, levels, beats))
        for granularity in GRANULARITIES:
            report["native"].setdefault(subset, {})[granularity] = measure_native(
                h, lv, b, granularity, args.threads, args.repeat
            )
            sample = args.reference if granularity == "rank" else max(args.reference // 4, 1)
            report["reference"].setdefault(subset, {})[granularity] = measure_reference(
                h, lv, b, granularity, sample, 1
            )

    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    c = report["corpus"]
    print(
        f"corpus: {c['kind']}, {c['positions']} positions ({c['leads']} leads, {c['responses']} responses), "
        f"{c['cards_per_hand']:.1f} cards a hand, seed {c['seed']}"
    )
    m = report["machine"]
    print(f"machine: {m['cpus']} cpus, Python {m['python']}, numpy {m['numpy']}, guandan {m['guandan']}")
    print()
    print("positions/s (moves/s) — native: one thread | all cores; reference on a sample of the same positions")
    print(f"{'':9} {'':5} {'moves':>6}  {'stream':>20}  {'arrays':>20}  {'count':>20}  {'reference':>9}  {'ratio':>8}")
    for subset in SUBSETS:
        for granularity in GRANULARITIES:
            r = report["native"][subset][granularity]
            ref = report["reference"][subset][granularity]
            cells = [
                f"{human(r[k]['1']['positions_per_s'])} | {human(r[k]['all']['positions_per_s'])}"
                for k in ("stream", "arrays", "count")
            ]
            print(
                f"{subset:9} {granularity:5} {r['moves_per_position']:6.1f}  "
                + "  ".join(f"{x:>20}" for x in cells)
                + f"  {human(ref['reference']['positions_per_s']):>9}  {ref['ratio']:7.0f}x"
            )
    print()
    print("moves/s, one thread, stream:", ", ".join(
        f"{s} {g} {human(report['native'][s][g]['stream']['1']['moves_per_s'])}" for s in SUBSETS for g in GRANULARITIES
    ))
    return 0


if __name__ == "__main__":
    sys.exit(main())
