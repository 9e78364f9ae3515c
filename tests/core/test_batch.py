"""The batch API: the same answers as one position at a time, on any number of threads,
and a clear error for every malformed array (SPEC §5)."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest

from guandan import GuandanError, InvalidCardsError, InvalidMoveError
from guandan.core import _core, batch
from guandan.core.packed import PASS_WORD

CORPUS = np.load(pathlib.Path(__file__).resolve().parents[1] / "data" / "corpus.npz")
H, L, B = CORPUS["hands"][:3000], CORPUS["levels"][:3000], CORPUS["beats"][:3000]


def per_position(granularity):
    fn = _core.rank_moves if granularity == "rank" else _core.card_moves
    return [fn(H[i], int(L[i]), int(B[i])) for i in range(len(H))]


@pytest.mark.parametrize("granularity", ["rank", "card"])
@pytest.mark.parametrize("threads", [1, 2, 3])
def test_batch_moves_equal_one_position_at_a_time(granularity, threads):
    moves, offsets = batch.legal_moves(H, L, B, granularity, threads=threads)
    expected = per_position(granularity)
    assert offsets[0] == 0 and len(offsets) == len(H) + 1
    for i, want in enumerate(expected):
        np.testing.assert_array_equal(moves[offsets[i] : offsets[i + 1]], want)


@pytest.mark.parametrize("granularity", ["rank", "card"])
@pytest.mark.parametrize("threads", [1, 2])
def test_batch_counts_equal_enumeration(granularity, threads):
    counts = batch.count_moves(H, L, B, granularity, threads=threads)
    assert counts.tolist() == [len(m) for m in per_position(granularity)]


@pytest.mark.parametrize("threads", [1, 2])
def test_mask_marks_exactly_the_legal_rank_moves(threads):
    mask = batch.legal_mask(H, L, B, threads=threads)
    assert mask.dtype == np.bool_ and mask.shape == (len(H), len(batch.ACTION_SPACE))
    for i, moves in enumerate(per_position("rank")):
        assert set(np.flatnonzero(mask[i])) == set(batch.action_indices(moves).tolist())


def test_action_space_holds_every_move_of_every_level_and_the_pass():
    space = batch.ACTION_SPACE
    assert np.all(np.diff(space.astype(np.float64)) >= 0) and len(np.unique(space)) == len(space)
    assert PASS_WORD in space
    for level in range(2, 15):
        assert np.isin(_core.rank_moves(bytes([2]) * 54, level), space).all()
    with pytest.raises(InvalidMoveError, match="not in the action space"):
        batch.action_indices([PASS_WORD + 1])


def test_leads_when_beats_is_none():
    counts = batch.count_moves(H[:50], L[:50])
    assert counts.tolist() == [_core.count_rank_moves(H[i], int(L[i])) for i in range(50)]


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda h, l, b: (h.astype(np.int64), l, b), "hands must have dtype uint8"),
        (lambda h, l, b: (h, l.astype(np.int32), b), "levels must have dtype uint8"),
        (lambda h, l, b: (h, l, b.astype(np.int64)), "beats must have dtype uint64"),
        (lambda h, l, b: (h[:, :53].copy(), l, b), r"shape \(N, 54\)"),
        (lambda h, l, b: (h[::2], l[::2].copy(), b[::2].copy()), "C-contiguous"),
        (lambda h, l, b: (h[:, None], l, b), "2 dimension"),
        (lambda h, l, b: (h, l[:-1].copy(), b), "same length"),
        (lambda h, l, b: (h.tolist(), l, b), "numpy array"),
    ],
)
def test_malformed_arrays_raise_clear_errors(change, message):
    h, l, b = change(H[:10].copy(), L[:10].copy(), B[:10].copy())
    for call in (
        lambda: batch.count_moves(h, l, b),
        lambda: batch.legal_moves(h, l, b),
        lambda: batch.legal_moves(h, l, b, "card"),
        lambda: batch.legal_mask(h, l, b),
    ):
        with pytest.raises(InvalidCardsError, match=message):
            call()


def test_out_of_range_values_name_the_position():
    h, l, b = H[:10].copy(), L[:10].copy(), B[:10].copy()
    h[4, 6] = 3
    with pytest.raises(InvalidCardsError, match="position 4: too many copies of C3"):
        batch.count_moves(h, l, b)
    h[4, 6] = 0
    l[6] = 15
    with pytest.raises(InvalidCardsError, match="position 6: level must be"):
        batch.legal_moves(h, l, b)
    l[6] = 2
    b[8] = np.uint64(0xFFFF_FFFF_FFFF_FFFF)
    with pytest.raises(InvalidMoveError, match="position 8: the play to beat"):
        batch.legal_mask(h, l, b)


def test_threads_must_be_positive():
    with pytest.raises(GuandanError, match="threads"):
        batch.count_moves(H[:5], L[:5], B[:5], threads=0)


@pytest.mark.parametrize("granularity, buffer_moves", [("rank", 4096), ("rank", 50_000), ("card", 1), ("card", 3000)])
def test_streamed_chunks_cover_every_position_once_with_its_moves(granularity, buffer_moves):
    expected = per_position(granularity)
    seen = 0
    for start, stop, moves, offsets in batch.iter_legal_moves(H, L, B, granularity, buffer_moves=buffer_moves):
        assert start == seen and stop > start
        for k in range(stop - start):
            np.testing.assert_array_equal(moves[offsets[k] : offsets[k + 1]], expected[start + k])
        seen = stop
    assert seen == len(H)


def test_fill_rejects_a_buffer_that_cannot_hold_any_position():
    offsets = np.zeros(11, dtype=np.int64)
    with pytest.raises(InvalidCardsError, match="at least 4096"):
        _core.fill_rank_moves(H, L, B, 0, 10, np.empty(100, dtype=np.uint64), offsets)
    lead = int(np.flatnonzero(B == np.uint64(PASS_WORD))[0])
    with pytest.raises(InvalidCardsError, match="alone has"):
        _core.fill_card_moves(H, L, B, lead, lead + 1, np.empty((0, 2), dtype=np.uint64), offsets)
    with pytest.raises(InvalidCardsError, match="writable C-contiguous uint64"):
        _core.fill_card_moves(H, L, B, 0, 10, np.empty((100, 3), dtype=np.uint64), offsets)
    with pytest.raises(InvalidCardsError, match="offsets needs room"):
        _core.fill_rank_moves(H, L, B, 0, 10, np.empty(5000, dtype=np.uint64), offsets[:5])
