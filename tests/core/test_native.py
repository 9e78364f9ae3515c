"""The native core against the reference generator, move for move (rules §5).

Any disagreement is a failure: the sets of packed moves must be identical, with no
move listed twice, at rank and card granularity, leading and responding, on a fixed
corpus of 10,000 positions from seeded games and on random and adversarial
positions from hypothesis.
"""

from __future__ import annotations

import pathlib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from refusals import check
from strategies import random_hand

import guandan
from guandan import (
    Cards,
    Deal,
    GuandanError,
    IllegalMoveError,
    InvalidCardsError,
    InvalidMoveError,
    Move,
    MoveType,
    classify,
    count_moves,
    legal_moves,
)
from guandan.core import _core
from guandan.core.movegen import pack_move, pack_rank_move, unpack_move, unpack_rank_move
from guandan.core.packed import PASS_WORD
from guandan.core.reference import generate_moves

CORPUS = np.load(pathlib.Path(__file__).resolve().parents[1] / "data" / "corpus.npz")


def reference_words(hand: Cards, level: int, beat_word: int, granularity: str) -> list:
    beat = None if beat_word == PASS_WORD else unpack_rank_move(beat_word, level)
    moves = generate_moves(hand, level, beat, granularity)  # type: ignore[arg-type]
    if granularity == "rank":
        return [pack_rank_move(m) for m in moves]  # type: ignore[arg-type]
    return [pack_move(m) for m in moves]  # type: ignore[arg-type]


def native_words(hand: Cards, level: int, beat_word: int, granularity: str) -> list:
    if granularity == "rank":
        return [int(w) for w in _core.rank_moves(hand.counts, level, beat_word)]
    return [(int(lo), int(hi)) for lo, hi in _core.card_moves(hand.counts, level, beat_word)]


def assert_agree(hand: Cards, level: int, beat_word: int, granularity: str) -> None:
    native = native_words(hand, level, beat_word, granularity)
    reference = reference_words(hand, level, beat_word, granularity)
    assert len(native) == len(set(native)), "the native core lists a move twice"
    missing, extra = set(reference) - set(native), set(native) - set(reference)
    if missing or extra:
        show = unpack_rank_move if granularity == "rank" else (lambda w, lv: unpack_move(*w, lv))
        lines = [f"hand {hand} level {level} beat {hex(beat_word)} ({granularity})"]
        lines += [f"  missing: {show(w, level)}" for w in sorted(missing)[:10]]
        lines += [f"  extra:   {show(w, level)}" for w in sorted(extra)[:10]]
        raise AssertionError("\n".join(lines))
    count = _core.count_rank_moves if granularity == "rank" else _core.count_card_moves
    assert count(hand.counts, level, beat_word) == len(native)


# -- the corpus -------------------------------------------------------------------------------


def test_corpus_has_ten_thousand_positions_of_both_kinds():
    assert len(CORPUS["hands"]) >= 10_000
    leads = CORPUS["beats"] == np.uint64(PASS_WORD)
    assert 0 < leads.sum() < len(leads)
    assert set(np.unique(CORPUS["levels"])) == set(range(2, 15))


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(10))
def test_native_agrees_with_reference_on_corpus_rank_level(chunk):
    hands, levels, beats = CORPUS["hands"], CORPUS["levels"], CORPUS["beats"]
    for i in range(chunk, len(hands), 10):
        assert_agree(Cards(hands[i].tobytes()), int(levels[i]), int(beats[i]), "rank")


@pytest.mark.slow
def test_native_agrees_with_reference_on_corpus_card_level():
    hands, levels, beats = CORPUS["hands"], CORPUS["levels"], CORPUS["beats"]
    for i in range(0, len(hands), 7):
        assert_agree(Cards(hands[i].tobytes()), int(levels[i]), int(beats[i]), "card")


# the first ten hands in the quick part, all forty in the whole suite (each a fifth of a second)
FRESH_SEEDS = [seed if seed < 10 else pytest.param(seed, marks=pytest.mark.slow) for seed in range(40)]


@pytest.mark.parametrize("seed", FRESH_SEEDS)
def test_native_agrees_with_reference_on_fresh_27_card_hands(seed):
    """Full hands straight from the deal, leading and answering plays of every type."""
    rng = np.random.default_rng(1000 + seed)
    level = int(rng.integers(2, 15))
    hand = random_hand(rng)
    assert_agree(hand, level, PASS_WORD, "card")
    assert_agree(hand, level, PASS_WORD, "rank")
    other = [m for m in legal_moves(random_hand(rng, 14), level, granularity="rank")]
    for beat in rng.choice(len(other), size=4, replace=False):
        word = pack_rank_move(other[int(beat)])  # type: ignore[arg-type]
        assert_agree(hand, level, word, "rank")
        assert_agree(hand, level, word, "card")


