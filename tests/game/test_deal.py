"""Rules §6, a deal: dealing from a seed, the trick, passes, going out, jiefeng, the end.

Positions are built from chosen hands; each test is named after the rule it checks.
"""

from __future__ import annotations

import numpy as np
import pytest
from games import pass_, play, state_of
from refusals import check

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
    Rank,
    RankMove,
    classify,
)
from guandan.game.deal import deal_hands, jiefeng_leader, opening_position
from guandan.game.rules import COMPETITIVE_2022
from guandan.game.scoring import DealResult
from guandan.platform import actions as protocol

# -- dealing ---------------------------------------------------------------------------------------


def test_a_seeded_deal_gives_27_cards_to_each_seat_from_the_whole_double_deck():
    hands = deal_hands(12345)
    assert [len(h) for h in hands] == [27, 27, 27, 27]
    total = hands[0] + hands[1] + hands[2] + hands[3]
    assert total == Cards.deck()


def test_the_same_seed_gives_the_same_deal():
    assert deal_hands(99) == deal_hands(99)
    assert Deal.new(99, 5) == Deal.new(99, 5)
    assert deal_hands(99) != deal_hands(100)


def test_seed_0_deals_these_cards_on_every_platform():
    # The deck [0, 0, 1, 1, ..., 53, 53] shuffled by SplitMix64(0); seat i gets deck[27i:27i+27].
    # A change here means a change in the shuffle, the generator or the dealing order.
    hands = deal_hands(0)
    assert hands[0].codes()[:10] == ["D2", "S3", "D3", "H4", "H5", "C5", "H6", "C6", "S7", "C8"]
    assert hands[3].codes()[-5:] == ["SK", "DK", "DK", "CA", "DA"]
    assert opening_position(0) == 22
    assert Deal.new(0).leader == 22 // 27 == 0


def test_the_holder_of_the_opening_card_leads_when_no_leader_is_given():
    for seed in range(20):
        deal = Deal.new(seed)
        position, card = deal.opening
        assert deal.leader == position // 27
        assert list(deal.hand(deal.leader))[position % 27] == card


def test_an_explicit_leader_overrides_the_opening_card():
    assert Deal.new(0, leader=1).leader == 1 and Deal.new(0, leader=1).turn == 1


def test_hands_holding_a_face_more_than_twice_are_refused():
    with pytest.raises(guandan.InvalidCardsError, match="S3"):
        Deal(["S3 S3", "S3", "D4", "D5"])


# -- the trick -------------------------------------------------------------------------------------


def test_play_passes_to_the_next_seat_in_one_rotation():
    deal = Deal(["S3 S4", "S5 S6", "S7 S8", "S9 ST"], level=2, leader=0)
    turns = []
    for cards in ("S3", "S5", "S7", "S9"):
        turns.append(deal.turn)
        play(deal, cards)
    assert turns == [0, 1, 2, 3]
    assert deal.turn == 0


def test_a_lead_may_not_be_a_pass():
    deal = Deal(["S3 S4", "S5", "S7", "S9"], level=2, leader=0)
    with pytest.raises(IllegalMoveError, match="leads and cannot pass"):
        pass_(deal)
    assert deal.legal_moves()[-1].type != MoveType.PASS


def test_a_response_must_beat_the_play_or_pass():
    deal = Deal(["S3 S4 C4", "S5 S6 D6", "S7", "S9"], level=2, leader=0)
    play(deal, "S4 C4")
    moves = list(deal.legal_moves())
    assert [str(m) for m in moves] == ["pair 6: S6 D6", "pass"]
    with pytest.raises(IllegalMoveError, match="does not beat"):
        play(deal, "S5")


def test_a_pass_does_not_remove_a_seat_from_the_trick():
    deal = Deal(["S3 S4", "S5 S6 SK", "S7 S8", "S9 ST"], level=2, leader=0)
    play(deal, "S3")
    pass_(deal)  # seat 1 passes
    play(deal, "S7")  # seat 2
    pass_(deal)  # seat 3
    pass_(deal)  # seat 0
    assert deal.turn == 1 and deal.to_beat.seat == 2
    play(deal, "SK")  # seat 1 plays again in the same trick
    assert deal.to_beat.seat == 1


