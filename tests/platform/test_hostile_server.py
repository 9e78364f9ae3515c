"""The platform server against hostile peers, over real sockets on 127.0.0.1: raw WebSocket
peers (``tests/hostile.py``) that flood frames after their table ended, never complete the
close handshake, stop reading, send bytes no library would, frames over the size limit,
names that hold control characters, and values strict JSON refuses. The memory, the exit
and the interrupt are checked on a real ``guandan serve`` process (its resident memory read
from ``/proc/PID/status``). Every test is bounded in time."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import time
from urllib.parse import quote

import pytest
from hostile import (
    OP_BINARY,
    OP_PING,
    OP_TEXT,
    RawPeer,
    RssWatch,
    ServeProcess,
    answer_first,
    flood,
    rss_mib,
    seat_peers,
)

from guandan.platform import PlatformServer, run_client
from guandan.platform.server import CLOSE_DISCONNECTED, CLOSE_GRACE, CLOSE_SHUTDOWN, IGNORED_LOGGED, MAX_MESSAGE

LIMIT = 90  # seconds: no scenario waits longer
#: The growth of the server's resident memory a hostile peer may cause, in MiB. What a peer
#: sends is held at most (INBOX_PER_SEAT + 16) * MAX_MESSAGE = 2 MiB per connection; before
#: the fix a flood grew the server by hundreds of MiB a second.
RSS_BOUND = 64


def names(n: int = 4) -> list[str]:
    return [f"p{i}" for i in range(n)]


# -- memory, the close handshake and the exit: a real `guandan serve` ----------------------------


@pytest.mark.slow
@pytest.mark.parametrize("ending", ["finished", "act_timeout"])
def test_a_peer_flooding_after_its_table_ended_is_cut_its_frames_are_not_kept_and_the_server_exits(ending):
    async def scenario():
        args = ["--ruleset", "platform+cap1", "--seed", "1"]
        if ending == "act_timeout":
            args += ["--act-timeout", "0.5"]
        server = ServeProcess(*args)
        peers: list[RawPeer] = []
        try:
            base = rss_mib(server.pid)
            peers = await seat_peers(server.port, names())
            watch = RssWatch(server.pid).start()
            if ending == "finished":
                ends = await asyncio.gather(*(answer_first(p, timeout=LIMIT) for p in peers))
                assert all(e.get("stage") == "gameResult" for e in ends)
            else:  # seat 3 never answers: the table is aborted after 0.5 s at its first request
                players = [answer_first(p, until=None, timeout=LIMIT) for p in peers[:3]]
                await asyncio.gather(*players, _read_to_close(peers[3]))
                assert {p.close_code for p in peers} == {4002}
            # the table has ended; peer 0 never answers the close frame and floods 60 KB frames
            start = time.monotonic()
            sent, cut = await flood(peers[0], CLOSE_GRACE + 10, stop=lambda: watch.peak > base + RSS_BOUND)
            flooded = time.monotonic() - start
            status, out, err = server.wait(CLOSE_GRACE + 15)
            exited = time.monotonic() - start
            return base, watch.stop(), sent, cut, flooded, status, exited, out, err
        finally:
            server.kill()
            for p in peers:
                p.abort()

    base, peak, sent, cut, flooded, status, exited, out, err = asyncio.run(asyncio.wait_for(scenario(), LIMIT))
    assert peak - base < RSS_BOUND, f"the server grew from {base:.0f} to {peak:.0f} MiB ({sent} frames sent)"
    assert cut and flooded < CLOSE_GRACE + 3, f"the flooding peer was not cut ({flooded:.1f} s, {sent} frames)"
    assert sent > 100  # it did flood: the frames were read and dropped
    assert status == (0 if ending == "finished" else 1) and exited < CLOSE_GRACE + 10, (status, exited, err[-600:])
    assert f"the close handshake was not completed within {CLOSE_GRACE:g} s; the connection is cut" in err


async def _read_to_close(peer: RawPeer) -> None:
    while await peer.message(LIMIT) is not None:
        pass


@pytest.mark.slow
def test_a_table_stalled_on_a_seat_that_does_not_read_keeps_bounded_memory_and_ctrl_c_stops_it_with_1001():
    async def scenario():
        server = ServeProcess("--seed", "1", "--games", "5")
        peers: list[RawPeer] = []
        try:
            base = rss_mib(server.pid)
            peers = await seat_peers(server.port, names())
            peers[3].stop_reading()  # seat 3 reads nothing, and answers every request blindly
            seen: list[float] = []
            players = [asyncio.create_task(answer_first(p, until=None, timeout=LIMIT, seen=seen)) for p in peers[:3]]
            deadline = time.monotonic() + 60
            while not seen or time.monotonic() - seen[-1] < 2:  # until nothing reaches the others for 2 s
                assert time.monotonic() < deadline, "the table never stalled on the seat that does not read"
                try:
                    async with asyncio.timeout(0.2):
                        await peers[3].send('{"actIndex": 0}')
                except TimeoutError:
                    pass
                await asyncio.sleep(0.003)
            watch = RssWatch(server.pid).start()
            sent, _ = await flood(peers[0], 6, stop=lambda: watch.peak > base + RSS_BOUND)  # a reading seat floods
            peak = watch.stop()
            start = time.monotonic()
            server.interrupt()  # Ctrl-C
            status, out, err = server.wait(CLOSE_GRACE + 15)
            exited = time.monotonic() - start
            done = await asyncio.wait_for(asyncio.gather(*players, return_exceptions=True), 10)
            return base, peak, sent, status, exited, out, err, peers, done
        finally:
            server.kill()
            for p in peers:
                p.abort()

    base, peak, sent, status, exited, out, err, peers, done = asyncio.run(asyncio.wait_for(scenario(), LIMIT + 60))
    assert peak - base < RSS_BOUND, f"the stalled server grew from {base:.0f} to {peak:.0f} MiB ({sent} frames)"
    assert status == 1 and exited < CLOSE_GRACE + 5, f"status {status} {exited:.1f} s after SIGINT: {err[-600:]}"
    # the seats that read got the shutdown's code, the first one chosen, with its reason
    assert [(p.close_code, p.close_reason) for p in peers[:3]] == [(CLOSE_SHUTDOWN, "the server shut down")] * 3, done
    assert "aborted: the server shut down" in out


# -- bad input: ignored, or (one limit) closing its sender with a reason ----------------------------


#: Frames a bot may send that are not an answer: every one is logged and ignored.
HOSTILE_FRAMES: list[tuple[int, bytes]] = [
    (OP_TEXT, b'{"actIndex": 0}\xff'),  # invalid UTF-8 in a text frame
    (OP_TEXT, b"\xc0\xaf"),  # an overlong encoding
    (OP_TEXT, b"\xed\xa0\x80"),  # a surrogate, encoded
    (OP_BINARY, bytes(range(256))),
    (OP_TEXT, b""),
    (OP_TEXT, b"x" * MAX_MESSAGE),  # exactly at the limit: read, and ignored
    (OP_TEXT, b'{"actIndex": NaN}'),
    (OP_TEXT, b'{"actIndex": Infinity}'),
    (OP_TEXT, b'{"actIndex": 1e999}'),
    (OP_TEXT, b'{"actIndex": ' + b"9" * 5000 + b"}"),  # more digits than Python converts
    (OP_TEXT, b"[" * 30000),  # nesting deeper than the parser goes
    (OP_TEXT, b'{"actIndex": "\\ud800"}'),
]


@pytest.mark.slow
def test_bad_input_of_every_kind_is_ignored_and_the_game_is_played_to_its_end(tmp_path):
    log = tmp_path / "log.jsonl"

    async def scenario():
        async with PlatformServer(port=0, seed=2, ruleset="platform+cap1", log=log) as server:
            peers = await seat_peers(server.port, names(), polite=True)

            async def hostile(peer):
                sent = 0
                while True:
                    message = await peer.message(LIMIT)
                    if message is None:
                        return sent
                    if message.get("type") == "act":
                        if sent < 3 * len(HOSTILE_FRAMES):
                            for opcode, payload in HOSTILE_FRAMES:
                                await peer.send(payload, opcode)
                                sent += 1
                            await peer.send(b"", OP_PING)  # a ping is answered by a pong, not a message
                            await peer.send(b'{"actI', OP_TEXT, fin=False)  # a fragmented answer is one message
                            await peer.send(b'ndex": 0}', 0x0)
                        else:
                            await peer.send('{"actIndex": 0}')

            others = (peers[0], peers[2], peers[3])
            tasks = [asyncio.create_task(answer_first(p, until=None, timeout=LIMIT)) for p in others]
            bad = asyncio.create_task(hostile(peers[1]))
            result = await asyncio.wait_for(server.wait(), LIMIT)
            await asyncio.wait_for(asyncio.gather(*tasks, bad, return_exceptions=True), 15)
            for p in peers:
                p.abort()
            return result, bad.result()

    result, sent = asyncio.run(asyncio.wait_for(scenario(), LIMIT))
    table = result.tables[0]
    assert table.state == "finished" and result.complete, table.abort_reason
    assert sent >= len(HOSTILE_FRAMES) and table.seats[1].ignored == sent
    assert table.seats[1].answers > 0
    events = [json.loads(line) for line in log.read_text().splitlines()]
    assert not [e for e in events if e.get("event") == "abort"]


def test_a_message_over_the_limit_closes_its_sender_with_1009_and_the_reason_is_logged(caplog, tmp_path):
    caplog.set_level(logging.INFO, logger="guandan.platform")
    log = tmp_path / "log.jsonl"

    async def scenario():
        async with PlatformServer(port=0, seed=2, ruleset="platform+cap1", log=log) as server:
            peers = await seat_peers(server.port, names(), polite=True)
            others = (peers[0], peers[2], peers[3])
            tasks = [asyncio.create_task(answer_first(p, until=None, timeout=LIMIT)) for p in others]
            first = await peers[1].message(LIMIT)  # its beginning message, then one byte over the limit
            await peers[1].send(b"x" * (MAX_MESSAGE + 1))
            tasks.append(asyncio.create_task(_read_to_close(peers[1])))
            result = await asyncio.wait_for(server.wait(), LIMIT)
            await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 15)
            for p in peers:
                p.abort()
            return result, first, peers

    result, first, peers = asyncio.run(asyncio.wait_for(scenario(), LIMIT))
    assert first["stage"] == "beginning"
    table = result.tables[0]
    why = f"seat 1 (p1) sent a message over the server's limit of {MAX_MESSAGE:,} bytes"
    assert table.state == "aborted" and table.abort_reason.startswith(why), table.abort_reason
    assert peers[1].close_code == 1009
    assert {(p.close_code, p.close_reason) for p in (peers[0], peers[2], peers[3])} == {
        (CLOSE_DISCONNECTED, table.abort_reason[:120])
    }
    assert any(why in r.getMessage() for r in caplog.records)
    events = [json.loads(line) for line in log.read_text().splitlines()]
    gone = [e for e in events if e.get("event") == "disconnect"]
    assert gone[0]["seat"] == 1 and gone[0]["sent"]["code"] == 1009


# -- peer text printed for a person ------------------------------------------------------------------


EVIL_NAMES = [
    "evil%0A12:00:00%20table%200%20aborted:%20forged",
    "%1B[2J%1B]0;title%07",
    "nul%00x%09y",
    "rlo%E2%80%AEtxt.exe",
]


@pytest.mark.slow
def test_names_with_control_characters_are_printed_escaped_and_logged_exactly(tmp_path):
    log = tmp_path / "log.jsonl"

    async def scenario():
        server = ServeProcess("--ruleset", "platform+cap1", "--seed", "4", "--log", str(log))
        peers: list[RawPeer] = []
        try:
            peers = await seat_peers(server.port, EVIL_NAMES, polite=True)
            await peers[0].send("not an answer")  # an ignored message: a warning line naming the bot
            players = [answer_first(p, until=None, timeout=LIMIT) for p in peers[1:]]
            await asyncio.gather(*players, _leave_at_act(peers[0]))
            return server.wait(LIMIT)
        finally:
            server.kill()
            for p in peers:
                p.abort()

    status, out, err = asyncio.run(asyncio.wait_for(scenario(), LIMIT + 20))
    assert status == 1  # seat 0 left during the game
    for text in (out, err):
        assert not any(c in text for c in "\x1b\x07\x00\u202e\t"), repr(text[-800:])
        assert not any(line.startswith("12:00:00 table 0 aborted: forged") for line in text.splitlines())
    assert "evil\\n12:00:00 table 0 aborted: forged" in err and "\\x1b[2J\\x1b]0;title\\x07" in out
    assert "nul\\x00x\\ty" in err and "rlo\\u202etxt.exe" in err
    assert "table 0 aborted: seat 0 (evil\\n12:00:00" in err and "ignored: " in err
    exact = [json.loads(line)["name"] for line in log.read_text().splitlines() if '"event":"connect"' in line]
    assert exact == [
        "evil\n12:00:00 table 0 aborted: forged",
        "\x1b[2J\x1b]0;title\x07",
        "nul\x00x\ty",
        "rlo\u202etxt.exe",
    ]


async def _leave_at_act(peer: RawPeer) -> None:
    while True:
        message = await peer.message(LIMIT)
        if message is None or message.get("type") == "act":
            peer.abort()
            return


# -- the log: strict JSON, and bounded --------------------------------------------------------------


def _strict(line: str):
    def refuse(name):
        raise ValueError(f"{name} in a log line")

    return json.loads(line, parse_constant=refuse)


@pytest.mark.slow
def test_the_log_is_strict_json_and_a_flooding_bot_grows_it_by_a_bounded_amount(tmp_path):
    log = tmp_path / "log.jsonl"
    frames = 3 * IGNORED_LOGGED

    async def scenario():
        async with PlatformServer(port=0, seed=3, ruleset="platform+cap1", log=log) as server:
            peers = await seat_peers(server.port, names(), polite=True)
            for text in ('{"actIndex": NaN}', '{"x": Infinity}', "[-Infinity]", '{"actIndex": ' + "7" * 5000 + "}"):
                await peers[2].send(text)
            for _ in range(frames):  # 18 MB sent, ignored
                await peers[1].send(b"z" * 60_000)
            tasks = [asyncio.create_task(answer_first(p, until=None, timeout=LIMIT)) for p in peers]
            result = await asyncio.wait_for(server.wait(), LIMIT)
            await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 15)
            for p in peers:
                p.abort()
            return result

    result = asyncio.run(asyncio.wait_for(scenario(), LIMIT))
    assert result.complete and result.tables[0].seats[1].ignored == frames
    lines = [_strict(line) for line in log.read_text().splitlines()]
    assert log.stat().st_size < 1_000_000, f"{log.stat().st_size:,} bytes for {frames} frames of 60 KB"
    received = [x for x in lines if x.get("dir") == "in" and x.get("seat") == 1]
    floods = [x for x in received if "truncated" in x]
    assert len(floods) == IGNORED_LOGGED and all(x["truncated"] == 60_000 and len(x["raw"]) == 1024 for x in floods)
    assert len(received) - len(floods) == result.tables[0].seats[1].answers  # every valid answer is logged
    assert [x for x in lines if x.get("event") == "log_limit"] == [
        {"t": pytest.approx(time.time(), abs=LIMIT), "event": "log_limit", "table": 0, "seat": 1,
         "ignored": IGNORED_LOGGED + 1, "limit": IGNORED_LOGGED}
    ]
    nans = [x for x in lines if x.get("dir") == "in" and x.get("seat") == 2 and "raw" in x]
    assert [x["raw"] for x in nans][:3] == ['{"actIndex": NaN}', '{"x": Infinity}', "[-Infinity]"]


# -- where the server listens -------------------------------------------------------------------------


def _ipv6() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
        return True
    except OSError:
        return False


needs_ipv6 = pytest.mark.skipif(not _ipv6(), reason="this machine has no IPv6 loopback")


@pytest.mark.slow
@needs_ipv6
def test_an_ipv6_host_is_printed_in_brackets_and_guandan_connect_plays_on_it():
    async def scenario():
        server = ServeProcess("--host", "::1", "--ruleset", "platform+cap1", "--seed", "5")
        try:
            assert server.url.startswith("ws://[::1]:") and server.url.endswith("/game/{name}"), server.url
            base = server.url.removesuffix("{name}")
            clients = []
            for i in range(4):
                clients.append(asyncio.create_task(run_client(base, "greedy", name=f"g{i}")))
                await asyncio.sleep(0.3)
            results = await asyncio.wait_for(asyncio.gather(*clients), LIMIT)
            return results, server.wait(LIMIT)
        finally:
            server.kill()

    results, (status, _, err) = asyncio.run(asyncio.wait_for(scenario(), LIMIT + 20))
    assert status == 0, err[-400:]
    assert all(r.complete and r.close_code == 1000 for r in results)


@pytest.mark.slow
@needs_ipv6
def test_every_interface_is_one_port_for_ipv4_and_ipv6_and_the_url_is_the_loopback():
    async def scenario():
        server = ServeProcess("--host", "", "--ruleset", "platform+cap1", "--seed", "5")
        try:
            assert server.url == f"ws://127.0.0.1:{server.port}/game/{{name}}", server.url
            four = []
            for i, host in enumerate(["127.0.0.1", "::1", "127.0.0.1", "::1"]):
                four.append(await RawPeer.open(server.port, f"/game/{quote(host)}{i}", host=host, polite=True))
            seen: list[float] = []
            ends = await asyncio.gather(*(answer_first(p, until=None, timeout=LIMIT, seen=seen) for p in four))
            for p in four:
                p.abort()
            return (ends, [(p.close_code, p.close_reason) for p in four]), server.wait(LIMIT)
        finally:
            server.kill()

    (ends, closes), (status, _, err) = asyncio.run(asyncio.wait_for(scenario(), LIMIT + 20))
    assert status == 0 and closes == [(1000, "every game is played")] * 4, err[-400:]


def test_the_server_refuses_a_host_that_is_not_one():
    from guandan import GuandanError

    async def scenario(host):
        async with PlatformServer(host=host, port=0):
            pass

    with pytest.raises(GuandanError, match="cannot listen on"):
        asyncio.run(asyncio.wait_for(scenario("bad\x00host"), LIMIT))
    with pytest.raises(GuandanError, match="host must be a string"):
        PlatformServer(host=None)
