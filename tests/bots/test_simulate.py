"""Simulation: seeded tasks give identical results on any executor; summaries, files, plots, CLI."""

from __future__ import annotations

import csv
import functools
import json
import os
import pathlib
import re
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import plugin_bots
import pytest
from refusals import check

from guandan import (
    GuandanError,
    IllegalMoveError,
)
from guandan.bots.agents import GreedyAgent, RandomAgent
from guandan.bots.simulate import simulate, wilson_interval
from guandan.ui.cli import main


@pytest.fixture(scope="module")
def reference_run():
    return simulate(12, "greedy,random,greedy,random", seed=5, kind="match", workers=1)


@pytest.mark.slow
def test_results_do_not_depend_on_workers_or_executor(reference_run):
    two = simulate(12, "greedy,random,greedy,random", seed=5, kind="match", workers=2, chunk=1)
    with ThreadPoolExecutor(3) as pool:
        threads = simulate(12, "greedy,random,greedy,random", seed=5, kind="match", executor=pool, chunk=2)
    assert reference_run.rows == two.rows == threads.rows
    assert [r["task"] for r in reference_run.rows] == sorted(r["task"] for r in reference_run.rows)


@pytest.mark.slow
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


@pytest.mark.slow
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
        assert rows[-1]["levels_after"][rows[-1]["match_winner"]] == "A"


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
    reference_run.write(str(tmp_path / "rows.json"))  # .json: one JSON document, an array of the rows
    assert json.loads((tmp_path / "rows.json").read_text()) == reference_run.rows
    assert len((tmp_path / "rows.json").read_text().splitlines()) == len(reference_run.rows) + 2  # a row a line
    with pytest.raises(GuandanError, match=r"\.jsonl \(JSON Lines\), \.json \(a JSON array\) or \.csv \(CSV\)"):
        reference_run.write(str(tmp_path / "rows.txt"))
    with pytest.raises(GuandanError, match="no directory"):
        reference_run.write(str(tmp_path / "missing" / "rows.jsonl"))


def test_levels_in_rows_are_rank_letters_as_in_records_and_moves_json(reference_run):
    assert {r["level"] for r in reference_run.rows} <= set("23456789TJQKA")
    assert all(set(r["levels_after"]) <= set("23456789TJQKA") for r in reference_run.rows)
    last = {r["task"]: r for r in reference_run.rows}  # each match's last deal
    assert {r["levels_after"][r["match_winner"]] for r in last.values()} == {"A"}


@pytest.mark.slow
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
    with pytest.raises(GuandanError, match="one agent for every seat, two .* or four"):
        simulate(2, "greedy,greedy,greedy")
    with pytest.raises(GuandanError, match="kind"):
        simulate(2, kind="tournament")  # type: ignore[arg-type]


def test_wilson_interval_known_values():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson_interval(10, 10)[1] == 1.0


@pytest.mark.slow
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
    assert "N must be at least 1" in err and "unknown agent" in err and "--out: 'x.txt' must end" in err


# -- your own bot: specs, classes, factories, instances, on any executor ---------------------------

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"


def test_a_bot_by_import_path_plays_the_same_on_two_workers_as_in_this_process():
    one = simulate(6, "plugin_bots:cautious:threshold=2,random", seed=3, kind="deal", workers=1)
    two = simulate(6, "plugin_bots:cautious:threshold=2,random", seed=3, kind="deal", workers=2, chunk=1)
    assert one.rows == two.rows
    assert one.agents == ["plugin_bots:cautious:threshold=2", "random"] * 2
    assert one.rows[0]["agents"] == "plugin_bots:cautious:threshold=2,random,plugin_bots:cautious:threshold=2,random"
    # the same bot given as a factory with its option bound: the same games
    bound = simulate(
        6, [functools.partial(plugin_bots.cautious, threshold=2), "random"], seed=3, kind="deal", workers=2, chunk=2
    )
    assert [r["finish_order"] for r in bound.rows] == [r["finish_order"] for r in one.rows]


