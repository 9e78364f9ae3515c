"""benchmarks/core_bench.c, the C harness behind the instruction counts in benchmarks/README.md,
builds against the core and agrees with the Python API on what it measures."""

from __future__ import annotations

import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def core_bench(tmp_path_factory):
    cc = shutil.which("cc") or shutil.which("gcc")
    assert cc, "a C compiler builds the package, so one is on PATH"
    exe = tmp_path_factory.mktemp("bench") / "core_bench"
    subprocess.run(
        [
            cc,
            "-O2",
            "-I",
            str(ROOT / "csrc"),
            str(ROOT / "benchmarks/core_bench.c"),
            str(ROOT / "csrc/gd_core.c"),
            "-o",
            str(exe),
        ],
        check=True,
    )
    return exe


@pytest.mark.slow
@pytest.mark.parametrize(
    "mode", ["lead-rank", "lead-count", "lead-card", "response-rank", "response-count", "mixed-count"]
)
def test_core_bench_runs_every_mode(core_bench, mode):
    out = subprocess.run([str(core_bench), mode, "200"], check=True, capture_output=True, text=True).stdout
    assert out.startswith(f"{mode}: ") and "M positions/s" in out


def test_core_bench_counts_what_it_enumerates(core_bench):
    def moves(mode: str) -> str:
        out = subprocess.run([str(core_bench), mode, "300"], check=True, capture_output=True, text=True).stdout
        return out.split(", ")[1]

    assert moves("lead-rank") == moves("lead-count")
    assert moves("response-rank") == moves("response-count")


def test_core_bench_rejects_an_unknown_mode(core_bench):
    run = subprocess.run([str(core_bench), "fast"], capture_output=True, text=True)
    assert run.returncode == 2 and "usage" in run.stderr
