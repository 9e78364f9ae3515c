"""Spectators and a page coming back to its seat, over real sockets on the loopback.

A spectator of a table (``/watch/T``) gets its public messages only — never a hand, a
request or its list of actions — unless the server was told to show the hands; it cannot
play (what it sends closes it); a table admits a bounded number; the same Host, Origin and
token rules hold as for the page's other sockets. A page whose connection went away during
the games comes back with its seat's secret within the grace period and plays on; without
the secret, from a foreign page, or after the grace, it cannot. Every wait is bounded."""

from __future__ import annotations

import asyncio
import json
import logging

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from guandan.records.games import replay
from guandan.web.server import CLOSE_TAKEN_OVER, WebGame, WebServer

LIMIT = 60
RULES = "competitive_2022+cap1"


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, LIMIT))


async def handshake(url, **options):
    """The HTTP status of a WebSocket handshake (101 when it opened) and the refusal's text."""
    try:
        async with connect(url, open_timeout=10, **options):
            return 101, ""
    except InvalidStatus as error:
        return error.response.status_code, error.response.body.decode()


async def receive(ws, timeout=30):
    return json.loads(await asyncio.wait_for(ws.recv(), timeout))


async def until_act(ws, seen=None):
    """Read until a request comes (the others appended to ``seen``); it is returned."""
    while True:
        message = await receive(ws)
        if message.get("type") == "act":
            return message
        if seen is not None:
            seen.append(message)


async def drain(ws):
    """Every message until the server closes ``ws``."""
    got = []
    with pytest.raises(ConnectionClosed):
        while True:
            got.append(await receive(ws))
    return got


async def play_out(ws, seen=None):
    """Answer the request awaiting and every next one with its first entry until the table closes the connection (the
    other messages appended to ``seen``); the close code."""
    try:
        while True:
            await ws.send(json.dumps({"actIndex": 0}))
            await until_act(ws, seen)
    except ConnectionClosed:
        return ws.close_code


@pytest.mark.slow
def test_a_spectator_sees_every_public_message_and_never_a_hand():
    async def main():
        async with WebGame(seat=0, bots="greedy", seed=4, ruleset=RULES) as game:
            watch = await connect(f"ws://127.0.0.1:{game.server.port}/watch/0", open_timeout=10)
            hello = await receive(watch)
            page = await connect(game.url + "you?page=1", open_timeout=10)
            status = game.server.status()
            page_seen: list = []
            await until_act(page, page_seen)
            code = await play_out(page, page_seen)
            watched = await drain(watch)
            return hello, watched, page_seen, status, code, game.table, watch.close_code

    hello, watched, page_seen, status, code, table, watch_code = run(main())
    assert hello["stage"] == "watching" and hello["table"] == 0 and hello["seeHands"] is False
    assert hello["labels"] == ["you", "greedy", "greedy", "greedy"]
    assert status["tables"][0]["spectators"] == 1 and status["spectators"] == {"limit": 8, "hands": False}
    assert code == 1000 and watch_code == 1000 and table.state.value == "finished"
    stages = [m["stage"] for m in watched]
    assert stages[0] == "beginning" and stages[-1] == "gameResult" and "turn" in stages
    for message in watched:  # nothing private: no hand, no request, no list of actions
        assert message["type"] == "notify", message
        assert not {"handCards", "hands", "actionList", "indexRange", "myPos", "reclaim"} & set(message), message
    # every notice to all four seats reached the spectator, in the same order
    public = [m for m in page_seen if m["stage"] not in ("beginning", "seat")]
    assert [m for m in watched if m["stage"] not in ("beginning", "turn")] == public
    beginning = watched[0]
    assert beginning["counts"] == [27, 27, 27, 27] and beginning["game"] == 1 and beginning["deal"] == 1
    plays = [m for m in watched if m["stage"] == "play"]
    turns = [m for m in watched if m["stage"] == "turn"]
    assert len(turns) >= len(plays)  # a turn before each play (and each tribute or return)
    assert all(0 <= t["seat"] < 4 and len(t["publicInfo"]) == 4 for t in turns)


