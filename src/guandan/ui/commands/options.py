"""The options several commands share, each written once as a parent parser (argparse's
``parents=``): a command takes the ones it has, so that an option means the same and reads
its value the same way in every command. Where commands differ only in the default, the
parent takes it as an argument and its help says it.

>>> parser = argparse.ArgumentParser(prog="guandan x", parents=[seed(0, "the run seed"), workers()])
>>> args = parser.parse_args(["--seed", "7"])
>>> args.seed, args.workers
(7, None)
"""

from __future__ import annotations

import argparse

__all__ = [
    "NOTATION",
    "AGENT_SPECS",
    "seat",
    "seed",
    "match_seed",
    "agents",
    "ruleset",
    "workers",
    "games",
    "server",
    "log",
    "records",
    "page",
    "json_output",
    "quiet",
]

#: How cards and levels are written, for the descriptions of the commands that take them.
NOTATION = """\
cards: a suit letter S H C D (or ♠ ♥ ♣ ♦) then a rank 2-10, T, J, Q, K, A;
  jokers are SB (small, black) and HR (big, red), BJ/RJ accepted too;
  case-insensitive, separated by spaces or commas: "S3 h10 CJ dA SB".
levels: 2-10, T, J, Q, K, A. The two hearts of the level rank are wild."""

#: How agents are named, for the epilogs of the commands that take them.
AGENT_SPECS = """\
agents: a registered name (greedy, random, mc, mc-basic, onnx:model=PATH) or an import path package.module:Class
  (a class or factory taking seed=; modules in the current directory are found), then
  options as :KEY=VALUE, values read as int, float, true/false, none or text:
    mc:rollouts=8000:threads=2            greedy:bomb_threshold=3
    mybots.strong:SearchBot:depth=3       mybot:LongestBot"""


def _parent() -> argparse.ArgumentParser:
    return argparse.ArgumentParser(add_help=False)


def seat(help: str = "your seat, 0-3 (default 0)") -> argparse.ArgumentParser:
    """``--seat S``: a seat 0-3, default 0."""
    p = _parent()
    p.add_argument("--seat", type=int, choices=range(4), default=0, help=help)
    return p


def seed(default: int | None, help: str) -> argparse.ArgumentParser:
    """``--seed N``: an integer seed; ``help`` says what it seeds and its default.

    >>> seed(0, "the run seed (default 0)").parse_args([]).seed
    0
    """
    p = _parent()
    p.add_argument("--seed", type=int, default=default, help=help)
    return p


def match_seed() -> argparse.ArgumentParser:
    """``--seed N`` of a match a person plays: default from the clock."""
    return seed(None, "the match seed (default: from the clock)")


def agents(flag: str, help: str) -> argparse.ArgumentParser:
    """``--agents`` or ``--bots``: one agent spec for every seat, two (one per side) or four,
    separated by commas; default greedy."""
    p = _parent()
    p.add_argument(flag, default="greedy", metavar="A[,A[,A,A]]", help=help + "; default greedy")
    return p


def ruleset(default: str, names: str) -> argparse.ArgumentParser:
    """``--ruleset NAME``: the rules' name, ``names`` listing the choices with the default first."""
    p = _parent()
    p.add_argument("--ruleset", default=default, help=f"{names}; add +capN for a cap of N deals")
    return p


def workers() -> argparse.ArgumentParser:
    """``--workers N``: processes, default every core."""
    p = _parent()
    p.add_argument("--workers", type=int, default=None, help="processes (default: every core; 1: this process)")
    return p


def games(help: str) -> argparse.ArgumentParser:
    """``--games N``: whole matches, default 1."""
    p = _parent()
    p.add_argument("--games", type=int, default=1, metavar="N", help=help)
    return p


def server(port: int, port_help: str) -> argparse.ArgumentParser:
    """``--host`` and ``--port`` of a server this process runs."""
    p = _parent()
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=port, help=port_help)
    return p


def log(help: str = "write every message sent and received, with times, to FILE (JSONL)") -> argparse.ArgumentParser:
    """``--log FILE``: the messages of a connection, one JSON line each."""
    p = _parent()
    p.add_argument("--log", metavar="FILE", help=help)
    return p


def records(help: str) -> argparse.ArgumentParser:
    """``--records DIR``: a directory of game records."""
    p = _parent()
    p.add_argument("--records", metavar="DIR", help=help)
    return p


def page(prefix: str = "") -> argparse.ArgumentParser:
    """The options of the page's server: who may use it besides the page's own origin
    (``prefix`` says when they apply)."""
    p = _parent()
    p.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help=f"{prefix}let pages of ORIGIN (http://host:port) use the page's sockets too; repeatable "
        "(default: the page's own origin only)",
    )
    p.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help=f"{prefix}a name this machine is reached by that requests may give in Host, besides 127.0.0.1, "
        "localhost, [::1] and --host; repeatable",
    )
    return p


def json_output(help: str) -> argparse.ArgumentParser:
    """``--json``: JSON on stdout instead of text, ``help`` saying what."""
    p = _parent()
    p.add_argument("--json", action="store_true", help=help)
    return p


def quiet(help: str) -> argparse.ArgumentParser:
    """``--quiet``: fewer lines on stderr, ``help`` saying which."""
    p = _parent()
    p.add_argument("--quiet", action="store_true", help=help)
    return p
