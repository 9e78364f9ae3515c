"""Monte Carlo at scale: many seeded matches or deals with chosen agents, on any executor.

Task ``i`` of a run seeded ``s`` plays the match (or deal) seeded ``derive_seed(s, i)``
with agents made afresh for it, seat ``k``'s seeded ``derive_seed(derive_seed(s, i), k)``,
so a run's results are identical whatever the number of workers and whatever the
executor: the default process pool on every core, a thread or process pool of your own,
or a Dask cluster through ``distributed.Client(...).get_executor()``. Work is sent in
chunks of tasks; results come back as one row per deal, in task order.

The agents are given as in :mod:`guandan.bots.registry`: spec strings (``"greedy"``,
``"mc:think_ms=100"``, ``"mybots.strong:SearchBot"``), agent classes or factories,
or agent instances, one for all seats, one per side or one per seat. The agents are made
in the worker that plays the task, so what travels to a worker is the spec: a string is
resolved there (an import path must be importable in the worker too), a class, factory or
instance is pickled — it must be defined at the top level of an importable module (not in
``__main__`` of an interactive session, not a lambda; ``functools.partial`` of a class is
fine). An instance is deep-copied for every task and seat: its state is copied, never
shared between tasks, seats or runs.

>>> result = simulate(4, "greedy", seed=1, kind="deal", workers=1)
>>> len(result.rows), result.kind, sorted(result.rows[0])[:4]
(4, 'deal', ['agents', 'bombs', 'deal', 'finish_order'])
>>> simulate(4, "greedy", seed=1, kind="deal", workers=1).rows == result.rows
True

The summary: win rate per side with a 95% (Wilson) interval — matches won in match mode,
deals won in deal mode — the distribution of results (1-2, 1-3, 1-4 wins per side), levels
gained, deals per match, bombs and passes per deal, and throughput.
"""

from __future__ import annotations

import csv
import json
import math
import os
import pickle
import signal
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any, Literal

from ..core.moves import MoveType
from ..core.packed import word_type
from ..core.rng import derive_seed
from ..errors import GuandanError, check_choice, check_int, describe
from ..game.deal import Deal
from ..game.match import Match
from ..game.protocol import Game
from ..game.rules import get_ruleset
from ..game.scoring import DealResult
from ..records.games import record
from .agents import Agent
from .loop import AgentRaised, play_out
from .registry import AgentSpec, agent_name, make_agents, seat_specs

__all__ = [
    "simulate",
    "Simulation",
    "run_tasks",
    "record_name",
    "wilson_interval",
    "check_out",
    "check_plot",
    "check_records",
    "OUT_FORMATS",
]

Kind = Literal["match", "deal"]
#: One row of a run: one deal, as JSON values.
Row = dict[str, Any]


def _deal_counts(deal: Deal) -> list[int]:
    """A finished deal's bombs, passes and plies, read from its packed plays."""
    types = [word_type(hi) for _seat, _lo, hi in deal.packed_plays]
    return [sum(t >= MoveType.BOMB for t in types), types.count(MoveType.PASS), len(types)]


def _deal_row(
    task: int, seed: int, names: list[str], index: int, level: str, result: DealResult, counts: list[int], gain: int
) -> Row:
    order = list(result.finish_order)
    return {
        "task": task,
        "seed": seed,
        "agents": ",".join(names),
        "deal": index,
        "level": level,
        "finish_order": order,
        "winner_side": result.winning_side,
        "result": f"1-{result.partner_place}",
        "levels_gained": gain,
        "bombs": counts[0],
        "passes": counts[1],
        "plies": counts[2],
    }


