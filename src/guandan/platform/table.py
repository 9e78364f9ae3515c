"""One table of the platform server, without any I/O: seats, games, stages, whose turn,
what to send to whom, and what an answer does.

A :class:`PlatformTable` is driven by calls — :meth:`~PlatformTable.join` for each
connection, :meth:`~PlatformTable.start` once four are seated,
:meth:`~PlatformTable.receive` for each message a bot sends, :meth:`~PlatformTable.leave`
and :meth:`~PlatformTable.abort` when a bot goes away or is too slow — and answers with
the messages to send, as :class:`Send` values (the seats and the JSON object). It never
waits, reads a clock or touches a socket: the asyncio server
(:mod:`guandan.platform.server`) only moves JSON between it and the connections, and the
tests drive it through whole games without any.

>>> table = PlatformTable(games=1, seed=5)
>>> [table.join(name) for name in ("a", "b", "c", "d")]
[0, 1, 2, 3]
>>> sends = table.start()
>>> [(s.seats, s.message["stage"]) for s in sends][:2], sends[-1].message["type"]
([((0,), 'beginning'), ((1,), 'beginning')], 'act')
>>> asked = table.awaiting
>>> reply = table.receive(asked, '{"actIndex": 0}')
>>> reply.accepted, reply.sends[0].seats, reply.sends[0].message["stage"]
(True, (0, 1, 2, 3), 'play')
>>> table.receive(asked, '{"actIndex": 0}').error  # it is no longer asked
'seat ... answered but was not asked (seat ... is to act)'

The order of messages is that of the platform: in each deal ``beginning`` to each seat,
then ``anti-tribute`` to all, or the ``tribute`` requests one by one, ``notify tribute``,
the ``back`` requests, ``notify back``; then a ``play`` request to the seat to act and,
after its answer, ``notify play`` to all four, until the deal ends with ``episodeOver``;
after the deciding deal ``gameOver``, and after the last game ``gameResult``. A game is
a :class:`~guandan.game.match.Match` seeded ``derive_seed(seed, g)`` for game ``g`` (from 0).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.moves import Move
from ..core.rng import derive_seed
from ..errors import GuandanError, ProtocolError, check_int
from ..game.history import Phase, Play
from ..game.match import Match
from ..game.rules import PLATFORM, Ruleset, get_ruleset
from . import messages

__all__ = ["PlatformTable", "TableState", "Send", "Reply", "ALL_SEATS"]

#: The four seats, the recipients of a ``notify`` to all.
ALL_SEATS = (0, 1, 2, 3)


class TableState(enum.Enum):
    """``SEATING`` (waiting for four bots), ``PLAYING``, ``FINISHED`` (every game played) or
    ``ABORTED`` (a bot went away or was too slow)."""

    SEATING = "seating"
    PLAYING = "playing"
    FINISHED = "finished"
    ABORTED = "aborted"


@dataclass(frozen=True)
class Send:
    """A message to send, as a JSON object, to each of ``seats`` (in that order); ``text``
    is its JSON text when it was written with the message (a request: its ``actionList``
    written in bulk), else :attr:`wire` encodes it."""

    seats: tuple[int, ...]
    message: dict[str, Any]
    text: str | None = field(default=None, compare=False, repr=False)

    @property
    def wire(self) -> str:
        """The message's text as it goes over the wire (compact JSON)."""
        return self.text if self.text is not None else messages.to_text(self.message)


@dataclass(frozen=True)
class Reply:
    """What a message from a seat did: ``accepted`` (a valid answer: ``index`` is the
    chosen entry and ``sends`` what follows from it) or not (``error`` says why; the table
    keeps waiting for a valid answer, as the platform does)."""

    seat: int
    accepted: bool
    index: int | None = None
    error: str | None = None
    sends: tuple[Send, ...] = ()


