"""Game records: every deal and match writes a JSON record that replays to the identical state;
a record with an illegal or inconsistent action fails, naming the action and its index; a record
malformed anywhere gives a RecordError; a bug in the game is never taken for a bad record."""

from __future__ import annotations

import copy
import functools
import json

import pytest
from games import force_match_deal, json_at, json_paths, nested, replaced, small_tribute_match
from refusals import check

from guandan import (
    Deal,
    GuandanError,
    Match,
    RecordError,
    replay,
)
from guandan.bots import agents, loop
from guandan.bots.agents import GreedyAgent
from guandan.bots.loop import play_out
from guandan.bots.registry import make_agents
from guandan.records import games as records
from guandan.records.games import FORMAT_VERSION, record


def roundtrip(data):
    return json.loads(json.dumps(data))


def finished_deal(seed=3, level=6):
    deal = Deal.new(seed, level)
    play_out(deal, make_agents(["greedy", "random", "greedy", "random"], seed))
    return deal


def test_a_deal_record_holds_seed_ruleset_hands_level_actions_and_result():
    deal = finished_deal()
    data = record(deal)
    assert data["format"] == "guandan.deal" and data["version"] == FORMAT_VERSION
    assert data["seed"] == 3 and data["ruleset"] == "competitive_2022" and data["level"] == "6"
    assert data["hands"] == [h.codes() for h in deal.initial_hands]
    assert data["leader"] == deal.leader and data["opening"]["position"] == deal.opening[0]
    assert len(data["actions"]) == len(deal.history)
    first = data["actions"][0]
    assert set(first) == {"seat", "type", "key", "size", "suit", "cards", "as"}
    assert data["finish_order"] == list(deal.finish_order) and data["result"]["finish_order"] == list(deal.finish_order)
    assert data["over"] is True


def test_a_deal_record_replays_to_the_identical_state_and_record():
    deal = finished_deal()
    data = record(deal)
    again = replay(roundtrip(data))
    assert again == deal and again.snapshot() == deal.snapshot()
    assert record(again) == data


def test_an_unfinished_deal_and_a_deal_from_chosen_hands_replay_too():
    deal = Deal(["S3 S4 C4", "", "S7 S8", "S9 ST SB"], level=3, leader=3, finish_order=(1,))
    deal.play(deal.legal_moves()[0])
    data = record(deal)
    assert data["seed"] is None and data["finished_before"] == [1]
    again = replay(roundtrip(data))
    assert again == deal and record(again) == data
    seeded = Deal.new(5, 9)
    play_out(seeded, [GreedyAgent()] * 4, max_actions=17)
    assert replay(roundtrip(record(seeded))) == seeded


def test_a_match_record_holds_every_deal_tribute_return_and_levels():
    match = Match(8, "huaian")
    play_out(match, make_agents("greedy", 8))
    data = record(match)
    assert data["format"] == "guandan.match" and data["ruleset"] == "huaian" and data["rules"]["return_rule"] == "any"
    assert len(data["deals"]) == len(match.results) and data["winner"] == match.winner
    for deal, summary in zip(data["deals"], match.results):
        assert deal["levels_after"] == [lv.letter for lv in summary.levels_after]
        assert deal["result"]["finish_order"] == list(summary.result.finish_order)
        kinds = [a["type"] for a in deal["actions"]]
        n_pre = len(summary.tributes) + len(summary.returns)
        assert kinds[:n_pre].count("tribute") == len(summary.tributes)
        assert kinds[:n_pre].count("return") == len(summary.returns)
        assert deal["resisted"] == summary.resisted
    assert any(deal["tributes"] for deal in data["deals"])


def test_a_match_record_replays_to_the_identical_state_and_record():
    match = Match(8, "nanjing")
    play_out(match, make_agents(["random", "greedy", "random", "greedy"], 8))
    data = record(match)
    again = replay(roundtrip(data))
    assert again == match and record(again) == data