def run_task(
    kind: Kind,
    task: int,
    run_seed: int,
    specs: list[AgentSpec],
    ruleset: str,
    names: list[str] | None = None,
    records: str | None = None,
    width: int = 6,
) -> list[Row]:
    """Play task ``task`` of a run: one match or one deal, with agents made from ``specs``
    (one per seat); one row per deal, naming the agents ``names``. ``records``: a directory
    where the game's record is written (:func:`record_name` names it, ``width`` digits)."""
    seed = derive_seed(run_seed, task)
    agents = make_agents(specs, seed)
    names = names or [agent_name(s) for s in specs]
    try:
        return _run(kind, task, seed, agents, names, ruleset, records, width)
    except GuandanError as error:
        raise error.in_context(f"task {task} (seed {seed})") from None
    except Exception as error:  # an agent's own error (the play loop noted its seat): say where
        for note in getattr(error, "__notes__", ()):
            if isinstance(note, AgentRaised):
                note.task, note.seed = task, seed
        error.add_note(f"in task {task} (seed {seed}) of the run")
        raise


def record_name(kind: Kind, task: int, width: int = 6) -> str:
    """The file name of task ``task``'s record in a run's records directory.

    >>> record_name("match", 7), record_name("deal", 12, width=3)
    ('match-000007.json', 'deal-012.json')
    """
    return f"{kind}-{task:0{width}d}.json"


def _write_record(records: str, kind: Kind, task: int, width: int, state: Game) -> None:
    path = os.path.join(records, record_name(kind, task, width))
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(json.dumps(record(state)) + "\n")
    except OSError as error:
        raise GuandanError(f"--records: cannot write {path!r}: {error}") from None


def _run(
    kind: Kind,
    task: int,
    seed: int,
    agents: list[Agent],
    names: list[str],
    ruleset: str,
    records: str | None = None,
    width: int = 6,
) -> list[Row]:
    rules = get_ruleset(ruleset)
    if kind == "deal":
        deal = Deal.new(seed=seed, level=2, ruleset=rules)
        try:
            play_out(deal, agents, names=names)
        except GuandanError as error:
            raise error.in_context("deal 0") from None  # a task's one deal
        if records is not None:
            _write_record(records, kind, task, width, deal)
        assert deal.result is not None
        gain = rules.gain(deal.result.partner_place)
        return [_deal_row(task, seed, names, 0, deal.level.letter, deal.result, _deal_counts(deal), gain)]
    match = Match(seed=seed, ruleset=rules)
    play_out(match, agents, names=names)
    if records is not None:
        _write_record(records, kind, task, width, match)
    rows = []
    for summary, log in zip(match.results, match.deal_logs):
        assert log.deal is not None
        gain = rules.gain(summary.result.partner_place)
        row = _deal_row(task, seed, names, summary.index, summary.level.letter, summary.result, _deal_counts(log.deal),
                        gain)  # fmt: skip
        row["levels_after"] = [x.letter for x in summary.levels_after]
        row["match_winner"] = match.winner
        rows.append(row)
    return rows


def run_tasks(
    kind: Kind,
    start: int,
    stop: int,
    run_seed: int,
    specs: list[AgentSpec],
    ruleset: str,
    names: list[str] | None = None,
    records: str | None = None,
    width: int = 6,
) -> list[list[Row]]:
    """Play tasks ``start..stop-1`` (the unit of work sent to an executor)."""
    return [run_task(kind, task, run_seed, specs, ruleset, names, records, width) for task in range(start, stop)]


