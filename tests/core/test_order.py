"""``guandan.core.order``: the elevated order of the ranks and beating a play (rules §2 and §4):
the level rank above the ace outside sequences, the natural order inside them, the same type
and size with a higher key, the bomb ladder, and ``beats`` a strict order on every move.
"""

from __future__ import annotations

import itertools

import pytest
from combos import (
    ALL_LEVELS,
    C,
    D,
    H,
    S,
    elevated_ladder,
    faces,
    group,
    only,
    sequence,
    single,
)
from hypothesis import given, settings
from profiles import profiled
from refusals import check
from strategies import small_hands

import guandan
from guandan import (
    Cards,
    InvalidCardsError,
    InvalidMoveError,
    Rank,
    legal_moves,
    wild_card,
)
from guandan.core.classify import classify
from guandan.core.moves import SEQUENCE_TYPES, Move, MoveType, window_keys
from guandan.core.order import beats, elevated_order
from guandan.core.reference import generate_moves

# -- the elevated order (rules §2) -------------------------------------------------------------


@pytest.mark.parametrize("level", ALL_LEVELS, ids=lambda r: r.label)
def test_elevated_order_is_naturals_then_level_then_small_then_big_joker(level):
    ladder = elevated_ladder(level)
    assert [elevated_order(r, level) for r in ladder] == list(range(15))


@pytest.mark.parametrize("level", ALL_LEVELS, ids=lambda r: r.label)
def test_level_rank_is_elevated_above_ace_outside_sequences(level):
    ladder = elevated_ladder(level)
    singles = [single(r, level) for r in ladder]
    for (i, a), (j, b) in itertools.product(enumerate(singles), repeat=2):
        assert beats(a, b) == (i > j), f"level {level.label}: single {a.key.label} vs {b.key.label}"


@pytest.mark.parametrize("level", ALL_LEVELS, ids=lambda r: r.label)
@pytest.mark.parametrize(
    "move_type, size", [(MoveType.PAIR, 2), (MoveType.TRIPLE, 3), (MoveType.BOMB, 4), (MoveType.BOMB, 6)]
)
def test_pairs_triples_and_bombs_follow_the_elevated_order(level, move_type, size):
    ranks = [r for r in elevated_ladder(level) if not r.is_joker or move_type == MoveType.PAIR]
    moves = [group(r, size, level, move_type) for r in ranks]
    for (i, a), (j, b) in itertools.product(enumerate(moves), repeat=2):
        assert beats(a, b) == (i > j), f"level {level.label}: {a} vs {b}"


def test_at_level_2_a_two_beats_an_ace():
    assert beats(only("S2", 2), only("SA", 2))
    assert not beats(only("SA", 2), only("S2", 2))
    assert beats(only("S2 C2", 2), only("SA CA", 2))
    assert beats(only("S2 C2 D2", 2), only("SA CA DA", 2))
    assert beats(only("S2 C2 D2 S2", 2), only("SA CA DA SA", 2))
    assert beats(only("S2 C2 D2 S3 C3", 2), only("SA CA DA SK CK", 2))
    # while a non-level 2 is the lowest rank of all
    assert not beats(only("S2", 3), only("S3", 3))
    assert beats(only("S3", 3), only("SA", 3))


def test_at_level_7_ranks_3_to_6_and_8_to_ace_are_below_the_sevens():
    seven = only("D7", 7)
    for r in [3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14]:
        other = single(r, 7)
        assert beats(seven, other) and not beats(other, seven), Rank(r).label
    # and they keep their natural order among themselves: 8 beats 6, the 7 is no longer between them
    assert beats(single(8, 7), single(6, 7))
    assert beats(only("S7 C7", 7), only("SA CA", 7))
    assert not beats(only("S6 C6", 7), only("S8 C8", 7))


