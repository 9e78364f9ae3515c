"""Arena pairs through a real platform server: bots that are programs of their own, speaking
the AI competition's protocol, play :mod:`guandan.bots.arena`'s pairs seated at a
:class:`~guandan.platform.server.PlatformServer` (the server of ``guandan serve``).

A bot started as a command is the spec ``cmd:COMMAND``: the command line (split as a shell
would, without a shell) with ``{url}`` replaced by the WebSocket URL the bot connects to
(``ws://127.0.0.1:PORT/game/NAME``), ``{port}`` by the port, ``{seed}`` by the seat's seed and
``{seat}`` by the seat (0 to 3); the URL is also in the environment, ``GUANDAN_URL``.
``cmd:guandan connect {url} --agent greedy --seed {seed}`` is the package's own ``greedy`` as
such a program. The other bots of a pair (agent specs) play in this process, as ``guandan
connect`` would. A program still running once its game is over is ended.

Each half of a pair is one server on a free port, hosting one table: seat ``k`` connects
``k``-th (the next bot starts once the previous one has its seat), the first bot at seats 0
and 2 (then at 1 and 3), one game from the pair's seed — with ``kind="deals"`` a game of one
deal (the rules' deal cap at 1). The server deals the cards from the seed as ``guandan
serve --seed`` does, not as a deal of :mod:`guandan.bots.simulate`: the pairs are the same
run after run when the programs are deterministic, but not the deals of an in-process run.

>>> is_command("cmd:python bot.py {url}"), is_command("greedy")
(True, False)
>>> command_line("cmd:python bot.py --url {url} --seed {seed}", "ws://127.0.0.1:9/game/s0", 9, 7)
['python', 'bot.py', '--url', 'ws://127.0.0.1:9/game/s0', '--seed', '7']
>>> command_line("cmd:bot --seat {seat}", "ws://127.0.0.1:9/game/s2", 9, 7, seat=2)
['bot', '--seat', '2']
"""

from __future__ import annotations

import os
import shlex
import subprocess
import threading
import time
from collections.abc import Sequence
from typing import Any

from ..bots.agents import Agent
from ..bots.arena import COMMAND, PairResult, kind_ruleset
from ..core.rng import derive_seed
from ..errors import GuandanError, describe
from ..game.match import Match
from ..records.games import replay
from .connect import client_url, run_client_sync
from .thread import start_server

__all__ = ["is_command", "command_line", "play_pair_served", "play_pairs_served", "check_command"]

#: Seconds a bot may take to take its seat (a program imports its libraries first).
SEAT_TIMEOUT = 60.0
#: Seconds a half of a pair may take.
GAME_TIMEOUT = 3600.0
#: Seconds the programs have to end on their own once their game is over (then they are
#: asked to, and after as long again, ended).
EXIT_GRACE = 2.0


def is_command(spec: object) -> bool:
    """Whether a spec names a bot started as a command (``cmd:COMMAND``)."""
    return isinstance(spec, str) and spec.strip().startswith(COMMAND)


def check_command(spec: str) -> list[str]:
    """The words of a ``cmd:`` spec's command, or :class:`~guandan.GuandanError` naming what is wrong.

    >>> check_command("cmd:")
    Traceback (most recent call last):
    ...
    guandan.errors.GuandanError: bot 'cmd:': no command after cmd:
    """
    try:
        words = shlex.split(spec.strip()[len(COMMAND) :])
    except ValueError as error:
        raise GuandanError(f"bot {describe(spec)}: the command does not split into words: {error}") from None
    if not words:
        raise GuandanError(f"bot {describe(spec)}: no command after {COMMAND}")
    for word in words:
        try:
            word.format(url="", port=0, seed=0, seat=0)
        except (KeyError, IndexError, ValueError) as error:
            raise GuandanError(
                f"bot {describe(spec)}: {word!r} names {error} (the command may use {{url}}, {{port}}, {{seed}}, "
                "{seat})"
            ) from None
    return words


def command_line(spec: str, url: str, port: int, seed: int, seat: int = 0) -> list[str]:
    """The command of a ``cmd:`` spec with its ``{url}``, ``{port}``, ``{seed}`` and ``{seat}`` filled in."""
    return [word.format(url=url, port=port, seed=seed, seat=seat) for word in check_command(spec)]


