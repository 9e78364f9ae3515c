"""``guandan.core.classify``: what a set of cards can be declared as (rules §2, §3 and the worked
examples of §9): the level cards and the wilds, each combination, and nothing else.

Each test is named after the rule it checks. Classification tests check that ``classify``
returns exactly the listed declarations — type, key, suit, and what each wild stands for (read
from ``Move.declared``) — and nothing else.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from combos import (
    ALL_LEVELS,
    C,
    D,
    H,
    S,
    check_declared_shape,
    declarations,
    describe,
    faces,
    group,
    only,
    single,
)
from profiles import profiled
from refusals import check
from strategies import small_hand_corpus, small_hands

from guandan import (
    Cards,
    InvalidCardsError,
    Rank,
    card,
    card_name,
    card_rank,
    card_suit,
    parse_rank,
    wild_card,
)
from guandan.core.classify import classify
from guandan.core.moves import MoveType, window_ranks
from guandan.core.order import beats, elevated_order
from guandan.core.reference import generate_moves

# -- the level and the wilds (rules §2) --------------------------------------------------------


@pytest.mark.parametrize("level", ALL_LEVELS, ids=lambda r: r.label)
def test_all_eight_cards_of_the_level_rank_are_level_cards(level):
    # every copy of the level rank, heart or not, is a single of the level rank, elevated above the ace
    for s in (S, H, C, D):
        move = only(Cards.from_cards([card(level, s)]), level)
        assert (move.type, move.key) == (MoveType.SINGLE, level)
        assert elevated_order(move.key, level) == 12
    assert Cards.deck().rank_counts()[level] == 8


@pytest.mark.parametrize("level", ALL_LEVELS, ids=lambda r: r.label)
def test_only_the_two_hearts_of_the_level_rank_are_wild(level):
    deck = Cards.deck()
    assert deck.wilds(level) == 2
    wild = wild_card(level)
    assert (card_rank(wild), card_suit(wild)) == (level, H)
    # a wild completes a pair of any other rank ...
    other = Rank.THREE if level != Rank.THREE else Rank.FOUR
    assert declarations(Cards.from_cards([card(other, S), wild]), level) == [f"pair {other.label} [{other.label}]"]
    # ... but another heart does not, nor another level card
    other_heart = card(other, H)
    assert (
        declarations(Cards.from_cards([card(Rank.KING if other != Rank.KING else Rank.QUEEN, S), other_heart]), level)
        == []
    )
    for s in (S, C, D):
        assert declarations(Cards.from_cards([card(other, S), card(level, s)]), level) == []


def test_other_hearts_are_not_wild():
    assert declarations("H3 S4", 2) == []
    assert declarations("S5 C5 H9", 2) == []
    assert declarations("S3 S4 H9 S6 S7", 2) == []


def test_level_cards_other_than_the_hearts_are_not_wild():
    assert declarations("S2 S5", 2) == []
    assert declarations("C2 S5 C5", 2) == []
    assert declarations("S3 C4 D4 C5 D5 S2", 2) == []
    assert declarations("D7 D7 SK CK", 7) == []


@pytest.mark.parametrize("level", ALL_LEVELS, ids=lambda r: r.label)
def test_lone_wild_is_a_level_single_not_any_rank(level):
    wild = Cards.from_cards([wild_card(level)])
    assert declarations(wild, level) == [f"single {level.label} [{level.label}]"]
    move = only(wild, level)
    # it beats an ace and loses to a small joker, exactly like any level single
    if level != Rank.ACE:
        assert beats(move, single(Rank.ACE, level))
    assert not beats(move, single(level, level)) and not beats(single(level, level), move)
    assert beats(single(Rank.SMALL_JOKER, level), move)


@pytest.mark.parametrize("level", ALL_LEVELS, ids=lambda r: r.label)
def test_two_wilds_alone_are_the_level_pair_and_nothing_else(level):
    both = Cards.from_cards([wild_card(level)] * 2)
    assert declarations(both, level) == [f"pair {level.label} [{level.label} {level.label}]"]
    move = only(both, level)
    assert not beats(move, group(level, 2, level, MoveType.PAIR))
    assert not beats(group(level, 2, level, MoveType.PAIR), move)
    assert beats(group(Rank.SMALL_JOKER, 2, level, MoveType.PAIR), move)


def test_a_wild_completes_a_pair_triple_or_bomb_of_any_rank_holding_a_natural_card():
    assert declarations("S5 H2", 2) == ["pair 5 [5]"]
    assert declarations("S5 C5 H2", 2) == ["triple 5 [5]"]
    assert declarations("S5 C5 D5 H2", 2) == ["bomb 5 [5]"]
    assert declarations("SA H2", 2) == ["pair A [A]"]


@pytest.mark.parametrize("level, x", [(2, "7"), (5, "3"), (9, "A"), (14, "K")])
def test_X_and_two_wilds_is_a_triple_of_X(level, x):
    w = card_name(wild_card(level))
    assert declarations(f"S{x} {w} {w}", level) == [
        f"triple {parse_rank(x).label} [{parse_rank(x).label} {parse_rank(x).label}]"
    ]


@pytest.mark.parametrize("level, x", [(2, "7"), (5, "3"), (9, "A"), (14, "K")])
def test_XX_and_two_wilds_is_a_four_card_bomb_of_X(level, x):
    w = card_name(wild_card(level))
    label = parse_rank(x).label
    assert declarations(f"S{x} C{x} {w} {w}", level) == [f"bomb {label} [{label} {label}]"]


@pytest.mark.parametrize("level, x", [(2, "7"), (5, "3"), (9, "A"), (14, "K")])
def test_XXX_and_two_wilds_is_a_five_card_bomb_of_X_or_a_full_house_over_the_level_pair(level, x):
    w = card_name(wild_card(level))
    label, lvl = parse_rank(x).label, Rank(level).label
    assert declarations(f"S{x} C{x} D{x} {w} {w}", level) == sorted(
        [f"bomb {label} [{label} {label}]", f"full_house {label} [{lvl} {lvl}]"]
    )


def test_a_level_natural_and_a_wild_are_a_level_pair():
    assert declarations("S5 H5", 5) == ["pair 5 [5]"]
    assert declarations("S5 C5 H5", 5) == ["triple 5 [5]"]


@pytest.mark.parametrize(
    "cards, level",
    [
        ("SB H2", 2),
        ("HR H2", 2),
        ("SB SB H2", 2),
        ("HR HR H2", 2),
        ("SB SB H2 H2", 2),
        ("SB SB HR H2", 2),  # not a joker bomb
        ("SB HR HR H3", 3),
        ("S7 C7 D7 SB H3", 3),
        ("S7 C7 H3 SB H3", 3),
        ("S3 S4 S5 S6 SB", 9),
        ("SB SB S3 S3 S4 H9", 9),
    ],
)
def test_a_wild_never_stands_for_a_joker(cards, level):
    assert declarations(cards, level) == []


def test_seed_example_level_2_pair_run_with_the_wild_as_a_three():
    # rules §2: at level 2, 3 4 4 5 5 ♥2 is the pair run 33-44-55
    assert declarations("♠3 ♣4 ♦4 ♣5 ♦5 ♥2", 2) == ["pair_run 3 [3]"]


def test_seed_example_level_3_pair_run_with_the_wild_as_a_four():
    # rules §2: at level 3, 4 5 5 6 6 ♥3 is 44-55-66
    assert declarations("♠4 ♣5 ♦5 ♣6 ♦6 ♥3", 3) == ["pair_run 4 [4]"]


def test_a_wild_declares_a_rank_whose_heart_copies_are_both_held():
    # the declared meaning exists for every legal move, even when the natural cards already
    # hold both hearts of the rank the wild stands for (three H3s declared)
    assert declarations("H3 H3 H2", 2) == ["triple 3 [3]"]
    assert declarations("H7 H7 S7 H2 H2", 2) == ["bomb 7 [7 7]", "full_house 7 [2 2]"]
    assert declarations("H3 H3 H2 S4 S4 C4", 2) == ["triple_run 3 [3]"]


def test_the_wild_stays_the_physical_heart_while_declaring_another_card():
    move = only("S3 C4 D4 C5 D5 H2", 2)
    assert move.cards.count(wild_card(2)) == 1
    assert card(Rank.TWO, H) not in Counter(move.declared)
    assert Counter(card_rank(c) for c in move.declared) == {Rank.THREE: 2, Rank.FOUR: 2, Rank.FIVE: 2}


# -- single, pair, triple (rules §3) -----------------------------------------------------------


@pytest.mark.parametrize("level", [2, 8, 14])
def test_any_one_card_is_a_single_of_its_rank(level):
    for c in range(54):
        move = only(Cards.from_cards([c]), level)
        assert move.type == MoveType.SINGLE
        expected = Rank(level) if c == wild_card(level) else card_rank(c)
        assert move.key == expected


def test_two_cards_of_one_rank_are_a_pair():
    assert declarations("S9 D9", 2) == ["pair 9"]
    assert declarations("S9 S9", 2) == ["pair 9"]
    assert declarations("H9 H9", 2) == ["pair 9"]


def test_two_cards_of_different_ranks_are_not_a_pair():
    assert declarations("S9 DT", 2) == []


def test_two_small_jokers_or_two_big_jokers_are_a_pair():
    assert declarations("SB SB", 2) == ["pair SB"]
    assert declarations("HR HR", 2) == ["pair HR"]


def test_one_small_and_one_big_joker_are_nothing():
    assert declarations("SB HR", 2) == []
    assert declarations("BJ RJ", 9) == []


def test_three_cards_of_one_rank_are_a_triple():
    assert declarations("S9 C9 D9", 2) == ["triple 9"]
    assert declarations("S9 S9 D9", 2) == ["triple 9"]


@pytest.mark.parametrize("cards", ["SB SB HR", "SB HR HR"])
def test_three_jokers_are_nothing(cards):
    assert declarations(cards, 2) == []


def test_three_cards_of_two_ranks_are_nothing():
    assert declarations("S9 C9 DT", 2) == []


# -- full house --------------------------------------------------------------------------------


def test_full_house_is_a_triple_plus_a_pair_of_another_rank():
    assert declarations("S9 C9 D9 S4 C4", 2) == ["full_house 9"]
    assert declarations("S4 C4 D4 S9 C9", 2) == ["full_house 4"]


def test_five_of_a_kind_is_never_a_full_house():
    assert declarations("S9 C9 D9 S9 C9", 2) == ["bomb 9"]
    assert declarations("S9 C9 D9 S9 H2", 2) == ["bomb 9 [9]"]
    assert declarations("S7 C7 D7 H7 H7", 7) == ["bomb 7 [7 7]"]


def test_full_house_with_a_joker_pair_is_allowed():
    assert declarations("S7 C7 D7 SB SB", 3) == ["full_house 7"]
    assert declarations("S7 C7 D7 HR HR", 3) == ["full_house 7"]


def test_a_triple_with_one_of_each_joker_is_not_a_full_house():
    assert declarations("S7 C7 D7 SB HR", 3) == []


def test_a_full_house_over_jokers_uses_wilds_only_in_its_triple():
    assert declarations("S7 H3 H3 SB SB", 3) == ["full_house 7 [7 7]"]
    assert declarations("S7 C7 H3 HR HR", 3) == ["full_house 7 [7]"]


def test_a_wild_completes_either_part_of_a_full_house():
    # the wild completes the pair of fives or the triple
    assert declarations("S7 C7 D7 S5 H2", 2) == ["full_house 7 [5]"]
    assert declarations("S7 C7 S5 C5 H2", 2) == ["full_house 5 [5]", "full_house 7 [7]"]
    assert declarations("S7 H2 H2 S5 C5", 2) == ["full_house 5 [5 7]", "full_house 7 [7 7]"]


def test_a_wild_never_completes_a_group_with_no_natural_card_of_its_rank():
    # a triple plus a single card and a wild: the wild may pair the single, but never
    # make a pair on its own of some other rank
    assert declarations("S7 C7 D7 S5 H2", 2) == ["full_house 7 [5]"]
    # a triple, a wild and a joker: nothing
    assert declarations("S7 C7 D7 H2 SB", 2) == []
    # four different ranks and a wild: nothing
    assert declarations("S7 C7 S5 C6 H2", 2) == []


# -- sequences ---------------------------------------------------------------------------------


def line_windows(length: int) -> set[frozenset[int]]:
    """The rank sets of consecutive windows on the line A(low) 2 3 … K A(high)."""
    line = [14] + list(range(2, 15))
    return {frozenset(line[i : i + length]) for i in range(len(line) - length + 1)}


@pytest.mark.parametrize("level", [2, 9])
def test_straight_is_exactly_five_consecutive_ranks_with_ace_low_or_high_and_no_wrap(level):
    windows = line_windows(5)
    assert len(windows) == 10
    for ranks in itertools.combinations(range(2, 15), 5):
        cards = Cards.from_cards([card(r, (S, C)[i % 2]) for i, r in enumerate(ranks)])
        got = declarations(cards, level)
        if frozenset(ranks) in windows:
            low = Rank.ACE if set(ranks) == {14, 2, 3, 4, 5} else Rank(min(ranks))
            assert got == [f"straight {low.label}"]
        else:
            assert got == [], ranks


@pytest.mark.parametrize("level", [2, 9])
def test_pair_run_is_exactly_three_consecutive_pairs_with_ace_low_or_high_and_no_wrap(level):
    windows = line_windows(3)
    assert len(windows) == 12
    for ranks in itertools.combinations(range(2, 15), 3):
        cards = Cards.from_cards([c for r in ranks for c in faces(r, (S, D))])
        got = declarations(cards, level)
        if frozenset(ranks) in windows:
            low = Rank.ACE if set(ranks) == {14, 2, 3} else Rank(min(ranks))
            assert got == [f"pair_run {low.label}"]
        else:
            assert got == [], ranks


@pytest.mark.parametrize("level", [2, 9])
def test_triple_run_is_exactly_two_consecutive_triples_with_ace_low_or_high(level):
    windows = line_windows(2)
    assert len(windows) == 13
    for ranks in itertools.combinations(range(2, 15), 2):
        cards = Cards.from_cards([c for r in ranks for c in faces(r, (S, C, D))])
        got = declarations(cards, level)
        if frozenset(ranks) in windows:
            low = Rank.ACE if set(ranks) == {14, 2} else Rank(min(ranks))
            assert got == [f"triple_run {low.label}"]
        else:
            assert got == [], ranks


def test_straight_ace_low_and_ace_high():
    assert declarations("SA C2 D3 S4 C5", 7) == ["straight A"]
    assert declarations("ST CJ DQ SK CA", 7) == ["straight 10"]


@pytest.mark.parametrize("cards", ["SK CA D2 S3 C4", "SQ CK DA S2 C3", "SJ CQ DK SA C2"])
def test_straight_never_wraps_around_the_ace(cards):
    assert declarations(cards, 5) == []


def test_pair_run_ace_low_AA2233_and_ace_high_QQKKAA():
    assert declarations("SA CA S2 C2 S3 C3", 5) == ["pair_run A"]
    assert declarations("SQ CQ SK CK SA CA", 5) == ["pair_run Q"]


def test_pair_run_never_wraps_KKAA22():
    assert declarations("SK CK SA CA S2 C2", 5) == []


def test_triple_run_ace_low_AAA222_and_ace_high_KKKAAA():
    assert declarations("SA CA DA S2 C2 D2", 5) == ["triple_run A"]
    assert declarations("SK CK DK SA CA DA", 5) == ["triple_run K"]


# -- nothing is extendable ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "cards",
    [
        "S3 C4 D5 S6 C7 D8",  # six-card straight
        "S3 C4 D5 S6 C7 D8 S9",  # seven-card straight
        "S9 CT DJ SQ CK DA",  # six-card straight ending in the ace
        "S3 C3 S4 C4 S5 C5 S6 C6",  # four pairs in a row
        "S3 C3 S4 C4 S5 C5 S6 C6 S7 C7",  # five pairs in a row
        "S3 C3 D3 S4 C4 D4 S5 C5 D5",  # three triples in a row
        "S3 C3 S4 C4",  # two pairs in a row
        "S3 C4 D5 S6",  # four-card straight
        "S3 C3 D3 S4 C4 D4 S5 C5",  # two triples and a pair
    ],
)
def test_nothing_is_extendable(cards):
    assert declarations(cards, 2) == []


def test_nothing_is_extendable_with_wilds_either():
    assert declarations("S3 C4 D5 S6 C7 H2", 2) == []  # a wild cannot make a six-card straight
    assert declarations("S3 C3 S4 C4 S5 C5 S6 H2", 2) == []  # nor four pairs
    assert declarations("S3 C4 D5 S6 H2 H2", 2) == []


def test_jokers_never_join_sequences():
    assert declarations("S3 C4 D5 S6 SB", 2) == []
    assert declarations("SB SB S3 C3 S4 C4", 2) == []
    assert declarations("SB SB HR S3 C3 D3", 2) == []


# -- sequences with wilds ----------------------------------------------------------------------


def test_a_wild_fills_any_missing_card_of_a_sequence():
    assert declarations("S3 C4 S6 C7 H2", 2) == ["straight 3 [5]"]
    assert declarations("S3 C3 S4 C4 S5 H2", 2) == ["pair_run 3 [5]"]
    assert declarations("S3 C3 D3 S4 C4 H2", 2) == ["triple_run 3 [4]"]


def test_two_wilds_may_make_one_rank_of_a_pair_run():
    assert declarations("S3 C3 H9 H9 S5 C5", 9) == ["pair_run 3 [4 4]"]


def test_two_wilds_may_complete_one_triple_of_a_triple_run():
    assert declarations("S3 C3 D3 S4 H2 H2", 2) == ["triple_run 3 [4 4]"]


def test_a_sequence_with_wilds_lists_every_window_it_can_fill():
    assert declarations("S5 C6 D7 S8 H2", 2) == ["straight 4 [4]", "straight 5 [9]"]
    assert declarations("S3 C3 S4 C4 H2 H2", 2) == ["pair_run 2 [2 2]", "pair_run 3 [5 5]", "triple_run 3 [3 4]"]


def test_a_wild_may_stand_for_its_own_rank_in_a_sequence():
    # level 4: the hearts are natural 4s here
    assert declarations("S3 C3 H4 H4 S5 C5", 4) == ["pair_run 3 [4 4]"]
    assert declarations("S2 C3 H4 S5 C6", 4) == ["straight 2 [4]"]


# -- bombs -------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", range(4, 9))
@pytest.mark.parametrize("rank", [2, 7, 14])
def test_four_to_eight_natural_cards_of_one_rank_are_a_bomb(rank, size):
    level = 5 if rank != 5 else 6
    cards = Cards.from_cards((faces(rank, (S, H, C, D)) * 2)[:size])
    assert declarations(cards, level) == [f"bomb {Rank(rank).label}"]


@pytest.mark.parametrize("level", [2, 5, 14])
def test_nine_and_ten_card_bombs_need_the_wilds(level):
    rank = 9
    eight = Cards.from_cards(faces(rank, (S, H, C, D)) * 2)
    w = wild_card(level)
    nine = eight + Cards.from_cards([w])
    ten = eight + Cards.from_cards([w, w])
    assert declarations(nine, level) == ["bomb 9 [9]"]
    assert declarations(ten, level) == ["bomb 9 [9 9]"]
    assert only(nine, level).size == 9 and only(ten, level).size == 10


def test_three_cards_are_not_a_bomb_and_jokers_never_join_rank_bombs():
    assert [m.type for m in classify("S9 C9 D9", 2)] == [MoveType.TRIPLE]
    assert declarations("S9 C9 D9 SB", 2) == []
    assert declarations("S9 C9 SB SB", 2) == []
    assert declarations("S9 C9 D9 S9 HR HR", 2) == []


@pytest.mark.parametrize("level", [2, 8, 14])
def test_eight_nines_and_both_wilds_give_bombs_of_4_to_10_cards(level):
    # rules §9: at any level but 9, eight 9s and both wilds: rank bombs of 9s of sizes 4 to 10
    w = wild_card(level)
    hand = Cards.from_cards(faces(9, (S, H, C, D)) * 2 + [w, w])
    for granularity in ("card", "rank"):
        bombs = [m for m in generate_moves(hand, level, granularity=granularity) if m.type == MoveType.BOMB]
        assert {m.key for m in bombs} == {Rank.NINE}
        assert {m.size for m in bombs} == set(range(4, 11))
    assert declarations(hand, level) == ["bomb 9 [9 9]"]


def test_level_rank_bomb_is_capped_at_eight_cards():
    # rules §9: at level 9, all eight 9s (both wilds among them) give bombs of 4..8 cards only
    hand = Cards.from_cards(faces(9, (S, H, C, D)) * 2)
    assert hand.wilds(9) == 2
    for granularity in ("card", "rank"):
        bombs = [m for m in generate_moves(hand, 9, granularity=granularity) if m.type == MoveType.BOMB]
        assert {m.key for m in bombs} == {Rank.NINE}
        assert {m.size for m in bombs} == {4, 5, 6, 7, 8}
    assert declarations(hand, 9) == ["bomb 9 [9 9]"]


def test_joker_bomb_is_all_four_jokers():
    for level in ALL_LEVELS:
        assert declarations("SB SB HR HR", level) == ["joker_bomb"]


# -- straight versus straight flush ------------------------------------------------------------


@pytest.mark.parametrize("suit", [S, H, C, D])
@pytest.mark.parametrize("key", ["A", "3", "10"])
def test_a_same_suit_five_is_both_a_straight_flush_and_a_plain_straight(suit, key):
    level = 7 if key != "3" else 9
    ranks = window_ranks(MoveType.STRAIGHT, parse_rank(key))
    cards = Cards.from_cards([card(r, suit) for r in ranks])
    label = parse_rank(key).label
    assert declarations(cards, level) == sorted([f"straight {label}", f"straight_flush {label} {suit.letter}"])


def test_a_mixed_suit_five_is_a_straight_only():
    assert declarations("S3 S4 C5 S6 S7", 5) == ["straight 3"]
    assert declarations("S3 S4 C5 S6 S7", 2) == ["straight 3"]


def test_a_wild_takes_the_suit_of_a_straight_flush():
    assert declarations("S3 S4 H5 S6 S7", 5) == ["straight 3 [5]", "straight_flush 3 S [S5]"]
    move = only("S3 S4 H5 S6 S7", 5, MoveType.STRAIGHT_FLUSH)
    assert {card_suit(c) for c in move.declared} == {S}


def test_a_wild_cannot_make_a_flush_of_two_suits():
    assert declarations("S3 S4 C5 S6 H2", 2) == ["straight 2 [2]", "straight 3 [7]"]


def test_a_heart_straight_flush_with_the_wild_standing_for_itself():
    assert declarations("H3 H4 H5 H6 H7", 5) == ["straight 3 [5]", "straight_flush 3 H [H5]"]


# -- the worked examples of rules §9: each lists every declaration, nothing else ---------------


WORKED_EXAMPLES = [
    pytest.param(2, "H2", ["single 2 [2]"], id="L2 H2 is a level single"),
    pytest.param(2, "H2 H2", ["pair 2 [2 2]"], id="L2 H2 H2 is the level pair only"),
    pytest.param(2, "S3 C4 D4 C5 D5 H2", ["pair_run 3 [3]"], id="L2 pair run 33-44-55, wild as 3"),
    pytest.param(3, "S4 C5 D5 C6 D6 H3", ["pair_run 4 [4]"], id="L3 pair run 44-55-66"),
    pytest.param(9, "S3 C3 H9 H9 S5 C5", ["pair_run 3 [4 4]"], id="L9 pair run 33-44-55, both wilds 4s"),
    pytest.param(4, "S3 C3 H4 H4 S5 C5", ["pair_run 3 [4 4]"], id="L4 pair run 33-44-55, hearts natural 4s"),
    pytest.param(
        5, "S3 S4 H5 S6 S7", ["straight 3 [5]", "straight_flush 3 S [S5]"], id="L5 flush 3-7 wild as S5 and straight"
    ),
    pytest.param(5, "S3 S4 C5 S6 S7", ["straight 3"], id="L5 mixed suits straight 3-7 only"),
    pytest.param(
        2, "D3 D4 D6 D7 H2", ["straight 3 [5]", "straight_flush 3 D [D5]"], id="L2 flush of diamonds 3-7 and straight"
    ),
    pytest.param(
        2,
        "D9 DT DJ H2 H2",
        [
            "straight 7 [7 8]",
            "straight 8 [8 Q]",
            "straight 9 [Q K]",
            "straight_flush 7 D [D7 D8]",
            "straight_flush 8 D [D8 DQ]",
            "straight_flush 9 D [DQ DK]",
        ],
        id="L2 D9 DT DJ two wilds: three flushes and three straights, never 10-A",
    ),
    pytest.param(9, "S3 C3 S5 C5 H9", ["full_house 3 [3]", "full_house 5 [5]"], id="L9 threes full or fives full"),
    pytest.param(3, "S7 C7 D7 SB SB", ["full_house 7"], id="L3 sevens over small jokers"),
    pytest.param(3, "S7 C7 H3 HR HR", ["full_house 7 [7]"], id="L3 sevens with wild over big jokers"),
    pytest.param(3, "S7 C7 D7 SB H3", [], id="L3 wild never pairs a joker"),
    pytest.param(
        3, "S7 C7 D7 H3 H3", ["bomb 7 [7 7]", "full_house 7 [3 3]"], id="L3 five-bomb of 7s or 7s over level pair"
    ),
    pytest.param(7, "S7 C7 D7 H7 H7", ["bomb 7 [7 7]"], id="L7 five 7s are a bomb only, never a full house"),
    pytest.param(2, "SA C2 D3 S4 C5", ["straight A"], id="L2 straight A-5"),
    pytest.param(2, "SQ CK DA S2 C3", [], id="L2 Q-K-A-2-3 is nothing"),
    pytest.param(2, "S9 S9 C9 C9 D9 D9 H9 H9 H2 H2", ["bomb 9 [9 9]"], id="L2 eight 9s and both wilds: ten-card bomb"),
    pytest.param(9, "S9 S9 C9 C9 D9 D9 H9 H9", ["bomb 9 [9 9]"], id="L9 all eight 9s: eight-card bomb"),
] + [
    pytest.param(level, cards, expected, id=f"L{level} {cards}")
    for level in (2, 9, 14)
    for cards, expected in (("SB SB HR HR", ["joker_bomb"]), ("SB HR", []), ("SB SB HR", []))
]


@pytest.mark.parametrize("level, cards, expected", WORKED_EXAMPLES)
def test_worked_example(level, cards, expected):
    assert declarations(cards, level) == sorted(expected)


# -- properties over many hands ----------------------------------------------------------------


@profiled(400, small_hands())
def test_every_declaration_really_forms_its_combination(position):
    hand, level = position
    moves = classify(hand, level)
    described = [describe(m) for m in moves]
    assert len(described) == len(set(described)), "a declaration listed twice"
    for move in moves:
        assert move.cards == hand and move.size == len(hand)
        check_declared_shape(move)


@pytest.mark.slow
def test_classify_lists_exactly_the_whole_hand_moves_of_the_reference_generator():
    for hand, level in small_hand_corpus(seed=2022, count=600):
        generated = sorted(describe(m) for m in generate_moves(hand, level) if m.cards == hand)
        assert declarations(hand, level) == generated, (str(hand), level)


# -- bad input -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: classify(None, 2), InvalidCardsError, "iterable"),
        (lambda: classify(5, 2), InvalidCardsError, "iterable"),
        (lambda: classify("S3 S3 S3", 2), InvalidCardsError, "too many copies"),
        (lambda: classify("S3", "x"), InvalidCardsError, "bad level"),
    ],
)
def test_bad_cards_to_classify_raise(call, error, match):
    check(call, error, match)
