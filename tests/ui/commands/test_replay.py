"""``guandan.ui.commands.replay``: its parser and its errors (replays: tests/ui/test_cli_replay.py)."""

from guandan.ui.cli import build_parser, main


def test_the_defaults():
    args = build_parser().parse_args(["replay", "m.json"])
    assert (args.file, args.seat, args.deal) == ("m.json", 0, None)


def test_a_missing_file_is_one_line_with_status_2(tmp_path, capsys):
    missing = tmp_path / "none.json"
    assert main(["replay", str(missing)]) == 2
    assert capsys.readouterr().err == f"guandan: error: cannot read {str(missing)!r}: No such file or directory\n"