@pytest.mark.parametrize("level", ALL_LEVELS, ids=lambda r: r.label)
def test_jokers_rank_above_the_level_card(level):
    level_single = single(level, level)
    wild_single = only(Cards.from_cards([wild_card(level)]), level)
    for joker in ("SB", "HR"):
        assert beats(only(joker, level), level_single)
        assert beats(only(joker, level), wild_single)
        assert not beats(level_single, only(joker, level))
    assert beats(only("HR", level), only("SB", level))


@pytest.mark.parametrize("level", [2, 5, 7, 14])
def test_sequences_put_the_level_rank_in_its_natural_place(level):
    for move_type in SEQUENCE_TYPES:
        keys = window_keys(move_type)
        flush = S if move_type == MoveType.STRAIGHT_FLUSH else None
        moves = [sequence(move_type, k, level, flush) for k in keys]
        for (i, a), (j, b) in itertools.product(enumerate(moves), repeat=2):
            assert beats(a, b) == (i > j), f"level {level}: {a} vs {b}"


def test_at_level_5_the_straight_3_to_7_is_below_4_to_8():
    low = only("S3 C4 D5 S6 C7", 5)  # holds the level card D5, in its natural place
    high = only("S4 C5 D6 S7 C8", 5)
    assert (low.type, low.key) == (MoveType.STRAIGHT, Rank.THREE)
    assert (high.type, high.key) == (MoveType.STRAIGHT, Rank.FOUR)
    assert beats(high, low) and not beats(low, high)
    # the level card in a sequence does not lift it: 5-9 is below 6-10
    assert beats(only("S6 C7 D8 S9 CT", 5), only("S5 C6 D7 S8 C9", 5))


def test_at_level_ace_the_ace_high_straight_is_still_highest_and_ace_low_still_lowest():
    assert beats(only("ST CJ DQ SK CA", 14), only("S9 CT DJ SQ CK", 14))
    assert beats(only("S2 C3 D4 S5 C6", 14), only("SA C2 D3 S4 C5", 14))
    assert not beats(only("SA C2 D3 S4 C5", 14), only("S2 C3 D4 S5 C6", 14))


# -- within a combination (rules §3) -----------------------------------------------------------


def test_joker_pairs_rank_big_over_small_over_level_over_ace():
    big, small = only("HR HR", 2), only("SB SB", 2)
    level_pair, aces = only("S2 C2", 2), only("SA CA", 2)
    ladder = [aces, level_pair, small, big]
    for (i, a), (j, b) in itertools.product(enumerate(ladder), repeat=2):
        assert beats(a, b) == (i > j)


def test_full_house_key_is_the_triple_only():
    threes_over_aces = only("S3 C3 D3 SA CA", 5)
    threes_over_twos = only("S3 C3 D3 S2 C2", 5)
    fours_over_twos = only("S4 C4 D4 S2 C2", 5)
    assert threes_over_aces.key == Rank.THREE
    assert not beats(threes_over_aces, threes_over_twos)  # a higher pair does not beat
    assert not beats(threes_over_twos, threes_over_aces)
    assert beats(fours_over_twos, threes_over_aces)
    assert not beats(threes_over_aces, fours_over_twos)


def test_full_house_over_big_jokers_does_not_beat_a_higher_triple_over_twos():
    sevens_over_jokers = only("S7 C7 D7 HR HR", 3)
    eights_over_twos = only("S8 C8 D8 S2 C2", 3)
    assert beats(eights_over_twos, sevens_over_jokers)
    assert not beats(sevens_over_jokers, eights_over_twos)
    assert not beats(sevens_over_jokers, only("S7 C7 D7 S2 C2", 3))


def test_full_house_of_the_level_rank_is_above_aces_full():
    assert beats(only("S3 C3 D3 S2 C2", 3), only("SA CA DA SK CK", 3))


