"""``guandan.ui.commands.connect``: its parser and its checks before connecting (the client:
tests/platform/test_connect.py)."""

from guandan.ui.cli import build_parser, main


def test_the_defaults():
    args = build_parser().parse_args(["connect", "ws://127.0.0.1:9/game/"])
    assert (args.agent, args.name, args.seed, args.idle_timeout, args.log) == ("greedy", None, 0, None, None)


def test_a_bad_agent_spec_is_refused_before_connecting(capsys):
    assert main(["connect", "ws://127.0.0.1:9/game/", "--agent", "grandmaster"]) == 2
    assert "grandmaster" in capsys.readouterr().err
