"""Arena pairs through a real platform server: programs started as commands (``cmd:``),
seated in order, play the same pairs as the package's agents would."""

from __future__ import annotations

import json
import sys

import pytest
from refusals import check

from guandan import GuandanError
from guandan.bots.arena import play_pair
from guandan.platform.seated import check_command, command_line, is_command, play_pair_served
from guandan.ui.cli import main

#: The package's greedy as a program of its own, over the protocol.
GREEDY_PROGRAM = f"cmd:{sys.executable} -m guandan connect {{url}} --agent greedy --seed {{seed}} --quiet"


def test_a_command_spec_is_split_and_filled_in():
    assert is_command(" cmd:bot") and not is_command("greedy") and not is_command(None)
    assert command_line("cmd:bot --port {port} '{url}'", "ws://h:1/game/x", 1, 5) == [
        "bot",
        "--port",
        "1",
        "ws://h:1/game/x",
    ]


def test_the_seat_is_filled_in_and_a_program_left_running_is_ended(monkeypatch):
    import subprocess
    import time

    from guandan.platform import seated

    assert command_line("cmd:bot --seat {seat} --seed {seed}", "ws://h:1/game/x", 1, 5, seat=3) == [
        "bot", "--seat", "3", "--seed", "5"]  # fmt: skip
    monkeypatch.setattr(seated, "EXIT_GRACE", 0.2)
    stubborn = "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); print(flush=True); time.sleep(60)"
    procs = [subprocess.Popen(["sleep", "60"]), subprocess.Popen([sys.executable, "-c", stubborn],
                                                                 stdout=subprocess.PIPE)]  # fmt: skip
    procs[1].stdout.readline()  # its SIGTERM ignored from here on
    begin = time.monotonic()
    seated._end(procs)
    assert [p.returncode for p in procs] == [-15, -9] and time.monotonic() - begin < 5  # asked to end, then killed
    procs[1].stdout.close()


@pytest.mark.parametrize(
    "spec, match",
    [
        ("cmd:", "no command"),
        ("cmd:  ", "no command"),
        ("cmd:bot 'open", "does not split"),
        ("cmd:bot {name}", "names 'name'"),
    ],
)
def test_bad_commands_are_refused(spec, match):
    check(lambda: check_command(spec), GuandanError, match)


def test_in_process_pairs_refuse_a_program():
    check(lambda: play_pair("deals", 0, 1, ["cmd:bot", "greedy"]), GuandanError, "plays through a server")


def test_the_command_line_refuses_a_bad_command(capsys):
    assert main(["arena", "cmd:bot {nope}", "greedy", "--pairs", "1", "--workers", "1"]) == 2
    assert "names 'nope'" in capsys.readouterr().err
    assert main(["arena", "cmd:/no/such/program {url}", "greedy", "--pairs", "1", "--workers", "1"]) == 2
    assert "cannot start '/no/such/program'" in capsys.readouterr().err


@pytest.mark.slow
def test_a_program_against_the_same_bot_in_process_draws_every_pair():
    """greedy over the protocol at one side, greedy in this process at the other: the same
    choices, so each half's winner is the other half's loser."""
    for kind in ("deals", "games"):
        pair = play_pair_served(kind, 0, 3, [GREEDY_PROGRAM, "greedy"])
        assert pair.won[0] + pair.won[1] == pair.deals[0] == pair.deals[1] and pair.score == 0.5, pair


@pytest.mark.slow
def test_served_pairs_against_random_and_the_same_seed_again(capsys, tmp_path):
    out = tmp_path / "served.jsonl"
    argv = ["arena", GREEDY_PROGRAM, "random", "--pairs", "2", "--workers", "2", "--seed", "4", "--json"]
    assert main([*argv, "--out", str(out)]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["pairs"] == 2 and first["wins"] >= 3
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out) == first  # deterministic programs: the same pairs