def test_ace_low_windows_are_the_lowest_and_ace_high_the_highest():
    for level in (2, 14):
        assert beats(only("S2 C3 D4 S5 C6", level), only("SA C2 D3 S4 C5", level))
        assert beats(only("ST CJ DQ SK CA", level), only("S9 CT DJ SQ CK", level))
        assert beats(only("S2 C2 S3 C3 S4 C4", level), only("SA CA S2 C2 S3 C3", level))
        assert beats(only("SQ CQ SK CK SA CA", level), only("SJ CJ SQ CQ SK CK", level))
        assert beats(only("S2 C2 D2 S3 C3 D3", level), only("SA CA DA S2 C2 D2", level))
        assert beats(only("SK CK DK SA CA DA", level), only("SQ CQ DQ SK CK DK", level))


# -- beating a play (rules §4) -----------------------------------------------------------------


def test_same_type_and_size_with_a_higher_key_beats():
    assert beats(only("S9", 2), only("S8", 2))
    assert beats(only("S9 C9", 2), only("S8 C8", 2))
    assert beats(only("S9 C9 D9", 2), only("S8 C8 D8", 2))
    assert beats(only("S4 C5 D6 S7 C8", 2), only("S3 C4 D5 S6 C7", 2))
    assert not beats(only("S8", 2), only("S9", 2))


@pytest.mark.parametrize(
    "a, b, level",
    [
        ("S5 C5", "D5 H5", 2),  # suits differ
        ("S5 H2", "C5 D5", 2),  # one with a wild
        ("S3 C4 D5 S6 C7", "D3 S4 C5 D6 S7", 2),
        ("S3 C4 D5 S6 H2", "D3 S4 C5 D6 S7", 2),  # the wild as a 7
        ("S3 C3 D3 SA CA", "S3 C3 D3 S2 C2", 5),
        ("S7 C7 D7 S7", "D7 D7 H7 H7", 2),
        ("S7 C7 D7 H2", "S7 C7 D7 D7", 2),
        ("S3 C3 S4 C4 S5 C5", "D3 D3 D4 D4 D5 H2", 2),
        ("SB", "SB", 2),
        ("SB SB HR HR", "SB SB HR HR", 2),
    ],
)
def test_equal_keys_never_beat(a, b, level):
    for ma in classify(a, level):
        for mb in classify(b, level):
            if ma.type == mb.type and ma.key == mb.key and ma.size == mb.size:
                assert not beats(ma, mb) and not beats(mb, ma), (str(ma), str(mb))


NON_BOMBS_LEVEL_2 = [
    "S3",
    "HR",
    "S3 C3",
    "HR HR",
    "S3 C3 D3",
    "S2 C2 D2",
    "S3 C3 D3 S4 C4",
    "S2 C2 D2 HR HR",
    "SA C2 D3 S4 C5",
    "ST CJ DQ SK CA",
    "SA CA S2 C2 S3 C3",
    "SQ CQ SK CK SA CA",
    "SA CA DA S2 C2 D2",
    "SK CK DK SA CA DA",
]


def test_different_types_or_sizes_never_beat_each_other():
    moves = [only(c, 2) for c in NON_BOMBS_LEVEL_2]
    for a, b in itertools.product(moves, repeat=2):
        if a.type != b.type or a.size != b.size:
            assert not beats(a, b), (str(a), str(b))


def test_straight_and_full_house_do_not_beat_each_other_though_both_are_five_cards():
    straight = only("ST CJ DQ SK CA", 2)
    full_house = only("S3 C3 D3 S4 C4", 2)
    assert straight.size == full_house.size == 5
    assert not beats(straight, full_house) and not beats(full_house, straight)


def test_pair_run_and_triple_run_do_not_beat_each_other_though_both_are_six_cards():
    pair_run = only("SQ CQ SK CK SA CA", 2)
    triple_run = only("SA CA DA S2 C2 D2", 2)
    assert not beats(pair_run, triple_run) and not beats(triple_run, pair_run)


