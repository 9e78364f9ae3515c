"""``guandan.platform.log``: the message log of both sides, one JSON line per message received or
sent (with its time and where it went) and per connection event."""

from __future__ import annotations

import base64
import io
import json
import time

import pytest

from guandan import GuandanError
from guandan.platform.log import MessageLog


def lines(text):
    return [json.loads(line) for line in text.splitlines()]


def test_messages_and_events_are_json_lines_with_their_time_and_fields_in_order():
    out = io.StringIO()
    log = MessageLog(out)
    before = time.time()
    log.message('{"actIndex": 3}', dir="out")
    log.message(b"\xffnot json", table=1, dir="in", seat=2)
    log.json_message('{"type":"notify"}', table=0, dir="out", seats=[0, 1])
    log.event("close", code=1000, reason="done")
    got = lines(out.getvalue())
    assert [list(g) for g in got] == [
        ["t", "dir", "msg"],
        ["t", "table", "dir", "seat", "base64"],
        ["t", "table", "dir", "seats", "msg"],
        ["t", "event", "code", "reason"],
    ]
    assert got[0]["msg"] == {"actIndex": 3} and base64.b64decode(got[1]["base64"]) == b"\xffnot json"
    assert got[2]["msg"] == {"type": "notify"} and got[3]["event"] == "close"
    assert all(before - 1 <= g["t"] <= time.time() + 1 for g in got)
    log.close()
    assert not out.closed  # a file given open is never closed here
    log.message("{}", dir="in")  # nothing is written after close
    assert len(lines(out.getvalue())) == 4


def test_a_path_is_created_and_closed_and_none_writes_nothing(tmp_path):
    path = tmp_path / "log.jsonl"
    log = MessageLog(path)
    log.event("connect", url="ws://127.0.0.1:1/game/x")
    log.close()
    (line,) = lines(path.read_text())
    assert line == {"t": pytest.approx(time.time(), abs=60), "event": "connect", "url": "ws://127.0.0.1:1/game/x"}
    quiet = MessageLog(None)
    quiet.message("x", dir="in")
    quiet.event("close")
    quiet.close()
    with pytest.raises(GuandanError, match="cannot write the log"):
        MessageLog(tmp_path / "no such dir" / "log.jsonl")
