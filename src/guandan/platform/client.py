"""The client side: any agent of this package playing on a platform server (``guandan connect``).

A bot of the AI-competition platform sees the game only through the server's messages.
:class:`SeatView` follows them and rebuilds, when the seat is asked to act, the
:class:`~guandan.game.observation.Observation` an agent of this package decides from — its own
hand, the deal's level, both sides' levels and whose level is played, whose turn, the
play to beat and its seat, every seat's card count, the finish order, the deal's public
history (every play and pass, the tribute and return cards), and the legal actions, which
the engine computes from the hand (a :class:`~guandan.MoveList` in play, so agents that
read ``legal_actions.array`` work). :class:`PlatformClient` asks the agent and answers
with the index of its choice in the message's ``actionList``. Neither touches a socket:
:func:`run_client` (and :func:`run_client_sync`) connect them to a server with the
``websockets`` package, and :func:`run_local` plays a whole local game — a server in a
thread and four clients — in one call.

>>> from guandan.platform import PlatformTable, TableState
>>> table = PlatformTable(games=1, seed=3, ruleset="platform+cap1")
>>> clients = [PlatformClient("greedy") for _ in range(4)]
>>> for name in "abcd":
...     _ = table.join(name)
>>> def deliver(sends):
...     for send in sends:
...         for seat in send.seats:
...             answer = clients[seat].receive(json.dumps(send.message))
...             if answer is not None:
...                 deliver(table.receive(seat, answer).sends)
>>> deliver(table.start())
>>> table.state is TableState.FINISHED, clients[0].view.seat, clients[0].result.complete
(True, 0, True)

**What the platform does not say.** The tribute cards are announced once every payer
has paid (``notify tribute``) and the returns once all are made (``notify back``), so while
the tribute and return are under way the rebuilt history holds only what was announced,
and the card counts are those of ``publicInfo`` (the hands as dealt while the tribute is
paid); an engine's own observation shows each card as it is paid. From the first play on
the two are the same. The previous deals' records are not kept (an observation covers
its deal); the side whose level is played, when both sides' levels are equal, is the side
that won the previous deal (seen in ``episodeOver``, or read from who receives the tribute).

**Matching the agent's choice to the list.** Each ``actionList`` entry is read as a
combination type, a key rank and a multiset of cards, and compared on those with the
moves the engine generates (never by position: the server orders its list as it likes).
When every entry is one of the engine's moves, the agent is offered exactly the listed
moves (a server whose rules drop some declarations, such as a same-suit five as a plain
straight, is followed). When the lists disagree otherwise — an entry the engine cannot
read or does not generate — the agent is offered the engine's moves, a warning is
logged, and if its choice is not in the server's list the answer falls back, in this
order, to: an entry of the same type and cards (a key named differently); an entry of
the same cards; an entry of the same type and key with the most cards in common; the
first entry (the pass, when responding). An agent that raises is logged with its
traceback and replaced for that request by :class:`~guandan.bots.agents.GreedyAgent`, then
by the first entry. The client never raises on what a server sends: what it cannot
read is logged and skipped, and every request gets an answer.

**Tolerance** (``PLATFORM.md`` and the organisers' example bot): unknown fields are
ignored; ``handCards`` or ``handCard``; ``antiNums`` or ``antiNum``; ``victoryNum`` or
``final``; ``greaterPos`` and ``greaterAction`` swapped (read by type: a seat is an int,
an action a list); an action as ``[type, rank, cards]`` or as an object ``{"type",
"rank", "actions"}``; ranks as letters (``T``), numbers (``10``, ``1`` or ``14`` for the
ace) or names (``10``); card codes as the package reads them (``HT``, ``H10``); a stage
it does not know is logged and ignored, and any message carrying an ``actionList`` is
answered.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import IO, Any
from urllib.parse import quote, unquote, urlsplit, urlunsplit

import numpy as np

from ..bots.agents import Agent, GreedyAgent
from ..bots.registry import make_agent, seat_specs
from ..core.cards import NUM_FACES, Cards, Rank, card_name, parse_card, parse_level
from ..core.movegen import MoveList, legal_moves, pack_move
from ..core.moves import Move, MoveType, RankMove
from ..core.packed import bits_of_cards
from ..core.rng import derive_seed
from ..errors import GuandanError, describe
from ..game.history import History, Phase, Return, Tribute
from ..game.observation import Observation
from ..game.rules import PLATFORM, Ruleset
from .actions import ACTION_TYPES, from_action
from .messages import log_body

__all__ = [
    "SeatView",
    "Request",
    "PlatformClient",
    "ClientResult",
    "GameSummary",
    "LocalResult",
    "client_url",
    "run_client",
    "run_client_sync",
    "run_local",
]

logger = logging.getLogger("guandan.platform.client")

_MASK52 = (1 << 52) - 1
_PASS_KEY = (int(MoveType.PASS), 15, 0)
_JOKER_KEY_INDEX = 15
_TYPE_OF_NAME: dict[str, MoveType] = {
    name.lower(): t for t, name in ACTION_TYPES.items() if t != MoveType.JOKER_BOMB
}
_NAME_OF_TYPE: dict[MoveType, str] = dict(ACTION_TYPES)
_FACE_OF_CODE: dict[str, int] = {card_name(c, "code"): c for c in range(NUM_FACES)}
_STAGE_PHASE = {"play": Phase.PLAY, "tribute": Phase.TRIBUTE, "back": Phase.RETURN}
#: How many disagreements between the server's list and the engine's are logged as warnings
#: (the rest at debug level; all are counted).
_WARN_LIMIT = 5

#: An entry of an ``actionList`` as the client compares it: (move type, key index, cards packed
#: 2 bits per face) — the key index is the key rank - 2 (an ace-low sequence: the ace's, 12),
#: 15 for the joker bomb and the pass.
ActionKey = tuple[int, int, int]


# -- reading the server's values, tolerantly ----------------------------------------------------------


def _int(value: Any) -> int | None:
    """An int given as an int or a string of digits (never a bool)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    return None


def _seat(value: Any) -> int | None:
    n = _int(value)
    return n if n is not None and 0 <= n <= 3 else None


def _rank(value: Any) -> Rank | None:
    """A rank or level as a server may write it: a letter, a name, a number (1 as the ace)."""
    if isinstance(value, bool) or value is None:
        return None
    if _int(value) == 1:
        return Rank.ACE
    try:
        return parse_level(value)
    except (GuandanError, TypeError):
        return None


