"""The web server over real sockets on the loopback: the page and its assets over HTTP with
their content types, the bots' protocol unchanged, a person's seat kept by name, the
page's requests (/assist) and bad input — a record that does not replay, a malformed or
stale message of the page, a second player at a taken seat, a request too long — each
answered with a clear message while the server goes on. Every test is bounded in time."""

from __future__ import annotations

import asyncio
import json
import logging
import urllib.error
import urllib.request

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from guandan import Match
from guandan.platform import PlatformServer, run_client
from guandan.records.games import record, replay
from guandan.web.server import PAGE_NOTICE, WebGame, WebServer, WebTable, page_url_for

LIMIT = 60  # seconds: no test waits longer


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, LIMIT))


def get(url):
    """(status, content type, body) of an HTTP GET."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.headers["Content-Type"], response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], error.read()


async def aget(url):
    return await asyncio.to_thread(get, url)


async def ask(ws, request):
    await ws.send(json.dumps(request))
    return json.loads(await asyncio.wait_for(ws.recv(), 30))


def test_the_page_and_its_assets_are_served_with_their_content_types():
    async def main():
        async with WebServer(port=0, seed=1) as server:
            page = f"http://127.0.0.1:{server.port}"
            found = {path: await aget(page + path) for path in (
                "/", "/viewer", "/table.js", "/viewer.js", "/cards.js", "/net.js", "/style.css", "/favicon.ico",
                "/favicon.svg", "/status.json", "/nothing.js", "/../server.py", "/records/x.json", "/assist")}
        return found

    found = run(main())
    assert found["/"][0] == 200 and found["/"][1] == "text/html; charset=utf-8" and b"table.js" in found["/"][2]
    assert found["/viewer"][0] == 200 and b"viewer.js" in found["/viewer"][2]
    for path in ("/table.js", "/viewer.js", "/cards.js", "/net.js"):
        assert found[path][:2] == (200, "text/javascript; charset=utf-8"), path
    assert found["/style.css"][:2] == (200, "text/css; charset=utf-8")
    assert found["/favicon.ico"][:2] == (200, "image/svg+xml") and found["/favicon.ico"][2] == found["/favicon.svg"][2]
    status = json.loads(found["/status.json"][2])
    assert found["/status.json"][1] == "application/json" and status["tables"][0]["state"] == "seating"
    assert status["ruleset"] == "platform" and status["promotion"] == [3, 2, 1] and status["records"] is False
    assert found["/nothing.js"][0] == 404 and found["/../server.py"][0] == 404
    assert found["/records/x.json"][0] == 404 and b"--records" in found["/records/x.json"][2]
    assert found["/assist"][0] == 426  # a WebSocket only


def test_no_asset_comes_from_the_network():
    async def main():
        async with WebServer(port=0, seed=1) as server:
            page = f"http://127.0.0.1:{server.port}"
            return [(await aget(page + path))[2].decode() for path in ("/", "/viewer", "/table.js", "/viewer.js",
                                                                           "/cards.js", "/net.js", "/style.css")]

    for text in run(main()):
        assert "http://" not in text and "https://" not in text and "//cdn" not in text and "@import" not in text


@pytest.mark.slow
def test_bots_play_a_web_server_exactly_as_a_platform_server():
    """Four bots over real sockets: the same seed, the same games, record for record."""

    async def play(server_class):
        async with server_class(port=0, seed=17, ruleset="platform+cap2") as server:
            tasks = []
            for i in range(4):
                tasks.append(asyncio.create_task(run_client(server.url, "greedy", name=f"bot{i}", seed=i)))
                while server.tables[0].names[i] is None:
                    await asyncio.sleep(0.005)
            clients = await asyncio.gather(*tasks)
            result = await server.wait()
        return result, clients

    plain, plain_clients = run(play(PlatformServer))
    web, web_clients = run(play(WebServer))
    assert plain.complete and web.complete
    assert plain.tables[0].records == web.tables[0].records
    assert [c.close_code for c in web_clients] == [c.close_code for c in plain_clients] == [1000] * 4


def test_a_full_web_server_still_answers_503_and_other_game_paths_as_the_platform():
    async def main():
        async with WebServer(port=0, seed=2) as server:
            sockets = [await connect(server.url + f"b{i}") for i in range(4)]
            try:
                with pytest.raises(InvalidStatus) as full:
                    await connect(server.url + "late")
            finally:
                for ws in sockets:
                    await ws.close()
            return full.value.response.status_code

    assert run(main()) == 503


def test_the_web_table_keeps_each_bots_seat_and_gives_any_other_name_the_persons():
    table = WebTable(person=1, bots={"a": 0, "b": 2, "c": 3}, seed=1)
    assert table.join("someone") == 1 and table.join("c") == 3
    with pytest.raises(Exception, match="seat 1 is taken"):
        table.join("another person")
    with pytest.raises(Exception, match="every seat but the person's"):
        WebTable(person=0, bots={"a": 0, "b": 2, "c": 3})


def _person_match(game):
    return Match(7, "competitive_2022+cap1")


@pytest.mark.slow
def test_a_person_and_three_bots_play_a_whole_match_and_the_record_is_written(tmp_path):
    async def main():
        async with WebGame(seat=2, bots="greedy", seed=5, ruleset="competitive_2022+cap1", records=tmp_path) as game:
            status = json.loads((await aget(game.page_url + "status.json"))[2])
            person = await run_client(game.url, "greedy", name="you")
            await asyncio.wait_for(game.finished(), LIMIT)
            return status, person, game

    status, person, game = run(main())
    assert status["tables"][0]["person"] == 2 and status["tables"][0]["taken"] == [True, True, False, True]
    assert status["tables"][0]["labels"] == ["greedy", "greedy", "you", "greedy"]
    assert person.complete and person.seat == 2 and person.close_code == 1000
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["web-5-game1.json"]
    data = json.loads((tmp_path / files[0]).read_text())
    assert replay(data) is not None and data["over"] is True


@pytest.mark.slow
def test_a_second_player_at_a_taken_seat_is_refused_and_the_game_goes_on(caplog):
    caplog.set_level(logging.WARNING, logger="guandan.web")

    async def main():
        async with WebGame(seat=0, bots="greedy", seed=9, ruleset="competitive_2022+cap1") as game:
            person = asyncio.create_task(run_client(game.url, "greedy", name="you"))
            while game.table.names[0] is None:
                await asyncio.sleep(0.005)
            with pytest.raises(InvalidStatus) as taken:
                await connect(game.url + "intruder?page=1")
            body = taken.value.response.body.decode()
            status = json.loads((await aget(game.page_url + "status.json"))[2])
            result = await person
            await asyncio.wait_for(game.finished(), LIMIT)
            return taken.value.response.status_code, body, status, result, game.table

    code, body, status, result, table = run(main())
    assert code == 409 and "seat 0 is taken" in body
    assert "refused a connection as 'intruder': seat 0 is taken" in caplog.text
    assert status["tables"][0]["taken"][0] is True
    assert result.complete and table.state.value == "finished"


async def _until_act(ws, messages):
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 30))
        if message.get("type") == "act":
            return message
        messages.append(message)


def test_a_malformed_or_stale_message_of_the_page_is_ignored_and_the_page_is_told(caplog):
    caplog.set_level(logging.WARNING, logger="guandan.platform")

    async def main():
        async with WebGame(seat=1, bots="greedy", seed=4, ruleset="competitive_2022+cap1") as game:
            async with connect(game.url + "you?page=1") as ws:
                messages = []
                act = await _until_act(ws, messages)
                notices = []
                for bad in ("not json", '{"actIndex": 100000}', '{"index": 0}', '{"actIndex": true}'):
                    await ws.send(bad)
                    notices.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
                await ws.send(json.dumps({"actIndex": 0}))
                after = json.loads(await asyncio.wait_for(ws.recv(), 10))
                await ws.send(json.dumps({"actIndex": 0}))  # stale: no longer asked
                stale = None
                while stale is None:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if message.get("stage") == PAGE_NOTICE:
                        stale = message
                return act, notices, after, stale, game.table.state.value

    act, notices, after, stale, state = run(main())
    assert act["stage"] == "play"
    assert [n["stage"] for n in notices] == [PAGE_NOTICE] * 4
    assert "not JSON" in notices[0]["error"] and "out of range" in notices[1]["error"]
    assert 'no "actIndex"' in notices[2]["error"] and "integer" in notices[3]["error"]
    assert after["stage"] == "play" and after["curPos"] == 1  # the valid answer was played
    assert "was not asked" in stale["error"]
    assert state == "playing"
    ignored = [r.getMessage() for r in caplog.records if "ignored" in r.getMessage()]
    assert len(ignored) == 5 and all("seat 1" in line for line in ignored)


def test_a_bot_that_sends_bad_answers_gets_no_page_notice():
    async def main():
        async with WebGame(seat=0, bots="greedy", seed=4, ruleset="competitive_2022+cap1") as game:
            async with connect(game.url + "plainbot") as ws:  # no ?page=1: a bot
                await _until_act(ws, [])
                await ws.send("garbage")
                with pytest.raises(TimeoutError):
                    await asyncio.wait_for(ws.recv(), 0.5)  # nothing: the table waits, silently
                await ws.send(json.dumps({"actIndex": 0}))
                return json.loads(await asyncio.wait_for(ws.recv(), 10))

    assert run(main())["stage"] == "play"


def _finished_record():
    from guandan.bots.agents import GreedyAgent
    from guandan.bots.loop import play_out

    match = Match(3, "competitive_2022+cap2")
    play_out(match, [GreedyAgent()] * 4)
    return record(match)


def test_a_shutdown_with_a_game_in_progress_tells_the_page_and_the_log(caplog):
    caplog.set_level(logging.WARNING, logger="guandan.web")

    async def main():
        game = WebGame(seat=0, bots="greedy", seed=4, ruleset="competitive_2022+cap1")
        await game.start()
        async with connect(game.url + "you?page=1") as ws:
            await _until_act(ws, [])
            await game.close()
            with pytest.raises(ConnectionClosed):
                while True:
                    await asyncio.wait_for(ws.recv(), 10)
            return ws.close_code, ws.close_reason

    code, reason = run(main())
    assert (code, reason) == (1001, "the server shut down")
    assert "the server shuts down: table 0's game 1 is left unfinished" in caplog.text


@pytest.mark.slow
def test_the_page_asks_for_records_hints_and_declarations(tmp_path, caplog):
    data = _finished_record()
    (tmp_path / "game-1.json").write_text(json.dumps(data))
    (tmp_path / "summary.json").write_text("{}")
    (tmp_path / "broken.json").write_text('{"format": "guandan.match", "version": 1}')

    async def main():
        async with WebGame(seat=0, bots="greedy", seed=8, records=tmp_path, hint="mc:rollouts=100") as game:
            async with connect(game.url.replace("/game/", "/assist")) as assist:
                files = await ask(assist, {"id": 1, "op": "records"})
                by_name = await ask(assist, {"id": 2, "op": "replay", "file": "game-1.json"})
                text = json.dumps({"id": 3, "op": "replay", "text": json.dumps(data), "name": "mine.json"})
                for i in range(0, len(text), 16000):
                    await assist.send(json.dumps({"part": text[i : i + 16000], "last": i + 16000 >= len(text)}))
                in_parts = json.loads(await asyncio.wait_for(assist.recv(), 30))
                broken = await ask(assist, {"id": 4, "op": "replay", "file": "broken.json"})
                escape = await ask(assist, {"id": 5, "op": "replay", "file": "../secret.json"})
                declare = await ask(assist, {"id": 6, "op": "declare", "level": "9", "actions": [
                    ["ThreeWithTwo", "3", ["S3", "C3", "S5", "C5", "H9"]],
                    ["ThreeWithTwo", "5", ["S3", "C3", "S5", "C5", "H9"]], ["Pair", "7", ["S3", "S5"]]]})
                garbage = await ask(assist, {"id": 7, "op": 12})
                await assist.send("{not json")
                not_json = json.loads(await asyncio.wait_for(assist.recv(), 10))
                async with connect(game.url + "you?page=1") as ws:
                    messages = []
                    act = await _until_act(ws, messages)
                    hint = await ask(assist, {"id": 8, "op": "hint", "messages": messages, "act": act})
                    no_hint = await ask(assist, {"id": 9, "op": "hint", "messages": messages})
                still = await ask(assist, {"id": 10, "op": "records"})
                return files, by_name, in_parts, broken, escape, declare, garbage, not_json, act, hint, no_hint, still

    files, by_name, in_parts, broken, escape, declare, garbage, not_json, act, hint, no_hint, still = run(main())
    assert [f["name"] for f in files["files"]] == ["broken.json", "game-1.json"]
    assert by_name["ok"] and by_name["id"] == 2 and by_name["name"] == "game-1.json"
    deals = by_name["timeline"]["deals"]
    assert [len(d["steps"]) for d in deals] == [len(d["actions"]) for d in data["deals"]]
    assert in_parts["ok"] and in_parts["id"] == 3 and in_parts["timeline"] == by_name["timeline"]
    assert not broken["ok"] and "bad rules in record" in broken["error"]
    assert "the page's replay request failed: bad rules in record" in caplog.text
    assert not escape["ok"] and "is named like" in escape["error"]
    labels = declare["labels"]
    assert [lab["key"] for lab in labels[:2]] == ["3", "5"] and labels[2] is None
    assert labels[0]["as"] == ["S3", "H3", "C3", "S5", "C5"] and "♥9 as 3" in labels[0]["text"]
    assert not garbage["ok"] and "unknown op" in garbage["error"]
    assert not not_json["ok"] and "not JSON" in not_json["error"]
    assert hint["ok"] and hint["rollouts"] > 0 and 1 <= len(hint["choices"]) <= 3
    assert all(0 <= c["index"] < len(act["actionList"]) for c in hint["choices"])
    assert not no_hint["ok"] and "act message" in no_hint["error"]
    assert still["ok"]  # the connection and the server went on


def test_a_request_too_long_is_dropped_with_a_message():
    async def main():
        server = WebServer(port=0, seed=1)
        server.request_limit = 100
        async with server:
            async with connect(server.url.replace("/game/", "/assist")) as assist:
                for _ in range(3):
                    await assist.send(json.dumps({"part": "x" * 60}))
                dropped = json.loads(await asyncio.wait_for(assist.recv(), 10))
                after = await ask(assist, {"id": 1, "op": "records"})
                return dropped, after

    dropped, after = run(main())
    assert not dropped["ok"] and "longer than 100 characters" in dropped["error"]
    assert after["ok"] and after["files"] == []


def test_the_page_url_of_a_server():
    assert page_url_for("ws://127.0.0.1:23456/game/") == "http://127.0.0.1:23456/"
    assert page_url_for("wss://example.org/game/", "/viewer") == "https://example.org/viewer"


@pytest.mark.slow
def test_the_browsers_thread_is_the_platforms_thread_runner_serving_until_stopped():
    from guandan.platform import ServerThread
    from guandan.web.server import start_web

    with start_web(seat=2, bots="greedy", seed=3, ruleset="competitive_2022+cap1") as running:
        assert isinstance(running, ServerThread) and running.until_stopped
        assert running.served is running.game and running.server is running.game.server
        assert running.url == running.server.url and running.port == running.server.port
        assert running.page_url == running.server.page_url and running.game.tables == [running.game.table]
    result = running.result()
    assert result.tables[0].state == "aborted" and "shut down" in result.tables[0].abort_reason
    with start_web(serve=True, port=0, seed=1) as bare:
        assert bare.game is None and bare.served is bare.server
    assert bare.stop() is bare.result() and not bare.result().complete
