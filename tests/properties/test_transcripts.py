"""Every shell transcript of the docs and the README is the real output of its commands.

A transcript is a fenced block with lines ``$ command``, each followed by what the command
writes (its standard output and error, as a terminal shows them, in the order written). Each
``$ guandan …`` is run here, in a process of its own (``python -m guandan``), and its output
must be the block's, exactly, once both are put through the same few rules for what is
legitimately different from run to run (:data:`VARIABLE`):

* a clock time ``23:54:47`` reads ``HH:MM:SS``;
* a duration or a rate, ``1.8 s``, ``0.41 ms``, ``(1309.5 deals/s)``: the number reads ``#``;
* a port, ``127.0.0.1:23456``, reads ``127.0.0.1:PORT``.

Everything else — every count, result, name and column — must match. How each is run:

* a command naming an agent by import path from ``examples/`` (``mybot:LongestBot``) runs in
  ``examples/``, as the pages say; every other one in an empty directory of its own;
* ``guandan play``: the lines typed after its prompts are its input;
* ``guandan serve`` listens on a free port (``--port 0``), and the next transcript of the page,
  its ``guandan connect`` bots, runs against it, each bot once the one before has its seat;
* a transcript that reads ``guandan: error: …`` exits with status 2, any other with 0.

A transcript that cannot run here (a run of hours, a command that is not ``guandan``) says
so in the page's source, just before the block: ``<!-- transcript: not run: WHY -->``, or
``<!-- transcript: run by tests/…: WHICH -->`` when another test runs it. That list is kept
short (:func:`test_few_transcripts_are_not_run_here`).
"""

from __future__ import annotations

import os
import pathlib
import re
import shlex
import subprocess
import sys
import threading
import time
from dataclasses import dataclass

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LIMIT = 600.0  # seconds: no command of a transcript runs longer

_FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
_MARK = re.compile(r"<!-- transcript: (not run|run by \S+): ([^>]+?) -->\s*\Z")

#: What may differ from run to run, and what it reads as in both the page and the output.
VARIABLE: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"\b\d\d:\d\d:\d\d\b"), "HH:MM:SS"),
    (re.compile(r"\(\d+(\.\d+)? deals/s\)"), "(# deals/s)"),
    (re.compile(r"\b\d+(\.\d+)? (ms|s)\b"), r"# \2"),
    (re.compile(r"\b127\.0\.0\.1:\d+\b"), "127.0.0.1:PORT"),
]


def normalised(text: str) -> str:
    """``text`` with what legitimately varies replaced (:data:`VARIABLE`).

    >>> normalised("23:54:47 200 matches, 2355 deals in 1.8 s (1309.5 deals/s), p99 0.93 ms at 127.0.0.1:23456")
    'HH:MM:SS 200 matches, 2355 deals in # s (# deals/s), p99 # ms at 127.0.0.1:PORT'
    """
    for pattern, replacement in VARIABLE:
        text = pattern.sub(replacement, text)
    return text


@dataclass
class Transcript:
    page: pathlib.Path
    line: int
    body: str
    mark: tuple[str, str] | None  # ("not run" or "run by …", why)

    @property
    def id(self) -> str:
        return f"{self.page.name}:{self.line}"

    def steps(self) -> list[tuple[str, str]]:
        """(command, expected output) of each ``$`` line."""
        out = []
        for chunk in re.split(r"^(?=\$ )", self.body, flags=re.MULTILINE):
            if chunk.strip():
                command, _, output = chunk.partition("\n")
                assert command.startswith("$ "), f"{self.id}: text before the first command"
                out.append((command[2:], output.rstrip("\n") + "\n"))
        return out


def transcripts() -> list[Transcript]:
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for fence in _FENCE.finditer(text):
            body = fence[2]
            if not re.search(r"^\$ ", body, re.MULTILINE):
                continue
            mark = _MARK.search(text[: fence.start()])
            found.append(
                Transcript(page, text.count("\n", 0, fence.start()) + 1, body, (mark[1], mark[2]) if mark else None)
            )
    return found


ALL = transcripts()


def _with_servers(found: list[Transcript]) -> list[tuple[Transcript, Transcript | None]]:
    """The transcripts run here, each ``guandan serve`` with the ``guandan connect`` after it."""
    runs: list[tuple[Transcript, Transcript | None]] = []
    taken: set[str] = set()
    for i, t in enumerate(found):
        if t.mark or t.id in taken:
            continue
        if t.steps()[0][0].startswith("guandan serve "):
            bots = next(b for b in found[i + 1 :] if b.page == t.page and b.steps()[0][0].startswith("guandan connect"))
            taken.add(bots.id)
            runs.append((t, bots))
        else:
            runs.append((t, None))
    return runs


RUNS = _with_servers(ALL)


def _directory(command: str, tmp_path: pathlib.Path) -> pathlib.Path:
    modules = re.findall(r"\b(\w+):[A-Z]\w*", command)
    return EXAMPLES if any((EXAMPLES / f"{m}.py").exists() for m in modules) else tmp_path