@pytest.mark.parametrize("non_bomb", NON_BOMBS_LEVEL_2)
def test_a_bomb_beats_any_non_bomb_and_no_non_bomb_beats_a_bomb(non_bomb):
    play = only(non_bomb, 2)
    weakest_bomb = only("S3 C3 D3 S3", 2)
    weakest_flush = only("SA S2 S3 S4 S5", 2, MoveType.STRAIGHT_FLUSH)
    jokers = only("SB SB HR HR", 2)
    for bomb in (weakest_bomb, weakest_flush, jokers):
        assert beats(bomb, play)
        assert not beats(play, bomb)


# -- the bomb order ----------------------------------------------------------------------------


# weakest first; within a class the weakest and the strongest of that class (level 2)
BOMB_LADDER_LEVEL_2 = [
    ("4 cards, lowest", "S3 C3 D3 S3"),
    ("4 cards, level rank", "S2 C2 D2 S2"),
    ("5 cards, lowest", "S3 C3 D3 S3 C3"),
    ("5 cards, level rank", "S2 C2 D2 S2 H2"),
    ("straight flush A-5", "SA S2 S3 S4 S5"),
    ("straight flush 10-A", "DT DJ DQ DK DA"),
    ("6 cards, lowest", "S3 C3 D3 S3 C3 D3"),
    ("6 cards, level rank", "S2 C2 D2 S2 C2 D2"),
    ("7 cards, lowest", "S3 C3 D3 S3 C3 D3 H3"),
    ("7 cards, level rank", "S2 C2 D2 S2 C2 D2 H2"),
    ("8 cards, lowest", "S3 C3 D3 S3 C3 D3 H3 H3"),
    ("8 cards, level rank", "S2 C2 D2 S2 C2 D2 H2 H2"),
    ("9 cards, lowest", "S3 C3 D3 S3 C3 D3 H3 H3 H2"),
    ("9 cards, aces", "SA CA DA SA CA DA HA HA H2"),
    ("10 cards, lowest", "S3 C3 D3 S3 C3 D3 H3 H3 H2 H2"),
    ("10 cards, aces", "SA CA DA SA CA DA HA HA H2 H2"),
    ("joker bomb", "SB SB HR HR"),
]


def _bomb(cards: str, level=2) -> Move:
    moves = [m for m in classify(cards, level) if m.is_bomb]
    assert len(moves) == 1, (cards, [str(m) for m in moves])
    return moves[0]


def test_bomb_order_4_5_straight_flush_6_7_8_9_10_joker_bomb():
    ladder = [_bomb(cards) for _, cards in BOMB_LADDER_LEVEL_2]
    names = [name for name, _ in BOMB_LADDER_LEVEL_2]
    for (i, a), (j, b) in itertools.product(enumerate(ladder), repeat=2):
        assert beats(a, b) == (i > j), f"{names[i]} vs {names[j]}"


def test_six_low_cards_beat_a_straight_flush_and_a_five_card_level_bomb():
    six_threes = _bomb("S3 S3 C3 C3 D3 D3", 7)
    royal_flush = _bomb("HT HJ HQ HK HA", 7)
    five_sevens = _bomb("S7 S7 C7 C7 D7", 7)
    assert beats(six_threes, royal_flush) and not beats(royal_flush, six_threes)
    assert beats(six_threes, five_sevens) and not beats(five_sevens, six_threes)
    assert beats(royal_flush, five_sevens) and not beats(five_sevens, royal_flush)


def test_a_four_card_level_bomb_cannot_beat_five_low_cards():
    assert beats(_bomb("S2 S2 C2 C2 D2", 7), _bomb("S7 S7 C7 C7", 7))
    assert not beats(_bomb("S7 S7 C7 C7", 7), _bomb("S2 S2 C2 C2 D2", 7))


@pytest.mark.parametrize("level", [2, 7, 14])
def test_equal_size_bombs_compare_rank_in_elevated_order_with_the_level_highest(level):
    for size in (4, 5, 6, 7, 8):
        ladder = [
            group(r, size, level, MoveType.BOMB)
            if size <= 6
            else only(Cards.from_cards((faces(r, (S, H, C, D)) * 2)[:size]), level)
            for r in elevated_ladder(level)
            if not r.is_joker
        ]
        for (i, a), (j, b) in itertools.product(enumerate(ladder), repeat=2):
            assert beats(a, b) == (i > j), f"level {level}, size {size}: {a} vs {b}"


