"""Rules §7 and §8, a match: levels and promotion, the A gate, rulesets, the opening leader,
tribute, return and resisting, and who leads after each.

Deals are driven to a chosen finish order by searching their (tiny) game trees with
``Deal.undo``; matches start mid-way through ``levels`` / ``previous`` / ``hands``.
"""

from __future__ import annotations

import pytest
from games import force_match_deal, match_state, small_tribute_match
from refusals import check

from guandan import (
    COMPETITIVE_2022,
    HUAIAN,
    NANJING,
    Cards,
    GuandanError,
    IllegalMoveError,
    InvalidCardsError,
    Match,
    Move,
    Phase,
    Rank,
    card_name,
    parse_card,
)
from guandan.core.rng import derive_seed
from guandan.game.deal import deal_hands, opening_leader, opening_position
from guandan.game.rules import RULESETS, get_ruleset
from guandan.game.tribute import return_choices, tribute_choices
from guandan.platform import actions as protocol

# Any finish order can be reached from any leader with these hands (see test_any_finish_order_is_reachable).
SMALL = ["S3 SK", "S4 SQ", "S5 SJ", "S6 ST"]
A = Rank.ACE


def after(levels, order, level_side=None, ruleset=COMPETITIVE_2022, failures=(0, 0), hands=SMALL):
    """A match at ``levels`` whose next deal (from ``hands``) ends in ``order``."""
    match = Match(7, ruleset, levels=levels, level_side=level_side, failures=failures, hands=[hands])
    force_match_deal(match, tuple(order))
    return match


def names(cards):
    return [card_name(c) for c in cards]


# -- levels and promotion --------------------------------------------------------------------------


def test_both_sides_start_at_2_and_the_first_deal_is_played_at_2():
    match = Match(5)
    assert match.levels == (Rank.TWO, Rank.TWO) and match.level == Rank.TWO
    assert match.deal_index == 0 and match.phase == Phase.PLAY and match.level_side is None


def test_the_opening_leader_holds_the_card_drawn_from_the_match_seed():
    for seed in range(10):
        match = Match(seed)
        deal_seed = derive_seed(seed, 0)
        position = opening_position(deal_seed)
        assert match.dealt_hands == deal_hands(deal_seed)
        assert match.deal.leader == position // 27
        assert opening_leader(match.dealt_hands, position) == (match.deal.leader, match.deal.opening_card)
        assert match.turn == match.deal.leader


@pytest.mark.parametrize("order, gain", [((0, 2), 3), ((0, 1, 2, 3), 2), ((0, 3, 1, 2), 1)])
def test_the_winner_advances_3_2_1_by_its_partners_place(order, gain):
    match = after((2, 2), order)
    assert match.levels == (Rank(2 + gain), Rank.TWO)
    assert match.level == Rank(2 + gain) and match.level_side == 0
    summary = match.results[0]
    assert summary.levels_before == (Rank.TWO, Rank.TWO) and summary.levels_after == match.levels


def test_the_next_deal_is_played_at_the_level_of_the_last_winner():
    match = after((6, 9), (1, 3), level_side=0)
    assert match.levels == (Rank.SIX, Rank.QUEEN)
    assert match.level == Rank.QUEEN and match.level_side == 1


def test_promotion_stops_at_a():
    match = after((Rank.QUEEN, 3), (0, 2), level_side=0)
    assert match.levels == (A, Rank.THREE)
    match = after((Rank.KING, 3), (0, 1, 2, 3), level_side=1)
    assert match.levels[0] == A


def test_passing_a_wins_the_match_with_partner_2nd():
    match = after((A, 9), (0, 2), level_side=0)
    assert match.is_over and match.winner == 0 and match.end_reason == "passed A"
    assert match.results[-1].passed_a and match.phase == Phase.OVER and match.turn is None


def test_passing_a_wins_the_match_with_partner_3rd():
    match = after((A, 9), (2, 1, 0, 3), level_side=0)
    assert match.is_over and match.winner == 0


def test_a_1st_and_4th_win_at_own_a_does_not_pass():
    match = after((A, 9), (0, 1, 3, 2), level_side=0)
    assert not match.is_over and match.levels == (A, Rank.NINE)
    assert match.level == A and match.level_side == 0 and match.failures == (1, 0)


def test_a_clean_win_at_the_opponents_level_keeps_a_side_at_a():
    match = after((A, 9), (0, 2), level_side=1)
    assert not match.is_over and match.levels == (A, Rank.NINE)
    assert match.level == A and match.level_side == 0 and match.failures == (0, 0)


