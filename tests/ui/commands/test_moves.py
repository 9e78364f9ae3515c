"""``guandan.ui.commands.moves``: its parser and its run (the command's output: tests/ui/test_cli.py)."""

import json

from guandan.ui.cli import build_parser, main


def test_the_options_read_as_the_run_needs_them():
    args = build_parser().parse_args(["moves", "S3", "C3", "-l", "Q", "-g", "rank", "--beat", "S4", "--as", "single"])
    read = (args.hand, args.level, args.granularity, args.beat, args.declared_as)
    assert read == (["S3", "C3"], "Q", "rank", "S4", "single")


def test_answering_a_play_lists_the_pass_last_in_json(capsys):
    assert main(["moves", "S5 H2", "--level", "2", "--beat", "S4", "--json"]) == 0
    moves = json.loads(capsys.readouterr().out)["moves"]
    assert [m["type"] for m in moves] == ["single", "single", "pass"]


def test_as_without_beat_is_refused_with_status_2(capsys):
    assert main(["moves", "S5", "--level", "2", "--as", "single"]) == 2
    assert capsys.readouterr().err == "guandan: error: --as declares the --beat cards; give --beat too\n"
