"""SPEC §2–§4 and the worked examples of §10: the level and the wilds, the combinations,
and beating a play.

Each test is named after the rule it checks. Classification tests check that
``classify`` returns exactly the listed declarations — type, key, suit, and what each
wild stands for (read from ``Move.declared``) — and nothing else.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import counted_moves, declared_moves

from guandan import (
    BIG_JOKER,
    NATURAL_RANKS,
    SMALL_JOKER,
    Cards,
    Deal,
    InvalidMoveError,
    Rank,
    RankMove,
    Suit,
    card,
    card_name,
    card_rank,
    card_suit,
    legal_moves,
    parse_rank,
    wild_card,
)
from guandan.core import _core, movegen
from guandan.core.classify import classify
from guandan.core.moves import BOMB_TYPES, SEQUENCE_TYPES, Move, MoveType, window_keys, window_ranks
from guandan.core.order import beats, elevated_order
from guandan.core.reference import generate_moves

S, H, C, D = Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS
ALL_LEVELS = list(NATURAL_RANKS)

# ------------------------------------------------------------------------------------------------
# helpers


def wild_meanings(move: Move) -> list[int]:
    """The faces the move's wilds stand for, ascending: declared faces minus the natural cards."""
    wild = wild_card(move.level)
    naturals = Counter(c for c in move.cards if c != wild)
    declared = Counter(move.declared)
    assert not naturals - declared, f"declared faces of {move} lost natural cards"
    meanings = sorted((declared - naturals).elements())
    assert len(meanings) == move.cards.count(wild), f"{move}: one declared face per wild"
    return meanings


def describe(move: Move) -> str:
    """``type key [suit] [what each wild stands for]`` — the rank for most moves, the face
    (rank and suit) in a straight flush."""
    text = move.type.label
    if move.key is not None:
        text += f" {move.key.label}"
    if move.suit is not None:
        text += f" {move.suit.letter}"
    meanings = wild_meanings(move)
    if meanings:
        if move.type == MoveType.STRAIGHT_FLUSH:
            text += " [" + " ".join(card_name(c) for c in meanings) + "]"
        else:
            text += " [" + " ".join(card_rank(c).label for c in meanings) + "]"
    return text


def declarations(cards: str | Cards, level) -> list[str]:
    """Every declaration of exactly these cards, described and sorted."""
    moves = classify(cards, level)
    hand = Cards.parse(cards) if isinstance(cards, str) else cards
    for move in moves:
        assert move.cards == hand
        assert move.level == level
        assert move.size == len(hand)
        check_declared_shape(move)
    return sorted(describe(m) for m in moves)


def check_declared_shape(move: Move) -> None:
    """The declared faces really form the declared combination."""
    declared = list(move.declared)
    assert len(declared) == move.size
    ranks = Counter(card_rank(c) for c in declared)
    for c in wild_meanings(move):
        assert not card_rank(c).is_joker, f"{move}: a wild never stands for a joker"
    t, key = move.type, move.key
    if t in (MoveType.SINGLE, MoveType.PAIR, MoveType.TRIPLE, MoveType.BOMB):
        assert ranks == {key: move.size}
    elif t == MoveType.FULL_HOUSE:
        assert ranks[key] == 3
        (other, n), = [(r, n) for r, n in ranks.items() if r != key]
        assert n == 2 and other != key
    elif t in SEQUENCE_TYPES:
        _, width = SEQUENCE_TYPES[t]
        assert ranks == {r: width for r in window_ranks(t, key)}
        if t == MoveType.STRAIGHT_FLUSH:
            assert {card_suit(c) for c in declared} == {move.suit}
        else:
            assert move.suit is None
    elif t == MoveType.JOKER_BOMB:
        assert Counter(declared) == {SMALL_JOKER: 2, BIG_JOKER: 2}
    else:  # pragma: no cover - classify never returns a pass
        raise AssertionError(f"unexpected move {move}")


def only(cards: str, level, move_type: MoveType | None = None, key=None) -> Move:
    """The single declaration of ``cards`` (of the given type/key when several exist)."""
    moves = [
        m
        for m in classify(cards, level)
        if (move_type is None or m.type == move_type) and (key is None or m.key == parse_rank(key))
    ]
    assert len(moves) == 1, f"{cards} at level {level}: {[str(m) for m in moves]}"
    return moves[0]


def faces(rank: int, suits) -> list[int]:
    return [card(rank, s) for s in suits]


def single(rank: int, level) -> Move:
    """A single of a rank that is not a wild (spade for naturals)."""
    c = SMALL_JOKER if rank == Rank.SMALL_JOKER else BIG_JOKER if rank == Rank.BIG_JOKER else card(rank, S)
    return only(Cards.from_cards([c]), level)


