"""Platform games without sockets, for the tests of the client side: a seated table, driving it
with clients message by message, comparing a rebuilt observation with the engine's, one whole
recorded game (played once, on first use), and requests built by hand."""

from __future__ import annotations

import copy
import functools
import json

import numpy as np

from guandan import Cards
from guandan.game.history import Phase, Play, Return, Tribute
from guandan.platform import (
    PlatformClient,
    PlatformTable,
    TableState,
)
from guandan.platform.actions import to_action

LIMIT = 120  # seconds: no test waits longer


def seated(table: PlatformTable) -> PlatformTable:
    for name in ("a", "b", "c", "d"):
        table.join(name)
    return table


def drive(table: PlatformTable, clients, on_act=None, log=None, max_steps=500_000):
    """Deliver every message to its seat's client as the wire text and send its answers back,
    until the table is done. ``on_act(seat, text, match)`` is called before each request is
    delivered; ``log`` collects (seat, text) of every message."""
    queue = list(table.start())
    steps = 0
    while queue and steps < max_steps:
        send = queue.pop(0)
        for seat in send.seats:
            steps += 1
            text = send.wire
            if log is not None:
                log.append((seat, text))
            if on_act is not None and send.message["type"] == "act":
                on_act(seat, text, table.match)
            answer = clients[seat].receive(text)
            if send.message["type"] == "act":
                assert answer is not None
                reply = table.receive(seat, answer)
                assert reply.accepted, reply.error
                queue.extend(reply.sends)
            else:
                assert answer is None
    assert table.state is TableState.FINISHED


def compare(view_obs, engine_obs, phase):
    """The rebuilt observation against the engine's: every field a seat can know. The tribute
    cards are announced once all are paid, so in the tribute and return phases the rebuilt
    history holds those announced, and the counts are those announced (the hands as dealt
    while the tribute is paid)."""
    assert view_obs.seat == engine_obs.seat and view_obs.turn == engine_obs.turn == view_obs.seat
    assert view_obs.phase == engine_obs.phase == phase
    assert view_obs.hand == engine_obs.hand and view_obs.packed_hand == engine_obs.packed_hand
    assert view_obs.level == engine_obs.level
    assert view_obs.levels == engine_obs.levels and view_obs.level_side == engine_obs.level_side
    assert view_obs.deal_index == engine_obs.deal_index
    assert view_obs.finish_order == engine_obs.finish_order
    assert view_obs._beat == engine_obs._beat and view_obs.to_beat == engine_obs.to_beat
    plays = [r for r in view_obs.history if isinstance(r, Play)]
    assert plays == [r for r in engine_obs.history if isinstance(r, Play)]
    announced = {r for r in view_obs.history if isinstance(r, Tribute | Return)}
    assert announced <= {r for r in engine_obs.history if isinstance(r, Tribute | Return)}
    if phase == Phase.PLAY:
        assert view_obs.card_counts == engine_obs.card_counts
        assert announced == {r for r in engine_obs.history if isinstance(r, Tribute | Return)}
        assert np.array_equal(view_obs.legal_actions.array, engine_obs.legal_actions.array)
    else:
        assert tuple(view_obs.legal_actions) == tuple(engine_obs.legal_actions)


@functools.cache
def _recorded(seed, ruleset):
    table = seated(PlatformTable(games=1, seed=seed, ruleset=ruleset))
    log = []
    drive(table, [PlatformClient("greedy") for _ in range(4)], log=log)
    return table, [[json.loads(t) for s, t in log if s == seat] for seat in range(4)]


def recorded(seed=5, ruleset="platform+cap2"):
    """The table of a whole game (greedy answers) and the messages each seat received, a fresh
    copy of one game played on first use."""
    table, seats = _recorded(seed, ruleset)
    return table, copy.deepcopy(seats)



def answers(client, messages):
    out = []
    for m in messages:
        text = json.dumps(m)
        a = client.receive(text)
        if m.get("type") == "act" or "actionList" in m:
            index = json.loads(a)["actIndex"]
            assert isinstance(index, int) and 0 <= index <= max(0, len(m.get("actionList") or [1]) - 1)
            out.append(index)
        else:
            assert a is None
    return out


def play_request(hand="S3 S4 C4 S5 S6 S7 S8 HT", greater=None, actions=None, level="2"):
    """An act play message for a hand (seat 0), the engine's actionList unless given."""
    from guandan import legal_moves
    from guandan.platform.actions import from_action

    beat = None if greater is None else from_action(greater[1], level)
    moves = list(legal_moves(Cards.parse(hand), level, beat=beat))
    if moves and moves[-1].is_pass:
        moves.insert(0, moves.pop())
    listed = [to_action(mv) for mv in moves] if actions is None else actions
    return {
        "type": "act",
        "stage": "play",
        "handCards": Cards.parse(hand).codes(),
        "publicInfo": [{"rest": len(Cards.parse(hand)), "playArea": None}] + [{"rest": 27, "playArea": None}] * 3,
        "selfRank": level,
        "oppoRank": level,
        "curRank": level,
        "curPos": -1 if greater is None else greater[0],
        "curAction": None if greater is None else greater[1],
        "greaterPos": -1 if greater is None else greater[0],
        "greaterAction": None if greater is None else greater[1],
        "actionList": listed,
        "indexRange": len(listed) - 1,
    }


def begun(seat=0, hand="S3 S4 C4 S5 S6 S7 S8 HT", agent="greedy"):
    client = PlatformClient(agent)
    beginning = {"type": "notify", "stage": "beginning", "handCards": Cards.parse(hand).codes(), "myPos": seat}
    client.receive(json.dumps(beginning))
    return client
