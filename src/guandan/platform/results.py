"""What a platform server run did, and its reports: :class:`ServeResult` (every table's
:class:`TableResult`, each seat's :class:`SeatStats`), as JSON values (``summary.json``,
``guandan serve --json``) and as the summary ``guandan serve`` prints; :func:`percentile`
for the answer times and the server's added latency.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import printable
from ..game.rules import Ruleset
from .table import TableState

__all__ = ["ServeResult", "TableResult", "SeatStats", "percentile"]


def percentile(values: Sequence[float], q: float) -> float | None:
    """The ``q``-th percentile (0 < q <= 100) of ``values`` by the nearest-rank method; ``None`` if empty.

    >>> percentile([0.3, 0.1, 0.2, 0.4], 50), percentile([0.3, 0.1, 0.2, 0.4], 99), percentile([], 50)
    (0.2, 0.4, None)
    """
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


@dataclass
class SeatStats:
    """A seat's bot: its name, how long it took to answer each ``act`` (seconds, from
    sending the request to receiving the valid answer), and how many messages of it were
    ignored."""

    seat: int
    name: str | None = None
    times: list[float] = field(default_factory=list)
    ignored: int = 0

    @property
    def answers(self) -> int:
        """Valid answers given."""
        return len(self.times)

    @property
    def mean(self) -> float | None:
        """Mean answer time in seconds (``None`` without answers)."""
        return sum(self.times) / len(self.times) if self.times else None

    @property
    def p99(self) -> float | None:
        """The 99th percentile of the answer times (nearest rank), in seconds."""
        return percentile(self.times, 99)

    def to_json(self) -> dict[str, Any]:
        """The stats as JSON values (times in milliseconds)."""
        mean, p99 = self.mean, self.p99
        return {
            "seat": self.seat,
            "name": self.name,
            "answers": self.answers,
            "ignored": self.ignored,
            "mean_ms": None if mean is None else round(mean * 1000, 3),
            "p99_ms": None if p99 is None else round(p99 * 1000, 3),
        }


@dataclass
class TableResult:
    """What one table did: its seats, games, deals, wins per side (side 0: seats 0 and 2),
    draws, every game's record (the last one unfinished if the table was aborted), the
    files written, and why it was aborted, if it was."""

    index: int
    seed: int
    state: str
    games: int
    games_played: int
    deals: int
    victories: tuple[int, int]
    draws: int
    seats: list[SeatStats]
    records: list[dict[str, Any]]
    record_files: list[str]
    abort_reason: str | None
    added: list[float] = field(default_factory=list)
    added_cpu: list[float] = field(default_factory=list)
    messages_sent: int = 0
    messages_received: int = 0

    def to_json(self) -> dict[str, Any]:
        """The result as JSON values (without the records themselves: their files are listed)."""
        return {
            "table": self.index,
            "seed": self.seed,
            "state": self.state,
            "games": self.games,
            "games_played": self.games_played,
            "deals": self.deals,
            "wins": list(self.victories),
            "draws": self.draws,
            "abort_reason": self.abort_reason,
            "seats": [s.to_json() for s in self.seats],
            "messages_sent": self.messages_sent,
            "messages_received": self.messages_received,
            "added_ms": _latency_json(self.added),
            "added_cpu_ms": _latency_json(self.added_cpu),
            "records": self.record_files,
        }


@dataclass
class ServeResult:
    """What a server run did, table by table; :meth:`format` is the summary printed at the end."""

    seed: int
    ruleset: Ruleset
    games: int
    tables: list[TableResult]

    @property
    def games_played(self) -> int:
        """Games finished, every table counted."""
        return sum(t.games_played for t in self.tables)

    @property
    def deals(self) -> int:
        """Deals played, every table counted."""
        return sum(t.deals for t in self.tables)

    @property
    def victories(self) -> tuple[int, int]:
        """Games won by side 0 (seats 0 and 2) and side 1 (seats 1 and 3), every table counted."""
        return (sum(t.victories[0] for t in self.tables), sum(t.victories[1] for t in self.tables))

    @property
    def draws(self) -> int:
        """Drawn games, every table counted."""
        return sum(t.draws for t in self.tables)

    @property
    def complete(self) -> bool:
        """Whether every table played all its games."""
        return all(t.state == TableState.FINISHED.value for t in self.tables)

    @property
    def added(self) -> list[float]:
        """The server's added latency of every request after an answer, every table counted
        (seconds, from receiving a valid answer to having sent the next request)."""
        return [t for table in self.tables for t in table.added]

    @property
    def added_cpu(self) -> list[float]:
        """The server thread's CPU time in each span of :attr:`added` (seconds): its own work."""
        return [t for table in self.tables for t in table.added_cpu]

    @property
    def messages(self) -> int:
        """Messages sent (one per recipient) and received, every table counted."""
        return sum(t.messages_sent + t.messages_received for t in self.tables)

    @property
    def records(self) -> list[dict[str, Any]]:
        """Every game's record, table by table."""
        return [r for t in self.tables for r in t.records]

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON values (written to ``summary.json`` with ``records``)."""
        return {
            "seed": self.seed,
            "ruleset": self.ruleset.name,
            "rules": self.ruleset.to_json(),
            "games": self.games,
            "games_played": self.games_played,
            "deals": self.deals,
            "wins": list(self.victories),
            "draws": self.draws,
            "complete": self.complete,
            "messages": self.messages,
            "added_ms": _latency_json(self.added),
            "added_cpu_ms": _latency_json(self.added_cpu),
            "tables": [t.to_json() for t in self.tables],
        }

    def format(self) -> str:
        """The summary as text: games, deals, wins per side, each bot's answer times (the
        bots' names and the abort reasons made printable: :func:`~guandan.errors.printable`)."""
        n = len(self.tables)
        lines = [
            f"{n} table{'s' if n != 1 else ''} · ruleset {self.ruleset.name} · seed {self.seed}"
            f" · {self.games_played} of {self.games * n} games · {self.deals} deals",
            f"wins: side 0 (seats 0, 2) {self.victories[0]} · side 1 (seats 1, 3) {self.victories[1]}"
            f" · draws {self.draws}",
        ]
        added = self.added
        if added:
            p50, p99 = percentile(added, 50), percentile(added, 99)
            assert p50 is not None and p99 is not None
            cpu = percentile(self.added_cpu, 99)
            lines.append(
                f"server: {len(added)} requests after an answer, added p50 {p50 * 1000:.2f} ms,"
                f" p99 {p99 * 1000:.2f} ms (its own CPU p99 {(cpu or 0) * 1000:.2f} ms)"
            )
        for t in self.tables:
            head = (
                f"table {t.index}: {t.games_played}/{t.games} games, {t.deals} deals,"
                f" wins {t.victories[0]}-{t.victories[1]}, draws {t.draws}"
            )
            if t.abort_reason:
                head += f" — aborted: {printable(t.abort_reason)}"
            lines.append(head)
            for s in t.seats:
                mean, p99 = s.mean, s.p99
                times = (
                    "no answers"
                    if mean is None or p99 is None
                    else f"mean {mean * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms"
                )
                lines.append(
                    f"  seat {s.seat} {printable(s.name) if s.name is not None else '-'}: {s.answers} answers, {times},"
                    f" {s.ignored} ignored"
                )
        return "\n".join(lines)


def _latency_json(values: Sequence[float]) -> dict[str, Any]:
    p50, p99 = percentile(values, 50), percentile(values, 99)
    return {
        "n": len(values),
        "p50": None if p50 is None else round(p50 * 1000, 3),
        "p99": None if p99 is None else round(p99 * 1000, 3),
        "max": round(max(values) * 1000, 3) if values else None,
    }
