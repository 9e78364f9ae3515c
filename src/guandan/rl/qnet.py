"""A Q-network over the 567-value rows in plain numpy: a multilayer perceptron (ReLU), its
hand-written backpropagation, Adam, and its export as an ONNX model (input ``rows`` ``(n, 567)``
float32, output ``q`` ``(n, 1)``: the shape the published Guandan networks have, so the
``onnx:`` agent plays it).

Acting scores every legal action of many decisions at once, and the state part of a row is
the same for all of a decision's actions: the first layer is split, ``W1 @ [s; a] = Ws @ s +
Wa @ a``, so ``Ws @ s`` is computed once a decision (:meth:`QNetwork.q_factored`), not once a
row.

>>> net = QNetwork(hidden=(8, 4), seed=0)
>>> rows = np.zeros((3, 567), dtype=np.float32)
>>> net.q(rows).shape
(3,)
>>> states, actions = rows[:1, :513], rows[:, 513:]
>>> bool(np.allclose(net.q_factored(states, actions, np.array([0, 0, 0])), net.q(rows)))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import ArgumentError, GuandanError, describe, is_int
from ..game.encoding import ROW_SIZE, STATE_SIZE

__all__ = ["QNetwork", "Adam", "mlp_onnx"]


def check_hidden(hidden: object) -> tuple[int, ...]:
    """The widths of a network's hidden layers: a sequence of one int >= 1 or more, as a
    tuple; else an :class:`~guandan.errors.ArgumentError`.

    >>> check_hidden([64, 32])
    (64, 32)
    >>> check_hidden(())
    Traceback (most recent call last):
    ...
    guandan.errors.ArgumentError: hidden is a sequence of layer widths >= 1, got ()
    """
    if isinstance(hidden, (str, bytes)) or not isinstance(hidden, Sequence) or not hidden or not all(
        is_int(h) and h >= 1 for h in hidden
    ):
        raise ArgumentError(f"hidden is a sequence of layer widths >= 1, got {describe(hidden)}")
    return tuple(int(h) for h in hidden)


class QNetwork:
    """An MLP ``567 -> hidden... -> 1`` with ReLU, float32, He-initialised from ``seed``.

    ``params``: the weights and biases, ``[W1, b1, W2, b2, ..., w_out, b_out]`` (``W`` of shape
    ``(inputs, outputs)``).

    >>> QNetwork(hidden=(16,), seed=1).shapes()
    [(567, 16), (16,), (16, 1), (1,)]
    """

    def __init__(self, hidden: Sequence[int] = (256, 128), seed: int = 0) -> None:
        self.hidden = check_hidden(hidden)
        rng = np.random.default_rng(seed)
        sizes = [ROW_SIZE, *hidden, 1]
        self.params: list[np.ndarray] = []
        for a, b in zip(sizes[:-1], sizes[1:]):
            self.params.append((rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32))
            self.params.append(np.zeros(b, dtype=np.float32))

    def shapes(self) -> list[tuple[int, ...]]:
        """The shapes of the parameters."""
        return [p.shape for p in self.params]

    def q(self, rows: np.ndarray) -> np.ndarray:
        """Q-values of rows ``(n, 567)``: ``(n,)``."""
        h = rows
        layers = len(self.params) // 2
        for k in range(layers):
            h = h @ self.params[2 * k] + self.params[2 * k + 1]
            if k < layers - 1:
                np.maximum(h, 0, out=h)
        out: np.ndarray = h[:, 0]
        return out

    def q_factored(self, states: np.ndarray, actions: np.ndarray, which: np.ndarray) -> np.ndarray:
        """Q-values of rows given factored: ``states`` ``(m, 513)``, ``actions`` ``(k, 54)`` and
        ``which`` ``(k,)``, the state of each action: row ``j`` is ``[states[which[j]], actions[j]]``."""
        w1, b1 = self.params[0], self.params[1]
        h = actions @ w1[STATE_SIZE:]
        h += (states @ w1[:STATE_SIZE] + b1)[which]
        np.maximum(h, 0, out=h)
        layers = len(self.params) // 2
        for k in range(1, layers):
            h = h @ self.params[2 * k] + self.params[2 * k + 1]
            if k < layers - 1:
                np.maximum(h, 0, out=h)
        out: np.ndarray = h[:, 0]
        return out

    def loss_and_grads(self, rows: np.ndarray, targets: np.ndarray) -> tuple[float, list[np.ndarray]]:
        """The mean squared error of ``q(rows)`` against ``targets`` and its gradient with respect
        to every parameter (backpropagation by hand).

        >>> net = QNetwork(hidden=(4,), seed=0)
        >>> loss, grads = net.loss_and_grads(np.ones((2, 567), np.float32), np.array([1.0, -1.0], np.float32))
        >>> [g.shape for g in grads] == net.shapes()
        True
        """
        layers = len(self.params) // 2
        activations = [rows]
        h = rows
        for k in range(layers):
            h = h @ self.params[2 * k] + self.params[2 * k + 1]
            if k < layers - 1:
                h = np.maximum(h, 0)
            activations.append(h)
        n = len(rows)
        error = activations[-1][:, 0] - targets
        loss = float(np.mean(error * error))
        delta = (2.0 / n) * error[:, None].astype(np.float32)
        grads: list[np.ndarray] = [np.empty(0)] * len(self.params)
        for k in range(layers - 1, -1, -1):
            grads[2 * k] = activations[k].T @ delta
            grads[2 * k + 1] = delta.sum(axis=0)
            if k:
                delta = (delta @ self.params[2 * k].T) * (activations[k] > 0)
        return loss, grads

    def state(self) -> dict[str, Any]:
        """The parameters as named arrays (for ``np.savez``)."""
        return {f"p{i}": p for i, p in enumerate(self.params)}

    def load(self, arrays: Any) -> None:
        """Parameters from :meth:`state`'s arrays (an ``np.load`` result), shapes checked."""
        params = [np.asarray(arrays[f"p{i}"], dtype=np.float32) for i in range(len(self.params))]
        if [p.shape for p in params] != self.shapes():
            raise GuandanError(f"a checkpoint of shapes {[p.shape for p in params]}, this network has {self.shapes()}")
        for mine, new in zip(self.params, params):  # in place: an optimiser holds these arrays
            mine[...] = new

    def to_onnx(self, path: str) -> None:
        """Write the network as an ONNX model: input ``rows`` ``(n, 567)`` float32, output
        ``q`` ``(n, 1)`` (the ``onnx`` package: the ``rl`` extra)."""
        mlp_onnx(self.params, path)