def test_a_match_stopped_in_the_tribute_phase_replays():
    match = Match(3, levels=(5, 9), previous=(1, 0, 3, 2), hands=[["S3 S4", "S6 S7", "S8 SA DA", "S9 ST"]])
    data = record(match)
    assert data["phase"] == "tribute" and data["start"]["hands_given"] == 1
    assert replay(roundtrip(data)) == match
    match.pay_tribute("DA")
    again = replay(roundtrip(record(match)))
    assert again == match and again.phase.label == "return"
    match.return_card("S6")
    force_match_deal(match, (1, 3))
    again = replay(roundtrip(record(match)))
    assert again == match and again.deal_index == 1


def test_record_of_either_kind():
    assert record(Deal.new(1))["format"] == "guandan.deal" and record(Match(1))["format"] == "guandan.match"


# -- bad records -----------------------------------------------------------------------------------


def test_an_illegal_action_in_a_record_fails_naming_the_action_and_its_index():
    deal = finished_deal()
    data = roundtrip(record(deal))
    bad = copy.deepcopy(data)
    bad["actions"][4]["seat"] = (bad["actions"][4]["seat"] + 1) % 4
    with pytest.raises(RecordError, match=r"action 5 .*not seat"):
        replay(bad)
    bad = copy.deepcopy(data)
    bad["actions"][0] = {"seat": data["actions"][0]["seat"], "type": "pass", "key": None, "size": 0, "suit": None}
    with pytest.raises(RecordError, match=r"action 1 .*cannot pass"):
        replay(bad)
    bad = copy.deepcopy(data)
    bad["actions"][1]["cards"] = ["HR", "HR", "SB", "SB"] if data["actions"][1]["type"] != "joker_bomb" else ["S3"]
    with pytest.raises(RecordError, match=r"action 2 "):
        replay(bad)


def test_an_action_inconsistent_with_itself_fails():
    deal = finished_deal()
    data = roundtrip(record(deal))
    i = next(i for i, a in enumerate(data["actions"]) if a["type"] != "pass")
    data["actions"][i]["size"] += 1
    with pytest.raises(RecordError, match=rf"action {i + 1} .*'size'"):
        replay(data)


def test_a_result_that_the_actions_do_not_produce_fails_naming_the_field():
    data = roundtrip(record(finished_deal()))
    data["finish_order"] = list(reversed(data["finish_order"]))
    with pytest.raises(RecordError, match="finish_order"):
        replay(data)


def test_hands_that_the_seed_does_not_deal_fail():
    data = roundtrip(record(finished_deal()))
    data["hands"][0], data["hands"][1] = data["hands"][1], data["hands"][0]
    with pytest.raises(RecordError, match="not those dealt from seed 3"):
        replay(data)


def test_a_bad_tribute_in_a_match_record_fails_naming_deal_and_action():
    match = Match(3, levels=(5, 9), previous=(1, 0, 3, 2), hands=[["S3 S4", "S6 S7", "S8 SA DA", "S9 ST"]])
    match.pay_tribute("DA")
    data = roundtrip(record(match))
    data["deals"][0]["actions"][0]["card"] = "S8"
    with pytest.raises(RecordError, match=r"deal 1 action 1 .*highest card"):
        replay(data)


def test_an_unknown_format_or_version_fails():
    data = roundtrip(record(Deal.new(1)))
    with pytest.raises(RecordError, match="version"):
        replay({**data, "version": 99})
    with pytest.raises(RecordError, match="format"):
        replay({**data, "format": "chess"})


# -- malformed records: every field, any depth (any value of any type: tests/properties/test_fuzz.py) --------


def short_deal_record():
    deal = Deal.new(seed=5, level=3)
    play_out(deal, [GreedyAgent()] * 4, max_actions=9)
    return record(deal)


