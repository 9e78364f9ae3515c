"""``guandan.platform.wire``: reading the server's values tolerantly: seats, ranks, cards and
actions as a platform server may write them, each read into the engine's terms or ``None``."""

from __future__ import annotations

import copy

from platform_games import answers, recorded

from guandan.platform import (
    PlatformClient,
)


def test_the_other_spellings_are_read():
    _, seats = recorded()
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
