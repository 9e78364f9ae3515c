"""A server for synchronous code: :class:`ServerThread` runs a
:class:`~guandan.platform.server.PlatformServer` — or anything served the same way
(:class:`Served`: the browser's server and ``guandan web``'s table) — on an event loop in a
thread of its own (bots in threads or processes, tests, notebooks); :func:`start_server`
starts a platform server. It is the one thread runner: the browser's
(:func:`guandan.web.server.start_web`) is a :class:`ServerThread` too.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from typing import Any, Protocol, Self, runtime_checkable

from .results import ServeResult
from .server import PlatformServer
from .table import PlatformTable

__all__ = ["LoopThread", "Served", "ServerThread", "start_server"]


class LoopThread:
    """An event loop in a thread of its own that starts a service, then runs it until it
    ends: :meth:`start` returns once :meth:`_start` is done (raising what stopped it), and
    :meth:`_run` goes on in the thread. The base of :class:`ServerThread` and of the web
    table's thread.

    >>> class Hello(LoopThread):
    ...     async def _start(self) -> None:
    ...         self.said = "hello"
    ...     async def _run(self) -> None:
    ...         pass
    >>> Hello("hello").start().said
    'hello'
    """

    def __init__(self, name: str) -> None:
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread = threading.Thread(target=self._main, name=name, daemon=True)

    def start(self) -> Self:
        """Start the thread and return once the service started (raising what stopped it if it could not)."""
        self._thread.start()
        self._ready.wait()
        if self._error is not None:
            raise self._error
        return self

    async def _start(self) -> None:
        raise NotImplementedError

    async def _run(self) -> None:
        raise NotImplementedError

    def stop(self, timeout: float = 30) -> Any:
        """Shut the service down and return its result."""
        self._thread.join(timeout)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _main(self) -> None:
        async def run() -> None:
            self._loop = asyncio.get_running_loop()
            try:
                await self._start()
            except BaseException as error:  # reported to start()
                self._error = error
                self._ready.set()
                return
            self._ready.set()
            await self._run()

        asyncio.run(run())


@runtime_checkable
class Served(Protocol):
    """What a :class:`ServerThread` runs: a :class:`PlatformServer`, or an object served the
    same way (started, waited for, closed, its result).

    >>> isinstance(PlatformServer(port=0), Served)
    True
    """

    @property
    def url(self) -> str:
        """``ws://HOST:PORT/game/``."""

    @property
    def port(self) -> int:
        """The port it listens on."""

    @property
    def tables(self) -> list[PlatformTable]:
        """The tables."""

    async def start(self) -> None:
        """Listen."""

    async def wait(self) -> ServeResult:
        """Wait until every table is done; the result."""

    async def close(self) -> ServeResult:
        """Shut down now; the result."""

    def result(self) -> ServeResult:
        """The result so far."""


class ServerThread(LoopThread):
    """A server running on an event loop in a thread of its own, for synchronous code: bots
    in threads or processes, tests, notebooks. ``served``: what to run (by default a
    :class:`PlatformServer` made of ``options``); ``until_stopped``: serve until :meth:`stop`
    (a page stays served after the games) rather than until every table is done; ``name``:
    the thread's. :attr:`server` is the server (:attr:`served` unless a subclass says otherwise).

    >>> with start_server(port=0, seed=3) as running:
    ...     running.url.startswith("ws://127.0.0.1:"), running.port > 0
    (True, True)
    >>> running.result().complete   # stopped before any bot came
    False
    """

    server: Served

    def __init__(
        self,
        served: Served | None = None,
        *,
        until_stopped: bool = False,
        name: str = "guandan-platform-server",
        **options: Any,
    ) -> None:
        self.served: Served = PlatformServer(**options) if served is None else served
        self.server = self.served
        self.until_stopped = until_stopped
        self._stopping: asyncio.Event | None = None
        self._result: ServeResult | None = None
        super().__init__(name)

    async def _start(self) -> None:
        self._stopping = asyncio.Event()
        await self.served.start()

    async def _run(self) -> None:
        if self.until_stopped:
            assert self._stopping is not None
            await self._stopping.wait()
            self._result = await self.served.close()
        else:
            self._result = await self.served.wait()

    @property
    def port(self) -> int:
        """The port it listens on."""
        return self.served.port

    @property
    def url(self) -> str:
        """``ws://HOST:PORT/game/`` (a bot adds its name)."""
        return self.served.url

    def wait(self, timeout: float | None = None) -> ServeResult:
        """Wait until every table is done and return the result; :class:`TimeoutError` after ``timeout`` seconds."""
        self._thread.join(timeout)
        if self._thread.is_alive():
            raise TimeoutError(f"the server was still playing after {timeout} s")
        return self.result()

    def stop(self, timeout: float = 30) -> ServeResult:
        """Shut the server down (tables still playing are aborted) and return the result."""
        loop = self._loop
        if self._thread.is_alive() and loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop finished meanwhile
                if self.until_stopped and self._stopping is not None:
                    loop.call_soon_threadsafe(self._stopping.set)
                else:
                    asyncio.run_coroutine_threadsafe(self.served.close(), loop).result(timeout)
        self._thread.join(timeout)
        return self.result()

    def result(self) -> ServeResult:
        """The result (final once the server has stopped)."""
        return self._result if self._result is not None else self.served.result()


def start_server(**options: Any) -> ServerThread:
    """Start a platform server in a thread of its own (options as :class:`PlatformServer`)
    and return once it listens; ``.url``, ``.wait()``, ``.stop()``, a context manager."""
    return ServerThread(**options).start()
