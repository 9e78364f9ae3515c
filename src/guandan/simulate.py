"""Monte Carlo at scale: many seeded matches or deals with chosen agents, on any executor.

Task ``i`` of a run seeded ``s`` plays the match (or deal) seeded ``derive_seed(s, i)``
with agents seeded from it, so a run's results are identical whatever the number of
workers and whatever the executor: the default process pool on every core, a thread or
process pool of your own, or a Dask cluster through
``distributed.Client(...).get_executor()``. Work is sent in chunks of tasks; results come
back as one row per deal, in task order.

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
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any, Literal

from .agents import Agent
from .deal import Deal
from .errors import GuandanError, describe
from .history import Play
from .match import Match
from .registry import make_agents, seat_specs
from .rng import derive_seed
from .rules import get_ruleset

__all__ = ["simulate", "Simulation", "run_tasks", "wilson_interval"]

Kind = Literal["match", "deal"]
#: One row of a run: one deal, as JSON values.
Row = dict[str, Any]
_RESULT_NAMES = {3: "1-2", 2: "1-3", 1: "1-4"}


def _play(state: Any, agents: list[Agent], counters: dict[int, list[int]], deal_of: Callable[[], int]) -> None:
    """Let the agents act until the state is over, counting bombs, passes and plies per deal."""
    while not state.is_over:
        seat = state.turn
        index = deal_of()
        record = state.act(agents[seat].act(state.observation(seat)))
        if isinstance(record, Play):
            c = counters.setdefault(index, [0, 0, 0])
            c[2] += 1
            if record.is_pass:
                c[1] += 1
            elif record.move.is_bomb:
                c[0] += 1


def _deal_row(task: int, seed: int, names: list[str], index: int, level: int, result: Any, counts: list[int]) -> Row:
    order = list(result.finish_order)
    gain = 5 - result.partner_place  # partner 2nd: 3 levels, 3rd: 2, 4th: 1
    return {
        "task": task,
        "seed": seed,
        "agents": ",".join(names),
        "deal": index,
        "level": level,
        "finish_order": order,
        "winner_side": result.winning_side,
        "result": _RESULT_NAMES[gain],
        "levels_gained": gain,
        "bombs": counts[0],
        "passes": counts[1],
        "plies": counts[2],
    }


def run_task(kind: Kind, task: int, run_seed: int, names: list[str], ruleset: str) -> list[Row]:
    """Play task ``task`` of a run: one match or one deal; one row per deal."""
    seed = derive_seed(run_seed, task)
    agents = make_agents(names, seed)
    counters: dict[int, list[int]] = {}
    if kind == "deal":
        deal = Deal.new(seed=seed, level=2, ruleset=ruleset)
        _play(deal, agents, counters, lambda: 0)
        return [_deal_row(task, seed, names, 0, 2, deal.result, counters.get(0, [0, 0, 0]))]
    match = Match(seed=seed, ruleset=ruleset)
    _play(match, agents, counters, lambda: match.deal_index)
    rows = []
    for summary in match.results:
        row = _deal_row(
            task, seed, names, summary.index, int(summary.level), summary.result, counters.get(summary.index, [0, 0, 0])
        )
        row["levels_after"] = [int(x) for x in summary.levels_after]
        row["match_winner"] = match.winner
        rows.append(row)
    return rows


def run_tasks(kind: Kind, start: int, stop: int, run_seed: int, names: list[str], ruleset: str) -> list[list[Row]]:
    """Play tasks ``start..stop-1`` (the unit of work sent to an executor)."""
    return [run_task(kind, task, run_seed, names, ruleset) for task in range(start, stop)]


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
        """Write the rows as JSON lines (``.jsonl``/``.json``) or CSV (``.csv``)."""
        if path.endswith(".csv"):
            keys = sorted({k for row in self.rows for k in row})
            with open(path, "w", newline="", encoding="utf-8") as f:
                writer = csv.DictWriter(f, fieldnames=keys)
                writer.writeheader()
                for row in self.rows:
                    writer.writerow({k: (" ".join(map(str, v)) if isinstance(v, list) else v) for k, v in row.items()})
        elif path.endswith((".jsonl", ".json")):
            with open(path, "w", encoding="utf-8") as f:
                for row in self.rows:
                    f.write(json.dumps(row) + "\n")
        else:
            raise GuandanError(f"--out must end in .jsonl, .json or .csv: {describe(path)}")

    def plot(self, path: str) -> None:
        """Draw the win-rate convergence (side 0, with its 95% band) and the result distribution."""
        try:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError as error:  # pragma: no cover - exercised when the extra is missing
            raise RuntimeError("plotting needs matplotlib: pip install 'guandan[plot]'") from error
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
        ax1.plot(xs, rate, label=f"side 0 ({summary['sides'][0]['agents']})")
        ax1.fill_between(xs, low, high, alpha=0.25, label="95% interval")
        ax1.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
        ax1.set_xlabel(summary["units"])
        ax1.set_ylabel("win rate")
        ax1.set_ylim(0, 1)
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
        fig.suptitle(
            f"{self.tasks} {self.kind}es, seed {self.seed}"
            if self.kind == "match"
            else f"{self.tasks} deals, seed {self.seed}"
        )
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)


def simulate(
    n: int,
    agents: str | Sequence[str] = "greedy",
    *,
    seed: int = 0,
    kind: Kind = "match",
    ruleset: str = "competitive_2022",
    workers: int | None = None,
    executor: Executor | None = None,
    chunk: int | None = None,
    progress: bool | Callable[[int, int], None] = False,
) -> Simulation:
    """Play ``n`` seeded matches (or deals) with the given agents and collect one row per deal.

    ``agents``: one name for all seats or four (``"mc,greedy,mc,greedy"``; names as in
    :data:`guandan.registry.AGENTS`). ``executor``: any ``concurrent.futures.Executor``
    (e.g. ``distributed.Client(...).get_executor()``); without one, ``workers`` processes
    (default: every core; ``workers=1`` runs in this process). ``progress``: ``True`` for
    a progress bar on stderr, or a callback ``(tasks done, tasks)``.
    """
    if kind not in ("match", "deal"):
        raise GuandanError(f"kind must be 'match' or 'deal', got {describe(kind)}")
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise GuandanError(f"n must be an int >= 0, got {describe(n)}")
    for name, value in (("workers", workers), ("chunk", chunk)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise GuandanError(f"{name} must be an int >= 1 or None, got {describe(value)}")
    names = seat_specs(agents)
    ruleset_name = get_ruleset(ruleset).name
    workers = workers or os.cpu_count() or 1
    chunk = chunk or max(1, min(64, n // (workers * 8) or 1))
    bounds = [(a, min(a + chunk, n)) for a in range(0, n, chunk)]
    rows: list[list[Row] | None] = [None] * n
    update = _progress(n, progress)
    started = time.perf_counter()
    own = executor is None and workers > 1
    pool = ProcessPoolExecutor(workers) if own else executor
    try:
        if pool is None:
            for a, b in bounds:
                for task, task_rows in zip(range(a, b), run_tasks(kind, a, b, seed, names, ruleset_name)):
                    rows[task] = task_rows
                update(b - a)
        else:
            futures: dict[Future[list[list[Row]]], tuple[int, int]] = {
                pool.submit(run_tasks, kind, a, b, seed, names, ruleset_name): (a, b) for a, b in bounds
            }
            for future in as_completed(futures):
                a, b = futures[future]
                for task, task_rows in zip(range(a, b), future.result()):
                    rows[task] = task_rows
                update(b - a)
    finally:
        if own and pool is not None:
            pool.shutdown()
        update(0, done=True)
    seconds = time.perf_counter() - started
    flat = [row for task_rows in rows if task_rows for row in task_rows]
    return Simulation(kind, names, seed, ruleset_name, n, seconds, flat)


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


def format_summary(summary: dict[str, Any]) -> str:
    """The summary as a table for the terminal."""
    units = summary["units"]
    lines = [
        f"{summary['tasks']} {units}, {summary['deals']} deals in {summary['seconds']:.1f} s "
        f"({summary['deals_per_s']:.1f} deals/s)",
        "",
        f"{'side':6} {'agents':22} {units + ' won':>12} {'win rate':>9} {'95% interval':>17} "
        f"{'1-2':>6} {'1-3':>6} {'1-4':>6} {'levels':>7}",
    ]
    for s in summary["sides"]:
        low, high = s["ci95"]
        lines.append(
            f"{s['side']:<6} {s['agents']:22} {s[units + '_won']:>12} {s['win_rate']:>9.3f} "
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
