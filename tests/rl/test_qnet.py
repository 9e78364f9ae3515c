"""The plain-numpy Q-network: its gradients against finite differences, Adam, the factored Q,
the ONNX export against numpy."""

from __future__ import annotations

import os

import numpy as np
import pytest

from guandan.rl.qnet import Adam, QNetwork
from guandan.rl.train import choose_actions
from guandan.rl.vector import VecTables


def test_backpropagation_matches_finite_differences():
    net = QNetwork(hidden=(6, 5), seed=3)
    net.params = [p.astype(np.float64) for p in net.params]
    rng = np.random.default_rng(0)
    rows = rng.integers(-1, 3, size=(7, 567)).astype(np.float64)
    targets = rng.standard_normal(7)
    _, grads = net.loss_and_grads(rows, targets)
    for k, p in enumerate(net.params):
        for idx in [tuple(rng.integers(0, s) for s in p.shape) for _ in range(4)]:
            old = p[idx]
            p[idx] = old + 1e-6
            up, _ = net.loss_and_grads(rows, targets)
            p[idx] = old - 1e-6
            down, _ = net.loss_and_grads(rows, targets)
            p[idx] = old
            assert abs((up - down) / 2e-6 - grads[k][idx]) < 1e-5 * max(1.0, abs(grads[k][idx]))


@pytest.mark.slow
def test_adam_fits_a_small_regression():
    net = QNetwork(hidden=(16,), seed=0)
    opt = Adam(net.params, lr=1e-3)
    rng = np.random.default_rng(1)
    rows = rng.integers(0, 2, size=(64, 567)).astype(np.float32)
    targets = rows[:, :10].sum(axis=1) - 5
    first, _ = net.loss_and_grads(rows, targets)
    for _ in range(300):
        loss, grads = net.loss_and_grads(rows, targets)
        opt.step(grads)
    assert loss < first / 20


def test_the_factored_q_is_the_q_of_the_rows_and_choices_are_its_best():
    net = QNetwork(hidden=(12, 6), seed=2)
    tables = VecTables(5, seed=4, observe="rows")
    choice = choose_actions(net, tables.states, tables.actions, tables.offsets)
    for i in range(5):
        q = net.q(tables.rows(i))
        assert np.allclose(
            net.q_factored(tables.states[i : i + 1], tables.actions[tables.offsets[i] : tables.offsets[i + 1]],
                           np.zeros(len(q), dtype=np.int64)), q, atol=1e-5)  # fmt: skip
        assert q[choice[i]] >= q.max() - 1e-5


@pytest.mark.slow
def test_the_onnx_export_computes_the_networks_q():
    ort = pytest.importorskip("onnxruntime")
    pytest.importorskip("onnx")
    net = QNetwork(hidden=(10, 4), seed=5)
    rows = VecTables(1, seed=1, observe="rows").rows(0)
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "q.onnx")
        net.to_onnx(path)
        session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
        out = session.run(None, {"rows": rows})[0]
    assert out.shape == (len(rows), 1)
    assert np.allclose(out[:, 0], net.q(rows), atol=1e-4)