def test_the_last_player_leads_again_after_three_passes():
    deal = Deal(["S3 SA", "S5 S6", "S7 S8", "S9 ST"], level=2, leader=0)
    play(deal, "SA")
    for _ in range(3):
        pass_(deal)
    assert deal.turn == 0 and deal.to_beat is None and deal.is_leading
    assert deal.trick == ()


def test_seats_that_have_finished_are_skipped():
    deal = Deal(["S3 SA", "", "S7 S8", "S9 ST"], level=2, leader=0, finish_order=(1,))
    play(deal, "S3")
    assert deal.turn == 2
    play(deal, "S7")
    assert deal.turn == 3
    pass_(deal)
    assert deal.turn == 0


def test_it_is_always_the_turn_of_the_seat_to_play():
    deal = Deal(["S3 S4", "S5 S6", "S7 S8", "S9 ST"], level=2, leader=0)
    with pytest.raises(IllegalMoveError, match="not seat 1's turn: seat 0 is to play"):
        play(deal, "S5", seat=1)


# -- going out, jiefeng ----------------------------------------------------------------------------


def test_a_seat_that_plays_its_last_card_takes_the_next_free_place():
    deal = Deal(["S3", "S5 S6", "S7 S8", "S9 ST"], level=2, leader=0)
    play(deal, "S3")
    assert deal.finish_order == (0,) and deal.card_counts[0] == 0


def test_the_others_may_answer_a_final_play():
    deal = Deal(["S3", "S5 S6", "S7 S8", "S9 ST"], level=2, leader=0)
    play(deal, "S3")
    assert deal.turn == 1 and deal.to_beat.seat == 0
    play(deal, "S5")  # the final play is answered
    pass_(deal)
    pass_(deal)
    assert deal.turn == 1, "the seat that answered leads, not the finished seat's partner"
    assert deal.to_beat is None


def test_jiefeng_the_partner_leads_when_everyone_passes_a_final_play():
    deal = Deal(["S3", "S5 S6", "S7 S8", "S9 ST"], level=2, leader=0)
    play(deal, "S3")
    pass_(deal)  # seat 1
    pass_(deal)  # seat 2, the partner, passes too
    pass_(deal)  # seat 3
    assert deal.turn == 2 and deal.to_beat is None


def test_jiefeng_skips_finished_seats_to_reach_the_partner():
    deal = Deal(["S3 S4", "", "S9", "S7 S8"], level=2, leader=2, finish_order=(1,))
    play(deal, "S9")  # seat 2 goes out 2nd
    assert deal.turn == 3
    pass_(deal)
    assert deal.turn == 0  # seat 1 is skipped
    pass_(deal)
    assert deal.turn == 0 and deal.to_beat is None  # seat 2's partner leads
def test_jiefeng_when_the_partner_is_out_too_the_next_seat_holding_cards_leads():
    # The rule as a function: the partner first, then the next seat after the finisher.
    assert jiefeng_leader(1, [4, 0, 5, 0]) == 2  # seat 1 out, partner 3 out: seat 2 follows seat 1
    assert jiefeng_leader(0, [0, 3, 0, 2]) == 1
    assert jiefeng_leader(0, [0, 3, 4, 2]) == 2
    # In play the case cannot arise: a seat going out after its partner completes its side,
    # and the deal is over at once (double-down) or as 3rd is decided.
    deal = Deal(["", "S5 S6", "S7", "S9 ST"], level=2, leader=2, finish_order=(0,))
    play(deal, "S7")
    assert deal.is_over and deal.finish_order == (0, 2)


def test_double_down_ends_the_deal_at_once():
    deal = Deal(["S3", "S5 S6", "S4", "S9 ST"], level=2, leader=0)
    play(deal, "S3")
    pass_(deal)
    play(deal, "S4")
    assert deal.is_over and deal.turn is None
    assert deal.result == DealResult((0, 2)) and deal.result.is_double_down
    assert deal.result.losers == (1, 3) and deal.result.place(1) is None
    assert len(deal.legal_moves()) == 0
    with pytest.raises(IllegalMoveError, match="over"):
        play(deal, "S5")


