"""Rules §1 — cards, the double deck, and the text notation.

Each test is named after the rule it checks.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from profiles import profiled
from refusals import check

import guandan
from guandan import (
    BIG_JOKER,
    NATURAL_RANKS,
    NUM_FACES,
    RANKS,
    SMALL_JOKER,
    SUITS,
    Cards,
    Rank,
    Suit,
    card,
    card_name,
    card_rank,
    card_suit,
    parse_card,
    parse_level,
    parse_rank,
    wild_card,
)
from guandan.errors import GuandanError, InvalidCardsError

# ------------------------------------------------------------------------------------------------
# helpers


def every_face() -> list[int]:
    return list(range(NUM_FACES))


def dealt_hands(seed: int, count: int) -> list[Cards]:
    """A fixed corpus: hands of every size dealt from a shuffled double deck."""
    rng = random.Random(seed)
    deck = [c for c in range(NUM_FACES) for _ in range(2)]
    hands = []
    for i in range(count):
        rng.shuffle(deck)
        size = rng.choice([0, 1, 2, 5, 6, 10, 27, 27, 54, 108]) if i % 3 else 27
        hands.append(Cards.from_cards(deck[:size]))
    return hands


count_vectors = st.lists(st.integers(0, 2), min_size=NUM_FACES, max_size=NUM_FACES)


# ------------------------------------------------------------------------------------------------
# the double deck


def test_double_deck_has_108_cards():
    assert len(Cards.deck()) == 108
    assert len(list(Cards.deck())) == 108


def test_double_deck_has_54_distinct_faces_each_exactly_twice():
    deck = Cards.deck()
    assert NUM_FACES == 54
    assert Counter(deck) == {face: 2 for face in every_face()}


def test_deck_holds_eight_cards_of_each_natural_rank_and_two_of_each_joker():
    counts = Cards.deck().rank_counts()
    assert {r: counts[r] for r in NATURAL_RANKS} == {r: 8 for r in NATURAL_RANKS}
    assert counts[Rank.SMALL_JOKER] == 2
    assert counts[Rank.BIG_JOKER] == 2
    assert sum(counts.values()) == 108


def test_natural_ranks_low_to_high_are_2_to_ace():
    assert [r.label for r in NATURAL_RANKS] == ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    assert [int(r) for r in NATURAL_RANKS] == list(range(2, 15))


def test_jokers_are_the_small_black_and_big_red_joker_above_the_naturals():
    assert RANKS[-2:] == (Rank.SMALL_JOKER, Rank.BIG_JOKER)
    assert Rank.SMALL_JOKER < Rank.BIG_JOKER
    assert all(r < Rank.SMALL_JOKER for r in NATURAL_RANKS)
    assert card_rank(SMALL_JOKER) == Rank.SMALL_JOKER
    assert card_rank(BIG_JOKER) == Rank.BIG_JOKER
    assert Rank.SMALL_JOKER.is_joker and Rank.BIG_JOKER.is_joker
    assert not any(r.is_joker for r in NATURAL_RANKS)


def test_there_are_four_suits_spades_hearts_clubs_diamonds():
    assert [s.letter for s in SUITS] == ["S", "H", "C", "D"]
    assert [s.symbol for s in SUITS] == ["♠", "♥", "♣", "♦"]


def test_every_natural_face_is_one_rank_and_one_suit():
    faces = {(card_rank(c), card_suit(c)) for c in range(52)}
    assert faces == {(r, s) for r in NATURAL_RANKS for s in SUITS}
    for r in NATURAL_RANKS:
        for s in SUITS:
            c = card(r, s)
            assert (card_rank(c), card_suit(c)) == (r, s)


def test_jokers_have_no_suit():
    assert card_suit(SMALL_JOKER) is None
    assert card_suit(BIG_JOKER) is None
    assert card(Rank.SMALL_JOKER) == SMALL_JOKER
    assert card(Rank.BIG_JOKER) == BIG_JOKER
    with pytest.raises(InvalidCardsError):
        card(Rank.BIG_JOKER, Suit.HEARTS)


def test_a_natural_card_needs_a_suit():
    with pytest.raises(InvalidCardsError):
        card(Rank.FIVE)
    with pytest.raises(InvalidCardsError):
        card(1, Suit.SPADES)


# ------------------------------------------------------------------------------------------------
# parsing the notation


@pytest.mark.parametrize(
    "token, rank, suit",
    [
        ("S3", Rank.THREE, Suit.SPADES),
        ("H10", Rank.TEN, Suit.HEARTS),
        ("CJ", Rank.JACK, Suit.CLUBS),
        ("DA", Rank.ACE, Suit.DIAMONDS),
        ("S2", Rank.TWO, Suit.SPADES),
        ("HQ", Rank.QUEEN, Suit.HEARTS),
        ("CK", Rank.KING, Suit.CLUBS),
        ("D9", Rank.NINE, Suit.DIAMONDS),
    ],
)
def test_card_is_written_suit_letter_then_rank(token, rank, suit):
    assert parse_card(token) == card(rank, suit)


@pytest.mark.parametrize("token", ["s3", "h10", "cj", "da", "Ht", "hT", "sb", "Hr", "hR", "bj", "Rj", "sB"])
def test_parsing_is_case_insensitive(token):
    assert parse_card(token) == parse_card(token.upper())


def test_parsing_a_hand_is_case_insensitive():
    assert Cards.parse("s3 h10 cj da sb hr") == Cards.parse("S3 H10 CJ DA SB HR")


@pytest.mark.parametrize(
    "text",
    [
        "S3 H10 CJ DA",
        "S3,H10,CJ,DA",
        "S3, H10, CJ, DA",
        "  S3   H10\tCJ\nDA  ",
        "S3,,H10 ,CJ, DA,",
        ",S3 H10,CJ DA",
    ],
)
def test_cards_are_separated_by_commas_or_spaces(text):
    assert Cards.parse(text) == Cards.from_cards([card(3, 0), card(10, 1), card(11, 2), card(14, 3)])


@pytest.mark.parametrize("suit", ["S", "H", "C", "D"])
def test_ten_is_written_T_or_10(suit):
    assert parse_card(f"{suit}T") == parse_card(f"{suit}10") == card(Rank.TEN, SUITS["SHCD".index(suit)])


@pytest.mark.parametrize(
    "symbol_token, letter_token",
    [("♠3", "S3"), ("♥10", "H10"), ("♣J", "CJ"), ("♦A", "DA"), ("♥T", "HT"), ("♠q", "SQ")],
)
def test_unicode_suit_symbols_are_accepted(symbol_token, letter_token):
    assert parse_card(symbol_token) == parse_card(letter_token)


def test_unicode_hand_from_the_spec_parses():
    assert Cards.parse("♠3 ♥10 ♣J ♦A") == Cards.parse("S3 H10 CJ DA")


@pytest.mark.parametrize(
    "token, face", [("SB", SMALL_JOKER), ("HR", BIG_JOKER), ("BJ", SMALL_JOKER), ("RJ", BIG_JOKER)]
)
def test_jokers_are_SB_and_HR_and_BJ_RJ_on_input(token, face):
    assert parse_card(token) == face
    assert parse_card(token.lower()) == face


def test_SB_and_HR_are_jokers_not_suited_cards():
    # B and R are not ranks, so S+B and H+R cannot be a spade or a heart
    assert card_suit(parse_card("SB")) is None
    assert card_suit(parse_card("HR")) is None


def test_empty_text_is_no_cards():
    assert Cards.parse("") == Cards()
    assert len(Cards.parse("  ,  ")) == 0


def test_parsing_keeps_both_copies_of_a_face():
    hand = Cards.parse("S3 s3 SB sb")
    assert hand.count(card(3, 0)) == 2
    assert hand.count(SMALL_JOKER) == 2
    assert len(hand) == 4


@pytest.mark.parametrize(
    "bad",
    ["X9", "S1", "S11", "S0", "10S", "H", "3", "SBB", "B", "R", "HB", "SR", "SJ0", "S3;C3", "JK", "♥1", "S3.", "ST1"],
)
def test_bad_token_is_a_value_error_naming_the_token(bad):
    with pytest.raises(InvalidCardsError) as info:
        Cards.parse(f"S4 {bad} DA")
    assert repr(bad) in str(info.value) or bad in str(info.value)
    with pytest.raises(InvalidCardsError) as info:
        parse_card(bad)
    assert bad in str(info.value)


def test_bad_token_error_is_an_invalid_cards_error():
    with pytest.raises(InvalidCardsError):
        Cards.parse("S3 Z3")
    assert issubclass(InvalidCardsError, GuandanError)
    assert issubclass(GuandanError, ValueError)


def test_bad_token_message_names_only_the_bad_token_not_the_good_ones():
    with pytest.raises(InvalidCardsError) as info:
        Cards.parse("S3 C4 Q7 D5")
    message = str(info.value)
    assert "Q7" in message
    assert "C4" not in message and "D5" not in message


def test_parse_rejects_non_strings():
    with pytest.raises(InvalidCardsError):
        Cards.parse(None)  # type: ignore[arg-type]
    with pytest.raises(InvalidCardsError):
        parse_card(3)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------------
# at most two copies of a face


@pytest.mark.parametrize(
    "text, face", [("S3 S3 S3", "S3"), ("H10 HT h10", "H10"), ("SB SB BJ", "SB"), ("HR rj HR", "HR")]
)
def test_a_hand_holds_at_most_two_copies_of_a_face(text, face):
    with pytest.raises(InvalidCardsError) as info:
        Cards.parse(text)
    assert face in str(info.value)


def test_third_copy_from_card_indices_is_rejected_naming_the_face():
    with pytest.raises(InvalidCardsError) as info:
        Cards.from_cards([card(12, 3)] * 3)
    assert "DQ" in str(info.value)


def test_adding_hands_beyond_two_copies_is_rejected_naming_the_face():
    with pytest.raises(InvalidCardsError) as info:
        Cards.parse("C7 C7") + Cards.parse("C7")
    assert "C7" in str(info.value)


@pytest.mark.parametrize("face", [0, 17, 33, 51, SMALL_JOKER, BIG_JOKER])
def test_from_counts_with_three_copies_is_rejected_naming_the_face(face):
    counts = [0] * NUM_FACES
    counts[face] = 3
    with pytest.raises(InvalidCardsError) as info:
        Cards.from_counts(counts)
    assert card_name(face) in str(info.value)


@pytest.mark.parametrize("bad", [[0] * 53, [0] * 55, [], [-1] + [0] * 53, [0.5] + [0] * 53])
def test_from_counts_rejects_malformed_vectors(bad):
    with pytest.raises(InvalidCardsError):
        Cards.from_counts(bad)


def test_from_counts_accepts_zero_one_or_two_of_each_face():
    counts = [i % 3 for i in range(NUM_FACES)]
    hand = Cards.from_counts(counts)
    assert [hand.count(c) for c in every_face()] == counts
    assert Cards.from_counts([2] * NUM_FACES) == Cards.deck()


@pytest.mark.parametrize("bad", [-1, 54, 108, "S3", None])
def test_card_index_out_of_range_is_rejected(bad):
    with pytest.raises(InvalidCardsError):
        Cards.from_cards([bad])


# ------------------------------------------------------------------------------------------------
# levels


@pytest.mark.parametrize(
    "value, rank",
    [
        (2, Rank.TWO),
        (14, Rank.ACE),
        ("2", Rank.TWO),
        ("10", Rank.TEN),
        ("T", Rank.TEN),
        ("t", Rank.TEN),
        ("J", Rank.JACK),
        ("q", Rank.QUEEN),
        ("K", Rank.KING),
        ("a", Rank.ACE),
        (Rank.SEVEN, Rank.SEVEN),
    ],
)
def test_level_is_a_natural_rank_2_to_ace(value, rank):
    assert parse_level(value) == rank


@pytest.mark.parametrize("bad", [0, 1, 17, -2, "1", "11", "X", "", "S3", None, True, 2.0])
def test_bad_level_is_a_value_error(bad):
    with pytest.raises(InvalidCardsError):
        parse_level(bad)


@pytest.mark.parametrize("joker", [15, 16, "B", "R", "SB", "HR", "BJ", "RJ", Rank.SMALL_JOKER, Rank.BIG_JOKER])
def test_joker_is_never_a_level(joker):
    with pytest.raises(InvalidCardsError) as info:
        parse_level(joker)
    assert "joker" in str(info.value)


@pytest.mark.parametrize("bad", [1, 15, 16, "B", "Z"])
def test_classify_rejects_a_bad_level(bad):
    with pytest.raises(InvalidCardsError):
        guandan.classify("S3", bad)


def test_parse_rank_accepts_joker_names_and_numbers():
    assert parse_rank("B") == parse_rank("SB") == parse_rank(15) == Rank.SMALL_JOKER
    assert parse_rank("R") == parse_rank("HR") == parse_rank(16) == Rank.BIG_JOKER
    assert parse_rank("10") == parse_rank("T") == Rank.TEN
    with pytest.raises(InvalidCardsError):
        parse_rank("11")


@pytest.mark.parametrize("level", NATURAL_RANKS)
def test_the_wild_face_is_the_heart_of_the_level_rank(level):
    wild = wild_card(level)
    assert card_rank(wild) == level
    assert card_suit(wild) == Suit.HEARTS
    assert Cards.deck().wilds(level) == 2


# ------------------------------------------------------------------------------------------------
# printing


SPEC_HAND = "S3 H10 CJ DA SB HR"


def test_cards_print_as_text_with_10():
    assert str(Cards.parse("♠3 HT ♣j da bj rj")) == SPEC_HAND
    assert Cards.parse(SPEC_HAND).format("text") == SPEC_HAND


def test_cards_print_with_unicode_suits():
    assert Cards.parse(SPEC_HAND).unicode() == "♠3 ♥10 ♣J ♦A SB HR"
    assert Cards.parse(SPEC_HAND).format("unicode") == "♠3 ♥10 ♣J ♦A SB HR"


def test_cards_print_as_protocol_codes_with_T():
    assert Cards.parse(SPEC_HAND).codes() == ["S3", "HT", "CJ", "DA", "SB", "HR"]
    assert Cards.parse(SPEC_HAND).format("code") == "S3 HT CJ DA SB HR"


def test_card_name_in_the_three_styles():
    ten = card(Rank.TEN, Suit.HEARTS)
    assert [card_name(ten, s) for s in ("text", "unicode", "code")] == ["H10", "♥10", "HT"]
    assert [card_name(SMALL_JOKER, s) for s in ("text", "unicode", "code")] == ["SB", "SB", "SB"]
    assert [card_name(BIG_JOKER, s) for s in ("text", "unicode", "code")] == ["HR", "HR", "HR"]


def test_unknown_print_style_is_a_value_error():
    with pytest.raises(GuandanError, match="card style"):
        Cards.parse("S3").format("fancy")  # type: ignore[arg-type]
    with pytest.raises(GuandanError, match="card style"):
        card_name(0, "fancy")  # type: ignore[arg-type]


def test_cards_print_in_ascending_order_both_copies_shown():
    assert str(Cards.parse("HR SB DA S3 S3 C2")) == "C2 S3 S3 DA SB HR"


def test_rank_letters_and_labels():
    assert "".join(r.letter for r in RANKS) == "23456789TJQKABR"
    assert [r.label for r in RANKS][-5:] == ["Q", "K", "A", "SB", "HR"]
    assert Rank.TEN.label == "10" and Rank.TEN.letter == "T"


@pytest.mark.parametrize("face", every_face())
def test_every_face_round_trips_through_each_style(face):
    for style in ("text", "unicode", "code"):
        assert parse_card(card_name(face, style)) == face
        assert parse_card(card_name(face, style).lower()) == face


# ------------------------------------------------------------------------------------------------
# round trips over many hands


def assert_round_trips(hand: Cards) -> None:
    assert Cards.parse(str(hand)) == hand
    assert Cards.parse(hand.unicode()) == hand
    assert Cards.parse(" ".join(hand.codes())) == hand
    assert Cards.parse(",".join(hand.codes()).lower()) == hand
    assert Cards.parse(hand.format("code")) == hand
    assert Cards.from_counts(list(hand.counts)) == hand
    assert Cards.from_cards(list(hand)) == hand
    assert len(hand) == sum(hand.counts) == len(hand.codes())


@profiled(300, count_vectors)
def test_parse_of_printed_cards_round_trips(counts):
    assert_round_trips(Cards.from_counts(counts))


@pytest.mark.parametrize("hand", dealt_hands(seed=20221, count=120), ids=lambda h: f"{len(h)}cards")
def test_parse_of_printed_cards_round_trips_seed_corpus(hand):
    assert_round_trips(hand)


def test_parse_of_printed_whole_deck_and_empty_hand_round_trip():
    assert_round_trips(Cards.deck())
    assert_round_trips(Cards())


# ------------------------------------------------------------------------------------------------
# the multiset


@profiled(200, count_vectors, count_vectors)
def test_cards_behave_as_a_multiset_with_at_most_two_copies(a_counts, b_counts):
    a, b = Cards.from_counts(a_counts), Cards.from_counts(b_counts)
    both = [x + y for x, y in zip(a_counts, b_counts)]
    if max(both) <= 2:
        assert list((a + b).counts) == both
        assert a <= a + b and b <= a + b
        assert (a + b) - b == a
    else:
        with pytest.raises(InvalidCardsError):
            a + b
    assert (a <= b) == all(x <= y for x, y in zip(a_counts, b_counts))
    if not a <= b:
        with pytest.raises(InvalidCardsError):
            b - a


def test_count_rank_counts_suit_ranks_and_wilds():
    hand = Cards.parse("S3 S3 C3 D4 H2 H2 H5 SB HR HR")
    assert hand.count(card(3, Suit.SPADES)) == 2
    assert hand.count(card(3, Suit.HEARTS)) == 0
    counts = hand.rank_counts()
    assert counts[Rank.THREE] == 3 and counts[Rank.FOUR] == 1 and counts[Rank.TWO] == 2
    assert counts[Rank.SMALL_JOKER] == 1 and counts[Rank.BIG_JOKER] == 2
    assert hand.suit_ranks(Suit.HEARTS) == (Rank.TWO, Rank.FIVE)
    assert hand.suit_ranks(Suit.SPADES) == (Rank.THREE,)
    assert hand.wilds(2) == 2
    assert hand.wilds(5) == 1
    assert hand.wilds(3) == 0  # S3 and C3 are level cards at level 3 but not wild


# ------------------------------------------------------------------------------------------------
# one rule for numbers: Python and numpy ints are accepted, nothing else is converted


def test_an_int_is_not_a_count_vector():
    with pytest.raises(InvalidCardsError, match="count vector"):
        Cards(54)  # bytes(54) would be 54 zero bytes: an empty hand
    with pytest.raises(InvalidCardsError, match="count vector"):
        Cards.from_counts(54)


def test_a_count_array_is_read_by_value_never_by_its_bytes():
    with pytest.raises(InvalidCardsError, match=r"integer dtype and shape \(54,\).*uint16 and shape \(27,\)"):
        Cards(np.ones(27, np.uint16))  # 54 bytes, which bytes() would have read as 54 counts
    for bad in (np.ones(54, np.float64), np.ones(54, bool), np.ones((1, 54), np.uint8), np.ones((54, 1), np.int64)):
        with pytest.raises(InvalidCardsError, match="integer dtype"):
            Cards(bad)
    with pytest.raises(InvalidCardsError, match="too many copies of S2: 256"):
        Cards(np.array([256] + [0] * 53, np.int64))  # not wrapped to 0
    with pytest.raises(InvalidCardsError, match="count of S2 must be 0, 1 or 2"):
        Cards(np.array([-1] + [0] * 53, np.int8))
    counts = np.zeros(54, np.int64)
    counts[[0, 53]] = 1, 2
    assert Cards(counts) == Cards.from_counts(counts.astype(np.uint16)) == Cards.parse("S2 HR HR")


@pytest.mark.parametrize("bad", [1.0, 0.0, True, False, np.True_, np.float32(1), "1", None, 1 + 0j])
def test_a_count_that_is_not_an_int_is_refused(bad):
    with pytest.raises(InvalidCardsError, match="count of HR"):
        Cards.from_counts([0] * 53 + [bad])
    with pytest.raises(InvalidCardsError, match="count of HR"):
        Cards([0] * 53 + [bad])


def test_numpy_ints_are_counts_card_indices_ranks_suits_and_levels():
    assert Cards([np.uint8(1)] * 54) == Cards(bytes([1]) * 54)
    assert Cards.from_cards([np.int64(0), np.uint16(53)]) == Cards.parse("S2 HR")
    assert Cards.from_cards(np.array([0, 53], np.int32)) == Cards.parse("S2 HR")
    hand = Cards.parse("S3 H5")
    assert hand.count(np.int16(4)) == 1 and np.int64(4) in hand and np.float64(4) not in hand and True not in hand
    assert hand.suit_ranks(np.uint8(1)) == (Rank.FIVE,) and hand.wilds(np.int64(5)) == 1
    assert card(np.int64(15)) == SMALL_JOKER and card(np.uint8(3), np.int8(2)) == card(3, 2)
    assert parse_rank(np.int32(14)) is Rank.ACE and parse_level(np.uint64(2)) is Rank.TWO
    assert wild_card(np.int8(7)) == wild_card(7) and card_name(np.uint16(53)) == "HR"


@pytest.mark.parametrize("bad", [15.0, 3.0, True, np.True_, np.float64(3), "x", None, 2**70, -(2**70)])
def test_a_rank_that_is_not_an_int_or_a_name_is_refused(bad):
    with pytest.raises(InvalidCardsError):
        card(bad) if bad == 15.0 else card(bad, 0)
    with pytest.raises(InvalidCardsError):
        parse_rank(bad)
    with pytest.raises(InvalidCardsError):
        parse_level(bad)


@pytest.mark.parametrize("bad", [1.0, True, np.True_, "1", None, 4, -1, 2**70])
def test_a_suit_that_is_not_an_int_0_to_3_is_refused(bad):
    with pytest.raises(InvalidCardsError, match="suit"):
        card(5, bad)
    with pytest.raises(InvalidCardsError, match="suit"):
        Cards.parse("S5").suit_ranks(bad)


@pytest.mark.parametrize("bad", [3.0, True, np.True_, np.float32(3), "3", None, 2**70, -1, 54])
def test_a_card_index_that_is_not_an_int_0_to_53_is_refused(bad):
    for call in (card_rank, card_suit, card_name, Cards.parse("S3").count, lambda c: Cards.from_cards([c])):
        with pytest.raises(InvalidCardsError, match="card index"):
            call(bad)


@profiled(
    200,
    st.one_of(
        hnp.arrays(
            st.sampled_from([np.uint8, np.int8, np.uint16, np.int64, np.uint64, np.float64]),
            st.sampled_from([(54,), (54,), (27,), (108,), (1, 54), (2, 27), ()]),
            elements=st.integers(0, 3),
        ),
        hnp.arrays(np.bool_, st.sampled_from([(54,), (27,)])),
    ),
)
def test_an_array_of_any_dtype_and_shape_is_a_count_vector_or_refused(array):
    try:
        hand = Cards(array)
    except InvalidCardsError:
        assert array.dtype.kind not in "iu" or array.shape != (54,) or (array > 2).any()
        return
    assert array.dtype.kind in "iu" and array.shape == (54,) and list(hand.counts) == array.tolist()


# -- bad input: a clear error of the hierarchy -----------------------------------------------------


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
