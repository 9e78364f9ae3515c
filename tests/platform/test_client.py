"""The platform's client side: ``SeatView`` and ``PlatformClient`` fed the server table's messages
without sockets (every rebuilt observation compared with the engine's own, whole games equal
to the same agents playing in-process), the tolerance cases (unknown fields and stages, the
other spellings, missing and out-of-order notifications, an ``actionList`` that differs from the
engine's, broken input of every kind), and over real sockets on 127.0.0.1: ``run_client``,
``run_local`` and four ``guandan connect`` processes playing whole games on an in-process server.
Every test is bounded in time."""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import random
import subprocess
import sys
import time

import numpy as np
import pytest
from websockets.asyncio.client import connect

from guandan import Cards, GuandanError, Match
from guandan.bots.agents import GreedyAgent
from guandan.bots.loop import play_out
from guandan.bots.registry import make_agent
from guandan.bots.search import MonteCarloAgent
from guandan.core.rng import derive_seed
from guandan.game.history import Phase, Play, Return, Tribute
from guandan.platform import (
    PlatformClient,
    PlatformServer,
    PlatformTable,
    TableState,
    client_url,
    run_client,
    run_client_sync,
    run_local,
    start_server,
)
from guandan.platform.actions import to_action
from guandan.platform.messages import act_message
from guandan.platform.server import CLOSE_DISCONNECTED
from guandan.records.games import record, replay
from guandan.ui.cli import main

LIMIT = 120  # seconds: no test waits longer


def seated(table: PlatformTable) -> PlatformTable:
    for name in ("a", "b", "c", "d"):
        table.join(name)
    return table


def drive(table: PlatformTable, clients, on_act=None, log=None, max_steps=500_000):
    """Deliver every message to its seat's client as the wire text and send its answers back,
    until the table is done. ``on_act(seat, text, match)`` is called before each request is
    delivered; ``log`` collects (seat, text) of every message."""
    queue = list(table.start())
    steps = 0
    while queue and steps < max_steps:
        send = queue.pop(0)
        for seat in send.seats:
            steps += 1
            text = send.wire
            if log is not None:
                log.append((seat, text))
            if on_act is not None and send.message["type"] == "act":
                on_act(seat, text, table.match)
            answer = clients[seat].receive(text)
            if send.message["type"] == "act":
                assert answer is not None
                reply = table.receive(seat, answer)
                assert reply.accepted, reply.error
                queue.extend(reply.sends)
            else:
                assert answer is None
    assert table.state is TableState.FINISHED


def compare(view_obs, engine_obs, phase):
    """The rebuilt observation against the engine's: every field a seat can know. The tribute
    cards are announced once all are paid, so in the tribute and return phases the rebuilt
    history holds those announced, and the counts are those announced (the hands as dealt
    while the tribute is paid)."""
    assert view_obs.seat == engine_obs.seat and view_obs.turn == engine_obs.turn == view_obs.seat
    assert view_obs.phase == engine_obs.phase == phase
    assert view_obs.hand == engine_obs.hand and view_obs.packed_hand == engine_obs.packed_hand
    assert view_obs.level == engine_obs.level
    assert view_obs.levels == engine_obs.levels and view_obs.level_side == engine_obs.level_side
    assert view_obs.deal_index == engine_obs.deal_index
    assert view_obs.finish_order == engine_obs.finish_order
    assert view_obs._beat == engine_obs._beat and view_obs.to_beat == engine_obs.to_beat
    plays = [r for r in view_obs.history if isinstance(r, Play)]
    assert plays == [r for r in engine_obs.history if isinstance(r, Play)]
    announced = {r for r in view_obs.history if isinstance(r, Tribute | Return)}
    assert announced <= {r for r in engine_obs.history if isinstance(r, Tribute | Return)}
    if phase == Phase.PLAY:
        assert view_obs.card_counts == engine_obs.card_counts
        assert announced == {r for r in engine_obs.history if isinstance(r, Tribute | Return)}
        assert np.array_equal(view_obs.legal_actions.array, engine_obs.legal_actions.array)
    else:
        assert tuple(view_obs.legal_actions) == tuple(engine_obs.legal_actions)


# -- sans-I/O: whole games ----------------------------------------------------------------------------


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


