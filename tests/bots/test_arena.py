"""The arena against the engine: pairs are simulate's tasks with the sides swapped; the
sequential test decides greedy against random; a bot against itself draws; results do not
depend on the workers; the log resumes a killed run without losing a finished pair."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from refusals import check

from guandan import GuandanError
from guandan.bots.arena import (
    FORMAT,
    ArenaLog,
    PairResult,
    from_log,
    head_to_head,
    pairings,
    play_pair,
    ratio_interval,
    tournament,
)
from guandan.bots.simulate import simulate


def test_a_pair_is_simulates_task_played_with_the_sides_swapped():
    forward = simulate(3, ["greedy", "random"], seed=4, kind="deal", workers=1).rows
    backward = simulate(3, ["random", "greedy"], seed=4, kind="deal", workers=1).rows
    for i in range(3):
        pair = play_pair("deals", i, 4, ["greedy", "random"])
        assert pair.deals == (1, 1)
        assert pair.won == (int(forward[i]["winner_side"] == 0), int(backward[i]["winner_side"] == 1))
        assert pair.seed == forward[i]["seed"] == backward[i]["seed"]
        gain = forward[i]["levels_gained"]
        assert pair.levels[0] == (gain if forward[i]["winner_side"] == 0 else -gain)


def test_a_pair_of_games_is_simulates_matches():
    forward = simulate(1, ["greedy", "random"], seed=2, kind="match", ruleset="platform", workers=1).rows
    pair = play_pair("games", 0, 2, ["greedy", "random"], "platform")
    assert pair.deals[0] == len(forward)
    assert pair.won[0] == sum(r["winner_side"] == 0 for r in forward)
    assert pair.points[0] == (1.0 if forward[-1]["match_winner"] == 0 else 0.0)


def test_greedy_against_random_reaches_h1_in_a_few_pairs():
    run = head_to_head("greedy", "random", sprt=(0, 100), seed=3, workers=1)
    assert run.result == "H1" and run.pairs <= 40
    assert run.llr >= run.bounds[1] and all(x < run.bounds[1] for x in run.history[:-1])
    summary = run.summary()
    assert {"result", "llr", "bounds", "pairs", "deals", "wins", "elo", "elo_ci"} <= set(summary)
    assert summary["pairs"] == run.pairs and summary["deals"] == 2 * run.pairs


def test_the_test_runs_out_of_pairs_inconclusive():
    run = head_to_head("greedy", "random", sprt=(-10, 10), seed=3, max_pairs=3, workers=1)
    assert run.result == "inconclusive" and run.pairs == 3


def test_a_bot_against_itself_draws_every_pair():
    run = head_to_head("greedy", "greedy", pairs=20, seed=5, workers=1)
    summary = run.summary()
    low, high = summary["elo_ci"]
    assert low <= 0 <= high and summary["elo"] == 0
    assert run.counts() == [0, 20, 0]  # the same cards and seeds each way: the pair cancels exactly
    assert summary["win_rate"] == 0.5


@pytest.mark.slow
def test_fixed_runs_report_win_rate_and_levels_with_intervals():
    run = head_to_head("greedy", "random", pairs=8, seed=6, workers=1)
    s = run.summary()
    assert s["result"] is None and s["llr"] is None and s["pairs"] == 8
    assert s["wins"] == sum(sum(r.won) for r in run.results)
    assert s["win_rate_ci"][0] <= s["win_rate"] <= s["win_rate_ci"][1]
    assert s["levels_per_deal_ci"][0] <= s["levels_per_deal"] <= s["levels_per_deal_ci"][1]
    assert "pairs 8 (16 deals)" in run.progress()
    # with a test as well, the test is read at the end, not used to stop
    tested = head_to_head("greedy", "random", pairs=30, sprt=(0, 100), seed=6, workers=1)
    assert tested.pairs == 30 and tested.result == "H1"


@pytest.mark.slow
def test_pairs_scored_by_their_levels():
    """With scoring="levels" a pair scores ½ + its levels a deal won less lost over 6: the
    test, the Elo and the counts are on those thirteen outcomes (pairs of deals)."""
    run = head_to_head("greedy", "random", sprt=(0, 100), seed=3, workers=1, scoring="levels")
    assert run.result == "H1" and run.pairs <= 40 and run.summary()["scoring"] == "levels"
    assert len(run.counts()) == 13 and sum(run.counts()) == run.pairs
    for r in run.results:
        assert r.level_score == pytest.approx(0.5 + sum(r.levels) / 12)
        assert run.summary()["pair_scores"][6 + sum(r.levels)] == pytest.approx(r.level_score)
    assert run.estimate().score == pytest.approx(sum(r.level_score for r in run.results) / run.pairs)
    same = head_to_head("greedy", "greedy", pairs=10, seed=5, workers=1, scoring="levels")
    assert same.counts()[6] == 10 and same.summary()["elo"] == 0  # the levels cancel in every pair
    # the same pairs scored by wins: another statistic, the same deals
    wins = head_to_head("greedy", "greedy:bomb_threshold=2", pairs=12, seed=6, workers=1)
    levels = head_to_head("greedy", "greedy:bomb_threshold=2", pairs=12, seed=6, workers=1, scoring="levels")
    assert wins.results == levels.results and wins.summary()["wins"] == levels.summary()["wins"]
    assert "pairs scored by levels" in levels.format() and "level Elo" in levels.format()
    games = head_to_head("greedy", "random", pairs=1, kind="games", seed=2, workers=1, scoring="levels")
    (r,) = games.results
    assert len(games.counts()) == 49 and games.counts().index(1) == round(r.level_score * 48)
    rr = tournament(["greedy", "random", "greedy:bomb_threshold=0"], pairs=2, seed=2, workers=1, scoring="levels")
    assert rr.summary()["scoring"] == "levels" and rr.ratings().elo[1] < -100
    check(lambda: head_to_head("greedy", "random", pairs=2, workers=1, scoring="points"), GuandanError,
          "--score is 'wins' or 'levels'")  # fmt: skip


def test_ratio_interval():
    value, low, high = ratio_interval([2, 1, 1, 0], [2, 2, 2, 2])
    assert value == 0.5 and low == pytest.approx(0.5 - 1.959963984540054 * (0.8164965809 / 2) / 2)
    assert high == pytest.approx(1 - low)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"b": "nobody"}, "unknown agent"),
        ({"sprt": (10, 0)}, "ELO0 must be below ELO1"),
        ({"sprt": (0, 10), "alpha": 1.5}, "--alpha"),
        ({}, "give sprt"),
        ({"pairs": 0}, "pairs is an int >= 1"),
        ({"pairs": 2, "kind": "matches"}, "kind is"),
        ({"pairs": 2, "ruleset": "chess"}, "unknown ruleset"),
    ],
)
def test_bad_input_is_refused(kwargs, match):
    args = {"a": "greedy", "b": "random", "workers": 1, **kwargs}
    check(lambda: head_to_head(args.pop("a"), args.pop("b"), **args), GuandanError, match)


def test_the_log_resumes_a_run_and_refuses_another_runs(tmp_path):
    path = str(tmp_path / "run.jsonl")
    first = head_to_head("greedy", "random", pairs=4, seed=7, workers=1, out=path)
    with open(path) as f:
        lines = [json.loads(line) for line in f]
    assert lines[0]["format"] == FORMAT and lines[0]["bots"] == ["greedy", "random"]
    assert [line["pair"] for line in lines[2:]] == [0, 1, 2, 3]
    # more pairs: the four logged are read, not played again
    played = []
    more = head_to_head(
        "greedy", "random", pairs=6, seed=7, workers=1, out=path, progress=lambda r: played.append(r.pairs)
    )
    assert more.results[:4] == first.results and len(more.results) == 6 and played == [1, 2, 3, 4, 5, 6]
    with open(path) as f:
        assert sum(1 for line in f if '"pair"' in line) == 6
    check(lambda: head_to_head("greedy", "random", pairs=4, seed=8, workers=1, out=path), GuandanError,
          "log of another run: seed 7")  # fmt: skip
    check(lambda: head_to_head("greedy", "mc", pairs=4, seed=7, workers=1, out=path), GuandanError, "bots")


def test_a_line_cut_short_is_dropped_and_foreign_files_refused(tmp_path):
    path = tmp_path / "run.jsonl"
    head_to_head("greedy", "random", pairs=3, seed=7, workers=1, out=str(path))
    text = path.read_text()
    path.write_text(text + '{"a": 0, "b": 1, "pair": 3, "se')  # killed while writing
    assert len(ArenaLog.read(str(path))[1]) == 3
    run = head_to_head("greedy", "random", pairs=4, seed=7, workers=1, out=str(path))
    assert run.pairs == 4 and all(json.loads(line) for line in path.read_text().splitlines())
    foreign = tmp_path / "other.jsonl"
    foreign.write_text('{"task": 0}\n')
    check(lambda: head_to_head("greedy", "random", pairs=2, workers=1, out=str(foreign)), GuandanError,
          "not an arena log")  # fmt: skip
    check(lambda: from_log(str(tmp_path / "missing.jsonl")), GuandanError, "cannot read")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(text + '{"a": 0}\n')
    check(lambda: from_log(str(bad)), GuandanError, "line 6: not a pair")
    check(lambda: PairResult.from_json([1, 2]), GuandanError, "not a pair")


@pytest.mark.slow
def test_the_report_of_a_log_is_the_runs_result(tmp_path):
    path = str(tmp_path / "run.jsonl")
    run = head_to_head("greedy", "random", sprt=(0, 100), seed=9, workers=1, out=path)
    state = from_log(path)
    assert state.summary() == run.summary()
    levels = head_to_head("greedy", "random", sprt=(0, 100), seed=9, workers=1, out=path, scoring="levels")
    assert from_log(path).summary() == levels.summary() and levels.summary()["scoring"] == "levels"
    rr = str(tmp_path / "rr.jsonl")
    many = tournament(["greedy", "random", "greedy:bomb_threshold=0"], pairs=2, seed=2, workers=1, out=rr,
                      scoring="levels")  # fmt: skip
    assert from_log(rr).summary() == many.summary()


def test_a_round_robin_and_a_gauntlet_rate_the_bots(tmp_path):
    assert pairings(4) == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    path = str(tmp_path / "rr.jsonl")
    bots = ["greedy", "random", "greedy:bomb_threshold=0"]
    rr = tournament(bots, pairs=3, seed=2, workers=1, out=path)
    assert len(rr.results) == 9 and rr.anchor == 0
    ratings = rr.ratings()
    assert ratings.elo[0] == 0 and ratings.elo[1] < -200  # random far below greedy
    assert from_log(path).summary() == rr.summary()
    assert "anchor" in rr.format() and rr.format().splitlines()[3].split()[1] != "random"
    gauntlet = tournament(bots, pairs=2, gauntlet=1, seed=2, workers=1)
    assert {(r.a, r.b) for r in gauntlet.results} == {(1, 0), (1, 2)} and gauntlet.ratings().elo[1] == 0
    check(lambda: tournament(["greedy"], pairs=2, workers=1), GuandanError, "two bots or more")
    check(lambda: tournament(bots, pairs=2, gauntlet=5, workers=1), GuandanError, "gauntlet")


@pytest.mark.slow
def test_results_are_the_same_whatever_the_executor_and_the_chunk():
    """Pairs sent to an executor (threads here, as a Dask cluster's executor would take them),
    a few a task: the decision, the pairs counted and the statistics are those of one worker."""
    from concurrent.futures import ThreadPoolExecutor

    one = head_to_head("greedy", "random", sprt=(0, 300), seed=10, workers=1)
    fixed = head_to_head("greedy", "greedy:bomb_threshold=2", pairs=6, seed=11, workers=1)
    with ThreadPoolExecutor(2) as pool:
        run = head_to_head("greedy", "random", sprt=(0, 300), seed=10, workers=2, executor=pool, chunk=4)
        assert run.summary() == one.summary() and run.results == one.results
        run = head_to_head("greedy", "greedy:bomb_threshold=2", pairs=6, seed=11, workers=2, executor=pool, chunk=4)
        assert run.summary() == fixed.summary()
    check(lambda: head_to_head("greedy", "random", pairs=2, workers=1, chunk=0), GuandanError, "chunk is an int >= 1")


@pytest.mark.slow
def test_results_are_the_same_on_one_and_two_workers(tmp_path):
    one = head_to_head("greedy", "random", sprt=(0, 300), seed=10, workers=1)
    two = head_to_head("greedy", "random", sprt=(0, 300), seed=10, workers=2, chunk=2)
    assert one.summary() == two.summary() and one.results == two.results
    fixed = [head_to_head("greedy", "greedy:bomb_threshold=2", pairs=24, seed=11, workers=w) for w in (1, 2)]
    assert fixed[0].summary() == fixed[1].summary()
    rr = [tournament(["greedy", "random", "greedy:bomb_threshold=2"], pairs=4, seed=12, workers=w, chunk=c)
          for w, c in ((1, 1), (2, 1), (2, 3))]  # fmt: skip
    assert rr[0].summary() == rr[1].summary() == rr[2].summary()


@pytest.mark.slow
def test_a_dask_cluster_gives_the_same_result():
    import distributed  # a test extra

    one = head_to_head("greedy", "greedy:bomb_threshold=2", pairs=12, seed=13, workers=1)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        with distributed.Client(cluster) as client:
            run = head_to_head("greedy", "greedy:bomb_threshold=2", pairs=12, seed=13,
                               executor=client.get_executor(), workers=2)  # fmt: skip
            chunked = head_to_head("greedy", "greedy:bomb_threshold=2", pairs=12, seed=13,
                                   executor=client.get_executor(), workers=2, chunk=5)  # fmt: skip
    assert run.summary() == one.summary() == chunked.summary()


def _pairs_logged(path):
    if not os.path.exists(path):
        return []
    with open(path, "rb") as f:
        lines = f.read().split(b"\n")[:-1]  # whole lines only
    return [json.loads(line) for line in lines[1:] if b'"pair"' in line]


@pytest.mark.slow
def test_a_killed_run_resumes_losing_no_pair_and_ends_as_an_uninterrupted_one(tmp_path):
    """A real ``guandan arena`` process killed (SIGKILL) mid-run, then the same command again."""
    path = str(tmp_path / "run.jsonl")
    command = [sys.executable, "-m", "guandan", "arena", "greedy", "greedy:bomb_threshold=2", "--pairs", "150",
               "--seed", "14", "--workers", "1", "--out", path, "--json"]  # fmt: skip
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
    deadline = time.monotonic() + 60
    while len(_pairs_logged(path)) < 20 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    before = _pairs_logged(path)
    assert 20 <= len(before) < 150, len(before)  # killed mid-run
    again = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert again.returncode == 0, again.stderr
    after = _pairs_logged(path)
    assert after[: len(before)] == before  # every pair finished before the kill is kept as it was
    assert sorted(p["pair"] for p in after) == list(range(150))  # none lost, none played twice
    uninterrupted = head_to_head("greedy", "greedy:bomb_threshold=2", pairs=150, seed=14, workers=1)
    assert json.loads(again.stdout) == json.loads(json.dumps(uninterrupted.summary()))
