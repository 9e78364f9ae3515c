"""Training on the search's values (guandan.rl.distill): the losses against a hand computation,
the ONNX export against torch on the same rows, a stopped and resumed run against one never
stopped, and the command end to end."""

from __future__ import annotations

import importlib.util
import json
import math
import os

import numpy as np
import pytest

if importlib.util.find_spec("torch") is None:
    pytest.skip("the train extra (pip install torch==2.13.0)", allow_module_level=True)

# All slow: importing torch alone takes seconds, so the quick subset never imports it.
pytestmark = pytest.mark.slow

from guandan import Deal, GuandanError  # noqa: E402
from guandan.game.encoding import encode_rows  # noqa: E402
from guandan.rl.expert import chunk_name, deal_positions, main, make_positions  # noqa: E402


@pytest.fixture(scope="module")
def positions():
    from guandan.rl.distill import Positions

    return Positions(deal_positions([3, 4, 10], rollouts=30), hold_out_every=10)


def test_the_losses_are_the_weighted_squared_error_and_the_cross_entropy_of_the_choice():
    import torch

    from guandan.rl.distill import VALUE_SCALE, _losses

    q = torch.tensor([0.2, -0.1, 0.5, 0.0, 0.3])
    owner = torch.tensor([0, 0, 0, 1, 1])
    values = torch.tensor([0.6, 0.0, -0.3, 0.9, 0.0])
    rollouts = torch.tensor([8.0, 0.0, 24.0, 8.0, 8.0])
    chosen = torch.tensor([0, 4])
    value_loss, policy_loss, agree = _losses(q, owner, values, rollouts, chosen, 2, 0.5, 8.0)
    w = [0.5, 0.0, 0.75, 0.5, 0.5]
    err = [(float(q[i]) - float(values[i]) / VALUE_SCALE) ** 2 for i in range(5)]
    assert float(value_loss) == pytest.approx(sum(a * b for a, b in zip(w, err)) / sum(w), rel=1e-5)
    ce0 = -math.log(math.exp(0.4) / (math.exp(0.4) + math.exp(-0.2) + math.exp(1.0)))
    ce1 = -math.log(math.exp(0.6) / (math.exp(0.0) + math.exp(0.6)))
    assert float(policy_loss) == pytest.approx((ce0 + ce1) / 2, rel=1e-5)
    assert agree.tolist() == [False, True]
    # with advantage, only the differences within a decision count: a decision's shift changes nothing
    a = _losses(q, owner, values, rollouts, chosen, 2, 0.5, 8.0, advantage=True)[0]
    shifted = values + torch.tensor([0.9, 0.9, 0.9, -0.6, -0.6])
    b = _losses(q, owner, shifted, rollouts, chosen, 2, 0.5, 8.0, advantage=True)[0]
    assert float(b) == pytest.approx(float(a))
    assert float(a) < float(value_loss)


def test_a_batch_gathers_each_decisions_rows_values_and_choice(positions):
    d = positions.train[:3]
    states, actions, owner, values, rollouts, chosen, place = positions.batch(d)
    sizes = positions.offsets[d + 1] - positions.offsets[d]
    assert len(actions) == sizes.sum() and owner.tolist() == np.repeat(np.arange(3), sizes).tolist()
    a = positions.offsets[d[1]]
    assert (states[1] == positions.states[d[1]]).all()
    assert (actions[sizes[0] : sizes[0] + sizes[1]] == positions.actions[a : a + sizes[1]]).all()
    assert chosen[1] - sizes[0] == positions.chosen[d[1]] - a
    assert ((rollouts > 0) | (values == 0)).all() and rollouts[chosen].min() > 0
    assert ((0 <= place) & (place <= 32)).all() and (place[chosen] < 32).all()  # the choice is a candidate


