"""``mc-net``: the network's value of each candidate as the search's prior, counted as rollouts
in successive halving's standings (or, ``halving=0``, blended into the search's result). With
no prior it is the search; with an overwhelming one it is the network's order of the search's
candidates; the network reads the same rows for a candidate as the
``onnx`` agent does for that legal action; bad options are refused by name."""

from __future__ import annotations

import numpy as np
import pytest

from guandan import Deal, Match
from guandan.bots.guided import GuidedSearchAgent, blend
from guandan.bots.network import OnnxAgent
from guandan.bots.registry import make_agent
from guandan.bots.search import MonteCarloAgent
from guandan.errors import GuandanError, ModelError
from guandan.game.history import Phase
from guandan.rl.qnet import QNetwork


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("net") / "tiny.onnx")
    QNetwork(hidden=(8,), seed=3).to_onnx(path)
    return path


def lead(seed=2):
    return Deal.new(seed=seed, level=2, leader=0).observation(0)


def test_blend_weighs_the_network_as_prior_rollouts():
    means, counts, q = np.array([1.0, -1.0, 0.5]), np.array([300.0, 10.0, 0.0]), np.array([-1.0, 1.0, 2.0])
    assert blend(means, counts, q, 0.0).tolist()[:2] == [1.0, -1.0]
    shift = (300 * (1 + 1) + 10 * (-1 - 1)) / 310  # the network's values brought to the means' level
    assert blend(means, counts, q, 100.0).tolist() == pytest.approx(
        [(300 + 100 * (-1 + shift)) / 400, (-10 + 100 * (1 + shift)) / 110, 2.0 + shift])
    assert blend(means, counts, q + 7.0, 100.0).tolist() == pytest.approx(blend(means, counts, q, 100.0).tolist())
    assert blend(means, np.zeros(3), q, 100.0).tolist() == q.tolist()  # no rollout: the network's own


def test_with_no_prior_it_is_the_search_and_with_an_overwhelming_one_the_networks_order(model):
    obs = lead()
    search = MonteCarloAgent(seed=4, rollouts=300).analyze(obs)
    alone = GuidedSearchAgent(model=model, prior=0, seed=4, rollouts=300).analyze(obs)
    assert [(c.action, c.value, c.rollouts) for c in alone.choices] == \
        [(c.action, c.value, c.rollouts) for c in search.choices]
    led = GuidedSearchAgent(model=model, prior=1e9, seed=4, rollouts=300)
    result = led.analyze(obs)
    assert set(c.action for c in result.choices) == set(c.action for c in search.choices)
    q = led.q_values(obs, [c.action for c in result.choices])
    assert np.all(np.diff(q) <= 1e-6)  # best first by the network
    values = np.array([c.value for c in result.choices])
    assert np.diff(values) == pytest.approx(np.diff(q), abs=1e-5)  # the network's, shifted
    assert result.rollouts == search.rollouts == 300


def test_in_halving_the_network_decides_which_candidates_the_search_keeps(model):
    """With ``halving`` (the default) the network's values are the search's prior: its
    standings (successive halving's, the final ranking) are the blend, the choices' values
    blended too; with ``halving=0`` the search runs alone and the blend ranks after it."""
    obs = lead(5)
    inside = GuidedSearchAgent(model=model, prior=25, seed=4, rollouts=300)
    after = GuidedSearchAgent(model=model, prior=25, halving=0, seed=4, rollouts=300)
    assert inside.halving and not after.halving
    ins, aft = inside.analyze(obs), after.analyze(obs)
    plain = MonteCarloAgent(seed=4, rollouts=300).analyze(obs)
    assert [(c.action, c.rollouts) for c in sorted(aft.choices, key=lambda c: str(c.action))] == \
        [(c.action, c.rollouts) for c in sorted(plain.choices, key=lambda c: str(c.action))]
    moves = [c.action for c in ins.choices]
    q = inside.q_values(obs, moves)
    assert [c.rollouts for c in ins.choices] != [c.rollouts for c in plain.choices] or \
        [c.action for c in ins.choices] != [c.action for c in plain.choices]  # the prior moved the search
    raw = MonteCarloAgent(seed=4, rollouts=300).analyze(obs, prior=inside.q_values, prior_rollouts=25)
    assert [c.action for c in raw.choices] == moves and ins.rollouts == raw.rollouts == 300
    means, counts = np.array([c.value for c in raw.choices]), np.array([c.rollouts for c in raw.choices], float)
    expected = blend(means, counts, q, 25)
    assert [c.value for c in ins.choices] == pytest.approx(expected.tolist(), abs=1e-6)
    assert make_agent(f"mc-net:model={model}:halving=0:rollouts=100").halving is False