def test_at_level_7_four_sevens_beat_four_aces():
    assert beats(_bomb("S7 C7 D7 D7", 7), _bomb("SA CA DA DA", 7))
    assert not beats(_bomb("SA CA DA DA", 7), _bomb("S7 C7 D7 D7", 7))
    assert beats(_bomb("SK CK DK DK", 7), _bomb("S9 C9 D9 D9", 7))


def test_straight_flushes_compare_their_windows():
    assert beats(_bomb("S4 S5 S6 S7 S8"), _bomb("S3 S4 S5 S6 S7"))
    assert not beats(_bomb("S3 S4 S5 S6 S7"), _bomb("S4 S5 S6 S7 S8"))
    assert beats(_bomb("CT CJ CQ CK CA"), _bomb("D9 DT DJ DQ DK"))
    assert beats(_bomb("C2 C3 C4 C5 C6"), _bomb("DA D2 D3 D4 D5"))


def test_straight_flushes_use_natural_order_even_through_the_level_rank():
    # level 5: the flush 3-7 holds the level card yet is below 4-8
    assert beats(_bomb("S4 S5 S6 S7 S8", 5), _bomb("C3 C4 C5 C6 C7", 5))
    assert not beats(_bomb("C3 C4 C5 C6 C7", 5), _bomb("S4 S5 S6 S7 S8", 5))


@pytest.mark.parametrize(
    "a, b, level",
    [
        ("S3 S4 S5 S6 S7", "H3 H4 H5 H6 H7", 2),
        ("D3 D4 D6 D7 H2", "C3 C4 C5 C6 C7", 2),  # the wild as D5
        ("S3 C3 D3 S3", "H3 C3 D3 H3", 2),
        ("S3 C3 D3 H2", "C3 D3 S3 D3", 2),
    ],
)
def test_suit_never_breaks_a_tie_between_bombs(a, b, level):
    ma = [m for m in classify(a, level) if m.is_bomb]
    mb = [m for m in classify(b, level) if m.is_bomb]
    assert len(ma) == len(mb) == 1
    assert (ma[0].key, ma[0].size) == (mb[0].key, mb[0].size)
    assert not beats(ma[0], mb[0]) and not beats(mb[0], ma[0])


def test_a_bomb_is_beaten_only_by_a_higher_bomb():
    four_kings = _bomb("SK CK DK DK")
    assert not beats(_bomb("S9 C9 D9 D9"), four_kings)
    assert not beats(_bomb("SK SK CK DK"), four_kings)
    assert beats(_bomb("SA CA DA DA"), four_kings)
    assert not beats(only("HR HR", 2), four_kings)
    assert not beats(only("HR", 2), four_kings)


def test_a_plain_straight_declaration_is_not_a_bomb():
    cards = "S3 S4 S5 S6 S7"
    plain = only(cards, 2, MoveType.STRAIGHT)
    flush = only(cards, 2, MoveType.STRAIGHT_FLUSH)
    higher_straight = only("S4 C5 D6 S7 C8", 2)
    assert beats(higher_straight, plain)
    assert not beats(higher_straight, flush)
    assert beats(flush, higher_straight)
    assert not beats(plain, only("D3 C4 D5 C6 D7", 2))  # equal window


def test_joker_bomb_is_the_highest_of_all():
    jokers = only("SB SB HR HR", 2)
    ten_aces = _bomb("SA CA DA SA CA DA HA HA H2 H2")
    assert beats(jokers, ten_aces) and not beats(ten_aces, jokers)
    assert not beats(jokers, jokers)


def test_a_pass_beats_nothing_and_is_beaten_by_nothing():
    pass_ = Move.pass_(2)
    for cards in ["S3", "SB SB HR HR", "S3 C3 D3 S3"]:
        assert not beats(pass_, only(cards, 2))
        assert not beats(only(cards, 2), pass_)