def test_views_that_follow_every_message_rebuild_the_engines_observation_and_the_mc_agent_plays():
    table = seated(PlatformTable(games=1, seed=4, ruleset="platform+cap3"))
    agents = [MonteCarloAgent(seed=i, rollouts=60, candidates=6) for i in range(4)]
    clients = [PlatformClient(a) for a in agents]
    checked = []

    def on_act(seat, text, match):
        # the client's own view, after it takes in this request, must be the engine's
        view = copy.deepcopy(clients[seat].view)
        request = view.request(json.loads(text))
        compare(request.observation, match.observation(seat), match.phase)
        checked.append(match.phase)

    drive(table, clients, on_act=on_act)
    assert Phase.PLAY in checked and Phase.TRIBUTE in checked and Phase.RETURN in checked
    for c in clients:
        assert c.result.complete and c.result.fallbacks == 0 and c.result.agent_errors == 0
        assert c.view.deals == table.deals == 3
    # the search bot samples deals from what it has seen: over the protocol it sees the same
    match = Match(table.game_seed(0), "platform+cap3")
    play_out(match, [MonteCarloAgent(seed=i, rollouts=60, candidates=6) for i in range(4)])
    assert record(match) == record(table.matches[0])


def test_an_anti_tribute_deal_is_followed():
    from games import full_hands_with_big_jokers

    hands = full_hands_with_big_jokers([1, 3])  # after a double-down by 0 and 2, seats 1 and 3 resist
    rules = "platform+cap2"
    table = seated(
        PlatformTable(
            seed=1, ruleset=rules, new_match=lambda g: Match(g, rules, levels=(5, 5), previous=(0, 2), hands=[hands])
        )
    )
    clients = [PlatformClient("greedy") for _ in range(4)]
    seen = []

    def on_act(seat, text, match):
        view = copy.deepcopy(clients[seat].view)
        compare(view.request(json.loads(text)).observation, match.observation(seat), match.phase)
        if match.deal_index == 0:
            seen.append(clients[seat].view.anti_tribute)

    log = []
    drive(table, clients, on_act=on_act, log=log)
    assert any(json.loads(text)["stage"] == "anti-tribute" for _, text in log)
    assert seen and all(s == [1, 3] for s in seen)
    assert all(c.result.complete and c.result.warnings == 0 for c in clients)


# -- tolerance ------------------------------------------------------------------------------------------


def recorded(seed=5, ruleset="platform+cap2"):
    """The texts each seat receives in a whole game (greedy answers)."""
    table = seated(PlatformTable(games=1, seed=seed, ruleset=ruleset))
    log = []
    drive(table, [PlatformClient("greedy") for _ in range(4)], log=log)
    return table, [[json.loads(t) for s, t in log if s == seat] for seat in range(4)]


RECORDED = recorded()


def answers(client, messages):
    out = []
    for m in messages:
        text = json.dumps(m)
        a = client.receive(text)
        if m.get("type") == "act" or "actionList" in m:
            index = json.loads(a)["actIndex"]
            assert isinstance(index, int) and 0 <= index <= max(0, len(m.get("actionList") or [1]) - 1)
            out.append(index)
        else:
            assert a is None
    return out


def test_unknown_fields_and_stages_are_ignored_and_the_answers_are_the_same(caplog):
    _, seats = RECORDED
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


def test_the_other_spellings_are_read():
    _, seats = RECORDED
    plain_client = PlatformClient("greedy")
    plain = answers(plain_client, seats[1])
    respelled = []
    for m in copy.deepcopy(seats[1]):
        if "handCards" in m:
            m["handCard"] = m.pop("handCards")
        if m["stage"] == "anti-tribute":
            m["antiNum"] = m.pop("antiNums")
        if m["stage"] == "gameResult":
            m["final"] = m.pop("victoryNum")
        if "greaterPos" in m:  # the manual's example: the two values swapped
            m["greaterPos"], m["greaterAction"] = m["greaterAction"], m["greaterPos"]
        for key in ("selfRank", "oppoRank", "curRank"):  # ranks as numbers
            if key in m:
                letter = m[key]
                m[key] = {"T": "10", "A": 1, "J": 11, "Q": "12", "K": 13}.get(letter, letter)
        for key in ("curAction", "greaterAction"):  # actions as objects
            action = m.get(key)
            if isinstance(action, list) and action[0] != "PASS":
                m[key] = {"type": action[0], "rank": action[1], "actions": action[2]}
        respelled.append(m)
    client = PlatformClient("greedy")
    assert answers(client, respelled) == plain
    assert client.result.warnings == 0 and client.result.fallbacks == 0
    assert client.result.final == {"victoryNum": plain_client.result.final["victoryNum"], "draws": [0] * 4}


def test_missing_and_out_of_order_notifications_still_get_valid_answers():
    _, seats = RECORDED
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


