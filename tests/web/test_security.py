"""The web UI against a hostile page, over real sockets on the loopback: a foreign Origin and
a foreign Host refused on every route and socket before any message, the token of a server
that needs one, records confined to their folder (symbolic links resolved), the headers of
every answer, and the bounds on what pages can make the server hold. Every wait is bounded."""

from __future__ import annotations

import asyncio
import http.client
import json
import os

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from guandan import Match, make_agents, play_out
from guandan.records.games import record
from guandan.web import server as web_server
from guandan.web.server import WebGame, WebServer

LIMIT = 60
ROUTES = ("/", "/viewer", "/status.json", "/records/game-1.json", "/table.js", "/nothing")
UPGRADE = [("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
           ("Sec-WebSocket-Version", "13")]
FOREIGN_ORIGINS = ("http://evil.example", "null", "http://127.0.0.1.evil.example:{port}", "https://127.0.0.1:{port}")


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, LIMIT))


def http_get(port, path, host=None, headers=()):
    """(status, headers, body) of a GET with the Host header given."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.putrequest("GET", path, skip_host=True)
        conn.putheader("Host", host if host is not None else f"127.0.0.1:{port}")
        for name, value in headers:
            conn.putheader(name, value)
        conn.endheaders()
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


async def aget(*args, **kwargs):
    return await asyncio.to_thread(http_get, *args, **kwargs)


async def handshake(url, **options):
    """The HTTP status of a WebSocket handshake (101 when it opened; closed again at once)."""
    try:
        async with connect(url, open_timeout=10, **options):
            return 101
    except InvalidStatus as error:
        return error.response.status_code


def write_record(directory, name="game-1.json"):
    match = Match(seed=3)
    play_out(match, make_agents("greedy", 3))
    path = directory / name
    path.write_text(json.dumps(record(match)))
    return path


def test_a_foreign_origin_is_refused_on_every_socket_of_the_page_before_any_message(tmp_path):
    async def main():
        async with WebGame(seat=0, seed=5, records=tmp_path) as game:
            port = game.server.port
            base = f"ws://127.0.0.1:{port}"
            refused = {}
            for origin in FOREIGN_ORIGINS:
                origin = origin.format(port=port)
                for path in ("/assist", "/game/you?page=1", "/game/you", "/game/anybot"):
                    refused[origin, path] = await handshake(base + path, origin=origin)
            seated_before = list(game.table.names)
            own = await handshake(base + "/assist", origin=f"http://127.0.0.1:{port}")
            none = await handshake(base + "/assist")  # a program, not a page
            return refused, seated_before, own, none

    refused, seated, own, none = run(main())
    assert set(refused.values()) == {403}, refused
    assert seated.count(None) == 1  # the person's seat stayed free: no foreign page took it
    assert own == 101 and none == 101


@pytest.mark.slow
def test_a_foreign_host_is_refused_on_every_route_and_upgrade(tmp_path):
    write_record(tmp_path)

    async def main():
        async with WebServer(port=0, seed=1, records=tmp_path) as server:
            port = server.port
            answers = {}
            for host in ("evil.example", f"evil.example:{port}", f"1.2.3.4:{port}", f"127.0.0.1:{port + 1}"):
                for path in ROUTES:
                    answers[host, path] = (await aget(port, path, host=host))[0]
                for path in ("/assist", "/game/you?page=1"):
                    answers[host, "ws " + path] = (await aget(port, path, host=host, headers=UPGRADE))[0]
            answers["two hosts"] = await handshake(
                f"ws://127.0.0.1:{port}/assist", additional_headers={"Host": "evil.example"}
            )
            good = {path: (await aget(port, path, host=f"localhost:{port}"))[0] for path in ROUTES}
            return answers, good

    answers, good = run(main())
    assert set(answers.values()) == {403}, answers
    assert good == {"/": 200, "/viewer": 200, "/status.json": 200, "/records/game-1.json": 200, "/table.js": 200,
                    "/nothing": 404}


def test_every_answer_carries_the_security_headers(tmp_path):
    async def main():
        async with WebServer(port=0, seed=1) as server:
            return {path: await aget(server.port, path) for path in (*ROUTES, "/assist")}

    for path, (_status, headers, _) in run(main()).items():
        assert "script-src 'self'" in headers["Content-Security-Policy"], path
        assert "frame-ancestors 'none'" in headers["Content-Security-Policy"], path
        assert headers["X-Frame-Options"] == "DENY" and headers["Referrer-Policy"] == "no-referrer", path
        assert headers["X-Content-Type-Options"] == "nosniff", path


def test_a_server_with_a_token_refuses_requests_without_it(tmp_path):
    write_record(tmp_path)

    async def main():
        async with WebGame(seat=0, seed=6, records=tmp_path, token=True) as game:
            server = game.server
            port, token = server.port, server.token
            assert token and server.page_url.endswith(f"/?token={token}")
            without = {path: (await aget(port, path))[0] for path in ROUTES}
            status, headers, _ = await aget(port, f"/?token={token}")
            cookie = headers["Set-Cookie"].split(";")[0]
            with_cookie = {path: (await aget(port, path, headers=[("Cookie", cookie)]))[0] for path in ROUTES}
            sockets = {
                "assist without": await handshake(f"ws://127.0.0.1:{port}/assist"),
                "seat without": await handshake(f"ws://127.0.0.1:{port}/game/you?page=1"),
                "person's seat as a bot": await handshake(f"ws://127.0.0.1:{port}/game/you"),
                "assist with": await handshake(f"ws://127.0.0.1:{port}/assist?token={token}"),
                "assist with the cookie": await handshake(
                    f"ws://127.0.0.1:{port}/assist", additional_headers={"Cookie": cookie}
                ),
            }
            seated = sum(name is not None for name in game.table.names)  # the bots came in without it
            return status, without, with_cookie, sockets, seated

    status, without, with_cookie, sockets, seated = run(main())
    assert status == 200
    assert without == {"/": 403, "/viewer": 403, "/status.json": 403, "/records/game-1.json": 403, "/table.js": 200,
                       "/nothing": 403}
    assert with_cookie == {"/": 200, "/viewer": 200, "/status.json": 200, "/records/game-1.json": 200,
                           "/table.js": 200, "/nothing": 404}
    assert sockets == {"assist without": 403, "seat without": 403, "person's seat as a bot": 403,
                       "assist with": 101, "assist with the cookie": 101}
    assert seated == 3


@pytest.mark.slow
def test_records_are_confined_to_their_folder_symbolic_links_resolved(tmp_path):
    records = tmp_path / "records"
    records.mkdir()
    write_record(records, "game-1.json")
    outside = tmp_path / "outside.json"
    outside.write_text(json.dumps({"format": "guandan.deal", "secret": "outside"}))
    (records / "link-outside.json").symlink_to(outside)
    (records / "link-passwd.json").symlink_to("/etc/passwd")
    (records / "link-inside.json").symlink_to(records / "game-1.json")
    (records / "loop.json").symlink_to(records / "loop.json")

    async def main():
        async with WebServer(port=0, seed=1, records=records) as server:
            port = server.port
            http = {name: (await aget(port, f"/records/{name}"))[:3:2] for name in (
                "link-outside.json", "link-passwd.json", "link-inside.json", "loop.json", "game-1.json")}
            async with connect(f"ws://127.0.0.1:{port}/assist") as ws:
                replies = {}
                for i, name in enumerate(("link-outside.json", "link-passwd.json", "link-inside.json")):
                    await ws.send(json.dumps({"id": i, "op": "replay", "file": name}))
                    replies[name] = json.loads(await asyncio.wait_for(ws.recv(), 30))
                await ws.send(json.dumps({"id": 9, "op": "records"}))
                listed = json.loads(await asyncio.wait_for(ws.recv(), 30))
            return http, replies, listed

    http, replies, listed = run(main())
    assert http["link-outside.json"][0] == 404 and b"outside the directory" in http["link-outside.json"][1]
    assert http["link-passwd.json"][0] == 404 and b"root:" not in http["link-passwd.json"][1]
    assert http["loop.json"][0] == 404
    assert http["link-inside.json"][0] == 200 and http["game-1.json"][0] == 200
    assert not replies["link-outside.json"]["ok"] and "outside the directory" in replies["link-outside.json"]["error"]
    assert not replies["link-passwd.json"]["ok"]
    assert replies["link-inside.json"]["ok"]
    assert sorted(f["name"] for f in listed["files"]) == ["game-1.json", "link-inside.json"]


def test_a_record_over_the_cap_is_refused_on_both_routes(tmp_path, monkeypatch):
    cap = 1000
    monkeypatch.setattr("guandan.web.assist.MAX_RECORD_BYTES", cap)
    (tmp_path / "big.json").write_text(json.dumps({"format": "guandan.deal", "pad": "x" * cap}))

    async def main():
        async with WebServer(port=0, seed=1, records=tmp_path) as server:
            status, _, body = await aget(server.port, "/records/big.json")
            async with connect(f"ws://127.0.0.1:{server.port}/assist") as ws:
                await ws.send(json.dumps({"id": 1, "op": "replay", "file": "big.json"}))
                reply = json.loads(await asyncio.wait_for(ws.recv(), 30))
            return status, body, reply

    status, body, reply = run(main())
    assert status == 404 and b"larger than the 1,000 bytes" in body
    assert not reply["ok"] and "larger than the 1,000 bytes" in reply["error"]


def test_page_sockets_are_bounded_and_the_others_refused_with_503(monkeypatch):
    monkeypatch.setattr(web_server, "MAX_PAGE_SOCKETS", 3)

    async def main():
        async with WebServer(port=0, seed=1) as server:
            url = f"ws://127.0.0.1:{server.port}/assist"
            held = [await connect(url) for _ in range(3)]
            try:
                await asyncio.sleep(0.05)
                over = await handshake(url)
                bot = await handshake(f"ws://127.0.0.1:{server.port}/game/bot")  # bots are not pages
            finally:
                for ws in held:
                    await ws.close()
            await asyncio.sleep(0.05)
            again = await handshake(url)
            return over, bot, again

    assert run(main()) == (503, 101, 101)


def test_parts_held_by_all_pages_together_are_bounded(monkeypatch):
    monkeypatch.setattr(web_server, "ASSIST_BUFFERED", 100_000)

    async def main():
        async with WebServer(port=0, seed=1) as server:
            url = f"ws://127.0.0.1:{server.port}/assist"
            async with connect(url) as one, connect(url) as two:
                for _ in range(4):
                    await one.send(json.dumps({"part": "x" * 20_000}))
                for _ in range(2):
                    await two.send(json.dumps({"part": "y" * 20_000}))
                refused = json.loads(await asyncio.wait_for(two.recv(), 10))
                await one.send(json.dumps({"part": "", "last": True}))
                first = json.loads(await asyncio.wait_for(one.recv(), 10))
                await two.send(json.dumps({"id": 3, "op": "records"}))
                after = json.loads(await asyncio.wait_for(two.recv(), 10))
            return refused, first, after, server._assist_buffered.held

    refused, first, after, held = run(main())
    assert not refused["ok"] and "as many requests in parts" in refused["error"]
    assert not first["ok"] and "not JSON" in first["error"]  # 80,000 x's: held, then answered
    assert after["ok"] and held == 0


def test_a_record_sent_to_slow_readers_is_bounded_in_flight(tmp_path, monkeypatch):
    path = write_record(tmp_path)
    size = os.path.getsize(path)
    monkeypatch.setattr(web_server, "RECORDS_IN_FLIGHT", 2 * size)

    async def main():
        async with WebServer(port=0, seed=1, records=tmp_path) as server:
            readers = []
            for _ in range(3):  # each asks and does not read
                reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
                writer.write(f"GET /records/game-1.json HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode())
                await writer.drain()
                readers.append((reader, writer))
            statuses = []
            for reader, _ in readers:
                statuses.append((await asyncio.wait_for(reader.readline(), 10)).split()[1])
            held = server._records_in_flight.held
            for _, writer in readers:
                writer.close()
            for _ in range(100):
                if server._records_in_flight.held == 0:
                    break
                await asyncio.sleep(0.02)
            return statuses, held, server._records_in_flight.held

    statuses, held, after = run(main())
    assert sorted(statuses) == [b"200", b"200", b"503"] and held == 2 * size and after == 0


@pytest.mark.parametrize("origin", ["http://evil.example", None])
def test_the_allow_origin_option_lets_a_named_origin_in(origin):
    async def main():
        allowed = ["http://tools.example:3000"] if origin is None else [origin]
        async with WebServer(port=0, seed=1, allow_origins=allowed) as server:
            url = f"ws://127.0.0.1:{server.port}/assist"
            return await handshake(url, origin=allowed[0]), await handshake(url, origin="http://other.example")

    assert run(main()) == (101, 403)
