"""Bot against bot on seeded pairs: the sequential test, fixed runs and ratings (``guandan arena``).

**A pair** is one deal (``kind="deals"``) or one whole game (``kind="games"``) played twice
from the same seed with the sides swapped: the first bot at seats 0 and 2, then at seats 1
and 3, the same cards, each seat's agent seeded as before. Pair ``i`` of a run seeded ``s``
plays the seed ``derive_seed(s, i)``: its first half is exactly task ``i`` of
:func:`guandan.bots.simulate.simulate` with the agents ``[A, B]`` and its second task ``i``
with ``[B, A]``. A pair scores what the first bot won of its two halves (a deal 1, a game
won 1, drawn ½), halved: 0, ½ or 1 (and ¼, ¾ for drawn games). The statistics are those of
:mod:`guandan.bots.elo`.

Pairs are independent and seeded from the run's seed, so a run's pairs are the same whatever
the number of workers or the executor; a sequential test decides on the pairs in their
order (pair 0, 1, 2, ... up to the first where the log-likelihood ratio crosses a bound), so
its decision is the same too. Pairs finished past the decision (by other workers) are kept
in the log but not counted.

**The log** (``out``): a JSON Lines file, its first line naming the run (the bots, the kind,
the seed, the rules), then one line per finished pair, written as it finishes: the same
call again reads it and plays only the pairs missing (:class:`ArenaLog`).

>>> run = head_to_head("greedy", "random", pairs=6, seed=1, workers=1)
>>> run.pairs, run.deals, run.wins, run.result
(6, 12, 12, None)
>>> run = head_to_head("greedy", "random", sprt=(0, 100), seed=1, workers=1)
>>> run.result, run.pairs, round(run.llr, 2), [round(x, 2) for x in run.bounds]
('H1', 12, 2.96, [-2.94, 2.94])
"""

from __future__ import annotations

import json
import math
import os
import signal
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, Literal

from ..core.rng import derive_seed
from ..errors import GuandanError, check_choice, check_int, describe
from ..game.rules import Ruleset, get_ruleset
from .elo import (
    LEVEL_SCORES,
    PAIR_SCORES,
    Z95,
    PairEstimate,
    Ratings,
    check_sprt,
    fit_ratings,
    level_score,
    llr,
    pair_estimate,
    sprt_bounds,
    sprt_result,
)
from .registry import AgentSpec, agent_name, make_agents, seat_specs
from .simulate import _check_directory, _stop_workers, run_task

__all__ = [
    "Kind",
    "Scoring",
    "SCORINGS",
    "PairResult",
    "play_pair",
    "play_pairs",
    "ArenaLog",
    "HeadToHead",
    "head_to_head",
    "Tournament",
    "tournament",
    "pairings",
    "ratio_interval",
    "FORMAT",
    "from_log",
    "kind_ruleset",
    "COMMAND",
    "Player",
]

Kind = Literal["deals", "games"]
#: What a pair scores: ``"wins"`` (the deals or games it won, halved) or ``"levels"``
#: (:func:`~guandan.bots.elo.level_score`: ½ + the levels a deal won less lost, over 6).
Scoring = Literal["wins", "levels"]
SCORINGS: tuple[str, ...] = ("wins", "levels")
#: The prefix of a bot started as a command (:mod:`guandan.platform.seated` seats it at a server).
COMMAND = "cmd:"
#: Plays pairs ``(a, b, pair)`` of a run: ``player(kind, tasks, run_seed, specs, ruleset)`` (:func:`play_pairs`).
Player = Callable[[Any, Sequence[tuple[int, int, int]], int, Sequence[AgentSpec], str], list["PairResult"]]
#: The first line of an arena log names its format.
FORMAT = "guandan-arena"
#: The scores of a pair of whole games: each won (1), drawn (½) or lost, the pair halved.
GAME_PAIR_SCORES: tuple[float, ...] = (0.0, 0.25, 0.5, 0.75, 1.0)
#: The level scores of a pair of whole games, to the nearest 1/48 (a pair of deals scores
#: one of :data:`~guandan.bots.elo.LEVEL_SCORES`, multiples of 1/12, exactly).
GAME_LEVEL_SCORES: tuple[float, ...] = tuple(i / 48 for i in range(49))


def _scores(kind: Kind, scoring: str = "wins") -> tuple[float, ...]:
    if scoring == "levels":
        return LEVEL_SCORES if kind == "deals" else GAME_LEVEL_SCORES
    return PAIR_SCORES if kind == "deals" else GAME_PAIR_SCORES


def _value(result: PairResult, scoring: str) -> float:
    """A pair's score: its wins, or its levels."""
    return result.level_score if scoring == "levels" else result.score


def _check_scoring(scoring: object) -> Scoring:
    return check_choice("--score", scoring, SCORINGS, "'wins' or 'levels'")  # type: ignore[no-any-return]


def _outcome(scores: tuple[float, ...], score: float) -> int:
    """The index of a pair's score among the outcomes."""
    return min(range(len(scores)), key=lambda i: abs(scores[i] - score))