@pytest.mark.slow
def test_a_spectator_sees_the_hands_only_when_the_server_is_told():
    async def main():
        async with WebGame(seat=1, bots="greedy", seed=7, ruleset=RULES, spectators_see_hands=True) as game:
            watch = await connect(f"ws://127.0.0.1:{game.server.port}/watch/0", open_timeout=10)
            hello = await receive(watch)
            page = await connect(game.url + "you?page=1", open_timeout=10)
            await until_act(page)
            await play_out(page)
            watched = await drain(watch)
            return hello, watched, game.table.matches[0]

    hello, watched, match = run(main())
    assert hello["seeHands"] is True
    beginning = watched[0]
    assert beginning["stage"] == "beginning"
    assert beginning["hands"] == [hand.codes() for hand in match.deal_logs[0].dealt]


def test_a_spectator_cannot_play_and_is_closed_when_it_sends():
    async def main():
        async with WebGame(seat=0, bots="greedy", seed=4, ruleset=RULES) as game:
            page = await connect(game.url + "you?page=1", open_timeout=10)
            act = await until_act(page)
            watch = await connect(f"ws://127.0.0.1:{game.server.port}/watch/0", open_timeout=10)
            caught = [await receive(watch) for _ in range(2)]  # hello, and the deal so far
            awaiting = game.table.awaiting
            await watch.send(json.dumps({"actIndex": 0}))
            await drain(watch)
            after = (game.table.awaiting, game.table.pending is not None, len(game.table.match.deal.history))
            await page.send(json.dumps({"actIndex": 0}))  # the seat still plays its request
            played = await receive(page)
            await page.close()
            return act, caught, awaiting, watch.close_code, watch.close_reason, after, played

    act, caught, awaiting, code, reason, after, played = run(main())
    assert caught[0]["stage"] == "watching" and caught[1]["stage"] == "beginning"
    assert awaiting == 0 and code == 1008 and "only watches" in reason
    assert after == (0, True, 0)  # the spectator's answer played nothing
    assert played["stage"] == "play" and played["curPos"] == 0


def test_spectators_are_bounded_and_refused_with_a_reason(caplog):
    caplog.set_level(logging.WARNING, logger="guandan.web")

    async def main():
        async with WebServer(port=0, seed=1, tables=2, spectators=2) as server:
            base = f"ws://127.0.0.1:{server.port}/watch/"
            first = await connect(base + "0", open_timeout=10)
            second = await connect(base + "0", open_timeout=10)
            third = await handshake(base + "0")
            other_table = await handshake(base + "1")
            no_table = await handshake(base + "2")
            not_a_table = await handshake(base + "x")
            await first.close()
            await asyncio.sleep(0.1)
            again = await handshake(base + "0")
            await second.close()
        async with WebServer(port=0, seed=1, spectators=0) as server:
            none = await handshake(f"ws://127.0.0.1:{server.port}/watch/0")
        return third, other_table, no_table, not_a_table, again, none

    third, other_table, no_table, not_a_table, again, none = run(main())
    assert third[0] == 503 and "table 0 has 2 spectators, as many as it takes" in third[1]
    assert other_table[0] == 101 and again[0] == 101
    assert no_table[0] == 404 and "the tables are 0..1" in no_table[1] and not_a_table[0] == 404
    assert none[0] == 403 and "no spectators" in none[1]
    assert "refused a spectator of table 0" in caplog.text


def test_a_spectator_follows_the_origin_host_and_token_rules():
    async def main():
        async with WebServer(port=0, seed=1, token=True) as server:
            port, token = server.port, server.token
            url = f"ws://127.0.0.1:{port}/watch/0"
            own = f"http://127.0.0.1:{port}"
            return {
                "foreign origin": await handshake(url + f"?token={token}", origin="http://evil.example"),
                "foreign host": await handshake(url + f"?token={token}", additional_headers={"Host": "evil.example"}),
                "no token": await handshake(url, origin=own),
                "token": await handshake(url + f"?token={token}", origin=own),
            }

    found = run(main())
    assert {k: v[0] for k, v in found.items()} == {
        "foreign origin": 403, "foreign host": 403, "no token": 403, "token": 101}


@pytest.mark.slow
def test_a_finished_tables_spectators_are_sent_to_the_viewer():
    async def main():
        async with WebGame(seat=0, bots="greedy", seed=4, ruleset=RULES) as game:
            page = await connect(game.url + "you?page=1", open_timeout=10)
            await until_act(page)
            await play_out(page)
            await asyncio.wait_for(game.finished(), LIMIT)
            return await handshake(f"ws://127.0.0.1:{game.server.port}/watch/0")

    code, text = run(main())
    assert code == 410 and "/viewer" in text


