"""benchmarks/core_bench.c, the C harness behind the instruction counts in benchmarks/README.md,
builds against the core and agrees with the Python API on what it measures."""

from __future__ import annotations

import pathlib
import shutil
import subprocess

import numpy as np
import pytest
from scripts import load_script

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _build(tmp_path_factory, *flags: str) -> pathlib.Path:
    cc = shutil.which("cc") or shutil.which("gcc")
    assert cc, "a C compiler builds the package, so one is on PATH"
    exe = tmp_path_factory.mktemp("bench") / "core_bench"
    sources = [str(ROOT / p) for p in ("benchmarks/core_bench.c", "csrc/gd_core.c", "csrc/gd_play.c")]
    subprocess.run([cc, "-O2", *flags, "-I", str(ROOT / "csrc"), *sources, "-o", str(exe)], check=True)
    return exe


@pytest.fixture(scope="module")
def core_bench(tmp_path_factory):
    return _build(tmp_path_factory)


@pytest.fixture(scope="module")
def core_bench_portable(tmp_path_factory):
    """The core built with its portable code path (GD_PORTABLE: no SSE2 even on x86-64)."""
    return _build(tmp_path_factory, "-DGD_PORTABLE")


MODES = ["lead-rank", "lead-count", "lead-card", "response-rank", "response-count", "mixed-count"]
PLAYOUTS = ["playout-random", "playout-greedy"]


def _digest(exe: pathlib.Path, mode: str, n: str) -> str:
    out = subprocess.run([str(exe), mode, n, "digest"], check=True, capture_output=True, text=True).stdout
    assert out.startswith(f"{mode}: ") and ", digest " in out, out
    return out.rsplit(", digest ", 1)[1].strip()


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_core_bench_runs_every_mode(core_bench, mode):
    out = subprocess.run([str(core_bench), mode, "200"], check=True, capture_output=True, text=True).stdout
    assert out.startswith(f"{mode}: ") and "M positions/s" in out


@pytest.mark.slow
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_core_bench_plays_deals_out(core_bench, policy):
    out = subprocess.run([str(core_bench), f"playout-{policy}", "20"], check=True, capture_output=True, text=True)
    rate, plies, _ = out.stdout.split(": ")[1].split(", ")
    assert rate.endswith("playouts/s") and 6 <= float(plies.split()[0]) <= 1000  # two seats play out 27 cards each


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES + PLAYOUTS)
def test_the_portable_code_path_makes_the_same_moves_and_playouts(core_bench, core_bench_portable, mode):
    """The SSE2 preparation of a position (the default on x86-64) and the portable one make the
    same moves, in the same order, and the same seeded playouts (digests of every word)."""
    n = "60" if mode in PLAYOUTS else "400"
    digest = _digest(core_bench, mode, n)
    assert digest == _digest(core_bench_portable, mode, n)
    assert digest != _digest(core_bench, mode, "10")  # the digest depends on what was made


@pytest.mark.slow
def test_core_bench_counts_what_it_enumerates(core_bench):
    def moves(mode: str) -> str:
        out = subprocess.run([str(core_bench), mode, "300"], check=True, capture_output=True, text=True).stdout
        return out.split(", ")[1]

    assert moves("lead-rank") == moves("lead-count")
    assert moves("response-rank") == moves("response-count")


@pytest.mark.slow
def test_core_bench_rejects_an_unknown_mode(core_bench):
    run = subprocess.run([str(core_bench), "fast"], capture_output=True, text=True)
    assert run.returncode == 2 and "usage" in run.stderr


@pytest.mark.parametrize("api", ["core", "batch"])
def test_batch_bench_runs_every_mode_through_the_functions_it_names(api, monkeypatch):
    """benchmarks/batch_bench.py (the batch loops under callgrind) calls what its mode says."""
    bench = load_script("batch_bench")
    corpus = np.load(bench.CORPUS)
    arrays = tuple(corpus[k][:20].copy() for k in ("hands", "levels", "beats"))
    for mode in bench.MODES:
        called = []
        for module in (bench._core, bench.batch):
            for name in dir(module):
                fn = getattr(module, name)
                if callable(fn) and name.startswith(("batch_", "fill_", "count_moves", "legal_", "iter_legal")):
                    spy = lambda *a, _f=fn, _n=name, _c=called, **k: _c.append(_n) or _f(*a, **k)  # noqa: E731
                    monkeypatch.setattr(module, name, spy)
        bench.call(mode, api, *arrays)
        monkeypatch.undo()
        want = {
            "count-rank": ("batch_count", "count_moves"),
            "count-card": ("batch_count", "count_moves"),
            "rank-moves": ("batch_rank_moves", "legal_moves"),
            "card-moves": ("batch_card_moves", "legal_moves"),
            "mask": ("batch_mask", "legal_mask"),
            "fill-rank": ("fill_rank_moves", "iter_legal_moves"),
            "fill-card": ("fill_card_moves", "iter_legal_moves"),
        }[mode][api == "batch"]
        assert called and called[0] == want, (mode, api, called)