def test_each_row_has_its_place_in_the_smart_policys_order_of_the_candidates():
    from guandan.bots.network import search_candidates
    from guandan.rl.expert import _rank_word
    from guandan.rl.imitate import deal_level

    arrays = deal_positions([6], rollouts=20)
    order, offsets, chosen = arrays["order"], arrays["offsets"], arrays["chosen"]
    assert order.dtype == np.int8 and len(order) == len(arrays["actions"])
    assert (order[np.isfinite(arrays["values"])] >= 0).all() and (order[chosen] >= 0).all()  # searched: candidates
    for d in range(len(chosen)):  # a decision's candidates take the places 0 .. k - 1, each at least once
        places = order[offsets[d] : offsets[d + 1]]
        k = int(places.max()) + 1
        assert set(places.tolist()) - {-1} == set(range(k)) and 2 <= k <= 32
    deal = Deal.new(6, level=deal_level(6))  # the first decision, the deal's lead
    obs = deal.observation(deal.turn)
    words = [_rank_word(m) for m in search_candidates(obs, 32)]
    first = [words.index(w) if w in words else -1 for w in map(_rank_word, obs.legal_actions)]
    assert order[offsets[0] : offsets[1]].tolist() == first


def test_training_rows_are_the_searched_actions_or_every_legal_one_and_the_factored_scores_are_the_rows():
    import torch

    from guandan.rl.distill import Positions, factored_q
    from guandan.rl.torch_train import TorchQNet

    arrays = deal_positions([5], rollouts=30)
    legal, searched = Positions(arrays, 0, legal=True), Positions(arrays, 0)
    assert len(legal.actions) == len(arrays["actions"]) > len(searched.actions)
    assert np.isfinite(searched.values).all() and (searched.rollouts > 0).all()
    for d in range(len(arrays["chosen"])):  # the chosen action is kept, with its value
        assert (searched.actions[searched.chosen[d]] == arrays["actions"][arrays["chosen"][d]]).all()
        assert searched.values[searched.chosen[d]] == arrays["values"][arrays["chosen"][d]]
    net = TorchQNet((16,), seed=1)
    states, actions, owner, *_ = legal.batch(np.arange(4))
    rows = np.concatenate([states[owner], actions], axis=1)
    with torch.no_grad():
        a = factored_q(net, torch.from_numpy(states), torch.from_numpy(actions), torch.from_numpy(owner))
        assert torch.allclose(a, net(torch.from_numpy(rows)).reshape(-1), atol=1e-5)


def test_the_onnx_export_and_torch_agree_on_the_same_rows_and_the_agents_play_it(tmp_path, positions):
    pytest.importorskip("onnxruntime")
    import torch

    from guandan.bots.network import NetAgent, OnnxAgent, load_session
    from guandan.rl.distill import DistillConfig, Distiller, export_onnx

    run = Distiller(DistillConfig(hidden=(16, 8), epochs=1, batch=8), positions, str(tmp_path / "run"), device="cpu")
    run.run()
    path = str(tmp_path / "net.onnx")
    export_onnx(run.net, path)
    session = load_session(path)
    deal = Deal.new(seed=4, level=6)
    agents = [OnnxAgent(path), NetAgent(path)]
    for k in range(16):
        obs = deal.observation(deal.turn)
        rows = encode_rows(obs)
        with torch.no_grad():
            expected = run.net(torch.from_numpy(rows)).numpy().reshape(-1)
        got = session.run(None, {session.get_inputs()[0].name: rows})[0]
        assert got.shape == (len(rows), 1) and np.allclose(got.reshape(-1), expected, rtol=1e-5, atol=1e-5)
        assert np.allclose(agents[0].q_values(obs), expected, rtol=1e-5, atol=1e-5)
        deal.play(agents[k % 2].act(obs))


def test_a_stopped_and_resumed_run_ends_with_the_weights_of_one_never_stopped(tmp_path, positions):
    import torch

    from guandan.rl.distill import DistillConfig, Distiller

    config = DistillConfig(hidden=(16,), epochs=3, batch=8, seed=4)
    whole = Distiller(config, positions, str(tmp_path / "whole"), device="cpu")
    whole.run()
    part = Distiller(DistillConfig(hidden=(16,), epochs=1, batch=8, seed=4), positions, str(tmp_path / "part"), "cpu")
    part.run()
    resumed = Distiller(config, positions, str(tmp_path / "part"), device="cpu")  # the same command, more epochs
    assert resumed.epoch == 1
    resumed.run()
    for a, b in zip(whole.net.state_dict().values(), resumed.net.state_dict().values()):
        assert torch.equal(a, b)
    logs = [(tmp_path / d / "log.jsonl").read_text().splitlines() for d in ("whole", "part")]
    assert len(logs[0]) == len(logs[1]) == 3
    with pytest.raises(GuandanError, match="is of another run"):
        Distiller(DistillConfig(hidden=(8,), epochs=3), positions, str(tmp_path / "part"), device="cpu")


