"""``guandan.ui.commands.play``: its parser and its run (the table itself: tests/ui/test_terminal.py)."""

import io

from guandan.ui.cli import build_parser, main


def test_the_defaults_are_seat_0_greedy_bots_and_the_competitive_rules():
    args = build_parser().parse_args(["play"])
    assert (args.seat, args.seed, args.bots, args.ruleset, args.record) == (0, None, "greedy", "competitive_2022", None)


def test_a_seat_out_of_range_is_a_usage_error(capsys):
    assert main(["play", "--seat", "4"]) == 2
    assert "argument --seat: invalid choice: 4" in capsys.readouterr().err


def test_quit_at_the_first_prompt_ends_with_status_0(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "--seed", "1"]) == 0
    assert "seed 1" in capsys.readouterr().out
