"""The page's requests without any socket: parts joined and bounded, the records a directory
offers (nothing outside it), declarations, a hint's agent that cannot analyze, bad requests."""

from __future__ import annotations

import json

import pytest

from guandan.errors import GuandanError
from guandan.web.assist import Assistant, Parts, record_files, record_path
from guandan.web.pages import asset


def test_parts_join_a_request_and_drop_one_too_long():
    parts = Parts(limit=10)
    assert parts.feed(json.dumps({"part": "abc"})) is None
    assert parts.feed(json.dumps({"part": "def", "last": True})) == "abcdef"
    assert parts.feed('{"op": "records"}') == '{"op": "records"}'
    parts.feed(json.dumps({"part": "123456"}))
    with pytest.raises(GuandanError, match="longer than 10 characters"):
        parts.feed(json.dumps({"part": "123456"}))
    assert parts.feed(json.dumps({"part": "rest of the dropped one", "last": True})) is None
    assert parts.feed(json.dumps({"part": "ok", "last": True})) == "ok"
    parts.feed(json.dumps({"part": "half"}))
    with pytest.raises(GuandanError, match="in the middle of another"):
        parts.feed('{"op": "records"}')
    with pytest.raises(GuandanError, match="not JSON"):
        parts.feed('{"part" oops')
    with pytest.raises(GuandanError, match="a part is"):
        parts.feed('{"part": 3}')


def test_the_records_of_a_directory_and_nothing_outside_it(tmp_path):
    for name in ("b.json", "a.json", "summary.json", "notes.txt", ".hidden.json"):
        (tmp_path / name).write_text("{}")
    (tmp_path / "sub.json").mkdir()
    assert [f["name"] for f in record_files(tmp_path)] == ["a.json", "b.json"]
    assert record_path(tmp_path, "a.json") == tmp_path / "a.json"
    for bad in ("../a.json", "/etc/passwd", "sub/../a.json", ".hidden.json", "notes.txt", 3, None):
        with pytest.raises(GuandanError, match="is named like"):
            record_path(tmp_path, bad)
    with pytest.raises(GuandanError, match="no record 'c.json'"):
        record_path(tmp_path, "c.json")
    with pytest.raises(GuandanError, match="offers no records"):
        record_path(None, "a.json")
    with pytest.raises(GuandanError, match="cannot read the records directory"):
        record_files(tmp_path / "missing")


def test_declarations_of_actions_and_bad_requests():
    assistant = Assistant()
    reply = assistant.handle({"id": "x", "op": "declare", "level": "2", "actions": [
        ["StraightFlush", "3", ["D3", "D4", "D6", "D7", "H2"]], ["Straight", "3", ["D3", "D4", "D6", "D7", "H2"]],
        ["Bomb", "JOKER", ["SB", "SB", "HR", "HR"]], "nonsense"]})
    labels = reply["labels"]
    assert reply["id"] == "x" and [lab and lab["type"] for lab in labels] == [
        "straight_flush", "straight", "joker_bomb", None]
    assert labels[0]["suit"] == "D" and labels[0]["as"] == ["D3", "D4", "D5", "D6", "D7"]
    assert not assistant.handle({"op": "declare", "level": True, "actions": []})["ok"]
    assert not assistant.handle({"op": "declare", "level": "2", "actions": "S3"})["ok"]
    assert assistant.handle([]) == {"id": None, "ok": False, "error": "a request is a JSON object, got []"}
    assert assistant.handle({"id": True, "op": "records"})["id"] is None
    assert assistant.handle({"op": "records"}) == {"id": None, "ok": True, "dir": None, "files": []}
    assert "a replay request gives a record" in assistant.handle({"op": "replay"})["error"]
    assert "text is the record's JSON text" in assistant.handle({"op": "replay", "text": 5})["error"]
    assert "not JSON" in assistant.handle_text("[")["error"]


def test_a_hint_needs_a_search_bot_and_a_bad_spec_is_refused_at_once():
    with pytest.raises(GuandanError):
        Assistant(hint="no-such-bot")
    act = {"type": "act", "stage": "play", "handCards": ["S3", "S4"], "curRank": "2", "selfRank": "2",
           "oppoRank": "2", "greaterPos": -1, "greaterAction": None, "curPos": -1, "curAction": None,
           "publicInfo": [{"rest": 2, "playArea": None}] * 4, "indexRange": 1,
           "actionList": [["Single", "3", ["S3"]], ["Single", "4", ["S4"]]]}
    beginning = {"type": "notify", "stage": "beginning", "handCards": ["S3", "S4"], "myPos": 0}
    reply = Assistant(hint="greedy").handle({"op": "hint", "messages": [beginning], "act": act})
    assert not reply["ok"] and "cannot analyze" in reply["error"]
    reply = Assistant(hint="mc:rollouts=50").handle({"op": "hint", "messages": [beginning], "act": act})
    assert reply["ok"] and {c["index"] for c in reply["choices"]} <= {0, 1} and reply["choices"]
    assert {c["text"] for c in reply["choices"]} <= {"single 3: ♠3", "single 4: ♠4"}


def test_the_assets_are_plain_files_of_the_static_folder():
    assert asset("/viewer").name == "viewer.html" and asset("/favicon.ico").name == "favicon.svg"
    for bad in ("/static/table.js", "/.hidden.js", "table.js", "/a\\b.js", "/x.exe", "/"):
        found = asset(bad)
        assert found is None or bad == "/"
