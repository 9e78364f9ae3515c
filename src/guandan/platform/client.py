"""The client side: any agent of this package playing a seat on a platform server
(``guandan connect``), without I/O.

:class:`PlatformClient` takes the text of each message from the server, follows the game
in a :class:`~guandan.platform.seat.SeatView`, and when the seat is asked to act asks the
agent, with the seat's :class:`~guandan.game.observation.Observation`, and answers with the
index of its choice in the message's ``actionList`` (found as
:class:`~guandan.platform.seat.Request` describes); :class:`ClientResult` is what it did.
It touches no socket: :func:`~guandan.platform.connect.run_client` connects it to a server
with the ``websockets`` package, and :func:`~guandan.platform.local.run_local` plays a whole
local game — a server in a thread and four clients — in one call.

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

**Every request gets an answer.** An agent that raises is logged with its traceback and
replaced for that request by :class:`~guandan.bots.agents.GreedyAgent`, then by the first
entry; a choice that is not in the server's list is answered by the fallback the
:class:`~guandan.platform.seat.Request` finds. The client never raises on what a server
sends: what it cannot read is logged and skipped.
"""

from __future__ import annotations

import json
import logging
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..bots.agents import Agent, GreedyAgent
from ..bots.registry import make_agent
from ..errors import GuandanError, describe, printable
from .seat import GameSummary, SeatView
from .wire import read_json

__all__ = ["PlatformClient", "ClientResult"]

#: The client's log (``guandan connect`` shows it on stderr), shared with the seat's view.
logger = logging.getLogger("guandan.platform.client")


@dataclass
class ClientResult:
    """What a client did: its URL, seat, every game's summary, the final result (``victoryNum``
    and ``draws`` per seat, ``None`` if the games did not end), its answers and the agent's
    think times (seconds), the fallbacks taken, the agent's errors, the warnings about what
    the server sent, and how the connection was closed (``ended_by``: why, when the client
    closed it itself — a message over its size limit, the idle timeout).

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
    ended_by: str = ""  # when the client itself ended the connection: why (a limit, the idle timeout)

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
            "ended_by": self.ended_by or None,
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
            reason = f": {printable(self.close_reason)}" if self.close_reason else ""
            by = f"; the client ended it: {self.ended_by}" if self.ended_by else ""
            if self.ended:
                lines.append(f"the server closed the connection normally ({how}{reason}), without gameResult")
            else:
                lines.append(f"the games did not end ({how}{reason}{by})")
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
            message = read_json(text)  # a number too long to read, or nesting too deep: None, the rest read
        except ValueError:
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