def test_losing_at_own_a_counts_as_a_failure_but_never_demotes_by_default():
    match = after((A, 9), (1, 3), level_side=0, failures=(5, 0))
    assert match.levels == (A, Rank.QUEEN) and match.failures == (6, 0)
    assert match.results[-1].demoted is None


@pytest.mark.parametrize("ruleset", [HUAIAN, NANJING])
def test_the_third_failed_deal_at_own_a_drops_the_side_to_2_when_the_ruleset_asks(ruleset):
    lost = after((A, 9), (1, 3), level_side=0, ruleset=ruleset, failures=(2, 0))
    assert lost.levels == (Rank.TWO, Rank.QUEEN) and lost.failures == (0, 0)
    assert lost.results[-1].demoted == 0
    one_four = after((A, 9), (0, 1, 3, 2), level_side=0, ruleset=ruleset, failures=(2, 0))
    assert one_four.levels == (Rank.TWO, Rank.NINE) and one_four.results[-1].demoted == 0
    assert one_four.level == Rank.TWO and one_four.level_side == 0
    second = after((A, 9), (1, 3), level_side=0, ruleset=ruleset, failures=(1, 0))
    assert second.levels[0] == A and second.failures == (2, 0)


def test_nanjing_gives_no_promotion_for_a_1st_and_4th_win():
    match = after((5, 5), (0, 1, 3, 2), level_side=0, ruleset=NANJING)
    assert match.levels == (Rank.FIVE, Rank.FIVE) and match.level_side == 0
    assert after((5, 5), (0, 1, 2, 3), level_side=0, ruleset=NANJING).levels[0] == Rank.SEVEN


def test_the_deal_cap_ends_the_match_and_the_higher_level_wins():
    match = after((5, 9), (0, 2), level_side=0, ruleset=COMPETITIVE_2022.with_deal_cap(1))
    assert match.is_over and match.end_reason == "deal cap"
    assert match.levels == (Rank.EIGHT, Rank.NINE) and match.winner == 1


def test_the_deal_cap_with_equal_levels_goes_to_the_last_winner():
    match = after((5, 8), (0, 2), level_side=0, ruleset=get_ruleset("competitive_2022+cap1"))
    assert match.levels == (Rank.EIGHT, Rank.EIGHT) and match.winner == 0


def test_without_a_deal_cap_the_match_goes_on():
    match = after((5, 9), (0, 2), level_side=0)
    assert not match.is_over and match.deal_index == 1


def test_rulesets_are_complete_named_presets():
    assert set(RULESETS) == {"competitive_2022", "huaian", "nanjing", "platform"}
    assert COMPETITIVE_2022.failed_a_limit is None and COMPETITIVE_2022.return_rule == "low"
    assert HUAIAN.return_rule == "any" and HUAIAN.failed_a_limit == 3 and HUAIAN.promotion == (3, 2, 1)
    assert NANJING.return_rule == "low" and NANJING.failed_a_limit == 3 and NANJING.promotion == (3, 2, 0)
    assert Match(1).ruleset is COMPETITIVE_2022
    with pytest.raises(GuandanError, match="unknown ruleset"):
        get_ruleset("paris")


# -- tribute ---------------------------------------------------------------------------------------


def tribute_match(previous, hands, levels=(2, 2), ruleset=COMPETITIVE_2022):
    return Match(3, ruleset, levels=levels, previous=previous, hands=[hands])


def test_no_tribute_in_the_first_deal():
    assert Match(2).phase == Phase.PLAY and Match(2).payers == ()


def test_single_tribute_the_4th_pays_the_1st_its_highest_card_and_leads():
    hands = ["S3 S4 S5", "S6 SA SB", "S7 S8 SK", "S9 ST SQ"]
    match = tribute_match((1, 0, 3, 2), hands, levels=(2, 4))  # seat 1 first, seat 2 fourth
    assert match.phase == Phase.TRIBUTE and match.turn == 2 and match.level == Rank.FOUR
    assert names(match.legal_actions()) == ["SK"]
    match.pay_tribute("SK")
    assert match.phase == Phase.RETURN and match.turn == 1
    assert match.hands[1] == Cards.parse("S6 SA SB SK")
    match.return_card("S6")
    assert match.hands[2] == Cards.parse("S6 S7 S8") and match.phase == Phase.PLAY
    assert match.turn == 2 and match.deal.leader == 2
    assert match.tributes == ((2, 1, parse_card("SK")),) and match.returns == ((1, 2, parse_card("S6")),)