def test_a_run_makes_the_same_network_however_many_threads_torch_has(tmp_path, positions):
    """Training is the same bytes run after run and whatever torch's thread count (two threads'
    parallel sums, and a matrix product split another way, would each round differently)."""
    import torch

    from guandan.rl.distill import DistillConfig, Distiller

    config = DistillConfig(hidden=(256, 256), epochs=2, batch=64, advantage=True, place_prior=True)
    before = torch.get_num_threads()
    weights = []
    try:
        for k, threads in enumerate((2, 2, 1)):
            torch.set_num_threads(threads)
            run = Distiller(config, positions, str(tmp_path / str(k)), device="cpu")
            run.run()
            weights.append([t.detach().clone() for t in (*run.net.parameters(), run.place_bias)])
            assert torch.get_num_threads() == threads  # the caller's setting is left as it was
    finally:
        torch.set_num_threads(before)
    for other in weights[1:]:
        for a, b in zip(weights[0], other):
            assert torch.equal(a, b)


def test_a_place_prior_is_learned_kept_in_the_checkpoint_and_carried_by_the_model(tmp_path, positions):
    pytest.importorskip("onnxruntime")
    import torch

    from guandan.bots.network import NetAgent, load_session, place_prior
    from guandan.rl.distill import PLACES, DistillConfig, Distiller, _losses

    q = torch.tensor([0.2, -0.1, 0.5])
    owner, chosen = torch.tensor([0, 0, 0]), torch.tensor([0])
    zero = torch.zeros(3)
    plain = _losses(q, owner, zero, zero, chosen, 1, 0.5, 8.0)
    lifted = _losses(q, owner, zero, zero, chosen, 1, 0.5, 8.0, prior=torch.tensor([1.0, 0.0, 0.0]))
    ce = -math.log(math.exp(1.4) / (math.exp(1.4) + math.exp(-0.2) + math.exp(1.0)))
    assert float(lifted[1]) == pytest.approx(ce, rel=1e-5) and float(lifted[1]) < float(plain[1])
    assert plain[2].tolist() == [False] and lifted[2].tolist() == [True]  # agreement is judged on the logits

    config = DistillConfig(hidden=(16,), epochs=2, batch=8, seed=3, place_prior=True)
    run = Distiller(config, positions, str(tmp_path / "run"), device="cpu")
    run.run()
    temperature, bias = run.prior()
    assert temperature == config.temperature and bias.shape == (PLACES,) and np.abs(bias).max() > 0
    model = str(tmp_path / "run" / "model.onnx")
    carried = place_prior(load_session(model), model)
    assert carried is not None and carried[0] == temperature and np.allclose(carried[1], bias, atol=1e-6)
    assert NetAgent(model).place_prior is not None and NetAgent(model).value_scale == 3.0  # scores a third of levels
    resumed = Distiller(config, positions, str(tmp_path / "run"), device="cpu")
    assert resumed.epoch == 2 and torch.equal(resumed.place_bias, run.place_bias)
    plain_run = Distiller(DistillConfig(hidden=(16,), epochs=1, batch=8), positions, str(tmp_path / "plain"), "cpu")
    plain_run.run()
    assert plain_run.prior() is None and not plain_run.place_bias.detach().abs().max() > 0  # not trained
    plain_model = str(tmp_path / "plain" / "model.onnx")
    assert place_prior(load_session(plain_model), plain_model) is None
    with pytest.raises(GuandanError, match="is of another run"):  # the prior is part of the run's configuration
        Distiller(DistillConfig(hidden=(16,), epochs=2, batch=8, seed=3), positions, str(tmp_path / "run"), "cpu")


