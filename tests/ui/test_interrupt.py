"""Ctrl-C ends ``guandan play`` at any moment, whichever thread of the process the system
gives the SIGINT to: status 130, no traceback, within a bounded time. Real signals to a real
``python -m guandan play`` on a pseudo-terminal (``pty_terminal``): immediately after it
starts, while the package loads, the instant the prompt appears, at the prompt through each of
its other threads, and while the search bot thinks for a hint.

The one moment left out is the interpreter's own start, before the package's first line runs
(``site`` and the environment's ``.pth`` files): a SIGINT there is Python's, as for any
program. Immediately after the process starts, before Python has a handler at all, the signal
kills it: the shell reports that as 130 too (here, ``-SIGINT``)."""

from __future__ import annotations

import ctypes
import os
import platform
import signal
import time

import pytest
from pty_terminal import terminals

from guandan.ui.interrupt import interrupts_reach_the_main_thread

BOUND = 20.0  # seconds: every interrupted process has ended within this
PROMPT = "Your play> "
_TGKILL = {"x86_64": 234, "aarch64": 131}.get(platform.machine())


@pytest.fixture
def terminal():
    yield from terminals()


def _ended(t, *, started: bool = True) -> str:
    """What the process wrote after the signal; asserts it ended as Ctrl-C ends it."""
    status = t.proc.wait(BOUND)
    tail = t.rest()
    screen = t.text + tail
    if not started and "Fatal Python error: init_import_site" in screen:
        # the signal came while the interpreter ran ``site`` (an editable install's ``.pth``
        # imports a finder there): Python's own start, left out above; it ended all the same
        assert status != 0 and f"{os.sep}guandan{os.sep}" not in screen, screen[-800:]  # no frame of the package
        t.close()
        return tail
    assert "Traceback" not in screen and "KeyboardInterrupt" not in screen, screen[-1500:]
    if started:
        assert status == 130, (status, screen[-800:])
    else:
        assert status in (130, -signal.SIGINT), (status, screen[-800:])
    t.close()
    return tail


def _loading(t) -> None:
    """Wait until the process is loading the package (its native core is mapped)."""
    deadline = time.monotonic() + BOUND
    while time.monotonic() < deadline:
        with open(f"/proc/{t.proc.pid}/maps", encoding="utf-8") as maps:
            if "guandan/core/_core" in maps.read():
                return
        time.sleep(0.002)
    raise AssertionError("the package's core was never loaded")


def _tgkill(pid: int, tid: int) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    assert libc.syscall(_TGKILL, pid, tid, signal.SIGINT) == 0, os.strerror(ctypes.get_errno())


@pytest.mark.slow
def test_ctrl_c_immediately_after_the_start_and_while_the_package_loads(terminal):
    t = terminal("--seed", "3")
    os.kill(t.proc.pid, signal.SIGINT)
    _ended(t, started=False)
    for delay in (0.0, 0.05, 0.15):
        t = terminal("--seed", "3")
        _loading(t)
        time.sleep(delay)
        os.kill(t.proc.pid, signal.SIGINT)
        _ended(t)


@pytest.mark.slow
def test_ctrl_c_the_instant_the_prompt_appears_ends_the_match(terminal):
    """Before readline waits for a key, the signal used to be seen only at the next key."""
    for _ in range(3):
        t = terminal("--seed", "3")
        t.read_until(PROMPT)
        os.kill(t.proc.pid, signal.SIGINT)
        assert "Interrupted: the match is left unfinished." in _ended(t)


@pytest.mark.slow
@pytest.mark.skipif(_TGKILL is None, reason="tgkill's system call number is known for x86_64 and aarch64 Linux")
def test_a_sigint_given_to_another_thread_at_the_prompt_ends_the_match(terminal):
    t = terminal("--seed", "3")
    t.read_until(PROMPT)
    threads = sorted(int(tid) for tid in os.listdir(f"/proc/{t.proc.pid}/task") if int(tid) != t.proc.pid)
    t.close()
    assert threads, "guandan play runs other threads (numpy's, the interrupt watcher)"
    for index in range(len(threads)):
        t = terminal("--seed", "3")
        t.read_until(PROMPT)
        time.sleep(0.3)  # waiting for a key, in a system call no other thread's signal interrupts
        others = sorted(int(tid) for tid in os.listdir(f"/proc/{t.proc.pid}/task") if int(tid) != t.proc.pid)
        _tgkill(t.proc.pid, others[index % len(others)])
        assert "Interrupted: the match is left unfinished." in _ended(t)


@pytest.mark.slow
def test_ctrl_c_while_the_search_bot_thinks_for_a_hint(terminal):
    t = terminal("--seed", "3")
    t.read_until(PROMPT)
    t.type("hint\r")
    time.sleep(0.05)
    os.kill(t.proc.pid, signal.SIGINT)
    assert "Interrupted: the match is left unfinished." in _ended(t)


def test_outside_the_main_thread_the_block_changes_nothing():
    import threading

    seen: list[object] = []

    def run() -> None:
        with interrupts_reach_the_main_thread():
            seen.append(signal.getsignal(signal.SIGINT))

    before = signal.getsignal(signal.SIGINT)
    thread = threading.Thread(target=run)
    thread.start()
    thread.join(5)
    assert seen == [before]


def test_in_the_main_thread_a_sigint_is_a_keyboard_interrupt_and_then_ignored_until_the_block_ends():
    before = signal.getsignal(signal.SIGINT)
    with pytest.raises(KeyboardInterrupt):
        with interrupts_reach_the_main_thread():
            signal.raise_signal(signal.SIGINT)
            time.sleep(1)
    assert signal.getsignal(signal.SIGINT) is before
    caught = False
    with interrupts_reach_the_main_thread():
        try:
            signal.raise_signal(signal.SIGINT)
        except KeyboardInterrupt:
            caught = True
        signal.raise_signal(signal.SIGINT)  # ignored: what follows the first is not cut short
    assert caught and signal.getsignal(signal.SIGINT) is before
