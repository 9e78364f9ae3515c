"""The AI-competition action format: every type both ways, wilds, jokers, the pass, tribute
and return actions, round trips over generated moves, and errors that name the bad part."""

import random

import pytest
from hypothesis import example
from hypothesis import strategies as st
from profiles import profiled
from refusals import check

import guandan
from guandan import (
    Cards,
    InvalidCardsError,
    InvalidMoveError,
    Move,
    MoveType,
    classify,
    parse_card,
    wild_card,
)
from guandan.core.reference import generate_moves
from guandan.platform import actions as protocol
from guandan.platform.actions import (
    ACTION_TYPES,
    back_action,
    from_action,
    parse_tribute_action,
    to_action,
    tribute_action,
)


def only(cards, level, move_type):
    """The one declaration of ``cards`` of a given type."""
    (move,) = [m for m in classify(cards, level) if m.type == move_type]
    return move


# level, cards, type, the action those cards make as that type
EVERY_TYPE = [
    (2, "HT", MoveType.SINGLE, ["Single", "T", ["HT"]]),
    (2, "SB", MoveType.SINGLE, ["Single", "B", ["SB"]]),
    (7, "H7", MoveType.SINGLE, ["Single", "7", ["H7"]]),
    (2, "S5 C5", MoveType.PAIR, ["Pair", "5", ["S5", "C5"]]),
    (2, "HR HR", MoveType.PAIR, ["Pair", "R", ["HR", "HR"]]),
    (2, "SB SB", MoveType.PAIR, ["Pair", "B", ["SB", "SB"]]),
    (2, "SQ H2", MoveType.PAIR, ["Pair", "Q", ["H2", "SQ"]]),
    (2, "SK CK DK", MoveType.TRIPLE, ["Trips", "K", ["SK", "CK", "DK"]]),
    (3, "S7 C7 D7 S9 C9", MoveType.FULL_HOUSE, ["ThreeWithTwo", "7", ["S7", "C7", "D7", "S9", "C9"]]),
    (3, "S7 C7 D7 SB SB", MoveType.FULL_HOUSE, ["ThreeWithTwo", "7", ["S7", "C7", "D7", "SB", "SB"]]),
    (3, "S7 C7 H3 HR HR", MoveType.FULL_HOUSE, ["ThreeWithTwo", "7", ["H3", "S7", "C7", "HR", "HR"]]),
    (2, "SA C2 D3 S4 C5", MoveType.STRAIGHT, ["Straight", "A", ["C2", "D3", "S4", "C5", "SA"]]),
    (2, "ST CJ DQ SK CA", MoveType.STRAIGHT, ["Straight", "T", ["ST", "CJ", "DQ", "SK", "CA"]]),
    (2, "S3 C4 D4 C5 D5 H2", MoveType.PAIR_RUN, ["ThreePair", "3", ["H2", "S3", "C4", "D4", "C5", "D5"]]),
    (2, "SA CA S2 C2 S3 C3", MoveType.PAIR_RUN, ["ThreePair", "A", ["S2", "C2", "S3", "C3", "SA", "CA"]]),
    (5, "S8 C8 D8 S9 C9 D9", MoveType.TRIPLE_RUN, ["TwoTrips", "8", ["S8", "C8", "D8", "S9", "C9", "D9"]]),
    (5, "SK CK DK SA CA DA", MoveType.TRIPLE_RUN, ["TwoTrips", "K", ["SK", "CK", "DK", "SA", "CA", "DA"]]),
    (2, "S9 C9 D9 H9", MoveType.BOMB, ["Bomb", "9", ["S9", "H9", "C9", "D9"]]),
    (2, "S9 C9 D9 H9 H2 H2", MoveType.BOMB, ["Bomb", "9", ["H2", "H2", "S9", "H9", "C9", "D9"]]),
    (2, "S9 ST SJ SQ SK", MoveType.STRAIGHT_FLUSH, ["StraightFlush", "9", ["S9", "ST", "SJ", "SQ", "SK"]]),
    (5, "S3 S4 H5 S6 S7", MoveType.STRAIGHT_FLUSH, ["StraightFlush", "3", ["S3", "S4", "H5", "S6", "S7"]]),
    (2, "SB SB HR HR", MoveType.JOKER_BOMB, ["Bomb", "JOKER", ["SB", "SB", "HR", "HR"]]),
]


