"""The torch learner: its ONNX export against torch on the same rows (and played by the onnx
agent), a stopped and resumed run against one never stopped, and the package importing without
torch."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import numpy as np
import pytest

if importlib.util.find_spec("torch") is None:
    pytest.skip("the train extra (pip install torch==2.13.0)", allow_module_level=True)

# All slow: importing torch alone takes seconds, so the quick subset never imports it.
pytestmark = pytest.mark.slow

from guandan import Deal, GuandanError  # noqa: E402
from guandan.game.encoding import encode_rows  # noqa: E402
from guandan.rl.train import TrainConfig  # noqa: E402


def _torch():
    import torch

    from guandan.rl import torch_train

    return torch, torch_train.TorchQNet, torch_train.TorchTrainer


def _config(frames):
    return TrainConfig(seed=5, tables=4, hidden=(16, 8), batch=32, replay=4000, frames=frames, eval_every=0,
                       epsilon_frames=500)  # fmt: skip


def test_the_onnx_export_and_torch_agree_on_the_same_rows_and_the_onnx_agent_plays_it(tmp_path):
    pytest.importorskip("onnx")
    pytest.importorskip("onnxruntime")
    from guandan.bots.network import OnnxAgent, load_session

    _, _, TorchTrainer = _torch()
    trainer = TorchTrainer(_config(600), str(tmp_path / "run"), device="cpu")
    trainer.run()
    assert trainer.updates > 0
    path = str(tmp_path / "net.onnx")
    trainer.export(path)
    session = load_session(path)
    agent = OnnxAgent(path)
    deal = Deal.new(seed=4, level=6)
    for _ in range(12):
        obs = deal.observation(deal.turn)
        rows = encode_rows(obs)
        expected = trainer.q_rows(rows)
        got = session.run(None, {session.get_inputs()[0].name: rows})[0].reshape(-1)
        assert np.allclose(got, expected, rtol=1e-5, atol=1e-5)
        assert np.allclose(agent.q_values(obs), expected, rtol=1e-5, atol=1e-5)
        deal.play(agent.act(obs))


def test_a_run_stopped_and_resumed_makes_the_weights_of_a_run_never_stopped(tmp_path):
    torch, _, TorchTrainer = _torch()
    whole = TorchTrainer(_config(1200), str(tmp_path / "whole"), device="cpu")
    whole.run()
    first = TorchTrainer(_config(600), str(tmp_path / "parts"), device="cpu")
    first.run()
    del first
    resumed = TorchTrainer.resume(str(tmp_path / "parts"), device="cpu", frames=1200)
    assert resumed.frames >= 600
    resumed.run()
    assert (resumed.frames, resumed.deals, resumed.updates) == (whole.frames, whole.deals, whole.updates)
    assert whole.updates > 10
    for a, b in zip(whole.net.state_dict().values(), resumed.net.state_dict().values()):
        assert torch.equal(a, b)
    assert resumed.losses == whole.losses
    other = TorchTrainer(TrainConfig(**{**_config(1200).__dict__, "seed": 6}), str(tmp_path / "other"), device="cpu")
    other.run()
    assert not all(torch.equal(a, b) for a, b in zip(whole.net.state_dict().values(), other.net.state_dict().values()))


def test_the_network_is_the_mlp_of_its_widths_and_bad_options_are_named():
    torch, TorchQNet, TorchTrainer = _torch()
    net = TorchQNet((16, 8), seed=1)
    assert [tuple(p.shape) for p in net.parameters()] == [(16, 567), (16,), (8, 16), (8,), (1, 8), (1,)]
    assert all(torch.equal(a, b) for a, b in zip(net.parameters(), TorchQNet((16, 8), seed=1).parameters()))
    with pytest.raises(GuandanError, match="hidden"):
        TorchQNet((0,))
    with pytest.raises(GuandanError, match="device"):
        TorchTrainer(_config(10), "/tmp/unused-torch-run", device="nowhere")
    with pytest.raises(GuandanError, match="no checkpoint"):
        TorchTrainer.resume("/no/such/run")


def test_the_package_and_the_numpy_trainer_import_without_torch():
    code = ("import sys; sys.modules['torch'] = None; import guandan, guandan.rl.train, guandan.rl.env; "
            "print('torch' in sys.modules and sys.modules['torch'] is None)")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "True"


def test_the_command_on_torch_goes_on_from_its_checkpoint_when_run_again(tmp_path, capsys):
    pytest.importorskip("onnx")
    import json

    from guandan.rl.train import main

    args = ["--out", str(tmp_path), "--backend", "torch", "--device", "cpu", "--tables", "4", "--hidden", "8",
            "--batch", "32", "--eval-every", "400", "--eval-deals", "2"]  # fmt: skip
    assert main([*args, "--frames", "600"]) == 0
    out = capsys.readouterr()
    assert f"{tmp_path / 'checkpoint.pt'}: the whole run" in out.out and f"{tmp_path / 'model.onnx'}" in out.out
    assert main([*args, "--frames", "1000"]) == 0
    assert "going on from" in capsys.readouterr().err
    records = [json.loads(line) for line in open(tmp_path / "log.jsonl")]
    frames = [r["frames"] for r in records]
    assert frames == sorted(frames) and frames[-1] >= 1000 and len(records) >= 3
    assert records[-1]["vs_greedy"]["n"] == 4 and records[-1]["wall"] >= records[0]["wall"]
    with pytest.raises(SystemExit) as stopped:
        main(["--out", str(tmp_path / "x"), "--backend", "torch", "--device", "nowhere", "--frames", "10"])
    assert stopped.value.code == 2


def test_a_run_started_from_a_checkpoint_starts_from_its_network_and_resumes_without_the_file(tmp_path):
    torch, TorchQNet, TorchTrainer = _torch()
    from dataclasses import replace

    from guandan.rl.torch_train import read_init

    source = TorchQNet((16, 8), seed=9)
    init = tmp_path / "teacher.pt"
    torch.save({"net": source.state_dict(), "epoch": 3}, init)
    assert read_init(str(init)).hidden == (16, 8)
    config = replace(_config(1500), init=str(init))
    run = TorchTrainer(config, str(tmp_path / "run"), device="cpu")
    assert all(torch.equal(a, b) for a, b in zip(run.net.parameters(), source.parameters()))
    assert not all(torch.equal(a, b) for a, b in zip(TorchTrainer(_config(300), str(tmp_path / "fresh"), device="cpu")
                                                     .net.parameters(), source.parameters()))  # fmt: skip
    assert run.run()["updates"] > 0
    assert not all(torch.equal(a, b) for a, b in zip(run.net.parameters(), source.parameters()))  # it learnt
    init.unlink()  # going on needs the checkpoint alone
    again = TorchTrainer.resume(str(tmp_path / "run"), device="cpu")
    assert again.config.init == str(init) and again.frames == run.frames
    assert all(torch.equal(a, b) for a, b in zip(again.net.parameters(), run.net.parameters()))


def test_a_start_that_is_not_a_network_of_the_rows_is_refused_by_name(tmp_path):
    torch, TorchQNet, TorchTrainer = _torch()
    from dataclasses import replace

    from guandan.rl.torch_train import read_init

    cases = {
        "missing.pt": (None, "no such file"),
        "text.pt": (b"not a checkpoint", "not a torch checkpoint"),
        "empty.pt": ({"epoch": 1}, "holds no network"),
        "extra.pt": ({"net": TorchQNet((8,), seed=0, extra=7).state_dict()}, "574 inputs"),
        "broken.pt": ({"net": {"layers.0.weight": torch.zeros(8, 567)}}, "not a linear layer"),
    }
    for name, (content, message) in cases.items():
        path = tmp_path / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        elif content is not None:
            torch.save(content, path)
        with pytest.raises(GuandanError, match=message):
            read_init(str(path))
    good = tmp_path / "good.pt"
    torch.save({"net": TorchQNet((8,), seed=0).state_dict()}, good)
    with pytest.raises(GuandanError, match="hidden widths 8; this run 16,8"):
        TorchTrainer(replace(_config(10), init=str(good)), str(tmp_path / "run"), device="cpu")


def test_a_run_starts_from_an_exported_model_as_from_its_checkpoint(tmp_path):
    """``--init model.onnx``: the layers of a model the package wrote and its metadata (scale,
    structure, place prior): the same network, the same run configuration."""
    pytest.importorskip("onnx")
    pytest.importorskip("onnxruntime")
    torch, TorchQNet, TorchTrainer = _torch()
    from dataclasses import replace

    from guandan.bots.network import load_session
    from guandan.rl.qnet import QNetwork
    from guandan.rl.torch_train import export_onnx, read_init

    path, teacher, bias = _teacher(tmp_path)
    from_pt = TorchTrainer(replace(_config(10), init=path, candidates=8), str(tmp_path / "a"), device="cpu")
    model = str(tmp_path / "teacher.onnx")
    from_pt.export(model)
    init = read_init(model)
    assert init.hidden == (16, 8) and init.structure and init.value_scale == 3.0 and init.temperature == 0.25
    assert np.allclose(init.place_bias, bias[:32].numpy(), atol=1e-6)  # the metadata keeps 6 decimals
    from_onnx = TorchTrainer(replace(_config(10), init=model, candidates=8), str(tmp_path / "b"), device="cpu")
    assert all(torch.equal(a, b) for a, b in zip(from_onnx.net.parameters(), teacher.parameters()))
    deal = Deal.new(seed=6)
    rows = encode_rows(deal.observation(deal.turn))
    session = load_session(model)
    assert np.allclose(from_onnx.q_rows(rows), session.run(None, {"rows": rows})[0].reshape(-1), atol=1e-5)
    plain = str(tmp_path / "plain.onnx")
    QNetwork(hidden=(8,), seed=2).to_onnx(plain)
    simple = read_init(plain)
    assert (simple.hidden, simple.structure, simple.value_scale, simple.place_bias) == ((8,), False, 1.0, None)
    export_onnx(TorchQNet((8,), seed=0), str(tmp_path / "scaled.onnx"), value_scale=2.0)
    assert read_init(str(tmp_path / "scaled.onnx")).value_scale == 2.0


def test_an_onnx_start_the_package_did_not_write_is_refused_by_name(tmp_path):
    onnx = pytest.importorskip("onnx")
    from onnx import helper, numpy_helper

    from guandan.rl.qnet import QNetwork
    from guandan.rl.torch_train import read_init

    (tmp_path / "text.onnx").write_bytes(b"not a model")
    with pytest.raises(GuandanError, match="is not an ONNX model"):
        read_init(str(tmp_path / "text.onnx"))
    node = helper.make_node("Identity", ["rows"], ["q"])
    other = helper.make_model(helper.make_graph([node], "g", [helper.make_tensor_value_info("rows", 1, ["n", 1])],
                                                [helper.make_tensor_value_info("q", 1, ["n", 1])]))  # fmt: skip
    onnx.save(other, tmp_path / "other.onnx")
    with pytest.raises(GuandanError, match="not a network this package wrote"):
        read_init(str(tmp_path / "other.onnx"))
    QNetwork(hidden=(8,), seed=2).to_onnx(str(tmp_path / "tagged.onnx"))
    tagged = onnx.load(tmp_path / "tagged.onnx")
    helper.set_model_props(tagged, {"guandan.structure": "[]"})
    onnx.save(tagged, tmp_path / "tagged.onnx")
    with pytest.raises(GuandanError, match="reads 567 values but its metadata has guandan.structure"):
        read_init(str(tmp_path / "tagged.onnx"))
    broken = onnx.load(tmp_path / "tagged.onnx")
    broken.graph.initializer[1].CopyFrom(numpy_helper.from_array(np.zeros(3, np.float32), "b0"))
    onnx.save(broken, tmp_path / "broken.onnx")
    with pytest.raises(GuandanError, match="layer 0 is not a linear layer"):
        read_init(str(tmp_path / "broken.onnx"))


def test_the_command_takes_its_start_and_its_widths_from_init(tmp_path, capsys):
    pytest.importorskip("onnx")
    import json

    torch, TorchQNet, _ = _torch()
    from guandan.rl.train import main

    init = tmp_path / "teacher.pt"
    torch.save({"net": TorchQNet((12, 4), seed=2).state_dict()}, init)
    args = ["--out", str(tmp_path / "run"), "--device", "cpu", "--tables", "4", "--batch", "32", "--eval-every",
            "0", "--frames", "200"]  # fmt: skip
    assert main([*args, "--init", str(init)]) == 0  # torch without --backend: --init starts a torch run
    config = json.load(open(tmp_path / "run" / "config.json"))
    assert config["hidden"] == [12, 4] and config["init"] == str(init)
    init.rename(tmp_path / "moved.pt")  # going on needs the checkpoint alone, even with --init given
    assert main([*args[:-1], "400", "--init", str(init)]) == 0
    assert "going on from" in capsys.readouterr().err
    torch.save({"net": TorchQNet((12, 4), seed=2).state_dict()}, init)
    for bad, message in ((["--hidden", "8"], "--hidden 8 differs from --init's network"),
                         (["--backend", "numpy"], "--init starts a torch run")):  # fmt: skip
        with pytest.raises(SystemExit) as stopped:
            main([*args[:1], str(tmp_path / "other"), *args[2:], "--init", str(init), *bad])
        assert stopped.value.code == 2 and message in capsys.readouterr().err


def _teacher(tmp_path, hidden=(16, 8)):
    """A checkpoint of the form guandan expert train writes: a network reading the rows and their
    structure, a learnt place prior, its scores in distill.VALUE_SCALE levels."""
    torch, TorchQNet, _ = _torch()
    from guandan.rl.structure import STRUCTURE_SIZE

    net = TorchQNet(hidden, seed=3, extra=STRUCTURE_SIZE)
    bias = torch.linspace(1.0, -1.0, 33)
    path = tmp_path / "teacher.pt"
    torch.save({"config": {"hidden": hidden, "temperature": 0.25, "place_prior": True, "structure": True},
                "net": net.state_dict(), "place_bias": bias, "epoch": 6}, path)  # fmt: skip
    return str(path), net, bias


def test_a_network_of_the_structure_with_a_place_prior_is_read_with_its_scale_and_prior(tmp_path):
    from guandan.rl.distill import VALUE_SCALE
    from guandan.rl.torch_train import read_init, with_init

    path, net, bias = _teacher(tmp_path)
    init = read_init(path)
    assert init.hidden == (16, 8) and init.structure and init.value_scale == VALUE_SCALE == 3.0
    assert init.temperature == 0.25 and np.allclose(init.place_bias, bias[:32].numpy())
    config = with_init(TrainConfig(hidden=(16, 8), init=path, candidates=8))
    assert (config.structure, config.value_scale, config.temperature, config.candidates) == (True, 3.0, 0.25, 8)
    with pytest.raises(GuandanError, match="objective 'levels', not 'wins'"):
        with_init(TrainConfig(hidden=(16, 8), init=path, objective="wins"))
    with pytest.raises(GuandanError, match="is a directory; give its checkpoint.pt"):
        read_init(str(tmp_path))
    _, _, TorchTrainer = _torch()
    with pytest.raises(GuandanError, match="candidates"):
        TorchTrainer(TrainConfig(hidden=(16, 8), candidates=65), str(tmp_path / "run"), device="cpu")


def test_the_factored_q_of_a_network_of_the_structure_is_its_q_of_the_rows():
    torch, TorchQNet, _ = _torch()
    from guandan.rl.structure import STRUCTURE_SIZE, structure_torch
    from guandan.rl.torch_train import q_factored
    from guandan.rl.vector import VecTables

    net = TorchQNet((16,), seed=2, extra=STRUCTURE_SIZE)
    tables = VecTables(5, seed=4, observe="rows", level=None)
    total = int(tables.offsets[-1])
    which = np.repeat(np.arange(5), np.diff(tables.offsets))
    got = q_factored(net, torch.device("cpu"), tables.states, tables.actions[:total], which)
    rows = torch.from_numpy(np.concatenate([tables.rows(i) for i in range(5)]))
    with torch.no_grad():
        expected = net(torch.cat([rows, structure_torch(rows)], dim=1)).reshape(-1).numpy()
    assert np.allclose(got, expected, atol=1e-5) and np.ptp(expected) > 0


def test_a_run_from_a_teacher_acts_among_the_candidates_learns_in_its_scale_and_exports_its_prior(tmp_path):
    pytest.importorskip("onnx")
    pytest.importorskip("onnxruntime")
    torch, _, TorchTrainer = _torch()
    from dataclasses import replace

    from guandan.bots.network import NetAgent, OnnxAgent, load_session, model_candidates, place_prior, value_scale
    from guandan.rl.dmc import candidate_scores
    from guandan.rl.torch_train import act
    from guandan.rl.vector import VecTables

    path, teacher, bias = _teacher(tmp_path)
    run = TorchTrainer(replace(_config(1200), init=path, candidates=8), str(tmp_path / "run"), device="cpu")
    assert run.net.extra == teacher.extra and run.config.place_bias is not None
    tables = VecTables(6, seed=9, observe="rows", level=None)
    for _ in range(30):  # greedy: the candidate of the highest score, never another action
        choice = act(run.net, run.device, run.config, tables)
        places = tables.places(8)
        assert (places[tables.offsets[:-1] + choice] >= 0).all()
        for i, c in enumerate(choice):
            a, b = tables.offsets[i], tables.offsets[i + 1]
            q = run.q_rows(tables.rows(i))
            scores = np.where(places[a:b] >= 0, candidate_scores(q, places[a:b], run.config), -np.inf)
            assert scores[c] >= scores.max() - 1e-4  # the factored and the whole rows' Q differ in rounding
        tables.step(choice)
    summary = run.run()
    assert summary["updates"] > 0
    stored = run.r_targets[: run.r_size]
    assert np.allclose(stored * 3.0, np.round(stored * 3.0), atol=1e-5) and np.abs(stored).max() <= 1.0  # levels / 3
    out = str(tmp_path / "net.onnx")
    run.export(out)
    session = load_session(out)
    assert value_scale(session, out) == 3.0
    temperature, exported = place_prior(session, out)
    assert temperature == 0.25 and np.allclose(exported, bias[:32].numpy(), atol=1e-6)
    assert model_candidates(session, out) == 8 and OnnxAgent(out).candidates == 8  # played as it learned
    deal = Deal.new(seed=4, level=6)
    agent = NetAgent(out)
    for _ in range(12):
        obs = deal.observation(deal.turn)
        rows = encode_rows(obs)
        got = session.run(None, {session.get_inputs()[0].name: rows})[0].reshape(-1)
        assert np.allclose(got, run.q_rows(rows), rtol=1e-4, atol=1e-5)
        deal.play(agent.act(obs))