def _face(token: Any) -> int | None:
    if not isinstance(token, str):
        return None
    face = _FACE_OF_CODE.get(token)
    if face is None:
        try:
            face = parse_card(token)
        except GuandanError:
            return None
    return face


def _faces(tokens: Any) -> list[int] | None:
    """The card indices of a list of card codes, ``None`` if any is not a card."""
    if not isinstance(tokens, list | tuple):
        return None
    faces = []
    for token in tokens:
        face = _face(token)
        if face is None:
            return None
        faces.append(face)
    return faces


def _hand(faces: Sequence[int]) -> Cards | None:
    try:
        return Cards.from_cards(faces)
    except GuandanError:
        return None


def _bits(faces: Iterable[int]) -> int:
    """Cards packed 2 bits per face (the layout of the core's words)."""
    bits = 0
    for face in faces:
        bits += 1 << (2 * face)
    return bits


@dataclass(frozen=True)
class _Action:
    """An action of a message, read: ``kind`` is ``pass``, ``play``, ``tribute`` or ``back``;
    a play has its type name, rank letter (or ``JOKER``) and cards."""

    kind: str
    type_name: str = ""
    letter: str = ""
    faces: tuple[int, ...] = ()
    key: ActionKey | None = None

    def as_list(self) -> list[Any]:
        """The canonical ``[type, rank, cards]`` form."""
        codes = [card_name(c, "code") for c in self.faces]
        if self.kind == "pass":
            return ["PASS", "PASS", "PASS"]
        if self.kind in ("tribute", "back"):
            return [self.kind, self.kind, codes]
        return [self.type_name, self.letter, codes]


_PASS = _Action("pass", key=_PASS_KEY)


def _read_action(value: Any) -> _Action | None:
    """An action as ``[type, rank, cards]`` (or an object with ``type``, ``rank`` and
    ``actions`` / ``cards``); ``None`` when it is not one."""
    if isinstance(value, dict):
        value = [value.get("type"), value.get("rank"), value.get("actions", value.get("cards"))]
    if isinstance(value, str) and value.upper() == "PASS":
        return _PASS
    if not isinstance(value, list | tuple) or len(value) != 3:
        return None
    type_name, letter, tokens = value
    if not isinstance(type_name, str):
        return None
    lowered = type_name.lower()
    if lowered == "pass":
        return _PASS
    faces = _faces(tokens)
    if faces is None:
        return None
    if lowered in ("tribute", "back"):
        return _Action(lowered, faces=tuple(faces)) if len(faces) == 1 else None
    if not faces:
        return None
    move_type = _TYPE_OF_NAME.get(lowered)
    if move_type is None:  # a type this client does not know: its cards still say what it is
        return _Action("play", type_name, str(letter), tuple(faces), (-1, -1, _bits(faces)))
    if isinstance(letter, str) and letter.upper() == "JOKER":
        move_type, index, text = MoveType.JOKER_BOMB, _JOKER_KEY_INDEX, "JOKER"
    else:
        rank = _rank(letter)
        if rank is None and isinstance(letter, str):
            rank = {"B": Rank.SMALL_JOKER, "SB": Rank.SMALL_JOKER, "R": Rank.BIG_JOKER, "HR": Rank.BIG_JOKER}.get(
                letter.upper()
            )
        if rank is None:  # a key this client cannot read
            index, text = -1, str(letter)
        else:
            index, text = int(rank) - 2, rank.letter
    return _Action("play", _NAME_OF_TYPE[move_type], text, tuple(faces), (int(move_type), index, _bits(faces)))


def _move_key(move: Move) -> ActionKey:
    lo, hi = pack_move(move)
    return _word_key(lo, hi)


def _word_key(lo: int, hi: int) -> ActionKey:
    return (hi >> 60, (hi >> 56) & 15, lo | ((hi & _MASK52) << 64))


def _move(action: _Action, level: Rank) -> Move | None:
    """The engine's move of a play or pass action at a level, ``None`` if it is not one."""
    if action.kind == "pass":
        return Move.pass_(level)
    if action.kind != "play":
        return None
    try:
        return from_action(action.as_list(), level)
    except GuandanError:
        return None


def _pick(message: dict[str, Any], *names: str) -> Any:
    for name in names:
        if name in message:
            return message[name]
    return None


def _greater(message: dict[str, Any]) -> tuple[Any, Any]:
    """``greaterPos`` and ``greaterAction``, read by type (the manual's example swaps them)."""
    pos, action = message.get("greaterPos"), message.get("greaterAction")
    if isinstance(pos, list | dict | str) and (action is None or isinstance(action, int)):
        pos, action = action, pos
    return pos, action


# -- one seat's view ----------------------------------------------------------------------------------


@dataclass
class GameSummary:
    """One game (match) as a seat saw it: its number, the deals played, the last deal's
    finish order and level.

    >>> GameSummary(1, 2, 9, [0, 2, 1, 3], Rank.ACE).format(seat=1)
    'game 1/2: 9 deals; the last at level A won by seat 0 (the other side), order 0 2 1 3'
    """

    game: int
    games: int | None
    deals: int
    last_order: list[int]
    last_level: Rank | None

    def format(self, seat: int | None) -> str:
        """One line: the game, its deals, the last deal and which side won it."""
        of = f"/{self.games}" if self.games else ""
        line = f"game {self.game}{of}: {self.deals} deal{'s' if self.deals != 1 else ''}"
        if self.last_order:
            first = self.last_order[0]
            whose = "" if seat is None else (" (my side)" if first % 2 == seat % 2 else " (the other side)")
            level = f" at level {self.last_level.label}" if self.last_level is not None else ""
            line += f"; the last{level} won by seat {first}{whose}, order {' '.join(map(str, self.last_order))}"
        return line


