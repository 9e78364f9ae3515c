"""A whole platform game on this machine, in one call: :func:`run_local` runs a platform
server in a thread (:func:`~guandan.platform.start_server`, on a free port) and four
clients (:func:`~guandan.platform.connect.run_client`) that connect to it over loopback
WebSockets, and returns the server's result and each client's (:class:`LocalResult`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..bots.agents import Agent
from ..bots.registry import make_agent, seat_specs
from ..core.rng import derive_seed
from ..errors import GuandanError, describe
from .client import ClientResult
from .connect import run_client
from .thread import start_server

__all__ = ["LocalResult", "run_local"]


@dataclass
class LocalResult:
    """A local run: the server's :class:`~guandan.platform.ServeResult` (every game's record)
    and each seat's :class:`ClientResult`."""

    server: Any
    clients: list[ClientResult]

    def format(self) -> str:
        """The server's summary."""
        text: str = self.server.format()
        return text


def run_local(
    agents: str | Sequence[Agent | str] = "greedy",
    *,
    games: int = 1,
    seed: int | None = 0,
    ruleset: Any = "platform",
    timeout: float | None = None,
    **server_options: Any,
) -> LocalResult:
    """Play whole games on this machine: a platform server in a thread
    (:func:`~guandan.platform.start_server`, on a free port) and four clients, seats 0 to 3,
    playing ``agents`` (one spec for all, four specs separated by commas, or a list of four
    agents or specs; seat ``i``'s agent made from a spec is seeded ``derive_seed(seed, i)``).
    ``games``, ``seed``, ``ruleset`` and ``server_options`` (``records``, ``log``,
    ``act_timeout``) are the server's. Raises :class:`TimeoutError` after ``timeout`` seconds.

    >>> run = run_local("greedy", games=1, seed=7, ruleset="platform+cap2")
    >>> run.server.complete, run.server.deals, [c.complete for c in run.clients]
    (True, 2, [True, True, True, True])
    """
    specs: list[Agent | str]
    if isinstance(agents, str) or (isinstance(agents, Sequence) and all(isinstance(a, str) for a in agents)):
        specs = list(seat_specs(agents))  # type: ignore[arg-type]
    elif isinstance(agents, Sequence) and len(agents) == 4:
        specs = list(agents)
    else:
        raise GuandanError(f"agents are one spec, or four specs or agents (one per seat); got {describe(agents)}")
    base = 0 if seed is None else seed
    players: list[tuple[Agent | str, str]] = []
    for i, a in enumerate(specs):
        if isinstance(a, str):
            players.append((make_agent(a, derive_seed(base, i)), f"{a.strip()}-{i}"))
        else:
            players.append((a, f"{getattr(a, 'name', type(a).__name__)}-{i}"))
    with start_server(port=0, games=games, seed=seed, ruleset=ruleset, **server_options) as running:
        table = running.server.tables[0]

        async def play() -> list[ClientResult]:
            tasks = []
            for i, (agent, name) in enumerate(players):  # connection order makes the seats
                tasks.append(asyncio.create_task(run_client(running.url, agent, name=name)))
                while table.names[i] is None and not tasks[-1].done():
                    await asyncio.sleep(0.002)
            return list(await asyncio.gather(*tasks))

        results = asyncio.run(asyncio.wait_for(play(), timeout))
        server = running.wait(timeout)
    return LocalResult(server, results)