def short_match_record():
    match = Match(seed=3, levels=(5, 9), previous=(1, 0, 3, 2), hands=[["S3 HR", "D4 HR", "S8 SA DA", "C5"]])
    play_out(match, [GreedyAgent()] * 4, max_actions=8)
    return record(match)


RECORDS = {"deal": short_deal_record(), "match": short_match_record()}
DEEP = nested(100_000)


@pytest.mark.parametrize("kind", sorted(RECORDS))
def test_a_value_nested_without_bound_at_any_field_gives_a_record_error(kind):
    data = RECORDS[kind]
    for path in json_paths(data):
        with pytest.raises(RecordError):
            replay(replaced(data, path, DEEP))


@pytest.mark.parametrize("kind", sorted(RECORDS))
def test_a_bool_where_an_int_is_meant_is_refused_even_when_equal(kind):
    data = RECORDS[kind]
    zeros_and_ones = [p for p in json_paths(data) if type(json_at(data, p)) is int and json_at(data, p) in (0, 1)]
    assert zeros_and_ones
    for path in zeros_and_ones:
        with pytest.raises(RecordError):
            replay(replaced(data, path, bool(json_at(data, path))))


# -- a bug inside the game is a bug, not a bad record ------------------------------------------------


class PlantedBug(TypeError):
    """An internal error planted in the game for a test: it must surface as itself."""


def _members(cls):
    """The methods and properties of a game class (its own, dunders other than __init__ left out)."""
    for name, value in vars(cls).items():
        if name.startswith("__") and name != "__init__":
            continue
        if isinstance(value, property | classmethod | staticmethod) or callable(value):
            yield name, value


def _raiser(error):
    def fail(*args, **kwargs):
        raise error("planted")

    return fail


def _plant(monkeypatch, cls, name, value, error):
    fail = _raiser(error)
    if isinstance(value, property):
        monkeypatch.setattr(cls, name, property(fail))
    elif isinstance(value, classmethod):
        monkeypatch.setattr(cls, name, classmethod(fail))
    elif isinstance(value, staticmethod):
        monkeypatch.setattr(cls, name, staticmethod(fail))
    else:
        monkeypatch.setattr(cls, name, fail)


MEMBERS = [(cls, name, value) for cls in (Deal, Match) for name, value in _members(cls)]


@pytest.mark.parametrize(("cls", "name", "value"), MEMBERS, ids=[f"{c.__name__}.{n}" for c, n, _ in MEMBERS])
def test_an_error_planted_in_any_method_of_the_game_propagates_through_replay(monkeypatch, cls, name, value):
    records = dict(RECORDS)  # written before the planting
    _plant(monkeypatch, cls, name, value, PlantedBug)
    for data in records.values():
        try:
            replay(copy.deepcopy(data))
        except PlantedBug:
            pass  # the method was used, and its bug surfaced as itself


@pytest.mark.parametrize("error", [TypeError, AttributeError, IndexError, KeyError, RecursionError, ValueError])
@pytest.mark.parametrize(
    ("cls", "name", "kind"),
    [
        (Deal, "__init__", "deal"),
        (Deal, "play", "deal"),
        (Match, "__init__", "match"),
        (Match, "pay_tribute", "match"),
        (Match, "return_card", "match"),
        (Match, "play", "match"),
    ],
)
def test_a_bug_in_the_game_is_not_a_bad_record(monkeypatch, cls, name, kind, error):
    data = copy.deepcopy(RECORDS[kind])
    monkeypatch.setattr(cls, name, _raiser(error))
    with pytest.raises(error) as caught:
        replay(data)
    assert not isinstance(caught.value, RecordError)


@pytest.mark.parametrize("name", ["parse_card", "parse_level", "classify", "move_to_json", "card_name"])
def test_a_bug_in_a_lower_layer_is_not_a_bad_record(monkeypatch, name):
    import guandan.records.games

    data = copy.deepcopy(RECORDS["match"])
    monkeypatch.setattr(guandan.records.games, name, _raiser(AttributeError))
    with pytest.raises(AttributeError):
        replay(data)