class SeatView:
    """One seat's view of the games, rebuilt from the server's messages (no I/O).

    :meth:`update` takes every message (a parsed JSON object); :meth:`request` reads an
    ``act`` message into a :class:`Request` holding the seat's
    :class:`~guandan.game.observation.Observation` and the way back from an action to an index
    of the ``actionList``. It raises nothing on bad input: what it cannot read is logged
    and counted in :attr:`warnings`.

    >>> view = SeatView()
    >>> view.update({"type": "notify", "stage": "beginning", "handCards": ["S3", "HR"], "myPos": 2})
    >>> view.seat, view.hand, view.counts
    (2, Cards('S3 HR'), [2, 2, 2, 2])
    >>> view.update({"type": "notify", "stage": "play", "curPos": 1, "curAction": ["Single", "5", ["D5"]],
    ...              "greaterPos": 1, "greaterAction": ["Single", "5", ["D5"]], "extra": "ignored"})
    >>> view.counts, [str(p) for p in view.history()]
    ([2, 1, 2, 2], ['seat 1: single 5: D5'])
    """

    def __init__(self, ruleset: Ruleset = PLATFORM) -> None:
        self.ruleset = ruleset  # the rules the server plays, as far as the seat knows: the platform's
        self.seat: int | None = None
        self.hand = Cards()
        self.counts = [27, 27, 27, 27]
        self.levels: list[Rank | None] = [None, None]  # by side
        self.level = Rank.TWO
        self.finish_order: list[int] = []
        self.actions: list[tuple[int, _Action]] = []  # every play and pass of the deal, as read
        self._plays: list[tuple[int, int, int]] = []  # the packed words of those read so far at _plays_level
        self._plays_level: Rank | None = None
        self.prefix: list[Tribute | Return] = []  # the deal's tribute and return records
        self.deal_index = -1  # in the current game, from 0
        self.deals = 0  # deals ended, every game counted
        self.game_deals = 0  # deals ended in the current game
        self.last_winner: int | None = None  # the side that won the previous deal of this game
        self.last_order: list[int] = []
        self.last_level: Rank | None = None
        self.anti_tribute: list[int] = []
        self.games: list[GameSummary] = []
        self.final: dict[str, Any] | None = None
        self.warnings = 0
        self.disagreements = 0
        self.unknown = 0

    # -- messages --------------------------------------------------------------------------------

    def warn(self, text: str, *args: Any) -> None:
        """Log a problem with what the server sent (counted in :attr:`warnings`)."""
        self.warnings += 1
        logger.warning(text, *args)

    def update(self, message: Any) -> None:
        """Take in one message from the server. Never raises."""
        if not isinstance(message, dict):
            self.warn("not a JSON object, ignored: %s", describe(message))
            return
        kind, stage = message.get("type"), message.get("stage")
        try:
            if kind == "act" or "actionList" in message:
                self._act(message)
                return
            handler = _NOTIFY.get(stage) if isinstance(stage, str) and kind in ("notify", None) else None
            if handler is None:
                self.unknown += 1
                logger.info("a message of an unknown kind (type %r, stage %r), ignored", kind, stage)
                return
            handler(self, message)
        except Exception as error:  # a value of a type no branch expected: keep going
            self.warn("could not read a %s %s message (%s: %s), ignored", kind, stage, type(error).__name__, error)

    def _beginning(self, m: dict[str, Any]) -> None:
        seat = _seat(m.get("myPos"))
        if seat is not None:
            self.seat = seat
        else:
            self.warn("beginning: no seat in myPos (%s)", describe(m.get("myPos")))
        faces = _faces(_pick(m, "handCards", "handCard"))
        hand = None if faces is None else _hand(faces)
        if hand is None:
            self.warn("beginning: the hand is not a list of cards: %s", describe(_pick(m, "handCards", "handCard")))
            hand = Cards()
        if self.deal_index < 0:
            self.last_winner = None
        self.hand = hand
        self.counts = [len(hand) or 27] * 4
        self.finish_order = []
        self.actions = []
        self._plays = []
        self.prefix = []
        self.anti_tribute = []
        self.deal_index += 1

    def _transfers(self, m: dict[str, Any], what: str) -> list[tuple[int, int, int]]:
        result = m.get("result")
        out = []
        for item in result if isinstance(result, list) else []:
            if isinstance(item, list | tuple) and len(item) == 3:
                a, b, face = _seat(item[0]), _seat(item[1]), _face(item[2])
                if a is not None and b is not None and face is not None:
                    out.append((a, b, face))
                    continue
            self.warn("%s: not [from, to, card]: %s", what, describe(item))
        return out

    def _move_card(self, giver: int, taker: int, face: int) -> None:
        self.counts[giver] -= 1
        self.counts[taker] += 1
        if giver == self.seat and self.hand.count(face):
            self.hand = self.hand - Cards.from_cards([face])
        if taker == self.seat:
            self.hand = _hand(list(self.hand) + [face]) or self.hand

    def _tribute(self, m: dict[str, Any]) -> None:
        for payer, receiver, face in self._transfers(m, "tribute"):
            self.prefix.append(Tribute(payer, face))
            self._move_card(payer, receiver, face)
            if self.last_winner is None:  # no previous deal seen: the receivers won it
                self.last_winner = receiver % 2

    def _back(self, m: dict[str, Any]) -> None:
        for returner, payer, face in self._transfers(m, "back"):
            self.prefix.append(Return(returner, payer, face))
            self._move_card(returner, payer, face)

    def _anti_tribute(self, m: dict[str, Any]) -> None:
        seats = m.get("antiPos")
        self.anti_tribute = [s for s in (seats if isinstance(seats, list) else []) if _seat(s) is not None]
        if self.last_winner is None and self.anti_tribute:  # no previous deal seen: the payers lost it
            self.last_winner = 1 - self.anti_tribute[0] % 2
        count = _int(_pick(m, "antiNums", "antiNum"))
        if count is not None and count != len(self.anti_tribute):
            self.warn("anti-tribute: antiNums %s but antiPos %s", count, seats)

    def _play(self, m: dict[str, Any]) -> None:
        seat = _seat(m.get("curPos"))
        action = _read_action(m.get("curAction"))
        if seat is None or action is None or action.kind not in ("play", "pass"):
            self.warn(
                "play: cannot read curPos %s / curAction %s", describe(m.get("curPos")), describe(m.get("curAction"))
            )
            return
        self.actions.append((seat, action))
        if action.kind == "play":
            self.counts[seat] = max(0, self.counts[seat] - len(action.faces))
            if seat == self.seat:
                spent = _hand(action.faces)
                if spent is not None and spent <= self.hand:
                    self.hand = self.hand - spent
            if self.counts[seat] == 0 and seat not in self.finish_order:
                self.finish_order.append(seat)

    def plays(self) -> tuple[tuple[int, int, int], ...]:
        """Every play and pass of the deal as ``(seat, lo, hi)`` (the packed words of the move
        at the deal's level). A notification's action is read at the level of the deal, which
        the next request states: until then the actions are kept as they came."""
        if self._plays_level != self.level:
            self._plays, self._plays_level = [], self.level
        for seat, action in self.actions[len(self._plays) :]:
            move = _move(action, self.level)
            if move is None:
                self.warn("play: %s is not a move at level %s", describe(action.as_list()), self.level.label)
                move = Move.pass_(self.level) if action.kind == "pass" else None
            self._plays.append((seat, *pack_move(move)) if move is not None else (seat, 0, -1))
        return tuple(p for p in self._plays if p[2] != -1)

    def _episode_over(self, m: dict[str, Any]) -> None:
        order = m.get("order")
        seats = [s for s in (order if isinstance(order, list) else []) if _seat(s) is not None]
        if not seats:
            self.warn("episodeOver: no finish order in %s", describe(order))
        self.last_order = seats
        self.last_winner = seats[0] % 2 if seats else None
        level = _rank(m.get("curRank"))
        self.last_level = level if level is not None else self.level
        self.deals += 1
        self.game_deals += 1

    def _game_over(self, m: dict[str, Any]) -> None:
        played = _int(m.get("curTimes"))
        games = _int(m.get("settingTimes"))
        number = played if played is not None else len(self.games) + 1
        self.games.append(GameSummary(number, games, self.game_deals, list(self.last_order), self.last_level))
        self.game_deals = 0
        self.deal_index = -1
        self.last_winner = None
        self.last_order = []

    def _game_result(self, m: dict[str, Any]) -> None:
        wins = _pick(m, "victoryNum", "final")
        draws = m.get("draws")
        self.final = {
            "victoryNum": wins if isinstance(wins, list) else None,
            "draws": draws if isinstance(draws, list) else None,
        }

    def _act(self, m: dict[str, Any]) -> None:
        """The fields of an ``act`` message that say what is public now."""
        faces = _faces(_pick(m, "handCards", "handCard"))
        hand = None if faces is None else _hand(faces)
        if hand is not None:
            self.hand = hand
        else:
            self.warn("act: the hand is not a list of cards: %s", describe(_pick(m, "handCards", "handCard")))
        info = m.get("publicInfo")
        if isinstance(info, list) and len(info) == 4:
            for s, entry in enumerate(info):
                rest = _int(entry.get("rest")) if isinstance(entry, dict) else None
                if rest is not None and 0 <= rest <= 33:
                    self.counts[s] = rest
                    if rest == 0 and s not in self.finish_order and m.get("stage") == "play":
                        self.finish_order.append(s)
        level = _rank(m.get("curRank"))
        if level is not None:
            self.level = level
        mine, theirs = _rank(m.get("selfRank")), _rank(m.get("oppoRank"))
        if self.seat is None:
            self.seat = self._infer_seat(m)
        side = (self.seat or 0) % 2
        if mine is not None:
            self.levels[side] = mine
        if theirs is not None:
            self.levels[1 - side] = theirs
        if self.deal_index < 0:
            self.deal_index = 0
        if self.seat is not None and hand is not None:
            self.counts[self.seat] = len(hand)

    def _infer_seat(self, m: dict[str, Any]) -> int:
        """The seat asked, when no ``beginning`` said it: after ``curPos``, the next seat holding cards."""
        last = _seat(m.get("curPos"))
        seat = 0
        if last is not None:
            seat = next((s % 4 for s in range(last + 1, last + 4) if self.counts[s % 4]), (last + 1) % 4)
        self.warn("act: the seat is not known (no beginning message): taken to be %d", seat)
        return seat

    # -- what the seat sees --------------------------------------------------------------------------

    @property
    def level_side(self) -> int | None:
        """The side whose level is played: the side whose level is the deal's when the
        levels differ, else the side that won the previous deal (``None`` in a game's first deal)."""
        a, b = self.levels
        if a is not None and b is not None and a != b:
            if self.level == a:
                return 0
            if self.level == b:
                return 1
        return self.last_winner

    def history(self) -> History:
        """The deal's public history: tribute and return records, then every play and pass."""
        return History(tuple(self.prefix), self.plays(), self.level)

    def observation(self, phase: Phase, legal: Any, beat: tuple[int, int, int] | None) -> Observation:
        """The seat's observation now, with the given legal actions and play to beat."""
        seat = self.seat if self.seat is not None else 0
        levels = None
        if self.levels[0] is not None and self.levels[1] is not None:
            levels = (self.levels[0], self.levels[1])
        return Observation(
            seat=seat,
            phase=phase,
            level=self.level,
            turn=seat,
            card_counts=tuple(self.counts),
            finish_order=tuple(self.finish_order) if phase == Phase.PLAY else (),
            legal_actions=legal,
            packed_hand=bits_of_cards(self.hand),
            beat=beat,
            history=self.history(),
            ruleset=self.ruleset,
            levels=levels,
            level_side=self.level_side,
            deal_index=max(0, self.deal_index),
        )

    def request(self, message: dict[str, Any]) -> Request:
        """Take in an ``act`` message and read it into a :class:`Request`. Never raises."""
        self.update(message)
        entries = message.get("actionList")
        if not isinstance(entries, list):
            self.warn("act: actionList is not a list: %s", describe(entries))
            entries = []
        index_range = _int(message.get("indexRange"))
        if index_range is None or index_range < 0:
            index_range = len(entries) - 1
        elif index_range != len(entries) - 1 and entries:
            self.warn("act: indexRange %d but %d entries in actionList", index_range, len(entries))
            index_range = min(index_range, len(entries) - 1)
        actions = [_read_action(e) for e in entries]
        stage = message.get("stage")
        phase = _STAGE_PHASE.get(stage) if isinstance(stage, str) else None
        if phase is None:
            phase = next((_STAGE_PHASE[a.kind] for a in actions if a is not None and a.kind in _STAGE_PHASE), None)
            if phase is None:
                phase = Phase.PLAY if any(a is not None and a.kind in ("play", "pass") for a in actions) else None
            self.warn("act: unknown stage %r, read as %s", stage, None if phase is None else phase.label)
        request = Request(self, message, entries, actions, index_range, phase)
        request.build()
        return request

    def _beat(self, message: dict[str, Any]) -> tuple[Move | None, tuple[int, int, int] | None]:
        pos, value = _greater(message)
        seat = _seat(pos)
        if value is None or seat is None:
            return None, None
        action = _read_action(value)
        move = None if action is None else _move(action, self.level)
        if move is None:
            self.warn("act: cannot read greaterAction %s at level %s", describe(value), self.level.label)
            return None, None
        if move.type == MoveType.PASS or seat == self.seat:
            return None, None
        lo, hi = pack_move(move)
        return move, (seat, lo, hi)