@pytest.mark.parametrize(("level", "cards", "move_type", "action"), EVERY_TYPE)
def test_every_type_converts_both_ways(level, cards, move_type, action):
    move = only(cards, level, move_type)
    assert to_action(move) == action
    assert from_action(action, level) == move


def test_every_protocol_type_name_is_covered():
    names = {action[0] for _, _, _, action in EVERY_TYPE}
    assert names == set(ACTION_TYPES.values())


def test_seed_example_pair_run_with_a_wild():
    # rules §9: at level 2, S3 C4 D4 C5 D5 H2 is the pair run 33-44-55, the wild a 3
    move = from_action(["ThreePair", "3", ["S3", "C4", "D4", "C5", "D5", "H2"]], 2)
    assert (move.type, move.key, move.wilds) == (MoveType.PAIR_RUN, guandan.Rank.THREE, 1)
    assert Cards.from_cards(move.declared) == Cards.parse("S3 H3 C4 D4 C5 D5")


def test_card_order_in_an_action_does_not_matter():
    a = from_action(["ThreeWithTwo", "7", ["HR", "S7", "HR", "H3", "C7"]], 3)
    b = from_action(["ThreeWithTwo", "7", ["H3", "S7", "C7", "HR", "HR"]], 3)
    assert a == b and a.type == MoveType.FULL_HOUSE


def test_straight_flush_takes_its_suit_from_the_cards():
    move = from_action(["StraightFlush", "3", ["D3", "D4", "D6", "D7", "H2"]], 2)
    assert move.suit == guandan.Suit.DIAMONDS
    assert [guandan.card_name(c) for c in move.declared] == ["D3", "D4", "D5", "D6", "D7"]


def test_same_cards_as_straight_or_straight_flush():
    cards = ["S3", "S4", "H5", "S6", "S7"]
    plain = from_action(["Straight", "3", cards], 5)
    flush = from_action(["StraightFlush", "3", cards], 5)
    assert (plain.type, plain.suit) == (MoveType.STRAIGHT, None)
    assert (flush.type, flush.suit) == (MoveType.STRAIGHT_FLUSH, guandan.Suit.SPADES)


def test_full_house_key_chooses_the_wilds_meaning():
    cards = ["S3", "C3", "S5", "C5", "H9"]
    threes, fives = from_action(["ThreeWithTwo", "3", cards], 9), from_action(["ThreeWithTwo", "5", cards], 9)
    assert threes != fives
    assert (threes.key, fives.key) == (guandan.Rank.THREE, guandan.Rank.FIVE)
    assert to_action(threes)[:2] == ["ThreeWithTwo", "3"] and to_action(fives)[:2] == ["ThreeWithTwo", "5"]


def test_wilds_depend_on_the_level():
    # rules §9: at level 4 the H4s are 4s (wild, standing for themselves); at level 9 the
    # H9s are wilds standing for 4s
    at_4 = from_action(["ThreePair", "3", ["S3", "C3", "H4", "H4", "S5", "C5"]], 4)
    at_9 = from_action(["ThreePair", "3", ["S3", "C3", "H9", "H9", "S5", "C5"]], 9)
    assert Cards.from_cards(at_4.declared) == at_4.cards
    assert Cards.from_cards(at_9.declared) == Cards.parse("S3 C3 H4 H4 S5 C5")
    with pytest.raises(guandan.InvalidMoveError):
        from_action(["ThreePair", "3", ["S3", "C3", "H9", "H9", "S5", "C5"]], 4)


def test_pass_both_ways():
    assert to_action(Move.pass_(2)) == ["PASS", "PASS", "PASS"]
    assert from_action(["PASS", "PASS", "PASS"], "K") == Move.pass_(13)
    assert from_action(("PASS", "PASS", []), 2).is_pass


