"""The spectators' messages without sockets: a deal's beginning (the hands only when shown),
whose turn it is, the public messages kept for a spectator who comes during a deal, and the
refusals of a spectator's socket. Over sockets: tests/web/test_spectate.py."""

from __future__ import annotations

import json

from websockets.datastructures import Headers
from websockets.http11 import Request
from websockets.server import ServerProtocol

from guandan.platform.server import PlatformServer
from guandan.web.watch import Spectators


class Connection:
    def __init__(self) -> None:
        self.respond = ServerProtocol().reject


def playing(see_hands: bool = False, limit: int = 2):
    """A server's table with four names seated and its first deal begun; its spectators; the sends."""
    server = PlatformServer(port=0, seed=5, ruleset="platform+cap1")
    view = server.views[0]
    for name in ("a", "b", "c", "d"):
        view.table.join(name)
    spectators = Spectators(server.views, limit=limit, see_hands=see_hands, close=server.close_connection)
    return view, spectators, view.table.start()


def test_a_deals_beginning_shows_the_hands_only_when_told():
    view, hidden, _ = playing()
    begin = json.loads(hidden.deal_begins(view))
    assert begin["stage"] == "beginning" and begin["spectator"] is True and begin["counts"] == [27] * 4
    assert "hands" not in begin
    view, shown, _ = playing(see_hands=True)
    hands = json.loads(shown.deal_begins(view))["hands"]
    assert [len(h) for h in hands] == [27] * 4


def test_the_turn_is_the_public_part_of_the_request():
    view, spectators, _ = playing()
    turn = json.loads(spectators.turn(view))
    assert turn["stage"] == "turn" and turn["seat"] == view.table.awaiting
    assert "actionList" not in turn and "handCards" not in turn


def test_the_public_messages_of_the_deal_are_kept_and_a_request_is_not():
    view, spectators, sends = playing()
    spectators.sending(view, sends)
    kept = spectators._public[0]
    assert kept[0] == spectators.deal_begins(view)
    public = [s.wire for s in sends if len(s.seats) == 4 and s.message.get("stage") != "beginning"]
    assert kept[1:] == public
    assert all(json.loads(text)["type"] != "act" for text in kept)


def test_a_spectators_socket_is_refused_with_a_reason():
    _, spectators, _ = playing(limit=0)
    socket = Request("/watch/0", Headers(Upgrade="websocket"))
    assert spectators.refusal(Connection(), Request("/watch/0", Headers()), "/watch/0").status_code == 426
    assert spectators.refusal(Connection(), socket, "/watch/7").status_code == 404
    assert spectators.refusal(Connection(), socket, "/watch/0").status_code == 403
    _, admitting, _ = playing(limit=1)
    assert admitting.refusal(Connection(), socket, "/watch/0") is None and admitting.count(0) == 0
