"""``guandan.platform.wire``: reading the server's values tolerantly: seats, ranks, cards and
actions as a platform server may write them, each read into the engine's terms or ``None``."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from platform_games import answers, recorded
from strategies import random_hand

from guandan import Rank, legal_moves
from guandan.platform import (
    PlatformClient,
    wire,
)
from guandan.platform.actions import to_action


@pytest.fixture
def seats():
    """The messages each seat received in one whole game: played once, on first use (in a test's
    setup), a fresh copy for each test."""
    return recorded()[1]


@pytest.mark.slow
def test_the_other_spellings_are_read(seats):
    plain_client = PlatformClient("greedy")
    plain = answers(plain_client, seats[1])
    respelled = []
    for m in copy.deepcopy(seats[1]):
        if "handCards" in m:
            m["handCard"] = m.pop("handCards")
        if m["stage"] == "anti-tribute":
            m["antiNum"] = m.pop("antiNums")
        if m["stage"] == "gameResult":
            m["final"] = m.pop("victoryNum")
        if "greaterPos" in m:  # the manual's example: the two values swapped
            m["greaterPos"], m["greaterAction"] = m["greaterAction"], m["greaterPos"]
        for key in ("selfRank", "oppoRank", "curRank"):  # ranks as numbers
            if key in m:
                letter = m[key]
                m[key] = {"T": "10", "A": 1, "J": 11, "Q": "12", "K": 13}.get(letter, letter)
        for key in ("curAction", "greaterAction"):  # actions as objects
            action = m.get(key)
            if isinstance(action, list) and action[0] != "PASS":
                m[key] = {"type": action[0], "rank": action[1], "actions": action[2]}
        respelled.append(m)
    client = PlatformClient("greedy")
    assert answers(client, respelled) == plain
    assert client.result.warnings == 0 and client.result.fallbacks == 0
    assert client.result.final == {"victoryNum": plain_client.result.final["victoryNum"], "draws": [0] * 4}


JUNK = [None, True, False, 3.5, "", "x", [], {}, [1, 2], {"a": 1}, b"S3", 10**30, -1, "S3 S4", ["S3", None]]


def test_every_value_reads_as_the_engines_term_or_none_never_an_exception():
    for value in JUNK:
        assert wire._seat(value) in (None, 0, 1, 2, 3)
        assert wire._rank(value) is None or isinstance(wire._rank(value), Rank)
        assert wire._faces(value) is None or isinstance(wire._faces(value), list)
        assert wire._read_action(value) is None or wire._read_action(value).kind in ("pass", "play", "tribute", "back")
        for level in (Rank.TWO, Rank.NINE):
            action = wire._read_action(value)
            assert action is None or wire._move(action, level) is None or wire._move(action, level).level == level


def test_seats_and_ranks_as_a_server_may_write_them():
    assert [wire._seat(v) for v in (0, "3", 4, -1, True, "2 ")] == [0, 3, None, None, None, 2]
    ranks = {"T": Rank.TEN, "10": Rank.TEN, 10: Rank.TEN, 1: Rank.ACE, "1": Rank.ACE, 14: Rank.ACE, "A": Rank.ACE}
    for value, rank in ranks.items():
        assert wire._rank(value) is rank, value
    assert wire._rank(True) is None and wire._rank("Z") is None and wire._rank(15) is None


@pytest.mark.parametrize("seed", range(3))
def test_every_legal_action_in_every_spelling_reads_back_as_its_move(seed):
    level = Rank(2 + seed * 4)
    hand = random_hand(np.random.default_rng(seed), size=20)
    for move in legal_moves(hand, level):
        kind, letter, codes = to_action(move)
        for spelled in (
            [kind, letter, codes],
            {"type": kind, "rank": letter, "actions": codes},
            {"type": kind, "rank": letter, "cards": list(reversed(codes))},
            [kind.upper(), letter, [c.replace("T", "10") for c in codes]],
        ):
            action = wire._read_action(spelled)
            assert action is not None and wire._move(action, level) == move, (spelled, str(move))
            assert action.key == wire._move_key(move)
    assert wire._read_action("pass").as_list() == ["PASS", "PASS", "PASS"]
    assert wire._read_action(["tribute", "tribute", ["HR"]]).as_list() == ["tribute", "tribute", ["HR"]]
    assert wire._read_action(["back", "back", ["S3", "S4"]]) is None  # one card is returned


def test_greater_pos_and_action_are_read_by_type_when_swapped():
    action = ["Single", "3", ["S3"]]
    assert wire._greater({"greaterPos": 2, "greaterAction": action}) == (2, action)
    assert wire._greater({"greaterPos": action, "greaterAction": 2}) == (2, action)
    assert wire._greater({}) == (None, None)
    assert wire._pick({"handCard": [1]}, "handCards", "handCard") == [1] and wire._pick({}, "a") is None
