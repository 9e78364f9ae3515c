"""The test suite's own settings, loaded before any test module.

**Compiled test modules are cached.** pytest rewrites the asserts of every test module, and
Python compiles the package, on each run unless the result may be cached in ``__pycache__``
(ignored by git); where ``PYTHONDONTWRITEBYTECODE`` is set (as on the development machines)
that costs some 5 s of every run, a tenth of the quick subset. The suite caches them anyway.

**The marking rule, reported.** A test of a second or more is marked ``slow`` (``setup.cfg``);
a run that takes such a test without the mark names it at the end ("tests of a second or
more without @pytest.mark.slow"), timed in CPU seconds of the test and the processes it
waited for (so that a loaded machine does not flag quick tests). A report, not a failure.
The quick subset must also stay under a minute in all, so the heaviest tests under a second
are marked too when it needs it (the tests of half a second or more on a loaded machine).
"""

from __future__ import annotations

import resource
import sys

import pytest

sys.dont_write_bytecode = False

#: A test of this many CPU seconds or more is slow.
SLOW_SECONDS = 1.0

_unmarked: list[tuple[float, str]] = []


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    start = _cpu()
    try:
        return (yield)
    finally:
        spent = _cpu() - start
        if spent >= SLOW_SECONDS and item.get_closest_marker("slow") is None:
            _unmarked.append((spent, item.nodeid))


def pytest_terminal_summary(terminalreporter):
    if _unmarked:
        terminalreporter.section("tests of a second or more without @pytest.mark.slow")
        for spent, nodeid in sorted(_unmarked, reverse=True):
            terminalreporter.write_line(f"{spent:.2f} s CPU  {nodeid}")
