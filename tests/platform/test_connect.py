"""``guandan.platform.connect``: playing on a platform server over a WebSocket (``run_client``,
``guandan connect``): the bot's URL, whole games next to other bots and processes, a server
that closes early or refuses; real sockets on 127.0.0.1, every test bounded in time."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import pytest
from platform_games import LIMIT
from websockets.asyncio.client import connect

from guandan import GuandanError
from guandan.platform import (
    PlatformServer,
    client_url,
    run_client,
    run_client_sync,
    start_server,
)
from guandan.platform.server import CLOSE_DISCONNECTED
from guandan.records.games import replay
from guandan.ui.cli import main


def test_client_urls():
    assert client_url("ws://127.0.0.1:23456/game/", "greedy") == "ws://127.0.0.1:23456/game/greedy"
    assert client_url("ws://127.0.0.1:23456/game", "a b") == "ws://127.0.0.1:23456/game/a%20b"
    assert client_url("ws://h:1/", "x") == client_url("ws://h:1", "x") == "ws://h:1/game/x"
    assert client_url("ws://h:1/game/team7") == "ws://h:1/game/team7"
    assert client_url("ws://h:1/game/team7", "team7") == "ws://h:1/game/team7"
    for url, name, problem in [
        ("http://h:1/game/", "x", "not a WebSocket URL"),
        ("h:1", "x", "not a WebSocket URL"),
        ("ws://h:1/game/", None, "names no bot"),
        ("ws://h:1/game/team7", "other", "already names the bot"),
        (None, "x", "a URL is a string"),
    ]:
        with pytest.raises(GuandanError, match=problem):
            client_url(url, name)


def test_run_client_next_to_other_bots_and_a_closed_table(tmp_path):
    async def leaver(url):
        async with connect(url + "leaver") as ws:
            await ws.recv()  # the beginning message, then away

    async def scenario():
        async with PlatformServer(port=0, seed=2) as server:
            tasks = []
            for i in range(3):
                play = run_client(server.url, "greedy", name=f"g{i}", log=tmp_path / f"{i}.jsonl")
                tasks.append(asyncio.create_task(play))
                await asyncio.sleep(0.2)
            tasks.append(asyncio.create_task(leaver(server.url)))
            result = await asyncio.wait_for(server.wait(), LIMIT)
            return result, await asyncio.wait_for(asyncio.gather(*tasks), LIMIT)

    result, (a, b, c, _) = asyncio.run(scenario())
    assert not result.complete
    for r in (a, b, c):
        assert not r.complete and r.close_code == CLOSE_DISCONNECTED and "disconnected" in r.close_reason
        assert "the games did not end (closed with code 4001" in r.format()
    lines = [json.loads(line) for line in (tmp_path / "0.jsonl").read_text().splitlines()]
    assert lines[0]["event"] == "connect" and lines[-1]["event"] == "close"
    assert {line["dir"] for line in lines[1:-1]} <= {"in", "out"}
    assert lines[1]["msg"]["stage"] == "beginning"


@pytest.mark.parametrize(("code", "ended"), [(1000, True), (1001, False), (4001, False)])
def test_a_server_closing_without_game_result(code, ended):
    from websockets.asyncio.server import serve

    async def handler(ws):
        beginning = {"type": "notify", "stage": "beginning", "handCards": ["S3", "S4"], "myPos": 2}
        await ws.send(json.dumps(beginning))
        await ws.close(code, "bye")

    async def scenario():
        async with serve(handler, "127.0.0.1", 0) as server:
            port = server.sockets[0].getsockname()[1]
            return await asyncio.wait_for(run_client(f"ws://127.0.0.1:{port}/game/", "greedy"), LIMIT)

    result = asyncio.run(scenario())
    assert result.seat == 2 and not result.complete and result.close_code == code and result.close_reason == "bye"
    assert result.ended is ended and result.ok is ended
    assert ("closed the connection normally" in result.format()) is ended


def test_a_refused_connection_is_a_clear_error(capsys):
    with start_server(port=0) as srv:
        port = srv.port
    with pytest.raises(GuandanError, match=f"cannot connect to ws://127.0.0.1:{port}/game/greedy"):
        run_client_sync(f"ws://127.0.0.1:{port}/game/", "greedy", open_timeout=5)
    assert main(["connect", f"ws://127.0.0.1:{port}/game/", "--agent", "greedy"]) == 2
    assert "cannot connect to" in capsys.readouterr().err
    with start_server(port=0) as srv:
        with pytest.raises(GuandanError, match="HTTP 404"):
            run_client_sync(srv.url.replace("/game/", "/other/x"), "greedy", open_timeout=5)
    assert main(["connect", "ws://127.0.0.1:1/game/", "--agent", "nobody"]) == 2
    assert "unknown agent 'nobody'" in capsys.readouterr().err


def test_connect_help(capsys):
    assert main(["connect", "--help"]) == 0
    out = capsys.readouterr().out
    for option in ("--agent", "--name", "--seed", "--log", "--json", "--quiet"):
        assert option in out


@pytest.mark.slow
def test_four_guandan_connect_processes_play_whole_games(tmp_path):
    agents = ["greedy", "random", "mc", "greedy"]
    with start_server(port=0, games=2, seed=5, ruleset="platform+cap2", records=tmp_path) as srv:
        procs = []
        for i, agent in enumerate(agents):  # started together: seats go by who connects first
            command = [sys.executable, "-m", "guandan", "connect", srv.url, "--agent", agent, "--name", f"{agent}{i}"]
            if i == 1:
                command += ["--json", "--log", str(tmp_path / "random.jsonl")]
            procs.append(subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
        try:
            result = srv.wait(LIMIT)
            outputs = [p.communicate(timeout=LIMIT) for p in procs]
        finally:
            for p in procs:
                p.kill()
        table = srv.server.tables[0]
    assert [p.returncode for p in procs] == [0, 0, 0, 0], outputs
    assert result.complete and result.games_played == 2 and result.deals == 4
    seats = {s.name: s for s in result.tables[0].seats}
    assert sorted(seats) == ["greedy0", "greedy3", "mc2", "random1"]
    assert all(s.ignored == 0 for s in seats.values())
    wins = result.victories
    out, err = outputs[0]
    seat = seats["greedy0"].seat
    lines = out.splitlines()
    assert lines[0] == f"seat {seat} at {srv.url}greedy0 (partner seat {seat ^ 2}), agent greedy"
    assert lines[1].startswith("game 1/2: 2 deals; the last at level ") and lines[2].startswith("game 2/2: 2 deals")
    mine, theirs = wins[seat % 2], wins[1 - seat % 2]
    sides = f"seats {seat % 2}, {seat % 2 + 2}"
    assert lines[3] == f"result: my side ({sides}) won {mine}, the other side {theirs}, draws 0"
    assert lines[4].startswith(f"{seats['greedy0'].answers} answers, agent greedy mean ")
    assert err == ""
    summary = json.loads(outputs[1][0])
    assert summary["seat"] == seats["random1"].seat and summary["complete"]
    assert summary["result"]["victoryNum"] == [wins[0], wins[1]] * 2
    assert summary["answers"] == seats["random1"].answers and summary["fallbacks"] == summary["agent_errors"] == 0
    log = [json.loads(line) for line in (tmp_path / "random.jsonl").read_text().splitlines()]
    assert sum(1 for line in log if line.get("dir") == "out") == summary["answers"]
    for g in (1, 2):
        data = json.loads((tmp_path / f"table0-game{g}.json").read_text())
        assert replay(data) == table.matches[g - 1]
