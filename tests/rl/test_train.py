"""The Q-network (its gradients against finite differences, its ONNX export against numpy) and
a few seconds of deep Monte Carlo training: seeded, checkpointed, exported, plotted."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from guandan.rl.qnet import QNetwork
from guandan.rl.train import TrainConfig, Trainer, curve_title, evaluate, main, plot_curve


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


def test_the_curves_title_says_how_the_run_was_trained(tmp_path):
    log = str(tmp_path / "log.jsonl")
    assert curve_title(log) == "Deep Monte Carlo self-play in one process"  # no config: a plain run
    (tmp_path / "config.json").write_text('{"seed": 0, "extra": {"actors": 1}}')
    assert curve_title(log) == "Deep Monte Carlo self-play: 1 actor on Ray and a learner"
    (tmp_path / "config.json").write_text('{"seed": 0, "extra": {"actors": 3}}')
    assert curve_title(log) == "Deep Monte Carlo self-play: 3 actors on Ray and a learner"
    (tmp_path / "config.json").write_text("not json")
    assert curve_title(log) == "Deep Monte Carlo self-play in one process"


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
    out = capsys.readouterr().out
    assert re.match(r"trained [\d,]+ frames", out) and f"{tmp_path / 'checkpoint.npz'}: the network's weights" in out
    with pytest.raises(SystemExit):
        main(["--out", str(tmp_path)])


def _options_of(help_text):
    """Each option of an argparse help text with its description (the lines up to the next)."""
    options, current = {}, None
    for line in help_text.split("options:", 1)[1].splitlines():
        m = re.match(r"^  (-\w, )?(--[\w-]+|[a-z]\w*)\b", line)
        if m:
            current = m.group(2)
            options[current] = line[m.end() :]
        elif current and line.startswith("     "):
            options[current] += " " + line.strip()
    return {k: " ".join(v.split()) for k, v in options.items() if k not in ("--help", "-h")}


@pytest.mark.parametrize("command", [["guandan.rl.train"], ["guandan.rl.imitate", "positions"],
                                     ["guandan.rl.imitate", "fit"], ["guandan.rl.imitate", "improve"]])  # fmt: skip
def test_every_option_of_the_learning_commands_says_what_it_is_and_its_default(command, capsys):
    import importlib

    module = importlib.import_module(command[0])
    with pytest.raises(SystemExit) as stopped:
        module.main([*command[1:], "--help"])
    assert stopped.value.code == 0
    options = _options_of(capsys.readouterr().out)
    assert len(options) >= 4
    for name, text in options.items():
        assert "default" in text and len(text.split()) >= 4, f"{' '.join(command)} {name}: {text!r}"


def test_the_summary_says_what_was_written_where(tmp_path):
    from guandan.rl.train import summary_text

    for name in ("config.json", "log.jsonl", "checkpoint.npz", "model.onnx", "model-0000000100.onnx"):
        (tmp_path / name).write_text("x")
    text = summary_text({"frames": 2000, "deals": 30, "updates": 3, "wall": 30.0}, str(tmp_path))
    assert text.startswith("trained 2,000 frames (30 deals, 3 learning steps) in 0.5 minutes; wrote")
    for name in ("config.json", "log.jsonl", "checkpoint.npz", "model.onnx"):
        assert f"{tmp_path / name}: " in text
    assert "model-<frames>.onnx: the network at each evaluation (1 files)" in text
    assert "{" not in text  # not a raw dict


@pytest.mark.parametrize("args, message", [
    (["--actors", "0"], "--actors is a number of actor processes >= 1, got 0"),
    (["--actors", "2", "--backend", "numpy"], "--actors feed the torch learner"),
    (["--address", "auto"], "--address goes with --actors N"),
    (["--actors", "1", "--actor-steps", "0"], "--actor-steps is >= 1"),
])  # fmt: skip
def test_bad_ray_options_are_named_with_status_2_before_anything_starts(args, message, capsys, tmp_path):
    with pytest.raises(SystemExit) as stopped:
        main(["--out", str(tmp_path / "run"), "--frames", "10", *args])
    assert stopped.value.code == 2
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last.startswith("python -m guandan.rl.train: error: ") and message in last
    assert not (tmp_path / "run").exists()