@pytest.mark.parametrize("seed", range(10))
def test_the_pass_is_the_last_move_when_responding(seed):
    """Callers (the greedy agent, the action space) take the last move as the pass: at both
    granularities, answering a play of every type, including the types the card level
    makes directly (full houses, straights)."""
    rng = np.random.default_rng(2000 + seed)
    level = int(rng.integers(2, 15))
    hand = random_hand(rng)
    plays = {}
    for move in legal_moves(random_hand(rng, 27), level, granularity="rank"):
        plays.setdefault(move.type, move)
    assert {MoveType.FULL_HOUSE, MoveType.STRAIGHT} <= set(plays)
    for play in plays.values():
        word = pack_rank_move(play)  # type: ignore[arg-type]
        rank = _core.rank_moves(hand.counts, level, word)
        card = _core.card_moves(hand.counts, level, word)
        assert int(rank[-1]) == PASS_WORD and PASS_WORD not in {int(w) for w in rank[:-1]}
        assert (int(card[-1, 0]), int(card[-1, 1])) == (0, PASS_WORD)
        assert all(int(hi) >> 60 != 0 for hi in card[:-1, 1])


# -- adversarial positions --------------------------------------------------------------------


@st.composite
def adversarial_positions(draw):
    """Hands heavy in what is hard: wilds, 8 of a rank, one-suit runs, jokers, ace-low windows."""
    level = draw(st.integers(2, 14))
    counts = bytearray(54)
    # a run of neighbouring ranks (possibly through the low ace), in one or more suits
    start = draw(st.integers(0, 13))
    length = draw(st.integers(2, 7))
    suits = draw(st.lists(st.integers(0, 3), min_size=1, max_size=4, unique=True))
    for p in range(start, min(start + length, 14)):
        rank = 14 if p == 0 else p + 1
        for s in suits:
            counts[4 * (rank - 2) + s] = draw(st.integers(0, 2))
    # maybe eight of a rank
    if draw(st.booleans()):
        rank = draw(st.integers(2, 14))
        for s in range(4):
            counts[4 * (rank - 2) + s] = 2
    # random extra cards
    for face in draw(st.lists(st.integers(0, 53), max_size=10)):
        counts[face] = min(2, counts[face] + 1)
    counts[4 * (level - 2) + 1] = draw(st.sampled_from([0, 1, 2, 2, 2]))  # the wilds
    counts[52] = draw(st.integers(0, 2))
    counts[53] = draw(st.integers(0, 2))
    return Cards(counts), level


def _some_plays(level: int, seed: int) -> list[int]:
    rng = np.random.default_rng(seed)
    plays = legal_moves(random_hand(rng, 20), level, granularity="rank")
    picks = rng.choice(len(plays), size=min(3, len(plays)), replace=False)
    return [pack_rank_move(plays[int(i)]) for i in picks]  # type: ignore[arg-type]


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(adversarial_positions(), st.integers(0, 2**32 - 1))
def test_native_agrees_with_reference_on_adversarial_positions_rank_level(position, seed):
    hand, level = position
    assert_agree(hand, level, PASS_WORD, "rank")
    for word in _some_plays(level, seed):
        assert_agree(hand, level, word, "rank")


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(adversarial_positions(), st.integers(0, 2**32 - 1))
def test_native_agrees_with_reference_on_adversarial_positions_card_level(position, seed):
    hand, level = position
    if len(hand) > 22:  # keep the pure-Python side of the comparison quick
        return
    assert_agree(hand, level, PASS_WORD, "card")
    for word in _some_plays(level, seed):
        assert_agree(hand, level, word, "card")


@pytest.mark.slow
@pytest.mark.parametrize("level", range(2, 15))
def test_every_bomb_and_straight_flush_is_answered_correctly(level):
    """Each bomb class as the play to beat, against a hand holding every kind of bomb."""
    eight = 9 if level != 9 else 13  # eight natural cards of a rank other than the level
    hand = (
        Cards.parse("S3 S4 S5 S6 S7 SB SB HR HR S8 ST SJ")
        + Cards.from_cards([4 * (eight - 2) + s for s in range(4)] * 2)
        + Cards.from_cards([4 * (level - 2) + 1] * 2)
    )
    bombs = [m for m in legal_moves(hand, level, granularity="rank") if m.is_bomb]
    assert {m.type for m in bombs} == {MoveType.BOMB, MoveType.STRAIGHT_FLUSH, MoveType.JOKER_BOMB}
    for bomb in bombs:
        assert_agree(hand, level, pack_rank_move(bomb), "rank")  # type: ignore[arg-type]


# -- bounds, counts, views --------------------------------------------------------------------


def test_rank_level_buffer_bound_holds_for_the_whole_deck_at_every_level():
    """Moves are monotone in the hand, so the whole deck bounds every position."""
    most = max(_core.count_rank_moves(Cards.deck().counts, level) for level in range(2, 15))
    assert most + 1 <= _core.MAX_RANK_MOVES  # + 1: the pass when responding
    assert most == max(len(generate_moves(Cards.deck(), level, granularity="rank")) for level in (2, 14))


