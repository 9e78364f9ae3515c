"""Declarations (``--as``) and the readable order of move lists (moves as JSON: ``tests/records/test_jsonio.py``)."""

import itertools
import random

import pytest
from refusals import check

import guandan
from guandan import (
    AmbiguousMoveError,
    Cards,
    InvalidCardsError,
    InvalidMoveError,
    MoveType,
    beats,
    classify,
    wild_card,
)
from guandan.core import notation
from guandan.core.notation import declaration, parse_play, sort_moves, strength_key
from guandan.core.reference import generate_moves


@pytest.mark.parametrize(
    ("cards", "level", "declared_as", "expected"),
    [
        ("S3 C4 D4 C5 D5 H2", 2, None, "pair_run:3"),
        ("S3 C3 S5 C5 H9", 9, "full_house:3", "full_house:3"),
        ("S3 C3 S5 C5 H9", 9, "full_house:5", "full_house:5"),
        ("S7 C7 D7 H3 H3", 3, "bomb", "bomb:7"),
        ("S7 C7 D7 H3 H3", 3, "full-house", "full_house:7"),
        ("D9 DT DJ H2 H2", 2, "straight_flush:8", "straight_flush:8"),
        ("D9 DT DJ H2 H2", 2, "straight:9", "straight:9"),
        ("ST CJ DQ SK CA", 2, None, "straight:10"),
        ("SB SB HR HR", 5, None, "joker_bomb"),
        ("SB SB", 5, None, "pair:SB"),
    ],
)
def test_parse_play_and_declaration(cards, level, declared_as, expected):
    move = parse_play(cards, level, declared_as)
    assert declaration(move) == expected
    assert move.cards == Cards.parse(cards)
    # the declaration reads back as the same move
    assert parse_play(cards, level, declaration(move)) == move


def test_parse_play_ambiguity_lists_every_choice():
    with pytest.raises(guandan.AmbiguousMoveError) as caught:
        parse_play("D9 DT DJ H2 H2", 2)
    message = str(caught.value)
    for choice in (
        "straight:7",
        "straight:8",
        "straight:9",
        "straight_flush:7",
        "straight_flush:8",
        "straight_flush:9",
    ):
        assert choice in message


def test_parse_play_errors():
    with pytest.raises(guandan.InvalidMoveError, match="form no combination"):
        parse_play("S7 C7 D7 SB H3", 3)
    with pytest.raises(guandan.InvalidMoveError, match="only as full_house:7 or bomb:7"):
        parse_play("S7 C7 D7 H3 H3", 3, "triple")
    with pytest.raises(guandan.InvalidCardsError, match="'S1'"):
        parse_play("S1", 3)


def random_hand(rng, level):
    deck = [c for c in range(54) for _ in range(2)]
    return Cards.from_cards(rng.sample(deck, 14) + [wild_card(level)] * rng.randint(0, 1))


@pytest.mark.parametrize("seed", range(6))
def test_sorted_order_agrees_with_beats(seed):
    rng = random.Random(seed)
    level = rng.randint(2, 14)
    moves = sort_moves(generate_moves(random_hand(rng, level), level))
    assert len(moves) == len(set(moves))
    for earlier, later in itertools.combinations(moves, 2):
        assert earlier.type <= later.type
        if earlier.type == later.type:
            assert not beats(earlier, later), (str(earlier), str(later))


def test_bombs_sort_by_size_then_rank():
    moves = sort_moves(generate_moves("S9 C9 D9 H9 S3 C3 D3 H3 S3 H2", 2))
    bombs = [(m.size, m.key.label) for m in moves if m.type == MoveType.BOMB]
    assert bombs == sorted(bombs, key=lambda b: (b[0], b[1] == "9"))
    assert bombs[0] == (4, "3") and bombs[-1] == (6, "3")


def test_pass_sorts_last_and_rank_moves_sort_too():
    play = classify("S4", 2)[0]
    moves = sort_moves(generate_moves("SA S5 H2", 2, beat=play.to_rank(), granularity="rank"))
    assert [str(m) for m in moves] == ["single 5: 5", "single A: A", "single 2: +1 wild", "pass"]
    assert strength_key(moves[-1]) > strength_key(moves[0])


def test_declared_faces_may_repeat_beyond_two_copies():
    # Move.declared used to be a Cards, which cannot hold three H3s
    (triple,) = classify("H3 H3 H2", 2)
    assert [guandan.card_name(c) for c in triple.declared] == ["H3", "H3", "H3"]
    ten = [m for m in classify("S9 S9 H9 H9 C9 C9 D9 D9 H2 H2", 2) if m.type == MoveType.BOMB]
    assert len(ten[0].declared) == 10


# -- bad input -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: notation.parse_play("S3 S5", 2), InvalidMoveError, "form no combination"),
        (lambda: notation.parse_play("S3", 2, "pair"), InvalidMoveError, "cannot be played as pair"),
        (lambda: notation.parse_play("S3", 2, 5), InvalidMoveError, "declaration is a string"),
        (lambda: notation.parse_play("S3", 2, "single:Z"), InvalidCardsError, "bad rank"),
        (lambda: notation.parse_play(None, 2), InvalidCardsError, "iterable"),
        (lambda: notation.parse_play("S3 C3 S5 C5 H9", 9), AmbiguousMoveError, "full_house:3 or full_house:5"),
        (lambda: notation.sort_moves(["x"]), InvalidMoveError, "not a move"),
        (lambda: notation.declaration(None), InvalidMoveError, "not a move"),
    ],
)
def test_bad_plays_and_declarations_raise(call, error, match):
    check(call, error, match)
