"""``guandan.ui.commands.common``: a subcommand's parser, and log lines on stderr for a person."""

import argparse
import logging

from guandan.ui.commands.common import PROG, add_command, stderr_log


class Hello:
    """A command's module, as add_command reads it."""

    HELP = "do x"
    DESCRIPTION = "line one\n  indented"
    EPILOG = "example:\n  guandan x --seed 3"

    @staticmethod
    def parents():
        parent = argparse.ArgumentParser(add_help=False)
        parent.add_argument("--seed", type=int, default=4, help="the seed")
        return [parent]

    @staticmethod
    def add_arguments(p):
        p.add_argument("--loud", action="store_true", help="say it loud")

    @staticmethod
    def run(args):
        return 7


def test_a_command_is_made_from_its_module_description_parents_options_and_run(capsys):
    parser = argparse.ArgumentParser(prog=PROG)
    sub = add_command(parser.add_subparsers(), "x", Hello)
    args = parser.parse_args(["x", "--loud"])
    assert sub.prog == "guandan x" and (args.seed, args.loud, args.run(args)) == (4, True, 7)
    sub.print_help()
    text = capsys.readouterr().out
    assert "line one\n  indented" in text and "example:\n  guandan x --seed 3" in text and "say it loud" in text


def test_a_run_set_by_the_options_is_kept():
    class Own(Hello):
        @staticmethod
        def add_arguments(p):
            p.set_defaults(run=len)

    parser = argparse.ArgumentParser(prog=PROG)
    add_command(parser.add_subparsers(), "x", Own)
    assert parser.parse_args(["x"]).run is len


def test_log_lines_are_made_printable_and_the_logger_is_left_as_it_was(capsys):
    log = logging.getLogger("guandan.test_common")
    before = (log.level, log.propagate, list(log.handlers))
    with stderr_log("guandan.test_common", logging.INFO, "%(message)s"):
        log.info("bot\nforged line\x1b[2J")
        log.debug("not shown")
    assert capsys.readouterr().err == "bot\\nforged line\\x1b[2J\n"
    assert (log.level, log.propagate, list(log.handlers)) == before
