"""Training on Ray: actors and the torch learner end to end on a real local Ray instance (one
started for the module and shut down after it), a stopped and resumed run against one never
stopped, the command's output and its errors."""

from __future__ import annotations

import importlib.util
import json
import socket

import numpy as np
import pytest

if importlib.util.find_spec("torch") is None or importlib.util.find_spec("ray") is None:
    pytest.skip("the train extra (pip install torch==2.13.0, then '.[train]')", allow_module_level=True)

# All slow: importing torch and ray takes seconds, and starting Ray tens of seconds.
pytestmark = pytest.mark.slow

from guandan import Deal, GuandanError  # noqa: E402
from guandan.game.encoding import encode_rows  # noqa: E402
from guandan.rl.dmc import TrainConfig  # noqa: E402


def _config(frames, **kw):
    return TrainConfig(**{"seed": 5, "tables": 4, "hidden": (16, 8), "batch": 32, "replay": 4000, "frames": frames,
                          "eval_every": 300, "eval_deals": 0, "epsilon_frames": 500, **kw})  # fmt: skip


@pytest.fixture(scope="module")
def ray_up():
    import ray

    from guandan.rl.ray_train import start_ray

    assert start_ray(2)
    yield ray
    ray.shutdown()


def test_an_actor_restored_from_its_state_plays_as_the_original():
    from guandan.rl.ray_train import TableActor
    from guandan.rl.torch_train import TorchQNet

    weights = TorchQNet((16, 8), seed=1).state_dict()
    a = TableActor(_config(0), index=1)
    a.play([weights], 0, 0.3, 150)
    b = TableActor(_config(0), index=1, state=a.state())
    other = TableActor(_config(0), index=0)
    x, y, z = (actor.play([weights], 0, 0.3, 300) for actor in (a, b, other))
    assert x["deals"] > 0 and len(x["targets"]) > 0
    for key in ("states", "actions", "targets"):
        assert np.array_equal(x[key], y[key])
    assert not np.array_equal(x["states"][:5], z["states"][:5])  # actor 0's tables are other deals


def test_an_actor_of_a_network_of_the_structure_plays_among_the_candidates():
    from guandan.rl.ray_train import TableActor
    from guandan.rl.structure import STRUCTURE_SIZE
    from guandan.rl.torch_train import TorchQNet

    weights = TorchQNet((16, 8), seed=1, extra=STRUCTURE_SIZE).state_dict()
    actor = TableActor(_config(0, structure=True, candidates=2), index=0)
    out = actor.play([weights], 0, 0.0, 200)
    assert out["deals"] > 0 and len(out["targets"]) == len(out["actions"])
    # each decision is one of the first two candidates of the smart policy's order, never a third
    again = TableActor(_config(0, structure=True, candidates=2), index=0)
    t = again.tables
    checked = 0
    for _ in range(40):
        places, offsets = t.places(2), t.offsets.copy()
        actions = t.actions[: offsets[-1]].astype(np.int8)
        again.play([weights], 0, 0.0, 1)
        for i in range(t.n):
            if again.pending[i]:  # the deal goes on: its last decision is this step's
                same = np.flatnonzero((actions[offsets[i] : offsets[i + 1]] == again.pending[i][-1][1]).all(axis=1))
                assert (places[offsets[i] + same] >= 0).any()
                checked += 1
    assert checked > 100