# -- a page coming back -------------------------------------------------------------------------------


async def leave_mid_game(game, answers=3):
    """A page at the person's seat: answers ``answers`` requests then goes away at the next;
    its seat notice and that request."""
    ws = await connect(game.url + "you?page=1", open_timeout=10)
    notice = await receive(ws)
    act = await until_act(ws)
    for _ in range(answers):
        await ws.send(json.dumps({"actIndex": len(act["actionList"]) - 1}))
        act = await until_act(ws)
    await ws.close()
    while game.server.status()["tables"][0]["away"] != [game.seat == s for s in range(4)]:
        await asyncio.sleep(0.01)
    return notice, act


@pytest.mark.slow
def test_a_page_that_comes_back_with_its_secret_gets_its_seat_and_plays_on(tmp_path):
    async def main():
        async with WebGame(seat=2, bots="greedy", seed=11, ruleset=RULES, records=tmp_path) as game:
            notice, act = await leave_mid_game(game)
            await asyncio.sleep(0.2)
            state_away = game.table.state.value
            back = await connect(game.url + f"you?page=1&reclaim={notice['reclaim']}", open_timeout=10)
            seen: list = []
            again = await until_act(back, seen)
            code = await play_out(back)
            await asyncio.wait_for(game.finished(), LIMIT)
            return notice, act, state_away, seen, again, code, game.table, game.server.web_record_files

    notice, act, state_away, seen, again, code, table, files = run(main())
    assert notice["stage"] == "seat" and notice["seat"] == 2 and len(notice["reclaim"]) >= 32
    assert notice["grace"] == 60
    assert state_away == "playing"  # the seat waited for its page
    assert seen[0]["stage"] == "seat" and seen[0]["reclaim"] == notice["reclaim"] and seen[0]["deal"] == 1
    assert seen[1]["stage"] == "beginning" and seen[1]["myPos"] == 2  # the deal so far, from its beginning
    assert all(m["stage"] in ("play", "tribute", "back", "anti-tribute") for m in seen[2:])
    assert again == act  # the request awaiting the seat's answer, sent again
    assert code == 1000 and table.state.value == "finished"
    data = json.loads(open(files[0]).read())
    assert data["over"] is True and replay(data).is_over


def test_a_seat_is_not_given_to_a_foreign_page_nor_without_its_secret(caplog):
    caplog.set_level(logging.WARNING, logger="guandan.web")

    async def main():
        async with WebGame(seat=0, bots="greedy", seed=11, ruleset=RULES) as game:
            notice, _ = await leave_mid_game(game)
            base = game.url + "you?page=1"
            port = game.server.port
            tries = {
                "no secret": await handshake(base),
                "wrong secret": await handshake(base + "&reclaim=" + "x" * 32),
                "foreign page": await handshake(base + f"&reclaim={notice['reclaim']}", origin="http://evil.example"),
                "foreign host": await handshake(base + f"&reclaim={notice['reclaim']}",
                                                additional_headers={"Host": f"evil.example:{port}"}),
            }
            return tries, game.server.status()["tables"][0]

    tries, status = run(main())
    assert tries["no secret"][0] == 409 and tries["wrong secret"][0] == 409
    assert "no seat to take back" in tries["wrong secret"][1]
    assert tries["foreign page"][0] == 403 and tries["foreign host"][0] == 403
    assert status["away"] == [True, False, False, False] and status["state"] == "playing"


@pytest.mark.slow
def test_a_seat_whose_page_does_not_come_back_ends_its_table_after_the_grace(caplog):
    caplog.set_level(logging.WARNING, logger="guandan.web")

    async def main():
        async with WebGame(seat=0, bots="greedy", seed=11, ruleset=RULES, reclaim_grace=1) as game:
            notice, _ = await leave_mid_game(game)
            await asyncio.wait_for(game.finished(), 10)
            late = await handshake(game.url + f"you?page=1&reclaim={notice['reclaim']}")
            return game.table, late

    table, late = run(main())
    assert table.state.value == "aborted"
    assert "did not come back within 1 s" in table.abort_reason
    assert late[0] == 409
    assert "the seat waits 1 s for its page to come back" in caplog.text


