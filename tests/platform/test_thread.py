"""``guandan.platform.thread``: a platform server for synchronous code, on an event loop in a
thread of its own, started and stopped from plain code; real sockets on 127.0.0.1."""

from __future__ import annotations

import asyncio

import pytest
from platform_bots import run_bots

from guandan.platform import start_server

LIMIT = 90  # seconds: no test waits longer for the server


def test_the_server_in_a_thread_for_synchronous_code():
    with start_server(port=0, seed=6, ruleset="platform+cap1") as running:
        reports = asyncio.run(asyncio.wait_for(run_bots(running.url, 4), LIMIT))
        result = running.wait(LIMIT)
    assert result.complete and all(r.checker.final for r in reports)
    with pytest.raises(Exception, match="cannot listen"):  # the port is taken
        with start_server(port=running.port, seed=1) as first:
            start_server(port=first.port)
