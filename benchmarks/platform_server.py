"""The platform server's own cost: requests answered per second, without and with sockets.

    python benchmarks/platform_server.py [--games N] [--tables K] [--seed S]

``table``: the sans-I/O :class:`~guandan.platform.PlatformTable` driven in a loop, each
request answered at once with a seeded random index — building every message (the
``actionList`` from the engine's legal moves), parsing the answer, applying it.

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
from guandan.platform import PlatformServer, PlatformTable, TableState


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
    answers, deals, elapsed = asyncio.run(bench_sockets(args.games, args.tables, args.seed))
    print(
        f"sockets  {args.tables} tables x {args.games} games: {deals} deals, {answers} requests in {elapsed:.2f} s"
        f" = {answers / elapsed:,.0f} requests/s ({1e3 * elapsed / answers:.3f} ms each, bots included)"
    )


if __name__ == "__main__":
    main()
