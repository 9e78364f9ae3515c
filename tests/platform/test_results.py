"""``guandan.platform.results``: what a server run did, as JSON values and as the printed summary,
and the nearest-rank percentile of the answer times and the added latency."""

from __future__ import annotations

import math
import random

from guandan.game.rules import PLATFORM
from guandan.platform.results import SeatStats, ServeResult, TableResult, percentile


def test_percentile_is_the_nearest_rank():
    rng = random.Random(5)
    for n in (1, 2, 7, 100, 101):
        values = [rng.random() for _ in range(n)]
        ordered = sorted(values)
        for q in (1, 25, 50, 99, 100):
            assert percentile(values, q) == ordered[max(0, math.ceil(q * n / 100) - 1)]
        assert percentile(values, 100) == max(values) and percentile(values, 0.001) == min(values)
    assert percentile([], 50) is None


def table(index, victories, state="finished", abort=None, times=((0.001, 0.003),) * 4):
    seats = [SeatStats(s, f"bot{s}", list(t), ignored=s) for s, t in enumerate(times)]
    return TableResult(
        index, 7, state, 2, sum(victories), 5, victories, 0, seats, [{"deal": index}], [], abort,
        added=[0.0001, 0.0003], added_cpu=[0.00005, 0.0001], messages_sent=40, messages_received=10,
    )  # fmt: skip


def test_a_run_adds_up_its_tables_and_reports_them():
    run = ServeResult(7, PLATFORM, 2, [table(0, (2, 0)), table(1, (0, 1), "aborted", "seat 2 left", ((),) * 4)])
    assert (run.games_played, run.deals, run.victories, run.draws, run.complete) == (3, 10, (2, 1), 0, False)
    assert run.messages == 100 and len(run.added) == len(run.added_cpu) == 4
    assert run.records == [{"deal": 0}, {"deal": 1}]
    summary = run.to_json()
    assert summary["wins"] == [2, 1] and summary["ruleset"] == "platform" and not summary["complete"]
    assert summary["added_ms"] == {"n": 4, "p50": 0.1, "p99": 0.3, "max": 0.3}
    seat = summary["tables"][0]["seats"][1]
    assert seat == {"seat": 1, "name": "bot1", "answers": 2, "ignored": 1, "mean_ms": 2.0, "p99_ms": 3.0}
    assert summary["tables"][1]["seats"][0]["mean_ms"] is None and summary["tables"][1]["abort_reason"] == "seat 2 left"
    text = run.format()
    assert text.splitlines()[0] == "2 tables · ruleset platform · seed 7 · 3 of 4 games · 10 deals"
    assert "wins: side 0 (seats 0, 2) 2 · side 1 (seats 1, 3) 1 · draws 0" in text
    assert "table 1: 1/2 games, 5 deals, wins 0-1, draws 0 — aborted: seat 2 left" in text
    assert "  seat 0 bot0: 2 answers, mean 2.00 ms, p99 3.00 ms, 0 ignored" in text
    assert "  seat 3 bot3: 0 answers, no answers, 3 ignored" in text
    assert ServeResult(7, PLATFORM, 2, [table(0, (1, 1))]).complete
