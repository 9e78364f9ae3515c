"""``guandan.platform.local``: a whole platform game on this machine in one call (``run_local``):
a server in a thread and four clients over real sockets on 127.0.0.1."""

from __future__ import annotations

import json
import time

import pytest
from platform_games import LIMIT

from guandan.platform import (
    run_local,
)
from guandan.records.games import replay


@pytest.mark.slow
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
