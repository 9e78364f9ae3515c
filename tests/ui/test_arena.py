"""``guandan arena``: the command's output, its JSON, its log and report, its refusals (status 2)."""

from __future__ import annotations

import json

import pytest

from guandan.ui.arena import _Live
from guandan.ui.cli import main


def _json(capsys, argv):
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_sprt_head_to_head_prints_the_decision(capsys):
    assert main(["arena", "greedy", "random", "--sprt", "0,100", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("greedy against random: ") and "SPRT elo0=0 elo1=100 alpha=0.05 beta=0.05: H1" in out
    assert "deals won by greedy" in out


def test_negative_elo_bounds_are_a_value(capsys):
    data = _json(capsys, ["arena", "greedy", "random", "--sprt", "-20,20", "--max-pairs", "1", "--workers", "1",
                          "--json"])  # fmt: skip
    assert data["sprt"]["elo0"] == -20 and data["sprt"]["elo1"] == 20
    data = _json(capsys, ["arena", "greedy", "random", "--sprt", "-20.5,-3", "--max-pairs", "1", "--workers", "1",
                          "--json"])  # fmt: skip
    assert (data["sprt"]["elo0"], data["sprt"]["elo1"]) == (-20.5, -3)


@pytest.mark.slow
def test_json_has_the_result_and_the_statistics(capsys):
    data = _json(capsys, ["arena", "greedy", "random", "--sprt", "0,100", "--workers", "1", "--seed", "2", "--json"])
    assert data["result"] == "H1" and data["llr"] >= data["bounds"][1]
    assert data["deals"] == 2 * data["pairs"] and 0 <= data["wins"] <= data["deals"]
    assert {"elo", "elo_ci", "win_rate", "win_rate_ci", "levels_per_deal", "pair_counts"} <= set(data)
    fixed = _json(capsys, ["arena", "greedy", "greedy", "--pairs", "6", "--workers", "1", "--json"])
    assert fixed["result"] is None and fixed["elo"] == 0 and fixed["elo_ci"] == [0, 0]
    games = _json(capsys, ["arena", "greedy", "random", "--games", "--pairs", "1", "--workers", "1", "--json"])
    assert games["kind"] == "games" and games["ruleset"] == "platform" and games["games"] == 2


@pytest.mark.slow
def test_score_levels_tests_on_the_levels(capsys):
    data = _json(capsys, ["arena", "greedy", "random", "--sprt", "0,100", "--score", "levels", "--workers", "1",
                          "--json"])  # fmt: skip
    assert data["result"] == "H1" and data["scoring"] == "levels" and len(data["pair_counts"]) == 13
    assert main(["arena", "greedy", "greedy", "--pairs", "3", "--score", "levels", "--workers", "1"]) == 0
    assert "pairs scored by levels, ½ + (levels won less lost)/12: +0:3" in capsys.readouterr().out


def test_the_log_continues_and_the_report_prints_it(capsys, tmp_path):
    out = str(tmp_path / "run.jsonl")
    first = _json(capsys, ["arena", "greedy", "random", "--pairs", "3", "--workers", "1", "--out", out, "--json"])
    again = _json(capsys, ["arena", "greedy", "random", "--pairs", "5", "--workers", "1", "--out", out, "--json"])
    report = _json(capsys, ["arena", "--report", out, "--json"])
    assert first["pairs"] == 3 and again["pairs"] == report["pairs"] == 5 and report == again
    assert main(["arena", "--report", out]) == 0
    assert "greedy against random: 5 pairs" in capsys.readouterr().out


def test_round_robin_and_gauntlet_print_ratings(capsys):
    assert main(["arena", "greedy", "random", "greedy:bomb_threshold=0", "--round-robin", "--pairs", "2",
                 "--workers", "1"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "Elo by maximum likelihood, greedy at 0" in out and "anchor" in out
    data = _json(capsys, ["arena", "greedy", "random", "greedy:bomb_threshold=0", "--gauntlet", "random", "--pairs",
                          "2", "--workers", "1", "--json"])  # fmt: skip
    assert data["anchor"] == "random" and [(p["a"], p["b"]) for p in data["pairings"]] == [
        ("random", "greedy"), ("random", "greedy:bomb_threshold=0")]  # fmt: skip
    data = _json(capsys, ["arena", "greedy", "--gauntlet", "random", "--pairs", "1", "--workers", "1", "--json"])
    assert [b["bot"] for b in data["bots"]] == ["random", "greedy"]


@pytest.mark.slow
def test_the_same_result_on_one_and_two_workers_whatever_the_chunk(capsys):
    argv = ["arena", "greedy", "greedy:bomb_threshold=2", "--pairs", "12", "--seed", "4", "--json"]
    one = _json(capsys, [*argv, "--workers", "1"])
    for chunk in ("1", "5"):
        assert _json(capsys, [*argv, "--workers", "2", "--chunk", chunk]) == one
    argv = ["arena", "greedy", "random", "--sprt", "0,300", "--seed", "4", "--json"]
    assert _json(capsys, [*argv, "--workers", "2", "--chunk", "3"]) == _json(capsys, [*argv, "--workers", "1"])


@pytest.mark.slow
def test_plots_are_drawn(capsys, tmp_path):
    h2h, rr = tmp_path / "h2h.png", tmp_path / "rr.svg"
    assert main(["arena", "greedy", "random", "--sprt", "0,100", "--workers", "1", "--plot", str(h2h)]) == 0
    assert main(["arena", "greedy", "random", "mc-basic:playouts=1", "--round-robin", "--pairs", "1",
                 "--workers", "1", "--plot", str(rr)]) == 0  # fmt: skip
    assert h2h.read_bytes()[:4] == b"\x89PNG" and b"<svg" in rr.read_bytes()[:400]


def _refused(capsys, argv, named):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("guandan: error: ") and err.count("\n") == 1 and named in err, err


@pytest.mark.parametrize(
    "argv, named",
    [
        (["nobody", "random", "--sprt", "0,5"], "unknown agent 'nobody'"),
        (["greedy", "mybots_missing:Bot", "--pairs", "2"], "no module named 'mybots_missing'"),
        (["greedy", "greedy:depth=3", "--pairs", "2"], "has no option 'depth'"),
        (["greedy", "random", "--sprt", "5,0"], "ELO0 must be below ELO1"),
        (["greedy", "random", "--sprt", "5,5"], "ELO0 must be below ELO1"),
        (["greedy", "random", "--sprt", "0,5", "--alpha", "0"], "--alpha is an error rate strictly between 0 and 1"),
        (["greedy", "random", "--sprt", "0,5", "--alpha", "1.2"], "--alpha is an error rate"),
        (["greedy", "random", "--sprt", "0,5", "--beta", "-1"], "--beta is an error rate"),
        (["greedy", "random", "--sprt", "5"], "--sprt: two Elo differences"),
        (["greedy", "random", "--sprt", "a,b"], "--sprt: two Elo differences"),
        (["greedy", "random"], "give --sprt ELO0,ELO1"),
        (["greedy"], "give two bots"),
        (["greedy", "random", "mc", "--pairs", "2"], "more with --round-robin"),
        (["greedy", "random", "mc", "--round-robin", "--sprt", "0,5"], "with many bots give --pairs"),
        (["greedy", "random", "--round-robin", "--gauntlet", "greedy", "--pairs", "1"], "not both"),
        (["greedy", "random", "--pairs", "0"], "--pairs must be at least 1"),
        (["greedy", "random", "--pairs", "2", "--workers", "0"], "--workers must be at least 1"),
        (["greedy", "random", "--pairs", "2", "--chunk", "0"], "--chunk must be at least 1"),
        (["greedy", "random", "--pairs", "2", "--score", "points"], "--score is wins or levels, got 'points'"),
        (["greedy", "random", "--pairs", "2", "--ruleset", "chess"], "unknown ruleset"),
        (["greedy", "random", "--pairs", "2", "--out", "/no/such/dir/run.jsonl"], "no directory"),
        (["greedy", "random", "--pairs", "2", "--plot", "ratings.txt"], "--plot"),
        (["--report", "/no/such/run.jsonl"], "cannot read"),
        (["greedy", "--report", "x.jsonl"], "give no BOT"),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, argv, named):
    _refused(capsys, ["arena", *argv, "--workers", "1"] if "--workers" not in argv else ["arena", *argv], named)


def test_a_foreign_or_unreadable_out_file_is_refused(capsys, tmp_path):
    foreign = tmp_path / "runs.jsonl"
    foreign.write_text('{"task": 0, "seed": 1}\n')
    _refused(capsys, ["arena", "greedy", "random", "--pairs", "2", "--out", str(foreign)], "is not an arena log")
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    _refused(capsys, ["arena", "greedy", "random", "--pairs", "2", "--out", str(binary)], "is not an arena log")
    _refused(capsys, ["arena", "greedy", "random", "--pairs", "2", "--out", str(tmp_path)], "is a directory")
    log = tmp_path / "run.jsonl"
    assert main(["arena", "greedy", "random", "--pairs", "1", "--workers", "1", "--out", str(log)]) == 0
    capsys.readouterr()
    _refused(capsys, ["arena", "greedy", "random", "--pairs", "1", "--seed", "3", "--out", str(log)],
             "is the log of another run: seed 0 (not 3)")  # fmt: skip
    assert foreign.read_text() == '{"task": 0, "seed": 1}\n'  # a refused file is left as it was


def test_the_progress_line_shows_pairs_score_elo_and_llr(capsys):
    from guandan.bots.arena import head_to_head

    live = _Live(True)
    head_to_head("greedy", "random", sprt=(0, 100), pairs=2, workers=1, progress=live.line)
    live.close()
    err = capsys.readouterr().err
    assert err.startswith("\r\x1b[Kpairs 1 (2 deals)  score ") and "Elo " in err and "LLR +" in err
    assert err.endswith("\n")
