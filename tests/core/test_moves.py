"""``guandan.core.moves``: the move types, their windows and the bomb types (rules §3), and a
``Move`` or ``RankMove`` that exists exactly when its cards (or counts and wilds) make its
declaration, checked at construction; classify, pure Python, is the independent judge here.
"""

from __future__ import annotations

import numpy as np
import pytest
from combos import (
    only,
)
from hypothesis import given, settings
from refusals import check
from strategies import counted_moves, declared_moves, small_hand_corpus

import guandan
from guandan import (
    BIG_JOKER,
    SMALL_JOKER,
    Cards,
    Deal,
    InvalidMoveError,
    Rank,
    RankMove,
    Suit,
    card,
    legal_moves,
    wild_card,
)
from guandan.core import _core, movegen
from guandan.core.classify import classify
from guandan.core.moves import BOMB_TYPES, Move, MoveType, window_keys, window_ranks
from guandan.core.reference import generate_moves

# -- windows and bomb types (rules §3) ---------------------------------------------------------


@pytest.mark.parametrize(
    "move_type, count, lowest, highest",
    [
        (MoveType.STRAIGHT, 10, "A2345", "TJQKA"),
        (MoveType.STRAIGHT_FLUSH, 10, "A2345", "TJQKA"),
        (MoveType.PAIR_RUN, 12, "A23", "QKA"),
        (MoveType.TRIPLE_RUN, 13, "A2", "KA"),
    ],
)
def test_window_counts_are_10_straights_12_pair_runs_13_triple_runs(move_type, count, lowest, highest):
    keys = window_keys(move_type)
    assert len(keys) == len(set(keys)) == count
    assert "".join(r.letter for r in window_ranks(move_type, keys[0])) == lowest
    assert "".join(r.letter for r in window_ranks(move_type, keys[-1])) == highest
    assert keys[0] == Rank.ACE  # the ace-low window is named A
    for key in keys:
        assert window_ranks(move_type, key)[0] == key  # a window is named by its lowest rank


def test_bomb_types_are_rank_bombs_straight_flushes_and_the_joker_bomb():
    assert BOMB_TYPES == {MoveType.BOMB, MoveType.STRAIGHT_FLUSH, MoveType.JOKER_BOMB}
    assert only("S3 C3 D3 S3", 2).is_bomb
    assert only("SB SB HR HR", 2).is_bomb
    assert only("S3 S4 S5 S6 S7", 2, MoveType.STRAIGHT_FLUSH).is_bomb
    assert not only("S3 S4 S5 S6 S7", 2, MoveType.STRAIGHT).is_bomb


# -- a move is valid when it exists ------------------------------------------------------------


def _card_declarations(cards: Cards, level: int) -> set[tuple]:
    """What classify says the cards can be declared as (the pass when they are no cards)."""
    found = {(m.type, m.key, m.suit) for m in classify(cards, level)}
    return found | {(MoveType.PASS, None, None)} if not cards else found


def _words(move_type, key, suit, cards: Cards, level: int) -> tuple[int, int]:
    """The two words of a declaration with its cards, laid out as csrc/gd_core.h says, whether
    or not the cards make the declaration."""
    lo, hi = _core.pack_cards(cards.counts)
    k = 15 if key is None else key - 2
    if move_type == MoveType.STRAIGHT_FLUSH:
        x = int(suit or 0)
    elif move_type == MoveType.FULL_HOUSE:
        x = 1 if cards.count(SMALL_JOKER) == 2 else 2 if cards.count(BIG_JOKER) == 2 else 0
    else:
        x = 0
    return lo, hi | move_type << 60 | k << 56 | x << 54 | cards.count(wild_card(level)) << 52


@pytest.mark.slow
@settings(max_examples=600, deadline=None)
@given(declared_moves())
def test_a_move_exists_exactly_when_its_cards_make_its_declaration(fields):
    move_type, key, suit, cards, level = fields
    valid = (move_type, key, suit) in _card_declarations(cards, level)
    representable = (suit is not None) == (move_type == MoveType.STRAIGHT_FLUSH)  # the words hold no other suit
    if valid:
        move = Move(move_type, key, suit, cards, level)
        assert move.is_pass or move in classify(cards, level)
        assert movegen.unpack_move(*movegen.pack_move(move), level) == move
        assert movegen.unpack_move(*_words(move_type, key, suit, cards, level), level) == move
        return
    with pytest.raises(InvalidMoveError):
        Move(move_type, key, suit, cards, level)
    if representable:
        with pytest.raises(InvalidMoveError):
            movegen.unpack_move(*_words(move_type, key, suit, cards, level), level)


