"""``guandan.ui.commands.options``: the options several commands share, each written once as a
parent parser; every command's ``--help`` lists its options, and a shared option reads its
value the same way in every command that has it."""

import argparse

import pytest

from guandan.ui.cli import build_parser, main
from guandan.ui.commands import COMMANDS, options


def subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(action.choices)


def option_actions(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    return [a for a in parser._actions if a.option_strings and not isinstance(a, argparse._HelpAction)]


def test_every_command_is_listed_once_in_order():
    assert list(subparsers()) == list(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_help_lists_each_of_its_options_with_a_description(command, capsys):
    parser = subparsers()[command]
    assert main([command, "--help"]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"usage: guandan {command}")
    actions = option_actions(parser) + [a for a in parser._actions if not a.option_strings]
    assert actions, command
    for action in actions:
        if isinstance(action, argparse._SubParsersAction):  # imitate's steps: each step's own help
            continue
        assert action.help and action.help != argparse.SUPPRESS and len(action.help.split()) >= 2, action.dest
        for flag in action.option_strings:
            assert flag in text, (command, flag)


def test_every_step_of_imitate_describes_its_options(capsys):
    for step in ("positions", "fit", "improve"):
        assert main(["imitate", step, "--help"]) == 0
        assert capsys.readouterr().out.startswith(f"usage: guandan imitate {step}")


#: A shared option, a value for it, what the commands having it read, and a bad value.
SHARED = [
    ("--seed", "17", 17, "x"),
    ("--workers", "2", 2, "two"),
    ("--seat", "3", 3, "4"),
    ("--ruleset", "huaian", "huaian", None),
    ("--games", "5", 5, "many"),
    ("--port", "8765", 8765, "http"),
    ("--host", "0.0.0.0", "0.0.0.0", None),
    ("--log", "m.jsonl", "m.jsonl", None),
    ("--records", "runs", "runs", None),
    ("--allow-origin", "http://a:1", ["http://a:1"], None),
    ("--json", None, True, None),
    ("--quiet", None, True, None),
]

#: The arguments each command needs besides the option.
NEEDS = {
    "moves": ["S3", "--level", "2"],
    "simulate": ["5"],
    "arena": ["greedy", "random"],
    "connect": ["ws://127.0.0.1:1/game/"],
    "replay": ["match.json"],
    "train": ["--out", "runs"],
}


#: Options of the same name that mean something else in a command: arena's --games is a flag
#: (pairs of whole games instead of deals), not a number of matches.
OTHER_MEANING = {("arena", "--games")}


def having(flag: str) -> list[str]:
    return [
        name
        for name, p in subparsers().items()
        if any(flag in a.option_strings for a in option_actions(p)) and (name, flag) not in OTHER_MEANING
    ]


@pytest.mark.parametrize(("flag", "given", "read", "bad"), SHARED, ids=[s[0] for s in SHARED])
def test_a_shared_option_reads_the_same_in_every_command_having_it(flag, given, read, bad, capsys):
    commands = having(flag)
    assert len(commands) >= 2, f"{flag} is shared by {commands}"
    parser = build_parser()
    dest = flag.removeprefix("--").replace("-", "_")
    errors = set()
    for command in commands:
        argv = [command, *NEEDS.get(command, []), flag, *([given] if given is not None else [])]
        assert getattr(parser.parse_args(argv), dest) == read, command
        if bad is not None:
            assert main([command, *NEEDS.get(command, []), flag, bad]) == 2
            errors.add(capsys.readouterr().err.splitlines()[-1].split(": error: ")[1])
    assert len(errors) <= 1, errors  # the same words everywhere


def test_the_parents_are_parsers_without_help_of_their_own():
    for parent in (options.seat(), options.match_seed(), options.workers(), options.page(), options.output("x", "y")):
        assert not parent.add_help
        assert all(a.help for a in parent._actions)


def test_a_default_is_the_command_s_and_its_help_says_it(capsys):
    assert main(["serve", "--help"]) == 0
    assert "default 23456" in capsys.readouterr().out
    assert main(["web", "--help"]) == 0
    assert "default: any free port" in capsys.readouterr().out
    parser = build_parser()
    assert parser.parse_args(["serve"]).port == 23456 and parser.parse_args(["web"]).port == 0
    assert parser.parse_args(["serve"]).ruleset == "platform"
    assert parser.parse_args(["web"]).ruleset == "competitive_2022"
