"""The platform server's own cost: requests answered per second, without and with sockets.

    python benchmarks/platform_server.py [--games N] [--tables K] [--seed S]

``table``: the sans-I/O :class:`~guandan.platform.PlatformTable` driven in a loop, each
request answered at once with a seeded random index — building every message (the
``actionList`` from the engine's legal moves), parsing the answer, applying it.

``per request``: the same table's cost of each request after an answer (applying the
answer, building and encoding the ``notify play`` and the next request, as sent), in
games where greedy clients (:class:`~guandan.platform.PlatformClient`) answer: every game
is replayed five times with the same answers and each request's minimum kept (the other
work on the machine only ever adds time), then p50, p99 and max over all requests.

``sockets``: a :class:`~guandan.platform.PlatformServer` on 127.0.0.1 with ``K`` tables,
and ``4K`` minimal bots (websockets clients, random index, no checks) in the same
process and event loop; the time is from the first table's start to the last game's
end, so it includes the bots' JSON parsing: a bound on the server, not the server alone.
(The load benchmark with ``guandan connect`` processes is the client side's.)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import random
import time

from websockets.asyncio.client import connect

from guandan import __version__
from guandan.platform import PlatformClient, PlatformServer, PlatformTable, TableState
from guandan.platform.results import percentile


def bench_table(games: int, seed: int) -> tuple[int, int, float]:
    rng = random.Random(seed)
    answers = deals = 0
    start = time.perf_counter()
    for g in range(games):
        table = PlatformTable(seed=seed + g)
        for name in "abcd":
            table.join(name)
        table.start()
        while table.state is TableState.PLAYING:
            pending = table.pending
            assert pending is not None and table.awaiting is not None
            index = rng.randint(0, pending["indexRange"])
            table.receive(table.awaiting, json.dumps({"actIndex": index}))
            answers += 1
        deals += table.deals
    return answers, deals, time.perf_counter() - start


def greedy_answers(seed: int) -> list[tuple[int, str]]:
    """The answers greedy clients give in game ``seed``: (seat, text) in order."""
    table = PlatformTable(seed=seed)
    for name in "abcd":
        table.join(name)
    clients = [PlatformClient("greedy") for _ in range(4)]
    answers = []
    queue = list(table.start())
    while queue:
        send = queue.pop(0)
        for seat in send.seats:
            answer = clients[seat].receive(send.wire)
            if answer is not None:
                answers.append((seat, answer))
                queue.extend(table.receive(seat, answer).sends)
    return answers


def bench_per_request(games: int, seed: int, repeats: int = 5) -> tuple[list[float], int]:
    best: list[float] = []
    for g in range(games):
        answers = greedy_answers(seed + g)
        runs = []
        for _ in range(repeats):
            table = PlatformTable(seed=seed + g)
            for name in "abcd":
                table.join(name)
            for send in table.start():
                _ = send.wire
            times = []
            for seat, answer in answers:
                start = time.perf_counter()
                for send in table.receive(seat, answer).sends:
                    _ = send.wire
                times.append(time.perf_counter() - start)
            runs.append(times)
        best += [min(column) for column in zip(*runs)]
    return best, len(best)


async def bot(url: str, name: str, seed: int) -> int:
    rng = random.Random(seed)
    answers = 0
    async with connect(url + name, max_size=None, compression=None, proxy=None) as ws:
        async for text in ws:
            message = json.loads(text)
            if message["type"] == "act":
                await ws.send(json.dumps({"actIndex": rng.randint(0, message["indexRange"])}))
                answers += 1
    return answers


async def bench_sockets(games: int, tables: int, seed: int) -> tuple[int, int, float]:
    async with PlatformServer(port=0, games=games, tables=tables, seed=seed) as server:
        tasks = []
        for i in range(4 * tables):
            tasks.append(asyncio.create_task(bot(server.url, f"bot{i}", seed * 1000 + i)))
            await asyncio.sleep(0.01)
        start = time.perf_counter()
        result = await server.wait()
        elapsed = time.perf_counter() - start
        answers = sum(await asyncio.gather(*tasks))
    assert result.complete
    return answers, result.deals, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="whole games per table (default 4)")
    parser.add_argument("--tables", type=int, default=4, help="tables for the socket run (default 4)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"machine: Python {platform.python_version()}, guandan {__version__}; ruleset platform, random bots")
    answers, deals, elapsed = bench_table(args.games, args.seed)
    print(
        f"table    1 table  x {args.games} games: {deals} deals, {answers} requests in {elapsed:.2f} s"
        f" = {answers / elapsed:,.0f} requests/s ({1e3 * elapsed / answers:.3f} ms each)"
    )
    best, n = bench_per_request(args.games, args.seed)
    p50, p99 = percentile(best, 50) or 0, percentile(best, 99) or 0
    print(
        f"per request, greedy answers, {args.games} games: {n} requests, min of 5 runs each:"
        f" p50 {p50 * 1e3:.3f} ms, p99 {p99 * 1e3:.3f} ms, max {max(best) * 1e3:.3f} ms"
    )
    answers, deals, elapsed = asyncio.run(bench_sockets(args.games, args.tables, args.seed))
    print(
        f"sockets  {args.tables} tables x {args.games} games: {deals} deals, {answers} requests in {elapsed:.2f} s"
        f" = {answers / elapsed:,.0f} requests/s ({1e3 * elapsed / answers:.3f} ms each, bots included)"
    )


if __name__ == "__main__":
    main()