def test_beats_raises_for_moves_at_different_levels():
    with pytest.raises(InvalidMoveError, match="different levels"):
        beats(only("S4", 3), only("S3", 2))
    with pytest.raises(InvalidMoveError, match="different levels"):
        beats(only("S3 C3 D3 S3", 2), only("S4", 5))


def test_beats_works_the_same_at_rank_granularity():
    a, b = only("S9 H2", 2), only("S8 C8", 2)
    assert beats(a.to_rank(), b.to_rank()) == beats(a, b) is True
    assert beats(b.to_rank(), a.to_rank()) == beats(b, a) is False


# -- worked examples (rules §9) ----------------------------------------------------------------


def test_worked_example_straight_A_to_5_is_the_lowest_straight():
    lowest = only("SA C2 D3 S4 C5", 2)
    for key in window_keys(MoveType.STRAIGHT)[1:]:
        other = sequence(MoveType.STRAIGHT, key, 2)
        assert beats(other, lowest) and not beats(lowest, other)


def test_worked_example_identical_cards_two_declarations_are_separate_moves():
    threes, fives = classify("S3 C3 S5 C5 H9", 9)
    assert threes.cards == fives.cards
    assert threes != fives
    assert beats(fives, threes) and not beats(threes, fives)


# -- properties over many hands ----------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(small_hands(), small_hands())
def test_beats_is_a_strict_order_on_classified_moves(first, second):
    hand_a, level = first
    hand_b, _ = second
    moves = classify(hand_a, level) + classify(hand_b, level)
    for a in moves:
        assert not beats(a, a)
        for b in moves:
            if beats(a, b):
                assert not beats(b, a)
                for c in moves:
                    if beats(b, c):
                        assert beats(a, c), (str(a), str(b), str(c))


# -- leading and responding (rules §4) ---------------------------------------------------------


def test_a_lead_may_be_any_combination_but_never_a_pass():
    hand = Cards.parse("S3 C3 D4 S5 H2 SB SB")
    leads = generate_moves(hand, 2)
    assert leads and not any(m.is_pass for m in leads)
    assert {m.type for m in leads} >= {MoveType.SINGLE, MoveType.PAIR, MoveType.TRIPLE, MoveType.FULL_HOUSE}


def test_a_response_is_a_higher_move_of_the_same_type_and_size_a_bomb_or_a_pass():
    play = only("S9 C9", 2)
    hand = Cards.parse("S8 C8 SK CK DK S4 C4 D4 S4 H2 SB HR")
    responses = generate_moves(hand, 2, beat=play, granularity="rank")
    assert responses[-1].is_pass and sum(m.is_pass for m in responses) == 1
    for move in responses[:-1]:
        assert move.is_bomb or (move.type == play.type and move.size == play.size)
        assert beats(move, play)
    assert not any(m.type == MoveType.PAIR and m.key == Rank.EIGHT for m in responses)
    assert any(m.type == MoveType.PAIR and m.key == Rank.KING for m in responses)
    assert any(m.type == MoveType.BOMB and m.key == Rank.FOUR for m in responses)


@profiled(100, small_hands(), small_hands())
def test_beats_answers_for_every_pair_of_moves_without_an_assertion(first, second):
    hand_a, level = first
    hand_b, _ = second
    moves = [*legal_moves(hand_a, level), *legal_moves(hand_b, level, granularity="rank"), Move.pass_(level)]
    for a in moves:
        for b in moves:
            assert beats(a, b) in (True, False)


# -- bad input -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: guandan.beats(classify("S3", 2)[0], classify("S3", 3)[0]), InvalidMoveError, "different levels"),
        (lambda: guandan.beats("S3", "S4"), InvalidMoveError, "two moves"),
        (lambda: guandan.elevated_order(99, 2), InvalidCardsError, "rank"),
    ],
)
def test_bad_arguments_to_the_order_raise(call, error, match):
    check(call, error, match)