@dataclass(frozen=True)
class PairResult:
    """One pair: bot ``a`` against bot ``b`` (indices of the run's bots) on pair ``pair``
    (seed ``seed``). Per half (``a`` at seats 0 and 2, then at 1 and 3): the deals played,
    the deals ``a`` won, ``a``'s levels gained less ``b``'s, and ``a``'s points (a deal or
    game won 1, a drawn game ½).

    >>> r = play_pair("deals", 0, 7, ["greedy", "random"]); r.deals, r.won, r.score
    ((1, 1), (1, 1), 1.0)
    """

    a: int
    b: int
    pair: int
    seed: int
    deals: tuple[int, int]
    won: tuple[int, int]
    levels: tuple[int, int]
    points: tuple[float, float]

    @property
    def score(self) -> float:
        """``a``'s score of the pair: its points over the two halves, halved (0, ¼, ½, ¾ or 1)."""
        return (self.points[0] + self.points[1]) / 2

    @property
    def level_score(self) -> float:
        """``a``'s level score of the pair: ½ + its levels a deal won less lost, over 6
        (:func:`~guandan.bots.elo.level_score`): 0 to 1, ½ when the levels cancel."""
        return level_score(sum(self.levels), sum(self.deals))

    def to_json(self) -> dict[str, Any]:
        """As a log line's object."""
        return {"a": self.a, "b": self.b, "pair": self.pair, "seed": self.seed, "deals": list(self.deals),
                "won": list(self.won), "levels": list(self.levels), "points": list(self.points)}  # fmt: skip

    @classmethod
    def from_json(cls, data: Any) -> PairResult:
        """Read a log line's object (:class:`~guandan.GuandanError` when it is not one)."""
        try:
            return cls(int(data["a"]), int(data["b"]), int(data["pair"]), int(data["seed"]),
                       _two(data["deals"], int), _two(data["won"], int), _two(data["levels"], int),
                       _two(data["points"], float))  # fmt: skip
        except (KeyError, TypeError, ValueError):
            raise GuandanError(f"not a pair's result: {describe(data)}") from None


def _two(values: Any, kind: Callable[[Any], Any]) -> Any:
    if not isinstance(values, list) or len(values) != 2:
        raise ValueError("two values")
    return (kind(values[0]), kind(values[1]))


def play_pair(
    kind: Kind, pair: int, run_seed: int, specs: Sequence[AgentSpec], ruleset: str | None = None, a: int = 0, b: int = 1
) -> PairResult:
    """Play pair ``pair`` of a run seeded ``run_seed`` between bots ``specs[a]`` and
    ``specs[b]``: its deal (or game) with ``a`` at seats 0 and 2, then with ``a`` at 1 and 3."""
    if any(isinstance(s, str) and s.strip().startswith(COMMAND) for s in (specs[a], specs[b])):
        raise GuandanError(
            f"a bot started as a command ({COMMAND}...) plays through a server: give "
            "player=guandan.platform.seated.play_pairs_served (guandan arena does)"
        )
    rules = kind_ruleset(kind, ruleset).name
    deals, won, levels, points = [], [], [], []
    for side, order in ((0, [specs[a], specs[b]]), (1, [specs[b], specs[a]])):
        rows = run_task("deal" if kind == "deals" else "match", pair, run_seed, seat_specs(order), rules)
        deals.append(len(rows))
        won.append(sum(r["winner_side"] == side for r in rows))
        levels.append(sum(r["levels_gained"] * (1 if r["winner_side"] == side else -1) for r in rows))
        if kind == "deals":
            points.append(float(won[-1]))
        else:
            winner = rows[-1].get("match_winner")
            points.append(0.5 if winner is None else float(winner == side))
    return PairResult(a, b, pair, derive_seed(run_seed, pair), (deals[0], deals[1]), (won[0], won[1]),
                      (levels[0], levels[1]), (points[0], points[1]))  # fmt: skip


def play_pairs(
    kind: Kind, tasks: Sequence[tuple[int, int, int]], run_seed: int, specs: Sequence[AgentSpec], ruleset: str
) -> list[PairResult]:
    """Play the pairs ``(a, b, pair)`` in order (the unit of work sent to an executor)."""
    return [play_pair(kind, pair, run_seed, specs, ruleset, a, b) for a, b, pair in tasks]


def _default_ruleset(kind: Kind) -> str:
    """Deals at level 2 under the project's default rules; whole games under the platform's."""
    return "competitive_2022" if kind == "deals" else "platform"


def kind_ruleset(kind: str, ruleset: str | None) -> Ruleset:
    """The rules of a run: ``ruleset``, or by default ``competitive_2022`` for deals and
    ``platform`` for whole games.

    >>> kind_ruleset("games", None).name, kind_ruleset("deals", "nanjing").name
    ('platform', 'nanjing')
    """
    return get_ruleset(ruleset if ruleset is not None else _default_ruleset(_check_kind(kind)))


def _check_kind(kind: object) -> Kind:
    return check_choice("kind", kind, ("deals", "games"), "'deals' or 'games'")  # type: ignore[no-any-return]


# -- the log --------------------------------------------------------------------------------------


