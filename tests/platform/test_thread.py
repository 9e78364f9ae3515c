"""``guandan.platform.thread``: a platform server for synchronous code, on an event loop in a
thread of its own, started and stopped from plain code; real sockets on 127.0.0.1."""

from __future__ import annotations

import asyncio
import socket

import pytest
from platform_bots import run_bots

from guandan import GuandanError
from guandan.platform import PlatformServer, ServerThread, start_server
from guandan.platform.thread import Served

LIMIT = 90  # seconds: no test waits longer for the server


@pytest.mark.slow
def test_the_server_in_a_thread_for_synchronous_code():
    with start_server(port=0, seed=6, ruleset="platform+cap1") as running:
        reports = asyncio.run(asyncio.wait_for(run_bots(running.url, 4), LIMIT))
        result = running.wait(LIMIT)
    assert result.complete and all(r.checker.final for r in reports)
    with pytest.raises(Exception, match="cannot listen"):  # the port is taken
        with start_server(port=running.port, seed=1) as first:
            start_server(port=first.port)


def test_a_server_thread_listens_times_out_waiting_and_stops_on_request():
    running = start_server(port=0, seed=1, games=1)
    try:
        assert running.url == f"ws://127.0.0.1:{running.port}/game/" and running.port > 0
        with socket.create_connection(("127.0.0.1", running.port), timeout=5):
            pass  # it listens
        with pytest.raises(TimeoutError, match="still playing after 0.2 s"):
            running.wait(0.2)  # no bot came: nothing ends
    finally:
        result = running.stop()
    assert not result.complete and result.games_played == 0 and not running._thread.is_alive()
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", running.port), timeout=2).close()
    assert running.stop() is not None  # stopping twice is harmless


def test_a_server_that_cannot_listen_raises_its_error_from_start():
    with start_server(port=0) as first:
        with pytest.raises(GuandanError, match=f"cannot listen on 127.0.0.1:{first.port}: .*address already in use"):
            start_server(port=first.port)


@pytest.mark.slow
def test_a_server_served_until_stopped_listens_after_its_games_and_stops_on_request():
    server = PlatformServer(port=0, seed=6, ruleset="platform+cap1")
    with ServerThread(server, until_stopped=True, name="until-stopped").start() as running:
        assert running.served is running.server is server and running._thread.name == "until-stopped"
        reports = asyncio.run(asyncio.wait_for(run_bots(running.url, 4), LIMIT))
        assert all(r.checker.final for r in reports) and server.tables[0].is_done
        with pytest.raises(TimeoutError):
            running.wait(0.3)  # its games are over, but it serves until stopped
        with socket.create_connection(("127.0.0.1", running.port), timeout=5):
            pass  # it still listens
    assert running.result().complete and not running._thread.is_alive()
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", running.port), timeout=2).close()


def test_a_platform_server_is_served_as_a_server_thread_runs_it():
    assert isinstance(PlatformServer(port=0), Served)
    assert not isinstance(object(), Served)
