"""The reference generator against an independent brute force (rules §5).

On small hands, every sub-multiset of the hand is classified with ``classify``;
the moves of a position must be exactly the classified declarations (that beat
the play, plus the pass when responding), at card granularity, and their
projections at rank granularity. ``classify`` recognises a given set of cards;
the generator builds moves from templates: the two are written independently.
"""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import corpus_small_positions, random_hand, small_positions

from guandan import Cards, InvalidMoveError, Move, MoveType, RankMove, beats, classify
from guandan.core.reference import generate_moves


def sub_multisets(hand: Cards):
    """Every non-empty sub-multiset of the hand."""
    faces = [(c, n) for c, n in enumerate(hand.counts) if n]
    for taken in itertools.product(*(range(n + 1) for _, n in faces)):
        counts = bytearray(54)
        for (c, _), k in zip(faces, taken):
            counts[c] = k
        if any(counts):
            yield Cards(counts)


def brute_force(hand: Cards, level: int) -> set[Move]:
    """Every declaration of every set of cards the hand holds."""
    return {move for cards in sub_multisets(hand) for move in classify(cards, level)}


def check_position(hand: Cards, level: int, beat: Move | None) -> None:
    every = brute_force(hand, level)
    expected = {m for m in every if beat is None or beats(m, beat)}
    if beat is not None:
        expected.add(Move.pass_(level))

    card_moves = generate_moves(hand, level, beat)
    assert len(card_moves) == len(set(card_moves)), "a card-level move is listed twice"
    assert set(card_moves) == expected

    rank_beat = beat.to_rank() if beat is not None else None
    rank_moves = generate_moves(hand, level, rank_beat, granularity="rank")
    assert len(rank_moves) == len(set(rank_moves)), "a rank-level move is listed twice"
    assert set(rank_moves) == {m.to_rank() for m in expected}


def plays_to_beat(hand: Cards, level: int, rng: np.random.Generator, k: int = 3) -> list[Move]:
    """A few plays to beat: some the hand can answer in kind, some bombs."""
    candidates = sorted(brute_force(hand, level), key=str)
    picks = [candidates[int(i)] for i in rng.choice(len(candidates), size=min(k, len(candidates)), replace=False)]
    return picks + [classify("S4 C4 D4 S4", level)[0]]


CORPUS = corpus_small_positions(120, seed=20261130)


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(CORPUS)))
def test_generator_matches_brute_force_on_corpus(index):
    hand, level = CORPUS[index]
    rng = np.random.default_rng(index)
    check_position(hand, level, None)
    for beat in plays_to_beat(hand, level, rng):
        check_position(hand, level, beat)


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions(), st.integers(0, 2**32 - 1))
def test_generator_matches_brute_force(position, seed):
    hand, level = position
    check_position(hand, level, None)
    for beat in plays_to_beat(hand, level, np.random.default_rng(seed), k=2):
        check_position(hand, level, beat)


def test_brute_force_sees_wild_sequences_and_ten_card_bombs():
    """The brute force itself is not blind: it finds the hard cases the generator must match."""
    bombs = Cards.parse("S9 S9 C9 C9 D9 D9 H9 H9 H2 H2 S3 C4")
    moves = brute_force(bombs, 2)
    assert any(m.type == MoveType.BOMB and m.size == 10 for m in moves)
    assert set(generate_moves(bombs, 2)) == moves
    runs = Cards.parse("S3 C3 S5 C5 H9 H9 S6 S7 S8 SK")
    moves = brute_force(runs, 9)
    assert any(m.type == MoveType.PAIR_RUN and m.key == 3 and m.wilds == 2 for m in moves)
    assert any(m.type == MoveType.STRAIGHT_FLUSH and m.key == 5 for m in moves)
    assert set(generate_moves(runs, 9)) == moves


# -- properties on full 27-card hands ---------------------------------------------------------------


def _hand_and_play(seed: int):
    rng = np.random.default_rng(seed)
    level = int(rng.integers(2, 15))
    hand = random_hand(rng)
    other = random_hand(rng, 10)
    plays = [m for m in generate_moves(other, level) if not m.is_pass]
    return hand, level, plays[int(rng.integers(0, len(plays)))]


@pytest.mark.parametrize("seed", range(12))
def test_moves_spend_held_cards_beat_the_play_and_appear_once(seed):
    hand, level, play = _hand_and_play(seed)
    for beat in (None, play):
        moves = generate_moves(hand, level, beat)
        assert len(moves) == len(set(moves))
        for move in moves:
            assert move.cards <= hand
            if move.is_pass:
                assert beat is not None
            else:
                assert move in classify(move.cards, level), f"{move} is not a declaration of its cards"
                assert beat is None or beats(move, beat)
        assert (Move.pass_(level) in moves) == (beat is not None)


@pytest.mark.parametrize("seed", range(12))
def test_rank_granularity_is_card_granularity_with_suits_forgotten(seed):
    hand, level, play = _hand_and_play(seed)
    for beat in (None, play):
        card_moves = generate_moves(hand, level, beat)
        rank_moves = generate_moves(hand, level, beat.to_rank() if beat else None, granularity="rank")
        assert len(rank_moves) == len(set(rank_moves))
        assert set(rank_moves) == {m.to_rank() for m in card_moves}
        assert all(isinstance(m, RankMove) for m in rank_moves)


def test_two_copies_of_a_face_are_one_way_to_spend_it():
    moves = generate_moves("S5 S5", 2)
    assert Counter(m.type for m in moves) == {MoveType.SINGLE: 1, MoveType.PAIR: 1}


def test_pass_is_never_a_play_to_beat():
    with pytest.raises(InvalidMoveError, match="pass"):
        generate_moves("S5", 2, beat=Move.pass_(2))


def test_play_to_beat_must_be_at_the_same_level():
    play = classify("S9", 3)[0]
    with pytest.raises(InvalidMoveError, match="level"):
        generate_moves("SK", 2, beat=play)