def test_a_1_3_result_play_goes_on_until_third_is_decided():
    deal = Deal(["S3", "S5 S6", "S7 S8", "S9"], level=2, leader=0)
    play(deal, "S3")  # seat 0 first
    pass_(deal)
    pass_(deal)
    play(deal, "S9")  # seat 3 second: not a double-down, play goes on
    assert not deal.is_over and deal.turn == 1
    pass_(deal)
    pass_(deal)
    assert deal.turn == 1 and deal.to_beat is None  # jiefeng: seat 3's partner leads
    play(deal, "S5")
    play(deal, "S7")
    pass_(deal)
    assert deal.turn == 2 and deal.to_beat is None
    play(deal, "S8")  # seat 2 third: over, seat 1 fourth
    assert deal.is_over and deal.finish_order == (0, 3, 2, 1)
    assert deal.result.partner_place == 3 and deal.result.winning_side == 0


def test_a_1_4_result_the_last_seat_holding_cards_is_fourth():
    deal = Deal(["S3", "S5", "S7 S8", "S9"], level=2, leader=0)
    play(deal, "S3")
    play(deal, "S5")  # 1 second
    pass_(deal)  # seat 2
    play(deal, "S9")  # 3 third: over, seat 2 fourth
    assert deal.is_over and deal.finish_order == (0, 1, 3, 2)
    assert deal.result.partner_place == 4 and deal.result.first == 0


# -- illegal actions change nothing ----------------------------------------------------------------


ILLEGAL = [
    ("not your turn", lambda d: play(d, "S5", seat=1), IllegalMoveError, "not seat 1's turn"),
    ("cards not held", lambda d: play(d, "SK"), IllegalMoveError, "does not hold SK"),
    ("pass when leading", lambda d: pass_(d), IllegalMoveError, "cannot pass"),
    ("wrong level", lambda d: d.play(classify("S3", 5)[0]), IllegalMoveError, "wrong level"),
    (
        "declaration the cards do not make",
        lambda d: d.play(Move(MoveType.PAIR, guandan.Rank.FOUR, None, Cards.parse("S3 S4"), guandan.Rank.TWO)),
        InvalidMoveError,
        "cannot be played as pair:4",
    ),
    ("not a move", lambda d: d.play("S3"), InvalidMoveError, "not a move"),
]


@pytest.mark.parametrize("name, attempt, error, message", ILLEGAL, ids=[i[0] for i in ILLEGAL])
def test_an_illegal_action_raises_and_leaves_the_state_unchanged(name, attempt, error, message):
    deal = Deal(["S3 S4 C4", "S5 S6", "S7 S8", "S9 ST"], level=2, leader=0)
    before = state_of(deal)
    with pytest.raises(error, match=message):
        attempt(deal)
    assert state_of(deal) == before
    assert not deal.can_play(Move.pass_(2))


def test_an_illegal_response_leaves_the_state_unchanged():
    deal = Deal.new(3, level=7, leader=0)
    move = next(m for m in deal.legal_moves() if m.type == MoveType.PAIR)
    deal.play(move)
    before = state_of(deal)
    lower = Move(MoveType.PAIR, move.key, None, move.cards, move.level)  # not held by seat 1
    with pytest.raises(IllegalMoveError):
        deal.play(lower)
    single = next(m for m in Deal.new(3, 7, leader=1).legal_moves() if m.type == MoveType.SINGLE)
    with pytest.raises(IllegalMoveError, match="does not beat"):
        deal.play(single)
    assert state_of(deal) == before


# -- moves, undo, copy -----------------------------------------------------------------------------


def test_legal_moves_are_the_native_generators_moves():
    deal = Deal.new(8, level=9, leader=2)
    hand = deal.hand(2)
    assert np.array_equal(deal.legal_moves().array, guandan.legal_moves(hand, 9).array)
    move = deal.legal_moves()[5]
    deal.play(move)
    assert np.array_equal(deal.legal_moves().array, guandan.legal_moves(deal.hand(3), 9, beat=move).array)
    rank = deal.legal_moves("rank")
    assert np.array_equal(rank.array, guandan.legal_moves(deal.hand(3), 9, beat=move, granularity="rank").array)


def test_a_rank_move_is_played_with_physical_cards_of_that_move():
    deal = Deal(["S5 C5 H2", "S9", "D5", "D6"], level=2, leader=0)
    pair = next(m for m in deal.legal_moves("rank") if m.type == MoveType.PAIR and m.wilds == 0)
    record = deal.play(pair)
    assert record.move.cards == Cards.parse("S5 C5") and record.move.to_rank() == pair


