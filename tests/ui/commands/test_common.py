"""``guandan.ui.commands.common``: a subcommand's parser, and log lines on stderr for a person."""

import argparse
import logging

from guandan.ui.commands.common import PROG, stderr_log, subcommand


def test_a_subcommand_prints_its_description_as_written_and_takes_its_parents(capsys):
    parser = argparse.ArgumentParser(prog=PROG)
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument("--seed", type=int, default=4, help="the seed")
    sub = subcommand(parser.add_subparsers(), "x", help="do x", description="line one\n  indented", parents=[parent])
    assert sub.prog == "guandan x" and parser.parse_args(["x"]).seed == 4
    sub.print_help()
    assert "line one\n  indented" in capsys.readouterr().out


def test_log_lines_are_made_printable_and_the_logger_is_left_as_it_was(capsys):
    log = logging.getLogger("guandan.test_common")
    before = (log.level, log.propagate, list(log.handlers))
    with stderr_log("guandan.test_common", logging.INFO, "%(message)s"):
        log.info("bot\nforged line\x1b[2J")
        log.debug("not shown")
    assert capsys.readouterr().err == "bot\\nforged line\\x1b[2J\n"
    assert (log.level, log.propagate, list(log.handlers)) == before