@pytest.mark.slow
@pytest.mark.parametrize("level", [2, 9, 14])
def test_card_level_moves_of_the_whole_deck_equal_the_reference(level):
    """Generation accepts any multiset; the whole deck has 180 physical pairs for its full
    houses (a fixed buffer of 133 overflowed here, found by fuzzing under UBSan)."""
    native = _core.card_moves(Cards.deck().counts, level)
    assert len(native) == _core.count_card_moves(Cards.deck().counts, level)
    expected = {pack_move(m) for m in generate_moves(Cards.deck(), level)}
    assert {(int(lo), int(hi)) for lo, hi in native} == expected and len(expected) == len(native)


@pytest.mark.slow
@pytest.mark.parametrize(("level", "wilds"), [(2, 0), (7, 1), (14, 2)])
def test_card_level_straights_answer_every_window(level, wilds):
    """Card-level straights are made directly, window by window: answer a straight of every
    key with one copy of every natural face and 0, 1 or 2 wilds (four suits a rank, wilds
    filling any one or two positions, ace-low and ace-high windows)."""
    wild = 4 * (level - 2) + 1
    hand = Cards.from_cards([f for f in range(52) if f != wild] + [wild] * wilds)
    line = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    for start in range(10):  # A-2-3-4-5 .. 10-J-Q-K-A
        cards = " ".join(("C" if i else "D") + r for i, r in enumerate(line[start : start + 5]))
        play = [m for m in classify(cards, level) if m.type is MoveType.STRAIGHT]
        assert len(play) == 1
        assert_agree(hand, level, pack_rank_move(play[0].to_rank()), "card")


def test_count_moves_and_legal_moves_agree_with_the_reference():
    hand = Cards.parse("S3 S4 C4 S5 C5 H7 H7 S8 S8 C8 D8 SB HR HR")
    play = classify("SJ CJ", 7)[0]
    for granularity in ("card", "rank"):
        for beat in (None, play):
            moves = legal_moves(hand, 7, beat, granularity)  # type: ignore[arg-type]
            play = beat if granularity == "card" or beat is None else beat.to_rank()
            reference = generate_moves(hand, 7, play, granularity)
            assert set(moves) == set(reference)
            assert count_moves(hand, 7, beat, granularity) == len(moves) == len(reference)  # type: ignore[arg-type]


def test_move_list_is_a_view_with_len_index_iteration_and_membership():
    hand = Cards.parse("S3 C4 D4 C5 D5 H2")
    moves = legal_moves(hand, 2)
    assert len(moves) == moves.count() == len(list(moves))
    first, last = moves[0], moves[-1]
    assert first in moves and last in moves and moves[len(moves) - 1] == last
    assert moves[1:3] == list(moves)[1:3]
    assert classify("S3 C4 D4 C5 D5 H2", 2)[0] in moves
    assert classify("S9", 2)[0] not in moves
    with pytest.raises(IndexError):
        moves[len(moves)]
    assert moves.array.dtype == np.uint64 and moves.array.shape == (len(moves), 2)


def test_packed_round_trips_for_every_move_of_a_rich_hand():
    hand = Cards.parse("S3 S4 C4 S5 C5 S6 S7 H7 H7 S8 C8 D8 D8 SB SB HR HR")
    for move in generate_moves(hand, 7):
        assert unpack_move(*pack_move(move), level=7) == move  # type: ignore[arg-type]
        rank = move.to_rank()
        assert unpack_rank_move(pack_rank_move(rank), 7) == rank
        assert _core.card_to_rank(*pack_move(move), 7) == pack_rank_move(rank)  # type: ignore[arg-type]


def test_pass_packs_to_the_pass_word():
    assert pack_rank_move(guandan.RankMove.pass_(2)) == PASS_WORD
    assert unpack_move(*pack_move(Move.pass_(5)), level=5) == Move.pass_(5)


# -- bad input: every native argument is checked ---------------------------------------------------


HAND = Cards.parse("S3 C4 D4 C5 D5 H2").counts


def deal_state():
    return (Deal.new(1)).native_state()


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
        (lambda s: _core.playouts(s, -1), GuandanError, "n is an int 0"),
        (lambda s: _core.playouts(s, 1.5), GuandanError, "n is an int"),
        (lambda s: _core.playouts(s, 2**62), GuandanError, "n is an int"),
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
        (lambda s: _core.evaluate([s], [1], 0), GuandanError, "n is an int 1"),
        (lambda s: _core.evaluate([s], [PASS_WORD + 1]), IllegalMoveError, "not a legal move"),
        (lambda s: _core.evaluate([s] * 4, list(_core.rank_moves(_counts(s), 2)[:4]), 2**39), GuandanError, "too many"),
    ],
)
def test_native_counts_policies_and_seeds_are_checked(call, error, match):
    check(lambda: call(deal_state()), error, match)


def _counts(state):
    hands, _, turn = state[0], state[1], state[2]
    return _core.unpack_cards(hands[turn] & (2**64 - 1), hands[turn] >> 64)