class ArenaLog:
    """A run's log, a JSON Lines file: its first line names the run (``{"format":
    "guandan-arena", "bots": [...], "kind", "seed", "ruleset"}``), the lines after it are the
    options of each start of the run (``{"run": {...}}``) and one line per finished pair
    (:meth:`PairResult.to_json`). Opening a log of the same run reads the pairs it holds; a log
    of another run, or a file that is not a log, is refused. A last line cut short (the run
    was killed while writing it) is dropped.

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "run.jsonl")
    >>> log = ArenaLog(path, {"bots": ["greedy", "random"], "kind": "deals", "seed": 1, "ruleset": "competitive_2022"})
    >>> log.add(play_pair("deals", 0, 1, ["greedy", "random"])); log.close()
    >>> len(ArenaLog.read(path)[1])
    1
    """

    def __init__(self, path: str, header: dict[str, Any]) -> None:
        self.path = path
        self.header = {"format": FORMAT, **header}
        self.results: dict[tuple[int, int, int], PairResult] = {}
        _check_directory(path, "--out")
        if os.path.exists(path) and os.path.getsize(path) > 0:
            found, results, keep = ArenaLog._read(path)
            mine = {k: self.header[k] for k in ("bots", "kind", "seed", "ruleset")}
            theirs = {k: found.get(k) for k in mine}
            if mine != theirs:
                differ = ", ".join(f"{k} {theirs[k]!r} (not {mine[k]!r})" for k in mine if mine[k] != theirs[k])
                raise GuandanError(
                    f"--out: {path!r} is the log of another run: {differ}; give the same options to "
                    "continue it, or another file"
                )
            self.results = {(r.a, r.b, r.pair): r for r in results}
            if keep < os.path.getsize(path):
                with open(path, "r+b") as f:
                    f.truncate(keep)  # a line cut short by a kill
            self._file = open(path, "a", encoding="utf-8")  # noqa: SIM115 - closed by close()
        else:
            self._file = open(path, "w", encoding="utf-8")  # noqa: SIM115 - closed by close()
            self._write(self.header)

    @staticmethod
    def read(path: str) -> tuple[dict[str, Any], list[PairResult], list[dict[str, Any]]]:
        """A log's header, its pairs (each once, in the order written) and the options of each start."""
        header, results, _keep = ArenaLog._read(path)
        return header, results, header.get("_runs", [])

    @staticmethod
    def _read(path: str) -> tuple[dict[str, Any], list[PairResult], int]:
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as error:
            raise GuandanError(f"cannot read {path!r}: {error.strerror}") from None
        lines = data.split(b"\n")
        complete = data.endswith(b"\n")
        keep = len(data) if complete else len(data) - len(lines[-1])
        if not complete:
            lines = lines[:-1]
        try:
            header = json.loads(lines[0]) if lines else None
        except (ValueError, UnicodeDecodeError):
            header = None
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise GuandanError(f"{path!r} is not an arena log (its first line does not name the {FORMAT} format)")
        results: dict[tuple[int, int, int], PairResult] = {}
        runs: list[dict[str, Any]] = []
        for number, line in enumerate(lines[1:], start=2):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
            except (ValueError, UnicodeDecodeError):
                raise GuandanError(f"{path!r}, line {number}: not JSON") from None
            if isinstance(item, dict) and "run" in item:
                runs.append(item["run"])
                continue
            try:
                result = PairResult.from_json(item)
            except GuandanError as error:
                raise error.in_context(f"{path!r}, line {number}") from None
            results.setdefault((result.a, result.b, result.pair), result)
        header["_runs"] = runs
        return header, list(results.values()), keep

    def _write(self, item: dict[str, Any]) -> None:
        self._file.write(json.dumps(item) + "\n")
        self._file.flush()

    def start(self, options: dict[str, Any]) -> None:
        """Note the options of this start of the run."""
        self._write({"run": options})

    def add(self, result: PairResult) -> None:
        """Append a finished pair (written at once)."""
        self.results.setdefault((result.a, result.b, result.pair), result)
        self._write(result.to_json())

    def close(self) -> None:
        """Close the file."""
        self._file.close()


# -- playing the pairs ------------------------------------------------------------------------


def _play(
    kind: Kind,
    tasks: Sequence[tuple[int, int, int]],
    run_seed: int,
    specs: Sequence[AgentSpec],
    ruleset: str,
    known: dict[tuple[int, int, int], PairResult],
    finished: Callable[[PairResult], bool],
    workers: int,
    executor: Executor | None,
    chunk: int,
    player: Player,
) -> None:
    """Play the tasks not in ``known`` and give each result to ``finished`` (in task order
    in this process; in any order with workers), until ``finished`` says the run is decided."""
    todo = [t for t in tasks if t not in known]
    if executor is None and workers <= 1:
        for task in todo:
            if finished(player(kind, [task], run_seed, specs, ruleset)[0]):
                return
        return
    own = executor is None
    pool = ProcessPoolExecutor(workers, initializer=_worker_setup) if own else executor
    assert pool is not None
    chunks = [todo[i : i + chunk] for i in range(0, len(todo), chunk)]
    ahead = 2 * workers if own else 2 * max(workers, 1)
    pending: set[Future[list[PairResult]]] = set()
    position = 0
    try:
        while position < len(chunks) or pending:
            while position < len(chunks) and len(pending) < ahead:
                pending.add(pool.submit(player, kind, chunks[position], run_seed, specs, ruleset))
                position += 1
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                for result in future.result():
                    if finished(result):
                        for other in pending:
                            other.cancel()
                        return
    except KeyboardInterrupt:
        if own:
            _stop_workers(pool)  # the pairs queued to them are not played; those logged stay
        raise
    finally:
        if own:
            pool.shutdown(wait=True, cancel_futures=True)