def _seat(
    spec: str, url: str, port: int, seed: int, seat: int
) -> tuple[subprocess.Popen[bytes] | None, threading.Thread | None]:
    """Start seat's bot: a program, or an agent in a thread of this process."""
    if is_command(spec):
        args = command_line(spec, url, port, seed, seat)
        env = {**os.environ, "GUANDAN_URL": url}
        try:
            proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        except OSError as error:
            raise GuandanError(f"bot {describe(spec)}: cannot start {args[0]!r}: {error.strerror}") from None
        return proc, None
    thread = threading.Thread(target=_client, args=(url, spec, seed), daemon=True)
    thread.start()
    return None, thread


def _client(url: str, spec: str | Agent, seed: int) -> None:
    run_client_sync(url, spec, seed=seed)


def _half(specs: list[str], seed: int, ruleset: Any) -> dict[str, Any]:
    """One game on a server of its own, seat ``k`` played by ``specs[k]``; its record."""
    procs: list[subprocess.Popen[bytes]] = []
    threads: list[threading.Thread] = []
    with start_server(port=0, games=1, seed=seed, ruleset=ruleset) as running:
        table = running.server.tables[0]
        try:
            for k, spec in enumerate(specs):
                url = client_url(running.url, f"seat{k}")
                proc, thread = _seat(spec, url, running.port, derive_seed(seed, k), k)
                procs += [proc] if proc is not None else []
                threads += [thread] if thread is not None else []
                deadline = time.monotonic() + SEAT_TIMEOUT
                while table.names[k] is None:  # connection order is seat order
                    if proc is not None and proc.poll() is not None:
                        status = proc.returncode
                        raise GuandanError(f"bot {describe(spec)} ended (status {status}) before taking seat {k}")
                    if time.monotonic() > deadline:
                        raise GuandanError(f"bot {describe(spec)} did not take seat {k} within {SEAT_TIMEOUT:g} s")
                    time.sleep(0.005)
            result = running.wait(GAME_TIMEOUT)
        finally:
            _end(procs)
    for thread in threads:
        thread.join(10)
    if not result.complete or not result.records:
        reason = result.tables[0].abort_reason if result.tables else None
        raise GuandanError(f"the game of seed {seed} did not finish: {reason or 'a bot left'}")
    record: dict[str, Any] = result.records[0]
    return record


def _end(procs: list[subprocess.Popen[bytes]]) -> None:
    """End the programs of a half: those that do not end on their own within
    :data:`EXIT_GRACE` seconds (some bots keep their connection's thread waiting) are asked
    to (SIGTERM), and those still there after as long again are killed."""
    for ask in (None, subprocess.Popen.terminate, subprocess.Popen.kill):
        deadline = time.monotonic() + EXIT_GRACE
        for proc in procs:
            if ask is not None and proc.poll() is None:
                ask(proc)
        for proc in procs:
            try:
                proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
        if all(proc.poll() is not None for proc in procs):
            return


def play_pair_served(
    kind: str, pair: int, run_seed: int, specs: Sequence[Any], ruleset: str | None = None, a: int = 0, b: int = 1
) -> PairResult:
    """Pair ``pair`` of a run seeded ``run_seed`` between ``specs[a]`` and ``specs[b]`` (agent
    specs or ``cmd:`` programs), each half one game on a platform server."""
    seed = derive_seed(run_seed, pair)
    rules = kind_ruleset(kind, ruleset)
    if kind == "deals":
        rules = rules.with_deal_cap(1)
    deals, won, levels, points = [], [], [], []
    for side, order in ((0, [specs[a], specs[b]]), (1, [specs[b], specs[a]])):
        match = replay(_half([str(order[k & 1]) for k in range(4)], seed, rules))
        assert isinstance(match, Match)
        deals.append(len(match.results))
        won.append(sum(r.result.winning_side == side for r in match.results))
        levels.append(sum(match.ruleset.gain(r.result.partner_place) * (1 if r.result.winning_side == side else -1)
                          for r in match.results))  # fmt: skip
        if kind == "deals":
            points.append(float(won[-1]))
        else:
            points.append(0.5 if match.winner is None else float(match.winner == side))
    return PairResult(a, b, pair, seed, (deals[0], deals[1]), (won[0], won[1]), (levels[0], levels[1]),
                      (points[0], points[1]))  # fmt: skip


def play_pairs_served(
    kind: str, tasks: Sequence[tuple[int, int, int]], run_seed: int, specs: Sequence[Any], ruleset: str
) -> list[PairResult]:
    """Play the pairs ``(a, b, pair)`` through servers, in order (the unit of work of
    :func:`guandan.bots.arena.head_to_head`'s ``player``)."""
    return [play_pair_served(kind, pair, run_seed, specs, ruleset, a, b) for a, b, pair in tasks]