def test_after_a_1_4_result_the_winners_partner_pays():
    hands = ["S3 S4 S5", "S6 SA SB", "S7 S8 SK", "S9 ST SQ"]
    match = tribute_match((1, 0, 2, 3), hands)  # seat 3, seat 1's partner, came 4th
    assert match.payers == (3,) and match.turn == 3
    match.pay_tribute("SQ")
    assert match.turn == 1
    match.return_card("S6")
    assert match.deal.leader == 3


def test_the_tribute_card_is_the_highest_except_a_wild_in_the_new_deals_level():
    # level 5: the wild H5 is skipped; S5 (a level card, not wild) ranks above the ace
    assert names(tribute_choices(Cards.parse("H5 SA S5 S3").counts, 5)) == ["S5"]
    assert names(tribute_choices(Cards.parse("H5 SA D3").counts, 5)) == ["SA"]
    assert names(tribute_choices(Cards.parse("H5 SA S5 SB").counts, 5)) == ["SB"]
    # the payer chooses among equal-highest faces
    hands = ["S3 S4", "S6 S7", "S8 SA DA", "S9 ST"]
    match = tribute_match((1, 0, 3, 2), hands, levels=(2, 9))
    assert names(match.legal_actions()) == ["SA", "DA"]
    assert match.can_pay_tribute("DA") and match.can_pay_tribute("SA")
    match.pay_tribute("DA")
    assert match.hands[1] == Cards.parse("S6 S7 DA")


def test_a_tribute_other_than_the_highest_card_is_refused_and_changes_nothing():
    hands = ["S3 S4", "S6 S7", "S8 SA DA", "S9 ST"]
    match = tribute_match((1, 0, 3, 2), hands, levels=(2, 9))
    before = match_state(match)
    with pytest.raises(IllegalMoveError, match="highest card except a wild: SA DA, not S8"):
        match.pay_tribute("S8")
    with pytest.raises(IllegalMoveError, match="not seat 0's turn"):
        match.pay_tribute("SA", seat=0)
    with pytest.raises(IllegalMoveError, match="does not hold HA"):
        match.pay_tribute("HA")
    with pytest.raises(IllegalMoveError, match="no return is due"):
        match.return_card("S8")
    with pytest.raises(IllegalMoveError, match="no play now"):
        match.play(match.deal.legal_moves()[0] if match.deal else None)  # type: ignore[arg-type]
    assert match_state(match) == before


def test_double_tribute_both_losers_pay_the_higher_card_to_1st_the_lower_to_2nd():
    hands = ["S3 S4 SB", "S6 S7", "S8 S9 SK", "ST SJ"]
    match = tribute_match((1, 3), hands, levels=(2, 5))  # seats 0 and 2 pay
    assert match.payers == (2, 0) and match.turn == 2
    match.pay_tribute("SK")
    assert match.phase == Phase.TRIBUTE and match.turn == 0 and match.pending_tribute == (parse_card("SK"),)
    assert sum(match.card_counts) + len(match.pending_tribute) == 10
    match.pay_tribute("SB")
    assert match.tributes == ((0, 1, parse_card("SB")), (2, 3, parse_card("SK")))
    assert match.phase == Phase.RETURN and match.turn == 1  # 1st returns first
    match.return_card("S6")
    assert match.turn == 3
    match.return_card("ST")
    assert match.hands[0] == Cards.parse("S3 S4 S6") and match.hands[2] == Cards.parse("S8 S9 ST")
    assert match.phase == Phase.PLAY and match.deal.leader == 0  # its card went to 1st


# (equal cards in a double tribute, under both tie rules: tests/platform/test_rules.py)


def test_resisting_one_seat_with_both_big_jokers_cancels_a_single_tribute():
    hands = ["S3 S4", "S6 SA", "S8 HR HR", "S9 ST"]
    match = tribute_match((1, 0, 3, 2), hands)
    assert match.resisted and match.phase == Phase.PLAY and match.payers == ()
    assert match.hands == tuple(Cards.parse(h) for h in hands)
    assert match.deal.leader == 1  # the previous 1st leads


def test_in_a_single_tribute_the_payers_partners_big_joker_does_not_resist():
    hands = ["S3 HR", "S6 SA", "S8 HR", "S9 ST"]
    match = tribute_match((1, 0, 3, 2), hands)
    assert not match.resisted and match.phase == Phase.TRIBUTE and match.turn == 2


def test_resisting_one_big_joker_each_cancels_a_double_tribute():
    hands = ["S3 HR", "S6 SA", "S8 HR", "S9 ST"]
    match = tribute_match((1, 3), hands)
    assert match.resisted and match.phase == Phase.PLAY and match.deal.leader == 1
    summary_free = match.tributes == () and match.returns == ()
    assert summary_free