def _worker_setup() -> None:
    """A worker of the arena's own pool ends at Ctrl-C at once (as simulate's)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def ratio_interval(x: Sequence[float], y: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """``Σx / Σy`` over pairs (deals won over deals played, levels over deals) and its
    interval (95% by default) from the pairs' variance (the delta method): the value, low, high.

    >>> [round(v, 3) for v in ratio_interval([2, 1, 1, 0], [2, 2, 2, 2])]
    [0.5, 0.1, 0.9]
    """
    n = len(x)
    total = sum(y)
    if n == 0 or total == 0:
        return (0.0, -math.inf, math.inf)
    ratio = sum(x) / total
    spread = sum((xi - ratio * yi) ** 2 for xi, yi in zip(x, y)) / max(1, n - 1)
    half = z * math.sqrt(spread / n) / (total / n)
    return (ratio, ratio - half, ratio + half)


def _settings(bots: Sequence[AgentSpec], kind: object, seed: object, ruleset: str | None) -> tuple[Kind, int, str]:
    kind = _check_kind(kind)
    seed = check_int("seed", seed)
    for spec in bots:
        if isinstance(spec, str) and spec.strip().startswith(COMMAND):
            if not spec.strip()[len(COMMAND) :].strip():
                raise GuandanError(f"bot {describe(spec)}: no command after {COMMAND}")
            continue  # a program: its server seats it (guandan.platform.seated checks the rest)
        make_agents([spec], 0)  # a bad spec, or a bad option, is refused before any pair
    return kind, seed, kind_ruleset(kind, ruleset).name


# -- head to head -----------------------------------------------------------------------------


@dataclass
class HeadToHead:
    """A run of bot ``bots[0]`` against ``bots[1]``: the pairs counted (in order, up to the
    decision of a sequential test), and what they say (see :meth:`summary`)."""

    bots: list[str]
    kind: Kind
    seed: int
    ruleset: str
    results: list[PairResult]
    sprt: tuple[float, float] | None = None
    alpha: float = 0.05
    beta: float = 0.05
    past: int = 0  #: pairs finished past the decision (logged, not counted)
    target: int | None = None  #: the pairs the run plays at most (``pairs``, or the test's ``max_pairs``)
    scoring: Scoring = "wins"  #: what a pair scores: its wins, or its levels
    history: list[float] = field(default_factory=list)  #: the log-likelihood ratio after each pair
    _counts: list[int] = field(default_factory=list, repr=False)

    @property
    def pairs(self) -> int:
        """Pairs counted."""
        return len(self.results)

    @property
    def deals(self) -> int:
        """Deals played in the pairs counted."""
        return sum(sum(r.deals) for r in self.results)

    @property
    def wins(self) -> int:
        """Deals the first bot won."""
        return sum(sum(r.won) for r in self.results)

    def counts(self) -> list[int]:
        """How many pairs scored each pair score (by wins, 0, ½, 1 for deals, 0, ¼, ..., 1 for
        games; by levels, the thirteen :data:`~guandan.bots.elo.LEVEL_SCORES` for deals, 0 to 1
        in steps of 1/48 for games)."""
        if len(self._counts) != len(_scores(self.kind, self.scoring)):
            self._counts = [0] * len(_scores(self.kind, self.scoring))
        return list(self._counts)

    def count(
        self,
        known: dict[tuple[int, int, int], PairResult],
        total: int,
        decide: bool,
        progress: Callable[[HeadToHead], None] | None = None,
    ) -> bool:
        """Count the next pairs in order while ``known`` holds them, up to ``total``; ``True``
        once the run is over (``total`` counted, or with ``decide`` the test decided)."""
        scores = _scores(self.kind, self.scoring)
        self.counts()
        bounds = self.bounds
        if decide and bounds is not None and self.history and sprt_result(self.history[-1], bounds):
            return True  # decided already: no pair after the decision counts
        while self.pairs < total and (0, 1, self.pairs) in known:
            result = known[(0, 1, self.pairs)]
            self.results.append(result)
            self._counts[_outcome(scores, _value(result, self.scoring))] += 1
            if self.sprt is not None:
                self.history.append(llr(self._counts, self.sprt[0], self.sprt[1], scores))
            if progress is not None:
                progress(self)
            if decide and bounds is not None and sprt_result(self.history[-1], bounds):
                return True
        return self.pairs >= total

    @property
    def complete(self) -> bool:
        """Whether the run is over: the test decided, or every pair of it was counted (a run
        read from the log of an interrupted one is not)."""
        if self.sprt is not None and self.history and self.bounds is not None:
            if sprt_result(self.history[-1], self.bounds) and (self.target is None or self.pairs <= self.target):
                return True
        return self.target is None or self.pairs >= self.target

    @property
    def bounds(self) -> tuple[float, float] | None:
        """The SPRT's bounds, ``None`` without a test."""
        return sprt_bounds(self.alpha, self.beta) if self.sprt is not None else None

    @property
    def llr(self) -> float | None:
        """The log-likelihood ratio of the pairs counted, ``None`` without a test."""
        if self.sprt is None:
            return None
        return llr(self.counts(), self.sprt[0], self.sprt[1], _scores(self.kind, self.scoring))

    @property
    def result(self) -> str | None:
        """``"H1"``, ``"H0"``, ``"inconclusive"`` (the pairs ran out first), ``None`` without a test."""
        if self.sprt is None:
            return None
        value, bounds = self.llr, self.bounds
        assert value is not None and bounds is not None
        return sprt_result(value, bounds) or "inconclusive"

    def estimate(self) -> PairEstimate:
        """The first bot's score and Elo with their 95% intervals (:func:`~guandan.bots.elo.pair_estimate`)."""
        return pair_estimate(self.counts(), _scores(self.kind, self.scoring))

    def summary(self) -> dict[str, Any]:
        """Everything as JSON values: ``result``, ``llr``, ``bounds``, ``pairs``, ``deals``,
        ``wins`` (deals won by the first bot), ``elo``, ``elo_ci``, ``score``, ``score_ci``,
        ``win_rate`` and ``win_rate_ci`` (deals won), ``levels_per_deal`` and its interval,
        ``pair_counts`` (pairs by score), and for games ``games``, ``games_won``, ``games_drawn``.
        The same whatever the workers (the pairs other workers finished past a decision, which
        depend on them, are :attr:`past`, not here)."""
        estimate = self.estimate()
        rate = ratio_interval([sum(r.won) for r in self.results], [sum(r.deals) for r in self.results])
        levels = ratio_interval([sum(r.levels) for r in self.results], [sum(r.deals) for r in self.results])
        out: dict[str, Any] = {
            "bots": self.bots, "kind": self.kind, "seed": self.seed, "ruleset": self.ruleset,
            "sprt": None if self.sprt is None else {"elo0": self.sprt[0], "elo1": self.sprt[1],
                                                    "alpha": self.alpha, "beta": self.beta},
            "result": self.result, "llr": self.llr, "bounds": None if self.bounds is None else list(self.bounds),
            "pairs": self.pairs, "deals": self.deals, "wins": self.wins,
            "elo": estimate.to_json()["elo"], "elo_ci": estimate.to_json()["elo_ci"],
            "score": estimate.score, "score_ci": list(estimate.score_ci),
            "win_rate": rate[0], "win_rate_ci": [max(0.0, rate[1]), min(1.0, rate[2])],
            "levels_per_deal": levels[0], "levels_per_deal_ci": [levels[1], levels[2]],
            "scoring": self.scoring, "pair_counts": self.counts(),
            "pair_scores": list(_scores(self.kind, self.scoring)), "complete": self.complete,
        }  # fmt: skip
        if self.kind == "games":
            points = [p for r in self.results for p in r.points]
            out.update(games=len(points), games_won=points.count(1.0), games_drawn=points.count(0.5))
        for key in ("win_rate_ci", "levels_per_deal_ci"):
            out[key] = [x if math.isfinite(x) else None for x in out[key]]
        return out

    def progress(self) -> str:
        """The one-line state: pairs, score, Elo ± interval, the LLR against its bounds.

        >>> head_to_head("greedy", "random", pairs=2, seed=1, workers=1).progress()
        'pairs 2 (4 deals)  score 1.000 (2-0-0)  Elo +inf [+inf, +inf]'
        """
        e = self.estimate()
        counts = self.counts()
        tally = " (" + "-".join(str(c) for c in reversed(counts)) + ")" if self.scoring == "wins" else " by levels"
        line = (f"pairs {self.pairs} ({self.deals} deals)  score {e.score:.3f}{tally}  "
                f"Elo {_elo_text(e.elo)} [{_elo_text(e.elo_ci[0])}, {_elo_text(e.elo_ci[1])}]")  # fmt: skip
        if self.sprt is not None:
            low, high = sprt_bounds(self.alpha, self.beta)
            line += f"  LLR {self.llr:+.2f} [{low:.2f}, {high:.2f}]"
        return line

    def format(self) -> str:
        """The result for the terminal, a few lines."""
        s = self.summary()
        a, b = self.bots
        unit = "deal" if self.kind == "deals" else "game"
        lines = [f"{a} against {b}: {self.pairs} pairs of {unit}s (each {unit} twice, the sides swapped), "
                 f"seed {self.seed}, {self.ruleset}"]  # fmt: skip
        if not self.complete:
            lines[0] += f"; unfinished: {self.pairs} of {self.target} pairs so far"
        if self.sprt is not None:
            low, high = s["bounds"]
            lines.append(f"SPRT elo0={self.sprt[0]:g} elo1={self.sprt[1]:g} alpha={self.alpha:g} beta={self.beta:g}: "
                         f"{s['result']} (LLR {s['llr']:+.2f}, bounds [{low:.2f}, {high:.2f}])")  # fmt: skip
        e = self.estimate()
        if self.scoring == "levels":
            levels = [r.levels[0] + r.levels[1] for r in self.results]
            if self.kind == "deals":
                counts = " ".join(f"{n:+d}:{c}" for n, c in zip(range(-6, 7), self.counts()) if c)
                lines.append(f"pairs scored by levels, ½ + (levels won less lost)/12: {counts or 'none'}")
            else:
                lines.append(f"pairs scored by levels, ½ + (levels a deal won less lost)/6: levels won less lost "
                             f"a pair {min(levels, default=0):+d} to {max(levels, default=0):+d}")  # fmt: skip
        elif self.kind == "deals":
            counts = ", ".join(f"{n} {c}" for n, c in zip(["lost both", "won one", "won both"], self.counts()))
            lines.append(f"pairs: {counts}")
        else:
            counts = ", ".join(str(c) for c in self.counts())
            lines.append(f"pairs scoring 0, ¼, ½, ¾, 1 (a game won 1, drawn ½, the pair halved): {counts}")
        lines.append(f"{'level ' if self.scoring == 'levels' else ''}Elo {_elo_text(e.elo)} [{_elo_text(e.elo_ci[0])}, "
                     f"{_elo_text(e.elo_ci[1])}] (95%, from the pairs' variance); score {e.score:.3f} "
                     f"[{e.score_ci[0]:.3f}, {e.score_ci[1]:.3f}]")  # fmt: skip
        rate, ci = s["win_rate"], s["win_rate_ci"]
        lines.append(f"deals won by {a}: {self.wins} of {self.deals}, {rate:.1%} [{ci[0]:.1%}, {ci[1]:.1%}]; "
                     f"levels a deal {s['levels_per_deal']:+.3f} "
                     f"[{_num(s['levels_per_deal_ci'][0])}, {_num(s['levels_per_deal_ci'][1])}]")  # fmt: skip
        if self.kind == "games":
            lines.append(f"games won by {a}: {s['games_won']} of {s['games']} ({s['games_drawn']} drawn)")
        if self.past:
            lines.append(f"({self.past} more pairs finished past the decision: logged, not counted)")
        return "\n".join(lines)

    def plot(self, path: str) -> None:
        """Draw the run to ``path`` (needs matplotlib): the log-likelihood ratio after each pair
        against the test's bounds, and the Elo with its 95% interval as the pairs come."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import numpy as np

        scores = np.array([_value(r, self.scoring) for r in self.results], dtype=float)
        n = np.arange(1, len(scores) + 1)
        mean = np.cumsum(scores) / n
        spread = np.sqrt(np.maximum(np.cumsum(scores * scores) / n - mean * mean, 0.0) / n)
        low, high = np.clip(mean - Z95 * spread, 0.0, 1.0), np.clip(mean + Z95 * spread, 0.0, 1.0)

        def elo(s: np.ndarray) -> np.ndarray:
            clipped = np.clip(s, 1e-3, 1 - 1e-3)  # drawn at ±1200 at most
            out: np.ndarray = 400 * np.log10(clipped / (1 - clipped))
            return out

        panels = 2 if self.sprt is not None else 1
        fig, axes = plt.subplots(1, panels, figsize=(5.5 * panels, 4), squeeze=False)
        ax = axes[0][0]
        ax.plot(n, elo(mean), label="Elo")
        ax.fill_between(n, elo(low), elo(high), alpha=0.25, label="95% interval")
        ax.axhline(0, color="grey", lw=0.8, ls="--")
        ax.set_xlabel("pairs")
        ax.set_ylabel(f"Elo of {self.bots[0]}")
        ax.set_title(f"{self.bots[0]} against {self.bots[1]}")
        ax.legend(loc="best")
        if self.sprt is not None:
            bounds = sprt_bounds(self.alpha, self.beta)
            ax = axes[0][1]
            ax.plot(n, self.history[: len(n)], label="LLR")
            ax.axhline(bounds[1], color="green", lw=0.8, ls="--", label=f"H1 (Elo {self.sprt[1]:g})")
            ax.axhline(bounds[0], color="red", lw=0.8, ls="--", label=f"H0 (Elo {self.sprt[0]:g})")
            ax.set_xlabel("pairs")
            ax.set_ylabel("log-likelihood ratio")
            ax.set_title(f"SPRT: {self.result}")
            ax.legend(loc="best")
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)


def _elo_text(x: float) -> str:
    return f"{x:+.0f}" if math.isfinite(x) else ("+inf" if x > 0 else "-inf")


def _num(x: float | None) -> str:
    return "?" if x is None else f"{x:+.3f}"


def head_to_head(
    a: AgentSpec,
    b: AgentSpec,
    *,
    sprt: tuple[float, float] | None = None,
    alpha: float = 0.05,
    beta: float = 0.05,
    pairs: int | None = None,
    max_pairs: int = 20000,
    kind: Kind = "deals",
    scoring: Scoring = "wins",
    seed: int = 0,
    ruleset: str | None = None,
    workers: int | None = None,
    executor: Executor | None = None,
    chunk: int | None = None,
    out: str | None = None,
    progress: Callable[[HeadToHead], None] | None = None,
    player: Player | None = None,
) -> HeadToHead:
    """Bot ``a`` against bot ``b`` on seeded pairs.

    With ``sprt=(elo0, elo1)``: a sequential test, stopping at the first pair where the
    log-likelihood ratio of H1 (``a`` is ``elo1`` stronger) against H0 (``elo0``) crosses a
    bound (``alpha``, ``beta``: the error rates), or at ``max_pairs`` (then
    ``"inconclusive"``). With ``pairs=N``: ``N`` pairs (and with ``sprt`` as well, the test
    is read at the end, not used to stop). ``kind``: ``"deals"`` (single deals at level 2,
    default rules ``competitive_2022``) or ``"games"`` (whole games, default rules
    ``platform``). ``scoring``: what a pair scores, ``"wins"`` (0, 1 or 2 deals or games won,
    halved) or ``"levels"`` (:attr:`PairResult.level_score`): the test, the Elo and the score
    are on it. ``workers`` processes (default: every core; 1 plays in this process), or
    any ``executor`` (a Dask cluster's ``get_executor()``); the result is the same.
    ``out``: the log (:class:`ArenaLog`): pairs already in it are not played again.
    ``progress``: called with the run so far after each pair counted. ``player``: what plays
    the pairs (default :func:`play_pairs`, in-process agents;
    :func:`guandan.platform.seated.play_pairs_served` seats programs at a server).
    """
    kind, seed, rules = _settings([a, b], kind, seed, ruleset)
    scoring = _check_scoring(scoring)
    if sprt is None and pairs is None:
        raise GuandanError("give sprt=(elo0, elo1), pairs=N, or both")
    if sprt is not None:
        check_sprt(sprt[0], sprt[1], alpha, beta)
    if pairs is not None:
        check_int("pairs", pairs, 1)
    check_int("max_pairs", max_pairs, 1)
    workers = check_int("workers", workers, 1) if workers is not None else (os.cpu_count() or 1)
    chunk = check_int("chunk", chunk, 1) if chunk is not None else 1
    total = pairs if pairs is not None else max_pairs
    names = [agent_name(a), agent_name(b)]
    run = HeadToHead(names, kind, seed, rules, [], sprt, alpha, beta, target=total, scoring=scoring)
    log = _open_log(out, names, kind, seed, rules, {"sprt": list(sprt) if sprt else None, "alpha": alpha,
                                                    "beta": beta, "pairs": pairs, "max_pairs": max_pairs,
                                                    "scoring": scoring})  # fmt: skip
    known = dict(log.results) if log is not None else {}
    decide = sprt is not None and pairs is None

    def finished(result: PairResult) -> bool:
        known[(result.a, result.b, result.pair)] = result
        if log is not None:
            log.add(result)
        return run.count(known, total, decide, progress)

    try:
        if not run.count(known, total, decide, progress):
            _play(kind, [(0, 1, i) for i in range(total)], seed, [a, b], rules, known, finished, workers, executor,
                  chunk, player or play_pairs)  # fmt: skip
            run.count(known, total, decide, progress)
    finally:
        if log is not None:
            log.close()
    run.past = sum(1 for (x, y, i) in known if (x, y) == (0, 1) and i >= run.pairs)
    return run


def _open_log(
    out: str | None, names: list[str], kind: Kind, seed: int, ruleset: str, options: dict[str, Any]
) -> ArenaLog | None:
    if out is None:
        return None
    log = ArenaLog(out, {"bots": names, "kind": kind, "seed": seed, "ruleset": ruleset})
    log.start(options)
    return log


# -- many bots --------------------------------------------------------------------------------


def pairings(bots: int, gauntlet: int | None = None) -> list[tuple[int, int]]:
    """The pairings of a round robin of ``bots`` bots, or of a gauntlet (bot ``gauntlet``
    against each other one).

    >>> pairings(3), pairings(3, gauntlet=1)
    ([(0, 1), (0, 2), (1, 2)], [(1, 0), (1, 2)])
    """
    if gauntlet is None:
        return [(i, j) for i in range(bots) for j in range(i + 1, bots)]
    return [(gauntlet, j) for j in range(bots) if j != gauntlet]


@dataclass
class Tournament:
    """Many bots, every pairing (a round robin) or one against the others (a gauntlet),
    each over the same seeded pairs; the ratings by maximum likelihood (:meth:`ratings`)."""

    bots: list[str]
    kind: Kind
    seed: int
    ruleset: str
    anchor: int
    results: list[PairResult]
    scoring: Scoring = "wins"  #: what a pair scores: its wins, or its levels

    def pairing_results(self) -> list[tuple[int, int, float, float, float]]:
        """Per pairing met: ``(a, b, points, pairs, square)`` (the first bot's pair scores' sum and squares)."""
        table: dict[tuple[int, int], list[float]] = {}
        for r in self.results:
            entry = table.setdefault((r.a, r.b), [0.0, 0.0, 0.0])
            value = _value(r, self.scoring)
            entry[0] += value
            entry[1] += 1
            entry[2] += value * value
        return [(a, b, p, n, q) for (a, b), (p, n, q) in sorted(table.items())]

    def ratings(self) -> Ratings:
        """The bots' ratings, the anchor at 0, with 95% intervals (:func:`~guandan.bots.elo.fit_ratings`)."""
        return fit_ratings(self.pairing_results(), len(self.bots), self.anchor)

    def summary(self) -> dict[str, Any]:
        """As JSON values: the bots with their ratings, intervals, pairs and scores, and each pairing."""
        ratings = self.ratings()
        played: dict[int, list[float]] = {}
        for r in self.results:
            value = _value(r, self.scoring)
            for bot, score in ((r.a, value), (r.b, 1 - value)):
                played.setdefault(bot, []).append(score)
        rows = []
        for i, name in enumerate(self.bots):
            scores = played.get(i, [])
            rows.append({"bot": name, "elo": ratings.elo[i], "elo_ci": list(ratings.ci[i]), "pairs": len(scores),
                         "score": sum(scores) / len(scores) if scores else None})  # fmt: skip
        pairs = [{"a": self.bots[a], "b": self.bots[b], "pairs": int(n), "score": p / n if n else None}
                 for a, b, p, n, _q in self.pairing_results()]  # fmt: skip
        return {"bots": rows, "anchor": self.bots[self.anchor], "dispersion": ratings.dispersion,
                "kind": self.kind, "seed": self.seed, "ruleset": self.ruleset, "scoring": self.scoring,
                "pairings": pairs, "pairs": len(self.results),
                "deals": sum(sum(r.deals) for r in self.results)}  # fmt: skip

    def format(self) -> str:
        """The ratings as a table, best first."""
        s = self.summary()
        width = max([4] + [len(r["bot"]) for r in s["bots"]])
        lines = [f"{len(self.bots)} bots, {s['pairs']} pairs ({s['deals']} deals), seed {self.seed}, {self.ruleset}; "
                 f"Elo by maximum likelihood{' on level scores' if self.scoring == 'levels' else ''}, "
                 f"{s['anchor']} at 0, 95% intervals",
                 "", f"{'rank':>4}  {'bot':{width}}  {'Elo':>6}  {'95% interval':>15}  {'pairs':>6}  "
                 f"{'score':>6}"]  # fmt: skip
        order = sorted(range(len(s["bots"])), key=lambda i: -s["bots"][i]["elo"])
        for rank, i in enumerate(order, 1):
            r = s["bots"][i]
            low, high = r["elo_ci"]
            ci = "anchor" if i == self.anchor else f"[{low:+.0f}, {high:+.0f}]"
            score = "" if r["score"] is None else f"{r['score']:.3f}"
            lines.append(f"{rank:>4}  {r['bot']:{width}}  {r['elo']:>+6.0f}  {ci:>15}  {r['pairs']:>6}  {score:>6}")
        return "\n".join(lines)

    def plot(self, path: str) -> None:
        """Draw the ratings with their intervals to ``path`` (needs matplotlib)."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        s = self.summary()
        order = sorted(range(len(self.bots)), key=lambda i: s["bots"][i]["elo"])
        fig, ax = plt.subplots(figsize=(7, 0.5 * len(self.bots) + 1.5))
        elo = [s["bots"][i]["elo"] for i in order]
        low = [s["bots"][i]["elo"] - s["bots"][i]["elo_ci"][0] for i in order]
        high = [s["bots"][i]["elo_ci"][1] - s["bots"][i]["elo"] for i in order]
        ax.errorbar(elo, range(len(order)), xerr=[low, high], fmt="o", capsize=4)
        ax.set_yticks(range(len(order)), [self.bots[i] for i in order])
        ax.axvline(0, color="grey", lw=0.8, ls="--")
        ax.set_xlabel(f"Elo ({self.bots[self.anchor]} at 0; 95% intervals)")
        ax.set_title(f"{s['pairs']} pairs of {self.kind}, seed {self.seed}")
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)


def tournament(
    bots: Sequence[AgentSpec],
    *,
    pairs: int,
    gauntlet: int | None = None,
    kind: Kind = "deals",
    scoring: Scoring = "wins",
    seed: int = 0,
    ruleset: str | None = None,
    workers: int | None = None,
    executor: Executor | None = None,
    chunk: int | None = None,
    out: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    player: Player | None = None,
) -> Tournament:
    """``pairs`` pairs of every pairing of ``bots`` (a round robin), or of bot ``gauntlet``
    against each other one, all on the same seeded pairs; ratings anchored at the first bot
    (a round robin) or the gauntlet's. Workers, executor, log: as :func:`head_to_head`.
    ``progress``: called with (pairs done, pairs) after each pair.

    >>> t = tournament(["greedy", "random", "greedy:bomb_threshold=0"], pairs=3, seed=2, workers=1)
    >>> [round(x) for x in t.ratings().elo][:2], len(t.results)
    ([0, -381], 9)
    """
    kind, seed, rules = _settings(bots, kind, seed, ruleset)
    scoring = _check_scoring(scoring)
    if len(bots) < 2:
        raise GuandanError(f"a tournament needs two bots or more, got {len(bots)}")
    check_int("pairs", pairs, 1)
    check_int("gauntlet", gauntlet, 0, len(bots) - 1, optional=True, expected=f"a bot 0..{len(bots) - 1}")
    workers = check_int("workers", workers, 1) if workers is not None else (os.cpu_count() or 1)
    chunk = check_int("chunk", chunk, 1) if chunk is not None else 1
    names = [agent_name(s) for s in bots]
    tasks = [(a, b, i) for a, b in pairings(len(bots), gauntlet) for i in range(pairs)]
    log = _open_log(out, names, kind, seed, rules, {"pairs": pairs, "gauntlet": gauntlet, "scoring": scoring})
    known = {k: v for k, v in (log.results.items() if log is not None else [])}
    done = sum(1 for t in tasks if t in known)

    def finished(result: PairResult) -> bool:
        nonlocal done
        known[(result.a, result.b, result.pair)] = result
        if log is not None:
            log.add(result)
        done += 1
        if progress is not None:
            progress(done, len(tasks))
        return False

    try:
        _play(kind, tasks, seed, list(bots), rules, known, finished, workers, executor, chunk, player or play_pairs)
    finally:
        if log is not None:
            log.close()
    anchor = 0 if gauntlet is None else gauntlet
    return Tournament(names, kind, seed, rules, anchor, [known[t] for t in tasks], scoring)


# -- a run's state from its log ----------------------------------------------------------------


def from_log(path: str) -> HeadToHead | Tournament:
    """The state of the run logged in ``path`` (:class:`ArenaLog`), read with the options of
    its last start: a head-to-head run's pairs counted so far (in order, up to a decision), or
    a tournament's pairs finished so far. Raises :class:`~guandan.GuandanError` for a file
    that is not an arena log.

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "run.jsonl")
    >>> _ = head_to_head("greedy", "random", sprt=(0, 100), seed=1, workers=1, out=path)
    >>> run = from_log(path); run.result, run.pairs
    ('H1', 12)
    """
    header, results, runs = ArenaLog.read(path)
    try:
        bots = [str(b) for b in header["bots"]]
        kind = _check_kind(header["kind"])
        seed, ruleset = int(header["seed"]), str(header["ruleset"])
    except (KeyError, TypeError, ValueError, GuandanError):
        raise GuandanError(f"{path!r}: the arena log's first line does not name its run") from None
    options = runs[-1] if runs else {}
    known = {(r.a, r.b, r.pair): r for r in results}
    scoring: Scoring = "levels" if options.get("scoring") == "levels" else "wins"
    if "gauntlet" in options or len(bots) != 2 or "sprt" not in options:
        gauntlet = options.get("gauntlet")
        anchor = gauntlet if isinstance(gauntlet, int) and 0 <= gauntlet < len(bots) else 0
        return Tournament(bots, kind, seed, ruleset, anchor, sorted(results, key=lambda r: (r.a, r.b, r.pair)), scoring)
    sprt = options.get("sprt")
    test = (float(sprt[0]), float(sprt[1])) if isinstance(sprt, list) and len(sprt) == 2 else None
    run = HeadToHead(bots, kind, seed, ruleset, [], test, float(options.get("alpha", 0.05)),
                     float(options.get("beta", 0.05)), scoring=scoring)  # fmt: skip
    pairs = options.get("pairs")
    total = int(pairs) if pairs is not None else int(options.get("max_pairs", 20000))
    run.target = total
    run.count(known, total, test is not None and pairs is None)
    run.past = sum(1 for (x, y, i) in known if (x, y) == (0, 1) and i >= run.pairs)
    return run
