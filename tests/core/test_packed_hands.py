"""Packed hands as batch input: ``uint64 (N, 2)``, the core's own layout, gives
the same moves as the count rows, move for move and in the same order, on the corpus and on
hypothesis hands; a packed hand the counts could not hold is an error naming the position,
whatever the word."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest
from hypothesis import HealthCheck
from hypothesis import strategies as st
from profiles import profiled
from strategies import random_hand, small_positions

from guandan import Cards, GuandanError, InvalidCardsError
from guandan.core import _core, batch
from guandan.core.cards import card_name
from guandan.core.packed import PASS_WORD

CORPUS = np.load(pathlib.Path(__file__).resolve().parents[1] / "data" / "corpus.npz")
H, L, B = CORPUS["hands"], CORPUS["levels"], CORPUS["beats"]
P = batch.pack_hands(H)
MASK64 = (1 << 64) - 1


def _same(counted, packed) -> None:
    if isinstance(counted, tuple):
        for a, b in zip(counted, packed):
            _same(a, b)
    elif isinstance(counted, list):
        assert len(counted) == len(packed)
        for a, b in zip(counted, packed):
            _same(a, b)
    elif isinstance(counted, np.ndarray):
        assert counted.dtype == packed.dtype and counted.shape == packed.shape
        np.testing.assert_array_equal(counted, packed)
    else:
        assert counted == packed


def _stream(hands, levels, beats, granularity, packed):
    chunks = batch.iter_legal_moves(hands, levels, beats, granularity, 4096, packed)
    return [(a, z, m.copy(), o.copy()) for a, z, m, o in chunks]


CALLS = {
    "count_moves rank": lambda h, lv, b, p: batch.count_moves(h, lv, b, packed=p),
    "count_moves card, 2 threads": lambda h, lv, b, p: batch.count_moves(h, lv, b, "card", threads=2, packed=p),
    "legal_moves rank, 2 threads": lambda h, lv, b, p: batch.legal_moves(h, lv, b, threads=2, packed=p),
    "legal_moves card": lambda h, lv, b, p: batch.legal_moves(h, lv, b, "card", packed=p),
    "legal_mask": lambda h, lv, b, p: batch.legal_mask(h, lv, b, packed=p),
    "legal_mask, 2 threads, all leads": lambda h, lv, b, p: batch.legal_mask(h, lv, None, threads=2, packed=p),
    "iter_legal_moves rank": lambda h, lv, b, p: _stream(h, lv, b, "rank", p),
    "iter_legal_moves card": lambda h, lv, b, p: _stream(h, lv, b, "card", p),
}


def test_pack_hands_gives_the_words_of_pack_cards():
    assert P.dtype == np.uint64 and P.shape == (len(H), 2) and P.flags.c_contiguous
    for i in range(0, len(H), 97):
        assert tuple(int(w) for w in P[i]) == _core.pack_cards(H[i])
    assert batch.pack_hands(H[:0]).shape == (0, 2)


SLOW_CALLS = {"iter_legal_moves rank"}  # a second or more on the whole corpus


@pytest.mark.parametrize("call", [pytest.param(c, marks=pytest.mark.slow) if c in SLOW_CALLS else c for c in CALLS])
def test_packed_hands_give_the_moves_of_the_counts_on_the_corpus(call):
    fn = CALLS[call]
    _same(fn(H, L, B, False), fn(P, L, B, True))


@pytest.mark.parametrize("granularity", ["rank", "card"])
def test_the_core_batch_and_fill_functions_take_packed_hands(granularity):
    n = 2000
    h, p, lv, b = H[:n], P[:n], L[:n], B[:n]
    if granularity == "rank":
        _same(_core.batch_rank_moves(h, lv, b, 10, 1500), _core.batch_rank_moves(p, lv, b, 10, 1500, packed=True))
        out = [np.empty(3 * _core.MAX_RANK_MOVES, np.uint64) for _ in range(2)]
        fill = _core.fill_rank_moves
    else:
        _same(_core.batch_card_moves(h, lv, b, 10, 1500), _core.batch_card_moves(p, lv, b, 10, 1500, packed=True))
        out = [np.empty((5000, 2), np.uint64) for _ in range(2)]
        fill = _core.fill_card_moves
    offsets = [np.zeros(n + 1, np.int64) for _ in range(2)]
    stop = fill(h, lv, b, 0, n, out[0], offsets[0])
    assert stop > 0 and stop == fill(p, lv, b, 0, n, out[1], offsets[1], True)
    _same(out[0][: offsets[0][stop]], out[1][: offsets[1][stop]])
    counts = np.zeros(n, np.int64)
    _core.batch_count(p, lv, b, granularity, 5, 900, counts, True)
    assert counts[5:900].tolist() == _core.batch_count(h, lv, b, granularity)[5:900].tolist()


@profiled(
    200,
    st.lists(small_positions(max_cards=27), min_size=1, max_size=6),
    st.data(),
    settings={"suppress_health_check": [HealthCheck.too_slow]},
)
def test_packed_hands_give_the_moves_of_the_counts_on_hypothesis_hands(positions, data):
    hands = np.stack([hand.numpy() for hand, _ in positions])
    levels = np.array([level for _, level in positions], np.uint8)
    beats = []
    for hand, level in positions:  # a lead, or a play some hand of the batch can make
        words = _core.rank_moves(hand.counts, level)
        beats.append(data.draw(st.sampled_from([PASS_WORD, *[int(w) for w in words]])))
    beats_arr = np.array(beats, np.uint64)
    packed = batch.pack_hands(hands)
    for call in CALLS.values():
        _same(call(hands, levels, beats_arr, False), call(packed, levels, beats_arr, True))


def test_packed_full_hands_give_the_moves_of_the_counts():
    rng = np.random.default_rng(12)
    hands = np.stack([random_hand(rng).numpy() for _ in range(300)])
    levels = rng.integers(2, 15, size=300).astype(np.uint8)
    packed = batch.pack_hands(hands)
    for call in CALLS.values():
        _same(call(hands, levels, None, False), call(packed, levels, None, True))


# -- what a packed hand may not be -------------------------------------------------------------


def _one(words: tuple[int, int]) -> np.ndarray:
    return np.array([words], dtype=np.uint64)


@pytest.mark.parametrize("face", range(54))
def test_a_face_with_three_copies_is_an_error_naming_the_face_and_position(face):
    lo, hi = _core.pack_cards(Cards.parse("S3 H4").counts)
    bits = (lo | hi << 64) | 3 << (2 * face)
    hands = np.concatenate([P[:2], _one((bits & MASK64, bits >> 64))])
    message = f"position 2: the packed hand holds 3 copies of {card_name(face)}"
    for call in CALLS.values():
        with pytest.raises(InvalidCardsError, match=message):
            call(hands, L[:3], B[:3], True)


@pytest.mark.parametrize("bit", range(44, 64))
def test_bits_beyond_the_54_faces_are_an_error(bit):
    hands = np.concatenate([_one((0, 1 << bit)), P[:2]])
    for call in CALLS.values():
        with pytest.raises(InvalidCardsError, match="position 0: the packed hand has bits set beyond the 54 faces"):
            call(hands, L[:3], B[:3], True)


def test_packed_hands_of_the_wrong_form_are_refused_by_name():
    for hands, message in [
        (H[:3], "hands must have dtype uint64 \\(packed hands\\), got uint8"),
        (P[:3].astype(np.int64), "hands must have dtype uint64"),
        (P[:3].astype(">u8"), "hands must have dtype uint64"),
        (np.zeros((3, 3), np.uint64), "packed hands must have shape \\(N, 2\\)"),
        (P[:3].reshape(-1), "hands must have 2 dimension"),
        (np.asfortranarray(P[:3]), "hands must be C-contiguous"),
        (P[:3].tolist(), "hands must be a numpy array"),
        (P[:2], "same length"),
    ]:
        for call in CALLS.values():
            with pytest.raises(InvalidCardsError, match=message):
                call(hands, L[:3], B[:3], True)
    with pytest.raises(InvalidCardsError, match="hands must have dtype uint8 \\(counts; packed hands need packed=True"):
        batch.count_moves(P[:3], L[:3], B[:3])  # packed hands without packed=True


@pytest.mark.parametrize("flag", [1, 0, "yes", None, np.array([True]), 1.0])
def test_packed_is_true_or_false(flag):
    for call in CALLS.values():
        with pytest.raises(GuandanError, match="packed is a bool, got"):
            call(P[:3], L[:3], B[:3], flag)
    counts = batch.count_moves(H[:3], L[:3], B[:3]).tolist()
    assert batch.count_moves(P[:3], L[:3], B[:3], packed=np.True_).tolist() == counts


def test_pack_hands_refuses_what_pack_cards_refuses():
    bad = H[:4].copy()
    bad[3, 17] = 5
    with pytest.raises(InvalidCardsError, match="position 3: too many copies of H6: 5"):
        batch.pack_hands(bad)
    for hands in (H[:3].astype(np.int64), H[:3].T, H[0], H[:3].tolist(), np.zeros((3, 53), np.uint8)):
        with pytest.raises(InvalidCardsError, match="hands must be a C-contiguous uint8 array of shape \\(N, 54\\)"):
            batch.pack_hands(hands)