def wilson_interval(wins: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default).

    >>> [round(x, 3) for x in wilson_interval(60, 100)]
    [0.502, 0.691]
    """
    if not (isinstance(n, int) and isinstance(wins, int) and 0 <= wins <= n):
        raise GuandanError(f"wilson_interval needs ints 0 <= wins <= n, got {describe(wins)}, {describe(n)}")
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    low = 0.0 if wins == 0 else max(0.0, centre - half)
    high = 1.0 if wins == n else min(1.0, centre + half)
    return (low, high)


@dataclass
class Simulation:
    """The rows of a run (one per deal, in task order) and what they add up to."""

    kind: Kind
    agents: list[str]
    seed: int
    ruleset: str
    tasks: int
    seconds: float
    rows: list[Row] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        """Win rates with 95% intervals, result distribution, levels, bombs, passes, throughput."""
        deals = len(self.rows)
        if self.kind == "match":
            winners = {}
            for row in self.rows:
                winners[row["task"]] = row.get("match_winner")
            decided = [w for w in winners.values() if w is not None]
            units, n_units = "matches", len(decided)
            wins = [sum(1 for w in decided if w == side) for side in (0, 1)]
        else:
            units, n_units = "deals", deals
            wins = [sum(1 for r in self.rows if r["winner_side"] == side) for side in (0, 1)]
        sides = []
        for side in (0, 1):
            low, high = wilson_interval(wins[side], n_units)
            won = [r for r in self.rows if r["winner_side"] == side]
            sides.append(
                {
                    "side": side,
                    "seats": f"{side} and {side + 2}",
                    "agents": f"{self.agents[side]} / {self.agents[side + 2]}",
                    f"{units}_won": wins[side],
                    "win_rate": wins[side] / n_units if n_units else 0.0,
                    "ci95": [low, high],
                    "deals_won": len(won),
                    "results": {name: sum(1 for r in won if r["result"] == name) for name in ("1-2", "1-3", "1-4")},
                    "levels_gained": sum(r["levels_gained"] for r in won),
                }
            )
        return {
            "kind": self.kind,
            "tasks": self.tasks,
            "units": units,
            "deals": deals,
            "deals_per_match": deals / self.tasks if self.kind == "match" and self.tasks else None,
            "bombs_per_deal": sum(r["bombs"] for r in self.rows) / deals if deals else 0.0,
            "passes_per_deal": sum(r["passes"] for r in self.rows) / deals if deals else 0.0,
            "plies_per_deal": sum(r["plies"] for r in self.rows) / deals if deals else 0.0,
            "seconds": self.seconds,
            "deals_per_s": deals / self.seconds if self.seconds else 0.0,
            "sides": sides,
        }

    def write(self, path: str) -> None:
        """Write the rows to ``path`` in the format its suffix names (:data:`OUT_FORMATS`):
        ``.jsonl`` JSON Lines (one row a line), ``.json`` one JSON array (a row a line),
        ``.csv`` CSV (a column per key, lists space-separated)."""
        check_out(path)
        if path.endswith(".csv"):
            keys = list(dict.fromkeys(k for row in self.rows for k in row))  # the rows' order, as JSON Lines keep it
            with open(path, "w", newline="", encoding="utf-8") as f:
                writer = csv.DictWriter(f, fieldnames=keys)
                writer.writeheader()
                for row in self.rows:
                    writer.writerow({k: (" ".join(map(str, v)) if isinstance(v, list) else v) for k, v in row.items()})
        elif path.endswith(".jsonl"):
            with open(path, "w", encoding="utf-8") as f:
                for row in self.rows:
                    f.write(json.dumps(row) + "\n")
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write("[\n" + ",\n".join(json.dumps(row) for row in self.rows) + ("\n]\n" if self.rows else "]\n"))

    def plot(self, path: str) -> None:
        """Draw the win-rate convergence (side 0, with its 95% band) and the result distribution
        (the format by the suffix: ``.png``, ``.svg``, ``.pdf``; needs matplotlib)."""
        check_plot(path)
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        summary = self.summary()
        if self.kind == "match":
            outcomes = []
            seen = set()
            for row in self.rows:
                if row["task"] not in seen and row.get("match_winner") is not None:
                    seen.add(row["task"])
                    outcomes.append(1 if row["match_winner"] == 0 else 0)
        else:
            outcomes = [1 if r["winner_side"] == 0 else 0 for r in self.rows]
        xs, rate, low, high, won = [], [], [], [], 0
        for i, o in enumerate(outcomes, 1):
            won += o
            lo, hi = wilson_interval(won, i)
            xs.append(i)
            rate.append(won / i)
            low.append(lo)
            high.append(hi)
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
        (line,) = ax1.plot(xs, rate, label=f"side 0 ({summary['sides'][0]['agents']})")
        line.set_gid("win_rate")  # the SVG's ids: what a test reads
        ax1.patch.set_gid("win_rate_axes")
        ax1.fill_between(xs, low, high, alpha=0.25, label="95% interval")
        ax1.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
        ax1.set_xlabel(summary["units"])
        ax1.set_ylabel("win rate")
        ax1.set_ylim(-0.04, 1.04)  # a rate of 0 or 1 drawn inside the frame, not under its edge
        ax1.set_yticks([0, 0.25, 0.5, 0.75, 1])
        ax1.set_title("win rate as the run goes on")
        ax1.legend(loc="lower right")
        names = ["1-2", "1-3", "1-4"]
        width = 0.38
        for k, side in enumerate(summary["sides"]):
            ax2.bar(
                [i + (k - 0.5) * width for i in range(3)],
                [side["results"][n] for n in names],
                width,
                label=f"side {side['side']} ({side['agents']})",
            )
        ax2.set_xticks(range(3), names)
        ax2.set_ylabel("deals won")
        ax2.set_title("results of the deals won")
        ax2.legend()
        fig.suptitle(f"{counted(self.tasks, self.kind)}, seed {self.seed}")
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)


#: The formats of :meth:`Simulation.write`, by suffix.
OUT_FORMATS = {".jsonl": "JSON Lines", ".json": "a JSON array", ".csv": "CSV"}


def _check_directory(path: str, option: str) -> None:
    if not isinstance(path, str) or not path:
        raise GuandanError(f"{option}: a file name, got {describe(path)}")
    directory = os.path.dirname(path) or "."
    if os.path.isdir(path):
        raise GuandanError(f"{option}: {path!r} is a directory, not a file")
    if not os.path.isdir(directory):
        raise GuandanError(f"{option}: no directory {directory!r} to write {os.path.basename(path)!r} in")
    if not os.access(directory, os.W_OK):
        raise GuandanError(f"{option}: cannot write in the directory {directory!r}")


def check_out(path: str, option: str = "--out") -> None:
    """Raise :class:`~guandan.GuandanError` unless :meth:`Simulation.write` can write
    ``path``: a known suffix (:data:`OUT_FORMATS`) in a directory that exists. The
    command line checks before a run, not after it.

    >>> check_out("runs.txt")
    Traceback (most recent call last):
    ...
    guandan.errors.GuandanError: --out: 'runs.txt' must end in .jsonl (JSON Lines), .json (a JSON array) or .csv (CSV)
    """
    if not isinstance(path, str) or not path.endswith(tuple(OUT_FORMATS)):
        formats = ", ".join(f"{suffix} ({name})" for suffix, name in OUT_FORMATS.items())
        raise GuandanError(f"{option}: {describe(path)} must end in {formats.replace(', .csv', ' or .csv')}")
    _check_directory(path, option)


def check_records(path: str, option: str = "--records") -> None:
    """Make the directory ``path`` for a run's records if it is missing, and raise
    :class:`~guandan.GuandanError` unless it can be written. The command line checks before
    a run, not after it.

    >>> check_records("/proc/no-such-place")
    Traceback (most recent call last):
    ...
    guandan.errors.GuandanError: --records: cannot create the directory '/proc/no-such-place': ...
    """
    if not isinstance(path, str) or not path:
        raise GuandanError(f"{option}: a directory, got {describe(path)}")
    if os.path.exists(path) and not os.path.isdir(path):
        raise GuandanError(f"{option}: {path!r} is a file, not a directory")
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as error:
        raise GuandanError(f"{option}: cannot create the directory {path!r}: {error.strerror}") from None
    if not os.access(path, os.W_OK):
        raise GuandanError(f"{option}: cannot write in the directory {path!r}")


def check_plot(path: str, option: str = "--plot") -> None:
    """Raise :class:`~guandan.GuandanError` unless :meth:`Simulation.plot` can draw to
    ``path``: matplotlib is installed, it writes the suffix's format, the directory exists."""
    try:
        from matplotlib.backend_bases import FigureCanvasBase
    except ImportError:
        raise GuandanError(f"{option} needs matplotlib: pip install '.[plot]' from the guandan checkout") from None
    _check_directory(path, option)
    suffix = os.path.splitext(path)[1].lower().lstrip(".")
    formats = FigureCanvasBase.get_supported_filetypes()
    if suffix not in formats:
        raise GuandanError(f"{option}: {path!r} must end in one of .{', .'.join(sorted(formats))}")