# -- corrupt records -------------------------------------------------------------------------------


@functools.cache
def finished_deal_record():
    """A deal played out by greedy agents, recorded once (each test corrupts a deep copy)."""
    deal = Deal.new(seed=11, level=5)
    loop.play_out(deal, [agents.GreedyAgent()] * 4)
    return records.record(deal)


@pytest.mark.parametrize(
    "corrupt, match",
    [
        (lambda r: None, "a record is a JSON object"),
        (lambda r: [], "a record is a JSON object"),
        (lambda r: {}, "format"),
        (lambda r: {**r, "version": 2}, "version"),
        (lambda r: {**r, "rules": None}, "bad rules"),
        (lambda r: {**r, "rules": {**r["rules"], "promotion": "abc"}}, "bad rules"),
        (lambda r: {**r, "rules": {**r["rules"], "extra": 1}}, "bad rules"),
        (lambda r: {**r, "ruleset": "huaian"}, "names ruleset"),
        (lambda r: {**r, "level": "Z"}, "cannot set up"),
        (lambda r: {**r, "hands": None}, "record field hands is a list, got null"),
        (lambda r: {**r, "hands": [["S3"], ["S4"], ["S5"]]}, "record field hands has 4 items, got 3"),
        (lambda r: {**r, "hands": [["S3"], ["S4"], ["S5"], [5]]}, "record field hands.3.0 is a string, got 5"),
        (lambda r: {**r, "seed": "x"}, 'record field seed is an int or null, got "x"'),
        (lambda r: {**r, "seed": True}, "record field seed is an int or null, got true"),
        (lambda r: {**r, "level": 5}, "record field level is a string, got 5"),
        (lambda r: {**r, "seed": None, "hands": [["S3"] * 3] * 4}, "cannot set up"),
        (lambda r: {**r, "leader": 7}, "cannot set up"),
        (lambda r: {**r, "leader": None}, "record field leader is an int, got null"),
        (lambda r: {**r, "leader": False}, "record field leader is an int, got false"),
        (lambda r: {k: v for k, v in r.items() if k != "leader"}, "record field leader is missing"),
        (lambda r: {**r, "actions": None}, "record field actions is a list, got null"),
        (lambda r: {**r, "seed": None, "finished_before": [True]}, "record field finished_before.0 is an int"),
        (lambda r: {**r, "actions": [None]}, "action 1"),
        (lambda r: {**r, "actions": [[1, 2]]}, "action 1"),
        (lambda r: {**r, "actions": [{"seat": 0}]}, "action 1"),
        (lambda r: {**r, "actions": [{**r["actions"][0], "cards": "S3"}] + r["actions"][1:]}, "action 1"),
        (lambda r: {**r, "actions": [{**r["actions"][0], "type": 5}] + r["actions"][1:]}, "action 1"),
        (lambda r: {**r, "actions": [{**r["actions"][0], "seat": 9}] + r["actions"][1:]}, "action 1"),
        (lambda r: {**r, "actions": [{**r["actions"][0], "seat": True}]}, "action 1 field seat is an int, got true"),
        (lambda r: {**r, "actions": [{**r["actions"][0], "size": 1.0}]}, "action 1 field size is an int, got 1.0"),
        (lambda r: {**r, "actions": [{**r["actions"][0], "key": 5}]}, "action 1 field key is a string or null"),
        (lambda r: {**r, "actions": [{**r["actions"][0], "as": "S3"}]}, "action 1 field as is a list"),
        (lambda r: {**r, "actions": r["actions"][1:]}, "action 1"),
        (lambda r: {**r, "actions": r["actions"][:-1]}, "record field"),
        (lambda r: {**r, "over": 1}, "record field over"),
        (lambda r: {**r, "finish_order": [0, 1, 2]}, "record field finish_order"),
        (lambda r: {**r, "unexpected": 1}, "unexpected"),
    ],
)
def test_a_corrupt_deal_record_raises_record_error(corrupt, match):
    record = finished_deal_record()
    check(lambda: records.replay(corrupt(copy.deepcopy(record))), RecordError, match)