def _realize(move_type, suit, ranks, wilds, level) -> Cards | None:
    """Cards with these counts: a straight flush's naturals in its suit, other moves' naturals
    one of each suit in turn; None when no cards have them."""
    wild = wild_card(level)
    counts = [0] * 54
    for r in range(13):
        if move_type == MoveType.STRAIGHT_FLUSH and suit is not None:
            faces = [card(r + 2, suit)] * 2
        else:
            faces = [card(r + 2, s) for _ in range(2) for s in Suit]
        faces = [f for f in faces if f != wild]
        if ranks[r] > len(faces):
            return None
        for f in faces[: ranks[r]]:
            counts[f] += 1
    counts[wild], counts[SMALL_JOKER], counts[BIG_JOKER] = wilds, ranks[13], ranks[14]
    return Cards(counts)


@pytest.mark.slow
@settings(max_examples=600, deadline=None)
@given(counted_moves())
def test_a_rank_level_move_exists_exactly_when_its_counts_make_its_declaration(fields):
    move_type, key, suit, ranks, wilds, level = fields
    cards = _realize(move_type, suit, ranks, wilds, level)
    valid = cards is not None and (move_type, key, suit, ranks, wilds) in {
        (r.type, r.key, r.suit, r.ranks, r.wilds) for r in (m.to_rank() for m in classify(cards, level))
    } | ({(MoveType.PASS, None, None, (0,) * 15, 0)} if not cards else set())
    if valid:
        move = RankMove(move_type, key, suit, ranks, wilds, level)
        assert movegen.unpack_rank_move(movegen.pack_rank_move(move), level) == move
        return
    with pytest.raises(InvalidMoveError):
        RankMove(move_type, key, suit, ranks, wilds, level)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(counted_moves())
def test_a_play_to_beat_given_as_a_word_is_checked_like_a_move(fields):
    move_type, key, suit, ranks, wilds, level = fields
    try:
        move = RankMove(move_type, key, suit, ranks, wilds, level)
    except InvalidMoveError:
        nibbles = sum(n << (4 * r) for r, n in enumerate(ranks[:13]))
        k = 15 if key is None else key - 2
        x = int(suit) if move_type == MoveType.STRAIGHT_FLUSH and suit is not None else 0
        word = move_type << 60 | k << 56 | x << 54 | wilds << 52 | nibbles
        representable = (suit is not None) == (move_type == MoveType.STRAIGHT_FLUSH)  # no other suit in a word
        # a word holds no joker counts: a joker single or pair, or the joker bomb, spends the jokers
        # its type and key say, so with no other card nor wild its word is that (valid) move
        jokers_by_key = move_type == MoveType.JOKER_BOMB or (key is not None and key >= Rank.SMALL_JOKER)
        if jokers_by_key and nibbles == 0 and wilds == 0:
            return
        if representable and ranks[13:] == (0, 0) and move_type not in (MoveType.PASS, MoveType.FULL_HOUSE):
            with pytest.raises(InvalidMoveError):
                legal_moves("S3 SB", level, beat=word)
        return
    if not move.is_pass:
        word = movegen.pack_rank_move(move)
        assert list(legal_moves("SB SB HR HR", level, beat=word)) == list(legal_moves("SB SB HR HR", level, beat=move))


@pytest.mark.slow
def test_every_move_the_engine_makes_is_one_the_constructors_accept():
    for hand, level in small_hand_corpus(seed=10, count=120):
        for move in legal_moves(hand, level):
            assert Move(move.type, move.key, move.suit, move.cards, move.level) == move
            rank = move.to_rank()
            assert RankMove(rank.type, rank.key, rank.suit, rank.ranks, rank.wilds, rank.level) == rank
        for move in generate_moves(hand, level, granularity="rank"):
            assert RankMove(move.type, move.key, move.suit, move.ranks, move.wilds, move.level) == move


# -- moves their cards do not make, each refused where it enters -------------------------------


def test_a_single_holding_a_joker_as_well_is_refused():
    with pytest.raises(InvalidMoveError, match="S3 SB cannot be played as single:3"):
        Move(MoveType.SINGLE, Rank.THREE, None, Cards.parse("S3 SB"), Rank.TWO)


def test_a_pass_holding_cards_is_refused_at_both_granularities():
    with pytest.raises(InvalidMoveError, match="a pass .* spends no cards"):
        Move(MoveType.PASS, None, None, Cards.parse("S3"), Rank.TWO)
    with pytest.raises(InvalidMoveError, match="a pass .* spends no cards"):
        RankMove(MoveType.PASS, None, None, (0, 1) + (0,) * 13, 0, Rank.TWO)
    with pytest.raises(InvalidMoveError, match="a pass"):
        RankMove(MoveType.PASS, None, None, (0,) * 15, 1, Rank.TWO)
    lo, _ = _core.pack_cards(Cards.parse("S3").counts)
    with pytest.raises(InvalidMoveError, match="a pass"):
        movegen.unpack_move(lo, movegen.PASS_WORD, 2)
    assert Move.pass_(2).cards == Cards() and RankMove.pass_(2).size == 0