def test_with_top_the_search_plays_out_only_the_networks_best_candidates(model):
    """``top=K``: the search weighs the K candidates the network values most (in the search's
    own order), the whole budget theirs; ``top=1`` is the network's choice, no rollout made."""
    obs = lead(5)
    every = [c.action for c in MonteCarloAgent(seed=4, rollouts=300).analyze(obs).choices]
    agent = GuidedSearchAgent(model=model, prior=0, top=3, seed=4, rollouts=300)
    q = agent.q_values(obs, every)
    best = {every[i] for i in np.argsort(-q, kind="stable")[:3]}
    result = agent.analyze(obs)
    assert {c.action for c in result.choices} == best and len(every) > 3
    assert result.rollouts == 300 and sum(c.rollouts for c in result.choices) == 300
    raw = MonteCarloAgent(seed=4, rollouts=300).analyze(obs, prior=agent.q_values, keep=3)
    assert [(c.action, c.value, c.rollouts) for c in raw.choices] == \
        [(c.action, c.value, c.rollouts) for c in result.choices]  # no prior counted: the means
    one = GuidedSearchAgent(model=model, prior=0, top=1, seed=4, rollouts=300).analyze(obs)
    assert [c.action for c in one.choices] == [every[int(np.argmax(q))]] and one.rollouts == 0
    wide = GuidedSearchAgent(model=model, prior=0, top=64, seed=4, rollouts=300).analyze(obs)
    plain = MonteCarloAgent(seed=4, rollouts=300).analyze(obs)
    assert wide.choices == plain.choices  # more than the candidates: all of them
    asked = []
    unasked = MonteCarloAgent(seed=4, rollouts=300).analyze(obs, prior=lambda o, m: asked.append(m) or [0.0] * len(m),
                                                            keep=64)  # fmt: skip
    assert not asked and unasked.choices == plain.choices  # nothing to keep out: the prior is not asked
    assert make_agent(f"mc-net:model={model}:top=2").top == 2


@pytest.mark.parametrize(
    ("prior", "keep", "message"),
    [
        (None, 2, "keep needs a prior"),
        (lambda obs, moves: [0.0] * (len(moves) - 1), 2, "one number for each of the"),
        (lambda obs, moves: ["x"] * len(moves), 2, "a number for each candidate"),
        (lambda obs, moves: [float("nan")] * len(moves), 2, "finite"),
        (lambda obs, moves: [0.0] * len(moves), 0, "keep"),
    ],
)
def test_a_bad_keep_or_prior_is_refused_by_name(prior, keep, message):
    agent = MonteCarloAgent(seed=1, rollouts=50)
    with pytest.raises(GuandanError, match=message):
        agent.analyze(lead(5), prior=prior, keep=keep)


def test_a_candidates_row_is_the_onnx_agents_row_of_that_legal_action(model):
    obs = lead(5)
    agent = GuidedSearchAgent(model=model, seed=1, rollouts=200)
    moves = [c.action for c in agent.search.analyze(obs).choices]
    every = OnnxAgent(model).q_values(obs)
    index = {m: i for i, m in enumerate(obs.legal_actions)}
    assert agent.q_values(obs, moves) == pytest.approx(every[[index[m] for m in moves]], abs=1e-6)
    other = next(m for m in lead(9).legal_actions if m not in index)  # legal in another deal only
    with pytest.raises(GuandanError, match="is not a legal action"):
        agent.q_values(obs, [moves[0], other])


