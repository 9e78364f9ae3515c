"""One seat's view of the games, rebuilt from the platform server's messages (no I/O).

A bot of the AI-competition platform sees the game only through the server's messages.
:class:`SeatView` follows them and rebuilds, when the seat is asked to act, the
:class:`~guandan.game.observation.Observation` an agent of this package decides from — its own
hand, the deal's level, both sides' levels and whose level is played, whose turn, the
play to beat and its seat, every seat's card count, the finish order, the deal's public
history (every play and pass, the tribute and return cards), and the legal actions, which
the engine computes from the hand (a :class:`~guandan.MoveList` in play, so agents that
read ``legal_actions.array`` work). :meth:`SeatView.request` reads an ``act`` message into
a :class:`Request`, which finds the index in the message's ``actionList`` of the action an
agent chose (:class:`~guandan.platform.client.PlatformClient` asks the agent and answers).

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
first entry (the pass, when responding).

**Tolerance** (the protocol's sources, ``docs/platform.md``, and the organisers' example bot): unknown fields are
ignored; ``handCards`` or ``handCard``; ``antiNums`` or ``antiNum``; ``victoryNum`` or
``final``; the values as :mod:`~guandan.platform.wire` reads them; a stage it does not
know is logged and ignored, and any message carrying an ``actionList`` is read as a
request. What it cannot read is logged (on the ``guandan.platform.client`` logger) and
counted, never raised.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.cards import Cards, Rank
from ..core.movegen import MoveList, legal_moves, pack_move
from ..core.moves import Move, MoveType, RankMove
from ..core.packed import bits_of_cards
from ..errors import describe, printable
from ..game.history import History, Phase, Return, Tribute
from ..game.observation import Observation
from ..game.rules import PLATFORM, Ruleset
from .wire import (
    _PASS_KEY,
    _STAGE_PHASE,
    _Action,
    _face,
    _faces,
    _greater,
    _hand,
    _int,
    _move,
    _move_key,
    _pick,
    _rank,
    _read_action,
    _seat,
    _word_key,
)

__all__ = ["GameSummary", "SeatView", "Request"]

#: The client's log (``guandan connect`` shows it on stderr): the seat's view and the client write to it.
logger = logging.getLogger("guandan.platform.client")

#: How many disagreements between the server's list and the engine's are logged as warnings
#: (the rest at debug level; all are counted).
_WARN_LIMIT = 5


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
        """Log a problem with what the server sent (counted in :attr:`warnings`); every
        argument but a number is made printable (:func:`~guandan.errors.printable`): it
        may hold the server's text."""
        self.warnings += 1
        logger.warning(text, *(a if isinstance(a, int | float) else printable(a) for a in args))

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
