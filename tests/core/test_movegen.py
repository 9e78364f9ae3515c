"""``guandan.core.movegen``: the legal moves of a hand, the move list, and moves from packed words."""

from __future__ import annotations

import numpy as np
import pytest
from refusals import check
from strategies import random_hand

import guandan
from guandan import (
    Cards,
    GuandanError,
    IllegalMoveError,
    InvalidCardsError,
    InvalidMoveError,
    Move,
    beats,
    classify,
    count_moves,
    legal_moves,
)
from guandan.core import movegen
from guandan.core.movegen import canonical_move, pack_move, pack_rank_move, unpack_move, unpack_rank_move
from guandan.core.packed import PASS_WORD

# -- bad input -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: guandan.legal_moves(None, 2), InvalidCardsError, "iterable"),
        (lambda: guandan.legal_moves("S3 S3 S3", 2), InvalidCardsError, "too many copies"),
        (lambda: guandan.legal_moves("S3", 1), InvalidCardsError, "bad level"),
        (lambda: guandan.legal_moves("S3", 2, granularity="x"), GuandanError, "granularity"),
        (lambda: guandan.legal_moves("S3", 2, beat="S4"), InvalidMoveError, "play to beat must be"),
        (lambda: guandan.legal_moves("S3", 2, beat=np.int64(-1)), InvalidMoveError, "0..2"),
        (lambda: guandan.legal_moves("S3", 2, beat=12345), InvalidMoveError, "malformed"),
        (lambda: guandan.legal_moves("S3", 2, beat=classify("S4", 3)[0]), InvalidMoveError, "level"),
        (lambda: guandan.legal_moves("S3", 2, beat=Move.pass_(2)), InvalidMoveError, "not a play to beat"),
        (lambda: guandan.count_moves([0, 0, 0], 2), InvalidCardsError, "too many copies"),
        (lambda: movegen.unpack_rank_move(-1, 2), InvalidMoveError, "0..2"),
        (lambda: movegen.unpack_rank_move("x", 2), InvalidMoveError, "0..2"),
        (lambda: movegen.unpack_rank_move(2**64 - 1, 2), InvalidMoveError, "malformed"),
        (lambda: movegen.unpack_move(2**64 - 1, 2**64 - 1, 2), InvalidCardsError, "3 copies of S2"),
        (lambda: movegen.unpack_move(0, 1 << 45, 2), InvalidCardsError, "beyond the 54 faces"),
        (lambda: movegen.unpack_move(-1, 0, 2), InvalidCardsError, "lo must be"),
        (lambda: movegen.unpack_move("a", 0, 2), InvalidCardsError, "lo must be"),
        (lambda: movegen.unpack_move(0, 0, 2), InvalidMoveError, "malformed"),
        (lambda: movegen.unpack_move(3, PASS_WORD, 2), InvalidCardsError, "3 copies of S2"),
        (lambda: movegen.pack_move("x"), InvalidMoveError, "not a card-level move"),
        (lambda: movegen.pack_rank_move("x"), InvalidMoveError, "not a rank-level move"),
    ],
)
def test_bad_positions_and_words_raise(call, error, match):
    check(call, error, match)


def test_move_list_indexing_keeps_the_sequence_protocol():
    moves = guandan.legal_moves("S3 S4", 2)
    with pytest.raises(IndexError, match="out of range"):
        moves[5]
    for bad in ("a", 1.0, None):
        with pytest.raises(TypeError, match="integers or slices"):
            moves[bad]
    assert str(moves[np.int64(1)]) == "single 4: S4" and "x" not in moves


# -- the packed forms and the move list ------------------------------------------------------------

POSITIONS = [(random_hand(np.random.default_rng(seed), size=14), 2 + seed % 13) for seed in range(12)]


@pytest.mark.parametrize("hand, level", POSITIONS)
def test_every_legal_move_round_trips_through_its_packed_form(hand, level):
    cards = legal_moves(hand, level)
    ranks = legal_moves(hand, level, granularity="rank")
    for i, move in enumerate(cards):
        lo, hi = pack_move(move)
        assert (lo, hi) == tuple(cards.array[i].tolist()) and unpack_move(lo, hi, level) == move
    for i, move in enumerate(ranks):
        word = pack_rank_move(move)
        assert word == int(ranks.array[i]) and unpack_rank_move(word, level) == move
    assert {m.to_rank() for m in cards} == set(ranks)
    assert count_moves(hand, level) == len(cards) and count_moves(hand, level, granularity="rank") == len(ranks)


@pytest.mark.parametrize("hand, level", POSITIONS)
def test_the_canonical_move_of_a_rank_level_word_plays_it_from_the_hand(hand, level):
    for move in legal_moves(hand, level, granularity="rank"):
        played = canonical_move(pack_rank_move(move), hand, level)
        assert played.to_rank() == move and played.cards.issubset(hand)
        assert played in legal_moves(hand, level)
    with pytest.raises(IllegalMoveError):
        canonical_move(pack_rank_move(classify("SB SB HR HR", level)[0].to_rank()), "S3", level)
    assert canonical_move(PASS_WORD, hand, level).is_pass


def test_a_move_list_is_a_sequence_view_over_the_packed_moves():
    hand = Cards.parse("S3 C4 D4 C5 D5 H2 SB SB")
    moves = legal_moves(hand, 2)
    everything = list(moves)
    assert len(moves) == moves.count() == len(everything) == moves.array.shape[0] and moves.array.shape[1] == 2
    assert moves[-1] == everything[-1] and moves[1:4] == everything[1:4] and moves[::-1] == everything[::-1]
    assert all(m in moves and moves.count(m) == 1 for m in everything)
    assert classify("S9", 2)[0] not in moves and classify("S3", 3)[0] not in moves  # not held; another level
    assert everything[0].to_rank() not in moves  # another granularity
    ranks = legal_moves(hand, 2, granularity="rank")
    assert ranks.array.ndim == 1 and all(m in ranks for m in ranks) and everything[0] not in ranks
    assert repr(ranks) == f"<MoveList {len(ranks)} rank-level moves at level 2>"


def test_responding_lists_the_moves_that_beat_the_play_then_the_pass():
    hand = Cards.parse("S8 C8 SK CK DK S4 C4 D4 S4 H2 SB HR")
    play = classify("S9 C9", 2)[0]
    for beat in (play, play.to_rank(), pack_rank_move(play.to_rank())):
        responses = legal_moves(hand, 2, beat=beat)
        assert responses[-1].is_pass and all(beats(m, play) for m in responses[:-1])
        assert list(responses) == [m for m in legal_moves(hand, 2) if beats(m, play)] + [Move.pass_(2)]
    assert list(legal_moves(hand, 2, beat=None)) == list(legal_moves(hand, 2, beat=PASS_WORD))
