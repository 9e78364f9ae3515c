"""The hand's structure after a move, read off a 567-value row: features a network over the
rows gets beside them (``guandan expert train --structure``).

A row holds the seat's hand and the move's cards as two card vectors (:mod:`guandan.game.encoding`).
What a move does to a hand's structure — how many ranks it leaves single, paired, tripled or
as bombs, whether it splits a pair or breaks a bomb, which straights, pair runs and triple runs
the rest still holds, the jokers, level cards and wilds it keeps — is a few counts over the
ranks, which the smart policy and the rollout policy read and an MLP over the raw 567 values
must learn from its data. Here they are computed from the row itself:

* :data:`STRUCTURE` names the :data:`STRUCTURE_SIZE` features, each scaled to about 0..1;
* :func:`structure_torch` computes them on torch tensors ``(n, 567) -> (n, STRUCTURE_SIZE)``
  (trained through, nothing learned in it);
* :func:`structure_onnx_nodes` writes the same computation as ONNX nodes, so that a network
  using them still takes the plain rows ``(n, 567)`` and plays through the ``onnx:`` and
  ``net`` agents unchanged;
* :func:`reference_structure` is the same in plain Python, rank by rank, the one both are
  checked against.

Both the torch and the ONNX form run one program (:func:`_program`) over a small set of
operations (a product by a constant matrix, a sum, a difference, a product, a clip), so they
cannot drift apart.

>>> import numpy as np
>>> from guandan.game.deal import Deal
>>> from guandan.game.encoding import encode_rows
>>> deal = Deal.new(seed=7, level=2); rows = encode_rows(deal.observation(deal.turn))
>>> f = reference_structure(rows[0]); len(f) == STRUCTURE_SIZE, f[STRUCTURE.index("left")] < 1
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..errors import GuandanError, describe
from ..game.encoding import ROW_SIZE, STATE_SIZE

__all__ = ["STRUCTURE", "STRUCTURE_SIZE", "reference_structure", "structure_torch", "structure_onnx_nodes",
           "structure_numpy"]  # fmt: skip

#: The features, in order (each scaled as its name's entry in :func:`reference_structure` says).
STRUCTURE: tuple[str, ...] = (
    "pass", "size", "left",
    "rest_ranks1", "rest_ranks2", "rest_ranks3", "rest_ranks4", "rest_ranks5", "rest_ranks6",
    "hand_ranks1", "hand_ranks2", "hand_ranks3", "hand_ranks4",
    "splits", "broken",
    "rest_straights", "hand_straights", "rest_pair_runs", "rest_triple_runs",
    "rest_small_jokers", "rest_big_jokers", "rest_joker_bomb",
    "rest_level_cards", "rest_wilds", "spends_wild",
)  # fmt: skip
STRUCTURE_SIZE = len(STRUCTURE)

_HAND, _ACTION, _LEVEL = 0, STATE_SIZE, 500  # where the hand, the move and the deal's level start in a row
# the windows of consecutive ranks (0 .. 12: 2 .. A; the ace also below the 2) of the sequences
_STRAIGHTS = [[12, 0, 1, 2, 3]] + [list(range(s, s + 5)) for s in range(9)]
_PAIR_RUNS = [[12, 0, 1]] + [list(range(s, s + 3)) for s in range(11)]
_TRIPLE_RUNS = [[12, 0]] + [list(range(s, s + 2)) for s in range(12)]


def _select(start: int, size: int) -> np.ndarray:
    """The ``(567, size)`` matrix picking ``row[start:start + size]``."""
    m = np.zeros((ROW_SIZE, size), dtype=np.float32)
    m[np.arange(start, start + size), np.arange(size)] = 1.0
    return m


def _ranks(start: int) -> np.ndarray:
    """The ``(567, 15)`` matrix summing a card vector at ``start`` into 13 ranks and two jokers."""
    m = np.zeros((ROW_SIZE, 15), dtype=np.float32)
    for suit in range(4):
        for rank in range(13):
            m[start + suit * 13 + rank, rank] = 1.0
    m[start + 52, 13] = m[start + 53, 14] = 1.0
    return m


def _windows(windows: list[list[int]]) -> np.ndarray:
    m = np.zeros((13, len(windows)), dtype=np.float32)
    for j, w in enumerate(windows):
        m[w, j] = 1.0
    return m


def _columns(size: int, picks: list[int]) -> np.ndarray:
    m = np.zeros((size, len(picks)), dtype=np.float32)
    m[picks, np.arange(len(picks))] = 1.0
    return m


_CONSTANTS: dict[str, np.ndarray] = {
    "hand": _ranks(_HAND),
    "action": _ranks(_ACTION),
    "level": _select(_LEVEL, 13),
    "hand_hearts": _select(_HAND, 13),  # the hearts: the first suit of a card vector
    "action_hearts": _select(_ACTION, 13),
    "ranks": _columns(15, list(range(13))),
    "small": _columns(15, [13]),
    "big": _columns(15, [14]),
    "sum15": np.ones((15, 1), np.float32),
    "sum13": np.ones((13, 1), np.float32),
    "straights": _windows(_STRAIGHTS),
    "pair_runs": _windows(_PAIR_RUNS),
    "triple_runs": _windows(_TRIPLE_RUNS),
    "sum10": np.ones((10, 1), np.float32),
    "sum12": np.ones((12, 1), np.float32),
}


def _program(op: Any, rows: Any) -> Any:
    """The features of ``rows`` through the operations ``op`` (see :class:`_Numpy`)."""

    def at_least(x: Any, k: int) -> Any:  # 1 where the whole number x >= k, else 0
        return op.clip(op.shift(x, 1.0 - k))

    def count(x: Any, total: str, scale: float) -> Any:
        return op.scale(op.matmul(x, total), scale)

    hand, action = op.matmul(rows, "hand"), op.matmul(rows, "action")
    rest = op.sub(hand, action)
    level = op.matmul(rows, "level")
    hand13, action13, rest13 = (op.matmul(x, "ranks") for x in (hand, action, rest))
    size = count(action, "sum15", 1.0)
    touched = at_least(action13, 1)
    rest_has = at_least(rest13, 1)
    hand_bomb = at_least(hand13, 4)
    features = [
        op.shift(op.scale(op.clip(size), -1.0), 1.0),  # pass
        op.scale(size, 0.1),
        count(rest, "sum15", 1 / 27),
        *(count(at_least(rest13, k), "sum13", 1 / 13) for k in range(1, 7)),
        *(count(at_least(hand13, k), "sum13", 1 / 13) for k in range(1, 5)),
        # splits: a rank the move takes some of, the rest keeps some of, not a bomb
        count(op.mul(op.mul(touched, rest_has), op.shift(op.scale(hand_bomb, -1.0), 1.0)), "sum13", 0.25),
        count(op.mul(op.mul(touched, rest_has), hand_bomb), "sum13", 0.25),  # broken: a bomb's rank split
        count(at_least(op.matmul(rest_has, "straights"), 5), "sum10", 0.1),
        count(at_least(op.matmul(at_least(hand13, 1), "straights"), 5), "sum10", 0.1),
        count(at_least(op.matmul(at_least(rest13, 2), "pair_runs"), 3), "sum12", 1 / 12),
        count(at_least(op.matmul(at_least(rest13, 3), "triple_runs"), 2), "sum13", 1 / 13),
        op.scale(op.matmul(rest, "small"), 0.5),
        op.scale(op.matmul(rest, "big"), 0.5),
        op.mul(at_least(op.matmul(rest, "small"), 2), at_least(op.matmul(rest, "big"), 2)),
        count(op.mul(rest13, level), "sum13", 0.125),
        count(op.mul(op.sub(op.matmul(rows, "hand_hearts"), op.matmul(rows, "action_hearts")), level), "sum13", 0.5),
        count(op.mul(op.matmul(rows, "action_hearts"), level), "sum13", 0.5),
    ]
    return op.concat(features)


class _Numpy:
    """The operations of :func:`_program` on numpy arrays (and the pattern of the others)."""

    def matmul(self, x: Any, name: str) -> Any:
        return x @ _CONSTANTS[name]

    def sub(self, a: Any, b: Any) -> Any:
        return a - b

    def mul(self, a: Any, b: Any) -> Any:
        return a * b

    def scale(self, x: Any, c: float) -> Any:
        return x * np.float32(c)

    def shift(self, x: Any, c: float) -> Any:
        return x + np.float32(c)

    def clip(self, x: Any) -> Any:  # into 0 .. 1
        return np.clip(x, 0.0, 1.0)

    def concat(self, parts: list[Any]) -> Any:
        return np.concatenate(parts, axis=1)


def _check_rows(rows: Any) -> None:
    if getattr(rows, "ndim", None) != 2 or rows.shape[1] != ROW_SIZE:
        raise GuandanError(f"rows are an array (n, {ROW_SIZE}), got {describe(rows)}")


def structure_numpy(rows: np.ndarray) -> np.ndarray:
    """The features of rows ``(n, 567)`` with numpy: float32 ``(n, STRUCTURE_SIZE)``.

    >>> from guandan.game.deal import Deal
    >>> from guandan.game.encoding import encode_rows
    >>> deal = Deal.new(seed=7, level=2); rows = encode_rows(deal.observation(deal.turn))
    >>> bool(np.allclose(structure_numpy(rows)[5], reference_structure(rows[5])))
    True
    """
    _check_rows(rows)
    out: np.ndarray = _program(_Numpy(), np.asarray(rows, dtype=np.float32)).astype(np.float32)
    return out


def structure_torch(rows: Any) -> Any:
    """The features of a torch tensor of rows ``(n, 567)``: ``(n, STRUCTURE_SIZE)`` on its
    device and of its dtype (needs torch: the ``train`` extra; checked against
    :func:`reference_structure` by the tests of that extra), e.g.::

        structure_torch(torch.zeros(2, 567)).shape  # torch.Size([2, 25])
    """
    _check_rows(rows)
    return _program(_Torch(rows.device, rows.dtype), rows)


#: The constants as torch tensors, made once per (name, device, dtype).
_TORCH_CONSTANTS: dict[tuple[str, Any, Any], Any] = {}


class _Torch(_Numpy):
    """The operations of :func:`_program` on torch tensors of a device and dtype."""

    def __init__(self, device: Any, dtype: Any) -> None:
        self.device, self.dtype = device, dtype

    def matmul(self, x: Any, name: str) -> Any:
        key = (name, self.device, self.dtype)
        if key not in _TORCH_CONSTANTS:
            import torch

            _TORCH_CONSTANTS[key] = torch.from_numpy(_CONSTANTS[name]).to(device=self.device, dtype=self.dtype)
        return x @ _TORCH_CONSTANTS[key]

    def clip(self, x: Any) -> Any:
        return x.clamp(0.0, 1.0)

    def concat(self, parts: list[Any]) -> Any:
        import torch

        return torch.cat(parts, dim=1)

    def scale(self, x: Any, c: float) -> Any:
        return x * c

    def shift(self, x: Any, c: float) -> Any:
        return x + c


def structure_onnx_nodes(rows: str, out: str) -> tuple[list[Any], list[Any]]:
    """The ONNX nodes (opset 13) computing the features of the input ``rows`` into the tensor
    ``out``, and the constants they read: ``(nodes, initializers)`` (needs ``onnx``).

    >>> nodes, inits = structure_onnx_nodes("rows", "structure")
    >>> nodes[-1].op_type, nodes[-1].output[0]
    ('Concat', 'structure')
    """
    from onnx import helper, numpy_helper

    nodes: list[Any] = []
    inits: dict[str, Any] = {}
    counter = iter(range(1 << 30))

    def fresh() -> str:
        return f"structure_{next(counter)}"

    def constant(name: str, value: np.ndarray) -> str:
        key = f"structure_c_{name}"
        if key not in inits:
            inits[key] = numpy_helper.from_array(np.asarray(value, dtype=np.float32), key)
        return key

    def node(kind: str, inputs: list[str], **attrs: Any) -> str:
        name = fresh()
        nodes.append(helper.make_node(kind, inputs, [name], **attrs))
        return name

    class _Onnx:
        def matmul(self, x: str, name: str) -> str:
            return node("MatMul", [x, constant(name, _CONSTANTS[name])])

        def sub(self, a: str, b: str) -> str:
            return node("Sub", [a, b])

        def mul(self, a: str, b: str) -> str:
            return node("Mul", [a, b])

        def scale(self, x: str, c: float) -> str:
            return node("Mul", [x, constant(repr(float(np.float32(c))), np.array(c))])

        def shift(self, x: str, c: float) -> str:
            return node("Add", [x, constant(repr(float(np.float32(c))), np.array(c))])

        def clip(self, x: str) -> str:
            return node("Clip", [x, constant("0.0", np.array(0.0)), constant("1.0", np.array(1.0))])

        def concat(self, parts: list[str]) -> str:
            nodes.append(helper.make_node("Concat", parts, [out], axis=1))
            return out

    _program(_Onnx(), rows)
    return nodes, list(inits.values())


def reference_structure(row: Any) -> list[float]:
    """The features of one 567-value row in plain Python, rank by rank (the twin the matrix
    forms are checked against).

    >>> import numpy as np
    >>> row = np.zeros(567, np.float32); row[500] = 1.0           # level 2, an empty hand, a pass
    >>> reference_structure(row)[:3]
    [1.0, 0.0, 0.0]
    """
    row = [float(v) for v in row]
    if len(row) != ROW_SIZE:
        raise GuandanError(f"a row has {ROW_SIZE} values, got {len(row)}")

    def ranks(start: int) -> list[float]:
        counts = [sum(row[start + suit * 13 + r] for suit in range(4)) for r in range(13)]
        return counts + [row[start + 52], row[start + 53]]

    hand, action = ranks(_HAND), ranks(_ACTION)
    rest = [h - a for h, a in zip(hand, action)]
    level = next((r for r in range(13) if row[_LEVEL + r] == 1.0), None)
    size, left = sum(action), sum(rest)

    def runs(counts: list[float], windows: list[list[int]], need: int) -> int:
        return sum(1 for w in windows if all(counts[r] >= need for r in w))

    splits = sum(1 for r in range(13) if action[r] >= 1 and rest[r] >= 1 and hand[r] < 4)
    broken = sum(1 for r in range(13) if action[r] >= 1 and rest[r] >= 1 and hand[r] >= 4)
    hearts_level_hand = row[_HAND + level] if level is not None else 0.0
    hearts_level_action = row[_ACTION + level] if level is not None else 0.0
    f = {
        "pass": 1.0 - min(max(size, 0.0), 1.0),
        "size": size / 10,
        "left": left / 27,
        **{f"rest_ranks{k}": sum(1 for r in range(13) if rest[r] >= k) / 13 for k in range(1, 7)},
        **{f"hand_ranks{k}": sum(1 for r in range(13) if hand[r] >= k) / 13 for k in range(1, 5)},
        "splits": splits / 4,
        "broken": broken / 4,
        "rest_straights": runs(rest, _STRAIGHTS, 1) / 10,
        "hand_straights": runs(hand, _STRAIGHTS, 1) / 10,
        "rest_pair_runs": runs(rest, _PAIR_RUNS, 2) / 12,
        "rest_triple_runs": runs(rest, _TRIPLE_RUNS, 3) / 13,
        "rest_small_jokers": rest[13] / 2,
        "rest_big_jokers": rest[14] / 2,
        "rest_joker_bomb": float(rest[13] >= 2 and rest[14] >= 2),
        "rest_level_cards": (rest[level] if level is not None else 0.0) / 8,
        "rest_wilds": (hearts_level_hand - hearts_level_action) / 2,
        "spends_wild": hearts_level_action / 2,
    }
    return [float(f[name]) for name in STRUCTURE]


_Kind = Callable[[Any], Any]