def play_request(hand="S3 S4 C4 S5 S6 S7 S8 HT", greater=None, actions=None, level="2"):
    """An act play message for a hand (seat 0), the engine's actionList unless given."""
    from guandan import legal_moves
    from guandan.platform.actions import from_action

    beat = None if greater is None else from_action(greater[1], level)
    moves = list(legal_moves(Cards.parse(hand), level, beat=beat))
    if moves and moves[-1].is_pass:
        moves.insert(0, moves.pop())
    listed = [to_action(mv) for mv in moves] if actions is None else actions
    return {
        "type": "act",
        "stage": "play",
        "handCards": Cards.parse(hand).codes(),
        "publicInfo": [{"rest": len(Cards.parse(hand)), "playArea": None}] + [{"rest": 27, "playArea": None}] * 3,
        "selfRank": level,
        "oppoRank": level,
        "curRank": level,
        "curPos": -1 if greater is None else greater[0],
        "curAction": None if greater is None else greater[1],
        "greaterPos": -1 if greater is None else greater[0],
        "greaterAction": None if greater is None else greater[1],
        "actionList": listed,
        "indexRange": len(listed) - 1,
    }


def begun(seat=0, hand="S3 S4 C4 S5 S6 S7 S8 HT", agent="greedy"):
    client = PlatformClient(agent)
    beginning = {"type": "notify", "stage": "beginning", "handCards": Cards.parse(hand).codes(), "myPos": seat}
    client.receive(json.dumps(beginning))
    return client


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


def test_fuzzed_messages_never_raise():
    _, seats = RECORDED
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


def test_client_urls():
    assert client_url("ws://127.0.0.1:23456/game/", "greedy") == "ws://127.0.0.1:23456/game/greedy"
    assert client_url("ws://127.0.0.1:23456/game", "a b") == "ws://127.0.0.1:23456/game/a%20b"
    assert client_url("ws://h:1/", "x") == client_url("ws://h:1", "x") == "ws://h:1/game/x"
    assert client_url("ws://h:1/game/team7") == "ws://h:1/game/team7"
    assert client_url("ws://h:1/game/team7", "team7") == "ws://h:1/game/team7"
    for url, name, problem in [
        ("http://h:1/game/", "x", "not a WebSocket URL"),
        ("h:1", "x", "not a WebSocket URL"),
        ("ws://h:1/game/", None, "names no bot"),
        ("ws://h:1/game/team7", "other", "already names the bot"),
        (None, "x", "a URL is a string"),
    ]:
        with pytest.raises(GuandanError, match=problem):
            client_url(url, name)


# -- over sockets ----------------------------------------------------------------------------------------


def test_run_local_plays_whole_games_and_the_records_replay():
    start = time.monotonic()
    run = run_local("greedy,random,greedy,random", games=2, seed=3, ruleset="platform+cap3", timeout=LIMIT)
    assert time.monotonic() - start < LIMIT
    server = run.server
    assert server.complete and server.games_played == 2 and server.deals == 6
    assert all(s.ignored == 0 for s in server.tables[0].seats)
    for seat, c in enumerate(run.clients):
        assert c.complete and c.ok and c.seat == seat and c.close_code == 1000 and c.fallbacks == 0
        assert c.answers == server.tables[0].seats[seat].answers
        assert c.wins() == (server.victories[seat % 2], server.victories[1 - seat % 2])
    for data in server.records:
        assert replay(json.loads(json.dumps(data))).is_over
    assert "1 table · ruleset platform+cap3 · seed 3 · 2 of 2 games · 6 deals" in run.format()
    # the server's own measure: every request after an answer (all but the last answer's)
    answers = sum(s.answers for s in server.tables[0].seats)
    assert len(server.added) == len(server.added_cpu) == answers - 1
    assert all(0 <= cpu for cpu in server.added_cpu) and all(0 <= t < LIMIT for t in server.added)
    summary = server.to_json()
    assert summary["added_ms"]["n"] == answers - 1 and summary["added_ms"]["p99"] >= summary["added_ms"]["p50"] > 0
    table = server.tables[0]
    assert table.messages_received == answers and table.messages_sent == sum(c.messages for c in run.clients)
    assert server.messages == table.messages_sent + table.messages_received


def test_run_client_next_to_other_bots_and_a_closed_table(tmp_path):
    async def leaver(url):
        async with connect(url + "leaver") as ws:
            await ws.recv()  # the beginning message, then away

    async def scenario():
        async with PlatformServer(port=0, seed=2) as server:
            tasks = []
            for i in range(3):
                play = run_client(server.url, "greedy", name=f"g{i}", log=tmp_path / f"{i}.jsonl")
                tasks.append(asyncio.create_task(play))
                await asyncio.sleep(0.2)
            tasks.append(asyncio.create_task(leaver(server.url)))
            result = await asyncio.wait_for(server.wait(), LIMIT)
            return result, await asyncio.wait_for(asyncio.gather(*tasks), LIMIT)

    result, (a, b, c, _) = asyncio.run(scenario())
    assert not result.complete
    for r in (a, b, c):
        assert not r.complete and r.close_code == CLOSE_DISCONNECTED and "disconnected" in r.close_reason
        assert "the games did not end (closed with code 4001" in r.format()
    lines = [json.loads(line) for line in (tmp_path / "0.jsonl").read_text().splitlines()]
    assert lines[0]["event"] == "connect" and lines[-1]["event"] == "close"
    assert {line["dir"] for line in lines[1:-1]} <= {"in", "out"}
    assert lines[1]["msg"]["stage"] == "beginning"


