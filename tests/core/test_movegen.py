"""``guandan.core.movegen``: the legal moves of a hand, the move list, and moves from packed words."""

from __future__ import annotations

import numpy as np
import pytest
from refusals import check

import guandan
from guandan import (
    GuandanError,
    InvalidCardsError,
    InvalidMoveError,
    Move,
    classify,
)
from guandan.core import movegen
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