def test_resisting_one_loser_with_both_big_jokers_cancels_a_double_tribute():
    match = tribute_match((3, 1), ["S3 HR HR", "S6 SA", "S8 S9", "ST SJ"])
    assert match.resisted and match.deal.leader == 3


# -- return ----------------------------------------------------------------------------------------


def test_the_return_is_a_card_of_rank_2_to_10_never_of_the_level_rank():
    # level 5: S5 is a level card, H5 the wild; D10 qualifies, SJ does not
    choices = return_choices(Cards.parse("S3 S5 H5 DT SJ SK SB").counts, 5)
    assert names(choices) == ["S3", "D10"]
    hands = ["S3 S4", "S5 H5 DT SJ", "S8 SK", "S9 ST"]
    match = tribute_match((1, 0, 3, 2), hands, levels=(2, 5))
    match.pay_tribute("SK")
    assert names(match.legal_actions()) == ["D10"]
    before = match_state(match)
    with pytest.raises(IllegalMoveError, match="must return a card of rank 2 to 10 that is not of the level rank"):
        match.return_card("S5")
    with pytest.raises(IllegalMoveError, match="D10, not H5"):  # the wild is never returned
        match.return_card("H5")
    assert match_state(match) == before
    match.return_card("DT")
    assert match.hands[2] == Cards.parse("S8 DT")


def test_with_no_card_of_2_to_10_the_receiver_returns_its_lowest_card_in_elevated_order():
    # level 2: S2 is a level card (above the ace), so the jack is the lowest
    assert names(return_choices(Cards.parse("S2 SJ DJ SQ HR").counts, 2)) == ["SJ", "DJ"]
    hands = ["S3 S4", "S2 SJ SQ", "S8 SK", "S9 ST"]
    match = tribute_match((1, 0, 3, 2), hands)
    match.pay_tribute("SK")
    assert names(match.legal_actions()) == ["SJ"]
    match.return_card("SJ")
    assert match.deal.leader == 2


def test_huaian_allows_any_return_card():
    hands = ["S3 S4", "S5 SJ HR", "S8 SK", "S9 ST"]
    match = tribute_match((1, 0, 3, 2), hands, ruleset=HUAIAN)
    match.pay_tribute("SK")
    assert names(match.legal_actions()) == ["S5", "SJ", "SK", "HR"]
    match.return_card("HR")
    assert match.hands[2] == Cards.parse("S8 HR")


# -- the whole match -------------------------------------------------------------------------------


def test_any_finish_order_is_reachable_with_the_small_hands():
    import itertools

    from games import force_order

    from guandan import Deal

    for order in itertools.permutations(range(4)):
        order = order[:2] if order[1] == order[0] ^ 2 else order
        assert force_order(Deal(SMALL, 2, leader=order[-1]), order)


def test_a_match_between_agents_ends_with_a_winner_who_passed_a():
    from guandan.bots.loop import play_out
    from guandan.bots.registry import make_agents

    match = Match(11)
    play_out(match, make_agents("greedy", 11))
    assert match.is_over and match.results[-1].passed_a
    last = match.results[-1]
    assert last.level == A and last.level_side == match.winner and last.result.winning_side == match.winner
    assert last.result.partner_place in (2, 3)
    for prev, summary in zip(match.results, match.results[1:]):
        assert summary.levels_before == prev.levels_after
        assert summary.level == summary.levels_before[prev.result.winning_side]
        if not summary.resisted:
            assert len(summary.tributes) == (2 if prev.result.is_double_down else 1)


# -- bad input: refused, the match left as it was --------------------------------------------------


