"""The ``platform`` ruleset (the AI-competition server's rules) and the rule fields it added:
passing A only 1st and 2nd, failures at A counted that way, a drop back to 2 after two of
them, a draw after a number of drops, and the double-tribute tie. The other presets are
unchanged (their records too)."""

from __future__ import annotations

import dataclasses
import json

import pytest
from games import force_match_deal
from refusals import check

from guandan import (
    COMPETITIVE_2022,
    HUAIAN,
    NANJING,
    GuandanError,
    Match,
    Phase,
    Rank,
    card_name,
)
from guandan.bots.loop import play_out
from guandan.bots.registry import make_agents
from guandan.game import rules
from guandan.game.rules import PLATFORM, RULESETS, Ruleset, get_ruleset
from guandan.records.games import record, replay

SMALL = ["S3 SK", "S4 SQ", "S5 SJ", "S6 ST"]
A = Rank.ACE


def play_deals(match: Match, *orders: tuple[int, ...]) -> Match:
    for order in orders:
        force_match_deal(match, order)
    return match


def at_a(orders, levels=(A, 9), level_side=0, failures=(0, 0), ruleset=PLATFORM):
    match = Match(7, ruleset, levels=levels, level_side=level_side, failures=failures, hands=[SMALL] * len(orders))
    return play_deals(match, *orders)


def test_the_platform_preset_is_named_and_differs_from_the_default_in_the_documented_fields():
    assert RULESETS["platform"] is PLATFORM and get_ruleset("platform") is PLATFORM
    assert get_ruleset("platform+cap4").max_deals == 4
    differ = {
        f.name
        for f in dataclasses.fields(Ruleset)
        if getattr(PLATFORM, f.name) != getattr(COMPETITIVE_2022, f.name) and f.name not in ("name", "title")
    }
    assert differ == {"failed_a_limit", "pass_a_places", "draw_after_drops"}
    assert (PLATFORM.failed_a_limit, PLATFORM.pass_a_places, PLATFORM.draw_after_drops) == (2, (2,), 50)
    assert PLATFORM.double_tribute_tie == "next" and PLATFORM.return_rule == "low"


def test_the_platform_passes_a_with_the_partner_2nd():
    match = at_a([(0, 2)])
    assert match.is_over and match.winner == 0 and match.end_reason == "passed A"


def test_the_platform_does_not_pass_a_with_the_partner_3rd_and_counts_a_failure():
    match = at_a([(0, 1, 2, 3)])
    assert not match.is_over and match.levels == (A, Rank.NINE) and match.failures == (1, 0)
    assert not match.results[-1].passed_a and match.level == A and match.level_side == 0
    # the default rules pass A there
    assert at_a([(0, 1, 2, 3)], ruleset=COMPETITIVE_2022).winner == 0


def test_the_platform_drops_a_side_to_2_at_its_second_failure_at_a():
    match = at_a([(0, 1, 2, 3), (1, 3)])  # a 1st-and-3rd win, then a loss at its own A
    assert match.levels == (Rank.TWO, Rank.QUEEN) and match.failures == (0, 0)
    assert [r.demoted for r in match.results] == [None, 0] and match.drops == 1
    assert not match.is_over


def test_a_deal_at_the_opponents_level_is_not_a_failure_at_a():
    match = at_a([(1, 3)], level_side=1, levels=(A, 5))
    assert match.failures == (0, 0) and match.levels == (A, Rank.EIGHT)


def test_a_failure_limit_of_four_follows_the_public_re_implementation():
    lenient = dataclasses.replace(PLATFORM, name="platform4", failed_a_limit=4)
    match = at_a([(1, 3)], failures=(2, 0), ruleset=lenient)
    assert match.levels[0] == A and match.failures == (3, 0)
    match = at_a([(1, 3)], failures=(3, 0), ruleset=lenient)
    assert match.levels[0] == Rank.TWO and match.results[-1].demoted == 0


def test_the_match_is_a_draw_when_the_drops_reach_the_limit():
    ruleset = dataclasses.replace(PLATFORM, name="platform_draw2", draw_after_drops=2)
    # both sides at A with one failure each: side 0 fails at its own A (drop 1), then side 1 at its own A (drop 2)
    match = at_a([(1, 3), (0, 2)], levels=(A, A), failures=(1, 1), ruleset=ruleset)
    assert [r.demoted for r in match.results] == [0, 1] and match.drops == 2
    assert match.is_over and match.winner is None and match.end_reason == "draw" and match.phase == Phase.OVER
    data = json.loads(json.dumps(record(match)))
    assert data["winner"] is None and data["end_reason"] == "draw"
    assert replay(data) == match
    # one drop is not enough
    once = at_a([(1, 3)], levels=(A, A), failures=(1, 1), ruleset=ruleset)
    assert once.drops == 1 and not once.is_over


def test_without_draw_after_drops_drops_never_end_a_match():
    match = at_a([(1, 3), (0, 2)], levels=(A, A), failures=(2, 2), ruleset=HUAIAN)
    assert match.drops == 2 and not match.is_over


