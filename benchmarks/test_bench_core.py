"""pytest-benchmark suites for the core calls (not part of the test suite).

    pytest benchmarks/ --benchmark-columns=min,median,mean,ops --benchmark-sort=name

Timings only: correctness lives in tests/. Positions come from the seeded opening corpus
(27-card hands), so the figures compare with benchmarks/README.md.
"""

from __future__ import annotations

import pathlib
import sys
from typing import TYPE_CHECKING

import numpy as np
import pytest

from guandan import Cards, count_moves, legal_moves
from guandan.core import _core, batch
from guandan.core.movegen import Granularity, unpack_rank_move
from guandan.core.packed import PASS_WORD
from guandan.core.reference import generate_moves

if TYPE_CHECKING:
    from pytest_benchmark.fixture import BenchmarkFixture

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tools"))
from make_corpus import make_corpus  # type: ignore[import-not-found]  # noqa: E402  (tools/: not on mypy's path)

CORPUS = make_corpus(2000, seed=2, kind="opening")
H, L, B = CORPUS["hands"], CORPUS["levels"], CORPUS["beats"]
LEADS = B == np.uint64(PASS_WORD)
LEAD = int(np.flatnonzero(LEADS)[0])
RESPONSE = int(np.flatnonzero(~LEADS)[0])
HAND = Cards(H[LEAD].tobytes())


@pytest.mark.parametrize("granularity", ["rank", "card"])
def test_one_lead_packed(benchmark: BenchmarkFixture, granularity: Granularity) -> None:
    fn = _core.rank_moves if granularity == "rank" else _core.card_moves
    benchmark(fn, H[LEAD], int(L[LEAD]))


@pytest.mark.parametrize("granularity", ["rank", "card"])
def test_one_lead_count(benchmark: BenchmarkFixture, granularity: Granularity) -> None:
    fn = _core.count_rank_moves if granularity == "rank" else _core.count_card_moves
    benchmark(fn, H[LEAD], int(L[LEAD]))


def test_one_response_packed(benchmark: BenchmarkFixture) -> None:
    benchmark(_core.rank_moves, H[RESPONSE], int(L[RESPONSE]), int(B[RESPONSE]))


def test_legal_moves_view_of_one_lead(benchmark: BenchmarkFixture) -> None:
    benchmark(legal_moves, HAND, int(L[LEAD]), None, "rank")


def test_legal_moves_as_objects_of_one_lead(benchmark: BenchmarkFixture) -> None:
    benchmark(lambda: list(legal_moves(HAND, int(L[LEAD]), granularity="rank")))


def test_count_moves_of_one_lead(benchmark: BenchmarkFixture) -> None:
    benchmark(count_moves, HAND, int(L[LEAD]), None, "card")


@pytest.mark.parametrize("granularity", ["rank", "card"])
def test_batch_stream_2000_positions(benchmark: BenchmarkFixture, granularity: Granularity) -> None:
    def run() -> int:
        return sum(len(m) for _, _, m, _ in batch.iter_legal_moves(H, L, B, granularity))

    benchmark(run)


@pytest.mark.parametrize("granularity", ["rank", "card"])
def test_batch_count_2000_positions(benchmark: BenchmarkFixture, granularity: Granularity) -> None:
    benchmark(batch.count_moves, H, L, B, granularity)


def test_batch_mask_2000_positions(benchmark: BenchmarkFixture) -> None:
    benchmark(batch.legal_mask, H, L, B)


@pytest.mark.parametrize("granularity", ["rank", "card"])
def test_reference_one_lead(benchmark: BenchmarkFixture, granularity: Granularity) -> None:
    benchmark.pedantic(  # type: ignore[no-untyped-call]  # pytest-benchmark leaves pedantic unannotated
        generate_moves, args=(HAND, int(L[LEAD]), None, granularity), rounds=5, iterations=1
    )


def test_reference_one_response(benchmark: BenchmarkFixture) -> None:
    beat = unpack_rank_move(int(B[RESPONSE]), int(L[RESPONSE]))
    benchmark.pedantic(  # type: ignore[no-untyped-call]  # pytest-benchmark leaves pedantic unannotated
        generate_moves, args=(Cards(H[RESPONSE].tobytes()), int(L[RESPONSE]), beat, "rank"), rounds=5
    )
