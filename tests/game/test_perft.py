"""perft regression values (tests/data/perft.txt), native and reference."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest
from refusals import check

from guandan import Deal, GuandanError
from guandan.game.perft import divide, perft, position

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from perft import read_file  # noqa: E402

ENTRIES = read_file(str(ROOT / "tests" / "data" / "perft.txt"))
CASES = [(e, depth, n) for e in ENTRIES for depth, n in sorted(e.perft.items())]


@pytest.mark.parametrize("entry, depth, expected", CASES, ids=[f"{e.id}-{d}" for e, d, _ in CASES])
def test_native_perft_matches_the_recorded_value(entry, depth, expected):
    assert perft(position(entry.seed, entry.cards, entry.level), depth) == expected


CHEAP = [(e, d, n) for e, d, n in CASES if n <= 600 and e.cards <= 12]


@pytest.mark.slow
@pytest.mark.parametrize("entry, depth, expected", CHEAP, ids=[f"{e.id}-{d}" for e, d, _ in CHEAP])
def test_reference_perft_matches_the_recorded_value(entry, depth, expected):
    assert perft(position(entry.seed, entry.cards, entry.level), depth, "reference") == expected


@pytest.mark.slow
def test_divide_sums_to_perft_and_agrees_between_implementations():
    deal = position(4, 8)
    native, reference = divide(deal, 3), divide(deal, 3, "reference")
    assert native == reference
    assert sum(native.values()) == perft(deal, 3) == 213
    assert len(native) == perft(deal, 1)


def test_perft_of_depth_zero_is_one_and_bad_depths_raise():
    deal = position(5, 4)
    assert perft(deal, 0) == perft(deal, 0, "reference") == 1
    with pytest.raises(GuandanError, match="depth"):
        perft(deal, -1)
    with pytest.raises(GuandanError, match="implementation"):
        perft(deal, 1, "fast")


@pytest.mark.slow
def test_perft_tool_prints_a_breakdown_and_checks_files():
    out = subprocess.run(
        [
            sys.executable,
            str(ROOT / "tools" / "perft.py"),
            "run",
            "--seed",
            "5",
            "--cards",
            "4",
            "--depth",
            "3",
            "--divide",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "perft 3: native 26" in out and "reference 26" in out
    assert out.count(": ") >= 4  # the divide lines


# -- bad input -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: perft(Deal.new(1), -1), GuandanError, "depth"),
        (lambda: perft(Deal.new(1), "a"), GuandanError, "depth"),
        (lambda: perft(Deal.new(1), 1, "x"), GuandanError, "implementation"),
        (lambda: divide(Deal.new(1), 0), GuandanError, "depth"),
        (lambda: divide(Deal.new(1), 1, "x"), GuandanError, "implementation"),
        (lambda: position(1, 0), GuandanError, "cards"),
        (lambda: position(1, 28), GuandanError, "cards"),
    ],
)
def test_bad_perft_arguments_raise(call, error, match):
    check(call, error, match)
