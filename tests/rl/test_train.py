"""The Q-network (its gradients against finite differences, its ONNX export against numpy) and
a few seconds of deep Monte Carlo training: seeded, checkpointed, exported, plotted."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from guandan.rl.qnet import Adam, QNetwork
from guandan.rl.train import TrainConfig, Trainer, choose_actions, evaluate, main, plot_curve
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


def _run(out, seed):
    config = TrainConfig(seed=seed, tables=8, hidden=(16,), batch=64, replay=5000, frames=1500, eval_every=800,
                         eval_deals=3, epsilon_frames=1000)  # fmt: skip
    trainer = Trainer(config, out)
    summary = trainer.run(progress=False)
    return trainer, summary


@pytest.mark.slow
def test_a_few_training_steps_learn_checkpoint_export_and_repeat_with_the_seed(tmp_path):
    pytest.importorskip("onnx")
    a, summary = _run(str(tmp_path / "a"), seed=7)
    b, _ = _run(str(tmp_path / "b"), seed=7)
    c, _ = _run(str(tmp_path / "c"), seed=8)
    assert summary["frames"] >= 1500 and summary["updates"] > 0 and summary["deals"] > 0
    assert all(np.array_equal(x, y) for x, y in zip(a.net.params, b.net.params))  # the same seed, the same run
    assert not all(np.array_equal(x, y) for x, y in zip(a.net.params, c.net.params))
    records = [json.loads(line) for line in open(tmp_path / "a" / "log.jsonl")]
    assert [r["frames"] for r in records][0] == 0 and len(records) >= 3
    assert {"won", "n", "lo", "hi"} <= set(records[-1]["vs_greedy"]) and records[-1]["vs_random"]["n"] == 6
    assert (tmp_path / "a" / "model.onnx").exists() and (tmp_path / "a" / "checkpoint.npz").exists()
    loaded = QNetwork(hidden=(16,), seed=0)
    loaded.load(np.load(tmp_path / "a" / "checkpoint.npz"))
    assert all(np.array_equal(x, y) for x, y in zip(loaded.params, a.net.params))
    pytest.importorskip("matplotlib")
    plot_curve(str(tmp_path / "a" / "log.jsonl"), str(tmp_path / "curve.png"))
    assert (tmp_path / "curve.png").stat().st_size > 1000


def test_evaluation_plays_the_same_deals_with_sides_swapped():
    net = QNetwork(hidden=(4,), seed=0)
    first = evaluate(net, "greedy", 3, seed=11)
    assert first == evaluate(net, "greedy", 3, seed=11)
    assert first["n"] == 6 and 0 <= first["lo"] <= first["rate"] <= first["hi"] <= 1


@pytest.mark.slow
def test_the_command_trains_and_refuses_a_run_without_a_budget(tmp_path, capsys):
    pytest.importorskip("onnx")
    assert main(["--out", str(tmp_path), "--frames", "300", "--tables", "4", "--hidden", "8", "--batch", "32",
                 "--eval-every", "0"]) == 0  # fmt: skip
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1])["frames"] >= 300
    with pytest.raises(SystemExit):
        main(["--out", str(tmp_path)])