_NOTIFY: dict[str, Callable[[SeatView, dict[str, Any]], None]] = {
    "beginning": SeatView._beginning,
    "play": SeatView._play,
    "tribute": SeatView._tribute,
    "anti-tribute": SeatView._anti_tribute,
    "back": SeatView._back,
    "episodeOver": SeatView._episode_over,
    "gameOver": SeatView._game_over,
    "gameResult": SeatView._game_result,
}


class Request:
    """An ``act`` message read: the seat's :attr:`observation` (``None`` when the stage
    cannot be read), and :meth:`index_of`, the ``actionList`` index of an agent's action.

    Made by :meth:`SeatView.request`.

    >>> view = SeatView()
    >>> view.update({"type": "notify", "stage": "beginning", "handCards": ["S3", "S3", "D9"], "myPos": 0})
    >>> request = view.request({"type": "act", "stage": "play", "handCards": ["S3", "S3", "D9"],
    ...     "curRank": "2", "greaterPos": -1, "greaterAction": None, "indexRange": 2,
    ...     "actionList": [["Pair", "3", ["S3", "S3"]], ["Single", "9", ["D9"]], ["Single", "3", ["S3"]]]})
    >>> request.observation.legal_actions
    <MoveList 3 card-level moves at level 2>
    >>> request.index_of(request.observation.legal_actions[0])  # the engine lists S3 first
    (2, 'exact')
    """

    def __init__(
        self,
        view: SeatView,
        message: dict[str, Any],
        entries: list[Any],
        actions: list[_Action | None],
        index_range: int,
        phase: Phase | None,
    ) -> None:
        self.view = view
        self.message = message
        self.entries = entries
        self.actions = actions
        self.index_range = index_range
        self.phase = phase
        self.observation: Observation | None = None
        self.agreed = True  # whether the server's list and the engine's agree
        self._index: dict[Any, int] = {}

    @property
    def stage(self) -> str:
        """The phase's name on the platform: ``play``, ``tribute`` or ``back`` (``?`` if unknown)."""
        return {Phase.PLAY: "play", Phase.TRIBUTE: "tribute", Phase.RETURN: "back"}.get(self.phase, "?")  # type: ignore[arg-type]

    def build(self) -> None:
        """Build the observation and the lookup of the list's entries."""
        view = self.view
        for i, action in enumerate(self.actions[: self.index_range + 1]):
            if action is None:
                continue
            lookup = action.key if action.kind in ("play", "pass") else (action.kind, action.faces[0])
            self._index.setdefault(lookup, i)
        if self.phase is None:
            return
        if self.phase == Phase.PLAY:
            beat_move, beat = view._beat(self.message)
            moves = legal_moves(view.hand, view.level, beat=beat_move)
            legal = self._filter(moves, beat is not None)
            self.observation = view.observation(Phase.PLAY, legal, beat)
        else:
            kind = "tribute" if self.phase == Phase.TRIBUTE else "back"
            listed = sorted({a.faces[0] for a in self.actions if a is not None and a.kind == kind})
            held = tuple(c for c in listed if view.hand.count(c))
            if len(held) != len(listed) or len(listed) != sum(1 for a in self.actions if a is not None):
                self._disagree(f"the {kind} list names cards the hand does not hold, or other entries")
            self.observation = view.observation(self.phase, held or tuple(listed), None)

    def _filter(self, moves: MoveList, responding: bool) -> MoveList:
        """The engine's moves, kept to those the server lists when its list holds nothing else."""
        array = moves.array
        listed = {a.key for a in self.actions if a is not None and a.kind in ("play", "pass")}
        if not responding:
            listed.discard(_PASS_KEY)
        keys = [_word_key(lo, hi) for lo, hi in array.tolist()]
        inside = [k in listed for k in keys]
        unread = sum(1 for a in self.actions if a is None or a.kind not in ("play", "pass"))
        if unread or len(listed) > sum(inside):
            self._disagree(
                f"{unread + len(listed) - sum(inside)} of {len(self.entries)} entries of the actionList"
                f" are not moves the engine generates for this hand"
            )
            return moves
        if all(inside):
            return moves
        kept = np.asarray(inside, dtype=bool)
        self._disagree(f"the server lists {int(kept.sum())} of the engine's {len(array)} moves", quiet=True)
        return MoveList(array[kept], moves.level, "card")

    def _disagree(self, what: str, quiet: bool = False) -> None:
        view = self.view
        self.agreed = False
        view.disagreements += 1
        level = logging.DEBUG if quiet or view.disagreements > _WARN_LIMIT else logging.WARNING
        logger.log(level, "act %s: %s", self.stage, what)

    def index_of(self, action: Any) -> tuple[int, str]:
        """The index in the ``actionList`` of an agent's action (a move in play, a card
        index or code in the tribute and return stages), and how it was found: ``exact``,
        or the fallback taken (see the module's description)."""
        if self.index_range < 0:
            return 0, "empty"
        if self.phase in (Phase.TRIBUTE, Phase.RETURN):
            kind = "tribute" if self.phase == Phase.TRIBUTE else "back"
            face = _face(action) if isinstance(action, str) else _int(action)
            if face is not None and (kind, face) in self._index:
                return self._index[(kind, face)], "exact"
            return 0, "first"
        if isinstance(action, Move):
            key = _move_key(action)
            if key in self._index:
                return self._index[key], "exact"
            return self._closest(key)
        if isinstance(action, RankMove):
            return self._closest((int(action.type), _key_index(action), -1))
        return 0, "first"

    def _closest(self, key: tuple[int, int, int]) -> tuple[int, str]:
        move_type, index, bits = key
        candidates = [
            (i, a) for i, a in enumerate(self.actions[: self.index_range + 1]) if a is not None and a.key is not None
        ]
        for i, a in candidates:
            assert a.key is not None
            if a.key[0] == move_type and a.key[2] == bits:
                return i, "same type and cards"
        for i, a in candidates:
            assert a.key is not None
            if a.key[2] == bits and bits > 0:
                return i, "same cards"
        best, shared = -1, -1
        for i, a in candidates:
            assert a.key is not None
            if a.key[0] == move_type and a.key[1] == index:
                common = _common(a.key[2], bits) if bits >= 0 else 0
                if common > shared:
                    best, shared = i, common
        if best >= 0:
            return best, "same type and key"
        return 0, "first"


