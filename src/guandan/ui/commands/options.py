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
from typing import Any

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
    "output",
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


def _parent(*flags: str, **settings: Any) -> argparse.ArgumentParser:
    """A parent parser of one option (``flags``, then ``add_argument``'s ``settings``)."""
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument(*flags, **settings)
    return parent


def seat(help: str = "your seat, 0-3 (default 0)") -> argparse.ArgumentParser:
    """``--seat S``: a seat 0-3, default 0."""
    return _parent("--seat", type=int, choices=range(4), default=0, help=help)


def seed(default: int | None, help: str) -> argparse.ArgumentParser:
    """``--seed N``: an integer seed; ``help`` says what it seeds and its default.

    >>> seed(0, "the run seed (default 0)").parse_args([]).seed
    0
    """
    return _parent("--seed", type=int, default=default, help=help)


def match_seed() -> argparse.ArgumentParser:
    """``--seed N`` of a match a person plays: default from the clock."""
    return seed(None, "the match seed (default: from the clock)")


def agents(flag: str, help: str) -> argparse.ArgumentParser:
    """``--agents`` or ``--bots``: one agent spec for every seat, two (one per side) or four,
    separated by commas; default greedy."""
    return _parent(flag, default="greedy", metavar="A[,A[,A,A]]", help=help + "; default greedy")


def ruleset(default: str, names: str) -> argparse.ArgumentParser:
    """``--ruleset NAME``: the rules' name, ``names`` listing the choices with the default first."""
    return _parent("--ruleset", default=default, help=f"{names}; add +capN for a cap of N deals")


def workers() -> argparse.ArgumentParser:
    """``--workers N``: processes, default every core."""
    return _parent("--workers", type=int, default=None, help="processes (default: every core; 1: this process)")


def games(help: str) -> argparse.ArgumentParser:
    """``--games N``: whole matches, default 1."""
    return _parent("--games", type=int, default=1, metavar="N", help=help)


def server(port: int, port_help: str) -> argparse.ArgumentParser:
    """``--host`` and ``--port`` of a server this process runs."""
    parent = _parent("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    parent.add_argument("--port", type=int, default=port, help=port_help)
    return parent


def log(help: str = "write every message sent and received, with times, to FILE (JSONL)") -> argparse.ArgumentParser:
    """``--log FILE``: the messages of a connection, one JSON line each."""
    return _parent("--log", metavar="FILE", help=help)


def records(help: str) -> argparse.ArgumentParser:
    """``--records DIR``: a directory of game records."""
    return _parent("--records", metavar="DIR", help=help)


def page(prefix: str = "") -> argparse.ArgumentParser:
    """The options of the page's server: who may use it besides the page's own origin
    (``prefix`` says when they apply)."""
    parent = _parent(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help=f"{prefix}let pages of ORIGIN (http://host:port) use the page's sockets too; repeatable "
        "(default: the page's own origin only)",
    )
    parent.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help=f"{prefix}a name this machine is reached by that requests may give in Host, besides 127.0.0.1, "
        "localhost, [::1] and --host; repeatable",
    )
    parent.add_argument("--spectators", type=int, default=8, metavar="N",
                        help=f"{prefix}pages that may watch each table at once, read only, from /watch "
                        "(default 8; 0: none)")
    parent.add_argument("--spectators-see-hands", action="store_true",
                        help=f"{prefix}show spectators every hand, for teaching or commentary "
                        "(default: what every seat sees only)")
    parent.add_argument("--reclaim-grace", type=float, default=60.0, metavar="SECONDS",
                        help=f"{prefix}how long a page's seat waits for the page to come back (reloaded) during the "
                        "games before its table ends (default 60; 0: at once)")
    return parent


def output(json: str, quiet: str | None = None) -> argparse.ArgumentParser:
    """``--json`` (JSON on stdout instead of text, ``json`` saying what) and, given its help,
    ``--quiet`` (fewer lines on stderr, ``quiet`` saying which).

    >>> output("print the summary as JSON", "no progress bar").parse_args(["--json"])
    Namespace(json=True, quiet=False)
    """
    parent = _parent("--json", action="store_true", help=json)
    if quiet is not None:
        parent.add_argument("--quiet", action="store_true", help=quiet)
    return parent