@functools.cache
def match_record():
    """A match through its tribute and return and 30 actions, recorded once (each test corrupts a deep copy)."""
    m = small_tribute_match()
    m.pay_tribute("DA")
    m.return_card("D4")
    loop.play_out(m, [agents.GreedyAgent()] * 4, max_actions=30)
    return records.record(m)


@pytest.mark.parametrize(
    "corrupt, match",
    [
        (lambda r: {**r, "start": None}, "record field start is an object, got null"),
        (lambda r: {**r, "start": {**r["start"], "levels": ["5"]}}, "record field start.levels has 2 items, got 1"),
        (lambda r: {**r, "start": {**r["start"], "levels": ["5", "Z"]}}, "cannot set up the match: bad level 'Z'"),
        (lambda r: {**r, "start": {**r["start"], "failures": [0, False]}}, "record field start.failures.1 is an int"),
        (lambda r: {**r, "start": {**r["start"], "deal_index": -1}}, "cannot set up the match: deal_index"),
        (lambda r: {**r, "start": {**r["start"], "hands_given": 3}}, "hands_given is 3, but the record has 2 deals"),
        (lambda r: {**r, "start": {**r["start"], "previous": [1, 0, 3, "2"]}}, "start.previous.3 is an int"),
        (lambda r: {**r, "deals": None}, "record field deals is a list, got null"),
        (lambda r: {**r, "deals": [None] + r["deals"][1:]}, "record field deals.0 is an object, got null"),
        (lambda r: {**r, "deals": [{**r["deals"][0], "actions": None}] + r["deals"][1:]}, "deals.0.actions is a list"),
        (lambda r: {**r, "deals": [{**r["deals"][0], "index": True}] + r["deals"][1:]}, "deals.0.index is an int"),
        (lambda r: {**r, "deals": [{**r["deals"][0], "index": 7}] + r["deals"][1:]}, "its index is 7"),
        (lambda r: {**r, "deals": [{**r["deals"][0], "hands": [["S3"]] * 4}] + r["deals"][1:]}, "cannot set up"),
        (lambda r: {**r, "start": {**r["start"], "hands_given": 0}}, "deal 1: the hands of the record"),
        (
            lambda r: {**r, "deals": [{**r["deals"][0], "actions": [{"seat": 2, "type": "tribute", "card": None}]}]},
            "deal 1 action 1",
        ),
        (lambda r: {**r, "deals": [{**r["deals"][0], "actions": r["deals"][0]["actions"][1:]}]}, "deal 1 action 1"),
        (lambda r: {**r, "winner": 0}, "record field winner"),
    ],
)
def test_a_corrupt_match_record_raises_record_error(corrupt, match):
    record = match_record()
    assert records.replay(copy.deepcopy(record)) is not None
    check(lambda: records.replay(corrupt(copy.deepcopy(record))), RecordError, match)


def test_bad_record_helpers_raise():
    check(lambda: records.move_from_json(None, 2), RecordError, "an action is an object, got null")
    check(lambda: records.move_from_json({}, 2), RecordError, "action field type is missing")
    check(lambda: records.move_from_json({"type": 1}, 2), RecordError, "action field type is a string, got 1")
    check(lambda: records.move_from_json({"type": "single", "cards": None}, 2), RecordError, "field cards is a list")
    check(lambda: records.move_from_json({"type": "single", "cards": [3]}, 2), RecordError, "field cards.0 is a string")
    check(lambda: records.move_from_json({"type": "bomb", "cards": ["S3"]}, 2), GuandanError, "cannot be played")
    check(lambda: records.record("x"), GuandanError, "not a deal or a match")