def _argv(command: str) -> list[str]:
    argv = shlex.split(command)
    assert argv[0] == "guandan", f"not a guandan command: {command}"
    return [sys.executable, "-m", "guandan", *argv[1:]]


_ENV = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONIOENCODING="utf-8", COLUMNS="100")


def _run(command: str, cwd: pathlib.Path, typed: str | None = None) -> tuple[int, str]:
    result = subprocess.run(
        _argv(command), cwd=cwd, input=typed or "", capture_output=False, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, env=_ENV, timeout=LIMIT, check=False,
    )  # fmt: skip
    return result.returncode, result.stdout


def _typed(expected: str) -> str | None:
    lines = re.findall(r"^(?:Your play|Which[^>]*|Tribute|Return)> (.*)$", expected, flags=re.MULTILINE)
    return "".join(line + "\n" for line in lines) if lines else None


def _same(expected: str, actual: str, where: str) -> None:
    assert normalised(actual) == normalised(expected), f"{where}: the real output is\n{actual}"


class _Reader:
    """A process's merged output, read line by line on a thread of its own."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.proc = proc
        self.lines: list[str] = []
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line)

    def wait_for(self, pattern: str, timeout: float = 120.0) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in list(self.lines):
                found = re.search(pattern, line)
                if found:
                    return found
            assert self.proc.poll() is None or self.thread.is_alive(), f"ended: {''.join(self.lines)[-800:]}"
            time.sleep(0.05)
        raise AssertionError(f"waited {timeout} s for {pattern!r}: {''.join(self.lines)[-800:]}")

    def text(self) -> str:
        self.thread.join(LIMIT)
        return "".join(self.lines)


def _popen(command: str, cwd: pathlib.Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        _argv(command), cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True, env=_ENV,
    )  # fmt: skip


def _run_server_and_bots(server: Transcript, bots: Transcript, tmp_path: pathlib.Path) -> None:
    ((command, expected),) = server.steps()
    proc = _popen(command + " --port 0", tmp_path)
    started: list[subprocess.Popen[str]] = [proc]
    try:
        served = _Reader(proc)
        port = served.wait_for(r"^ws://127\.0\.0\.1:(\d+)/game/")[1]
        readers = []
        for seat, (bot, _) in enumerate(bots.steps()):
            started.append(_popen(re.sub(r"127\.0\.0\.1:\d+", f"127.0.0.1:{port}", bot), tmp_path))
            readers.append(_Reader(started[-1]))
            served.wait_for(rf"table 0 seat {seat}: \S+ connected")
        for p in started:
            assert p.wait(LIMIT) == 0, f"{p.args}: status {p.returncode}"
        _same(expected, served.text(), f"{server.id} {command}")
        for (bot, shown), reader in zip(bots.steps(), readers):
            _same(shown, reader.text(), f"{bots.id} {bot}")
    finally:
        for p in started:
            if p.poll() is None:
                p.kill()
                p.wait(10)


@pytest.mark.slow
@pytest.mark.parametrize(("transcript", "bots"), RUNS, ids=[t.id for t, _ in RUNS])
def test_the_transcript_is_the_real_output_of_its_commands(transcript, bots, tmp_path):
    if bots is not None:
        _run_server_and_bots(transcript, bots, tmp_path)
        return
    for command, expected in transcript.steps():
        status, out = _run(command, _directory(command, tmp_path), _typed(expected) if " play" in command else None)
        assert status == (2 if expected.startswith("guandan: error: ") else 0), f"{command}: status {status}\n{out}"
        _same(expected, out, f"{transcript.id} {command}")


def test_every_transcript_is_found_and_either_run_here_or_marked():
    run_here = {t.id for t, _ in RUNS} | {b.id for _, b in RUNS if b is not None}
    assert {"README.md", "platform.md", "search-bots.md", "bots.md", "game.md"} <= {t.page.name for t in ALL}
    for t in ALL:
        assert (t.id in run_here) != (t.mark is not None), t.id
        if t.mark is None:
            assert all(c.startswith("guandan ") for c, _ in t.steps()), f"{t.id}: mark a command that is not guandan"


def test_few_transcripts_are_not_run_here():
    marked = [t for t in ALL if t.mark]
    assert len([t for t in marked if t.mark and t.mark[0] == "not run"]) <= 5, [t.id for t in marked]
    assert len(marked) <= 6 and all(t.mark and t.mark[1].strip() for t in marked)
    for t in marked:
        if t.mark and t.mark[0].startswith("run by "):
            assert (ROOT / t.mark[0].removeprefix("run by ")).exists(), t.id


def test_only_times_rates_and_ports_are_variable():
    shown = "table 0: 2/2 games, 11 deals, wins 2-0 · 23:55:09 · p99 79.26 ms · 4.9 s (230.0 deals/s)"
    assert normalised(shown) == "table 0: 2/2 games, # deals, wins 2-0 · HH:MM:SS · p99 # ms · # s (# deals/s)".replace(
        "# deals,", "11 deals,"
    )
    assert normalised(shown.replace("11 deals", "12 deals")) != normalised(shown)
    assert normalised("978 requests after an answer") == "978 requests after an answer"