@pytest.mark.parametrize(("code", "ended"), [(1000, True), (1001, False), (4001, False)])
def test_a_server_closing_without_game_result(code, ended):
    from websockets.asyncio.server import serve

    async def handler(ws):
        beginning = {"type": "notify", "stage": "beginning", "handCards": ["S3", "S4"], "myPos": 2}
        await ws.send(json.dumps(beginning))
        await ws.close(code, "bye")

    async def scenario():
        async with serve(handler, "127.0.0.1", 0) as server:
            port = server.sockets[0].getsockname()[1]
            return await asyncio.wait_for(run_client(f"ws://127.0.0.1:{port}/game/", "greedy"), LIMIT)

    result = asyncio.run(scenario())
    assert result.seat == 2 and not result.complete and result.close_code == code and result.close_reason == "bye"
    assert result.ended is ended and result.ok is ended
    assert ("closed the connection normally" in result.format()) is ended


def test_a_refused_connection_is_a_clear_error(capsys):
    with start_server(port=0) as srv:
        port = srv.port
    with pytest.raises(GuandanError, match=f"cannot connect to ws://127.0.0.1:{port}/game/greedy"):
        run_client_sync(f"ws://127.0.0.1:{port}/game/", "greedy", open_timeout=5)
    assert main(["connect", f"ws://127.0.0.1:{port}/game/", "--agent", "greedy"]) == 2
    assert "cannot connect to" in capsys.readouterr().err
    with start_server(port=0) as srv:
        with pytest.raises(GuandanError, match="HTTP 404"):
            run_client_sync(srv.url.replace("/game/", "/other/x"), "greedy", open_timeout=5)
    assert main(["connect", "ws://127.0.0.1:1/game/", "--agent", "nobody"]) == 2
    assert "unknown agent 'nobody'" in capsys.readouterr().err


def test_connect_help(capsys):
    assert main(["connect", "--help"]) == 0
    out = capsys.readouterr().out
    for option in ("--agent", "--name", "--seed", "--log", "--json", "--quiet"):
        assert option in out


def test_four_guandan_connect_processes_play_whole_games(tmp_path):
    agents = ["greedy", "random", "mc", "greedy"]
    with start_server(port=0, games=2, seed=5, ruleset="platform+cap2", records=tmp_path) as srv:
        procs = []
        for i, agent in enumerate(agents):  # started together: seats go by who connects first
            command = [sys.executable, "-m", "guandan", "connect", srv.url, "--agent", agent, "--name", f"{agent}{i}"]
            if i == 1:
                command += ["--json", "--log", str(tmp_path / "random.jsonl")]
            procs.append(subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
        try:
            result = srv.wait(LIMIT)
            outputs = [p.communicate(timeout=LIMIT) for p in procs]
        finally:
            for p in procs:
                p.kill()
        table = srv.server.tables[0]
    assert [p.returncode for p in procs] == [0, 0, 0, 0], outputs
    assert result.complete and result.games_played == 2 and result.deals == 4
    seats = {s.name: s for s in result.tables[0].seats}
    assert sorted(seats) == ["greedy0", "greedy3", "mc2", "random1"]
    assert all(s.ignored == 0 for s in seats.values())
    wins = result.victories
    out, err = outputs[0]
    seat = seats["greedy0"].seat
    lines = out.splitlines()
    assert lines[0] == f"seat {seat} at {srv.url}greedy0 (partner seat {seat ^ 2}), agent greedy"
    assert lines[1].startswith("game 1/2: 2 deals; the last at level ") and lines[2].startswith("game 2/2: 2 deals")
    mine, theirs = wins[seat % 2], wins[1 - seat % 2]
    sides = f"seats {seat % 2}, {seat % 2 + 2}"
    assert lines[3] == f"result: my side ({sides}) won {mine}, the other side {theirs}, draws 0"
    assert lines[4].startswith(f"{seats['greedy0'].answers} answers, agent greedy mean ")
    assert err == ""
    summary = json.loads(outputs[1][0])
    assert summary["seat"] == seats["random1"].seat and summary["complete"]
    assert summary["result"]["victoryNum"] == [wins[0], wins[1]] * 2
    assert summary["answers"] == seats["random1"].answers and summary["fallbacks"] == summary["agent_errors"] == 0
    log = [json.loads(line) for line in (tmp_path / "random.jsonl").read_text().splitlines()]
    assert sum(1 for line in log if line.get("dir") == "out") == summary["answers"]
    for g in (1, 2):
        data = json.loads((tmp_path / f"table0-game{g}.json").read_text())
        assert replay(data) == table.matches[g - 1]
