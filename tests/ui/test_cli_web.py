"""The commands that write, show and serve records: ``play --record``, ``simulate --records``,
``replay``, ``serve --web`` and ``web`` (the last two as real processes on the loopback)."""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request

import pytest

from guandan import Match
from guandan.bots.agents import GreedyAgent
from guandan.bots.loop import play_out
from guandan.platform import run_client
from guandan.records.games import record, replay
from guandan.ui.cli import main
from guandan.ui.terminal import play_match


def finished_record(tmp_path, seed=2):
    match = Match(seed, "competitive_2022+cap2")
    play_out(match, [GreedyAgent()] * 4)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record(match)))
    return path, match


def test_replay_prints_every_deal_and_action(tmp_path, capsys):
    path, match = finished_record(tmp_path)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Match · 2022 Competitive Guandan Rules (Trial) · seed 2 · 2 deals")
    assert out.count("Deal 1 at level 2") == 1 and "Deal 2 at level" in out
    actions = sum(len(log.before_play) + len(log.deal.history) for log in match.deal_logs)
    lines = [line for line in out.splitlines() if re.search(r"\) (play|pass|pays|return)", line)]
    assert len(lines) == actions
    assert "The match is over (deal cap)" in out
    assert main(["replay", str(path), "--deal", "2", "--seat", "1"]) == 0
    second = capsys.readouterr().out
    assert "Deal 1 at" not in second and "You (seat 1):" in second


def test_replay_refuses_a_record_that_does_not_replay(tmp_path, capsys):
    path, _ = finished_record(tmp_path)
    data = json.loads(path.read_text())
    data["deals"][0]["actions"][2]["seat"] = (data["deals"][0]["actions"][2]["seat"] + 1) % 4
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    assert main(["replay", str(bad)]) == 2
    assert "bad.json does not replay: deal 1 action 3" in capsys.readouterr().err
    (tmp_path / "text.json").write_text("hello")
    assert main(["replay", str(tmp_path / "text.json")]) == 2
    assert "not a record: not JSON" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["replay", str(path), "--deal", "9"]) == 2
    assert "the match has deals 1 to 2, not 9" in capsys.readouterr().err


@pytest.mark.slow
def test_simulate_writes_one_record_per_game_that_replays(tmp_path, capsys):
    target = tmp_path / "runs" / "deep"
    assert main(["simulate", "3", "--workers", "1", "--seed", "4", "--records", str(target), "--quiet",
                 "--ruleset", "competitive_2022+cap2"]) == 0
    assert "wrote 3 records to" in capsys.readouterr().out
    names = sorted(os.listdir(target))
    assert names == ["match-000000.json", "match-000001.json", "match-000002.json"]
    for name in names:
        replay(json.loads((target / name).read_text()))
    assert main(["simulate", "2", "--deals", "--workers", "1", "--records", str(tmp_path / "d"), "--quiet"]) == 0
    assert sorted(os.listdir(tmp_path / "d")) == ["deal-000000.json", "deal-000001.json"]
    (tmp_path / "file").write_text("")
    assert main(["simulate", "2", "--records", str(tmp_path / "file")]) == 2
    assert "is a file, not a directory" in capsys.readouterr().err


def test_simulate_records_do_not_depend_on_the_workers(tmp_path):
    from guandan.bots.simulate import simulate

    simulate(4, "greedy", seed=9, kind="deal", workers=1, records=str(tmp_path / "one"))
    simulate(4, "greedy", seed=9, kind="deal", workers=2, records=str(tmp_path / "two"))
    for name in os.listdir(tmp_path / "one"):
        assert (tmp_path / "one" / name).read_text() == (tmp_path / "two" / name).read_text()


def test_the_help_says_records_are_one_file_per_game(capsys):
    assert main(["simulate", "--help"]) == 0
    text = capsys.readouterr().out
    assert "ONE FILE PER GAME" in text and "thousands of files" in text
    assert main(["web", "--help"]) == 0
    text = capsys.readouterr().out
    assert "--no-browser" in text and "--records" in text and "Space selects" in text
    main(["serve", "--help"])
    assert "--web" in capsys.readouterr().out


