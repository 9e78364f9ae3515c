"""The viewer's timeline of a record: every action a step, each with the table it leaves
(whose turn, the trick, the cards held), checked against the record and the rules' order of
play on whole matches; a record that does not replay is refused naming where."""

from __future__ import annotations

import json

import pytest

from guandan import Deal, Match
from guandan.bots.agents import GreedyAgent, RandomAgent
from guandan.bots.loop import play_out
from guandan.errors import RecordError
from guandan.records.games import record
from guandan.web.timeline import MAX_RECORD_BYTES, read_record, timeline


def played(seed, ruleset="competitive_2022+cap3"):
    match = Match(seed, ruleset)
    play_out(match, [GreedyAgent(), RandomAgent(seed=seed), GreedyAgent(), RandomAgent(seed=seed + 1)])
    return match


def hands_through(deal_line):
    """The four hands after each step, from the dealt hands and the steps alone."""
    hands = [list(h) for h in deal_line["dealt"]]
    out = []
    for step in deal_line["steps"]:
        if step["kind"] in ("tribute", "return"):
            hands[step["seat"]].remove(step["card"])
            hands[step["to"]].append(step["card"])
        elif step["kind"] == "play":
            for card in step["cards"]:
                hands[step["seat"]].remove(card)
        out.append([sorted(h) for h in hands])
    return out


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_every_action_is_a_step_with_the_table_it_leaves(seed):
    match = played(seed)
    data = record(match)
    line = timeline(json.loads(json.dumps(data)))
    assert line["format"] == "guandan.match" and line["over"] == match.is_over and line["winner"] == match.winner
    assert len(line["deals"]) == len(data["deals"])
    for deal_line, deal_data, log in zip(line["deals"], data["deals"], match.deal_logs):
        steps = deal_line["steps"]
        assert len(steps) == len(deal_data["actions"])
        assert deal_line["dealt"] == deal_data["hands"] and deal_line["level"] == deal_data["level"]
        hands = hands_through(deal_line)
        plays = [i for i, s in enumerate(steps) if s["kind"] in ("play", "pass")]
        before = len(steps) - len(plays)
        assert all(s["kind"] in ("tribute", "return") for s in steps[:before])
        if before:  # once the tribute and return are made, the hands are those the deal starts with
            assert hands[before - 1] == [sorted(h) for h in deal_line["hands"]]
        expected_turn = deal_line["leader"]
        for i in plays:
            step, action = steps[i], deal_data["actions"][i]
            assert step["seat"] == action["seat"] == expected_turn  # play passes as the rules say
            assert step["counts"] == [len(h) for h in hands[i]]
            assert step["kind"] == ("pass" if action["type"] == "pass" else "play")
            if step["kind"] == "play":
                assert (step["type"], step["key"], step["cards"], step["as"]) == (
                    action["type"], action["key"], action["cards"], action["as"])
            trick = step["trick"]
            if trick:  # the steps of the trick on the table: consecutive, led by a play, up to this one
                assert trick == list(range(trick[0], i + 1))
                assert steps[trick[0]]["kind"] == "play" and steps[trick[0]]["seat"] == step["lead"]
            else:  # a trick just won: every other seat holding cards passed
                assert step["kind"] == "pass"
            assert set(step["out"]) == {s for s in range(4) if step["counts"][s] == 0}
            expected_turn = step["turn"]
            if expected_turn is not None:
                assert step["counts"][expected_turn] > 0
        assert expected_turn is None or not log.deal.is_over
        if log.deal is not None and log.deal.is_over:
            assert steps[-1]["turn"] is None and deal_line["finish_order"] == list(log.deal.finish_order)
            assert deal_line["gained"] == match.ruleset.gain(deal_line["result"]["partner_place"])


def test_a_deal_record_and_an_unfinished_match():
    deal = Deal.new(seed=5, level=7, leader=2)
    for _ in range(9):
        deal.play(deal.legal_moves()[0])
    line = timeline(record(deal))
    assert line["format"] == "guandan.deal" and not line["over"] and line["deals"][0]["leader"] == 2
    assert [s["seat"] for s in line["deals"][0]["steps"]][:3] == [2, 3, 0]
    assert line["deals"][0]["steps"][-1]["turn"] == deal.turn
    match = Match(6, levels=(5, 9), previous=(1, 0, 3, 2))
    match.pay_tribute(match.legal_actions()[0])
    line = timeline(record(match))
    (only,) = line["deals"]
    assert [s["kind"] for s in only["steps"]] == ["tribute"] and only["hands"] is None and not line["over"]


def test_a_record_that_does_not_replay_is_refused_naming_where():
    data = record(played(7))
    data["deals"][1]["actions"][5]["cards"] = ["SB", "SB", "SB"]
    with pytest.raises(RecordError, match=r"deal 2 action 6 .*too many copies of SB"):
        timeline(data)
    with pytest.raises(RecordError, match="a record is a JSON object"):
        timeline([1, 2])


def test_reading_a_record_refuses_what_is_not_one():
    assert read_record(b'{"a": 1}') == {"a": 1}
    with pytest.raises(RecordError, match="not UTF-8"):
        read_record(b"\xff\xfe{")
    with pytest.raises(RecordError, match="more than the"):
        read_record(" " * (MAX_RECORD_BYTES + 1))
    with pytest.raises(RecordError, match="not JSON"):
        read_record("[" * 100000)
