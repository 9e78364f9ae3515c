"""The platform under load: K tables of four ``guandan connect`` clients, each its own process.

    python benchmarks/platform_load.py [--tables 8] [--games 1] [--agent greedy] [--seed 1]

A :class:`~guandan.platform.PlatformServer` runs in this process's event loop (nothing
else runs here while the games are played: this process's CPU time is the server's), and
``4K`` ``guandan connect`` processes connect to it, four to a table. Each client is a
process running the command's own entry point (``guandan.ui.cli.main(["connect", URL,
"--agent", …])``), forked from this process before the server starts, so that the
package is imported once (an editable install rebuilds on each import: ~10 s of CPU a
process); the clients connect once all are ready, so every table starts at once. The
figures:

* **games/s, deals/s, messages/s**: from the first table's start to the last game's end;
  messages are those the server sent (one per recipient) and received;
* **the server's added latency per request**, measured in the server: from receiving a
  valid answer to having sent the next request (the ``notify play`` to all four in
  between), p50 and p99 of every request after an answer; and the server thread's own CPU
  time in that span (what it would add on an idle machine: on a loaded one the wall time
  also holds the time it waited for a core);
* **who is the bottleneck**: the CPU seconds of the server and of all the clients over
  the same window (read from ``/proc``), as a share of the wall time: a server near 100 %
  of one core would be the bottleneck; well below it, the clients are.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import platform
import sys
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import numpy as np

from guandan import __version__
from guandan.platform import PlatformServer, ServeResult
from guandan.platform.results import percentile
from guandan.platform.table import TableState
from guandan.ui.cli import main as guandan_main

_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux ``/proc``), 0 if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / _TICK


def client(inbox: Connection, argv: list[str], nice: int) -> None:
    """A client process: wait for the server's URL, then run ``guandan connect URL ARGV``."""
    if nice:
        os.nice(nice)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    url = inbox.recv()
    inbox.close()
    sys.exit(guandan_main(["connect", url, *argv]))


async def serve(
    args: argparse.Namespace, pipes: list[Connection], procs: list[Any]
) -> tuple[ServeResult, float, float, float] | None:
    """Run the server in this thread's event loop (nothing else runs in this process) until
    every table is done; the result, the time from the first table's start, and the CPU
    seconds of the server and of the clients over that time."""
    async with PlatformServer(
        port=0, games=args.games, tables=args.tables, ruleset=args.ruleset, seed=args.seed
    ) as server:
        for outbox in pipes:
            outbox.send(server.url)
            outbox.close()
        while all(t.state is TableState.SEATING for t in server.tables):
            if any(p.exitcode is not None for p in procs):
                return None
            await asyncio.sleep(0.005)
        start = time.perf_counter()
        server_cpu0 = time.process_time()
        clients_cpu0 = sum(cpu_seconds(p.pid) for p in procs)
        result = await server.wait()
        elapsed = time.perf_counter() - start
        server_cpu = time.process_time() - server_cpu0
        clients_cpu = sum(cpu_seconds(p.pid) for p in procs) - clients_cpu0
    return result, elapsed, server_cpu, clients_cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=8, help="tables (default 8: 32 client processes)")
    parser.add_argument("--games", type=int, default=1, help="whole games per table (default 1)")
    parser.add_argument("--agent", default="greedy", help="the clients' agent (default greedy)")
    parser.add_argument("--ruleset", default="platform", help="the server's ruleset (default platform)")
    parser.add_argument("--seed", type=int, default=1, help="the server's seed (default 1)")
    parser.add_argument(
        "--nice", type=int, default=0, help="run the clients at this niceness (default 0: as the server)"
    )
    parser.add_argument("--summary", action="store_true", help="print the server's summary (every seat) too")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds before giving up (default 1800)")
    args = parser.parse_args()

    n = 4 * args.tables
    print(
        f"machine: {os.cpu_count()} cpus, Python {platform.python_version()}, guandan {__version__};"
        f" {args.tables} tables x 4 `guandan connect --agent {args.agent}` processes, {args.games} game(s) each,"
        f" ruleset {args.ruleset}, seed {args.seed}" + (f", clients at nice {args.nice}" if args.nice else ""),
        flush=True,
    )
    fork = multiprocessing.get_context("fork")
    pipes, procs = [], []
    for i in range(n):  # forked before the server starts
        outbox, inbox = fork.Pipe()
        argv = ["--agent", args.agent, "--quiet", "--name", f"c{i}", "--seed", str(i)]
        proc = fork.Process(target=client, args=(inbox, argv, args.nice))
        proc.start()
        pipes.append(outbox)
        procs.append(proc)
    try:
        measured = asyncio.run(asyncio.wait_for(serve(args, pipes, procs), args.timeout))
    except TimeoutError:
        print(f"the games did not end within {args.timeout:g} s", file=sys.stderr)
        for p in procs:
            p.kill()
        return 1
    if measured is None:
        print("a client ended before its table started", file=sys.stderr)
        for p in procs:
            p.kill()
        return 1
    result, elapsed, server_cpu, clients_cpu = measured
    for p in procs:
        p.join(60)
    codes = [p.exitcode for p in procs]
    if args.summary:
        print(result.format())
    if not result.complete or any(code != 0 for code in codes):
        # a client still running a minute after the games ended has no exit code (None): a failure,
        # killed and listed first, the codes in order
        for p in procs:
            if p.exitcode is None:
                p.kill()
                p.join(5)
        shown = sorted(set(codes), key=lambda code: (code is not None, code or 0))
        print(f"FAILED: complete {result.complete}, client exit codes {shown}", file=sys.stderr)
        return 1
    added, cpu = result.added, result.added_cpu
    p50, p99 = percentile(added, 50) or 0, percentile(added, 99) or 0
    c50, c99 = percentile(cpu, 50) or 0, percentile(cpu, 99) or 0
    answers = sum(s.answers for t in result.tables for s in t.seats)
    print(
        f"{result.games_played} games, {result.deals} deals, {answers} requests answered in {elapsed:.1f} s:"
        f" {result.games_played / elapsed:.2f} games/s, {result.deals / elapsed:.1f} deals/s,"
        f" {result.messages / elapsed:,.0f} messages/s ({result.messages} messages)"
    )
    print(
        f"server added latency per request ({len(added)} after an answer): p50 {p50 * 1e3:.3f} ms,"
        f" p99 {p99 * 1e3:.3f} ms, max {max(added) * 1e3:.1f} ms (wall)"
    )
    print(
        f"  its own CPU time in that span: p50 {c50 * 1e3:.3f} ms, p99 {c99 * 1e3:.3f} ms,"
        f" mean {np.mean(cpu) * 1e3:.3f} ms"
    )
    print(
        f"CPU over the run: server {server_cpu:.1f} s ({100 * server_cpu / elapsed:.0f} % of a core),"
        f" clients {clients_cpu:.1f} s ({100 * clients_cpu / elapsed:.0f} % of a core, {n} processes);"
        f" the server's share {100 * server_cpu / max(1e-9, server_cpu + clients_cpu):.0f} %"
    )
    verdict = "the server" if server_cpu > 0.9 * elapsed else "the clients"
    print(f"bottleneck: {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