@pytest.mark.slow
def test_the_example_bot_of_the_readme_runs_by_import_path_on_two_workers(monkeypatch):
    monkeypatch.syspath_prepend(str(EXAMPLES))
    one = simulate(4, "mybot:LongestBot,greedy", seed=1, kind="deal", workers=1)
    two = simulate(4, "mybot:LongestBot,greedy", seed=1, kind="deal", workers=2, chunk=1)
    assert one.rows == two.rows and one.agents == ["mybot:LongestBot", "greedy"] * 2


@pytest.mark.slow
def test_classes_are_seeded_per_seat_as_the_registered_names_are(reference_run):
    by_class = simulate(12, [GreedyAgent, RandomAgent], seed=5, kind="match", workers=2, chunk=3)
    assert by_class.rows == reference_run.rows  # same agents, seeds and names ("greedy", "random")


def test_an_instance_is_copied_for_every_task_and_seat_on_any_executor():
    bot = plugin_bots.Stateful(seed=8)
    runs = [
        simulate(6, [bot, "greedy"], seed=2, kind="deal", workers=1),
        simulate(6, [bot, "greedy"], seed=2, kind="deal", workers=2, chunk=1),
        simulate(6, [bot, "greedy"], seed=2, kind="deal", workers=2, chunk=6),
    ]
    assert runs[0].rows == runs[1].rows == runs[2].rows
    assert runs[0].agents == ["stateful", "greedy"] * 2
    # the given instance was not used: its generator is where it was
    assert bot.inner.rng.next_u64() == plugin_bots.Stateful(seed=8).inner.rng.next_u64()


def test_an_agent_that_cannot_reach_the_workers_is_refused_before_the_run():
    class Local:  # defined in a function: pickle cannot find it again
        def act(self, observation):
            return observation.legal_actions[0]

    with pytest.raises(GuandanError, match=r"seat 0 .*Local.* cannot be sent to worker processes.*workers=1"):
        simulate(2, [Local, "greedy"], kind="deal", workers=2)
    with pytest.raises(GuandanError, match="seat 1 .* cannot be sent"):
        simulate(2, ["greedy", lambda seed: GreedyAgent(seed)], kind="deal", workers=2)
    assert len(simulate(2, [Local(), "greedy"], kind="deal", workers=1).rows) == 2  # in this process: fine


def test_a_bot_whose_factory_fails_in_a_worker_stops_the_run_with_its_error():
    with pytest.raises(GuandanError, match="not an agent"):
        simulate(40, "plugin_bots:not_an_agent", kind="deal", workers=2, chunk=1)


# -- the command line checks its arguments before a run ------------------------------------------


def _no_run(*args, **kwargs):
    raise AssertionError("the run started: the arguments should have been refused before it")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--out", "{tmp}/missing/runs.jsonl"], "--out: no directory '{tmp}/missing' to write 'runs.jsonl' in"),
        (["--out", "{tmp}/a-directory.jsonl"], "--out: '{tmp}/a-directory.jsonl' is a directory, not a file"),
        (["--out", "runs.txt"], "--out: 'runs.txt' must end in .jsonl (JSON Lines), .json (a JSON array) or .csv"),
        (["--plot", "{tmp}/missing/runs.png"], "--plot: no directory '{tmp}/missing' to write 'runs.png' in"),
        (["--plot", "{tmp}/runs.txt"], "--plot: '{tmp}/runs.txt' must end in one of"),
        (["--agents", "greedy,nowhere:Bot"], "no module named 'nowhere'"),
        (["--agents", "greedy,random,mc"], "give one agent for every seat, two"),
        (["--agents", "mc:depth=2"], "mc has no option 'depth'"),
        (["--workers", "0"], "--workers: at least 1 process"),
        (["--ruleset", "paris"], "unknown ruleset 'paris'"),
    ],
)
def test_cli_simulate_refuses_bad_arguments_at_once_with_status_2(monkeypatch, capsys, tmp_path, args, message):
    monkeypatch.setattr("guandan.bots.simulate.run_tasks", _no_run)
    monkeypatch.setattr("guandan.bots.simulate.Simulation.write", _no_run)
    (tmp_path / "a-directory.jsonl").mkdir()
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    status = main(["simulate", "1000", "--quiet", *args])
    out, err = capsys.readouterr()
    assert (status, out) == (2, "")
    assert err.startswith("guandan: error: ") and message.replace("{tmp}", str(tmp_path)) in err, err
    assert err.count("\n") == 1  # one line, no traceback


