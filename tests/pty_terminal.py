"""``guandan play`` at a real terminal: :class:`Terminal` runs ``python -m guandan play`` in a
process of its own on a pseudo-terminal it controls (so Ctrl-C is the terminal's SIGINT and
readline edits the lines), reads the screen and types at it, with a time bound on every wait;
the ``terminal`` fixture of a test module starts them and closes them all after the test.
"""

from __future__ import annotations

import fcntl
import os
import re
import select
import signal
import subprocess
import sys
import termios
import time

_ESCAPES = re.compile(r"\x1b(\[[0-9;?]*[A-Za-z]|[=>])")  # what readline writes to a terminal


def _controlling_terminal() -> None:
    """In the child: the pseudo-terminal becomes its controlling terminal, and SIGINT its
    default (a suite launched in the background starts with SIGINT ignored, which the child
    would inherit: Ctrl-C would then do nothing)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Terminal:
    """``guandan play`` on a pseudo-terminal it controls (so Ctrl-C is the terminal's SIGINT),
    read and typed at with a time bound on every wait."""

    def __init__(self, *args: str) -> None:
        self.master, slave = os.openpty()
        env = dict(os.environ, TERM="xterm", INPUTRC="/dev/null", PYTHONIOENCODING="utf-8", LC_ALL="C.UTF-8")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "guandan", "play", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            start_new_session=True,
            preexec_fn=_controlling_terminal,
        )
        os.close(slave)
        self.text = ""

    def read_until(self, wanted: str, timeout: float = 60.0) -> str:
        """The text written since the last call, once it ends with ``wanted`` (escape codes removed)."""
        deadline = time.monotonic() + timeout
        raw = b""
        while True:
            self.text = _ESCAPES.sub("", raw.decode("utf-8", "replace")).replace("\r\n", "\n")
            if self.text.endswith(wanted):
                return self.text
            left = deadline - time.monotonic()
            assert left > 0, f"waited {timeout} s for {wanted!r}; the screen ends: {self.text[-400:]!r}"
            ready, _, _ = select.select([self.master], [], [], min(left, 1.0))
            if ready:
                try:
                    raw += os.read(self.master, 65536)
                except OSError:  # the process ended and closed the terminal
                    raise AssertionError(f"ended before {wanted!r}: {self.text[-400:]!r}") from None

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def wait(self, timeout: float = 30.0) -> int:
        try:
            status = self.proc.wait(timeout)
        finally:
            self.close()
        return status

    def rest(self) -> str:
        """Everything still written before the process closed the terminal."""
        raw = b""
        while select.select([self.master], [], [], 2.0)[0]:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                break
            if not chunk:
                break
            raw += chunk
        return _ESCAPES.sub("", raw.decode("utf-8", "replace")).replace("\r\n", "\n")

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        try:
            os.close(self.master)
        except OSError:
            pass


def terminals():
    """For a fixture: yields a function starting a :class:`Terminal`, and closes every one after."""
    opened: list[Terminal] = []

    def start(*args: str) -> Terminal:
        opened.append(Terminal(*args))
        return opened[-1]

    yield start
    for t in opened:
        t.close()


