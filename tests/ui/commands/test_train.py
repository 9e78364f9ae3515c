"""``guandan train``: the options of ``python -m guandan.rl.train``, parsed without torch
(training runs: tests/rl/test_train.py)."""

import sys

import pytest

from guandan.rl import train
from guandan.ui.cli import build_parser, main


def test_the_options_are_those_of_python_m_guandan_rl_train(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "torch", None)  # torch cannot be imported: the options are read anyway
    args = build_parser().parse_args(["train", "--out", "runs", "--frames", "100", "--backend", "torch"])
    assert (args.out, args.frames, args.backend, args.seed) == ("runs", 100, "torch", train.TrainConfig().seed)
    assert main(["train", "--help"]) == 0
    ours = capsys.readouterr().out
    with pytest.raises(SystemExit):
        train.main(["--help"])
    theirs = capsys.readouterr().out
    assert ours.split("options:")[1].split("\n\n")[0].strip() == theirs.split("options:")[1].split("\n\n")[0].strip()


def test_a_run_without_a_budget_is_a_usage_error(capsys):
    assert main(["train", "--out", "runs"]) == 2
    assert "give --frames or --minutes" in capsys.readouterr().err
