"""The onnx agent: a tiny ONNX Q-network built here with the onnx package's helper API; its
choices are checked against a numpy evaluation of the same weights; bad models are named."""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("onnxruntime", reason="the onnx agent's runtime (the onnx extra)")
onnx = pytest.importorskip("onnx", reason="building test models (the rl extra)")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from guandan import Deal, GuandanError, Match, ModelError, Phase  # noqa: E402
from guandan.bots.loop import play_out  # noqa: E402
from guandan.bots.network import OnnxAgent  # noqa: E402
from guandan.bots.registry import make_agent  # noqa: E402
from guandan.bots.simulate import simulate  # noqa: E402
from guandan.core.cards import card_rank  # noqa: E402
from guandan.core.order import elevated_order  # noqa: E402
from guandan.game.encoding import encode_rows  # noqa: E402


def _weights(seed: int, hidden: int = 16):
    rng = np.random.default_rng(seed)
    w1 = rng.standard_normal((567, hidden)).astype(np.float32) * 0.1
    b1 = rng.standard_normal(hidden).astype(np.float32) * 0.1
    w2 = rng.standard_normal((hidden, 1)).astype(np.float32)
    b2 = np.zeros(1, dtype=np.float32)
    return w1, b1, w2, b2


def _model(path, weights, rows=567, batch="n", outputs=1, inputs=1):
    w1, b1, w2, b2 = weights
    ins = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [batch, rows])]
    ins += [helper.make_tensor_value_info(f"extra{k}", TensorProto.FLOAT, [batch, rows]) for k in range(inputs - 1)]
    nodes = [
        helper.make_node("MatMul", ["x", "w1"], ["h"]),
        helper.make_node("Add", ["h", "b1"], ["hb"]),
        helper.make_node("Relu", ["hb"], ["r"]),
        helper.make_node("MatMul", ["r", "w2"], ["o"]),
        helper.make_node("Add", ["o", "b2"], ["q"]),
    ]
    inits = [numpy_helper.from_array(a, n) for a, n in zip(weights, ("w1", "b1", "w2", "b2"))]
    out = helper.make_tensor_value_info("q", TensorProto.FLOAT, [batch, outputs])
    graph = helper.make_graph(nodes, "tiny", ins, [out], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.save(model, str(path))
    return str(path)


def _numpy_q(weights, rows):
    w1, b1, w2, b2 = weights
    return (np.maximum(rows @ w1 + b1, 0) @ w2 + b2)[:, 0]


@pytest.mark.slow
def test_the_agent_plays_the_best_action_of_a_numpy_evaluation_of_the_same_weights(tmp_path):
    weights = _weights(1)
    agent = OnnxAgent(_model(tmp_path / "tiny.onnx", weights))
    deal = Deal.new(seed=3, level=5)
    decisions = 0
    while not deal.is_over:
        obs = deal.observation(deal.turn)
        rows = encode_rows(obs)
        q = _numpy_q(weights, rows)
        assert np.allclose(agent.q_values(obs), q, rtol=1e-4, atol=1e-4)
        i = agent.choose(obs)
        assert q[i] >= q.max() - 1e-4  # the best (float rounding between runtimes aside)
        assert agent.act(obs) == obs.legal_actions[i]
        deal.play_index(i)
        decisions += 1
    assert decisions > 10


def test_tribute_and_return_follow_the_published_agents_fixed_rule(tmp_path):
    agent = OnnxAgent(_model(tmp_path / "tiny.onnx", _weights(2)))
    match = Match(seed=4, levels=(5, 5), level_side=0, previous=(0, 2))  # a double-down: two payers
    seen = {Phase.TRIBUTE: 0, Phase.RETURN: 0}
    while match.phase in (Phase.TRIBUTE, Phase.RETURN):
        obs = match.observation(match.turn)
        action = agent.act(obs)
        if obs.phase == Phase.TRIBUTE:
            assert action == obs.legal_actions[0]
        else:
            assert action == min(obs.legal_actions, key=lambda c: (elevated_order(card_rank(c), obs.level), c))
        seen[obs.phase] += 1
        match.act(action, obs.seat)
    assert seen[Phase.TRIBUTE] >= 1 and seen[Phase.RETURN] >= 1


def test_the_spec_makes_the_agent_and_it_plays_deals_and_matches_anywhere_a_spec_is(tmp_path):
    path = _model(tmp_path / "tiny.onnx", _weights(3))
    agent = make_agent(f"onnx:model={path}")
    assert isinstance(agent, OnnxAgent) and agent.model == path
    run = simulate(4, [f"onnx:model={path}", "greedy"], seed=1, kind="deal", workers=1)
    assert len(run.rows) == 4
    match = Match(seed=2)
    play_out(match, [agent, make_agent("random"), agent, make_agent("random")], max_actions=300)
    assert match.history


def test_a_model_of_the_wrong_shape_is_refused_naming_what_is_wrong(tmp_path):
    w = _weights(4)
    bad_rows = (np.zeros((513, 16), np.float32), *w[1:])
    with pytest.raises(ModelError, match=r"input 'x' of shape \(n, 513\).*\(n, 567\)"):
        OnnxAgent(_model(tmp_path / "a.onnx", bad_rows, rows=513))
    with pytest.raises(ModelError, match="fixed batch of 8 rows"):
        OnnxAgent(_model(tmp_path / "b.onnx", w, batch=8))
    with pytest.raises(ModelError, match="2 inputs"):
        OnnxAgent(_model(tmp_path / "c.onnx", w, inputs=2))
    with pytest.raises(ModelError, match=r"output of shape \(n, 3\)"):
        OnnxAgent(_model(tmp_path / "d.onnx", (w[0], w[1], np.zeros((16, 3), np.float32), np.zeros(3, np.float32)),
                         outputs=3))  # fmt: skip
    with pytest.raises(ModelError, match="no model file"):
        OnnxAgent(str(tmp_path / "missing.onnx"))
    (tmp_path / "junk.onnx").write_bytes(b"not a model")
    with pytest.raises(ModelError, match="not a model onnxruntime can load"):
        OnnxAgent(str(tmp_path / "junk.onnx"))
    with pytest.raises(ModelError, match="no model file"):
        make_agent(f"onnx:model={tmp_path / 'missing.onnx'}")


def test_the_agent_pickles_and_copies_without_its_session(tmp_path):
    import copy
    import pickle

    agent = OnnxAgent(_model(tmp_path / "tiny.onnx", _weights(5)))
    deal = Deal.new(seed=6)
    obs = deal.observation(deal.turn)
    for other in (pickle.loads(pickle.dumps(agent)), copy.deepcopy(agent)):
        assert np.array_equal(other.q_values(obs), agent.q_values(obs))


def _published_form(path, weights, input_name="input", out_dims=("n",), extra_outputs=0):
    """The tiny network as the published files give theirs: its own input name and a flat
    ``(n,)`` output (a Reshape after the last layer); ``out_dims`` the declared output shape."""
    w1, b1, w2, b2 = weights
    nodes = [
        helper.make_node("MatMul", [input_name, "w1"], ["h"]),
        helper.make_node("Add", ["h", "b1"], ["hb"]),
        helper.make_node("Relu", ["hb"], ["r"]),
        helper.make_node("MatMul", ["r", "w2"], ["o"]),
        helper.make_node("Add", ["o", "b2"], ["q2"]),
        helper.make_node("Reshape", ["q2", "flat"], ["q"]),
    ]
    inits = [numpy_helper.from_array(a, n) for a, n in zip(weights, ("w1", "b1", "w2", "b2"))]
    inits.append(numpy_helper.from_array(np.array([-1] + [1] * (len(out_dims) - 1), np.int64), "flat"))
    outs = [helper.make_tensor_value_info("q", TensorProto.FLOAT, list(out_dims))]
    for k in range(extra_outputs):
        nodes.append(helper.make_node("Identity", ["q"], [f"q{k}"]))
        outs.append(helper.make_tensor_value_info(f"q{k}", TensorProto.FLOAT, list(out_dims)))
    ins = [helper.make_tensor_value_info(input_name, TensorProto.FLOAT, ["batch", 567])]
    graph = helper.make_graph(nodes, "published", ins, outs, inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.save(model, str(path))
    return str(path)


@pytest.mark.slow
def test_a_network_with_a_flat_output_and_its_own_input_name_plays_as_published(tmp_path):
    weights = _weights(7)
    flat = OnnxAgent(_published_form(tmp_path / "flat.onnx", weights, input_name="obs_and_action"))
    column = OnnxAgent(_model(tmp_path / "column.onnx", weights))
    undeclared = OnnxAgent(_published_form(tmp_path / "undeclared.onnx", weights, out_dims=(None,)))
    deal = Deal.new(seed=9, level=3)
    while not deal.is_over:
        obs = deal.observation(deal.turn)
        q = _numpy_q(weights, encode_rows(obs))
        for agent in (flat, undeclared):
            assert agent.q_values(obs).shape == q.shape
            assert np.allclose(agent.q_values(obs), column.q_values(obs), rtol=1e-5, atol=1e-5)
        assert flat.act(obs) == column.act(obs)
        deal.play(column.act(obs))


def test_other_outputs_are_refused_naming_their_shape(tmp_path):
    w = _weights(8)
    with pytest.raises(ModelError, match=r"output of shape \(n, 1\), \(n, 1\); a Q-network gives one output"):
        OnnxAgent(_published_form(tmp_path / "two.onnx", w, out_dims=("n", 1), extra_outputs=1))
    with pytest.raises(ModelError, match=r"output of shape \(n, 1, 1\)"):
        OnnxAgent(_published_form(tmp_path / "rank3.onnx", w, out_dims=("n", 1, 1)))
    with pytest.raises(ModelError, match=r"output of shape \(4,\); a Q-network gives one output, \(n, 1\) or \(n,\)"):
        OnnxAgent(_published_form(tmp_path / "fixed.onnx", w, out_dims=(4,)))


def test_a_network_over_the_legal_rows_plays_the_gym_env_and_the_onnx_agent_alike(tmp_path):
    pytest.importorskip("gymnasium", reason="the rl extra")
    pytest.importorskip("pettingzoo", reason="the rl extra")
    from guandan import GuandanError
    from guandan.bots.network import load_session
    from guandan.rl.gym import GuandanGymEnv
    from guandan.rl.qnet import QNetwork

    path = str(tmp_path / "net.onnx")
    QNetwork(hidden=(16,), seed=2).to_onnx(path)
    session, agent = load_session(path), OnnxAgent(path)
    name = session.get_inputs()[0].name
    e = GuandanGymEnv(seat=1, opponents="random", legal_rows=True)
    obs, info = e.reset(seed=5)
    decisions = 0
    while True:
        rows, index = info["legal_rows"], info["legal_index"]
        q = session.run(None, {name: rows})[0].reshape(-1)
        observation = e.inner.state.observation(1)
        q_agent = agent.q_values(observation)  # the agent scores every card-level move
        assert np.isin(q, q_agent).all() and q.max() <= q_agent.max()
        obs, reward, terminated, truncated, info = e.step(index[int(np.argmax(q))])
        decisions += 1
        if terminated or truncated:
            assert "legal_rows" not in info
            break
    assert decisions > 5
    with pytest.raises(GuandanError, match="legal_rows is a bool"):
        GuandanGymEnv(legal_rows=1)


SHIPPED = Path(__file__).resolve().parents[2] / "benchmarks" / "models" / "dmc-2h.onnx"


@pytest.mark.slow
def test_the_shipped_two_hour_model_plays_legal_seeded_deals_and_beats_random():
    """The trained model of the repository (``benchmarks/models/dmc-2h.onnx``): a (n, 567) ->
    (n, 1) network the agent takes, playing whole seeded deals legally; it won 99% of 600 deals
    against ``random`` when measured, so losing more than half of 20 is a broken model."""
    run = simulate(10, [f"onnx:model={SHIPPED}", "random"], seed=5, kind="deal", workers=1)
    swapped = simulate(10, ["random", f"onnx:model={SHIPPED}"], seed=5, kind="deal", workers=1)
    won = sum(r["winner_side"] == 0 for r in run.rows) + sum(r["winner_side"] == 1 for r in swapped.rows)
    assert won > 10


def test_with_candidates_the_agent_plays_the_best_scored_of_the_searchs_candidates(tmp_path):
    from guandan.bots.determinize import information_set
    from guandan.bots.network import search_candidates
    from guandan.bots.playout import public_state
    from guandan.core import search as native_search
    from guandan.core.movegen import pack_rank_move

    weights = _weights(8)
    path = _model(tmp_path / "tiny.onnx", weights)
    agent = OnnxAgent(path, candidates=12)
    deal = Deal.new(seed=9, level=5)
    played = 0
    while not deal.is_over and played < 60:
        obs = deal.observation(deal.turn)
        move = agent.act(obs)
        if obs.phase == Phase.PLAY:
            moves = search_candidates(obs, 12)
            state = public_state(int(obs.level), obs.seat, obs.to_beat, obs.history, obs.finish_order)
            words = native_search.search_candidates(information_set(obs), state, 12)  # as mc lists them
            assert [pack_rank_move(m.to_rank()) for m in moves] == [int(w) for w in words]
            legal = list(obs.legal_actions)
            rows = encode_rows(obs)[[legal.index(m) for m in moves]]  # each candidate's row, as encode_rows makes it
            assert move == moves[int(np.argmax(_numpy_q(weights, rows)))]
            assert move in deal.legal_moves()
        deal.play(move)
        played += 1
    assert played == 60
    with pytest.raises(GuandanError, match="candidates is an int 0..64"):
        OnnxAgent(path, candidates=-1)


def test_net_plays_the_shipped_network_and_net_model_another_file(tmp_path):
    import copy

    from guandan.bots.network import SEARCH_MODEL, SHIPPED_MODEL, NetAgent

    agent = make_agent("net")
    assert isinstance(agent, NetAgent) and agent.model == SHIPPED_MODEL and agent.candidates == 32
    assert Path(SHIPPED_MODEL).is_file() and Path(SHIPPED_MODEL).stat().st_size < 5_000_000
    assert Path(SEARCH_MODEL).is_file() and Path(SEARCH_MODEL).read_bytes() != Path(SHIPPED_MODEL).read_bytes()
    other = make_agent(f"net:model={_model(tmp_path / 'tiny.onnx', _weights(2))}")
    assert isinstance(other, NetAgent) and other.model != SHIPPED_MODEL
    assert isinstance(copy.deepcopy(other), NetAgent) and copy.deepcopy(other).model == other.model
    deal = Deal.new(seed=11)
    play_out(deal, [agent, other, agent, other])
    assert deal.is_over
    with pytest.raises(ModelError, match="no model file"):
        make_agent(f"net:model={tmp_path / 'missing.onnx'}")


def _with_prior(path, temperature, bias):
    model = onnx.load(path)
    helper.set_model_props(model, {"guandan.temperature": str(temperature), "guandan.place_bias": bias})
    onnx.save(model, path)
    return path


def test_a_place_prior_in_the_model_is_added_to_the_scores_of_the_candidates(tmp_path):
    from guandan.bots.network import NetAgent, search_candidates

    weights = _weights(5)
    plain = NetAgent(_model(tmp_path / "plain.onnx", weights))
    first = NetAgent(_with_prior(_model(tmp_path / "first.onnx", weights), 0.5, "[1000.0, 0.0]"))
    third = NetAgent(_with_prior(_model(tmp_path / "third.onnx", weights), 2.0, "[-1000, -1000, 1000]"))
    assert plain.place_prior is None and first.place_prior[0] == 0.5 and list(third.place_prior[1]) == [-1e3, -1e3, 1e3]
    deal, differ, seen = Deal.new(seed=21, level=7), 0, 0
    while not deal.is_over and seen < 40:
        obs = deal.observation(deal.turn)
        if obs.phase == Phase.PLAY:
            moves = search_candidates(obs, 32)
            legal = list(obs.legal_actions)
            q = _numpy_q(weights, encode_rows(obs)[[legal.index(m) for m in moves]])
            assert first.act(obs) == moves[0]  # the huge bias of place 0 decides
            if len(moves) > 2:  # places past the list take its last bias: the best-scored from place 2 on
                assert third.act(obs) == moves[2 + int(np.argmax(q[2:]))]
            assert plain.act(obs) == moves[int(np.argmax(q))]
            differ += plain.act(obs) != moves[0]
            seen += 1
        deal.play(plain.act(obs))
    assert seen >= 10 and differ > 0  # the prior changed some choices


@pytest.mark.parametrize(
    "temperature, bias, said",
    [("0", "[0.0]", "got '0' and '\\[0.0\\]'"), ("1", "[]", "got '1' and '\\[\\]'"), ("1", "[NaN]", "'\\[NaN\\]'"),
     ("x", "[1]", "got 'x'"), ("1", "{\"a\": 1}", "a JSON list of finite numbers")],
)  # fmt: skip
def test_a_malformed_place_prior_is_refused_naming_the_model(tmp_path, temperature, bias, said):
    from guandan.bots.network import NetAgent

    path = _with_prior(_model(tmp_path / "bad.onnx", _weights(1)), temperature, bias)
    with pytest.raises(ModelError, match=f"model 'bad.onnx' has a malformed place prior.*{said}"):
        NetAgent(path)


@pytest.mark.parametrize(
    "scale, said", [("0", "'0'"), ("-3", "'-3'"), ("x", "'x'"), ("NaN", "'NaN'"), ("[3]", "'\\[3\\]'")]
)
def test_a_malformed_value_scale_is_refused_naming_the_model(tmp_path, scale, said):
    from guandan.bots.network import NetAgent, value_scale

    path = _model(tmp_path / "bad.onnx", _weights(1))
    assert NetAgent(path).value_scale == 1.0  # none in the file: the scores are levels
    model = onnx.load(path)
    helper.set_model_props(model, {"guandan.value_scale": scale})
    onnx.save(model, path)
    said = f"model 'bad.onnx' has a malformed guandan.value_scale: a number > 0, got {said}"
    with pytest.raises(ModelError, match=said):
        NetAgent(path)
    model = onnx.load(path)
    helper.set_model_props(model, {"guandan.value_scale": "2.5"})
    onnx.save(model, path)
    assert NetAgent(path).value_scale == 2.5 and value_scale(onnx_session(path)) == 2.5


def onnx_session(path):
    from guandan.bots.network import load_session

    return load_session(path)


def _with_candidates(path, value):
    model = onnx.load(path)
    helper.set_model_props(model, {"guandan.candidates": value})
    onnx.save(model, path)
    return path


def test_a_model_says_how_many_of_the_searchs_candidates_it_was_trained_among(tmp_path):
    """``guandan.candidates`` in the file sets the agents' default; an option given wins;
    without it ``onnx`` scores every legal action and ``net`` the search's 32."""
    from guandan.bots.network import SEARCH_MODEL, SHIPPED_MODEL, NetAgent, model_candidates

    plain = _model(tmp_path / "plain.onnx", _weights(3))
    assert (OnnxAgent(plain).candidates, NetAgent(plain).candidates) == (0, 32)
    twelve = _with_candidates(_model(tmp_path / "twelve.onnx", _weights(3)), "12")
    assert model_candidates(onnx_session(twelve)) == 12
    assert (OnnxAgent(twelve).candidates, NetAgent(twelve).candidates) == (12, 12)
    assert OnnxAgent(twelve, candidates=0).candidates == 0
    assert make_agent(f"onnx:model={twelve}:candidates=5").candidates == 5
    assert make_agent(f"onnx:model={twelve}").candidates == 12
    copied = pickle.loads(pickle.dumps(OnnxAgent(twelve, candidates=0)))
    assert copied.candidates == 0  # the choice travels, not the model's default
    older = OnnxAgent.__new__(OnnxAgent)
    older.__setstate__({"model": twelve, "threads": 1})  # a state pickled before the option
    assert older.candidates == 12
    for shipped in (SHIPPED_MODEL, SEARCH_MODEL):  # both chose among the search's 32 when they learned
        assert OnnxAgent(shipped).candidates == 32


@pytest.mark.parametrize("value", ["0", "65", "12.5", "\"12\"", "x", "[12]", "true"])
def test_a_malformed_candidates_count_is_refused_naming_the_model(tmp_path, value):
    path = _with_candidates(_model(tmp_path / "bad.onnx", _weights(1)), value)
    with pytest.raises(ModelError, match="model 'bad.onnx' has a malformed guandan.candidates: an int 1..64"):
        OnnxAgent(path)
