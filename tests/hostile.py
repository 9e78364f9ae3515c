"""Hostile peers for the platform server and client, over raw TCP: nothing here is done by a
WebSocket library on the peer's behalf, so a peer can refuse to answer a close frame, stop
reading, flood frames of any size or send bytes no library would.

:class:`RawPeer` is one WebSocket connection to a server, built by hand (the opening
handshake, masked frames, a frame reader); :func:`rss_mib` reads a process's resident set
size from ``/proc/PID/status``; :class:`ServeProcess` is a real ``guandan serve`` process,
and :func:`play_until` has raw peers answer every request with its first entry until a stage.
Every wait has a time bound.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from typing import Any

OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING = 0x1, 0x2, 0x8, 0x9


class PeerClosed(Exception):
    """The server ended the TCP connection (end of stream or reset)."""


class RawPeer:
    """One WebSocket connection made by hand. :meth:`send` writes a masked frame of any
    opcode and payload; :meth:`recv` reads the next frame as ``(opcode, payload)`` and never
    answers anything by itself (a close frame is returned like any other)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, polite: bool = False) -> None:
        self.reader = reader
        self.writer = writer
        self.polite = polite  # answer the server's close frame (as a WebSocket library does)
        self.close_code: int | None = None  # of the close frame the server sent, once read
        self.close_reason = ""

    @classmethod
    async def open(cls, port: int, path: str, *, host: str = "127.0.0.1", rcvbuf: int | None = None,
                   timeout: float = 10.0, polite: bool = False) -> RawPeer:
        """Connect and make the opening handshake for ``path`` (``/game/NAME``, already
        quoted). ``rcvbuf``: a small receive buffer, for a peer that stops reading.
        ``polite``: answer the server's close frame, as a library would (else never)."""
        sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        sock.setblocking(False)
        loop = asyncio.get_running_loop()
        async with asyncio.timeout(timeout):
            await loop.sock_connect(sock, (host, port))
            reader, writer = await asyncio.open_connection(sock=sock, limit=2**20)
            key = base64.b64encode(os.urandom(16)).decode()
            where = f"[{host}]" if ":" in host else host
            writer.write(
                (
                    f"GET {path} HTTP/1.1\r\nHost: {where}:{port}\r\nUpgrade: websocket\r\n"
                    f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
                ).encode("latin-1")
            )
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
        status = head.split(b"\r\n", 1)[0]
        if b" 101 " not in status:
            writer.close()
            raise ConnectionError(f"the handshake was refused: {status!r}")
        return cls(reader, writer, polite)

    async def send(self, payload: bytes | str, opcode: int = OP_TEXT, *, fin: bool = True) -> None:
        """One masked frame (a ``str`` is encoded as UTF-8; ``bytes`` go as they are, valid or not)."""
        data = payload.encode("utf-8") if isinstance(payload, str) else payload
        head = bytes([(0x80 if fin else 0) | opcode])
        n = len(data)
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 1 << 16:
            head += bytes([0x80 | 126]) + struct.pack("!H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack("!Q", n)
        mask = os.urandom(4)
        if n:
            masked = (int.from_bytes(data, "little") ^ int.from_bytes(mask * (n // 4 + 1), "little")).to_bytes(
                (n // 4 + 1) * 4, "little"
            )[:n]
        else:
            masked = b""
        try:
            self.writer.write(head + mask + masked)
            await self.writer.drain()
        except (ConnectionError, OSError) as error:
            raise PeerClosed(str(error)) from None

    async def recv(self, timeout: float = 30.0) -> tuple[int, bytes]:
        """The next frame from the server; :class:`PeerClosed` when the connection ended."""
        try:
            async with asyncio.timeout(timeout):
                b0, b1 = await self.reader.readexactly(2)
                n = b1 & 0x7F
                if n == 126:
                    (n,) = struct.unpack("!H", await self.reader.readexactly(2))
                elif n == 127:
                    (n,) = struct.unpack("!Q", await self.reader.readexactly(8))
                payload = await self.reader.readexactly(n)
        except (asyncio.IncompleteReadError, ConnectionError, OSError) as error:
            raise PeerClosed(str(error)) from None
        opcode = b0 & 0x0F
        if opcode == OP_CLOSE and self.close_code is None:
            self.close_code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
            self.close_reason = payload[2:].decode("utf-8", "replace")
            if self.polite:  # the close frame back, then the end of the stream, as a client library does
                with contextlib.suppress(PeerClosed, OSError):
                    await self.send(payload[:2], OP_CLOSE)
                    self.writer.write_eof()
        return opcode, payload

    async def message(self, timeout: float = 30.0) -> dict[str, Any] | None:
        """The next text frame as JSON (``None`` for a close frame)."""
        while True:
            opcode, payload = await self.recv(timeout)
            if opcode == OP_CLOSE:
                return None
            if opcode in (OP_TEXT, OP_BINARY):
                return json.loads(payload)

    async def wait_cut(self, timeout: float) -> float:
        """Read (and drop) whatever comes, answering nothing, until the server ends the TCP
        connection; the seconds it took. Raises :class:`TimeoutError` after ``timeout``."""
        start = time.monotonic()
        async with asyncio.timeout(timeout):
            try:
                while True:
                    await self.recv(timeout)
            except PeerClosed:
                return time.monotonic() - start

    def stop_reading(self) -> None:
        """Read nothing more from the socket (the server's writes fill the TCP window, then block)."""
        self.writer.transport.pause_reading()

    def abort(self) -> None:
        transport = self.writer.transport
        if not transport.is_closing():
            transport.abort()


async def flood(peer: RawPeer, seconds: float, size: int = 60_000, *, stop: Any = None) -> tuple[int, bool]:
    """Send text frames of ``size`` bytes as fast as the server takes them, for ``seconds``
    (or until ``stop()`` is true or the server cuts the connection); the frames sent and
    whether the server cut the connection."""
    frame = b"x" * size
    sent = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not (stop is not None and stop()):
        try:
            async with asyncio.timeout(max(0.01, deadline - time.monotonic())):
                await peer.send(frame)
        except PeerClosed:
            return sent, True
        except TimeoutError:  # the server does not read: its TCP window is full
            break
        sent += 1
        await asyncio.sleep(0)  # the other peers of this event loop play meanwhile
    return sent, False


async def answer_first(
    peer: RawPeer, until: str | None = "gameResult", timeout: float = 60.0, seen: list[float] | None = None
) -> dict[str, Any]:
    """Answer every request with entry 0 until a notification of stage ``until`` (returned)
    or the server's close frame (``{}``); ``seen``, if given, gets the time of each message."""
    deadline = time.monotonic() + timeout
    while True:
        message = await peer.message(max(0.1, deadline - time.monotonic()))
        if seen is not None:
            seen.append(time.monotonic())
        if message is None:
            return {}
        if message.get("type") == "act":
            await peer.send('{"actIndex": 0}')
        elif until is not None and message.get("stage") == until:
            return message


async def seat_peers(port: int, names: list[str], **options: Any) -> list[RawPeer]:
    """Connect one raw peer per name, in order (so the seats follow the list)."""
    peers = []
    for name in names:
        peers.append(await RawPeer.open(port, f"/game/{name}", **options))
        await asyncio.sleep(0.05)
    return peers


def rss_mib(pid: int) -> float:
    """The resident set size of process ``pid``, in MiB (``VmRSS`` of ``/proc/PID/status``)."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


class RssWatch:
    """Samples a process's resident memory every ``every`` seconds in the background; ``peak``."""

    def __init__(self, pid: int, every: float = 0.05) -> None:
        self.pid = pid
        self.every = every
        self.peak = 0.0
        self.samples = 0
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        while True:
            try:
                self.peak = max(self.peak, rss_mib(self.pid))
                self.samples += 1
            except (OSError, RuntimeError):  # the process ended
                return
            await asyncio.sleep(self.every)

    def start(self) -> RssWatch:
        self._task = asyncio.get_running_loop().create_task(self._run())
        return self

    def stop(self) -> float:
        if self._task is not None:
            self._task.cancel()
        return self.peak


class ServeProcess:
    """A real ``guandan serve --port 0 ARGS`` process; :attr:`port` once it listens."""

    def __init__(self, *args: str) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.stderr = tempfile.TemporaryFile("w+", encoding="utf-8")  # a file: a pipe left unread would block it
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "guandan", "serve", "--port", "0", *args],
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            text=True,
            env=env,
        )
        assert self.proc.stdout is not None
        first = self.proc.stdout.readline()
        if first != "Ready for connect.\n":
            self.kill()
            raise AssertionError(f"guandan serve did not start: {first!r} {self.err()!r}")
        self.url = self.proc.stdout.readline().strip()
        self.port = int(self.url.split("]:")[-1].split(":")[-1].split("/")[0])
        self.pid = self.proc.pid

    def interrupt(self) -> None:
        self.proc.send_signal(signal.SIGINT)

    def err(self) -> str:
        """What it wrote on stderr so far."""
        self.stderr.seek(0)
        return self.stderr.read()

    def wait(self, timeout: float) -> tuple[int | None, str, str]:
        """The exit status (``None`` if still running after ``timeout``: then killed), stdout and stderr."""
        try:
            out, _ = self.proc.communicate(timeout=timeout)
            return self.proc.returncode, out, self.err()
        except subprocess.TimeoutExpired:
            self.kill()
            out, _ = self.proc.communicate(timeout=30)
            return None, out, self.err()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(30)