def _key_index(move: RankMove) -> int:
    if move.type in (MoveType.PASS, MoveType.JOKER_BOMB) or move.key is None:
        return 15
    return int(move.key) - 2


def _common(a: int, b: int) -> int:
    """How many cards two packed card sets have in common."""
    shared = 0
    while a and b:
        shared += min(a & 3, b & 3)
        a >>= 2
        b >>= 2
    return shared


# -- the client: a view, an agent, answers ------------------------------------------------------------


@dataclass
class ClientResult:
    """What a client did: its URL, seat, every game's summary, the final result (``victoryNum``
    and ``draws`` per seat, ``None`` if the games did not end), its answers and the agent's
    think times (seconds), the fallbacks taken, the agent's errors, the warnings about what
    the server sent, and how the connection was closed.

    >>> result = ClientResult(agent="greedy", seat=1, final={"victoryNum": [0, 2, 0, 2], "draws": [0] * 4})
    >>> result.wins(), result.ok
    ((2, 0), True)
    >>> print(result.format())
    result: my side (seats 1, 3) won 2, the other side 0, draws 0
    no answers
    """

    url: str = ""
    agent: str = ""
    seat: int | None = None
    games: list[GameSummary] = field(default_factory=list)
    final: dict[str, Any] | None = None
    times: list[float] = field(default_factory=list)
    fallbacks: int = 0
    agent_errors: int = 0
    warnings: int = 0
    disagreements: int = 0
    messages: int = 0
    close_code: int | None = None
    close_reason: str = ""

    @property
    def complete(self) -> bool:
        """Whether ``gameResult`` was received."""
        return self.final is not None

    @property
    def answers(self) -> int:
        """Requests answered."""
        return len(self.times)

    @property
    def ended(self) -> bool:
        """Whether the games ended: ``gameResult`` received, or the server closed the
        connection normally (code 1000) — a server may close without a ``gameResult``."""
        return self.complete or self.close_code == 1000

    @property
    def ok(self) -> bool:
        """The games ended and the agent never raised."""
        return self.ended and not self.agent_errors

    def wins(self) -> tuple[int, int] | None:
        """Games won by this seat's side and by the other side (from ``gameResult``)."""
        if self.final is None or self.seat is None:
            return None
        wins = self.final.get("victoryNum")
        if not isinstance(wins, list) or len(wins) != 4:
            return None
        mine, theirs = wins[self.seat], wins[(self.seat + 1) % 4]
        return (mine, theirs) if isinstance(mine, int) and isinstance(theirs, int) else None

    def to_json(self) -> dict[str, Any]:
        """The result as JSON values (times in milliseconds)."""
        return {
            "url": self.url,
            "agent": self.agent,
            "seat": self.seat,
            "complete": self.complete,
            "games": [
                {"game": g.game, "deals": g.deals, "last_order": g.last_order,
                 "last_level": None if g.last_level is None else g.last_level.letter}
                for g in self.games
            ],
            "result": self.final,
            "answers": self.answers,
            "agent_mean_ms": None if not self.times else round(1000 * sum(self.times) / len(self.times), 3),
            "agent_p99_ms": None if not self.times else round(1000 * _p99(self.times), 3),
            "fallbacks": self.fallbacks,
            "agent_errors": self.agent_errors,
            "warnings": self.warnings,
            "close_code": self.close_code,
            "close_reason": self.close_reason,
        }

    def format(self) -> str:
        """The last lines ``guandan connect`` prints: the result, the answers, the problems."""
        lines = []
        wins = self.wins()
        if self.final is not None:
            seat = self.seat if self.seat is not None else 0
            draws = self.final.get("draws")
            drawn = draws[seat] if isinstance(draws, list) and len(draws) == 4 else "?"
            if wins is not None:
                lines.append(
                    f"result: my side (seats {seat % 2}, {seat % 2 + 2}) won {wins[0]}, the other side {wins[1]},"
                    f" draws {drawn}"
                )
            else:
                lines.append(f"result: {self.final}")
        else:
            how = f"closed with code {self.close_code}" if self.close_code is not None else "no close code"
            reason = f": {self.close_reason}" if self.close_reason else ""
            if self.ended:
                lines.append(f"the server closed the connection normally ({how}{reason}), without gameResult")
            else:
                lines.append(f"the games did not end ({how}{reason})")
        if self.times:
            mean = 1000 * sum(self.times) / len(self.times)
            lines.append(
                f"{self.answers} answers, agent {self.agent} mean {mean:.2f} ms, p99 {1000 * _p99(self.times):.2f} ms"
            )
        else:
            lines.append("no answers")
        problems = [
            f"{n} {what}"
            for n, what in (
                (self.fallbacks, "fallback answers"),
                (self.agent_errors, "agent errors"),
                (self.warnings, "warnings about the server's messages"),
            )
            if n
        ]
        if problems:
            lines.append("; ".join(problems))
        return "\n".join(lines)


