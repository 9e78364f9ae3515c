"""Teaching a state value (guandan.rl.state_value): self-play collected in seeded chunks that a
stopped run completes byte for byte, what is kept (each decision's state and its side's
result), training written as a file the search reads, and the command end to end."""

from __future__ import annotations

import importlib.util
import os

import numpy as np
import pytest

if importlib.util.find_spec("torch") is None:
    pytest.skip("the train extra (pip install torch==2.13.0)", allow_module_level=True)

# All slow: importing torch alone takes seconds, so the quick subset never imports it.
pytestmark = pytest.mark.slow

from refusals import check  # noqa: E402

from guandan import Deal, GuandanError  # noqa: E402
from guandan.bots.search import MonteCarloAgent  # noqa: E402
from guandan.bots.state_value import load_value  # noqa: E402
from guandan.rl.state_value import collect, load_chunks, main, train  # noqa: E402


def _arrays(path):
    with np.load(path) as data:
        return {k: data[k].copy() for k in data}


def test_a_stopped_collection_goes_on_to_the_same_chunks(tmp_path):
    whole, stopped = str(tmp_path / "whole"), str(tmp_path / "stopped")
    assert collect(whole, states=400, chunk=200, tables=8, seed=4) >= 400
    assert collect(stopped, states=200, chunk=200, tables=8, seed=4) >= 200  # stopped after one chunk
    assert sorted(os.listdir(stopped)) == ["states-000.npz"]
    collect(stopped, states=400, chunk=200, tables=8, seed=4)  # the same command, asked for the whole
    for name in ("states-000.npz", "states-001.npz"):
        a, b = _arrays(os.path.join(whole, name)), _arrays(os.path.join(stopped, name))
        assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
    two = str(tmp_path / "two")  # two workers: the same chunks
    assert collect(two, states=400, chunk=200, tables=8, seed=4, workers=2) >= 400
    for name in ("states-000.npz", "states-001.npz"):
        a, b = _arrays(os.path.join(whole, name)), _arrays(os.path.join(two, name))
        assert all(np.array_equal(a[k], b[k]) for k in a)
    other = str(tmp_path / "other")
    collect(other, states=200, chunk=200, tables=8, seed=5)
    assert not np.array_equal(_arrays(os.path.join(other, "states-000.npz"))["hands"],
                              _arrays(os.path.join(whole, "states-000.npz"))["hands"])  # fmt: skip


def test_what_is_kept_is_each_decisions_state_and_its_sides_result(tmp_path):
    out = str(tmp_path / "states")
    collect(out, states=300, chunk=300, tables=1, seed=2, epsilon=0.0)  # one table: its deals in order
    (chunk,) = load_chunks(out)
    target, turn = chunk["target"], chunk["turn"].astype(int)
    assert len(target) >= 300 and set(np.unique(target)) <= {-3.0, -2.0, -1.0, 1.0, 2.0, 3.0}
    assert ((chunk["level"] >= 2) & (chunk["level"] <= 14)).all()
    faces = np.arange(54)
    counts = (chunk["hands"][:, :, faces >> 5] >> (2 * (faces & 31)).astype(np.uint64)) & np.uint64(3)
    cards = counts.sum(axis=2).astype(np.int64)  # (n, 4)
    starts = np.flatnonzero((cards == 27).all(axis=1))  # each deal's first decision
    assert starts[0] == 0 and len(starts) >= 3
    for a, b in zip(starts, list(starts[1:]) + [len(target)]):
        # within a deal the results are its sides', opposite: side 0's result is the same at every decision
        side0 = target[a:b] * np.where(turn[a:b] % 2 == 0, 1, -1)
        assert len(set(side0.tolist())) == 1
        assert (np.diff(cards[a:b].sum(axis=1)) <= 0).all()  # cards only leave the hands


def test_training_writes_a_value_the_search_reads(tmp_path):
    data = str(tmp_path / "states")
    collect(data, states=600, chunk=300, tables=8, seed=1)
    path = str(tmp_path / "value.npz")
    value, report = train(data, path, hidden=(16, 8), epochs=2, seed=3, plies=5)
    assert report["held_out"] >= 300 and report["states"] >= 300 and np.isfinite(report["held_out_mse"])
    loaded = load_value(path)
    assert loaded.hidden == (16, 8) and loaded.plies == 5
    assert all(np.array_equal(a, b) for a, b in zip(loaded.layers, value.layers))
    again, _ = train(data, str(tmp_path / "again.npz"), hidden=(16, 8), epochs=2, seed=3, plies=5)
    assert all(np.array_equal(a, b) for a, b in zip(again.layers, value.layers))  # seeded: the same network
    deal = Deal.new(seed=4, level=2, leader=0)
    obs = deal.observation(deal.turn)
    assert MonteCarloAgent(seed=1, rollouts=100, value=path).act(obs) in obs.legal_actions


def test_the_command_collects_trains_and_refuses_by_name(tmp_path, capsys):
    data, path = str(tmp_path / "states"), str(tmp_path / "v.npz")
    assert main(["collect", "--out", data, "--states", "400", "--chunk", "200", "--tables", "8"]) == 0
    assert "states in" in capsys.readouterr().out
    assert main(["train", data, "--out", path, "--hidden", "8", "4", "--epochs", "1"]) == 0
    assert "held_out_mse" in capsys.readouterr().out.replace(" ", "_") and os.path.isfile(path)
    assert main(["train", str(tmp_path / "empty"), "--out", path]) == 2
    assert "no states-NNN.npz chunks" in capsys.readouterr().err
    assert main(["collect", "--out", data, "--states", "400", "--epsilon", "2"]) == 2
    assert "epsilon" in capsys.readouterr().err
    check(lambda: collect(data, states=0), GuandanError, "states")
    check(lambda: train(data, path, hidden=(300, 8)), GuandanError, "hidden widths")  # before any training
    check(lambda: train(data, path, plies=-1), GuandanError, "plies")
