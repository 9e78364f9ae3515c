"""benchmarks/field_bot.py starts a competition bot whose server address is written in its
files as an arena ``cmd:`` bot: a copy of its folder pointed at the arena's server, its random
choices seeded. Checked on a stand-in bot written the way the finalists' are (the address in
its script, ``from random import randint`` in a module beside it, a file written next to it)."""

from __future__ import annotations

import importlib.util
import pathlib
import subprocess
import sys

import pytest

from guandan.bots.arena import head_to_head
from guandan.platform.seated import play_pairs_served

ROOT = pathlib.Path(__file__).resolve().parents[2]
LAUNCHER = ROOT / "benchmarks" / "field_bot.py"
_spec = importlib.util.spec_from_file_location("field_bot", LAUNCHER)
assert _spec is not None and _spec.loader is not None
field_bot = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(field_bot)

HELPER = """from random import randint


def choose(actions):
    return randint(0, len(actions) - 1)
"""
BOT = """import asyncio
import json

import websockets

import helper


async def play():
    async with websockets.connect('ws://127.0.0.1:23456/game/bot') as ws:
        async for text in ws:
            message = json.loads(text)
            if "actionList" in message:
                await ws.send(json.dumps({"actIndex": helper.choose(message["actionList"])}))


if __name__ == "__main__":
    with open("data1.txt", "w") as f:  # as the finalists' bots do, next to themselves
        f.write("state")
    asyncio.run(play())
"""


def _bot(folder: pathlib.Path) -> pathlib.Path:
    folder.mkdir()
    (folder / "helper.py").write_text(HELPER, encoding="utf-8")
    (folder / "bot.py").write_text(BOT, encoding="utf-8")
    return folder


def test_the_seat_picks_the_script_and_the_copy_is_pointed_at_the_url(tmp_path):
    assert [field_bot.script_of_seat(["c1.py", "c3.py"], seat) for seat in range(4)] == ["c1.py", "c1.py", "c3.py",
                                                                                          "c3.py"]  # fmt: skip
    assert field_bot.script_of_seat(["only.py"], 3) == "only.py"
    bot = _bot(tmp_path / "bot")
    copy = field_bot.copy_pointed(bot, "ws://127.0.0.1:9/game/seat2")
    try:
        assert "'ws://127.0.0.1:9/game/seat2'" in (copy / "bot.py").read_text(encoding="utf-8")
        assert (copy / "helper.py").read_text(encoding="utf-8") == HELPER
        assert "23456" in (bot / "bot.py").read_text(encoding="utf-8")  # the original left as it was
    finally:
        import shutil

        shutil.rmtree(copy.parent)


def test_a_missing_script_is_refused(tmp_path):
    bot = _bot(tmp_path / "bot")
    done = subprocess.run([sys.executable, str(LAUNCHER), str(bot), "bot.py,nope.py", "--url", "ws://x"],
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 2 and "no nope.py in" in done.stderr


@pytest.mark.slow
def test_a_bot_with_its_address_written_in_plays_arena_pairs(tmp_path, monkeypatch):
    bot = _bot(tmp_path / "bot")
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))  # where the launcher copies the bot
    spec = f"cmd:{sys.executable} {LAUNCHER} {bot} bot.py --url {{url}} --seat {{seat}} --seed {{seed}}"
    runs = [head_to_head("greedy", spec, pairs=1, seed=3, workers=1, player=play_pairs_served) for _ in range(2)]
    assert runs[0].results == runs[1].results  # seeded through the launcher: a run replays
    assert runs[0].results[0].deals == (1, 1) and runs[0].wins == 2  # greedy beats random choices
    assert list(temp.iterdir()) == []  # every copy removed when its bot ended
    assert sorted(p.name for p in bot.iterdir()) == ["bot.py", "helper.py"]  # nothing written next to the original