def group(rank: int, n: int, level, move_type: MoveType) -> Move:
    """``n`` natural non-heart cards of a rank (jokers: both copies), as the given type."""
    if rank == Rank.SMALL_JOKER:
        cards = [SMALL_JOKER] * n
    elif rank == Rank.BIG_JOKER:
        cards = [BIG_JOKER] * n
    else:
        cards = (faces(rank, (S, C, D)) * 2)[:n]
    return only(Cards.from_cards(cards), level, move_type)


def sequence(move_type: MoveType, key, level, flush_suit: Suit | None = None) -> Move:
    """A wild-free sequence of a window; mixed suits unless a flush suit is given."""
    length, width = SEQUENCE_TYPES[move_type]
    cards = []
    for i, r in enumerate(window_ranks(move_type, parse_rank(key))):
        if flush_suit is not None:
            cards.append(card(r, flush_suit))
        elif width == 1:
            cards.append(card(r, (S, C)[i % 2]))
        else:
            cards += faces(r, (S, C, D)[:width])
    return only(Cards.from_cards(cards), level, move_type)


def elevated_ladder(level) -> list[Rank]:
    """The elevated order of SPEC §2, written out: naturals without the level, the level, jokers."""
    return [r for r in NATURAL_RANKS if r != level] + [Rank(level), Rank.SMALL_JOKER, Rank.BIG_JOKER]


# ================================================================================================
# §2 The level and the wilds
# ================================================================================================


@pytest.mark.parametrize("level", ALL_LEVELS, ids=lambda r: r.label)
def test_all_eight_cards_of_the_level_rank_are_level_cards(level):
    # every copy of the level rank, heart or not, is a single of the level rank, elevated above the ace
    for s in (S, H, C, D):
        move = only(Cards.from_cards([card(level, s)]), level)
        assert (move.type, move.key) == (MoveType.SINGLE, level)
        assert elevated_order(move.key, level) == 12
    assert Cards.deck().rank_counts()[level] == 8


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
    # SPEC §2: at level 2, 3 4 4 5 5 ♥2 is the pair run 33-44-55
    assert declarations("♠3 ♣4 ♦4 ♣5 ♦5 ♥2", 2) == ["pair_run 3 [3]"]


def test_seed_example_level_3_pair_run_with_the_wild_as_a_four():
    # SPEC §2: at level 3, 4 5 5 6 6 ♥3 is 44-55-66
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


# ================================================================================================
# §3 Combinations
# ================================================================================================

# -- single, pair, triple ------------------------------------------------------------------------


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


def test_joker_pairs_rank_big_over_small_over_level_over_ace():
    big, small = only("HR HR", 2), only("SB SB", 2)
    level_pair, aces = only("S2 C2", 2), only("SA CA", 2)
    ladder = [aces, level_pair, small, big]
    for (i, a), (j, b) in itertools.product(enumerate(ladder), repeat=2):
        assert beats(a, b) == (i > j)


def test_three_cards_of_one_rank_are_a_triple():
    assert declarations("S9 C9 D9", 2) == ["triple 9"]
    assert declarations("S9 S9 D9", 2) == ["triple 9"]


@pytest.mark.parametrize("cards", ["SB SB HR", "SB HR HR"])
def test_three_jokers_are_nothing(cards):
    assert declarations(cards, 2) == []


def test_three_cards_of_two_ranks_are_nothing():
    assert declarations("S9 C9 DT", 2) == []


# -- full house ----------------------------------------------------------------------------------


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


# -- sequences: windows ---------------------------------------------------------------------------


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


def test_ace_low_windows_are_the_lowest_and_ace_high_the_highest():
    for level in (2, 14):
        assert beats(only("S2 C3 D4 S5 C6", level), only("SA C2 D3 S4 C5", level))
        assert beats(only("ST CJ DQ SK CA", level), only("S9 CT DJ SQ CK", level))
        assert beats(only("S2 C2 S3 C3 S4 C4", level), only("SA CA S2 C2 S3 C3", level))
        assert beats(only("SQ CQ SK CK SA CA", level), only("SJ CJ SQ CQ SK CK", level))
        assert beats(only("S2 C2 D2 S3 C3 D3", level), only("SA CA DA S2 C2 D2", level))
        assert beats(only("SK CK DK SA CA DA", level), only("SQ CQ DQ SK CK DK", level))


# -- nothing is extendable ----------------------------------------------------------------------


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


# -- sequences with wilds -------------------------------------------------------------------------


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


# -- bombs -----------------------------------------------------------------------------------------


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
    # SPEC §10: at any level but 9, eight 9s and both wilds: rank bombs of 9s of sizes 4 to 10
    w = wild_card(level)
    hand = Cards.from_cards(faces(9, (S, H, C, D)) * 2 + [w, w])
    for granularity in ("card", "rank"):
        bombs = [m for m in generate_moves(hand, level, granularity=granularity) if m.type == MoveType.BOMB]
        assert {m.key for m in bombs} == {Rank.NINE}
        assert {m.size for m in bombs} == set(range(4, 11))
    assert declarations(hand, level) == ["bomb 9 [9 9]"]


