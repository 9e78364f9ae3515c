"""The messages of the AI-competition platform's protocol, built from the engine's state.

Every message is a JSON object with ``type`` (``notify``: information; ``act``: the bot
must answer) and ``stage``. There are eleven kinds; one builder each here, with the
fields in the order of the organisers' manual:

=======================  ===========================================================================
notify beginning         ``handCards``, ``myPos`` — :func:`beginning`
notify play              ``curPos``, ``curAction``, ``greaterPos``, ``greaterAction`` — :func:`play_notice`
notify tribute           ``result`` ``[[payer, receiver, card], …]`` — :func:`tribute_notice`
notify anti-tribute      ``antiNums``, ``antiPos`` — :func:`anti_tribute_notice`
notify back              ``result`` ``[[returner, payer, card], …]`` — :func:`back_notice`
notify episodeOver       ``order``, ``curRank``, ``restCards`` — :func:`episode_over`
notify gameOver          ``curTimes``, ``settingTimes`` — :func:`game_over`
notify gameResult        ``victoryNum``, ``draws`` — :func:`game_result`
act play/tribute/back    ``handCards``, ``publicInfo``, ``selfRank``, ``oppoRank``, ``curRank``,
                         ``stage``, ``curPos``, ``curAction``, ``greaterPos``, ``greaterAction``,
                         ``actionList``, ``indexRange`` — :func:`act_message`
=======================  ===========================================================================

A bot answers an ``act`` with ``{"actIndex": i}``; :func:`parse_answer` reads it.

>>> from guandan.game.match import Match
>>> m = Match(seed=1, ruleset="platform")
>>> beginning(m.hands[0], 0)["handCards"][:4], beginning(m.hands[0], 0)["myPos"]
(['C2', 'S3', 'C3', 'H4'], 0)
>>> message, choices = act_message(m, m.turn)
>>> message["type"], message["stage"], message["curPos"], message["greaterAction"], message["indexRange"]
('act', 'play', -1, None, 153)
>>> parse_answer('{"actIndex": 7}', message["indexRange"])
7

Decisions where the protocol's sources are silent (see the platform page, ``docs/platform.md``):

* ``curPos`` / ``curAction`` of an ``act play`` are the last action of the current trick,
  a pass included; ``-1`` / ``null`` when the seat leads (a new trick, a jiefeng lead).
* ``publicInfo[s].playArea`` is seat ``s``'s last action in the current trick (a pass
  included), ``null`` when it has not acted in it; ``rest`` its card count as announced:
  while the tribute is paid, the hands as dealt; while the cards are returned, after the
  tribute (tributes and returns are announced, by ``notify tribute`` and ``notify back``,
  once every payer has paid and every receiver has returned).
* ``greaterPos`` / ``greaterAction`` of a ``notify play`` name the highest play of the
  trick the action was made in, so after the pass that ends a trick they still name
  the play that won it; in an ``act play`` they are the play to beat, or ``-1`` /
  ``null``.
* ``episodeOver.order`` lists all four seats: those out in finishing order, then (after
  a double-down, which ends the deal with two seats holding cards) the others in seat
  order; ``restCards`` lists the seats still holding cards in that order.
* ``antiPos`` lists the paying seats that hold a big joker (one seat holding both, or
  both payers of a double-down holding one each); ``antiNums`` is its length.
* ``handCards`` lists a hand in ascending face order (:meth:`~guandan.Cards.codes`).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from typing import Any

from ..core.cards import Cards, card_name
from ..errors import ProtocolError, is_int
from ..game.deal import Deal
from ..game.history import Phase, Play
from ..game.match import Match
from .actions import action_choices_json, to_action

__all__ = [
    "NOTIFY",
    "ACT",
    "STAGES",
    "PASS_ACTION",
    "beginning",
    "play_notice",
    "tribute_notice",
    "anti_tribute_notice",
    "back_notice",
    "episode_over",
    "game_over",
    "game_result",
    "act_message",
    "act_request",
    "to_text",
    "public_info",
    "parse_answer",
    "answer",
    "log_body",
]

NOTIFY = "notify"
ACT = "act"
#: The stages of each message type.
STAGES: dict[str, tuple[str, ...]] = {
    NOTIFY: ("beginning", "play", "tribute", "anti-tribute", "back", "episodeOver", "gameOver", "gameResult"),
    ACT: ("play", "tribute", "back"),
}
#: The pass, as an action.
PASS_ACTION: list[str] = ["PASS", "PASS", "PASS"]

_ACT_STAGE = {Phase.TRIBUTE: "tribute", Phase.RETURN: "back", Phase.PLAY: "play"}


def beginning(hand: Cards, seat: int) -> dict[str, Any]:
    """``notify beginning``: the hand as dealt (before any tribute) and the seat.

    >>> beginning(Cards.parse("S3 HR"), 2)
    {'type': 'notify', 'stage': 'beginning', 'handCards': ['S3', 'HR'], 'myPos': 2}
    """
    return {"type": NOTIFY, "stage": "beginning", "handCards": hand.codes(), "myPos": seat}


def _action(play: Play | None) -> list[Any] | None:
    return None if play is None else to_action(play.move)


def _seat(play: Play | None) -> int:
    return -1 if play is None else play.seat


def play_notice(action: Play, greater: Play) -> dict[str, Any]:
    """``notify play``: the action just made and the highest play of its trick.

    >>> from guandan import Move, classify
    >>> five = Play(1, classify("S5", 2)[0])
    >>> play_notice(Play(2, Move.pass_(2)), five)
    {'type': 'notify', 'stage': 'play', 'curPos': 2, 'curAction': ['PASS', 'PASS', 'PASS'],
     'greaterPos': 1, 'greaterAction': ['Single', '5', ['S5']]}
    """
    return {
        "type": NOTIFY,
        "stage": "play",
        "curPos": action.seat,
        "curAction": to_action(action.move),
        "greaterPos": greater.seat,
        "greaterAction": to_action(greater.move),
    }


def _triples(triples: Sequence[tuple[int, int, int]]) -> list[list[Any]]:
    return [[a, b, card_name(c, "code")] for a, b, c in triples]


def tribute_notice(tributes: Sequence[tuple[int, int, int]]) -> dict[str, Any]:
    """``notify tribute``: ``[payer, receiver, card]`` for each tribute paid.

    >>> tribute_notice([(3, 0, 53)])
    {'type': 'notify', 'stage': 'tribute', 'result': [[3, 0, 'HR']]}
    """
    return {"type": NOTIFY, "stage": "tribute", "result": _triples(tributes)}


def back_notice(returns: Sequence[tuple[int, int, int]]) -> dict[str, Any]:
    """``notify back``: ``[returner, payer, card]`` for each card returned.

    >>> back_notice([(0, 3, 1)])
    {'type': 'notify', 'stage': 'back', 'result': [[0, 3, 'H2']]}
    """
    return {"type": NOTIFY, "stage": "back", "result": _triples(returns)}


def anti_tribute_notice(seats: Sequence[int]) -> dict[str, Any]:
    """``notify anti-tribute``: the seats that resisted the tribute.

    >>> anti_tribute_notice([1, 3])
    {'type': 'notify', 'stage': 'anti-tribute', 'antiNums': 2, 'antiPos': [1, 3]}
    """
    return {"type": NOTIFY, "stage": "anti-tribute", "antiNums": len(seats), "antiPos": list(seats)}


def episode_over(deal: Deal) -> dict[str, Any]:
    """``notify episodeOver`` of a finished deal: the four seats in finishing order, the
    deal's level, and the cards of the seats left holding some.

    >>> d = Deal(["S3 S4", "S9", "S5 S6", "S7 S8"], level=2, leader=0)
    >>> while not d.is_over:
    ...     _ = d.play(d.legal_moves()[0])
    >>> d.finish_order  # a double-down: seats 1 and 3 out first
    (1, 3)
    >>> episode_over(d)
    {'type': 'notify', 'stage': 'episodeOver', 'order': [1, 3, 0, 2], 'curRank': '2',
     'restCards': [[0, ['S4']], [2, ['S5', 'S6']]]}
    """
    out = list(deal.finish_order)
    left = [s for s in range(4) if s not in out]
    order = out + left
    rest = [[s, deal.hand(s).codes()] for s in order if deal.card_counts[s]]
    return {"type": NOTIFY, "stage": "episodeOver", "order": order, "curRank": deal.level.letter, "restCards": rest}


def game_over(played: int, games: int) -> dict[str, Any]:
    """``notify gameOver``: games played so far and games to play.

    >>> game_over(1, 3)
    {'type': 'notify', 'stage': 'gameOver', 'curTimes': 1, 'settingTimes': 3}
    """
    return {"type": NOTIFY, "stage": "gameOver", "curTimes": played, "settingTimes": games}


def game_result(victories: Sequence[int], draws: int) -> dict[str, Any]:
    """``notify gameResult``: games won per seat (a side's wins at both its seats) and draws per seat.

    >>> game_result([2, 1], 1)
    {'type': 'notify', 'stage': 'gameResult', 'victoryNum': [2, 1, 2, 1], 'draws': [1, 1, 1, 1]}
    """
    a, b = victories
    return {"type": NOTIFY, "stage": "gameResult", "victoryNum": [a, b, a, b], "draws": [draws] * 4}


def public_info(match: Match) -> list[dict[str, Any]]:
    """``publicInfo``: each seat's card count and its last action in the current trick (or ``None``).

    >>> public_info(Match(seed=1))[0]
    {'rest': 27, 'playArea': None}
    """
    counts = list(match.card_counts)
    if match.phase in (Phase.TRIBUTE, Phase.RETURN):  # as announced: tributes and returns once all are made
        counts = [len(h) for h in match.dealt_hands]
        if match.phase == Phase.RETURN:
            for payer, receiver, _ in match.tributes:
                counts[payer] -= 1
                counts[receiver] += 1
    areas: list[list[Any] | None] = [None] * 4
    if match.phase == Phase.PLAY and match.deal is not None:
        for play in match.deal.trick:
            areas[play.seat] = to_action(play.move)
    return [{"rest": counts[s], "playArea": areas[s]} for s in range(4)]


def act_message(match: Match, seat: int) -> tuple[dict[str, Any], Sequence[Any]]:
    """The ``act`` message asking ``seat`` (the seat to act) for its action, and the
    engine's action each entry of its ``actionList`` stands for (a move, or a card index
    in the tribute and return phases). Raises :class:`~guandan.ProtocolError` when the
    seat is not to act.

    >>> m = Match(seed=3, levels=(5, 9), previous=(1, 0, 3, 2), hands=[["S3 HR", "D4 HR", "S8 SA DA", "C5"]])
    >>> message, choices = act_message(m, 2)
    >>> message["stage"], message["selfRank"], message["oppoRank"], message["curRank"], message["actionList"]
    ('tribute', '5', '9', '9', [['tribute', 'tribute', ['SA']], ['tribute', 'tribute', ['DA']]])
    """
    message, choices, _ = act_request(match, seat)
    return message, choices


def act_request(match: Match, seat: int) -> tuple[dict[str, Any], Sequence[Any], str]:
    """:func:`act_message` and the message's text as sent (:func:`to_text`), its
    ``actionList`` written from the packed moves in bulk rather than encoded entry by entry.

    >>> message, choices, text = act_request(Match(seed=1), Match(seed=1).turn)
    >>> text == to_text(message), len(choices) == len(message["actionList"])
    (True, True)
    """
    if match.is_over or match.turn != seat:
        raise ProtocolError(f"seat {seat} is not to act now (the seat to act: {match.turn})")
    actions, choices, actions_text = action_choices_json(match, seat)
    cur: Play | None = None
    greater: Play | None = None
    if match.phase == Phase.PLAY and match.deal is not None:
        trick = match.deal.trick
        cur = trick[-1] if trick else None
        greater = match.deal.to_beat
    levels = match.levels
    message = {
        "type": ACT,
        "handCards": match.hands[seat].codes(),
        "publicInfo": public_info(match),
        "selfRank": levels[seat % 2].letter,
        "oppoRank": levels[1 - seat % 2].letter,
        "curRank": match.level.letter,
        "stage": _ACT_STAGE[match.phase],
        "curPos": _seat(cur),
        "curAction": _action(cur),
        "greaterPos": _seat(greater),
        "greaterAction": _action(greater),
    }
    head = to_text(message)
    message["actionList"] = actions
    message["indexRange"] = len(actions) - 1
    text = f'{head[:-1]},"actionList":{actions_text},"indexRange":{len(actions) - 1}}}'
    return message, choices, text


def to_text(message: dict[str, Any]) -> str:
    """A message as the server sends it: compact JSON.

    >>> to_text(game_over(1, 3))
    '{"type":"notify","stage":"gameOver","curTimes":1,"settingTimes":3}'
    """
    return json.dumps(message, separators=(",", ":"))


def parse_answer(text: str | bytes, index_range: int) -> int:
    """The index of an answer ``{"actIndex": i}`` (``0 <= i <= index_range``), from the
    text of a WebSocket message. Raises :class:`~guandan.ProtocolError` naming the problem:
    not JSON, not an object, no ``actIndex``, not an integer, out of range. Other keys
    are ignored.

    >>> parse_answer(b'{"actIndex": 0}', 3)
    0
    >>> parse_answer('{"actIndex": 4}', 3)
    Traceback (most recent call last):
    ...
    guandan.errors.ProtocolError: actIndex 4 is out of range: the actionList has indices 0 to 3
    """
    if isinstance(text, bytes | bytearray):
        raw = bytes(text)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError(f"the answer is not UTF-8 text: {raw[:60]!r}") from None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError(f"the answer is not JSON: {_short(text)}") from None
    if not isinstance(data, dict):
        raise ProtocolError(f'the answer is not a JSON object {{"actIndex": i}}: {_short(text)}')
    if "actIndex" not in data:
        raise ProtocolError(f'the answer has no "actIndex": {_short(text)}')
    index = data["actIndex"]
    if not is_int(index):
        raise ProtocolError(f"actIndex must be an integer, got {_short(json.dumps(index))}")
    if not 0 <= index <= index_range:
        raise ProtocolError(f"actIndex {index} is out of range: the actionList has indices 0 to {index_range}")
    return int(index)


def log_body(text: str | bytes) -> tuple[str, str]:
    """How a message received or sent appears in a JSONL log: ``("msg", its compact JSON)``;
    when it is not strict JSON (not JSON at all, or holding ``NaN`` or ``Infinity``, which
    strict parsers refuse, or a number or nesting beyond what Python reads), ``("raw", the
    text as a JSON string)``; when it is bytes that are not UTF-8, ``("base64", the bytes in
    base64 as a JSON string)`` — every line a strict JSON parser reads, and the message exact.

    >>> log_body('{"actIndex": 3}'), log_body(b"hello"), log_body('{"actIndex": NaN}'), log_body(b"\\xff")
    (('msg', '{"actIndex":3}'), ('raw', '"hello"'), ('raw', '"{\\\\"actIndex\\\\": NaN}"'), ('base64', '"/w=="'))
    """
    if not isinstance(text, str):
        raw = bytes(text)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            return "base64", json.dumps(base64.b64encode(raw).decode("ascii"))
    try:
        return "msg", json.dumps(json.loads(text, parse_constant=_not_strict), separators=(",", ":"))
    except (ValueError, RecursionError):
        return "raw", json.dumps(text)


def _not_strict(name: str) -> Any:
    raise ValueError(f"{name} is not strict JSON")


def answer(index: int) -> str:
    """The text of the answer choosing entry ``index`` of the ``actionList`` (what a bot sends).

    >>> answer(3)
    '{"actIndex": 3}'
    """
    return json.dumps({"actIndex": index})


def _short(text: str, limit: int = 120) -> str:
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")