def test_a_rank_move_has_no_action():
    move = classify("S5 C5", 2)[0].to_rank()
    with pytest.raises(guandan.InvalidMoveError, match="physical cards"):
        to_action(move)


def test_tribute_and_back_actions():
    assert tribute_action("HR") == ["tribute", "tribute", ["HR"]]
    assert tribute_action(parse_card("H10")) == ["tribute", "tribute", ["HT"]]
    assert back_action("d3") == ["back", "back", ["D3"]]
    assert parse_tribute_action(["tribute", "tribute", ["SA"]]) == ("tribute", parse_card("SA"))
    assert parse_tribute_action(("back", "back", ("CT",))) == ("back", parse_card("C10"))


@pytest.mark.parametrize("c", range(54))
def test_tribute_actions_round_trip_every_card(c):
    assert parse_tribute_action(tribute_action(c)) == ("tribute", c)
    assert parse_tribute_action(back_action(c)) == ("back", c)


# -- errors ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "error", "named"),
    [
        ("Pair 5 S5 C5", guandan.InvalidMoveError, "list of three"),
        (["Pair", "5"], guandan.InvalidMoveError, "list of three"),
        (["Pair", "5", ["S5", "C5"], "extra"], guandan.InvalidMoveError, "list of three"),
        ([5, "5", ["S5", "C5"]], guandan.InvalidMoveError, "must be strings"),
        (["Pair", "5", "S5 C5"], guandan.InvalidMoveError, "list of card codes"),
        (["Pair", "5", {"S5": 1}], guandan.InvalidMoveError, "list of card codes"),
        (["Double", "5", ["S5", "C5"]], guandan.InvalidMoveError, "'Double'"),
        (["pair", "5", ["S5", "C5"]], guandan.InvalidMoveError, "'pair'"),
        (["Pair", "10", ["S5", "C5"]], guandan.InvalidMoveError, "bad rank '10'"),
        (["Pair", "JOKER", ["SB", "SB"]], guandan.InvalidMoveError, "bad rank 'JOKER'"),
        (["Pair", "5", ["S5", "X5"]], guandan.InvalidCardsError, "'X5'"),
        (["Pair", "5", ["S5", 5]], guandan.InvalidCardsError, "5"),
        (["Bomb", "5", ["S5", "S5", "S5", "C5"]], guandan.InvalidCardsError, "too many copies of S5"),
        (["Pair", "6", ["S5", "C5"]], guandan.InvalidMoveError, "Pair of rank 6"),
        (["Pair", "5", ["S5", "C6"]], guandan.InvalidMoveError, "form no combination"),
        (["Trips", "5", ["S5", "C5"]], guandan.InvalidMoveError, "only Pair 5"),
        (["Straight", "3", ["S3", "S4", "S5", "S6", "S8"]], guandan.InvalidMoveError, "Straight of rank 3"),
        (["StraightFlush", "3", ["S3", "S4", "C5", "S6", "S7"]], guandan.InvalidMoveError, "only Straight 3"),
        (["ThreeWithTwo", "7", ["S7", "C7", "D7", "SB", "H3"]], guandan.InvalidMoveError, "no combination"),
        (["Bomb", "JOKER", ["SB", "SB", "HR", "H2"]], guandan.InvalidMoveError, "not a joker bomb"),
        (["PASS", "PASS", ["S5"]], guandan.InvalidMoveError, "a pass is"),
        (["tribute", "tribute", ["SA"]], guandan.InvalidMoveError, "parse_tribute_action"),
    ],
)
def test_from_action_errors_name_the_bad_part(action, error, named):
    with pytest.raises(error) as caught:
        from_action(action, 2)
    assert named in str(caught.value)


def test_from_action_error_names_the_whole_action():
    with pytest.raises(guandan.InvalidMoveError, match=r"\['Pair', '6', \['S5', 'C5'\]\]"):
        from_action(["Pair", "6", ["S5", "C5"]], 2)


def test_wild_is_only_a_level_single_alone():
    # rules §2: played alone, a wild is a level single, never "any rank"
    assert from_action(["Single", "2", ["H2"]], 2).key == guandan.Rank.TWO
    with pytest.raises(guandan.InvalidMoveError, match="only Single 2"):
        from_action(["Single", "A", ["H2"]], 2)