def test_cli_simulate_plot_without_matplotlib_fails_at_once(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr("guandan.bots.simulate.run_tasks", _no_run)
    for name in ("matplotlib", "matplotlib.backend_bases", "matplotlib.pyplot"):
        monkeypatch.setitem(sys.modules, name, None)  # what an import finds when it is not installed
    status = main(["simulate", "1000", "--quiet", "--plot", str(tmp_path / "runs.png")])
    err = capsys.readouterr().err
    assert status == 2
    assert err == "guandan: error: --plot needs matplotlib: pip install '.[plot]' from the guandan checkout\n"


@pytest.mark.slow
def test_cli_simulate_runs_a_bot_from_the_current_directory_on_two_workers(monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(EXAMPLES)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(EXAMPLES))])
    status = main(
        ["simulate", "4", "--deals", "--agents", "mybot:LongestBot,greedy", "--workers", "2", "--quiet", "--json"]
    )
    out, err = capsys.readouterr()
    assert (status, err) == (0, "")
    summary = json.loads(out)
    assert [side["agents"] for side in summary["sides"]] == ["mybot:LongestBot / mybot:LongestBot", "greedy / greedy"]
    assert sum(side["deals_won"] for side in summary["sides"]) == 4


def test_an_illegal_action_stops_the_run_naming_the_task_seat_agent_and_action():
    with pytest.raises(IllegalMoveError) as caught:
        simulate(3, "greedy,plugin_bots:Passer", seed=4, kind="deal", workers=2, chunk=1)
    assert re.fullmatch(
        r"task [0-2] \(seed \d+\): deal 0: the agent of seat ([13]) \(plugin_bots:Passer\) chose pass "
        r"in the play phase: seat \1 leads and cannot pass",
        str(caught.value),
    ), caught.value


def _running(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie."""
    try:
        stat = pathlib.Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("to", ["process group", "parent only"])
def test_an_interrupt_stops_simulate_and_its_busy_workers_at_once(tmp_path, to):
    # Ctrl-C in a terminal reaches the whole process group; a notebook's interrupt (or kill -INT)
    # the parent only. Before the fix, either let every worker go on to the chunk queued to it:
    # with these slow bots, minutes.
    env = dict(os.environ, GUANDAN_TEST_ANNOUNCE=str(tmp_path))
    helpers = str(pathlib.Path(__file__).resolve().parents[1])  # tests/: plugin_bots
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [helpers, env.get("PYTHONPATH")]))
    command = [sys.executable, "-m", "guandan", "simulate", "200", "--agents", "plugin_bots:Announcing"]
    proc = subprocess.Popen(
        [*command, "--workers", "2", "--quiet"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,  # a process group of its own, as a shell job has
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # not ignored, even if it is here
    )
    try:
        deadline = time.monotonic() + 60
        while len(list(tmp_path.iterdir())) < 2:  # both workers are inside a task
            assert proc.poll() is None and time.monotonic() < deadline, proc.stderr and proc.stderr.read()
            time.sleep(0.05)
        workers = [int(path.name) for path in tmp_path.iterdir()]
        (os.killpg if to == "process group" else os.kill)(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=30)
        assert proc.returncode == 130 and err.strip() == "guandan: interrupted"
        assert not [pid for pid in workers if _running(pid)]
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


# -- bad input -------------------------------------------------------------------------------------


def test_simulation_arguments_are_checked():
    from guandan.bots import simulate

    for call in (
        lambda: simulate.simulate(1, kind="x", workers=1),
        lambda: simulate.simulate(-1, workers=1),
        lambda: simulate.simulate("a", workers=1),
        lambda: simulate.simulate(1, "x", workers=1),
        lambda: simulate.simulate(1, ruleset="x", workers=1),
        lambda: simulate.simulate(1, kind="deal", workers=-1),
        lambda: simulate.simulate(1, kind="deal", workers=1, chunk=0),
        lambda: simulate.wilson_interval(5, 2),
        lambda: simulate.Simulation("deal", [], 0, "x", 0, 0).write("/tmp/x.txt"),
    ):
        check(call, GuandanError)