def _p99(times: Sequence[float]) -> float:
    ordered = sorted(times)
    return ordered[max(0, math.ceil(0.99 * len(ordered)) - 1)]


class PlatformClient:
    """An agent playing one seat (no I/O): :meth:`receive` takes the text of each message
    from the server and returns the text of the answer to send (``None`` when no answer is
    due). ``agent`` is an :class:`~guandan.bots.agents.Agent` or a spec for
    :func:`guandan.bots.registry.make_agent` (``"greedy"``, ``"mc"``, …, seeded with ``seed``).
    ``report``, if given, is called with a line of text at each game's end and at the final
    result. See the module's description and example.

    >>> client = PlatformClient("greedy")
    >>> client.receive('{"type": "notify", "stage": "beginning", "handCards": ["S3", "S4"], "myPos": 0}')
    >>> client.receive(json.dumps({"type": "act", "stage": "play", "handCards": ["S3", "S4"],
    ...     "publicInfo": [{"rest": 2, "playArea": None}] * 4, "selfRank": "2", "oppoRank": "2",
    ...     "curRank": "2", "curPos": -1, "curAction": None, "greaterPos": -1, "greaterAction": None,
    ...     "actionList": [["Single", "4", ["S4"]], ["Single", "3", ["S3"]]], "indexRange": 1}))
    '{"actIndex": 1}'
    """

    def __init__(
        self,
        agent: Agent | str,
        *,
        seed: int = 0,
        report: Callable[[str], None] | None = None,
    ) -> None:
        if isinstance(agent, str):
            self.agent_name = agent.strip()
            self.agent: Agent = make_agent(agent, seed)
        elif callable(getattr(agent, "act", None)):
            self.agent = agent
            self.agent_name = str(getattr(agent, "name", type(agent).__name__))
        else:
            raise GuandanError(f"an agent has a method act(observation), or is named by a spec; got {describe(agent)}")
        self.view = SeatView()
        self.result = ClientResult(agent=self.agent_name)
        self.report = report
        self._fallback_agent = GreedyAgent()
        self._reported = 0
        self._seated = False

    def receive(self, text: str | bytes) -> str | None:
        """Take in one message; the answer to send (``{"actIndex": i}``) if it is a request."""
        self.result.messages += 1
        try:
            message = json.loads(text)
        except (ValueError, RecursionError):
            self.view.warn("not JSON, ignored: %s", describe(text))
            self._sync()
            return None
        if isinstance(message, dict) and (message.get("type") == "act" or "actionList" in message):
            index = self.answer(message)
            self._sync()
            return json.dumps({"actIndex": index})
        self.view.update(message)
        self._sync()
        return None

    def answer(self, message: dict[str, Any]) -> int:
        """The index to answer an ``act`` message with (the agent asked; see the module's description)."""
        try:
            return self._answer(message)
        except Exception:  # a bug of this module: still answer
            logger.exception("could not answer a request; answering its first entry")
            self.result.fallbacks += 1
            return 0

    def _answer(self, message: dict[str, Any]) -> int:
        request = self.view.request(message)
        observation = request.observation
        if observation is None or not len(observation.legal_actions):
            if request.index_range >= 0:
                self.view.warn("act: nothing the agent can choose from; answering the first entry")
                self.result.fallbacks += 1
            return 0
        start = time.perf_counter()
        action: Any = None
        try:
            action = self.agent.act(observation)
        except Exception:
            self.result.agent_errors += 1
            logger.exception(
                "the agent %s raised on a %s request; the greedy agent answers it", self.agent_name, request.stage
            )
            try:
                action = self._fallback_agent.act(observation)
            except Exception:
                logger.exception("the greedy agent raised too; answering the first entry")
        self.result.times.append(time.perf_counter() - start)
        index, how = request.index_of(action)
        if how != "exact":
            self.result.fallbacks += 1
            logger.warning(
                "act %s: the agent's choice %s is not in the actionList; answering entry %d (%s): %s",
                request.stage,
                describe(str(action) if action is not None else None),
                index,
                how,
                describe(request.entries[index] if index < len(request.entries) else None),
            )
        return index

    def _sync(self) -> None:
        view, result = self.view, self.result
        result.seat = view.seat
        result.warnings = view.warnings
        result.disagreements = view.disagreements
        result.games = view.games
        if view.final is not None and result.final is None:
            result.final = view.final
        if self.report is not None:
            if not self._seated and view.seat is not None:
                self._seated = True
                where = f" at {result.url}" if result.url else ""
                self.report(f"seat {view.seat}{where} (partner seat {view.seat ^ 2}), agent {self.agent_name}")
            while self._reported < len(view.games):
                self.report(view.games[self._reported].format(view.seat))
                self._reported += 1