def mlp_onnx(
    params: list[np.ndarray], path: str, before: tuple[list[Any], list[Any], str] | None = None, name: str = "guandan_q"
) -> None:
    """Write an MLP of ``params`` (each layer's weights ``(in, out)`` then its biases; ReLU
    between the layers) as an ONNX model of input ``rows`` ``(n, 567)`` float32 and output
    ``q`` ``(n, 1)``. ``before``: nodes, their constants and the name of the tensor they make
    from ``rows``, the MLP's input (else ``rows`` itself); ``name``: the graph's.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "q.onnx")
    >>> mlp_onnx(QNetwork(hidden=(4,), seed=0).params, path); os.path.getsize(path) > 0
    True
    """
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    nodes, inits, x = (list(before[0]), list(before[1]), before[2]) if before else ([], [], "rows")
    layers = len(params) // 2
    for k in range(layers):
        w, b = f"W{k}", f"b{k}"
        inits.append(numpy_helper.from_array(params[2 * k], w))
        inits.append(numpy_helper.from_array(params[2 * k + 1], b))
        out = "q" if k == layers - 1 else f"h{k}"
        nodes.append(helper.make_node("Gemm", [x, w, b], [out]))
        if k < layers - 1:
            nodes.append(helper.make_node("Relu", [out], [f"r{k}"]))
            out = f"r{k}"
        x = out
    graph = helper.make_graph(
        nodes,
        name,
        [helper.make_tensor_value_info("rows", TensorProto.FLOAT, ["n", ROW_SIZE])],
        [helper.make_tensor_value_info("q", TensorProto.FLOAT, ["n", 1])],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="guandan")
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, path)


class Adam:
    """Adam over a network's parameters (in place).

    >>> net = QNetwork(hidden=(4,), seed=0); opt = Adam(net.params, lr=0.01)
    >>> loss, grads = net.loss_and_grads(np.ones((2, 567), np.float32), np.zeros(2, np.float32))
    >>> opt.step(grads); opt.t
    1
    """

    def __init__(self, params: list[np.ndarray], lr: float = 3e-4, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8) -> None:  # fmt: skip
        self.params = params
        self.lr, self.b1, self.b2, self.eps = lr, betas[0], betas[1], eps
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]
        self.t = 0

    def step(self, grads: list[np.ndarray], clip: float | None = 10.0) -> None:
        """One update from the gradients (their global norm clipped to ``clip``)."""
        if clip is not None:
            norm = float(np.sqrt(sum(float((g * g).sum()) for g in grads)))
            if norm > clip:
                grads = [g * (clip / norm) for g in grads]
        self.t += 1
        c1 = 1 - self.b1**self.t
        c2 = 1 - self.b2**self.t
        for p, g, m, v in zip(self.params, grads, self.m, self.v):
            m *= self.b1
            m += (1 - self.b1) * g
            v *= self.b2
            v += (1 - self.b2) * (g * g)
            p -= (self.lr * (m / c1) / (np.sqrt(v / c2) + self.eps)).astype(np.float32)
