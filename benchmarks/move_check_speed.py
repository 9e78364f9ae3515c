"""What checking a move costs: Move / RankMove built from outside data (checked against the
native generator) beside the unchecked build the engine uses and pure-Python classify.

    python benchmarks/move_check_speed.py [--number N]

Per kind of move, microseconds per call (best of 5 runs of N calls): ``Move(...)`` and
``RankMove(...)`` (parse the fields, then the one check of ``guandan.core.packed``), their
``_trusted`` builds (no check: moves the core or classify made), ``unpack_move`` /
``unpack_rank_move`` (the same check on packed words), and ``classify`` of the same cards
(what a check in pure Python would at least cost).
"""

from __future__ import annotations

import argparse
import timeit

from guandan import Move, RankMove, classify
from guandan.core.movegen import pack_move, pack_rank_move, unpack_move, unpack_rank_move

CASES = {
    "single": "S5",
    "pair (wild)": "S5 H2",
    "full house": "S7 C7 D7 S9 C9",
    "straight flush": "S9 ST SJ SQ SK",
    "pair run (wild)": "S3 C4 D4 C5 D5 H2",
    "10-card bomb": "S5 S5 H5 H5 C5 C5 D5 D5 H2 H2",
}


def best(call: object, number: int) -> float:
    return min(timeit.repeat(call, number=number, repeat=5)) / number * 1e6  # type: ignore[arg-type]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=5000)
    args = parser.parse_args()
    n = args.number
    print(f"{'µs per call':16} {'Move()':>8} {'trusted':>8} {'RankMove()':>11} {'trusted':>8}"
          f" {'unpack_move':>12} {'unpack_rank':>12} {'classify':>9}")
    for name, text in CASES.items():
        row = measure(classify(text, 2)[-1], n)
        print(f"{name:16} " + " ".join(f"{v:{w}.2f}" for v, w in zip(row, (8, 8, 11, 8, 12, 12, 9))))


def measure(m: Move, n: int) -> list[float]:
    r = m.to_rank()
    lo, hi = pack_move(m)
    word = pack_rank_move(r)
    return [
        best(lambda: Move(m.type, m.key, m.suit, m.cards, m.level), n),
        best(lambda: Move._trusted(m.type, m.key, m.suit, m.cards, m.level), n),
        best(lambda: RankMove(r.type, r.key, r.suit, r.ranks, r.wilds, r.level), n),
        best(lambda: RankMove._trusted(r.type, r.key, r.suit, r.ranks, r.wilds, r.level), n),
        best(lambda: unpack_move(lo, hi, 2), n),
        best(lambda: unpack_rank_move(word, 2), n),
        best(lambda: classify(m.cards, 2), max(1, n // 10)),
    ]

if __name__ == "__main__":
    main()
