"""The platform's client side, ``PlatformClient`` fed the server table's messages without
sockets: whole games equal to the same agents playing in-process, every rebuilt observation
compared with the engine's own, and the tolerance cases (unknown fields and stages, missing
and out-of-order notifications, an ``actionList`` that differs from the engine's, broken input
of every kind, an agent that raises). The view it keeps is ``tests/platform/test_seat.py``'s,
the values it reads ``test_wire.py``'s, the connection ``test_connect.py``'s and
``test_local.py``'s. Every test is bounded in time."""

from __future__ import annotations

import copy
import json
import logging
import random

import pytest
from platform_games import answers, begun, compare, drive, play_request, recorded, seated

from guandan import GuandanError, Match
from guandan.bots.agents import GreedyAgent
from guandan.bots.loop import play_out
from guandan.bots.registry import make_agent
from guandan.core.rng import derive_seed
from guandan.platform import (
    PlatformClient,
    PlatformTable,
)
from guandan.platform.actions import to_action
from guandan.platform.messages import act_message
from guandan.records.games import record

# -- sans-I/O: whole games ----------------------------------------------------------------------------


@pytest.fixture
def seats():
    """The messages each seat received in one whole game: played once, on first use (in a test's
    setup), a fresh copy for each test."""
    return recorded()[1]


