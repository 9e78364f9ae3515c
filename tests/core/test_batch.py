"""The batch API: the same answers as one position at a time, on any number of threads,
and a clear error for every malformed array (rules §5)."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest
from refusals import check

from guandan import (
    Cards,
    GuandanError,
    InvalidCardsError,
    InvalidMoveError,
)
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


# -- bad input: every batch argument is checked ----------------------------------------------------


HAND = Cards.parse("S3 C4 D4 C5 D5 H2").counts


H3 = np.stack([np.frombuffer(HAND, dtype=np.uint8)] * 3).copy()


L3 = np.full(3, 2, dtype=np.uint8)


B3 = batch.lead_beats(3)


@pytest.mark.parametrize(
    "change, match",
    [
        (lambda h, l, b: (h.astype(np.int64), l, b), "hands must have dtype uint8"),
        (lambda h, l, b: (h, l.astype(np.int32), b), "levels must have dtype uint8"),
        (lambda h, l, b: (h, l, b.astype(np.int64)), "beats must have dtype uint64"),
        (lambda h, l, b: (h, l, b.astype(">u8")), "beats must have dtype uint64"),
        (lambda h, l, b: (h[:, :53].copy(), l, b), r"shape \(N, 54\)"),
        (lambda h, l, b: (np.asfortranarray(h), l, b), "C-contiguous"),
        (lambda h, l, b: (h[None], l, b), "2 dimension"),
        (lambda h, l, b: (h, l[:-1].copy(), b), "same length"),
        (lambda h, l, b: (h.tolist(), l, b), "numpy array"),
        (lambda h, l, b: (h, l.tolist(), b), "numpy array"),
        (lambda h, l, b: (h, l, [0, 0, 0]), "numpy array"),
        (lambda h, l, b: (None, l, b), "numpy array"),
    ],
)
def test_batch_arrays_are_checked_by_every_batch_call(change, match):
    h, l, b = change(H3.copy(), L3.copy(), B3.copy())
    for call in (
        lambda: batch.count_moves(h, l, b),
        lambda: batch.count_moves(h, l, b, threads=2),
        lambda: batch.legal_moves(h, l, b),
        lambda: batch.legal_moves(h, l, b, "card", threads=2),
        lambda: batch.legal_mask(h, l, b),
        lambda: batch.iter_legal_moves(h, l, b),
        lambda: batch.iter_legal_moves(h, l, b, "card"),
        lambda: _core.fill_rank_moves(h, l, b, 0, 1, np.empty(5000, np.uint64), np.zeros(4, np.int64)),
        lambda: _core.fill_card_moves(h, l, b, 0, 1, np.empty((50, 2), np.uint64), np.zeros(4, np.int64)),
    ):
        check(call, InvalidCardsError, match)


def test_batch_values_name_the_position():
    h, l, b = H3.copy(), L3.copy(), B3.copy()
    h[1, 6] = 3
    check(lambda: batch.count_moves(h, L3, B3), InvalidCardsError, "position 1: too many copies of C3")
    l[2] = 15
    check(lambda: batch.legal_mask(H3, l, B3), InvalidCardsError, "position 2: level")
    b[0] = np.uint64(2**64 - 1)
    check(lambda: list(batch.iter_legal_moves(H3, L3, b)), InvalidMoveError, "position 0: the play to beat")


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: batch.count_moves(H3, L3, threads="a"), GuandanError, "threads"),
        (lambda: batch.count_moves(H3, L3, threads=0), GuandanError, "threads"),
        (lambda: batch.count_moves(H3, L3, granularity="x"), GuandanError, "granularity"),
        (lambda: batch.legal_moves(H3, L3, granularity="x"), GuandanError, "granularity"),
        (lambda: batch.iter_legal_moves(H3, L3, granularity="x"), GuandanError, "granularity"),
        (lambda: batch.iter_legal_moves(H3, L3, buffer_moves=0), GuandanError, "buffer_moves"),
        (lambda: batch.iter_legal_moves(H3, L3, buffer_moves="a"), GuandanError, "buffer_moves"),
        (lambda: batch.lead_beats(-1), GuandanError, "n is an int"),
        (lambda: batch.lead_beats("a"), GuandanError, "n is an int"),
        (lambda: batch.action_indices("x"), InvalidMoveError, "integers"),
        (lambda: _core.batch_count(H3, L3, B3, "rank", 5), GuandanError, "start"),
        (lambda: _core.batch_count(H3, L3, B3, "rank", 2, 1), GuandanError, "bad range"),
        (lambda: _core.batch_count(H3, L3, B3, "rank", 0, "a"), GuandanError, "end"),
        (
            lambda: _core.batch_count(H3, L3, B3, "rank", 0, None, np.zeros(2, np.int64)),
            InvalidCardsError,
            r"shape \(3,\)",
        ),
        (lambda: _core.batch_count(H3, L3, B3, "rank", 0, None, np.zeros(3, np.int32)), InvalidCardsError, "int64"),
        (lambda: _core.batch_count(H3, L3, B3, "rank", 0, None, [0, 0, 0]), InvalidCardsError, "int64"),
        (
            lambda: _core.batch_count(H3, L3, B3, "rank", 0, None, np.frombuffer(bytes(24), np.int64)),
            InvalidCardsError,
            "read-only",
        ),
        (lambda: _core.batch_mask(H3, L3, B3, 0, None, np.zeros((3, 5), bool)), InvalidCardsError, "2213"),
        (
            lambda: _core.batch_mask(H3, L3, B3, 0, None, np.frombuffer(bytes(3 * 2213), bool).reshape(3, 2213)),
            InvalidCardsError,
            "read-only",
        ),
        (lambda: _core.batch_rank_moves(H3, L3, B3, -1), GuandanError, "start"),
        (lambda: _core.batch_card_moves(H3, L3, B3, 0, 4), GuandanError, "end"),
        (
            lambda: _core.fill_rank_moves(H3, L3, B3, 0, 3, np.empty(100, np.uint64), np.zeros(4, np.int64)),
            InvalidCardsError,
            "at least 4096",
        ),
        (
            lambda: _core.fill_rank_moves(H3, L3, B3, 0, 3, np.empty(5000, np.uint64), np.zeros(2, np.int64)),
            InvalidCardsError,
            "offsets needs room",
        ),
        (
            lambda: _core.fill_rank_moves(H3, L3, B3, 0, 3, np.empty(5000, np.int64), np.zeros(4, np.int64)),
            InvalidCardsError,
            "writable C-contiguous uint64",
        ),
        (
            lambda: _core.fill_rank_moves(
                H3, L3, B3, 0, 3, np.frombuffer(bytes(40000), np.uint64), np.zeros(4, np.int64)
            ),
            InvalidCardsError,
            "writable",
        ),
        (
            lambda: _core.fill_card_moves(H3, L3, B3, 0, 3, np.empty((100, 3), np.uint64), np.zeros(4, np.int64)),
            InvalidCardsError,
            "writable C-contiguous uint64",
        ),
        (
            lambda: _core.fill_card_moves(H3, L3, B3, 0, 3, np.empty((1, 2), np.uint64), np.zeros(4, np.int64)),
            InvalidCardsError,
            "alone has",
        ),
        (
            lambda: _core.fill_card_moves(H3, L3, B3, 3, 2, np.empty((100, 2), np.uint64), np.zeros(4, np.int64)),
            GuandanError,
            "bad range 3..2",
        ),
        (
            lambda: _core.fill_card_moves(H3, L3, B3, 0, 3, np.empty((100, 2), np.uint64), np.zeros(4, np.float64)),
            InvalidCardsError,
            "offsets",
        ),
    ],
)
def test_batch_arguments_and_buffers_are_checked(call, error, match):
    check(call, error, match)


def test_a_batch_accepts_read_only_inputs_and_empty_batches():
    ro = np.frombuffer(H3.tobytes(), dtype=np.uint8).reshape(3, 54)
    assert batch.count_moves(ro, L3).tolist() == batch.count_moves(H3, L3).tolist()
    empty = np.zeros((0, 54), np.uint8), np.zeros(0, np.uint8)
    assert batch.count_moves(*empty, threads=2).shape == (0,)
    assert batch.legal_mask(*empty).shape == (0, len(batch.ACTION_SPACE))
    moves, offsets = batch.legal_moves(*empty, granularity="card")
    assert moves.shape == (0, 2) and offsets.tolist() == [0]
    assert list(batch.iter_legal_moves(*empty)) == []


def test_word_lists_mixing_large_and_small_words_are_not_turned_into_floats():
    # numpy makes float64 of [2**64 - 1, 2**60]; the core reads such lists word by word
    top, bottom = int(batch.ACTION_SPACE[-1]), int(batch.ACTION_SPACE[0])
    assert top >= 2**63
    assert batch.action_indices([top, bottom]).tolist() == [len(batch.ACTION_SPACE) - 1, 0]
