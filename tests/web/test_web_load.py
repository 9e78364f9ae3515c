"""The web UI's memory bounds measured on a real ``guandan serve --web`` process: pages that
flood ``/assist`` with requests in parts, readers that never read a record file, and more
page sockets than the server takes, all at once. The server's resident memory (``VmRSS``)
is sampled throughout; its growth stays within the bounds that the limits page states, and
the server still answers and exits on Ctrl-C. Every wait is bounded."""

from __future__ import annotations

import asyncio
import http.client
import json
import struct

import pytest

from guandan.platform.server import MAX_MESSAGE
from guandan.web.server import ASSIST_BUFFERED, MAX_PAGE_SOCKETS, RECORDS_IN_FLIGHT
from guandan.web.timeline import MAX_RECORD_BYTES
from tests.hostile import RawPeer, RssWatch, ServeProcess, rss_mib

pytestmark = pytest.mark.slow

MIB = 2**20
FLOOD_SECONDS = 30.0
#: The parts each page sends: 38 MiB, over four times the longest request it may make.
PARTS = 600
#: What the flood may add to the server's resident memory: the bounds the server keeps (the
#: parts held by all pages, the record bytes in flight, the frames the WebSocket library
#: buffers for each page socket) and room for the interpreter's own allocations.
BUDGET_MIB = (ASSIST_BUFFERED + RECORDS_IN_FLIGHT + MAX_PAGE_SOCKETS * 16 * MAX_MESSAGE) / MIB + 64


def _status_json(port: int) -> dict:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", "/status.json")
        response = conn.getresponse()
        assert response.status == 200
        return json.loads(response.read())
    finally:
        conn.close()


async def _flood_parts(peer: RawPeer, parts: int, seconds: float) -> int:
    """``parts`` parts of a request that never ends, as fast as the server reads them (for at
    most ``seconds``): the parts sent. One masked frame, made once, written again and again."""
    part = json.dumps({"part": "x" * (MAX_MESSAGE - 100)}).encode()
    frame = bytes([0x81, 0x80 | 126]) + struct.pack("!H", len(part)) + bytes(4) + part  # mask 0: the bytes as they are
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    sent = 0
    try:
        while sent < parts and loop.time() < end:
            peer.writer.write(frame)
            async with asyncio.timeout(max(0.05, end - loop.time())):
                await peer.writer.drain()
            sent += 1
    except (TimeoutError, ConnectionError, OSError):
        pass
    return sent


async def _slow_reader(port: int, name: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, bytes]:
    """A GET of a record whose answer is never read past its first bytes."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1024)
    writer.write(f"GET /records/{name} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    await writer.drain()
    async with asyncio.timeout(10):
        first = await reader.readline()
    return reader, writer, first


def test_floods_of_pages_keep_the_web_servers_memory_within_its_stated_bounds(tmp_path):
    big = tmp_path / "big.json"
    big.write_text(json.dumps({"pad": "x" * (MAX_RECORD_BYTES - 64)}))
    server = ServeProcess("--web", "--games", "1", "--records", str(tmp_path))
    try:
        _status_json(server.port)

        async def main() -> dict:
            baseline = rss_mib(server.pid)
            watch = RssWatch(server.pid).start()
            peers, refused = [], 0
            for _ in range(MAX_PAGE_SOCKETS + 4):
                try:
                    peers.append(await RawPeer.open(server.port, "/assist"))
                except ConnectionError as error:
                    assert "503" in str(error)
                    refused += 1
            readers, statuses = [], []
            for _ in range(12):
                reader, writer, first = await _slow_reader(server.port, "big.json")
                readers.append(writer)
                statuses.append(first.split()[1].decode())
            parts = await asyncio.gather(*(_flood_parts(p, PARTS, FLOOD_SECONDS) for p in peers))
            status = await asyncio.to_thread(_status_json, server.port)  # the server still answers
            await asyncio.sleep(1.0)  # the parts and answers still held, sampled
            peak = watch.stop()
            for peer in peers:
                peer.abort()
            for writer in readers:
                writer.close()
            return {"baseline": baseline, "peak": peak, "samples": watch.samples, "accepted": len(peers),
                    "refused": refused, "statuses": statuses, "parts": sum(parts), "status": status}

        seen = asyncio.run(asyncio.wait_for(main(), 120))
        server.interrupt()
        code, out, err = server.wait(30)
    finally:
        server.kill()
    assert seen["accepted"] == MAX_PAGE_SOCKETS and seen["refused"] == 4
    served = seen["statuses"].count("200")
    assert served >= RECORDS_IN_FLIGHT // big.stat().st_size  # (more when the kernel took whole answers)
    assert set(seen["statuses"]) <= {"200", "503"}
    assert seen["parts"] * (MAX_MESSAGE - 100) > 4 * ASSIST_BUFFERED  # the pages sent far more than is held
    assert seen["samples"] >= 10
    growth = seen["peak"] - seen["baseline"]
    print(f"baseline {seen['baseline']:.1f} MiB, peak {seen['peak']:.1f} MiB (+{growth:.1f}; budget {BUDGET_MIB:.0f}), "
          f"{seen['parts']} parts of 64 KiB sent by {seen['accepted']} pages, {served} of 12 record readers served")
    assert growth < BUDGET_MIB
    assert seen["status"]["tables"][0]["state"] == "seating"
    # Ctrl-C ends the table that never began
    assert code == 1 and "aborted: the server shut down" in out + err, (code, out[-300:])
