"""The platform server with real sockets on the loopback (127.0.0.1, ephemeral ports): bots
written from the protocol (``platform_bots``) check every message they receive; bad answers,
a disconnect, a silent bot, shutdown, several tables, several games, records and the log,
the HTTP paths, and ``guandan serve`` itself. Every test is bounded in time."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import subprocess
import sys
import time

import pytest
from games import full_hands_with_big_jokers
from platform_bots import BAD_ANSWERS, EVERY_GAME_KINDS, run_bot, run_bots
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from guandan import Match, parse_card
from guandan.game.rules import PLATFORM
from guandan.platform import PlatformServer, PlatformTable
from guandan.platform.server import (
    CLOSE_DISCONNECTED,
    CLOSE_DONE,
    CLOSE_INTERNAL,
    CLOSE_SHUTDOWN,
    CLOSE_TIMEOUT,
    ServerHooks,
)
from guandan.records.games import record, replay
from guandan.ui.cli import main

LIMIT = 90  # seconds: no test waits longer for the server


def play(server_options=None, bots=4, *, limit=LIMIT, during=None, **bot_options):
    """Start a server on an ephemeral port, connect ``bots`` checking bots, wait for the end;
    returns (result, reports, server)."""

    async def run():
        server = PlatformServer(port=0, **(server_options or {}))
        async with server:
            bots_task = asyncio.create_task(run_bots(server.url, bots, **bot_options))
            if during is not None:
                await during(server)
            result = await asyncio.wait_for(server.wait(), limit)
            reports = await asyncio.wait_for(bots_task, limit)
        return result, reports, server

    return asyncio.run(asyncio.wait_for(run(), limit + 10))


@pytest.mark.slow
def test_four_checking_bots_play_a_whole_game_to_game_result():
    result, reports, server = play({"seed": 11, "games": 1})
    assert result.complete and result.games_played == 1 and result.deals > 1
    table = server.tables[0]
    for r in reports:
        c = r.checker
        assert r.error is None and c.stage == "done" and c.final is not None
        assert r.close_code == CLOSE_DONE and r.close_reason == "every game is played"
        assert c.deals == result.deals and c.legal_checked == sum(c.acts.values()) == r.answers > 0
        assert result.tables[0].seats[r.seat].answers == r.answers and result.tables[0].seats[r.seat].name == r.name
    kinds = set().union(*(r.checker.stages_seen for r in reports))
    assert EVERY_GAME_KINDS <= kinds
    match = table.matches[0]
    assert match.is_over and match.ruleset is PLATFORM
    winner = match.winner
    assert reports[0].checker.final["victoryNum"] == [int(winner == 0), int(winner == 1)] * 2
    assert result.victories == (int(winner == 0), int(winner == 1))
    assert replay(json.loads(json.dumps(result.records[0]))) == match


@pytest.mark.slow
def test_an_anti_tribute_over_the_wire():
    hands = full_hands_with_big_jokers([1, 3])  # after a double-down by 0 and 2, seats 1 and 3 resist
    assert [h.count(parse_card("HR")) for h in hands] == [0, 1, 0, 1]
    table = PlatformTable(seed=1, new_match=lambda g: Match(g, PLATFORM, levels=(5, 5), previous=(0, 2), hands=[hands]))
    result, reports, _ = play({"tables": [table]}, mid_match=True)
    assert result.complete
    for r in reports:
        assert r.checker.stages_seen["notify anti-tribute"] >= 1 and r.error is None


@pytest.mark.slow
def test_bad_answers_are_logged_and_ignored_and_the_game_goes_on(caplog):
    caplog.set_level(logging.WARNING, logger="guandan.platform")
    result, reports, _ = play(
        {"seed": 3, "ruleset": "platform+cap2"},
        per_bot={1: {"bad_answers": 3}, 2: {"out_of_turn": True}},
    )
    assert result.complete and all(r.error is None and r.checker.final for r in reports)
    seats = result.tables[0].seats
    assert reports[1].bad_sent == 3 * len(BAD_ANSWERS) and seats[1].ignored == reports[1].bad_sent
    assert reports[2].bad_sent > 0 and seats[2].ignored == reports[2].bad_sent
    assert seats[0].ignored == seats[3].ignored == 0
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == reports[1].bad_sent + reports[2].bad_sent
    text = "\n".join(warnings)
    for problem in (
        "not JSON",
        "not a JSON object",
        'no "actIndex"',
        "must be an integer",
        "out of range",
        "not UTF-8",
        "seat 2 answered but was not asked",
    ):
        assert problem in text, problem
    assert all(w.startswith("table 0 seat ") and ": ignored: " in w for w in warnings)


def test_a_disconnect_ends_the_game_cleanly(caplog):
    caplog.set_level(logging.INFO, logger="guandan.platform")
    start = time.monotonic()
    result, reports, server = play({"seed": 5}, per_bot={2: {"leave_after": 6}})
    assert time.monotonic() - start < 30
    table = result.tables[0]
    assert not result.complete and table.state == "aborted" and table.games_played == 0
    assert table.abort_reason == "seat 2 (bot2) disconnected during game 1"
    for r in reports:
        if r.seat != 2:
            assert r.close_code == CLOSE_DISCONNECTED and r.close_reason == table.abort_reason
            assert r.checker.final is None
    assert any("table 0 aborted: seat 2 (bot2) disconnected" in r.getMessage() for r in caplog.records)
    data = result.records[0]
    assert not data["over"] and replay(data) == server.tables[0].matches[0]


@pytest.mark.slow
def test_a_bot_that_does_not_answer_in_time_ends_the_game():
    start = time.monotonic()
    result, reports, _ = play({"seed": 5, "act_timeout": 0.5}, per_bot={3: {"silent_after": 4}})
    assert time.monotonic() - start < 30
    table = result.tables[0]
    assert table.state == "aborted" and table.abort_reason == "seat 3 (bot3) did not answer within 0.5 s during game 1"
    assert {r.close_code for r in reports} == {CLOSE_TIMEOUT}
    assert table.seats[3].answers == 4


class BrokenTable(PlatformTable):
    """A table whose 20th answer meets a bug."""

    calls = 0

    def receive(self, seat, text):
        self.calls += 1
        if self.calls == 20:
            raise RuntimeError("a bug")
        return super().receive(seat, text)


@pytest.mark.slow
def test_an_internal_error_ends_its_table_not_the_server(caplog):
    caplog.set_level(logging.ERROR, logger="guandan.platform")
    result, reports, _ = play({"tables": [BrokenTable(seed=1), PlatformTable(seed=2, ruleset="platform+cap1")]}, bots=8)
    broken, fine = result.tables
    assert broken.state == "aborted" and broken.abort_reason.startswith("internal error: RuntimeError('a bug')")
    assert {r.close_code for r in reports[:4]} == {CLOSE_INTERNAL}
    assert fine.state == "finished" and {r.close_code for r in reports[4:]} == {CLOSE_DONE}
    assert any("internal error on a message of seat" in r.getMessage() for r in caplog.records)


@pytest.mark.slow
def test_without_a_timeout_the_server_waits_and_a_shutdown_ends_it():
    async def shut_down_later(server):
        async def later():
            await asyncio.sleep(1.5)
            await server.close()

        asyncio.get_running_loop().create_task(later())

    result, reports, _ = play({"seed": 5}, per_bot={0: {"silent_after": 2}}, during=shut_down_later)
    table = result.tables[0]
    assert table.state == "aborted" and table.abort_reason == "the server shut down"
    assert {r.close_code for r in reports} == {CLOSE_SHUTDOWN}


@pytest.mark.slow
def test_several_tables_play_at_once():
    result, reports, server = play({"seed": 2, "tables": 3, "ruleset": "platform+cap3"}, bots=12)
    assert result.complete and len(result.tables) == 3
    for t, table in enumerate(result.tables):
        names = [s.name for s in table.seats]
        assert names == [f"bot{4 * t + s}" for s in range(4)]  # connections 4t..4t+3 sit at table t
        assert table.games_played == 1 and table.deals == 3
    assert all(r.error is None and r.checker.final is not None for r in reports)
    seeds = {t.seed for t in result.tables}
    assert len(seeds) == 3
    firsts = [server.tables[t].matches[0].results[0].result for t in range(3)]
    dealt = [tuple(record(server.tables[t].matches[0])["deals"][0]["hands"][0]) for t in range(3)]
    assert len(set(dealt)) == 3 and len(firsts) == 3


@pytest.mark.slow
def test_n_games_send_game_over_after_each_and_game_result_at_the_end():
    result, reports, _ = play({"seed": 8, "games": 3, "ruleset": "platform+cap2"})
    assert result.complete and result.games_played == 3 and result.deals == 6
    for r in reports:
        assert r.checker.games_over == 3 and r.checker.setting == 3 and r.checker.stages_seen["notify gameOver"] == 3
        assert r.checker.stages_seen["notify gameResult"] == 1
    assert sum(result.victories) + result.draws == 3 and len(result.records) == 3


@pytest.mark.slow
def test_records_and_the_message_log_are_written(tmp_path):
    log = tmp_path / "messages.jsonl"
    result, reports, server = play(
        {"seed": 4, "games": 2, "ruleset": "platform+cap2", "records": tmp_path / "rec", "log": log}
    )
    files = sorted(p.name for p in (tmp_path / "rec").iterdir())
    assert files == ["summary.json", "table0-game1.json", "table0-game2.json"]
    for g in range(2):
        data = json.loads((tmp_path / "rec" / f"table0-game{g + 1}.json").read_text())
        assert data["ruleset"] == "platform+cap2" and data["rules"]["pass_a_places"] == [2]
        assert replay(data) == server.tables[0].matches[g]
    summary = json.loads((tmp_path / "rec" / "summary.json").read_text())
    assert summary["games_played"] == 2 and summary["tables"][0]["records"] == result.tables[0].record_files
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    outgoing = [x for x in lines if x.get("dir") == "out"]
    incoming = [x for x in lines if x.get("dir") == "in"]
    for r in reports:
        assert sum(r.seat in x["seats"] for x in outgoing) == r.checker.messages
        assert sum(x["seat"] == r.seat for x in incoming) == r.answers
    assert all(isinstance(x["t"], float) for x in lines)
    events = [x["event"] for x in lines if "event" in x]
    assert events[0] == "ready" and events.count("connect") == 4 and events.count("game_over") == 2
    assert events[-1] == "summary"


@pytest.mark.slow
def test_the_same_seed_plays_the_same_games():
    first = play({"seed": 21, "ruleset": "platform+cap2"})[0]
    again = play({"seed": 21, "ruleset": "platform+cap2"})[0]
    other = play({"seed": 22, "ruleset": "platform+cap2"})[0]
    assert first.records == again.records
    assert first.records[0]["deals"][0]["hands"] != other.records[0]["deals"][0]["hands"]


@pytest.mark.slow
def test_other_paths_get_404_and_a_full_server_503():
    async def run():
        async with PlatformServer(port=0, seed=1, ruleset="platform+cap1") as server:
            base = server.url.removesuffix("/game/")
            with pytest.raises(InvalidStatus) as wrong:
                async with connect(base + "/play/bot", proxy=None):
                    pass
            assert wrong.value.response.status_code == 404
            bots = [asyncio.create_task(run_bot(server.url, f"bot%20{i}", i)) for i in range(4)]
            while not server.tables[0].is_full:
                await asyncio.sleep(0.01)
            with pytest.raises(InvalidStatus) as full:
                async with connect(server.url + "late", proxy=None):
                    pass
            assert full.value.response.status_code == 503
            result = await asyncio.wait_for(server.wait(), LIMIT)
            await asyncio.gather(*bots)
            return result

    result = asyncio.run(asyncio.wait_for(run(), LIMIT))
    assert [s.name for s in result.tables[0].seats] == [f"bot {i}" for i in range(4)]  # the name, URL-decoded


@pytest.mark.slow
def test_a_seat_left_before_the_start_goes_to_the_next_bot():
    async def run():
        async with PlatformServer(port=0, seed=1, ruleset="platform+cap1") as server:
            async with connect(server.url + "early", proxy=None):
                while not server.tables[0].names[0]:
                    await asyncio.sleep(0.01)
            while server.tables[0].names[0] is not None:
                await asyncio.sleep(0.01)
            reports = await run_bots(server.url, 4)
            return await asyncio.wait_for(server.wait(), LIMIT), reports

    result, reports = asyncio.run(asyncio.wait_for(run(), LIMIT))
    assert result.complete and [s.name for s in result.tables[0].seats] == ["bot0", "bot1", "bot2", "bot3"]


def test_bad_server_arguments_are_refused():
    from guandan import GuandanError

    for options, problem in [
        ({"games": 0}, "games"),
        ({"tables": 0}, "tables"),
        ({"port": 70000}, "port"),
        ({"act_timeout": 0}, "act_timeout"),
        ({"seed": "x"}, "seed"),
        ({"ruleset": "paris"}, "unknown ruleset"),
        ({"tables": ["x"]}, "tables"),
    ]:
        with pytest.raises(GuandanError, match=problem):
            PlatformServer(**options)


# -- the command line ------------------------------------------------------------------------------


def test_serve_help(capsys):
    assert main(["serve", "--help"]) == 0
    out = capsys.readouterr().out
    for option in ("--games", "--tables", "--ruleset", "--seed", "--act-timeout", "--records", "--log", "--port"):
        assert option in out
    assert "ws://HOST:PORT/game/{name}" in out


def test_serve_refuses_a_bad_ruleset(capsys):
    assert main(["serve", "--port", "0", "--ruleset", "paris"]) == 2
    assert "unknown ruleset 'paris'" in capsys.readouterr().err


@pytest.mark.slow
def test_guandan_serve_plays_games_for_real_bots(tmp_path):
    command = [
        sys.executable,
        "-m",
        "guandan",
        "serve",
        "--port",
        "0",
        "--games",
        "2",
        "--seed",
        "3",
        "--ruleset",
        "platform+cap2",
        "--failed-a-limit",
        "4",
        "--records",
        str(tmp_path),
        "--log",
        str(tmp_path / "log.jsonl"),
    ]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) as proc:
        try:
            assert proc.stdout.readline() == "Ready for connect.\n"
            url = proc.stdout.readline().strip()
            assert url.startswith("ws://127.0.0.1:") and url.endswith("/game/{name}")
            reports = asyncio.run(asyncio.wait_for(run_bots(url.removesuffix("{name}"), 4), LIMIT))
            out, err = proc.communicate(timeout=LIMIT)
        finally:
            proc.kill()
    assert proc.returncode == 0, err
    assert all(r.checker.final for r in reports)
    assert "1 table · ruleset platform+cap2+failed_a_limit=4 · seed 3 · 2 of 2 games · 4 deals" in out
    assert "seat 0 bot0:" in out and "table 0 game 2/2:" in err
    data = json.loads((tmp_path / "table0-game1.json").read_text())
    assert data["rules"]["failed_a_limit"] == 4
    assert replay(data).is_over


class Recording(ServerHooks):
    """Hooks that record when each is called, and keep no seat."""

    def __init__(self) -> None:
        self.calls: list[tuple] = []

    async def seated(self, view, seat, ws, join):
        self.calls.append(("seated", view.index, seat, join))

    def keep_seat(self, view, seat, why):
        self.calls.append(("keep_seat", view.index, seat))
        return False

    def sending(self, view, sends):
        self.calls.append(("sending", len(sends)))

    def sent(self, view, sends):
        self.calls.append(("sent", len(sends)))

    def event(self, view, seat, event, details):
        self.calls.append(("event", event))

    def stored(self, view, game, record):
        self.calls.append(("stored", view.index, game, record["seed"]))

    def closed(self, view):
        self.calls.append(("closed", view.index, view.ended, view.close_code))


@pytest.mark.slow
def test_the_hooks_hear_every_seat_send_event_record_and_close_and_change_nothing():
    hooks = Recording()
    plain, _, _ = play({"seed": 12, "games": 1, "ruleset": "platform+cap1"})
    hooked, _, server = play({"seed": 12, "games": 1, "ruleset": "platform+cap1", "hooks": hooks})
    assert hooked.tables[0].records == plain.tables[0].records
    calls = hooks.calls
    assert [c for c in calls if c[0] == "seated"] == [("seated", 0, s, True) for s in range(4)]
    sending = [c[1] for c in calls if c[0] == "sending"]
    assert sending == [c[1] for c in calls if c[0] == "sent"] and len(sending) > 10 and min(sending) >= 1
    assert ("stored", 0, 0, plain.tables[0].records[0]["seed"]) in calls
    assert [c[1] for c in calls if c[0] == "event"][:1] == ["ready"] and ("event", "summary") in calls
    assert ("closed", 0, True, None) in calls and not any(c[0] == "keep_seat" for c in calls)
    assert server.views[0].table is server.tables[0]


@pytest.mark.slow
def test_hooks_that_keep_a_seat_hold_the_table_until_they_let_it_go():
    class Keeping(ServerHooks):
        def __init__(self) -> None:
            self.kept: list[tuple[int, str]] = []

        def keep_seat(self, view, seat, why):
            self.kept.append((seat, why))
            asyncio.get_running_loop().call_later(0.2, view.leave, seat, why + " (let go)")
            return True

    hooks = Keeping()
    result, _, _ = play({"seed": 5, "hooks": hooks}, per_bot={2: {"leave_after": 6}})
    assert hooks.kept == [(2, "disconnected")]
    table = result.tables[0]
    assert table.state == "aborted" and table.abort_reason == "seat 2 (bot2) disconnected (let go) during game 1"