def test_play_writes_its_record_even_when_left(tmp_path):
    path = tmp_path / "mine.json"
    out = io.StringIO()
    assert play_match(seat=1, seed=5, stdin=io.StringIO("pass\nquit\n"), stdout=out, record=str(path)) == 0
    assert "The match's record is in" in out.getvalue()
    state = replay(json.loads(path.read_text()))
    assert isinstance(state, Match) and not state.is_over and state.seed == 5
    with pytest.raises(Exception, match="no directory"):
        play_match(seat=0, seed=5, stdin=io.StringIO("quit\n"), stdout=io.StringIO(),
                   record=str(tmp_path / "nowhere" / "x.json"))


def _read_until(process, pattern, timeout=30):
    deadline = time.monotonic() + timeout
    seen = []
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        seen.append(line)
        match = re.search(pattern, line)
        if match:
            return match
    raise AssertionError(f"no line matching {pattern!r} in {seen!r}")


@pytest.mark.slow
def test_guandan_web_serves_a_table_a_person_plays_and_stops_when_told(tmp_path):
    process = subprocess.Popen(
        [sys.executable, "-m", "guandan", "web", "--no-browser", "--exit", "--seed", "12", "--seat", "3",
         "--ruleset", "competitive_2022+cap1", "--records", str(tmp_path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        page = _read_until(process, r"the table: (http://127\.0\.0\.1:\d+/) ")[1]
        with urllib.request.urlopen(page, timeout=10) as response:
            assert response.status == 200 and b"table.js" in response.read()
        url = page.replace("http://", "ws://") + "game/"
        person = asyncio.run(asyncio.wait_for(run_client(url, "greedy", name="me"), 60))
        assert person.complete and person.seat == 3
        assert process.wait(60) == 0
        out = process.stdout.read()
        assert "the table's games are played" in out and "web-12-game1.json" in out
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    replay(json.loads((tmp_path / "web-12-game1.json").read_text()))


@pytest.mark.slow
def test_guandan_serve_web_serves_the_page_beside_the_bots():
    process = subprocess.Popen(
        [sys.executable, "-m", "guandan", "serve", "--web", "--port", "0", "--seed", "1", "--quiet"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        page = _read_until(process, r"the table's page: (http://127\.0\.0\.1:\d+/)")[1]
        with urllib.request.urlopen(page + "viewer", timeout=10) as response:
            assert response.status == 200 and b"viewer.js" in response.read()
        with urllib.request.urlopen(page + "status.json", timeout=10) as response:
            assert json.loads(response.read())["tables"][0]["state"] == "seating"
        process.send_signal(signal.SIGINT)
        assert process.wait(30) == 1  # stopped before any game: not complete
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


@pytest.mark.slow
def test_guandan_web_ctrl_c_exits_with_the_status_of_sigint():
    process = subprocess.Popen(
        [sys.executable, "-m", "guandan", "web", "--no-browser", "--seed", "3", "--spectators", "2",
         "--spectators-see-hands", "--reclaim-grace", "5"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        page = _read_until(process, r"the table: (http://127\.0\.0\.1:\d+/) ")[1]
        with urllib.request.urlopen(page + "status.json", timeout=10) as response:
            status = json.loads(response.read())
        process.send_signal(signal.SIGINT)
        assert process.wait(30) == 130
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert status["spectators"] == {"limit": 2, "hands": True} and status["reclaim_grace"] == 5


def test_bad_spectator_options_of_guandan_web_are_one_line_errors(capsys):
    assert main(["web", "--no-browser", "--spectators", "-1"]) == 2
    assert "--spectators: a number of spectators >= 0, got -1" in capsys.readouterr().err
    assert main(["web", "--no-browser", "--reclaim-grace", "-2"]) == 2
    assert "--reclaim-grace: seconds from 0 to 3600" in capsys.readouterr().err