def simulate(
    n: int,
    agents: AgentSpec | Sequence[AgentSpec] = "greedy",
    *,
    seed: int = 0,
    kind: Kind = "match",
    ruleset: str = "competitive_2022",
    workers: int | None = None,
    executor: Executor | None = None,
    chunk: int | None = None,
    progress: bool | Callable[[int, int], None] = False,
    records: str | None = None,
) -> Simulation:
    """Play ``n`` seeded matches (or deals) with the given agents and collect one row per deal.

    ``agents``: one for all seats, two (one per side: seats 0 and 2, then 1 and 3) or four
    (seats 0..3), as a list or one string separated by commas (``"mc,greedy"``); each a
    spec string (``"greedy"``, ``"mc:think_ms=100"``, ``"mybots:Bot:depth=3"``), an
    agent class or factory, or an agent instance (see the module's description and
    :mod:`guandan.bots.registry`). ``executor``: any ``concurrent.futures.Executor`` (e.g.
    ``distributed.Client(...).get_executor()``); without one, ``workers`` processes
    (default: every core; ``workers=1`` runs in this process). ``progress``: ``True`` for
    a progress bar on stderr, or a callback ``(tasks done, tasks)``. ``records``: a directory
    (made if missing) where each task writes its game's record (:func:`guandan.records.games.record`,
    the format of ``guandan serve --records``), one file per match or deal, named by
    :func:`record_name` — a run of thousands of tasks writes thousands of files.

    >>> from guandan.bots.agents import RandomAgent
    >>> class Lowest:                                  # leads and answers with its weakest move
    ...     def act(self, observation):
    ...         return observation.legal_actions[0]
    >>> run = simulate(3, [Lowest(), RandomAgent], seed=2, kind="deal", workers=1)
    >>> run.agents, [r["winner_side"] for r in run.rows]
    (['guandan.bots.simulate:Lowest', 'random', 'guandan.bots.simulate:Lowest', 'random'], [0, 0, 0])
    """
    check_choice("kind", kind, ("match", "deal"), "'match' or 'deal'")
    n = check_int("n", n, 0)
    workers, chunk = check_int("workers", workers, 1, optional=True), check_int("chunk", chunk, 1, optional=True)
    specs = seat_specs(agents)
    names = [agent_name(spec) for spec in specs]
    ruleset_name = get_ruleset(ruleset).name
    if records is not None:
        check_records(records, "records")
        records = os.path.abspath(records)
    width = max(6, len(str(max(0, n - 1))))
    workers = workers or os.cpu_count() or 1
    chunk = chunk or max(1, min(64, n // (workers * 8) or 1))
    bounds = [(a, min(a + chunk, n)) for a in range(0, n, chunk)]
    rows: list[list[Row] | None] = [None] * n
    update = _progress(n, progress)
    started = time.perf_counter()
    own = executor is None and workers > 1
    if own:
        _check_picklable(specs, names)
    pool = ProcessPoolExecutor(workers, initializer=_worker_setup) if own else executor
    try:
        if pool is None:
            for a, b in bounds:
                done = run_tasks(kind, a, b, seed, specs, ruleset_name, names, records, width)
                for task, task_rows in zip(range(a, b), done):
                    rows[task] = task_rows
                update(b - a)
        else:
            futures: dict[Future[list[list[Row]]], tuple[int, int]] = {
                pool.submit(run_tasks, kind, a, b, seed, specs, ruleset_name, names, records, width): (a, b)
                for a, b in bounds
            }
            for future in as_completed(futures):
                a, b = futures[future]
                for task, task_rows in zip(range(a, b), future.result()):
                    rows[task] = task_rows
                update(b - a)
    except KeyboardInterrupt:
        if own and pool is not None:
            _stop_workers(pool)
        raise
    finally:
        if own and pool is not None:
            pool.shutdown(cancel_futures=True)  # after an error, the tasks not started are dropped
        update(0, done=True)
    seconds = time.perf_counter() - started
    flat = [row for task_rows in rows if task_rows for row in task_rows]
    return Simulation(kind, names, seed, ruleset_name, n, seconds, flat)


def _worker_setup() -> None:
    """In a worker of simulate's own pool: Ctrl-C (the terminal's SIGINT to the whole process
    group) ends the worker at once, even inside a native search, instead of ending only its
    current task and letting it start the next chunk already queued to it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _stop_workers(pool: Executor) -> None:
    """End the workers of simulate's own pool now, for an interrupt that reached this process
    only (a notebook's interrupt, ``kill -INT``): the chunks queued to them are not run."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14
    if terminate is not None:
        terminate()
        return
    processes = getattr(pool, "_processes", None) or {}  # before 3.14: the pool's own table
    for process in list(processes.values()):
        process.terminate()


def _check_picklable(specs: list[AgentSpec], names: list[str]) -> None:
    """Refuse, before the run, an agent that cannot be sent to worker processes."""
    for seat, (spec, name) in enumerate(zip(specs, names)):
        if isinstance(spec, str):
            continue
        try:
            pickle.dumps(spec)
        except (pickle.PicklingError, TypeError, AttributeError) as error:
            raise GuandanError(
                f"the agent of seat {seat} ({name}) cannot be sent to worker processes ({error}): define its "
                "class or factory at the top level of an importable module (not a lambda, not in an "
                "interactive session), give it as a spec 'module:Class', or run with workers=1"
            ) from None


def _progress(total: int, progress: bool | Callable[[int, int], None]) -> Callable[..., None]:
    """An update function ``update(tasks just done, done=False)``: a callback, a tqdm bar, or nothing."""
    count = 0
    if callable(progress):
        report = progress

        def call(k: int, done: bool = False) -> None:
            nonlocal count
            count += k
            if not done:
                report(count, total)

        return call
    if not progress:
        return lambda k, done=False: None
    from tqdm import tqdm

    bar = tqdm(total=total, unit="task", file=sys.stderr, dynamic_ncols=True)

    def tick(k: int, done: bool = False) -> None:
        bar.update(k)
        if done:
            bar.close()

    return tick


def counted(n: int, unit: str) -> str:
    """``n`` and its unit, singular or plural (``match``, ``deal``, ``matches``, ``deals`` alike).

    >>> counted(1, "matches"), counted(2, "match"), counted(1, "deals"), counted(100, "deal")
    ('1 match', '2 matches', '1 deal', '100 deals')
    """
    one = unit[:-2] if unit.endswith("ches") else unit.removesuffix("s")
    return f"{n} {one}" if n == 1 else f"{n} {one + 'es' if one.endswith('ch') else one + 's'}"


def format_summary(summary: dict[str, Any]) -> str:
    """The summary as a table for the terminal (the agents' column as wide as their names).

    >>> print(format_summary(simulate(1, "greedy", kind="deal", workers=1).summary()).splitlines()[0])
    1 deal in ... s (... deals/s)
    """
    units = summary["units"]
    width = max([22] + [len(s["agents"]) for s in summary["sides"]])
    played = counted(summary["deals"], "deal")
    if units != "deals":  # matches: how many, and their deals
        played = f"{counted(summary['tasks'], units)}, {played}"
    lines = [
        f"{played} in {summary['seconds']:.1f} s ({summary['deals_per_s']:.1f} deals/s)",
        "",
        f"{'side':6} {'agents':{width}} {units + ' won':>12} {'win rate':>9} {'95% interval':>17} "
        f"{'1-2':>6} {'1-3':>6} {'1-4':>6} {'levels':>7}",
    ]
    for s in summary["sides"]:
        low, high = s["ci95"]
        lines.append(
            f"{s['side']:<6} {s['agents']:{width}} {s[units + '_won']:>12} {s['win_rate']:>9.3f} "
            f"{f'[{low:.3f}, {high:.3f}]':>17} {s['results']['1-2']:>6} {s['results']['1-3']:>6} "
            f"{s['results']['1-4']:>6} {s['levels_gained']:>7}"
        )
    lines.append("")
    if summary["deals_per_match"] is not None:
        lines.append(f"deals per match {summary['deals_per_match']:.2f}; ")
    lines[-1] += (
        f"per deal: {summary['bombs_per_deal']:.2f} bombs, {summary['passes_per_deal']:.1f} passes, "
        f"{summary['plies_per_deal']:.1f} plays and passes"
    )
    return "\n".join(lines)
