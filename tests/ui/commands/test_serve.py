"""``guandan.ui.commands.serve``: its parser (the server itself: tests/platform/test_server.py)."""

import pytest

from guandan.ui.cli import build_parser, main


def test_the_defaults_are_the_platform_s():
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.games, args.tables, args.ruleset) == ("127.0.0.1", 23456, 1, 1, "platform")
    assert (args.web, args.allow_origin, args.allow_host, args.act_timeout) == (False, [], [], None)


@pytest.mark.parametrize(("argv", "words"), [
    (["--games", "0"], "games"),
    (["--ruleset", "chess"], "chess"),
])  # fmt: skip
def test_bad_settings_are_refused_before_listening(argv, words, capsys):
    assert main(["serve", "--port", "0", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("guandan: error: ") and words in err
