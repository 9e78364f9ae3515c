"""The hand's structure read off the rows (guandan.rl.structure): the numpy, torch and ONNX
forms against the plain-Python twin on the rows of real decisions, and hand-made rows whose
structure is counted here by hand."""

from __future__ import annotations

import numpy as np
import pytest

from guandan import Deal, GuandanError
from guandan.bots.registry import make_agent
from guandan.game.encoding import ROW_SIZE, encode_rows
from guandan.rl.structure import STRUCTURE, STRUCTURE_SIZE, reference_structure, structure_numpy


def _rows(deals: int = 3) -> np.ndarray:
    """The rows of every decision of some greedy deals, all levels' wilds among them."""
    out = []
    for seed in range(deals):
        deal = Deal.new(seed=seed, level=2 + 3 * seed)
        agent = make_agent("greedy", seed=seed)
        while not deal.is_over:
            obs = deal.observation(deal.turn)
            out.append(encode_rows(obs))
            deal.play(agent.act(obs))
    return np.concatenate(out)


@pytest.fixture(scope="module")
def rows() -> np.ndarray:
    return _rows()


def test_the_matrix_form_is_the_rank_by_rank_count_on_every_row_of_real_deals(rows):
    expected = np.array([reference_structure(r) for r in rows], dtype=np.float32)
    assert expected.shape == (len(rows), STRUCTURE_SIZE)
    assert np.allclose(structure_numpy(rows), expected, atol=1e-6)
    # the features vary over real decisions (none is a constant the test would pass on)
    moving = [name for name, column in zip(STRUCTURE, expected.T) if column.min() < column.max()]
    assert len(moving) >= STRUCTURE_SIZE - 3, sorted(set(STRUCTURE) - set(moving))


def _row(hand: dict[int, int], action: dict[int, int], level: int = 2) -> np.ndarray:
    """A row of a hand and a move given as {card-vector index: count}, at a deal level."""
    row = np.zeros(ROW_SIZE, dtype=np.float32)
    for i, n in hand.items():
        row[i] = n
    for i, n in action.items():
        row[513 + i] = n
    row[500 + level - 2] = 1.0
    return row


def test_hand_made_rows_count_splits_bombs_runs_jokers_and_wilds():
    spade = 13  # card-vector index of the spade 2; hearts are 0..12
    # hand: four 5s (a bomb), a pair of 7s, 8 9 10 J (with the 7: a straight), both jokers twice
    hand = {3: 2, spade + 3: 2, 5: 1, spade + 5: 1, 6: 1, 7: 1, 8: 1, 9: 1, 52: 2, 53: 2}
    one_five = reference_structure(_row(hand, {3: 1}))  # a single 5 out of the bomb
    f = dict(zip(STRUCTURE, one_five))
    assert f["broken"] == 0.25 and f["splits"] == 0.0 and f["size"] == 0.1 and f["pass"] == 0.0
    assert f["rest_ranks4"] == 0.0 and f["rest_ranks3"] == 1 / 13
    assert f["rest_joker_bomb"] == 1.0 and f["rest_small_jokers"] == 1.0
    assert f["rest_straights"] == 1 / 10  # 7-8-9-10-J, the one window of five ranks held
    seven = dict(zip(STRUCTURE, reference_structure(_row(hand, {5: 1}))))  # a single 7 of the pair
    assert seven["splits"] == 0.25 and seven["broken"] == 0.0
    passing = dict(zip(STRUCTURE, reference_structure(_row(hand, {}))))
    assert passing["pass"] == 1.0 and passing["left"] == sum(hand.values()) / 27
    assert passing["hand_ranks4"] == 1 / 13 and passing["rest_ranks4"] == 1 / 13
    # at level 5 the heart 5s are wild: the bomb's hearts are the wilds kept or spent
    wild = dict(zip(STRUCTURE, reference_structure(_row(hand, {3: 1}, level=5))))
    assert wild["spends_wild"] == 0.5 and wild["rest_wilds"] == 0.5 and wild["rest_level_cards"] == 3 / 8
    for row in (_row(hand, {3: 1}), _row(hand, {5: 1}), _row(hand, {}), _row(hand, {3: 1}, level=5)):
        assert np.allclose(structure_numpy(row[None]), [reference_structure(row)], atol=1e-6)


def test_the_onnx_nodes_compute_the_features_onnxruntime_gives_back(rows):
    onnx = pytest.importorskip("onnx")
    ort = pytest.importorskip("onnxruntime")
    from onnx import TensorProto, helper

    from guandan.rl.structure import structure_onnx_nodes

    nodes, inits = structure_onnx_nodes("rows", "out")
    graph = helper.make_graph(
        nodes,
        "s",
        [helper.make_tensor_value_info("rows", TensorProto.FLOAT, ["n", ROW_SIZE])],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT, ["n", STRUCTURE_SIZE])],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    assert np.allclose(session.run(None, {"rows": rows})[0], structure_numpy(rows), atol=1e-6)


@pytest.mark.slow  # importing torch alone takes seconds; run by the train extra's step of CI
def test_the_torch_form_computes_the_same_features_and_lets_gradients_through(rows):
    torch = pytest.importorskip("torch")
    from guandan.rl.structure import structure_torch

    x = torch.from_numpy(rows).requires_grad_(True)
    got = structure_torch(x)
    assert np.allclose(got.detach().numpy(), structure_numpy(rows), atol=1e-6)
    assert got.dtype == x.dtype and got.shape == (len(rows), STRUCTURE_SIZE)
    got.sum().backward()  # nothing learned in it, but a network's loss goes through it
    assert x.grad is not None and x.grad.shape == x.shape


def test_rows_of_another_shape_are_refused_by_name():
    with pytest.raises(GuandanError, match=r"rows are an array \(n, 567\)"):
        structure_numpy(np.zeros((2, 513), np.float32))
    with pytest.raises(GuandanError, match="a row has 567 values"):
        reference_structure([0.0] * 54)