def test_bad_level_is_rejected():
    with pytest.raises(guandan.InvalidCardsError):
        from_action(["Pair", "5", ["S5", "C5"]], "B")


@pytest.mark.parametrize(
    ("action", "named"),
    [
        (["tribute", "back", ["SA"]], "not a tribute or return"),
        (["Single", "A", ["SA"]], "not a tribute or return"),
        (["back", "back", []], "exactly one card"),
        (["back", "back", ["S3", "S4"]], "exactly one card"),
        (["back", "back", "S3"], "exactly one card"),
        (["tribute", "tribute"], "list of three"),
    ],
)
def test_parse_tribute_action_errors(action, named):
    with pytest.raises(guandan.InvalidMoveError, match=named):
        parse_tribute_action(action)


def test_parse_tribute_action_names_a_bad_card():
    with pytest.raises(guandan.InvalidCardsError, match="'SZ'"):
        parse_tribute_action(["tribute", "tribute", ["SZ"]])


@pytest.mark.parametrize("bad", [54, -1, True, "S1", None])
def test_tribute_action_rejects_a_bad_card(bad):
    with pytest.raises(guandan.InvalidCardsError):
        tribute_action(bad)


# -- round trips ----------------------------------------------------------------------------------


def assert_round_trips(hand, level):
    moves = generate_moves(hand, level)
    for move in moves:
        action = to_action(move)
        assert len(action) == 3 and all(isinstance(c, str) for c in action[2])
        assert from_action(action, level) == move, (str(move), action)
    responses = generate_moves(hand, level, beat=moves[0]) if moves else []
    for move in responses:
        assert from_action(to_action(move), level) == move
    return moves


@st.composite
def hands(draw):
    """Hands drawn from a few ranks (so that runs, bombs and full houses are common),
    with jokers and wilds mixed in."""
    level = draw(st.integers(2, 14))
    ranks = draw(st.lists(st.integers(2, 14), min_size=1, max_size=5, unique=True))
    wild = wild_card(level)
    faces = [4 * (r - 2) + s for r in ranks for s in range(4)] + [52, 53]
    faces = [f for f in faces if f != wild]
    counts = draw(st.lists(st.integers(0, 2), min_size=len(faces), max_size=len(faces)))
    cards = [f for f, n in zip(faces, counts) for _ in range(n)][:14]
    cards += [wild] * draw(st.integers(0, 2))
    return Cards.from_cards(cards), level


@profiled(60, hands())
@example((Cards.parse("S3 C4 D4 C5 D5 H2"), 2))
@example((Cards.parse("SB SB HR HR S7 C7 H3 H3"), 3))
@example((Cards.parse("D9 DT DJ H2 H2"), 2))
@example((Cards.parse("S9 S9 C9 C9 D9 D9 H9 H9 H2 H2"), 2))
def test_every_generated_move_round_trips(hand_level):
    hand, level = hand_level
    assert_round_trips(hand, level)


@pytest.mark.parametrize("seed", range(12))
def test_round_trips_over_a_fixed_seed_corpus(seed):
    rng = random.Random(seed)
    deck = [c for c in range(54) for _ in range(2)]
    level = 2 + seed % 13
    hand = Cards.from_cards(rng.sample(deck, 12) + [wild_card(level)] * (seed % 3))
    moves = assert_round_trips(hand, level)
    assert len(moves) >= len({c for c in hand})  # at least every distinct single


def test_round_trip_covers_every_move_type():
    # a hand that holds every type at level 2, with wilds
    hand = Cards.parse("SB SB HR HR S3 S4 S5 S6 S7 C3 C4 C5 D3 D4 D5 H2 H2")
    seen = {m.type for m in assert_round_trips(hand, 2)}
    assert seen == set(MoveType) - {MoveType.PASS}


# -- bad input -------------------------------------------------------------------------------------


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
    ],
)
def test_bad_actions_raise(call, error, match):
    check(call, error, match)