def test_two_actors_in_turn_a_run_stopped_and_resumed_makes_the_weights_of_one_never_stopped(ray_up, tmp_path):
    import torch

    from guandan.rl.ray_train import RayTrainer

    whole = RayTrainer(_config(1200), str(tmp_path / "whole"), "cpu", actors=2, steps=8)
    summary = whole.run()
    whole.stop()
    assert summary["frames"] >= 1200 and whole.updates > 10 and whole.version > 1
    assert summary["seconds"]["engine"] > 0 and summary["seconds"]["inference"] > 0
    first = RayTrainer(_config(600), str(tmp_path / "parts"), "cpu", actors=2, steps=8)
    first.run()
    first.stop()
    assert 600 <= first.frames < 1200
    resumed = RayTrainer.resume(str(tmp_path / "parts"), "cpu", frames=1200)
    assert (resumed.n_actors, resumed.steps, resumed.order, resumed.frames) == (2, 8, "round-robin", first.frames)
    resumed.run()
    resumed.stop()
    assert (resumed.frames, resumed.deals, resumed.updates) == (whole.frames, whole.deals, whole.updates)
    for a, b in zip(whole.net.state_dict().values(), resumed.net.state_dict().values()):
        assert torch.equal(a, b)
    assert resumed.losses == whole.losses


def test_batches_taken_as_ready_train_too_and_the_samples_are_the_learners(ray_up, tmp_path):
    from guandan.rl.ray_train import RayTrainer

    # samples reach the learner only when deals end: 2,400 frames are about three deals a table
    # (800 could end before any deal of the eight tables had, and no step was made)
    t = RayTrainer(_config(2400, eval_every=0), str(tmp_path), "cpu", actors=2, order="ready", steps=4)
    t.run()
    t.stop()
    assert t.frames >= 2400 and t.updates > 0 and t.r_size > 0
    # the replay holds rows of real decisions: a state's 513 values and a played card vector
    assert set(np.unique(t.r_actions[: t.r_size])) <= {0, 1, 2} and t.r_actions[: t.r_size].sum() > 0
    with pytest.raises(GuandanError, match="actors"):
        RayTrainer(_config(10), str(tmp_path / "x"), "cpu", actors=0)
    with pytest.raises(GuandanError, match="order"):
        RayTrainer(_config(10), str(tmp_path / "x"), "cpu", actors=1, order="fifo")


def test_the_command_on_ray_trains_exports_and_goes_on_from_its_checkpoint(ray_up, tmp_path, capsys):
    pytest.importorskip("onnx")
    pytest.importorskip("onnxruntime")
    from guandan.bots.network import OnnxAgent
    from guandan.rl.train import main

    args = ["--out", str(tmp_path), "--actors", "2", "--device", "cpu", "--tables", "4", "--hidden", "8",
            "--batch", "32", "--eval-every", "400", "--eval-deals", "2", "--actor-steps", "8"]  # fmt: skip
    assert main([*args, "--frames", "600"]) == 0
    out = capsys.readouterr()
    assert f"{tmp_path / 'checkpoint.pt'}: the whole run" in out.out and "actors: engine" in out.err
    assert main([*args, "--frames", "1000"]) == 0
    assert "going on from" in capsys.readouterr().err
    records = [json.loads(line) for line in open(tmp_path / "log.jsonl")]
    frames = [r["frames"] for r in records]
    assert frames == sorted(frames) and frames[-1] >= 1000 and records[-1]["vs_greedy"]["n"] == 4
    assert json.load(open(tmp_path / "config.json"))["extra"] == {"actors": 2, "order": "round-robin", "steps": 8}
    agent = OnnxAgent(str(tmp_path / "model.onnx"))
    deal = Deal.new(seed=3, level=2)
    obs = deal.observation(deal.turn)
    assert agent.q_values(obs).shape == (len(encode_rows(obs)),)


def test_an_unreachable_address_is_a_clear_error_with_status_2(capsys):
    from guandan.rl.ray_train import check_address
    from guandan.rl.train import main

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(GuandanError, match="no Ray cluster answers"):
        check_address(f"127.0.0.1:{port}", timeout=2)
    with pytest.raises(SystemExit) as stopped:
        main(["--out", "/tmp/unused-ray-run", "--frames", "10", "--actors", "1", "--address", f"127.0.0.1:{port}"])
    assert stopped.value.code == 2
    assert "no Ray cluster answers at 127.0.0.1" in capsys.readouterr().err
    with pytest.raises(GuandanError, match="HOST:PORT"):
        check_address("ray://nowhere")