def test_level_rank_bomb_is_capped_at_eight_cards():
    # SPEC §10: at level 9, all eight 9s (both wilds among them) give bombs of 4..8 cards only
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


def test_bomb_types_are_rank_bombs_straight_flushes_and_the_joker_bomb():
    assert BOMB_TYPES == {MoveType.BOMB, MoveType.STRAIGHT_FLUSH, MoveType.JOKER_BOMB}
    assert only("S3 C3 D3 S3", 2).is_bomb
    assert only("SB SB HR HR", 2).is_bomb
    assert only("S3 S4 S5 S6 S7", 2, MoveType.STRAIGHT_FLUSH).is_bomb
    assert not only("S3 S4 S5 S6 S7", 2, MoveType.STRAIGHT).is_bomb


# -- straight versus straight flush ----------------------------------------------------------------


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


# ================================================================================================
# §4 Beating a play
# ================================================================================================


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


# ================================================================================================
# §10 Worked examples: each line lists every declaration, nothing else.
# ================================================================================================

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


# ================================================================================================
# properties over many hands
# ================================================================================================


@st.composite
def small_hands(draw, max_cards: int = 8):
    """A level and a hand of few cards, dense in neighbouring ranks, wilds and jokers."""
    level = draw(st.integers(2, 14))
    line = [14] + list(range(2, 15))
    start = draw(st.integers(0, len(line) - 1))
    ranks = line[start : start + draw(st.integers(1, 4))] or [line[start]]
    suits = draw(st.lists(st.sampled_from([0, 1, 2, 3]), min_size=1, max_size=4, unique=True))
    counts = [0] * 54
    n = draw(st.integers(1, max_cards))
    for _ in range(n):
        kind = draw(st.integers(0, 9))
        if kind == 0:
            c = wild_card(level)
        elif kind == 1:
            c = draw(st.sampled_from([SMALL_JOKER, BIG_JOKER]))
        else:
            c = card(draw(st.sampled_from(ranks)), draw(st.sampled_from(suits)))
        if counts[c] < 2:
            counts[c] += 1
    return Cards.from_counts(counts), level


@settings(max_examples=400, deadline=None)
@given(small_hands())
def test_every_declaration_really_forms_its_combination(position):
    hand, level = position
    moves = classify(hand, level)
    described = [describe(m) for m in moves]
    assert len(described) == len(set(described)), "a declaration listed twice"
    for move in moves:
        assert move.cards == hand and move.size == len(hand)
        check_declared_shape(move)


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


def _corpus(seed: int, count: int) -> list[tuple[Cards, int]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        level = rng.randint(2, 14)
        ranks = rng.sample(range(2, 15), rng.randint(1, 4))
        counts = [0] * 54
        for _ in range(rng.randint(1, 10)):
            r = rng.random()
            c = (
                wild_card(level)
                if r < 0.15
                else rng.choice([SMALL_JOKER, BIG_JOKER])
                if r < 0.2
                else card(rng.choice(ranks), rng.randint(0, 3))
            )
            if counts[c] < 2:
                counts[c] += 1
        out.append((Cards.from_counts(counts), level))
    return out


@pytest.mark.slow
def test_classify_lists_exactly_the_whole_hand_moves_of_the_reference_generator():
    for hand, level in _corpus(seed=2022, count=600):
        generated = sorted(describe(m) for m in generate_moves(hand, level) if m.cards == hand)
        assert declarations(hand, level) == generated, (str(hand), level)


# -- leading and responding (§4) ------------------------------------------------------------------


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


# -- a move is valid when it exists -----------------------------------------------------------------
#
# Move and RankMove check at construction that the declaration is one their cards (counts and
# wilds) make, with the native generator; classify, pure Python, is the independent judge here.


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


def test_every_move_the_engine_makes_is_one_the_constructors_accept():
    for hand, level in _corpus(seed=10, count=120):
        for move in legal_moves(hand, level):
            assert Move(move.type, move.key, move.suit, move.cards, move.level) == move
            rank = move.to_rank()
            assert RankMove(rank.type, rank.key, rank.suit, rank.ranks, rank.wilds, rank.level) == rank
        for move in generate_moves(hand, level, granularity="rank"):
            assert RankMove(move.type, move.key, move.suit, move.ranks, move.wilds, move.level) == move


# moves their cards do not make, each refused where it enters


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


@settings(max_examples=100, deadline=None)
@given(small_hands(), small_hands())
def test_beats_answers_for_every_pair_of_moves_without_an_assertion(first, second):
    hand_a, level = first
    hand_b, _ = second
    moves = [*legal_moves(hand_a, level), *legal_moves(hand_b, level, granularity="rank"), Move.pass_(level)]
    for a in moves:
        for b in moves:
            assert beats(a, b) in (True, False)