def test_a_network_reading_the_structure_trains_resumes_and_its_model_computes_it_from_the_rows(tmp_path, positions):
    pytest.importorskip("onnxruntime")
    import onnx
    import torch

    from guandan.bots.network import NetAgent, load_session
    from guandan.rl.distill import STRUCTURE_KEY, DistillConfig, Distiller, factored_q
    from guandan.rl.structure import STRUCTURE, STRUCTURE_SIZE, structure_torch

    config = DistillConfig(hidden=(16, 8), epochs=2, batch=8, seed=5, structure=True, place_prior=True)
    run = Distiller(config, positions, str(tmp_path / "run"), device="cpu")
    assert run.net.layers[0].in_features == 567 + STRUCTURE_SIZE
    initial = run.net.layers[0].weight[:, 567:].detach().clone()
    run.run()
    assert not torch.equal(run.net.layers[0].weight[:, 567:].detach(), initial)  # the structure's weights learned
    # the factored scores (training's) are the network's on the whole rows and their structure
    states, actions, owner, *_ = (torch.from_numpy(a) for a in positions.batch(positions.train[:4]))
    rows = torch.cat([states[owner], actions], dim=1)
    with torch.no_grad():
        whole = run.net(torch.cat([rows, structure_torch(rows)], dim=1)).reshape(-1)
        assert torch.allclose(factored_q(run.net, states, actions, owner), whole, atol=1e-5)
    # the model takes the plain rows and computes the structure itself; the agents play it
    model = str(tmp_path / "run" / "model.onnx")
    session = load_session(model)
    props = {p.key: p.value for p in onnx.load(model).metadata_props}
    assert json.loads(props[STRUCTURE_KEY]) == list(STRUCTURE)
    assert props["guandan.candidates"] == "32"  # it knows the search's candidates: agents score those
    deal = Deal.new(seed=8, level=9)
    agent = NetAgent(model)
    for _ in range(12):
        obs = deal.observation(deal.turn)
        rows = torch.from_numpy(encode_rows(obs))
        with torch.no_grad():
            expected = run.net(torch.cat([rows, structure_torch(rows)], dim=1)).numpy()
        got = session.run(None, {"rows": rows.numpy()})[0]
        assert np.allclose(got, expected, rtol=1e-5, atol=1e-5)
        deal.play(agent.act(obs))
    resumed = Distiller(config, positions, str(tmp_path / "run"), device="cpu")
    assert resumed.epoch == 2
    for a, b in zip(run.net.state_dict().values(), resumed.net.state_dict().values()):
        assert torch.equal(a, b)
    with pytest.raises(GuandanError, match="is of another run"):  # the structure is part of the run's configuration
        Distiller(DistillConfig(hidden=(16, 8), epochs=2, batch=8, seed=5, place_prior=True), positions,
                  str(tmp_path / "run"), "cpu")  # fmt: skip


def test_the_commands_make_positions_then_a_network_the_net_agent_plays(tmp_path, capsys):
    from guandan.bots.loop import play_out
    from guandan.bots.registry import make_agent

    make_positions(str(tmp_path / "pos"), 2, first=9, rollouts=20, chunk=1)
    out = str(tmp_path / "run")
    args = ["train", str(tmp_path / "pos"), "--out", out, "--hidden", "8", "--epochs", "2", "--batch", "16",
            "--device", "cpu"]  # fmt: skip
    assert main(args) == 0
    assert main(args) == 0  # done: the same command finds every epoch made
    said = capsys.readouterr().out
    assert said.count('"epoch": 2') == 1 and "held_agreement" in said
    agent = make_agent(f"net:model={out}/model.onnx")
    deal = Deal.new(seed=1)
    play_out(deal, [agent, make_agent("greedy"), agent, make_agent("greedy")])
    assert deal.is_over
    assert main(["train", str(tmp_path / "none"), "--out", out]) == 2
    assert "no positions at" in capsys.readouterr().err