def test_the_networks_scores_are_put_in_levels_by_the_models_value_scale(model, tmp_path):
    onnx = pytest.importorskip("onnx", reason="writing a model's metadata (the rl extra)")
    scaled = str(tmp_path / "scaled.onnx")
    proto = onnx.load(model)
    onnx.helper.set_model_props(proto, {"guandan.value_scale": "3.0"})
    onnx.save(proto, scaled)
    obs = lead(5)
    moves = [c.action for c in MonteCarloAgent(seed=1, rollouts=100).analyze(obs).choices]
    plain = GuidedSearchAgent(model=model, seed=1, rollouts=100).q_values(obs, moves)
    levels = GuidedSearchAgent(model=scaled, seed=1, rollouts=100).q_values(obs, moves)
    assert levels == pytest.approx(3 * plain, abs=1e-6)


def test_the_same_seed_gives_the_same_choices_and_the_spec_makes_it(model):
    obs = lead(7)
    one = make_agent(f"mc-net:model={model}:prior=50:rollouts=200", seed=3)
    two = make_agent(f"mc-net:model={model}:prior=50:rollouts=200", seed=3)
    assert isinstance(one, GuidedSearchAgent) and one.prior == 50 and one.search.config.rollouts == 200
    assert one.act(obs) == two.act(obs)


def test_without_a_model_it_is_the_network_the_search_taught():
    from guandan.bots.network import SEARCH_MODEL, SHIPPED_MODEL

    agent = make_agent("mc-net:rollouts=100", seed=1)
    assert isinstance(agent, GuidedSearchAgent) and agent.network.model == SEARCH_MODEL != SHIPPED_MODEL
    assert agent.prior == 25.0  # the default: level with mc where 100 lost to it
    default = make_agent("mc-net")
    assert agent.halving and default.search.config.rollouts == 200  # a tenth of mc's budget in play
    assert default.card_search.config.rollouts == 2000  # the tribute and return: mc's own
    assert make_agent("mc-net:max_cost=500").search.config.rollouts is None  # a budget given: mc's rules
    assert agent.network.value_scale == 3.0  # the shipped network scores a third of the levels


def test_the_tribute_is_the_searchs(model):
    match = Match(seed=3, levels=(5, 9), previous=(1, 0, 3, 2), hands=[["S3 HR", "D4 HR", "S8 SA DA C7 D7 S2", "C5"]])
    obs = match.observation(match.turn)
    assert obs.phase == Phase.TRIBUTE
    guided = GuidedSearchAgent(model=model, prior=1e9, seed=1, rollouts=100).analyze(obs)
    search = MonteCarloAgent(seed=1, rollouts=100).analyze(obs)
    assert (guided.choices, guided.rollouts) == (search.choices, search.rollouts)
    default = GuidedSearchAgent(model=model, seed=1).analyze(obs)  # 200 rollouts in play only
    assert default.choices == MonteCarloAgent(seed=1).analyze(obs).choices


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (dict(prior=-1), "prior is a number of rollouts >= 0"),
        (dict(prior="much"), "prior is a number of rollouts >= 0"),
        (dict(prior=True), "prior is a number of rollouts >= 0"),
        (dict(roll_outs=5), "mc-net has no option 'roll_outs'"),
        (dict(halving=2), "halving is 1 or 0"),
        (dict(halving="yes"), "halving is 1 or 0"),
        (dict(top=0), "top is a number of candidates >= 1"),
        (dict(top=2.5), "top is a number of candidates >= 1"),
        (dict(top=2, halving=0), "top needs halving"),
    ],
)
def test_bad_options_are_refused_by_name(model, options, message):
    with pytest.raises(GuandanError, match=message):
        GuidedSearchAgent(model=model, **options)


def test_a_missing_model_is_refused(tmp_path):
    with pytest.raises(ModelError, match="no model file"):
        GuidedSearchAgent(model=str(tmp_path / "none.onnx"))
