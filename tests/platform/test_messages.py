"""``guandan.platform.messages``: the protocol's messages built from the engine's state, and the
answers read from a bot."""

from __future__ import annotations

import json

import pytest
from refusals import check

from guandan import Cards, GreedyAgent, Match, ProtocolError
from guandan.bots.loop import play_out
from guandan.platform.actions import to_action
from guandan.platform.messages import (
    PASS_ACTION,
    STAGES,
    act_message,
    answer,
    anti_tribute_notice,
    back_notice,
    beginning,
    game_over,
    game_result,
    log_body,
    parse_answer,
    public_info,
    to_text,
    tribute_notice,
)


def test_parse_answer_reads_the_index():
    assert parse_answer('{"actIndex": 3, "note": "x"}', 3) == 3
    assert parse_answer(b'{"actIndex": 0}', 0) == 0


@pytest.mark.parametrize(
    "text, problem",
    [
        (b"\xff\xfe", "not UTF-8"),
        ("{", "not JSON"),
        ("[1]", "not a JSON object"),
        ('{"index": 1}', 'no "actIndex"'),
        ('{"actIndex": true}', "must be an integer"),
        ('{"actIndex": 1.0}', "must be an integer"),
        ('{"actIndex": 4}', "out of range"),
        ('{"actIndex": -1}', "out of range"),
        ("[" * 100_000, "not JSON"),
    ],
)
def test_a_bad_answer_is_a_protocol_error_naming_the_problem(text, problem):
    check(lambda: parse_answer(text, 3), ProtocolError, problem)


def test_an_answer_is_read_back_as_its_index():
    for i in (0, 1, 153):
        assert parse_answer(answer(i), 153) == i


def test_the_notices_hold_the_engines_state_in_the_manuals_fields():
    match = Match(seed=1, ruleset="platform")
    hand = match.hands[2]
    start = beginning(hand, 2)
    assert start == {"type": "notify", "stage": "beginning", "handCards": hand.codes(), "myPos": 2}
    assert Cards.parse(" ".join(start["handCards"])) == hand
    assert tribute_notice([(3, 1, 53)])["result"] == [[3, 1, "HR"]]
    assert back_notice([(1, 3, 4)])["result"] == [[1, 3, "S3"]]
    assert anti_tribute_notice([1, 3]) == {"type": "notify", "stage": "anti-tribute", "antiNums": 2, "antiPos": [1, 3]}
    assert game_over(1, 3) == {"type": "notify", "stage": "gameOver", "curTimes": 1, "settingTimes": 3}
    assert game_result([2, 1], 0)["victoryNum"][:2] == [2, 1]
    for message in (start, tribute_notice([(3, 1, 53)]), game_over(1, 3)):
        assert json.loads(to_text(message)) == message and " " not in to_text(message)
        assert message["stage"] in STAGES[message["type"]]


def test_an_act_message_lists_the_legal_actions_of_the_seat_to_act_pass_first():
    match = Match(seed=4, ruleset="platform")
    play_out(match, [GreedyAgent()] * 4, max_actions=1)  # now a response: the pass is listed
    seat = match.turn
    message, choices = act_message(match, seat)
    assert (message["type"], message["stage"], message["handCards"]) == ("act", "play", match.hands[seat].codes())
    assert message["indexRange"] == len(message["actionList"]) - 1 == len(choices) - 1
    assert message["actionList"][0] == PASS_ACTION
    assert sorted(map(str, message["actionList"][1:])) == sorted(
        str(to_action(m)) for m in match.legal_actions() if not m.is_pass
    )
    info = public_info(match)
    assert [p["rest"] for p in info] == [len(h) for h in match.hands]


def test_a_log_body_is_the_message_as_compact_json_the_raw_text_or_its_bytes():
    assert log_body('{ "a" : [1, 2] }') == ("msg", '{"a":[1,2]}')
    assert log_body(b"x y") == ("raw", json.dumps("x y"))
    assert log_body(b"\xffx") == ("base64", json.dumps("/3g="))  # not UTF-8: the bytes, exact
    assert log_body('{"a": NaN}') == ("raw", json.dumps('{"a": NaN}'))  # not strict JSON
    assert log_body("[" * 10_000)[0] == "raw"