def test_without_a_grace_a_page_that_leaves_ends_its_table_at_once():
    async def main():
        async with WebGame(seat=0, bots="greedy", seed=11, ruleset=RULES, reclaim_grace=0) as game:
            ws = await connect(game.url + "you?page=1", open_timeout=10)
            first = await receive(ws)
            await ws.close()
            await asyncio.wait_for(game.finished(), 10)
            return first, game.table

    first, table = run(main())
    assert first["stage"] == "beginning"  # no secret offered
    assert table.state.value == "aborted" and "disconnected" in table.abort_reason


@pytest.mark.slow
def test_a_second_tab_with_the_secret_takes_the_seat_over_and_the_first_is_closed():
    async def main():
        async with WebGame(seat=0, bots="greedy", seed=11, ruleset=RULES) as game:
            first = await connect(game.url + "you?page=1", open_timeout=10)
            notice = await receive(first)
            act = await until_act(first)
            second = await connect(game.url + f"you?page=1&reclaim={notice['reclaim']}", open_timeout=10)
            again = await until_act(second)
            await drain(first)
            code = await play_out(second)
            return act, again, first.close_code, first.close_reason, code, game.table.state.value

    act, again, first_code, reason, code, state = run(main())
    assert again == act and first_code == CLOSE_TAKEN_OVER and "took it over" in reason
    assert code == 1000 and state == "finished"


def test_bad_spectator_and_grace_options_are_clear_errors():
    from guandan.errors import GuandanError

    for options, words in (({"spectators": -1}, "--spectators"), ({"spectators": True}, "--spectators"),
                           ({"reclaim_grace": -1}, "--reclaim-grace"), ({"reclaim_grace": "5"}, "--reclaim-grace")):
        with pytest.raises(GuandanError, match=words):
            WebServer(port=0, **options)


def test_a_bot_at_a_seat_a_page_left_before_the_start_does_not_wait_when_it_leaves():
    async def main():
        async with WebServer(port=0, seed=1, ruleset=RULES) as server:
            page = await connect(server.url + "you?page=1", open_timeout=10)
            notice = await receive(page)
            await page.close()
            while server.tables[0].names[0] is not None:
                await asyncio.sleep(0.01)
            bots = [await connect(server.url + f"bot{s}", open_timeout=10) for s in range(4)]
            for bot in bots:
                assert (await receive(bot))["stage"] == "beginning"
            await bots[0].close()  # the bot at the seat the page had
            for bot in bots[1:]:
                await drain(bot)
            late = await handshake(server.url + f"you?page=1&reclaim={notice['reclaim']}")
            return notice, server.tables[0], server.status()["tables"][0]["away"], late

    notice, table, away, late = run(main())
    assert notice["stage"] == "seat" and notice["seat"] == 0
    assert table.state.value == "aborted" and "seat 0 (bot0) disconnected" in table.abort_reason
    assert away == [False] * 4 and late[0] == 409


def test_the_list_of_tables_to_watch_is_a_page_and_a_spectators_socket_is_no_page():
    from urllib.error import HTTPError
    from urllib.request import urlopen

    async def main():
        async with WebServer(port=0, seed=1) as server:
            base = f"http://127.0.0.1:{server.port}"

            def get(path):
                try:
                    with urlopen(base + path, timeout=10) as response:
                        return response.status, response.read().decode()
                except HTTPError as error:
                    return error.code, error.read().decode()

            return [await asyncio.to_thread(get, path) for path in ("/watch", "/watch.js", "/watch/0", "/")]

    page, script, socket, table = run(main())
    assert page[0] == 200 and "/watch.js" in page[1] and script[0] == 200 and "/status.json" not in page[1]
    assert socket[0] == 426 and "spectator's WebSocket" in socket[1]
    assert 'href="/watch"' in table[1]


def test_a_spectator_too_far_behind_is_cut_and_the_server_goes_on(monkeypatch):
    from guandan.web import watch as web_watch

    monkeypatch.setattr(web_watch, "SPECTATOR_BACKLOG", 0)  # every spectator is "behind" at once

    async def main():
        async with WebServer(port=0, seed=1) as server:
            watch = await connect(f"ws://127.0.0.1:{server.port}/watch/0", open_timeout=10)
            with pytest.raises(ConnectionClosed):
                await asyncio.wait_for(watch.recv(), 10)
            while server.status()["tables"][0]["spectators"]:
                await asyncio.sleep(0.01)
            return server.status()["tables"][0]

    assert run(main())["spectators"] == 0