def test_iterate_makes_every_round_goes_on_with_more_rounds_and_refuses_other_options(tmp_path, capsys):
    import onnx
    from onnx import numpy_helper

    from guandan.bots.registry import make_agent

    def weights(path):
        model = onnx.load(path)
        return {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}, {
            p.key: p.value for p in model.metadata_props
        }

    tiny = ["iterate", "--deals", "3", "--play-deals", "2", "--rollouts", "20", "--chunk", "1", "--hidden", "8",
            "--epochs", "1", "--device", "cpu"]  # fmt: skip
    whole, parts = str(tmp_path / "whole"), str(tmp_path / "parts")
    assert main([*tiny, "--out", whole, "--rounds", "2"]) == 0
    said = capsys.readouterr().out
    assert "positions-1: 2 deals of round 1's network against greedy" in said and "-> " in said
    assert sorted(os.listdir(whole)) == ["iterate.json", "model.onnx", "positions-0", "positions-1", "round-1",
                                         "round-2"]  # fmt: skip
    # round 2 learned from both rounds' positions: the second's are the play of round 1's network
    assert sorted(os.listdir(os.path.join(whole, "positions-1"))) == [chunk_name(100000), chunk_name(100001)]
    assert '"epoch": 1' in open(os.path.join(whole, "round-2", "log.jsonl")).read()
    final, last = weights(os.path.join(whole, "model.onnx")), weights(os.path.join(whole, "round-2", "model.onnx"))
    assert final[1] == last[1] and all(np.array_equal(final[0][k], last[0][k]) for k in last[0])
    # the same command again makes nothing
    assert main([*tiny, "--out", whole, "--rounds", "2"]) == 0
    assert "positions-0: 0 decisions made now" in (again := capsys.readouterr().out)
    assert "positions-1: 0 decisions made now" in again and '"epoch"' not in again
    # one round, then two in the same directory: the files of one run of two rounds
    assert main([*tiny, "--out", parts, "--rounds", "1"]) == 0
    assert not os.path.exists(os.path.join(parts, "round-2"))
    assert main([*tiny, "--out", parts, "--rounds", "2"]) == 0
    resumed = weights(os.path.join(parts, "model.onnx"))
    assert resumed[1] == final[1] and all(np.array_equal(resumed[0][k], final[0][k]) for k in final[0])
    assert make_agent(f"net:model={parts}/model.onnx").place_prior is not None  # the net agent plays it
    assert "guandan.structure" in final[1]  # the recipe's networks read the hand's structure
    capsys.readouterr()
    # other options in the same directory are refused, naming the directory
    assert main([*tiny[:-6], "--hidden", "16", "--epochs", "1", "--device", "cpu", "--out", whole]) == 2
    assert "holds an expert iteration of other options" in capsys.readouterr().err
    assert main([*tiny, "--no-structure", "--out", whole, "--rounds", "2"]) == 2
    assert "other options" in (err := capsys.readouterr().err) and "(--structure goes on with it)" in err


def test_an_iteration_from_before_the_structure_goes_on_with_no_structure(tmp_path, capsys):
    """A directory made before the option (its iterate.json and checkpoints without
    ``structure``) is one without the structure: ``--no-structure`` goes on in it, the default
    is refused and says so."""
    import torch

    from guandan.rl.distill import CHECKPOINT

    old = str(tmp_path / "old")
    tiny = ["iterate", "--deals", "2", "--rollouts", "20", "--chunk", "1", "--hidden", "8", "--epochs", "1",
            "--device", "cpu", "--out", old, "--no-structure"]  # fmt: skip
    assert main([*tiny, "--rounds", "1"]) == 0
    saved = os.path.join(old, "iterate.json")
    with open(saved) as f:
        options = json.load(f)
    with open(saved, "w") as f:  # as written before the option
        json.dump({k: v for k, v in options.items() if k != "structure"}, f)
    checkpoint = os.path.join(old, "round-1", CHECKPOINT)
    state = torch.load(checkpoint, weights_only=False)
    del state["config"]["structure"]
    torch.save(state, checkpoint)
    capsys.readouterr()
    assert main([*tiny[:-1], "--rounds", "1"]) == 2  # the default reads the structure: another recipe
    assert "(--no-structure goes on with it)" in capsys.readouterr().err
    assert main([*tiny, "--rounds", "1"]) == 0  # the same recipe: nothing to make, the old checkpoint accepted
    assert "positions-0: 0 decisions made now" in (said := capsys.readouterr().out) and '"epoch"' not in said
    assert main([*tiny, "--rounds", "2", "--play-deals", "1"]) == 2  # --play-deals differs: refused by name
    capsys.readouterr()
