"""``guandan.platform.messages``: the protocol's messages built from the engine's state, and the
answers read from a bot."""

from __future__ import annotations

from guandan.platform.messages import parse_answer


def test_parse_answer_reads_the_index():
    assert parse_answer('{"actIndex": 3, "note": "x"}', 3) == 3
    assert parse_answer(b'{"actIndex": 0}', 0) == 0