def tie_match(first, ruleset):
    hands = [None] * 4
    payers = [(first + 1) % 4, (first + 3) % 4]
    hands[payers[0]] = "S3 SA"
    hands[payers[1]] = "S4 DA"
    hands[first] = "S5 S6"
    hands[(first + 2) % 4] = "S7 S8"
    match = Match(3, ruleset, levels=(5, 5), previous=(first, (first + 2) % 4), hands=[hands])
    for payer in match.payers:
        match.pay_tribute(match.legal_actions()[0], seat=payer)
    assert sorted(card_name(t[2]) for t in match.tributes) == ["DA", "SA"]  # equal cards
    return match


@pytest.mark.parametrize("first", [0, 1, 2, 3])
@pytest.mark.parametrize("tie, step", [("next", 1), ("previous", 3)])
def test_on_equal_tribute_cards_the_tie_rule_picks_who_pays_1st_and_leads(first, tie, step):
    ruleset = dataclasses.replace(COMPETITIVE_2022, name=f"tie_{tie}", double_tribute_tie=tie)
    match = tie_match(first, ruleset)
    to_first = [t for t in match.tributes if t[1] == first][0]
    assert to_first[0] == (first + step) % 4
    while match.phase == Phase.RETURN:
        match.return_card(match.legal_actions()[0])
    assert match.deal.leader == (first + step) % 4


def test_unequal_tribute_cards_ignore_the_tie_rule():
    ruleset = dataclasses.replace(COMPETITIVE_2022, name="tie_previous", double_tribute_tie="previous")
    hands = ["S3 S4 SB", "S6 S7", "S8 S9 SK", "ST SJ"]
    match = Match(3, ruleset, levels=(2, 5), previous=(1, 3), hands=[hands])
    match.pay_tribute("SK")
    match.pay_tribute("SB")
    assert match.tributes[0][:2] == (0, 1)  # the small joker beats the king, whatever the tie rule


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("pass_a_places", (), "pass_a_places"),
        ("pass_a_places", (3, 2), "pass_a_places"),
        ("pass_a_places", (1,), "pass_a_places"),
        ("pass_a_places", [2], "pass_a_places"),
        ("draw_after_drops", 0, "draw_after_drops"),
        ("draw_after_drops", True, "draw_after_drops"),
        ("double_tribute_tie", "left", "double_tribute_tie"),
    ],
)
def test_bad_rule_fields_are_refused_naming_the_field(field, value, message):
    with pytest.raises(GuandanError, match=message):
        dataclasses.replace(PLATFORM, **{field: value})


def test_the_older_presets_write_the_same_rules_json_as_before():
    for preset in (COMPETITIVE_2022, HUAIAN, NANJING):
        data = preset.to_json()
        assert set(data) == {
            "name",
            "title",
            "promotion",
            "return_rule",
            "failed_a_limit",
            "max_deals",
            "plain_straight_flush",
        }
        assert Ruleset.from_json(data) == preset


def test_the_platform_rules_round_trip_through_json():
    data = json.loads(json.dumps(PLATFORM.to_json()))
    assert data["pass_a_places"] == [2] and data["draw_after_drops"] == 50
    assert Ruleset.from_json(data) == PLATFORM
    tie = dataclasses.replace(PLATFORM, double_tribute_tie="previous")
    assert Ruleset.from_json(json.loads(json.dumps(tie.to_json()))) == tie


@pytest.mark.slow
def test_a_platform_match_between_agents_passes_a_only_1st_and_2nd_and_replays():
    for seed in range(3):
        match = Match(seed, "platform")
        play_out(match, make_agents("greedy", seed))
        assert match.is_over
        if match.end_reason == "passed A":
            last = match.results[-1]
            assert last.result.partner_place == 2 and last.level == A
        for summary in match.results:
            if summary.level == A and summary.level_side == summary.result.winning_side:
                assert summary.passed_a == (summary.result.partner_place == 2)
        data = json.loads(json.dumps(record(match)))
        assert data["ruleset"] == "platform" and data["rules"]["pass_a_places"] == [2]
        assert replay(data) == match


# -- bad input -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: rules.Ruleset("x", "y", promotion=(1, 2)), GuandanError, "promotion"),
        (lambda: rules.Ruleset("x", "y", promotion="abc"), GuandanError, "promotion"),
        (lambda: rules.Ruleset("x", "y", return_rule="z"), GuandanError, "return_rule"),
        (lambda: rules.Ruleset("x", "y", failed_a_limit=0), GuandanError, "failed_a_limit"),
        (lambda: rules.Ruleset("x", "y", max_deals=1.5), GuandanError, "max_deals"),
        (lambda: rules.Ruleset("x", "y", plain_straight_flush="no"), GuandanError, "plain_straight_flush"),
        (lambda: rules.Ruleset.from_json(None), GuandanError, "JSON object"),
        (lambda: rules.Ruleset.from_json({}), GuandanError, "promotion"),
        (lambda: rules.Ruleset.from_json({"promotion": [3, 2, 1]}), GuandanError, "not a ruleset"),
        (lambda: rules.get_ruleset(5), GuandanError, "ruleset"),
        (lambda: rules.get_ruleset("nanjing+cap0"), GuandanError, "unknown ruleset"),
        (lambda: rules.COMPETITIVE_2022.gain(1), GuandanError, "2nd, 3rd or 4th"),
        (lambda: rules.COMPETITIVE_2022.with_deal_cap(0), GuandanError, "max_deals"),
    ],
)
def test_bad_rulesets_are_refused(call, error, match):
    check(call, error, match)