# -- over a WebSocket -----------------------------------------------------------------------------------


def client_url(url: str, name: str | None = None) -> str:
    """The URL to connect to: a base URL (``ws://HOST:PORT/game/``, or just ``ws://HOST:PORT``)
    plus the bot's ``name``, or a full ``ws://HOST:PORT/game/{name}`` URL as it is.

    >>> client_url("ws://127.0.0.1:23456/game/", "greedy 1")
    'ws://127.0.0.1:23456/game/greedy%201'
    >>> client_url("ws://127.0.0.1:23456", "g"), client_url("ws://10.0.0.5:9000/game/team7")
    ('ws://127.0.0.1:23456/game/g', 'ws://10.0.0.5:9000/game/team7')
    """
    if not isinstance(url, str):
        raise GuandanError(f"a URL is a string ws://HOST:PORT/game/NAME, got {describe(url)}")
    parts = urlsplit(url.strip())
    if parts.scheme not in ("ws", "wss") or not parts.netloc:
        raise GuandanError(f"not a WebSocket URL: {url!r} (expected ws://HOST:PORT/game/NAME or ws://HOST:PORT/game/)")
    path = parts.path
    if path in ("", "/"):
        path = "/game/"
    elif path.endswith("/game"):
        path += "/"
    if path.endswith("/"):
        if not name:
            raise GuandanError(f"the URL {url!r} names no bot: give a name (--name) or a URL ending in /game/NAME")
        path += quote(str(name), safe="")
    elif name and unquote(path.rsplit("/", 1)[-1]) != name:
        raise GuandanError(f"the URL {url!r} already names the bot; give --name only with a URL ending in /game/")
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))


class _MessageLog:
    """Every message received and sent, one JSON line each with its time (``--log``)."""

    def __init__(self, target: str | os.PathLike[str] | IO[str] | None) -> None:
        self._own = False
        self._file: IO[str] | None = None
        if target is None:
            return
        if hasattr(target, "write"):
            self._file = target  # type: ignore[assignment]
            return
        try:
            self._file = open(target, "w", encoding="utf-8")  # noqa: SIM115 - closed in close()
        except OSError as error:
            raise GuandanError(f"cannot write the log {str(target)!r}: {error}") from None
        self._own = True

    def write(self, direction: str, text: str | bytes, **extra: Any) -> None:
        if self._file is None:
            return
        key, value = log_body(text)
        more = "".join(f',"{k}":{json.dumps(v)}' for k, v in extra.items())
        self._file.write(f'{{"t":{time.time():.6f},"dir":"{direction}"{more},"{key}":{value}}}\n')

    def event(self, event: str, **details: Any) -> None:
        if self._file is not None:
            line = {"t": round(time.time(), 6), "event": event, **details}
            self._file.write(json.dumps(line, separators=(",", ":")) + "\n")

    def close(self) -> None:
        if self._own and self._file is not None:
            self._file.close()
        self._file = None