def test_a_mixed_suit_straight_flush_is_refused_as_a_move_as_words_and_as_the_play_to_beat():
    mixed = Cards.parse("S3 S4 C5 S6 S7")
    with pytest.raises(InvalidMoveError, match="cannot be played as straight_flush:3 S .*they make straight:3"):
        Move(MoveType.STRAIGHT_FLUSH, Rank.THREE, Suit.SPADES, mixed, Rank.TWO)
    with pytest.raises(InvalidMoveError):
        movegen.unpack_move(*_words(MoveType.STRAIGHT_FLUSH, Rank.THREE, Suit.SPADES, mixed, 2), 2)
    flush = Move(MoveType.STRAIGHT_FLUSH, Rank.THREE, Suit.SPADES, "S3 S4 S5 S6 S7", Rank.TWO)
    assert flush in legal_moves("S3 S4 S5 S6 S7", 2)
    # a heart straight flush 3..7 with a natural 5 is a well-formed word, but at level 5 the
    # heart 5 is the wild: no cards make it
    hearts = Move(MoveType.STRAIGHT_FLUSH, Rank.THREE, Suit.HEARTS, "H3 H4 H5 H6 H7", Rank.TWO)
    word = movegen.pack_rank_move(hearts.to_rank())
    _core.check_move(word)
    with pytest.raises(InvalidMoveError, match="not a rank-level move at level 5"):
        legal_moves("SA CA DA HA", 5, beat=word)
    with pytest.raises(InvalidMoveError, match="cannot be played as straight_flush:3 H at level 5"):
        RankMove(MoveType.STRAIGHT_FLUSH, Rank.THREE, Suit.HEARTS, hearts.to_rank().ranks, 0, Rank.FIVE)
    assert len(legal_moves("SA CA DA HA", 2, beat=word)) == 1  # at level 2 it is a move: nothing beats it


def test_words_whose_cards_do_not_make_their_declaration_are_refused():
    with pytest.raises(InvalidMoveError, match="C3 SB do not make their declaration"):
        movegen.unpack_move(0x1000, 0x1100010000000000, 7)


def test_a_move_cannot_be_declared_with_a_key_its_cards_do_not_have():
    with pytest.raises(InvalidMoveError, match="S3 cannot be played as single:A .*they make single:3"):
        Move(MoveType.SINGLE, Rank.ACE, None, Cards.parse("S3"), Rank.TWO)


def test_a_rank_level_move_with_jokers_its_declaration_does_not_spend_is_refused():
    with pytest.raises(InvalidMoveError, match="3 SB SB HR HR cannot be played as single:3"):
        RankMove(MoveType.SINGLE, Rank.THREE, None, (0, 1) + (0,) * 11 + (2, 2), 0, Rank.TWO)
    deal = Deal(["S3 SB SB HR HR", "S4", "S5", "S6"], level=2, leader=0)
    assert deal.play(RankMove(MoveType.SINGLE, Rank.THREE, None, (0, 1) + (0,) * 13, 0, Rank.TWO)).move.cards == (
        Cards.parse("S3")
    )


def test_a_wild_stands_alone_only_as_the_level_single():
    with pytest.raises(InvalidMoveError):
        RankMove(MoveType.SINGLE, Rank.FIVE, None, (0,) * 15, 1, Rank.TWO)
    with pytest.raises(InvalidMoveError, match="not a rank-level move at level 2"):
        movegen.unpack_rank_move(1 << 60 | 3 << 56 | 1 << 52, 2)  # well formed: a single 5 of one wild
    assert str(RankMove(MoveType.SINGLE, Rank.TWO, None, (0,) * 15, 1, Rank.TWO)) == "single 2: +1 wild"


# -- bad input -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: guandan.window_ranks(MoveType.SINGLE, 3), InvalidMoveError, "not a sequence type"),
        (lambda: guandan.window_ranks(MoveType.STRAIGHT, 99), InvalidMoveError, "natural rank"),
        (lambda: guandan.window_ranks(MoveType.STRAIGHT, Rank.JACK), InvalidMoveError, "no straight starts at J"),
        (lambda: guandan.window_keys(MoveType.SINGLE), InvalidMoveError, "not a sequence type"),
        (lambda: MoveType.parse(None), InvalidMoveError, "unknown move type"),
        (lambda: MoveType.parse("triple_pair"), InvalidMoveError, "unknown move type"),
    ],
)
def test_bad_move_types_and_windows_raise(call, error, match):
    check(call, error, match)


@pytest.mark.parametrize(
    "call, error, match",
    [
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
def test_a_declaration_its_cards_do_not_make_is_refused(call, error, match):
    check(call, error, match)


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
