"""Ctrl-C for the ``guandan`` command: it ends the command at any moment, with no traceback.

Two gaps are closed here. While the command loads (its imports take a good part of a second
on a busy machine), :func:`quiet_while_loading` makes SIGINT end the process at once, status
130, before Python's default handler could raise a ``KeyboardInterrupt`` nothing catches.
And the system may give a SIGINT to any thread of the process (numpy's, the search bot's):
Python then runs its handler only when the main thread next runs Python code, which a main
thread waiting for a key at the prompt never does — the process would wait until a key.
:func:`interrupts_reach_the_main_thread` watches for the signal from a thread of its own
(through :func:`signal.set_wakeup_fd`, which every thread's delivery writes to) and, if the
main thread has not taken it within a moment, sends it to the main thread itself, which
ends its wait.

>>> with interrupts_reach_the_main_thread():
...     pass
>>> quiet_while_loading()  # not the guandan command here: nothing changes
False
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import sys
import threading
from collections.abc import Iterator
from types import FrameType

#: The exit status after Ctrl-C (128 + SIGINT, as shells report an interrupted command).
INTERRUPTED = 130

#: How long the main thread has to take a SIGINT itself before it is sent there (seconds).
GRACE = 0.2


def launched_as_command() -> bool:
    """Whether this process is the ``guandan`` command (its script, or ``python -m guandan``).

    >>> launched_as_command()
    False
    """
    if os.path.basename(sys.argv[0] if sys.argv else "") == "guandan":
        return True
    argv = list(getattr(sys, "orig_argv", []))
    return any(a == "-m" and b == "guandan" for a, b in zip(argv, argv[1:])) or "-mguandan" in argv


def _exit_quietly(signum: int, frame: FrameType | None) -> None:
    os.write(2, b"\nguandan: interrupted\n")
    os._exit(INTERRUPTED)


def quiet_while_loading() -> bool:
    """In the ``guandan`` command, from the package's first line: a SIGINT ends the process
    at once, status 130, until :func:`loaded`. Returns whether it did so (only in the command's
    main thread, over Python's default handler).

    >>> quiet_while_loading()
    False
    """
    if not launched_as_command() or threading.current_thread() is not threading.main_thread():
        return False
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return False
    signal.signal(signal.SIGINT, _exit_quietly)
    return True


def loaded() -> None:
    """The command runs: from here a SIGINT is a ``KeyboardInterrupt`` again, which the
    command catches (``guandan: interrupted``, status 130).

    >>> loaded()
    """
    if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGINT) is _exit_quietly:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@contextlib.contextmanager
def interrupts_reach_the_main_thread(grace: float = GRACE) -> Iterator[None]:
    """While inside, a SIGINT raises ``KeyboardInterrupt`` in the main thread whichever thread
    the system gave it to, even when the main thread waits in a system call (a key at the
    prompt); once raised, further SIGINTs are ignored until the block ends, so that what the
    main thread does about the first (a last message, the record) is not cut short. Outside the
    main thread it does nothing.

    >>> with interrupts_reach_the_main_thread():
    ...     1 + 1
    2
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    main = threading.main_thread().ident
    assert main is not None
    taken = threading.Event()  # the main thread ran its handler
    ending = threading.Event()  # the block ends: nothing more is sent
    sending = threading.Lock()  # held while sending, so that no signal is sent after the block
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)

    def handler(signum: int, frame: FrameType | None) -> None:
        taken.set()
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        raise KeyboardInterrupt

    def watch() -> None:
        while True:
            try:
                select.select([read_end], [], [])
                data = os.read(read_end, 512)
            except OSError:
                return
            if not data:  # the block ended: the write end is closed
                return
            if signal.SIGINT in data and not taken.wait(grace):
                # the main thread has not taken it: a system call it waits in was not
                # interrupted (another thread got the signal, or it came just before the
                # wait). Sent to the main thread, it comes back here too: sent again until taken.
                with sending:
                    if ending.is_set():
                        return
                    signal.pthread_kill(main, signal.SIGINT)

    previous_handler = signal.signal(signal.SIGINT, handler)
    previous_fd = signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
    watcher = threading.Thread(target=watch, name="guandan-sigint", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        with sending:
            ending.set()
        signal.set_wakeup_fd(previous_fd)
        signal.signal(signal.SIGINT, previous_handler)
        os.close(write_end)
        watcher.join(5)
        os.close(read_end)


#: Whether the package's import made Ctrl-C end the command quietly (:func:`quiet_while_loading`,
#: done when this module is first imported: ``guandan/__init__.py`` imports it first).
LOADING_QUIETLY = quiet_while_loading()