@pytest.mark.slow
@pytest.mark.parametrize(("spec", "seed"), [("greedy", 1), ("random", 2), ("greedy,random,greedy,random", 3)])
def test_every_rebuilt_observation_is_the_engines_and_the_games_are_those_played_in_process(spec, seed):
    specs = spec.split(",") * (4 // len(spec.split(",")))
    table = seated(PlatformTable(games=2, seed=seed))
    clients = [PlatformClient(s, seed=derive_seed(seed, i)) for i, s in enumerate(specs)]
    kinds = set()

    def on_act(seat, text, match):  # a copy of the client's view, given the request it is about to get
        message = json.loads(text)
        kinds.add(message["stage"])
        request = copy.deepcopy(clients[seat].view).request(message)
        compare(request.observation, match.observation(seat), match.phase)
        assert request.agreed

    drive(table, clients, on_act=on_act)
    assert kinds == {"play", "tribute", "back"}
    for c in clients:
        r = c.result
        assert r.complete and r.fallbacks == 0 and r.agent_errors == 0 and r.warnings == 0
        assert [g.game for g in r.games] == [1, 2] and sum(g.deals for g in r.games) == table.deals
    # the same agents, seeded alike, playing the same matches in-process: the same games
    agents = [make_agent(s, derive_seed(seed, i)) for i, s in enumerate(specs)]
    for g, played in enumerate(table.matches):
        match = Match(table.game_seed(g), "platform")
        play_out(match, agents)
        assert record(match) == record(played)


# -- tolerance ------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_unknown_fields_and_stages_are_ignored_and_the_answers_are_the_same(caplog, seats):
    plain = answers(PlatformClient("greedy"), seats[0])
    noisy = []
    for m in seats[0]:
        m = dict(m, extra={"x": [1, 2]}, serverTime=123)
        noisy.append(m)
        if m["stage"] == "play" and m["type"] == "notify":
            noisy.append({"type": "notify", "stage": "chat", "text": "hello"})
            noisy.append({"type": "status", "stage": "play"})
    client = PlatformClient("greedy")
    with caplog.at_level(logging.INFO, logger="guandan.platform.client"):
        assert answers(client, noisy) == plain
    assert client.view.unknown > 0 and client.result.warnings == 0 and client.result.complete
    assert any("unknown kind" in r.getMessage() for r in caplog.records)


@pytest.mark.slow
def test_missing_and_out_of_order_notifications_still_get_valid_answers(seats):
    rng = random.Random(7)
    for seat in range(4):
        messages = [m for m in seats[seat] if m["type"] == "act" or rng.random() < 0.5]  # half the notices lost
        rng.shuffle(messages[:10])
        client = PlatformClient("greedy")
        got = answers(client, messages)
        assert len(got) == sum(1 for m in messages if m["type"] == "act")
        for m, index in zip([m for m in messages if m["type"] == "act"], got):
            assert 0 <= index <= m["indexRange"]


def test_a_request_without_any_beginning_is_answered_and_the_seat_inferred(caplog):
    m = Match(seed=2)
    message = json.loads(json.dumps(act_message(m, m.turn)[0]))
    client = PlatformClient("greedy")
    with caplog.at_level(logging.WARNING, logger="guandan.platform.client"):
        index = json.loads(client.receive(json.dumps(message)))["actIndex"]
    greedy = GreedyAgent().act(m.observation(m.turn))
    assert message["actionList"][index] == to_action(greedy)
    assert any("the seat is not known" in r.getMessage() for r in caplog.records)


def test_an_action_list_in_another_order_is_matched_by_content():
    message = play_request()
    reference = json.loads(begun().receive(json.dumps(message)))["actIndex"]
    chosen = message["actionList"][reference]
    shuffled = copy.deepcopy(message)
    random.Random(3).shuffle(shuffled["actionList"])
    for entry in shuffled["actionList"]:  # cards in any order
        entry[2].reverse()
    client = begun()
    index = json.loads(client.receive(json.dumps(shuffled)))["actIndex"]
    assert sorted(shuffled["actionList"][index][2]) == sorted(chosen[2])
    assert client.result.fallbacks == 0 and client.result.disagreements == 0


def test_a_server_listing_fewer_moves_is_followed():
    message = play_request()
    straight = ["Straight", "4", ["S4", "S5", "S6", "S7", "S8"]]
    kept = [a for a in message["actionList"] if a[0] != "Single"]  # a server that lists no single
    fewer = dict(message, actionList=kept, indexRange=len(kept) - 1)
    client = begun()
    index = json.loads(client.receive(json.dumps(fewer)))["actIndex"]
    assert kept[index][0] != "Single"  # the agent chose among the listed moves only
    assert client.result.fallbacks == 0 and client.result.disagreements == 1
    assert straight in message["actionList"]


def test_a_list_that_names_keys_differently_falls_back_to_the_same_cards(caplog):
    message = play_request(hand="S3 C3 D3")
    renamed = copy.deepcopy(message)
    for entry in renamed["actionList"]:
        entry[1] = "x" + entry[1]  # ranks the client cannot read
    client = begun(hand="S3 C3 D3")
    with caplog.at_level(logging.WARNING, logger="guandan.platform.client"):
        index = json.loads(client.receive(json.dumps(renamed)))["actIndex"]
    reference = json.loads(begun(hand="S3 C3 D3").receive(json.dumps(message)))["actIndex"]
    assert index == reference  # the same entry, found by its cards
    assert client.result.fallbacks == 1 and client.result.disagreements == 1


def test_a_choice_the_list_lacks_falls_back_and_junk_entries_are_survived(caplog):
    message = play_request(greater=(3, ["Single", "9", ["S9"]]))
    client = begun()
    junk = dict(message, actionList=[["PASS", "PASS", "PASS"], 7, None, ["Single", "T", ["HT"]], ["Bomb", "Z", []]])
    junk["indexRange"] = 4
    with caplog.at_level(logging.WARNING, logger="guandan.platform.client"):
        index = json.loads(client.receive(json.dumps(junk)))["actIndex"]
    assert index in (0, 3) and client.result.agent_errors == 0
    assert any("entries of the actionList" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize(
    "broken",
    [
        {"actionList": None},
        {"actionList": []},
        {"actionList": {"Single": {"3": ["S3"]}}, "indexRange": 0},
        {"handCards": "S3 S4"},
        {"publicInfo": "x", "curRank": "Z", "selfRank": None},
        {"greaterPos": "x", "greaterAction": ["Nope", "3", ["S3"]]},
        {"stage": "mystery"},
        {"stage": None, "type": None},
    ],
)
def test_a_broken_request_still_gets_an_answer(broken):
    message = dict(play_request(), **broken)
    client = begun()
    answer = client.receive(json.dumps(message))
    index = json.loads(answer)["actIndex"]
    listed = message["actionList"] if isinstance(message["actionList"], list) else []
    assert 0 <= index <= max(0, len(listed) - 1)


@pytest.mark.slow
def test_fuzzed_messages_never_raise(seats):
    rng = random.Random(11)
    values = [None, -1, 5, "", "x", [], {}, [1, 2], {"a": 1}, 3.5, True, "S3", ["S3", "ZZ"], [[0, 1, "S3"]], 10**30]
    client = PlatformClient("greedy")
    for m in seats[2] * 2:
        m = copy.deepcopy(m)
        for key in list(m):
            if rng.random() < 0.2:
                m[key] = rng.choice(values)
            elif rng.random() < 0.05:
                del m[key]
        answer = client.receive(json.dumps(m))
        if isinstance(m, dict) and (m.get("type") == "act" or "actionList" in m):
            assert isinstance(json.loads(answer)["actIndex"], int)
    for text in ("", "{", "[1,2]", "null", '"act"', b"\xff\xfe"):
        assert client.receive(text) is None
    assert client.receive(b'{"type":"act","actionList":[["PASS","PASS","PASS"]]}') == '{"actIndex": 0}'


def test_an_agent_that_raises_is_replaced_by_the_greedy_agent(caplog):
    class Broken:
        name = "broken"

        def act(self, observation):
            raise RuntimeError("a bug in the bot")

    class Wrong:
        name = "wrong"

        def act(self, observation):
            return "not a move"

    message = play_request()
    greedy = json.loads(begun().receive(json.dumps(message)))["actIndex"]
    client = PlatformClient(Broken())
    with caplog.at_level(logging.ERROR, logger="guandan.platform.client"):
        assert json.loads(client.receive(json.dumps(message)))["actIndex"] == greedy
    assert client.result.agent_errors == 1 and not client.result.ok
    assert "a bug in the bot" in caplog.text
    client = PlatformClient(Wrong())
    assert json.loads(client.receive(json.dumps(message)))["actIndex"] == 0
    assert client.result.fallbacks == 1


def test_bad_agents_are_refused_at_once():
    with pytest.raises(GuandanError, match="unknown agent"):
        PlatformClient("nobody")
    with pytest.raises(GuandanError, match="has a method act"):
        PlatformClient(42)


# -- over sockets ----------------------------------------------------------------------------------------
