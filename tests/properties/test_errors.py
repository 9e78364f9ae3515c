"""Bad input, everywhere, gets a clear error of the hierarchy.

Every public entry point that can be fed bad input raises an error of ``guandan.errors``
(all ``ValueError``) naming the problem: never a crash, never a bare ``TypeError`` /
``IndexError`` / ``KeyError`` / ``OverflowError`` from deep inside, never a silent
conversion. A rejected action leaves the state exactly as it was. (Sequence indexing and
the multiset operators keep Python's protocols: ``IndexError`` for a move index out of
range, ``TypeError`` for an index or operand of the wrong type.)
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

import guandan
from guandan import (
    AmbiguousMoveError,
    Cards,
    Deal,
    GuandanError,
    IllegalMoveError,
    InvalidCardsError,
    InvalidMoveError,
    Match,
    Move,
    MoveType,
    Rank,
    RankMove,
    RecordError,
    classify,
)
from guandan.bots import agents, determinize, loop, playout, registry
from guandan.core import _core, batch, movegen, notation, rng
from guandan.core.packed import PASS_WORD
from guandan.game import perft, rules, scoring, tribute
from guandan.platform import actions as protocol
from guandan.records import games as records
from guandan.records import jsonio

HAND = Cards.parse("S3 C4 D4 C5 D5 H2").counts
H = np.stack([np.frombuffer(HAND, dtype=np.uint8)] * 3).copy()
L = np.full(3, 2, dtype=np.uint8)
B = batch.lead_beats(3)


def deal_state():
    return (Deal.new(1)).native_state()


def check(call, error, match=None):
    with pytest.raises(error, match=match) as caught:
        call()
    assert isinstance(caught.value, GuandanError)  # the hierarchy, under ValueError
    assert isinstance(caught.value, ValueError)


def test_the_hierarchy_is_under_value_error():
    for cls in (InvalidCardsError, InvalidMoveError, IllegalMoveError, AmbiguousMoveError, RecordError):
        assert issubclass(cls, GuandanError) and issubclass(cls, ValueError)


# -- cards and card text ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: Cards.parse("S3 X9"), "bad card token 'X9'"),
        (lambda: Cards.parse("S3 S3 S3"), "too many copies of S3"),
        (lambda: Cards.parse(b"S3"), "must be given as a string"),
        (lambda: Cards.parse(None), "must be given as a string"),
        (lambda: Cards.parse("S3\x00"), "bad card token"),
        (lambda: Cards([3] + [0] * 53), "too many copies of S2"),
        (lambda: Cards([-1] + [0] * 53), "count vector"),
        (lambda: Cards([256] + [0] * 53), "too many copies of S2: 256"),
        (lambda: Cards("S3"), "not a string"),
        (lambda: Cards(None), "count vector"),
        (lambda: Cards([1.5] * 54), "count vector"),
        (lambda: Cards([0] * 53), "54 entries"),
        (lambda: Cards.from_counts([1.5] + [0] * 53), "count of S2"),
        (lambda: Cards.from_counts([float("nan")] + [0] * 53), "count of S2"),
        (lambda: Cards.from_counts("a" * 54), "count vector"),
        (lambda: Cards.from_counts(None), "count vector"),
        (lambda: Cards.from_counts([True] + [0] * 53), "count of S2"),
        (lambda: Cards.from_cards(None), "iterable of card indices"),
        (lambda: Cards.from_cards("S3"), "iterable of card indices"),
        (lambda: Cards.from_cards([True]), "card index"),
        (lambda: Cards.from_cards([54]), "card index"),
        (lambda: Cards.from_cards([-1]), "card index"),
        (lambda: Cards.from_cards([7, 7, 7]), "too many copies"),
        (lambda: Cards.parse("DA").count(-1), "card index"),
        (lambda: Cards.parse("DA").count(99), "card index"),
        (lambda: Cards.parse("DA").count("S3"), "card index"),
        (lambda: Cards.parse("DA").suit_ranks(9), "suit is 0..3"),
        (lambda: Cards.parse("DA").wilds(1), "level"),
        (lambda: Cards.parse("DA").issubset("S3 X"), "bad card token"),
        (lambda: Cards.parse("DA") - Cards.parse("S3"), "cannot remove S3"),
        (lambda: Cards.parse("DA DA") + Cards.parse("DA"), "too many copies"),
        (lambda: guandan.card_rank(99), "card index"),
        (lambda: guandan.card_rank(-1), "card index"),
        (lambda: guandan.card_suit("x"), "card index"),
        (lambda: guandan.card_name(54), "card index"),
        (lambda: guandan.card(2.0, 1), "not a rank"),
        (lambda: guandan.card(15, 1), "joker has no suit"),
        (lambda: guandan.card(5, 4), "suit 0..3"),
        (lambda: guandan.parse_card(3), "must be a string"),
        (lambda: guandan.parse_rank(2.5), "not a rank"),
        (lambda: guandan.parse_rank(17), "rank must be"),
        (lambda: guandan.parse_level(None), "bad level"),
        (lambda: guandan.parse_level(15), "not a joker"),
        (lambda: guandan.parse_level("B"), "not a joker"),
        (lambda: guandan.wild_card(20), "level"),
    ],
)
def test_bad_cards_raise_invalid_cards_error(call, match):
    check(call, InvalidCardsError, match)


def test_bad_card_styles_are_refused():
    check(lambda: guandan.card_name(1, "x"), GuandanError, "card style")
    check(lambda: Cards.parse("DA").format("x"), GuandanError, "card style")


def test_multiset_operators_keep_pythons_protocol():
    with pytest.raises(TypeError):
        Cards.parse("DA") + "S3"  # noqa: B018
    with pytest.raises(TypeError):
        Cards.parse("DA") - "S3"  # noqa: B018
    assert Cards.parse("DA") != "DA"


# -- combinations and moves ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: classify(None, 2), InvalidCardsError, "iterable"),
        (lambda: classify(5, 2), InvalidCardsError, "iterable"),
        (lambda: classify("S3 S3 S3", 2), InvalidCardsError, "too many copies"),
        (lambda: classify("S3", "x"), InvalidCardsError, "bad level"),
        (lambda: guandan.beats(classify("S3", 2)[0], classify("S3", 3)[0]), InvalidMoveError, "different levels"),
        (lambda: guandan.beats("S3", "S4"), InvalidMoveError, "two moves"),
        (lambda: guandan.elevated_order(99, 2), InvalidCardsError, "rank"),
        (lambda: guandan.window_ranks(MoveType.SINGLE, 3), InvalidMoveError, "not a sequence type"),
        (lambda: guandan.window_ranks(MoveType.STRAIGHT, 99), InvalidMoveError, "natural rank"),
        (lambda: guandan.window_ranks(MoveType.STRAIGHT, Rank.JACK), InvalidMoveError, "no straight starts at J"),
        (lambda: guandan.window_keys(MoveType.SINGLE), InvalidMoveError, "not a sequence type"),
        (lambda: MoveType.parse(None), InvalidMoveError, "unknown move type"),
        (lambda: MoveType.parse("triple_pair"), InvalidMoveError, "unknown move type"),
        (lambda: notation.parse_play("S3 S5", 2), InvalidMoveError, "form no combination"),
        (lambda: notation.parse_play("S3", 2, "pair"), InvalidMoveError, "cannot be played as pair"),
        (lambda: notation.parse_play("S3", 2, 5), InvalidMoveError, "declaration is a string"),
        (lambda: notation.parse_play("S3", 2, "single:Z"), InvalidCardsError, "bad rank"),
        (lambda: notation.parse_play(None, 2), InvalidCardsError, "iterable"),
        (lambda: notation.parse_play("S3 C3 S5 C5 H9", 9), AmbiguousMoveError, "full_house:3 or full_house:5"),
        (lambda: notation.sort_moves(["x"]), InvalidMoveError, "not a move"),
        (lambda: notation.declaration(None), InvalidMoveError, "not a move"),
        (lambda: jsonio.move_to_json(None), InvalidMoveError, "not a move"),
        (lambda: jsonio.moves_to_json([], 2, "x"), GuandanError, "granularity"),
    ],
)
def test_bad_moves_raise(call, error, match):
    check(call, error, match)


# -- move generation and the packed formats --------------------------------------------------------


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
        (
            lambda: Move(MoveType.SINGLE, Rank.THREE, None, Cards.parse("S4 S5"), Rank.TWO),
            InvalidMoveError,
            "S4 S5 cannot be played as single:3",
        ),
        (
            lambda: RankMove(MoveType.SINGLE, Rank.THREE, None, (0, 5) + (0,) * 13, 0, Rank.TWO),
            InvalidMoveError,
            "cannot be played as single:3",
        ),
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


# -- the native API --------------------------------------------------------------------------------

SINGLE = (_core.rank_moves, _core.count_rank_moves, _core.card_moves, _core.count_card_moves)


@pytest.mark.parametrize("fn", SINGLE, ids=lambda f: f.__name__)
@pytest.mark.parametrize(
    "counts, match",
    [
        ([0] * 54, "count vector of 54 faces"),
        (np.zeros(54, dtype=np.int64), "dtype int64"),
        (np.zeros(54, dtype=np.int8), "dtype int8"),
        (np.zeros(108, dtype=np.uint8)[::2], "not C-contiguous"),
        (np.zeros((1, 54), dtype=np.uint8), r"shape \(1, 54\)"),
        (bytes(53), "got 53"),
        (b"", "got 0"),
        (None, "got None"),
        ("S3", "str"),
        (bytes([3]) * 54, "too many copies of S2: 3"),
        (np.full(54, 255, dtype=np.uint8), "too many copies"),
    ],
)
def test_native_hands_are_checked(fn, counts, match):
    check(lambda: fn(counts, 2), InvalidCardsError, match)


@pytest.mark.parametrize("fn", SINGLE, ids=lambda f: f.__name__)
def test_native_levels_and_beats_are_checked(fn):
    for level in (1, 15, 2.0, "2", None, True, 2**70):
        check(lambda: fn(HAND, level), InvalidCardsError, "level must be a rank number 2..14")  # noqa: B023
    for beat in (-1, 2**64, 1.0, "x", None, True):
        check(lambda: fn(HAND, 2, beat), InvalidMoveError, "packed move")  # noqa: B023
    check(lambda: fn(HAND, 2, 12345), InvalidMoveError, "malformed")
    assert len(fn(HAND, np.uint8(2), np.uint64(PASS_WORD)) if "count" not in fn.__name__ else [0]) >= 0


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: _core.pack_cards([0] * 54), InvalidCardsError, "count vector"),
        (lambda: _core.pack_cards(bytes(3)), InvalidCardsError, "got 3"),
        (lambda: _core.unpack_cards(-1, 0), InvalidCardsError, "lo must be an int"),
        (lambda: _core.unpack_cards(2**64, 0), InvalidCardsError, "lo must be an int"),
        (lambda: _core.unpack_cards(0, "a"), InvalidCardsError, "hi must be an int"),
        (lambda: _core.unpack_cards(0, 1 << 45), InvalidCardsError, "beyond the 54 faces"),
        (lambda: _core.card_to_rank(-1, 0, 2), InvalidCardsError, "lo must be"),
        (lambda: _core.card_to_rank(0, 0, 20), InvalidCardsError, "level"),
        (lambda: _core.card_to_rank(3, 0, 2), InvalidCardsError, "3 copies"),
        (lambda: _core.move_size(-1), InvalidMoveError, "0..2"),
        (lambda: _core.move_size("x"), InvalidMoveError, "0..2"),
        (lambda: _core.move_size(2**64 - 1), InvalidMoveError, "malformed"),
        (lambda: _core.check_move(None), InvalidMoveError, "0..2"),
        (lambda: _core.spend_cards(HAND, 2, 2**64 - 1), InvalidMoveError, "malformed"),
        (lambda: _core.spend_cards(HAND, 2, -1), InvalidMoveError, "0..2"),
        (lambda: _core.spend_cards([0] * 54, 2, PASS_WORD), InvalidCardsError, "count vector"),
        (
            lambda: _core.spend_cards(HAND, 2, int(_core.rank_moves(Cards.parse("SA").counts, 2)[0])),
            IllegalMoveError,
            "cannot be played",
        ),
        (lambda: _core.rng_draws(1, [-1]), GuandanError, "bound"),
        (lambda: _core.rng_draws(1, "ab"), GuandanError, "bounds"),
        (lambda: _core.rng_draws("s", [1]), GuandanError, "seed"),
        (lambda: _core.action_indices(["x"]), InvalidMoveError, "integers"),
        (lambda: _core.action_indices([-1]), InvalidMoveError, "0..2"),
        (lambda: _core.action_indices([1.5]), InvalidMoveError, "integers"),
        (lambda: _core.action_indices([[1], [2, 3]]), InvalidMoveError, "integers"),
        (lambda: _core.action_indices([PASS_WORD + 1]), InvalidMoveError, "not in the action space"),
    ],
)
def test_native_words_and_buffers_are_checked(call, error, match):
    check(call, error, match)


def test_native_seeds_are_taken_modulo_2_64_like_splitmix64():
    assert _core.rng_draws(-1, [0]) == [guandan.core.rng.SplitMix64(-1).next_u64()]


def _state(**change):
    hands, level, turn, last, beat, passes, finished = deal_state()
    values = dict(hands=hands, level=level, turn=turn, last=last, beat=beat, passes=passes, finished=finished)
    values.update(change)
    return tuple(values[k] for k in ("hands", "level", "turn", "last", "beat", "passes", "finished"))


@pytest.mark.parametrize(
    "state, error, match",
    [
        (None, InvalidMoveError, "a deal state is"),
        ("abcdefg", InvalidCardsError, "four packed ints"),
        (_state(hands=None), InvalidCardsError, "four packed ints"),
        (_state(hands=(1, 2, 3)), InvalidCardsError, "four packed ints"),
        (_state(hands=(1.0,) * 4), InvalidCardsError, "packed hand is an int"),
        (_state(hands=(1 << 108,) * 4), InvalidCardsError, "packed hand is an int"),
        (_state(hands=np.zeros((4, 54), dtype=np.int64)), InvalidCardsError, "uint8 array of shape"),
        (_state(hands=np.full((4, 54), 3, dtype=np.uint8)), InvalidCardsError, "too many copies"),
        (_state(level=1), InvalidCardsError, "level"),
        (_state(turn=4), InvalidMoveError, "turn"),
        (_state(turn=np.uint64(2**63)), InvalidMoveError, "turn"),
        (_state(last=5), InvalidMoveError, "last"),
        (_state(passes=-1), InvalidMoveError, "passes"),
        (_state(beat=-5), InvalidMoveError, "packed move"),
        (_state(finished=None), InvalidMoveError, "finished must be"),
        (_state(finished=3), InvalidMoveError, "finished must be"),
        (_state(finished=(1.5,)), InvalidMoveError, "finished must list"),
        (_state(finished=(0,)), InvalidMoveError, "inconsistent deal state"),
        (_state(hands=(0b11, 0, 0, 0)), InvalidMoveError, "inconsistent deal state"),
    ],
)
def test_native_deal_states_are_checked(state, error, match):
    for call in (
        lambda: _core.playouts(state, 1),
        lambda: _core.choose(state),
        lambda: _core.perft(state, 1),
        lambda: _core.deal_step(state, 0, PASS_WORD),
        lambda: _core.evaluate([state], [PASS_WORD]),
    ):
        check(call, error, match)


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda s: _core.playouts(s, -1), GuandanError, "n must be an int 0"),
        (lambda s: _core.playouts(s, 1.5), GuandanError, "n must be an int"),
        (lambda s: _core.playouts(s, 2**62), GuandanError, "n must be an int"),
        (lambda s: _core.playouts(s, 1, "x"), GuandanError, "policy"),
        (lambda s: _core.playouts(s, 1, []), GuandanError, "policy"),
        (lambda s: _core.playouts(s, 1, "random", 1.5), GuandanError, "seed"),
        (lambda s: _core.choose(s, "greedy", "x"), GuandanError, "seed"),
        (lambda s: _core.perft(s, -1), GuandanError, "depth"),
        (lambda s: _core.perft(s, 1.0), GuandanError, "depth"),
        (lambda s: _core.perft(s, 2**40), GuandanError, "depth"),
        (lambda s: _core.deal_step(s, -1, 0), InvalidMoveError, "lo must be"),
        (lambda s: _core.deal_step(s, 0, 0), IllegalMoveError, "not a legal move"),
        (lambda s: _core.evaluate([s], [-1]), InvalidMoveError, "0..2"),
        (lambda s: _core.evaluate([s], [1.5]), InvalidMoveError, "integers"),
        (lambda s: _core.evaluate([s], ["a"]), InvalidMoveError, "integers"),
        (lambda s: _core.evaluate([s], [[1]]), InvalidMoveError, "1-D"),
        (lambda s: _core.evaluate([s], 5), InvalidMoveError, "1-D"),
        (lambda s: _core.evaluate(None, [1]), InvalidMoveError, "list of deal states"),
        (lambda s: _core.evaluate([s], [1], 0), GuandanError, "n must be an int 1"),
        (lambda s: _core.evaluate([s], [PASS_WORD + 1]), IllegalMoveError, "not a legal move"),
        (lambda s: _core.evaluate([s] * 4, list(_core.rank_moves(_counts(s), 2)[:4]), 2**39), GuandanError, "too many"),
    ],
)
def test_native_counts_policies_and_seeds_are_checked(call, error, match):
    check(lambda: call(deal_state()), error, match)


def _counts(state):
    hands, _, turn = state[0], state[1], state[2]
    return _core.unpack_cards(hands[turn] & (2**64 - 1), hands[turn] >> 64)


# -- the batch API ---------------------------------------------------------------------------------


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
    h, l, b = change(H.copy(), L.copy(), B.copy())
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
    h, l, b = H.copy(), L.copy(), B.copy()
    h[1, 6] = 3
    check(lambda: batch.count_moves(h, L, B), InvalidCardsError, "position 1: too many copies of C3")
    l[2] = 15
    check(lambda: batch.legal_mask(H, l, B), InvalidCardsError, "position 2: level")
    b[0] = np.uint64(2**64 - 1)
    check(lambda: list(batch.iter_legal_moves(H, L, b)), InvalidMoveError, "position 0: the play to beat")


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: batch.count_moves(H, L, threads="a"), GuandanError, "threads"),
        (lambda: batch.count_moves(H, L, threads=0), GuandanError, "threads"),
        (lambda: batch.count_moves(H, L, granularity="x"), GuandanError, "granularity"),
        (lambda: batch.legal_moves(H, L, granularity="x"), GuandanError, "granularity"),
        (lambda: batch.iter_legal_moves(H, L, granularity="x"), GuandanError, "granularity"),
        (lambda: batch.iter_legal_moves(H, L, buffer_moves=0), GuandanError, "buffer_moves"),
        (lambda: batch.iter_legal_moves(H, L, buffer_moves="a"), GuandanError, "buffer_moves"),
        (lambda: batch.lead_beats(-1), GuandanError, "n must be"),
        (lambda: batch.lead_beats("a"), GuandanError, "n must be"),
        (lambda: batch.action_indices("x"), InvalidMoveError, "integers"),
        (lambda: _core.batch_count(H, L, B, "rank", 5), GuandanError, "start"),
        (lambda: _core.batch_count(H, L, B, "rank", 2, 1), GuandanError, "bad range"),
        (lambda: _core.batch_count(H, L, B, "rank", 0, "a"), GuandanError, "end"),
        (
            lambda: _core.batch_count(H, L, B, "rank", 0, None, np.zeros(2, np.int64)),
            InvalidCardsError,
            r"shape \(3,\)",
        ),
        (lambda: _core.batch_count(H, L, B, "rank", 0, None, np.zeros(3, np.int32)), InvalidCardsError, "int64"),
        (lambda: _core.batch_count(H, L, B, "rank", 0, None, [0, 0, 0]), InvalidCardsError, "int64"),
        (
            lambda: _core.batch_count(H, L, B, "rank", 0, None, np.frombuffer(bytes(24), np.int64)),
            InvalidCardsError,
            "read-only",
        ),
        (lambda: _core.batch_mask(H, L, B, 0, None, np.zeros((3, 5), bool)), InvalidCardsError, "2213"),
        (
            lambda: _core.batch_mask(H, L, B, 0, None, np.frombuffer(bytes(3 * 2213), bool).reshape(3, 2213)),
            InvalidCardsError,
            "read-only",
        ),
        (lambda: _core.batch_rank_moves(H, L, B, -1), GuandanError, "start"),
        (lambda: _core.batch_card_moves(H, L, B, 0, 4), GuandanError, "end"),
        (
            lambda: _core.fill_rank_moves(H, L, B, 0, 3, np.empty(100, np.uint64), np.zeros(4, np.int64)),
            InvalidCardsError,
            "at least 4096",
        ),
        (
            lambda: _core.fill_rank_moves(H, L, B, 0, 3, np.empty(5000, np.uint64), np.zeros(2, np.int64)),
            InvalidCardsError,
            "offsets needs room",
        ),
        (
            lambda: _core.fill_rank_moves(H, L, B, 0, 3, np.empty(5000, np.int64), np.zeros(4, np.int64)),
            InvalidCardsError,
            "writable C-contiguous uint64",
        ),
        (
            lambda: _core.fill_rank_moves(H, L, B, 0, 3, np.frombuffer(bytes(40000), np.uint64), np.zeros(4, np.int64)),
            InvalidCardsError,
            "writable",
        ),
        (
            lambda: _core.fill_card_moves(H, L, B, 0, 3, np.empty((100, 3), np.uint64), np.zeros(4, np.int64)),
            InvalidCardsError,
            "writable C-contiguous uint64",
        ),
        (
            lambda: _core.fill_card_moves(H, L, B, 0, 3, np.empty((1, 2), np.uint64), np.zeros(4, np.int64)),
            InvalidCardsError,
            "alone has",
        ),
        (
            lambda: _core.fill_card_moves(H, L, B, 3, 2, np.empty((100, 2), np.uint64), np.zeros(4, np.int64)),
            GuandanError,
            "bad range 3..2",
        ),
        (
            lambda: _core.fill_card_moves(H, L, B, 0, 3, np.empty((100, 2), np.uint64), np.zeros(4, np.float64)),
            InvalidCardsError,
            "offsets",
        ),
    ],
)
def test_batch_arguments_and_buffers_are_checked(call, error, match):
    check(call, error, match)


def test_a_batch_accepts_read_only_inputs_and_empty_batches():
    ro = np.frombuffer(H.tobytes(), dtype=np.uint8).reshape(3, 54)
    assert batch.count_moves(ro, L).tolist() == batch.count_moves(H, L).tolist()
    empty = np.zeros((0, 54), np.uint8), np.zeros(0, np.uint8)
    assert batch.count_moves(*empty, threads=2).shape == (0,)
    assert batch.legal_mask(*empty).shape == (0, len(batch.ACTION_SPACE))
    moves, offsets = batch.legal_moves(*empty, granularity="card")
    assert moves.shape == (0, 2) and offsets.tolist() == [0]
    assert list(batch.iter_legal_moves(*empty)) == []


# -- deals -----------------------------------------------------------------------------------------

TWENTY_EIGHT = Cards.from_cards(list(range(28)))


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: Deal([TWENTY_EIGHT, "SB", "HR", "SB"], 2, 0), InvalidCardsError, "seat 0 holds 28 cards"),
        (lambda: Deal(["S3", Cards.deck() - Cards.parse("S3 S3"), "", ""], 2, 0), InvalidCardsError, "106 cards"),
        (lambda: Deal(["S3 S3", "S3", "S4", "S5"], 2, 0), InvalidCardsError, "S3 is dealt more than twice"),
        (lambda: Deal(None), InvalidCardsError, "four hands"),
        (lambda: Deal("S3 S4 S5 S6"), InvalidCardsError, "four hands"),
        (lambda: Deal([1, 2, 3, 4]), InvalidCardsError, "iterable"),
        (lambda: Deal(["S3"] * 5), InvalidCardsError, "four hands"),
        (lambda: Deal(["S3", "S4", "S5", "S6"], 2, 4), IllegalMoveError, "leader is a seat"),
        (lambda: Deal(["S3", "S4", "S5", "S6"], 2, "0"), IllegalMoveError, "leader is a seat"),
        (lambda: Deal(["S3", "S4", "S5", "S6"], 2, 1.0), IllegalMoveError, "leader is a seat"),
        (lambda: Deal(["S3", "S4", "S5", "S6"], 2, True), IllegalMoveError, "leader is a seat"),
        (lambda: Deal(["S3", "S4", "S5", ""], 2, 3, finish_order=(3,)), IllegalMoveError, "holds no cards"),
        (lambda: Deal(["S3", "S4", "S5", ""], 2, 0, finish_order="3"), IllegalMoveError, "finish order"),
        (lambda: Deal(["S3", "S4", "S5", ""], 2, 0, finish_order=None), IllegalMoveError, "finish order"),
        (lambda: Deal(["S3", "S4", "S5", ""], 2, 0, finish_order=[3.5]), IllegalMoveError, "finish order"),
        (lambda: Deal(["S3", "S4", "S5", ""], 2, 0, finish_order=[3, 3]), IllegalMoveError, "distinct"),
        (lambda: Deal(["S3", "S4", "S5", ""], 2, 0), IllegalMoveError, "seat 3 holds no cards"),
        (lambda: Deal(["S3", "", "S5", ""], 2, 0, finish_order=(1, 3)), IllegalMoveError, "already ended"),
        (lambda: Deal(["S3", "S4", "S5", "S6"], 15, 0), InvalidCardsError, "level"),
        (lambda: Deal(["S3", "S4", "S5", "S6"], 2, 0, ruleset="x"), GuandanError, "unknown ruleset"),
        (lambda: Deal(["S3", "S4", "S5", "S6"], 2, 0, ruleset=5), GuandanError, "ruleset"),
        (lambda: Deal(["S3", "S4", "S5", "S6"], 2, 0, seed="x"), GuandanError, "seed"),
        (lambda: Deal(["S3", "S4", "S5", "S6"], 2, 0, opening=5), GuandanError, "opening"),
        (lambda: Deal.new("x"), GuandanError, "seed"),
        (lambda: Deal.new(1.5), GuandanError, "seed"),
        (lambda: Deal.new(1, 2, 9), IllegalMoveError, "leader"),
        (lambda: guandan.game.deal.jiefeng_leader(5, [1, 1, 1, 1]), GuandanError, "seat 0..3"),
        (lambda: guandan.game.deal.jiefeng_leader(0, [0, 0, 0, 0]), GuandanError, "no seat holds cards"),
        (lambda: guandan.game.deal.opening_leader([Cards()] * 4, 3), InvalidCardsError, "no cards dealt"),
    ],
)
def test_bad_deals_are_refused(call, error, match):
    check(call, error, match)


def small_deal():
    return Deal(["S3 S4 C4", "S9 SK", "D5", "D6 HA"], level=2, leader=0)


@pytest.mark.parametrize(
    "act, error, match",
    [
        (lambda d: d.play(None), InvalidMoveError, "not a move"),
        (lambda d: d.play("S3"), InvalidMoveError, "not a move"),
        (lambda d: d.play(classify("S9", 2)[0]), IllegalMoveError, "does not hold S9"),
        (lambda d: d.play(classify("S3", 3)[0]), IllegalMoveError, "wrong level"),
        (lambda d: d.play(Move.pass_(2)), IllegalMoveError, "cannot pass"),
        (lambda d: d.play(RankMove.pass_(2)), IllegalMoveError, "cannot pass"),
        (
            lambda d: d.play(Move(MoveType.PAIR, Rank.FOUR, None, Cards.parse("S3 S4"), Rank.TWO)),
            InvalidMoveError,
            "cannot be played as pair:4",
        ),
        (lambda d: d.play(classify("S9", 2)[0].to_rank()), IllegalMoveError, "not a legal move"),
        (lambda d: d.play(d.legal_moves()[0], seat=1), IllegalMoveError, "not seat 1's turn"),
        (lambda d: d.play(d.legal_moves()[0], seat=9), IllegalMoveError, "not seat 9's turn"),
        (lambda d: d.play(d.legal_moves()[0], seat="0"), IllegalMoveError, "turn"),
        (lambda d: d.play(d.legal_moves()[0], seat=False), IllegalMoveError, "turn"),
        (lambda d: d.play_index(99), IllegalMoveError, "out of range"),
        (lambda d: d.play_index(-99), IllegalMoveError, "out of range"),
        (lambda d: d.play_index("0"), IllegalMoveError, "move index is an int"),
        (lambda d: d.play_index(0.0), IllegalMoveError, "move index is an int"),
        (lambda d: d.play_index(2**70), IllegalMoveError, "out of range"),
        (lambda d: d.act("x"), InvalidMoveError, "not a move"),
        (lambda d: d.verify_play(None), InvalidMoveError, "not a move"),
        (lambda d: d.undo(), IllegalMoveError, "nothing to undo"),
        (lambda d: d.legal_moves("x"), GuandanError, "granularity"),
        (lambda d: d.hand(9), GuandanError, "seat 0..3"),
        (lambda d: d.hand(-1), GuandanError, "seat 0..3"),
        (lambda d: d.observation(4), GuandanError, "seat 0..3"),
        (lambda d: d.observation(-1), GuandanError, "seat 0..3"),
        (lambda d: protocol.apply_action(d, None), InvalidMoveError, "list of three"),
        (lambda d: protocol.apply_action(d, ["Single", "9", ["S9"]]), IllegalMoveError, "does not hold"),
        (lambda d: protocol.apply_action(d, ["tribute", "tribute", ["S3"]]), IllegalMoveError, "not what is due"),
    ],
)
def test_a_rejected_action_leaves_the_deal_exactly_as_it_was(act, error, match):
    deal = small_deal()
    before = deal.snapshot()
    moves = deal.legal_moves().array.copy()
    check(lambda: act(deal), error, match)
    assert deal.snapshot() == before
    assert np.array_equal(deal.legal_moves().array, moves)
    assert not deal.can_play(None) and not deal.can_play(classify("S9", 2)[0], seat=7)


def test_a_finished_deal_refuses_every_play():
    deal = Deal(["S3", "S4", "S5", "S6"], level=2, leader=0)
    deal.play_index(0)
    deal.play_index(0)
    deal.play_index(0)
    assert deal.is_over
    before = deal.snapshot()
    for act in (lambda: deal.play(Move.pass_(2)), lambda: deal.play_index(0)):
        check(act, IllegalMoveError, "over")
    check(lambda: deal.native_state(), IllegalMoveError, "over")
    assert deal.snapshot() == before


# -- matches ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: Match(levels=(2,)), InvalidCardsError, "both sides' levels"),
        (lambda: Match(levels=None), InvalidCardsError, "both sides' levels"),
        (lambda: Match(levels="23"), InvalidCardsError, "both sides' levels"),
        (lambda: Match(levels=(2, 15)), InvalidCardsError, "not a joker"),
        (lambda: Match(failures=("a", 0)), GuandanError, "failures"),
        (lambda: Match(failures=(-1, 0)), GuandanError, "failures"),
        (lambda: Match(failures=1), GuandanError, "failures"),
        (lambda: Match(deal_index=-5), GuandanError, "deal_index"),
        (lambda: Match(deal_index="x"), GuandanError, "deal_index"),
        (lambda: Match(levels=(2, 3), level_side=5), GuandanError, "level_side"),
        (lambda: Match(level_side=5), GuandanError, "level_side"),
        (lambda: Match(levels=(2, 3)), IllegalMoveError, "say whose level"),
        (lambda: Match(previous=(0, 1, 2, 2)), IllegalMoveError, "previous finish order"),
        (lambda: Match(previous="0123"), IllegalMoveError, "previous"),
        (lambda: Match(previous=5), IllegalMoveError, "previous"),
        (lambda: Match(previous=(0, 1, 9, 3)), IllegalMoveError, "previous"),
        (lambda: Match(previous=(0, 1.0, 2, 3)), IllegalMoveError, "previous"),
        (lambda: Match(previous=(0, 1)), IllegalMoveError, "double-down"),
        (lambda: Match(previous=(0, 2, 1, 3)), IllegalMoveError, "double-down"),
        (lambda: Match(hands=[[TWENTY_EIGHT, "SB", "HR", "S3"]]), InvalidCardsError, r"hands\[0\]: seat 0 holds 28"),
        (lambda: Match(hands=[["S3 S3", "S3", "S4", "S5"]]), InvalidCardsError, "more than twice"),
        (lambda: Match(hands=[["", "", "", ""]]), InvalidCardsError, "no cards dealt"),
        (lambda: Match(hands=[["S3", "S4", "S5"]]), InvalidCardsError, "four hands"),
        (
            lambda: Match(hands=[["S3", "S4", "S5", "S6"], ["S3", "", "S5", "S6"]]),
            InvalidCardsError,
            r"hands\[1\]: seat 1 holds no cards",
        ),
        (lambda: Match(hands="S3"), InvalidCardsError, "list of deals"),
        (lambda: Match(hands=[None]), InvalidCardsError, "four hands"),
        (lambda: Match(seed="x"), GuandanError, "seed"),
        (lambda: Match(seed=1.5), GuandanError, "seed"),
        (lambda: Match(ruleset="x"), GuandanError, "unknown ruleset"),
    ],
)
def test_bad_matches_are_refused(call, error, match):
    check(call, error, match)


def tribute_match():
    return Match(seed=3, levels=(5, 9), previous=(1, 0, 3, 2), hands=[["S3 HR", "D4 HR", "S8 SA DA", "C5"]])


@pytest.mark.parametrize(
    "act, error, match",
    [
        (lambda m: m.pay_tribute("S8"), IllegalMoveError, "highest card"),
        (lambda m: m.pay_tribute("HA"), IllegalMoveError, "does not hold HA"),
        (lambda m: m.pay_tribute("DA", seat=0), IllegalMoveError, "not seat 0's turn"),
        (lambda m: m.pay_tribute("DA", seat=True), IllegalMoveError, "turn"),
        (lambda m: m.pay_tribute(99), InvalidCardsError, "card index 0..53"),
        (lambda m: m.pay_tribute(None), InvalidCardsError, "card index"),
        (lambda m: m.pay_tribute("XX"), InvalidCardsError, "bad card token"),
        (lambda m: m.return_card("S3"), IllegalMoveError, "no return is due"),
        (lambda m: m.play(None), IllegalMoveError, "no play now"),
        (lambda m: m.play_index(0), IllegalMoveError, "no play now"),
        (lambda m: m.act(None), InvalidCardsError, "card index"),
        (lambda m: m.observation(7), GuandanError, "seat 0..3"),
        (lambda m: protocol.apply_action(m, ["back", "back", ["S3"]]), IllegalMoveError, "not what is due"),
        (lambda m: protocol.apply_action(m, ["tribute", "tribute", ["SZ"]]), InvalidCardsError, "'SZ'"),
    ],
)
def test_a_rejected_action_leaves_the_match_exactly_as_it_was(act, error, match):
    m = tribute_match()
    before = m.snapshot()
    check(lambda: act(m), error, match)
    assert m.snapshot() == before
    m.pay_tribute("DA")
    before = m.snapshot()
    for call, err in (
        (lambda: m.return_card("HR"), IllegalMoveError),
        (lambda: m.pay_tribute("SA"), IllegalMoveError),
        (lambda: m.return_card("D4", seat=0), IllegalMoveError),
    ):
        check(call, err)
        assert m.snapshot() == before


def test_a_rejected_play_in_a_match_changes_nothing():
    m = Match(seed=1)
    before = m.snapshot()
    for act in (
        lambda: m.play(None),
        lambda: m.play_index("a"),
        lambda: m.pay_tribute("S3"),
        lambda: m.play(Move.pass_(2)),
    ):
        with pytest.raises(GuandanError):
            act()
        assert m.snapshot() == before


# -- records ---------------------------------------------------------------------------------------


def finished_deal_record():
    deal = Deal.new(seed=11, level=5)
    loop.play_out(deal, [agents.GreedyAgent()] * 4)
    return records.record(deal)


@pytest.mark.parametrize(
    "corrupt, match",
    [
        (lambda r: None, "a record is a JSON object"),
        (lambda r: [], "a record is a JSON object"),
        (lambda r: {}, "format"),
        (lambda r: {**r, "version": 2}, "version"),
        (lambda r: {**r, "rules": None}, "bad rules"),
        (lambda r: {**r, "rules": {**r["rules"], "promotion": "abc"}}, "bad rules"),
        (lambda r: {**r, "rules": {**r["rules"], "extra": 1}}, "bad rules"),
        (lambda r: {**r, "ruleset": "huaian"}, "names ruleset"),
        (lambda r: {**r, "level": "Z"}, "cannot set up"),
        (lambda r: {**r, "hands": None}, "record field hands is a list, got null"),
        (lambda r: {**r, "hands": [["S3"], ["S4"], ["S5"]]}, "record field hands has 4 items, got 3"),
        (lambda r: {**r, "hands": [["S3"], ["S4"], ["S5"], [5]]}, "record field hands.3.0 is a string, got 5"),
        (lambda r: {**r, "seed": "x"}, 'record field seed is an int or null, got "x"'),
        (lambda r: {**r, "seed": True}, "record field seed is an int or null, got true"),
        (lambda r: {**r, "level": 5}, "record field level is a string, got 5"),
        (lambda r: {**r, "seed": None, "hands": [["S3"] * 3] * 4}, "cannot set up"),
        (lambda r: {**r, "leader": 7}, "cannot set up"),
        (lambda r: {**r, "leader": None}, "record field leader is an int, got null"),
        (lambda r: {**r, "leader": False}, "record field leader is an int, got false"),
        (lambda r: {k: v for k, v in r.items() if k != "leader"}, "record field leader is missing"),
        (lambda r: {**r, "actions": None}, "record field actions is a list, got null"),
        (lambda r: {**r, "seed": None, "finished_before": [True]}, "record field finished_before.0 is an int"),
        (lambda r: {**r, "actions": [None]}, "action 0"),
        (lambda r: {**r, "actions": [[1, 2]]}, "action 0"),
        (lambda r: {**r, "actions": [{"seat": 0}]}, "action 0"),
        (lambda r: {**r, "actions": [{**r["actions"][0], "cards": "S3"}] + r["actions"][1:]}, "action 0"),
        (lambda r: {**r, "actions": [{**r["actions"][0], "type": 5}] + r["actions"][1:]}, "action 0"),
        (lambda r: {**r, "actions": [{**r["actions"][0], "seat": 9}] + r["actions"][1:]}, "action 0"),
        (lambda r: {**r, "actions": [{**r["actions"][0], "seat": True}]}, "action 0 field seat is an int, got true"),
        (lambda r: {**r, "actions": [{**r["actions"][0], "size": 1.0}]}, "action 0 field size is an int, got 1.0"),
        (lambda r: {**r, "actions": [{**r["actions"][0], "key": 5}]}, "action 0 field key is a string or null"),
        (lambda r: {**r, "actions": [{**r["actions"][0], "as": "S3"}]}, "action 0 field as is a list"),
        (lambda r: {**r, "actions": r["actions"][1:]}, "action 0"),
        (lambda r: {**r, "actions": r["actions"][:-1]}, "record field"),
        (lambda r: {**r, "over": 1}, "record field over"),
        (lambda r: {**r, "finish_order": [0, 1, 2]}, "record field finish_order"),
        (lambda r: {**r, "unexpected": 1}, "unexpected"),
    ],
)
def test_a_corrupt_deal_record_raises_record_error(corrupt, match):
    record = finished_deal_record()
    check(lambda: records.replay(corrupt(copy.deepcopy(record))), RecordError, match)


def match_record():
    m = tribute_match()
    m.pay_tribute("DA")
    m.return_card("D4")
    loop.play_out(m, [agents.GreedyAgent()] * 4, max_actions=30)
    return records.record(m)


@pytest.mark.parametrize(
    "corrupt, match",
    [
        (lambda r: {**r, "start": None}, "record field start is an object, got null"),
        (lambda r: {**r, "start": {**r["start"], "levels": ["5"]}}, "record field start.levels has 2 items, got 1"),
        (lambda r: {**r, "start": {**r["start"], "levels": ["5", "Z"]}}, "cannot set up the match: bad level 'Z'"),
        (lambda r: {**r, "start": {**r["start"], "failures": [0, False]}}, "record field start.failures.1 is an int"),
        (lambda r: {**r, "start": {**r["start"], "deal_index": -1}}, "cannot set up the match: deal_index"),
        (lambda r: {**r, "start": {**r["start"], "hands_given": 3}}, "hands_given is 3, but the record has 2 deals"),
        (lambda r: {**r, "start": {**r["start"], "previous": [1, 0, 3, "2"]}}, "start.previous.3 is an int"),
        (lambda r: {**r, "deals": None}, "record field deals is a list, got null"),
        (lambda r: {**r, "deals": [None] + r["deals"][1:]}, "record field deals.0 is an object, got null"),
        (lambda r: {**r, "deals": [{**r["deals"][0], "actions": None}] + r["deals"][1:]}, "deals.0.actions is a list"),
        (lambda r: {**r, "deals": [{**r["deals"][0], "index": True}] + r["deals"][1:]}, "deals.0.index is an int"),
        (lambda r: {**r, "deals": [{**r["deals"][0], "index": 7}] + r["deals"][1:]}, "deal number 7"),
        (lambda r: {**r, "deals": [{**r["deals"][0], "hands": [["S3"]] * 4}] + r["deals"][1:]}, "cannot set up"),
        (lambda r: {**r, "start": {**r["start"], "hands_given": 0}}, "deal 0: the hands of the record"),
        (
            lambda r: {**r, "deals": [{**r["deals"][0], "actions": [{"seat": 2, "type": "tribute", "card": None}]}]},
            "deal 0 action 0",
        ),
        (lambda r: {**r, "deals": [{**r["deals"][0], "actions": r["deals"][0]["actions"][1:]}]}, "deal 0 action 0"),
        (lambda r: {**r, "winner": 0}, "record field winner"),
    ],
)
def test_a_corrupt_match_record_raises_record_error(corrupt, match):
    record = match_record()
    assert records.replay(copy.deepcopy(record)) is not None
    check(lambda: records.replay(corrupt(copy.deepcopy(record))), RecordError, match)


def test_bad_record_helpers_raise():
    check(lambda: records.move_from_json(None, 2), RecordError, "an action is an object, got null")
    check(lambda: records.move_from_json({}, 2), RecordError, "action field type is missing")
    check(lambda: records.move_from_json({"type": 1}, 2), RecordError, "action field type is a string, got 1")
    check(lambda: records.move_from_json({"type": "single", "cards": None}, 2), RecordError, "field cards is a list")
    check(lambda: records.move_from_json({"type": "single", "cards": [3]}, 2), RecordError, "field cards.0 is a string")
    check(lambda: records.move_from_json({"type": "bomb", "cards": ["S3"]}, 2), GuandanError, "cannot be played")
    check(lambda: records.record("x"), GuandanError, "not a deal or a match")


# -- protocol, rules, playouts, perft, determinization, agents, randomness -----------------------


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: protocol.from_action(None, 2), InvalidMoveError, "list of three"),
        (lambda: protocol.from_action(["Single", "3", [1]], 2), InvalidCardsError, "must be a string"),
        (lambda: protocol.from_action(["Single", "3", [None]], 2), InvalidCardsError, "must be a string"),
        (lambda: protocol.from_action({"a": 1, "b": 2, "c": 3}, 2), InvalidMoveError, "list of three"),
        (lambda: protocol.to_action(None), InvalidMoveError, "not a move"),
        (lambda: protocol.to_action(classify("S3", 2)[0].to_rank()), InvalidMoveError, "physical cards"),
        (lambda: protocol.tribute_action(99), InvalidCardsError, "card index"),
        (lambda: protocol.tribute_action(None), InvalidCardsError, "card index"),
        (lambda: protocol.parse_tribute_action(["back", "back", ["S3", "S4"]]), InvalidMoveError, "exactly one"),
        (lambda: rules.Ruleset("x", "y", promotion=(1, 2)), GuandanError, "promotion"),
        (lambda: rules.Ruleset("x", "y", promotion="abc"), GuandanError, "promotion"),
        (lambda: rules.Ruleset("x", "y", return_rule="z"), GuandanError, "return_rule"),
        (lambda: rules.Ruleset("x", "y", failed_a_limit=0), GuandanError, "failed_a_limit"),
        (lambda: rules.Ruleset("x", "y", max_deals=1.5), GuandanError, "max_deals"),
        (lambda: rules.Ruleset("x", "y", plain_straight_flush="no"), GuandanError, "plain_straight_flush"),
        (lambda: rules.Ruleset.from_json(None), GuandanError, "JSON object"),
        (lambda: rules.Ruleset.from_json({}), GuandanError, "promotion"),
        (lambda: rules.Ruleset.from_json({"promotion": [3, 2, 1]}), GuandanError, "not a ruleset"),
        (lambda: rules.get_ruleset(5), GuandanError, "ruleset"),
        (lambda: rules.get_ruleset("nanjing+cap0"), GuandanError, "unknown ruleset"),
        (lambda: scoring.promote(20, 1), InvalidCardsError, "level"),
        (lambda: scoring.promote(5, -10), GuandanError, "gain"),
        (lambda: scoring.promote(5, "a"), GuandanError, "gain"),
        (lambda: tribute.tribute_choices(b"", 2), InvalidCardsError, "count vector"),
        (lambda: tribute.tribute_choices(None, 2), InvalidCardsError, "count vector"),
        (lambda: tribute.return_choices(bytes(54), 2, "x"), GuandanError, "return rule"),
        (lambda: rules.COMPETITIVE_2022.gain(1), GuandanError, "2nd, 3rd or 4th"),
        (lambda: rules.COMPETITIVE_2022.with_deal_cap(0), GuandanError, "max_deals"),
        (lambda: playout.playouts(Deal.new(1), -1), GuandanError, "n must be"),
        (lambda: playout.playouts(Deal.new(1), 1, "x"), GuandanError, "policy"),
        (lambda: playout.playouts("deal", 1), GuandanError, "Deal"),
        (lambda: scoring.side_scores(np.zeros((1, 4), np.int8), 3), GuandanError, "side"),
        (lambda: scoring.side_scores(np.zeros(4, np.int8), 0), GuandanError, r"shape \(n, 4\)"),
        (lambda: scoring.side_scores("x", 0), GuandanError, r"shape \(n, 4\)"),
        (lambda: scoring.side_scores(np.full((1, 4), 7), 0), GuandanError, "seats 0..3"),
        (lambda: playout.policy_move(Deal.new(1), "x"), GuandanError, "policy"),
        (lambda: perft.perft(Deal.new(1), -1), GuandanError, "depth"),
        (lambda: perft.perft(Deal.new(1), "a"), GuandanError, "depth"),
        (lambda: perft.perft(Deal.new(1), 1, "x"), GuandanError, "implementation"),
        (lambda: perft.divide(Deal.new(1), 0), GuandanError, "depth"),
        (lambda: perft.divide(Deal.new(1), 1, "x"), GuandanError, "implementation"),
        (lambda: perft.position(1, 0), GuandanError, "cards"),
        (lambda: perft.position(1, 28), GuandanError, "cards"),
        (lambda: rng.SplitMix64("a"), GuandanError, "seed"),
        (lambda: rng.SplitMix64(1).below(0), GuandanError, "below"),
        (lambda: rng.SplitMix64(1).below(1.5), GuandanError, "below"),
        (lambda: rng.SplitMix64(1).choice([]), GuandanError, "below"),
        (lambda: rng.derive_seed("a", 1), GuandanError, "ints"),
        (lambda: determinize.sample_hands(9, Cards(), [0, 0, 0, 0], Cards()), InvalidCardsError, "seat"),
        (lambda: determinize.sample_hands(0, Cards(), [0], Cards()), InvalidCardsError, "card counts"),
        (lambda: determinize.sample_hands(0, "S3", [1, 0, 0, 0], Cards()), InvalidCardsError, "Cards"),
        (
            lambda: determinize.sample_hands(0, Cards(), [0, 27, 27, 27], Cards(), {5: Cards()}),
            InvalidCardsError,
            "known",
        ),
        (lambda: determinize.sample_hands(0, Cards(), [0, 0, 0, 0], Cards()), InvalidCardsError, "no deal"),
        (lambda: determinize.determinize(None), InvalidCardsError, "Observation"),
        (lambda: registry.make_agent("x"), GuandanError, "unknown agent"),
        (lambda: registry.make_agent(None), GuandanError, "an agent factory is a spec or a class"),
        (lambda: registry.make_agents(["greedy"] * 3), GuandanError, "one per seat"),
        (lambda: registry.make_agents(None), GuandanError, "agents are one spec, two .* or four"),
        (lambda: registry.make_agent("mc:depth=1"), GuandanError, "mc has no option 'depth'"),
        (lambda: registry.make_agent("no_module_here:Bot"), GuandanError, "no module named 'no_module_here'"),
        (lambda: loop.play_out(Deal.new(1), [agents.GreedyAgent()] * 3), GuandanError, "four agents"),
        (lambda: loop.play_out(Deal.new(1), [None] * 4), GuandanError, "act"),
        (lambda: agents.GreedyAgent().act(Deal.new(1, leader=0).observation(1)), IllegalMoveError, "not its turn"),
        (lambda: agents.RandomAgent().act(Deal.new(1, leader=0).observation(1)), IllegalMoveError, "not its turn"),
    ],
)
def test_bad_arguments_elsewhere_raise(call, error, match):
    check(call, error, match)


def test_search_and_simulation_arguments_are_checked():
    from guandan.bots import search, simulate

    for kwargs in ({"determinizations": 0}, {"playouts": 1.5}, {"candidates": -1}, {"policy": "x"}):
        check(lambda: search.BasicMonteCarloAgent(**kwargs), GuandanError)  # noqa: B023
    for kwargs, match in (
        ({"rollouts": 0}, "rollouts must be an int"),
        ({"rollouts": 2.5}, "rollouts must be an int"),
        ({"think_ms": 0}, "think_ms must be a number > 0"),
        ({"think_ms": "fast"}, "think_ms must be a number"),
        ({"threads": 0}, "threads must be an int 1..64"),
        ({"threads": True}, "threads must be an int"),
        ({"candidates": 0}, "candidates must be an int"),
        ({"policy": "x"}, "policy must be one of smart, greedy, random"),
        ({"tries": 0}, "tries must be an int"),
        ({"pass_weight": 0}, "pass_weight must be a number in"),
        ({"bomb_weight": 1.5}, "bomb_weight must be a number in"),
        ({"seed": "1"}, "seed must be an int"),
    ):
        check(lambda: search.MonteCarloAgent(**kwargs), GuandanError, match)  # noqa: B023
    for call in (
        lambda: simulate.simulate(1, kind="x", workers=1),
        lambda: simulate.simulate(-1, workers=1),
        lambda: simulate.simulate("a", workers=1),
        lambda: simulate.simulate(1, "x", workers=1),
        lambda: simulate.simulate(1, ruleset="x", workers=1),
        lambda: simulate.simulate(1, kind="deal", workers=-1),
        lambda: simulate.simulate(1, kind="deal", workers=1, chunk=0),
        lambda: simulate.wilson_interval(5, 2),
        lambda: simulate.Simulation("deal", [], 0, "x", 0, 0).write("/tmp/x.txt"),
    ):
        check(call, GuandanError)


def test_word_lists_mixing_large_and_small_words_are_not_turned_into_floats():
    # numpy makes float64 of [2**64 - 1, 2**60]; the core reads such lists word by word
    top, bottom = int(batch.ACTION_SPACE[-1]), int(batch.ACTION_SPACE[0])
    assert top >= 2**63
    assert batch.action_indices([top, bottom]).tolist() == [len(batch.ACTION_SPACE) - 1, 0]


@pytest.mark.parametrize(
    "make, match",
    [
        (lambda: Move(MoveType.SINGLE, Rank.THREE, None, 3, Rank.TWO), "cards are Cards"),
        (lambda: Move(MoveType.SINGLE, Rank.THREE, None, b"S3", Rank.TWO), "cards are Cards"),
        (lambda: Move(1.0, Rank.THREE, None, Cards.parse("S3"), Rank.TWO), "unknown move type"),
        (lambda: Move(True, Rank.THREE, None, Cards.parse("S3"), Rank.TWO), "unknown move type"),
        (lambda: Move(11, Rank.THREE, None, Cards.parse("S3"), Rank.TWO), "unknown move type"),
        (lambda: Move(MoveType.SINGLE, 3.0, None, Cards.parse("S3"), Rank.TWO), "move's key"),
        (lambda: Move(MoveType.SINGLE, "Z", None, Cards.parse("S3"), Rank.TWO), "move's key"),
        (lambda: Move(MoveType.SINGLE, Rank.THREE, 1.0, Cards.parse("S3"), Rank.TWO), "move's suit"),
        (lambda: Move(MoveType.SINGLE, Rank.THREE, 4, Cards.parse("S3"), Rank.TWO), "move's suit"),
        (lambda: Move(MoveType.SINGLE, Rank.THREE, None, Cards.parse("S3"), 2.0), "move's level"),
        (lambda: Move(MoveType.SINGLE, Rank.THREE, None, Cards.parse("S3"), Rank.BIG_JOKER), "move's level"),
        (lambda: Move(MoveType.SINGLE, Rank.THREE, None, Cards.parse("S3"), np.bool_(True)), "move's level"),
        (lambda: RankMove(MoveType.SINGLE, Rank.THREE, None, (0, 1), 0, Rank.TWO), "15 ints"),
        (lambda: RankMove(MoveType.SINGLE, Rank.THREE, None, "abc", 0, Rank.TWO), "15 ints"),
        (lambda: RankMove(MoveType.SINGLE, Rank.THREE, None, 5, 0, Rank.TWO), "15 ints"),
        (lambda: RankMove(MoveType.SINGLE, Rank.THREE, None, (0, 1.0) + (0,) * 13, 0, Rank.TWO), "15 ints"),
        (lambda: RankMove(MoveType.SINGLE, Rank.THREE, None, (0, True) + (0,) * 13, 0, Rank.TWO), "15 ints"),
        (lambda: RankMove(MoveType.SINGLE, Rank.THREE, None, (0, -1) + (0,) * 13, 0, Rank.TWO), "15 ints"),
        (lambda: RankMove(MoveType.SINGLE, Rank.THREE, None, (0, 2**70) + (0,) * 13, 0, Rank.TWO), "15 ints"),
        (lambda: RankMove(MoveType.SINGLE, Rank.THREE, None, (0,) * 13 + (3, 0), 0, Rank.TWO), "2 of each joker"),
        (lambda: RankMove(MoveType.SINGLE, Rank.THREE, None, np.ones(15), 0, Rank.TWO), "15 ints"),
        (lambda: RankMove(MoveType.SINGLE, Rank.THREE, None, (0,) * 15, 5, Rank.TWO), "wilds"),
        (lambda: RankMove(MoveType.SINGLE, Rank.THREE, None, (0,) * 15, 1.0, Rank.TWO), "wilds"),
        (lambda: RankMove(MoveType.SINGLE, Rank.THREE, None, (0,) * 15, np.True_, Rank.TWO), "wilds"),
    ],
)
def test_moves_are_made_only_of_fields_of_their_types(make, match):
    check(make, InvalidMoveError, match)


def test_move_fields_take_ints_and_names_and_keep_their_types():
    made = Move(np.int8(2), "5", None, [np.int64(12), 13], np.uint8(2))
    assert made == classify("S5 H5", 2)[0]
    assert type(made.type) is MoveType and type(made.key) is Rank and type(made.level) is Rank
    flush = Move("straight_flush", np.int16(9), np.uint8(0), "S9 ST SJ SQ SK", "2")
    assert flush == classify("S9 ST SJ SQ SK", 2)[1] and type(flush.suit) is guandan.Suit
    counted = RankMove(2, 5, None, np.array([0, 0, 0, 2] + [0] * 11, dtype=np.int32), np.int64(0), "2")
    assert counted == classify("S5 H5", 2)[0].to_rank() and counted.ranks == (0, 0, 0, 2) + (0,) * 11
    assert all(type(n) is int for n in counted.ranks) and type(counted.wilds) is int
