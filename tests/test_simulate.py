"""Simulation: seeded tasks give identical results on any executor; summaries, files, plots, CLI."""

from __future__ import annotations

import csv
import json
from concurrent.futures import ThreadPoolExecutor

import pytest

from guandan import GuandanError
from guandan.cli import main
from guandan.simulate import simulate, wilson_interval


@pytest.fixture(scope="module")
def reference_run():
    return simulate(12, "greedy,random,greedy,random", seed=5, kind="match", workers=1)


def test_results_do_not_depend_on_workers_or_executor(reference_run):
    two = simulate(12, "greedy,random,greedy,random", seed=5, kind="match", workers=2, chunk=1)
    with ThreadPoolExecutor(3) as pool:
        threads = simulate(12, "greedy,random,greedy,random", seed=5, kind="match", executor=pool, chunk=2)
    assert reference_run.rows == two.rows == threads.rows
    assert [r["task"] for r in reference_run.rows] == sorted(r["task"] for r in reference_run.rows)


def test_a_dask_cluster_gives_the_same_results(reference_run):
    import distributed  # a test extra
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        with distributed.Client(cluster) as client:
            run = simulate(
                12, "greedy,random,greedy,random", seed=5, kind="match", executor=client.get_executor(), chunk=3
            )
    assert run.rows == reference_run.rows


def test_different_seeds_give_different_runs(reference_run):
    other = simulate(12, "greedy,random,greedy,random", seed=6, kind="match", workers=1)
    assert other.rows != reference_run.rows


def test_summary_adds_up(reference_run):
    s = reference_run.summary()
    assert s["units"] == "matches" and s["tasks"] == 12
    assert sum(side["matches_won"] for side in s["sides"]) == 12
    assert sum(side["deals_won"] for side in s["sides"]) == s["deals"] == len(reference_run.rows)
    for side in s["sides"]:
        assert sum(side["results"].values()) == side["deals_won"]
        low, high = side["ci95"]
        assert low <= side["win_rate"] <= high
        assert side["levels_gained"] == 3 * side["results"]["1-2"] + 2 * side["results"]["1-3"] + side["results"]["1-4"]
    assert s["deals_per_match"] == pytest.approx(s["deals"] / 12)
    assert s["passes_per_deal"] > 0 and s["deals_per_s"] > 0
    # every match has a winner that won its last deal, and levels only end at A for the winner
    for task in range(12):
        rows = [r for r in reference_run.rows if r["task"] == task]
        assert rows[-1]["winner_side"] == rows[-1]["match_winner"]
        assert rows[-1]["levels_after"][rows[-1]["match_winner"]] == 14


def test_deal_mode_plays_one_deal_per_task():
    run = simulate(10, "random", seed=2, kind="deal", workers=1)
    assert len(run.rows) == 10 and {r["deal"] for r in run.rows} == {0}
    assert run.summary()["units"] == "deals"
    assert all(r["result"] in ("1-2", "1-3", "1-4") for r in run.rows)


def test_rows_are_written_as_jsonl_and_csv(reference_run, tmp_path):
    reference_run.write(str(tmp_path / "rows.jsonl"))
    lines = (tmp_path / "rows.jsonl").read_text().splitlines()
    assert [json.loads(line) for line in lines] == reference_run.rows
    reference_run.write(str(tmp_path / "rows.csv"))
    with open(tmp_path / "rows.csv", newline="") as f:
        table = list(csv.DictReader(f))
    assert len(table) == len(reference_run.rows)
    assert table[0]["finish_order"] == " ".join(map(str, reference_run.rows[0]["finish_order"]))
    with pytest.raises(GuandanError, match="jsonl"):
        reference_run.write(str(tmp_path / "rows.txt"))


def test_plot_writes_a_png(reference_run, tmp_path):
    path = tmp_path / "run.png"
    reference_run.plot(str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_progress_callback_sees_every_task():
    seen = []
    simulate(
        6, "random", seed=1, kind="deal", workers=1, chunk=2, progress=lambda done, total: seen.append((done, total))
    )
    assert seen == [(2, 6), (4, 6), (6, 6)]


def test_bad_arguments_raise():
    with pytest.raises(GuandanError, match="unknown agent"):
        simulate(2, "grandmaster")
    with pytest.raises(GuandanError, match="one agent for all seats or four"):
        simulate(2, "greedy,greedy")
    with pytest.raises(GuandanError, match="kind"):
        simulate(2, kind="tournament")  # type: ignore[arg-type]


def test_wilson_interval_known_values():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson_interval(10, 10)[1] == 1.0


def test_cli_simulate_prints_a_summary_and_writes_files(tmp_path, capsys):
    out, plot = tmp_path / "runs.jsonl", tmp_path / "runs.png"
    assert (
        main(
            [
                "simulate",
                "4",
                "--deals",
                "--agents",
                "greedy",
                "--workers",
                "1",
                "--quiet",
                "--out",
                str(out),
                "--plot",
                str(plot),
            ]
        )
        == 0
    )
    text = capsys.readouterr().out
    assert "4 deals" in text and "95% interval" in text and "win rate" in text
    assert len(out.read_text().splitlines()) == 4 and plot.exists()
    assert main(["simulate", "3", "--agents", "random", "--workers", "1", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["tasks"] == 3 and summary["units"] == "matches"


def test_cli_simulate_rejects_bad_input(capsys):
    assert main(["simulate", "0"]) == 2
    assert main(["simulate", "3", "--agents", "foo", "--workers", "1"]) == 2
    assert main(["simulate", "3", "--out", "x.txt"]) == 2
    err = capsys.readouterr().err
    assert "N must be at least 1" in err and "unknown agent" in err and "--out must end" in err
