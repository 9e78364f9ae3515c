"""The edges of the command line a new user hits, each through a real ``guandan`` process:
a bot that raises inside ``simulate`` (one error line naming the task, its seed, the seat and
the agent, then the bot's own lines of the traceback), options refused in the words of the
command line (``--workers 0``, an agent option's bad value, an empty hand), the examples of
``simulate --help`` (each runs in a bounded time), the summary's counts, the CSV columns, the
plot's frame. Every process has a time bound."""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

LIMIT = 120  # seconds: no process runs longer

RAISING_BOT = '''
class Boom:
    """Plays its weakest move four times, then raises."""

    name = "boom"

    def __init__(self, seed=0):
        self.acted = 0

    def act(self, observation):
        self.acted += 1
        if self.acted > 4:
            raise RuntimeError("my bot broke on purpose")
        return observation.legal_actions[0]
'''


def guandan(*args: str, cwd: Path | None = None, timeout: float = LIMIT) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "guandan", *args], capture_output=True, text=True, timeout=timeout, cwd=cwd, env=env
    )


def in_parallel(*commands: tuple[str, ...], cwd: Path | None = None) -> list[subprocess.CompletedProcess]:
    with ThreadPoolExecutor(len(commands)) as pool:
        return list(pool.map(lambda c: guandan(*c, cwd=cwd), commands))


@pytest.mark.slow
def test_a_bot_that_raises_in_simulate_is_one_error_line_with_the_task_and_seed_and_its_own_frames(tmp_path):
    (tmp_path / "boombot.py").write_text(RAISING_BOT)
    runs = in_parallel(
        ("simulate", "3", "--agents", "boombot:Boom,greedy", "--workers", "1", "--quiet"),
        ("simulate", "3", "--agents", "greedy,boombot:Boom", "--workers", "2", "--quiet"),
        ("simulate", "3", "--agents", "boombot:Boom,greedy", "--workers", "2", "--deals", "--quiet"),
        cwd=tmp_path,
    )
    for run in runs:
        lines = run.stderr.splitlines()
        assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
        head = re.fullmatch(
            r"guandan: error: task (\d+) \(seed (\d+)\): (deal \d+: )?the agent of seat (\d) \(boombot:Boom\) acting in"
            r" the play phase raised RuntimeError: my bot broke on purpose",
            lines[0],
        )
        assert head, lines[0]
        assert len(lines) <= 6 and all("boombot.py" in x or x.startswith("    ") for x in lines[1:]), lines
        assert any('boombot.py", line 13, in act' in x for x in lines[1:]), lines  # its raise
        assert not any("guandan/" in x or "concurrent" in x for x in lines[1:])
    assert int(re.search(r"seat (\d)", runs[1].stderr.splitlines()[0])[1]) % 2 == 1  # the boom bot plays side 1


@pytest.mark.slow
def test_refused_options_are_said_in_the_words_of_the_command_line():
    workers, option, empty, blank = in_parallel(
        ("simulate", "2", "--workers", "0"),
        ("simulate", "2", "--agents", "mc:rollouts=abc"),
        ("moves", "", "--level", "2"),
        ("moves", "   ", "--level", "2"),
    )
    assert workers.returncode == 2 and workers.stderr.startswith("guandan: error: --workers: at least 1 process")
    assert "None" not in workers.stderr and "int >=" not in workers.stderr
    refused = "guandan: error: agent mc:rollouts=abc: rollouts is a count"
    assert option.returncode == 2 and option.stderr.startswith(refused)
    assert "1099511627776" not in option.stderr and option.stderr.rstrip().endswith("got 'abc'")
    for run in (empty, blank):
        assert run.returncode == 2 and run.stderr.startswith("guandan: error: HAND holds no card"), run.stderr
        assert run.stdout == ""


@pytest.mark.slow
def test_the_examples_of_simulate_help_run_in_a_bounded_time(tmp_path):
    help_text = guandan("simulate", "--help").stdout
    lines = help_text.splitlines()
    examples = [x.split("#")[0].split() for x in lines if x.strip().startswith("guandan simulate")]
    assert examples and all(e[:2] == ["guandan", "simulate"] for e in examples)
    with_mc = [e for e in examples if any(a.startswith("mc") for a in e)]
    assert with_mc, "an example shows the search bot"
    (tmp_path / "mybot.py").write_text(
        "class LongestBot:\n    def act(self, observation):\n        return observation.legal_actions[-1]\n"
    )
    for example in with_mc:  # the heaviest examples: each must end within the bound
        run = guandan(*example[1:], cwd=tmp_path, timeout=LIMIT)
        assert run.returncode == 0, run.stderr


@pytest.mark.slow
def test_the_summary_counts_in_the_singular_and_csv_columns_keep_the_rows_order(tmp_path):
    deal, match, jsonl, table, plot = in_parallel(
        ("simulate", "1", "--deals", "--workers", "1", "--quiet"),
        ("simulate", "1", "--workers", "1", "--quiet"),
        ("simulate", "3", "--workers", "1", "--quiet", "--out", str(tmp_path / "rows.jsonl")),
        ("simulate", "3", "--workers", "1", "--quiet", "--out", str(tmp_path / "rows.csv")),
        ("simulate", "6", "--deals", "--agents", "greedy,random", "--workers", "1", "--quiet", "--plot",
         str(tmp_path / "plot.svg")),
    )
    assert re.fullmatch(r"1 deal in \d+\.\d s \(\d+\.\d deals/s\)", deal.stdout.splitlines()[0]), deal.stdout
    assert re.fullmatch(r"1 match, \d+ deals? in \d+\.\d s \(\d+\.\d deals/s\)", match.stdout.splitlines()[0])
    assert all(run.returncode == 0 for run in (jsonl, table, plot))
    first = json.loads((tmp_path / "rows.jsonl").read_text().splitlines()[0])
    with open(tmp_path / "rows.csv", newline="") as f:
        header = next(csv.reader(f))
    assert header == list(first), (header, list(first))
    # the win-rate line (its first point is 0 or 1) lies inside the plot's frame, not on its edge
    svg = (tmp_path / "plot.svg").read_text()
    frame = _path_ys(svg, "win_rate_axes")
    line = _path_ys(svg, "win_rate")
    top, bottom = min(frame), max(frame)
    assert line and all(top + 2 < y < bottom - 2 for y in line), (top, bottom, line)


def _path_ys(svg: str, gid: str) -> list[float]:
    """The y coordinates of the first path in the SVG group ``gid``."""
    group = svg.split(f'<g id="{gid}">', 1)[1]
    d = group.split('d="', 1)[1].split('"', 1)[0]
    numbers = [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", d)]
    return numbers[1::2]