async def run_client(
    url: str,
    agent: Agent | str,
    *,
    name: str | None = None,
    seed: int = 0,
    log: str | os.PathLike[str] | IO[str] | None = None,
    report: Callable[[str], None] | None = None,
    open_timeout: float = 10,
    linger: float = 2,
) -> ClientResult:
    """Connect to a platform server and play ``agent`` (an agent or a spec such as
    ``"greedy"``) until the games end; the :class:`ClientResult`.

    ``url``: a full ``ws://HOST:PORT/game/NAME`` URL, or a base URL and ``name`` (default:
    the agent's spec). ``seed`` seeds an agent made from a spec. ``log``: a file (path or
    open text file) for every message received and sent, with times (JSONL). ``report``:
    called with a line at each game's end. After ``gameResult`` the client waits
    ``linger`` seconds for the server to close the connection, then closes it itself.

    Raises :class:`~guandan.GuandanError` when it cannot connect (refused, HTTP status,
    timeout), naming the URL. A connection closed before ``gameResult`` is not an error:
    the result says how it was closed (``complete`` is false).
    """
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus, InvalidURI

    client = PlatformClient(agent, seed=seed, report=report)
    target = client_url(url, name if name is not None else (None if _has_name(url) else client.agent_name))
    client.result.url = target
    messages = _MessageLog(log)
    try:
        try:
            ws = await connect(
                target,
                open_timeout=open_timeout,
                ping_interval=None,  # an agent may think for long: no keepalive to time out
                max_size=2**24,  # an actionList of a full hand is large
                compression=None,
                proxy=None,
            )
        except InvalidStatus as error:
            status = error.response.status_code
            body = error.response.body.decode("utf-8", "replace").strip() if error.response.body else ""
            raise GuandanError(f"cannot connect to {target}: HTTP {status}{': ' + body if body else ''}") from None
        except (OSError, TimeoutError, InvalidHandshake, InvalidURI) as error:
            why = str(error) or type(error).__name__
            raise GuandanError(f"cannot connect to {target}: {why}") from None
        messages.event("connect", url=target, agent=client.agent_name)
        try:
            async with ws:
                while True:
                    text: str | bytes
                    try:
                        if client.result.complete:
                            async with asyncio.timeout(linger):
                                text = await ws.recv()
                        else:
                            text = await ws.recv()
                    except TimeoutError:
                        break
                    messages.write("in", text)
                    answer = client.receive(text)
                    if answer is not None:
                        await ws.send(answer)
                        messages.write("out", answer)
        except ConnectionClosed:
            pass
        client.result.close_code = ws.close_code
        client.result.close_reason = ws.close_reason or ""
        messages.event("close", code=ws.close_code, reason=ws.close_reason)
    finally:
        messages.close()
    return client.result


def _has_name(url: str) -> bool:
    path = urlsplit(url.strip()).path if isinstance(url, str) else ""
    return path not in ("", "/") and not path.endswith(("/game", "/"))


def run_client_sync(url: str, agent: Agent | str, **options: Any) -> ClientResult:
    """:func:`run_client` for synchronous code (runs its own event loop).

    >>> run_client_sync("ws://127.0.0.1:1/game/", "greedy", open_timeout=5)
    Traceback (most recent call last):
    ...
    guandan.errors.GuandanError: cannot connect to ws://127.0.0.1:1/game/greedy: ...
    """
    return asyncio.run(run_client(url, agent, **options))


# -- a whole local game ---------------------------------------------------------------------------------


@dataclass
class LocalResult:
    """A local run: the server's :class:`~guandan.platform.ServeResult` (every game's record)
    and each seat's :class:`ClientResult`."""

    server: Any
    clients: list[ClientResult]

    def format(self) -> str:
        """The server's summary."""
        text: str = self.server.format()
        return text


def run_local(
    agents: str | Sequence[Agent | str] = "greedy",
    *,
    games: int = 1,
    seed: int | None = 0,
    ruleset: Any = "platform",
    timeout: float | None = None,
    **server_options: Any,
) -> LocalResult:
    """Play whole games on this machine: a platform server in a thread
    (:func:`~guandan.platform.start_server`, on a free port) and four clients, seats 0 to 3,
    playing ``agents`` (one spec for all, four specs separated by commas, or a list of four
    agents or specs; seat ``i``'s agent made from a spec is seeded ``derive_seed(seed, i)``).
    ``games``, ``seed``, ``ruleset`` and ``server_options`` (``records``, ``log``,
    ``act_timeout``) are the server's. Raises :class:`TimeoutError` after ``timeout`` seconds.

    >>> run = run_local("greedy", games=1, seed=7, ruleset="platform+cap2")
    >>> run.server.complete, run.server.deals, [c.complete for c in run.clients]
    (True, 2, [True, True, True, True])
    """
    from .server import start_server

    specs: list[Agent | str]
    if isinstance(agents, str) or (isinstance(agents, Sequence) and all(isinstance(a, str) for a in agents)):
        specs = list(seat_specs(agents))  # type: ignore[arg-type]
    elif isinstance(agents, Sequence) and len(agents) == 4:
        specs = list(agents)
    else:
        raise GuandanError(f"agents are one spec, or four specs or agents (one per seat); got {describe(agents)}")
    base = 0 if seed is None else seed
    players: list[tuple[Agent | str, str]] = []
    for i, a in enumerate(specs):
        if isinstance(a, str):
            players.append((make_agent(a, derive_seed(base, i)), f"{a.strip()}-{i}"))
        else:
            players.append((a, f"{getattr(a, 'name', type(a).__name__)}-{i}"))
    with start_server(port=0, games=games, seed=seed, ruleset=ruleset, **server_options) as running:
        table = running.server.tables[0]

        async def play() -> list[ClientResult]:
            tasks = []
            for i, (agent, name) in enumerate(players):  # connection order makes the seats
                tasks.append(asyncio.create_task(run_client(running.url, agent, name=name)))
                while table.names[i] is None and not tasks[-1].done():
                    await asyncio.sleep(0.002)
            return list(await asyncio.gather(*tasks))

        results = asyncio.run(asyncio.wait_for(play(), timeout))
        server = running.wait(timeout)
    return LocalResult(server, results)

