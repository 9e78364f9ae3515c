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
from guandan.rl.state_value import _play_chunk, collect, load_chunks, main, train  # noqa: E402
from guandan.rl.vector import VecTables  # noqa: E402


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


def _first_action(departing_at):
    """An actor playing every table's first legal action that says table 0 departed at the
    calls in ``departing_at``, and keeps what it was told was still open."""
    calls = []

    def actor(tables, still):
        departed = np.zeros(tables.n, dtype=bool)
        departed[0] = len(calls) in departing_at
        calls.append(still.copy())
        return np.zeros(tables.n, dtype=np.int64), departed

    return actor, calls


def test_a_departure_drops_its_deals_states_until_it():
    plain, _ = _first_action(set())
    kept = _play_chunk(plain, VecTables(1, seed=6, observe="rows", level=None), 150)
    departing, calls = _first_action({5, 7})
    dropped = _play_chunk(departing, VecTables(1, seed=6, observe="rows", level=None), 150)
    assert calls[0][0] and calls[5][0] and not calls[6][0] and not calls[7][0]
    # the same play: the first deal loses its states up to and with the last departure (call 7)
    m = min(len(kept["target"]) - 8, len(dropped["target"]))
    assert m >= 100
    for key in kept:
        assert np.array_equal(dropped[key][:m], kept[key][8:8 + m]), key
    assert calls[-1][0]  # open again in the deals after


def test_exploring_once_keeps_the_networks_own_play_and_without_draws_is_plain(tmp_path):
    plain, once = str(tmp_path / "plain"), str(tmp_path / "once")
    collect(plain, states=300, chunk=300, tables=4, seed=2, epsilon=0.0)
    collect(once, states=300, chunk=300, tables=4, seed=2, epsilon=0.0, exploration="once")
    a, b = _arrays(os.path.join(plain, "states-000.npz")), _arrays(os.path.join(once, "states-000.npz"))
    assert all(np.array_equal(a[k], b[k]) for k in a)  # no draw, no departure: every state kept
    drawn = str(tmp_path / "drawn")
    collect(drawn, states=300, chunk=300, tables=4, seed=2, epsilon=1.0, exploration="once")
    (chunk,) = load_chunks(drawn)
    faces = np.arange(54)
    counts = (chunk["hands"][:, :, faces >> 5] >> (2 * (faces & 31)).astype(np.uint64)) & np.uint64(3)
    cards = counts.sum(axis=2).astype(np.int64)
    # every deal departs (a draw of the network's own choice only puts it off), dropping its first state
    assert len(chunk["target"]) >= 300 and not (cards == 27).all(axis=1).any()
    check(lambda: collect(drawn, states=300, exploration="never"), GuandanError, "exploration")


def test_a_table_that_departed_plays_the_networks_own_choice():
    from guandan.bots.network import SHIPPED_MODEL
    from guandan.rl.state_value import _network_actor

    tables = VecTables(6, seed=8, observe="rows", level=None)
    once = _network_actor(SHIPPED_MODEL, 6, 1.0, seed=3, exploration="once")
    plain = _network_actor(SHIPPED_MODEL, 6, 0.0, seed=3, exploration="decisions")
    own, none = plain(tables, np.ones(6, dtype=bool))
    assert not none.any()
    still = np.array([True, False, True, False, False, False])
    action, departed = once(tables, still)
    # the closed tables play the network's own choice and never depart, even at epsilon 1
    assert np.array_equal(action[~still], own[~still]) and not departed[~still].any()
    assert np.array_equal(departed, action != own)


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