def test_undo_takes_back_every_action_exactly():
    deal = Deal.new(21, level=4)
    start = state_of(deal)
    states = []
    rng = guandan.core.rng.SplitMix64(5)
    while not deal.is_over:
        states.append(state_of(deal))
        moves = deal.legal_moves()
        deal.play(moves[rng.below(len(moves))])
    for expected in reversed(states):
        deal.undo()
        assert state_of(deal) == expected
    assert state_of(deal) == start
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        deal.undo()


def test_a_copy_is_independent():
    deal = Deal.new(4, level=3)
    twin = deal.copy()
    deal.play(deal.legal_moves()[0])
    assert twin != deal and len(twin.history) == 0
    twin.play(twin.legal_moves()[0])
    assert twin == deal


def test_play_index_is_the_same_as_playing_the_move():
    a, b = Deal.new(6), Deal.new(6)
    a.play_index(3)
    b.play(b.legal_moves()[3])
    assert a == b
    with pytest.raises(IllegalMoveError, match="out of range"):
        a.play_index(10_000)


def test_the_ruleset_may_drop_the_plain_straight_of_a_same_suit_five():
    hands = ["D3 D4 D6 D7 H2 S9", "S5", "D5", "D8"]
    default = Deal(hands, level=2, leader=0)
    rules = COMPETITIVE_2022.__class__(name="strict", title="t", plain_straight_flush=False)
    strict = Deal(hands, level=2, leader=0, ruleset=rules)

    def straights(d):
        return [str(m) for m in d.legal_moves() if m.type == MoveType.STRAIGHT]

    assert "straight 3: D3 D4 D6 D7 H2 (H2 as 5)" in straights(default)
    assert "straight 3: D3 D4 D6 D7 H2 (H2 as 5)" not in straights(strict)
    assert any(m.type == MoveType.STRAIGHT_FLUSH for m in strict.legal_moves())
    assert len(straights(strict)) == len(straights(default)) - 1
    plain = next(m for m in default.legal_moves() if str(m) == "straight 3: D3 D4 D6 D7 H2 (H2 as 5)")
    with pytest.raises(IllegalMoveError, match="only as a straight flush"):
        strict.play(plain)


# -- what a seat observes --------------------------------------------------------------------------


def test_an_observation_shows_the_seat_its_hand_and_the_public_state():
    deal = Deal(["S3 S4", "S5 S6", "S7 S8", "S9 ST"], level=2, leader=0)
    play(deal, "S4")
    obs = deal.observation(1)
    assert obs.seat == 1 and obs.turn == 1 and obs.hand == Cards.parse("S5 S6")
    assert obs.to_beat.seat == 0 and str(obs.to_beat.move) == "single 4: S4"
    assert obs.card_counts == (1, 2, 2, 2) and obs.finish_order == ()
    assert [str(p) for p in obs.history] == ["seat 0: single 4: S4"]
    assert [str(m) for m in obs.legal_actions] == ["single 5: S5", "single 6: S6", "pass"]
    other = deal.observation(2)
    assert other.legal_actions == () and other.hand == Cards.parse("S7 S8")
    with pytest.raises(AttributeError):
        obs.seat = 3  # type: ignore[misc]
    play(deal, "S5")
    assert len(obs.history) == 1, "an observation does not change after the deal moves on"


@pytest.mark.parametrize("seeds", [range(300), [2**64 - 1, 2**64, 2**70 + 5, -1, -3, -(2**65)]])
def test_the_deck_is_shuffled_as_by_splitmix64(seeds):
    """``shuffled_deck`` draws natively; the deck and the opening card are those of
    ``SplitMix64(seed).shuffle`` then ``.below(108)`` (the module's description of dealing)."""
    from guandan.core.rng import SplitMix64
    from guandan.game.deal import shuffled_deck

    for seed in seeds:
        rng = SplitMix64(seed)
        deck = [face for face in range(54) for _ in range(2)]
        rng.shuffle(deck)
        assert shuffled_deck(seed) == (deck, rng.below(108))


def test_a_face_dealt_three_times_is_named_as_the_hands_are_read():
    with pytest.raises(InvalidCardsError, match="S3 is dealt more than twice"):
        Deal(["S3 S3", "S3", "S4", "S5"], level=2)
    # two faces over: the first found reading seat 0's hand, then seat 1's, ... (S5 at seat 2, S4 at seat 3)
    with pytest.raises(InvalidCardsError, match="S5 is dealt more than twice"):
        Deal(["S4 S4 S5", "S5", "S5", "S4"], level=2)


# -- bad input: refused, the deal left as it was ---------------------------------------------------


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