class PlatformTable:
    """A table of four seats that plays ``games`` whole matches under ``ruleset``
    (the ``platform`` rules by default); game ``g`` is dealt from ``derive_seed(seed, g)``.
    ``new_match``, if given, builds game ``g``'s match instead (a match set up mid-way,
    with chosen hands or levels: ``lambda g: Match(g, "platform", levels=("A", "K"), level_side=0)``).

    >>> table = PlatformTable(games=2, seed=1, ruleset="platform+cap1")
    >>> for name in "abcd":
    ...     _ = table.join(name)
    >>> sends = list(table.start())
    >>> while table.state is TableState.PLAYING:     # every seat answers its first choice
    ...     sends += table.receive(table.awaiting, '{"actIndex": 0}').sends
    >>> [s.message["stage"] for s in sends if s.message["stage"].startswith("game")]
    ['gameOver', 'gameOver', 'gameResult']
    >>> table.games_played, table.deals, sum(table.victories) + table.draws
    (2, 2, 2)
    """

    def __init__(
        self,
        games: int = 1,
        *,
        seed: int = 0,
        ruleset: Ruleset | str | None = PLATFORM,
        new_match: Callable[[int], Match] | None = None,
    ) -> None:
        self.games = check_int("games", games, 1)
        self.seed = check_int("a seed", seed)
        self.ruleset = get_ruleset(ruleset)
        self._new_match = new_match
        self.names: list[str | None] = [None] * 4
        self.matches: list[Match] = []
        self.victories = [0, 0]
        self.draws = 0
        self.deals = 0
        self.games_played = 0
        self.abort_reason: str | None = None
        self._state = TableState.SEATING
        self._awaiting: int | None = None
        self._pending: dict[str, Any] | None = None
        self._choices: Sequence[Any] = ()

    # -- seats -----------------------------------------------------------------------------------

    @property
    def state(self) -> TableState:
        """Seating, playing, finished or aborted."""
        return self._state

    @property
    def is_done(self) -> bool:
        """Whether the table has finished every game or was aborted."""
        return self._state in (TableState.FINISHED, TableState.ABORTED)

    @property
    def is_full(self) -> bool:
        """Whether four bots are seated."""
        return all(name is not None for name in self.names)

    def join(self, name: str) -> int:
        """Seat a bot named ``name`` at the lowest free seat (connection order) and return the seat.

        Raises :class:`~guandan.GuandanError` when the table is full or its games have begun.
        """
        if self._state is not TableState.SEATING or self.is_full:
            raise GuandanError("the table is full")
        seat = self.names.index(None)
        self.names[seat] = str(name)
        return seat

    def leave(self, seat: int) -> None:
        """A bot went away: before the start its seat is free again; during the games the
        table is aborted (there is no reconnection); after them nothing changes."""
        if self._state is TableState.SEATING:
            self.names[seat] = None
        elif self._state is TableState.PLAYING:
            self.abort(f"seat {seat} ({self.names[seat]}) disconnected")

    def abort(self, reason: str) -> None:
        """End the table now (the current game stays unfinished); ``reason`` is kept in
        :attr:`abort_reason`. Does nothing once the table is done."""
        if self.is_done:
            return
        self._state = TableState.ABORTED
        self.abort_reason = reason
        self._awaiting = None
        self._pending = None
        self._choices = ()

    # -- the games -------------------------------------------------------------------------------

    @property
    def match(self) -> Match | None:
        """The game being played (or the last one)."""
        return self.matches[-1] if self.matches else None

    @property
    def awaiting(self) -> int | None:
        """The seat asked to act, ``None`` when no answer is awaited."""
        return self._awaiting

    @property
    def pending(self) -> dict[str, Any] | None:
        """The ``act`` message awaiting its answer."""
        return self._pending

    def game_seed(self, game: int) -> int:
        """The match seed of game ``game`` (from 0)."""
        return derive_seed(self.seed, game)

    def start(self) -> list[Send]:
        """Begin the first game once four bots are seated; returns the first messages."""
        if self._state is not TableState.SEATING or not self.is_full:
            raise GuandanError("a table starts once, when four bots are seated")
        self._state = TableState.PLAYING
        self._new_game()
        return self._deal_start() + self._ask()

    def receive(self, seat: int, text: str | bytes) -> Reply:
        """A message from ``seat``: if it is the valid answer to the pending ``act``, apply
        the chosen action and return what to send next; otherwise a refused reply naming
        the problem (not JSON, no ``actIndex``, out of range, not asked), and the table
        keeps waiting."""
        try:
            index = self._check(seat, text)
        except ProtocolError as error:
            return Reply(seat, False, error=str(error))
        choice = self._choices[index]
        return Reply(seat, True, index=index, sends=tuple(self._apply(seat, choice)))

    def _check(self, seat: int, text: str | bytes) -> int:
        if self._state is not TableState.PLAYING:
            raise ProtocolError(f"seat {seat} sent a message but no game is in progress ({self._state.value})")
        if seat != self._awaiting or self._pending is None:
            raise ProtocolError(f"seat {seat} answered but was not asked (seat {self._awaiting} is to act)")
        return messages.parse_answer(text, self._pending["indexRange"])

    def _new_game(self) -> None:
        game = len(self.matches)
        if self._new_match is None:
            match = Match(self.game_seed(game), self.ruleset)
        else:
            match = self._new_match(game)
            if not isinstance(match, Match) or match.is_over:
                raise GuandanError(f"new_match({game}) must return a Match that is not over, got {match!r:.80}")
        self.matches.append(match)

    def _deal_start(self) -> list[Send]:
        match = self.matches[-1]
        hands = match.dealt_hands
        sends = [Send((s,), messages.beginning(hands[s], s)) for s in ALL_SEATS]
        if match.resisted:
            sends.append(Send(ALL_SEATS, messages.anti_tribute_notice(match.resisters)))
        return sends

    def _ask(self) -> list[Send]:
        match = self.matches[-1]
        seat = match.turn
        assert seat is not None
        message, self._choices, text = messages.act_request(match, seat)
        self._pending = message
        self._awaiting = seat
        return [Send((seat,), message, text)]

    def _apply(self, seat: int, choice: Any) -> list[Send]:
        match = self.matches[-1]
        self._awaiting = None
        self._pending = None
        sends: list[Send] = []
        if match.phase == Phase.TRIBUTE:
            match.pay_tribute(choice, seat)
            if match.phase != Phase.TRIBUTE:
                sends.append(Send(ALL_SEATS, messages.tribute_notice(match.tributes)))
        elif match.phase == Phase.RETURN:
            match.return_card(choice, seat)
            if match.phase != Phase.RETURN:
                sends.append(Send(ALL_SEATS, messages.back_notice(match.returns)))
        else:
            deal = match.deal
            assert deal is not None and isinstance(choice, Move)
            before = deal.to_beat
            match.play(choice, seat)
            action = Play(seat, choice)
            greater = before if choice.is_pass else action
            assert greater is not None
            sends.append(Send(ALL_SEATS, messages.play_notice(action, greater)))
            if deal.is_over:
                self.deals += 1
                sends.append(Send(ALL_SEATS, messages.episode_over(deal)))
                if match.is_over:
                    sends += self._end_game(match)
                    if self.is_done:
                        return sends
                else:
                    sends += self._deal_start()
        return sends + self._ask()

    def _end_game(self, match: Match) -> list[Send]:
        self.games_played += 1
        if match.winner is None:
            self.draws += 1
        else:
            self.victories[match.winner] += 1
        sends = [Send(ALL_SEATS, messages.game_over(self.games_played, self.games))]
        if self.games_played == self.games:
            sends.append(Send(ALL_SEATS, messages.game_result(self.victories, self.draws)))
            self._state = TableState.FINISHED
            self._choices = ()
            return sends
        self._new_game()
        return sends + self._deal_start()

    def __repr__(self) -> str:
        return (
            f"<PlatformTable {self._state.value} game {self.games_played}/{self.games}"
            f" deals {self.deals} ruleset {self.ruleset.name}>"
        )
