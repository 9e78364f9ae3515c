"""The platform client against a hostile server, over real sockets on 127.0.0.1: a server
written here that sends requests whose values no parser expects (numbers of thousands of
digits, digits :meth:`str.isdigit` accepts and ``int`` refuses, nesting deeper than Python's
parser goes, ``NaN``), a message over the client's size limit, nothing at all, and text with
control characters; and ``guandan connect`` itself, as a process, on bad URLs. Every test
is bounded in time."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import subprocess
import sys

import pytest
from websockets.asyncio.server import serve

from guandan.platform import run_client
from guandan.platform.connect import MAX_RECEIVED
from guandan.ui.cli import main

LIMIT = 60  # seconds: no test waits longer

HAND = ["S3", "S4", "C4", "S5", "S6", "S7", "S8", "HT"]
BEGINNING = {"type": "notify", "stage": "beginning", "handCards": HAND, "myPos": 1}


def request(**changes) -> dict:
    """A valid ``act play`` for seat 1 leading with HAND, with some fields changed."""
    message = {
        "type": "act",
        "handCards": HAND,
        "publicInfo": [{"rest": 27, "playArea": None}, {"rest": 8, "playArea": None}]
        + [{"rest": 27, "playArea": None}] * 2,
        "selfRank": "2",
        "oppoRank": "2",
        "curRank": "2",
        "stage": "play",
        "curPos": -1,
        "curAction": None,
        "greaterPos": -1,
        "greaterAction": None,
        "actionList": [["Single", "3", ["S3"]], ["Single", "4", ["S4"]], ["Pair", "4", ["S4", "C4"]]],
        "indexRange": 2,
    }
    message.update(changes)
    return message


HUGE = "9" * 5000  # more digits than Python's int() converts
DEEP = "[" * 3000 + "]" * 3000  # deeper than Python's JSON parser goes

#: Requests as text, each with a value of a kind that once made the client fail; every one
#: must be answered with an index of its actionList.
HOSTILE_REQUESTS = [
    json.dumps(request(indexRange=HUGE)),
    json.dumps(request(indexRange="²")),
    json.dumps(request(indexRange="٣")),
    json.dumps(request(curPos="¹", greaterPos="٢")),
    json.dumps(request()).replace('"indexRange": 2', f'"indexRange": {HUGE}'),
    json.dumps(request()).replace('"curPos": -1', f'"curPos": -{HUGE}'),
    json.dumps(request()).replace('"oppoRank": "2"', f'"oppoRank": {DEEP}'),
    json.dumps(request()).replace('"publicInfo": [', f'"publicInfo": [{DEEP}, '),
    json.dumps(request(), allow_nan=True).replace('"indexRange": 2', '"indexRange": NaN'),
    json.dumps(request()).replace('"indexRange": 2', '"indexRange": 1e999'),
    json.dumps(request(publicInfo=[{"rest": HUGE, "playArea": None}] * 4)),
    json.dumps(request(selfRank=HUGE, curRank="²")),
    json.dumps(request(handCards=["S3"] * 3 + [HUGE])),
    json.dumps(request(actionList=[["Single", HUGE, ["S3"]], ["Single", "²", ["S4"]]], indexRange=1)),
]


async def fake_server(messages, *, close=(1000, "bye"), answers=None, expect_answers=True):
    """A server for one client: sends ``messages`` in order (text), waiting for the answer to
    each request (recorded in ``answers``), then closes with ``close``; its port."""

    async def handler(ws):
        for text in messages:
            await ws.send(text)
            if expect_answers and text.startswith('{"type": "act"'):
                try:
                    async with asyncio.timeout(10):
                        answers.append((text, await ws.recv()))
                except TimeoutError:
                    answers.append((text, None))
        await ws.close(*close)

    return await serve(handler, "127.0.0.1", 0, max_size=None, compression=None)


def test_every_request_is_answered_whatever_its_values_hold(caplog):
    caplog.set_level(logging.WARNING, logger="guandan.platform.client")
    answers: list = []

    async def scenario():
        messages = [json.dumps(BEGINNING), *HOSTILE_REQUESTS]
        async with await fake_server(messages, answers=answers) as server:
            port = server.sockets[0].getsockname()[1]
            return await asyncio.wait_for(run_client(f"ws://127.0.0.1:{port}/game/", "greedy"), LIMIT)

    result = asyncio.run(asyncio.wait_for(scenario(), LIMIT + 10))
    assert len(answers) == len(HOSTILE_REQUESTS)
    for text, answer in answers:
        assert answer is not None, f"no answer to {text[:100]}..."
        index = json.loads(answer)["actIndex"]
        listed = 2 if '"indexRange": 1}' in text else 3
        assert 0 <= index < listed, (text[:100], answer)
    assert "could not answer a request" not in caplog.text  # the last-resort handler never ran
    assert "Traceback" not in caplog.text
    assert result.close_code == 1000 and result.answers == len(HOSTILE_REQUESTS)


def test_a_message_over_the_clients_limit_says_so():
    async def scenario():
        too_big = "x" * (MAX_RECEIVED + 1)
        async with await fake_server([json.dumps(BEGINNING), too_big], expect_answers=False) as server:
            port = server.sockets[0].getsockname()[1]
            return await asyncio.wait_for(run_client(f"ws://127.0.0.1:{port}/game/", "greedy"), LIMIT)

    result = asyncio.run(asyncio.wait_for(scenario(), LIMIT + 10))
    assert not result.complete and result.seat == 1
    assert result.ended_by == f"the server sent a message over this client's limit of {MAX_RECEIVED:,} bytes"
    assert result.ended_by in result.format() and result.to_json()["ended_by"] == result.ended_by


@pytest.mark.slow
def test_the_idle_timeout_gives_up_on_a_server_that_says_nothing_and_is_off_by_default():
    async def silent(ws):
        await ws.send(json.dumps(BEGINNING))
        await ws.wait_closed()  # and nothing else

    async def scenario():
        async with serve(silent, "127.0.0.1", 0) as server:
            url = f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}/game/"
            with pytest.raises(TimeoutError):  # without the option, the client waits
                await asyncio.wait_for(run_client(url, "greedy"), 2)
            return await asyncio.wait_for(run_client(url, "greedy", idle_timeout=0.5), 15)

    result = asyncio.run(asyncio.wait_for(scenario(), LIMIT))
    assert not result.complete and not result.ok and result.seat == 1
    assert result.ended_by == "the server sent nothing for 0.5 s (the idle timeout)"
    assert "the client ended it: the server sent nothing for 0.5 s" in result.format()
    with pytest.raises(Exception, match="idle_timeout is a number of seconds > 0 or None"):
        asyncio.run(run_client("ws://127.0.0.1:1/game/", "greedy", idle_timeout=0))


# -- guandan connect, as a process ---------------------------------------------------------------------


BAD_URLS = [
    "ws://127.0.0.1:70000/game/",
    "ws://127.0.0.1:abc/game/",
    "ws://127.0.0.1:99999999999/game/",
    "ws://[::1/game/",
    "ws://[zz]:5/game/",
    "ws://127.0.0.1:-1/game/",
    "ws://127.0.0.1:0/game/",
    "ws://127.0.0.1:١/game/",
    "ws://h st:5/game/",
    "ws://\x00:1/game/",
    "ws://" + "a" * 300 + ":1/game/",
    "ws://:5/game/",
    "http://127.0.0.1:5/game/",
]


@pytest.mark.parametrize("url", BAD_URLS)
def test_every_bad_url_is_one_error_line_and_status_2(capsys, url):
    assert main(["connect", url, "--agent", "greedy"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("guandan: error: not a WebSocket URL: ") and err.count("\n") == 1, err


def _connect(*args: str, timeout: float = LIMIT) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "guandan", "connect", *args], capture_output=True, text=True, timeout=timeout, env=env
    )


@pytest.mark.slow
def test_guandan_connect_on_bad_urls_prints_one_line_never_a_traceback():
    for url in ("ws://127.0.0.1:70000/game/", "ws://[::1/game/", "ws://127.0.0.1:abc/game/"):
        run = _connect(url, "--agent", "greedy")
        assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
        assert run.stderr.startswith("guandan: error: not a WebSocket URL:") and run.stderr.count("\n") == 1


@pytest.mark.slow
def test_guandan_connect_prints_the_servers_text_escaped_and_gives_up_after_its_idle_timeout():
    async def hostile(ws):
        await ws.send(json.dumps(BEGINNING))
        await ws.send(json.dumps({"type": "notify", "stage": "play", "curPos": "\x1b[2J", "curAction": "\x07"}))
        await ws.close(4001, "bye\x1b[2J\x07\n12:00:00 forged")

    async def silent(ws):
        await ws.send(json.dumps(BEGINNING))
        await ws.wait_closed()  # and nothing else

    async def scenario():
        async with serve(hostile, "127.0.0.1", 0) as one, serve(silent, "127.0.0.1", 0) as two:
            urls = [f"ws://127.0.0.1:{s.sockets[0].getsockname()[1]}/game/" for s in (one, two)]
            return await asyncio.gather(
                asyncio.to_thread(_connect, urls[0], "--agent", "greedy"),
                asyncio.to_thread(_connect, urls[1], "--agent", "greedy", "--idle-timeout", "1"),
            )

    closed, idle = asyncio.run(asyncio.wait_for(scenario(), LIMIT + 10))
    assert closed.returncode == 1
    for text in (closed.stdout, closed.stderr):
        assert "\x1b" not in text and "\x07" not in text and "\n12:00:00 forged" not in text, repr(text)
    assert "closed with code 4001: bye\\x1b[2J\\x07\\n12:00:00 forged" in closed.stdout
    assert "play: cannot read curPos '\\x1b[2J'" in closed.stderr
    assert idle.returncode == 1 and "the client ended it: the server sent nothing for 1 s" in idle.stdout
