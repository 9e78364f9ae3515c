"""``guandan.ui.commands.web``: its parser (the page and its server: tests/ui/test_cli_web.py)."""

from guandan.ui.cli import build_parser, main


def test_the_defaults():
    args = build_parser().parse_args(["web"])
    assert (args.seat, args.bots, args.games, args.port, args.hint, args.exit) == (0, "greedy", 1, 0, "mc", False)


def test_no_games_is_refused(capsys):
    assert main(["web", "--games", "0", "--no-browser"]) == 2
    assert capsys.readouterr().err == "guandan: error: --games must be at least 1, got 0\n"