TWENTY_EIGHT = Cards.from_cards(list(range(28)))


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: Match(levels=(2,)), InvalidCardsError, "both sides' levels"),
        (lambda: Match(levels=None), InvalidCardsError, "both sides' levels"),
        (lambda: Match(levels="23"), InvalidCardsError, "both sides' levels"),
        (lambda: Match(levels=(2, 15)), InvalidCardsError, "not a joker"),
        (lambda: Match(failures=("a", 0)), GuandanError, "failures"),
        (lambda: Match(failures=(-1, 0)), GuandanError, "failures"),
        (lambda: Match(failures=1), GuandanError, "failures"),
        (lambda: Match(deal_index=-5), GuandanError, "deal_index"),
        (lambda: Match(deal_index="x"), GuandanError, "deal_index"),
        (lambda: Match(levels=(2, 3), level_side=5), GuandanError, "level_side"),
        (lambda: Match(level_side=5), GuandanError, "level_side"),
        (lambda: Match(levels=(2, 3)), IllegalMoveError, "say whose level"),
        (lambda: Match(previous=(0, 1, 2, 2)), IllegalMoveError, "previous finish order"),
        (lambda: Match(previous="0123"), IllegalMoveError, "previous"),
        (lambda: Match(previous=5), IllegalMoveError, "previous"),
        (lambda: Match(previous=(0, 1, 9, 3)), IllegalMoveError, "previous"),
        (lambda: Match(previous=(0, 1.0, 2, 3)), IllegalMoveError, "previous"),
        (lambda: Match(previous=(0, 1)), IllegalMoveError, "double-down"),
        (lambda: Match(previous=(0, 2, 1, 3)), IllegalMoveError, "double-down"),
        (lambda: Match(hands=[[TWENTY_EIGHT, "SB", "HR", "S3"]]), InvalidCardsError, r"hands\[0\]: seat 0 holds 28"),
        (lambda: Match(hands=[["S3 S3", "S3", "S4", "S5"]]), InvalidCardsError, "more than twice"),
        (lambda: Match(hands=[["", "", "", ""]]), InvalidCardsError, "no cards dealt"),
        (lambda: Match(hands=[["S3", "S4", "S5"]]), InvalidCardsError, "four hands"),
        (
            lambda: Match(hands=[["S3", "S4", "S5", "S6"], ["S3", "", "S5", "S6"]]),
            InvalidCardsError,
            r"hands\[1\]: seat 1 holds no cards",
        ),
        (lambda: Match(hands="S3"), InvalidCardsError, "list of deals"),
        (lambda: Match(hands=[None]), InvalidCardsError, "four hands"),
        (lambda: Match(seed="x"), GuandanError, "seed"),
        (lambda: Match(seed=1.5), GuandanError, "seed"),
        (lambda: Match(ruleset="x"), GuandanError, "unknown ruleset"),
    ],
)
def test_bad_matches_are_refused(call, error, match):
    check(call, error, match)


def due_tribute_match():
    return small_tribute_match()


@pytest.mark.parametrize(
    "act, error, match",
    [
        (lambda m: m.pay_tribute("S8"), IllegalMoveError, "highest card"),
        (lambda m: m.pay_tribute("HA"), IllegalMoveError, "does not hold HA"),
        (lambda m: m.pay_tribute("DA", seat=0), IllegalMoveError, "not seat 0's turn"),
        (lambda m: m.pay_tribute("DA", seat=True), IllegalMoveError, "turn"),
        (lambda m: m.pay_tribute(99), InvalidCardsError, "card index 0..53"),
        (lambda m: m.pay_tribute(None), InvalidCardsError, "card index"),
        (lambda m: m.pay_tribute("XX"), InvalidCardsError, "bad card token"),
        (lambda m: m.return_card("S3"), IllegalMoveError, "no return is due"),
        (lambda m: m.play(None), IllegalMoveError, "no play now"),
        (lambda m: m.play_index(0), IllegalMoveError, "no play now"),
        (lambda m: m.act(None), InvalidCardsError, "card index"),
        (lambda m: m.observation(7), GuandanError, "seat 0..3"),
        (lambda m: protocol.apply_action(m, ["back", "back", ["S3"]]), IllegalMoveError, "not what is due"),
        (lambda m: protocol.apply_action(m, ["tribute", "tribute", ["SZ"]]), InvalidCardsError, "'SZ'"),
    ],
)
def test_a_rejected_action_leaves_the_match_exactly_as_it_was(act, error, match):
    m = due_tribute_match()
    before = m.snapshot()
    check(lambda: act(m), error, match)
    assert m.snapshot() == before
    m.pay_tribute("DA")
    before = m.snapshot()
    for call, err in (
        (lambda: m.return_card("HR"), IllegalMoveError),
        (lambda: m.pay_tribute("SA"), IllegalMoveError),
        (lambda: m.return_card("D4", seat=0), IllegalMoveError),
    ):
        check(call, err)
        assert m.snapshot() == before


def test_a_rejected_play_in_a_match_changes_nothing():
    m = Match(seed=1)
    before = m.snapshot()
    for act in (
        lambda: m.play(None),
        lambda: m.play_index("a"),
        lambda: m.pay_tribute("S3"),
        lambda: m.play(Move.pass_(2)),
    ):
        with pytest.raises(GuandanError):
            act()
        assert m.snapshot() == before
