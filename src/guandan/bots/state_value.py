"""A state value: the levels the side to act can expect from a whole deal state, which ends the
search's rollouts early.

The search's rollouts play sampled deals, whose four hands are all known. A *state value* is
a small network over :data:`VALUE_FEATURES` numbers of such a state (each seat's cards in the
level's order, its wilds and jokers, whether it is out; the play to beat; the level): with
one, ``mc:value=FILE`` stops each rollout ``plies`` plies after its candidate and scores the
value of the state reached instead of playing to the end (``SearchParams.value``). A value
taught by the deals of a strong player (the shipped network playing itself:
:mod:`guandan.rl.state_value`) knows what the rollout policy does not.

The network and its numbers are computed in C (``gd_value_eval``); this module is their plain
Python twin, which the tests check the C against, and the file format: an ``.npz`` of the
layers ``W0, b0, W1, b1, W2, b2`` (``W`` as ``(inputs, units)``) and ``meta`` (a JSON string:
``{"format": "guandan.state_value", "version": 1, "plies": N, ...}``).

>>> from guandan.game.deal import Deal
>>> value = StateValue.random((16, 8), seed=1)
>>> state = Deal.new(seed=3, level=2, leader=0).native_state()
>>> abs(value(state) - value.native(state)) < 1e-5
True
>>> value_features([state]).shape
(1, 103)
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from ..core import search as native_search
from ..core.packed import word_size
from ..errors import GuandanError, describe
from .rollout_policy import _key_order

__all__ = ["VALUE_FEATURES", "VALUE_HIDDEN", "FORMAT", "StateValue", "value_features", "state_arrays", "load_value"]

#: The numbers a state value reads of a deal state (``csrc/gd_search.h`` lists them).
VALUE_FEATURES: int = native_search.VALUE_FEATURES
#: The widest hidden layer the C core evaluates.
VALUE_HIDDEN: int = native_search.VALUE_HIDDEN
#: The ``format`` a state value's file names in its metadata.
FORMAT = "guandan.state_value"

_PASS_TYPE = 0
_MASK64 = (1 << 64) - 1


def state_arrays(states: Sequence[tuple[Any, ...]]) -> dict[str, np.ndarray]:
    """Whole deal states (``Deal.native_state()`` tuples) as the arrays :func:`value_features`
    reads: ``hands`` (``uint64 (n, 4, 2)``: each seat's packed hand, low word first), ``level``
    (2..14), ``turn``, ``last`` (-1: the turn leads), ``beat`` (``uint64``), ``passes`` and
    ``finished`` (``int8 (n, 4)``, the seats out in order, -1 after them).

    >>> from guandan.game.deal import Deal
    >>> state_arrays([Deal.new(seed=3, level=5).native_state()])["level"].tolist()
    [5]
    """
    n = len(states)
    out: dict[str, np.ndarray] = {
        "hands": np.zeros((n, 4, 2), dtype=np.uint64),
        "level": np.zeros(n, dtype=np.int8),
        "turn": np.zeros(n, dtype=np.int8),
        "last": np.zeros(n, dtype=np.int8),
        "beat": np.zeros(n, dtype=np.uint64),
        "passes": np.zeros(n, dtype=np.int8),
        "finished": np.full((n, 4), -1, dtype=np.int8),
    }
    for i, (hands, level, turn, last, beat, passes, finished) in enumerate(states):
        for s, h in enumerate(hands):
            out["hands"][i, s] = (int(h) & _MASK64, int(h) >> 64)
        out["level"][i], out["turn"][i], out["last"][i], out["passes"][i] = level, turn, last, passes
        out["beat"][i] = beat
        for k, seat in enumerate(finished):
            out["finished"][i, k] = seat
    return out


@lru_cache(maxsize=65536)
def _beat_numbers(beat: int, level: int) -> tuple[int, float, float]:
    """A play to beat's type, key order / 14 and cards / 10 (``level``: rank 0..12)."""
    return beat >> 60, _key_order(beat, level) / 14.0, word_size(beat) / 10.0


def value_features(states: Sequence[tuple[Any, ...]] | dict[str, np.ndarray]) -> np.ndarray:
    """The state value's numbers of each whole deal state, for its seat to act: ``float32 (n,
    VALUE_FEATURES)``, as ``gd_value_features`` computes them (``states``: native state
    tuples, or :func:`state_arrays`'s arrays).

    >>> from guandan.game.deal import Deal
    >>> state = Deal.new(seed=3, level=2, leader=0).native_state()
    >>> bool((value_features([state])[0] == native_search.value_features(state)).all())
    True
    """
    a = states if isinstance(states, dict) else state_arrays(states)
    n = a["level"].shape[0]
    out = np.zeros((n, VALUE_FEATURES), dtype=np.float32)
    rows = np.arange(n)
    level = a["level"].astype(np.int64) - 2
    turn = a["turn"].astype(np.int64)
    # each face's count: face f at bits 2f of the 128-bit hand
    faces = np.arange(54)
    words = a["hands"][:, :, faces >> 5]  # (n, 4, 54)
    counts = ((words >> (2 * (faces & 31)).astype(np.uint64)) & np.uint64(3)).astype(np.int64)
    place = np.zeros((n, 4), dtype=np.int64)
    for k in range(4):
        seat = a["finished"][:, k].astype(np.int64)
        out_k = seat >= 0
        place[rows[out_k], seat[out_k]] = min(k + 1, 3)
    for r in range(4):
        seat = (turn + r) & 3
        c = counts[rows, seat]  # (n, 54)
        f = out[:, 21 * r: 21 * r + 21]
        wilds = c[rows, 4 * level + 1]
        by_rank = c[:, :52].reshape(n, 13, 4).sum(axis=2)
        by_rank[rows, level] -= wilds
        for rank in range(13):
            order = np.where(rank < level, rank, np.where(rank == level, 12, rank - 1))
            f[rows, order] = by_rank[:, rank] / 4.0
        f[:, 13] = wilds / 2.0
        f[:, 14] = c[:, 52] / 2.0
        f[:, 15] = c[:, 53] / 2.0
        f[:, 16] = c.sum(axis=1) / 27.0
        f[rows, 17 + place[rows, seat]] = 1.0
    g = out[:, 84:]
    last = a["last"].astype(np.int64)
    beat = a["beat"].astype(np.uint64)
    played = (last >= 0) & ((beat >> np.uint64(60)) != 0)
    g[~played, 4] = 1.0
    at = np.flatnonzero(played)
    if len(at):
        pairs = np.stack([beat[at], level[at].astype(np.uint64)], axis=1)
        distinct, which = np.unique(pairs, axis=0, return_inverse=True)
        numbers = np.array([_beat_numbers(int(b), int(lv)) for b, lv in distinct], dtype=np.float64)
        kind, key, size = numbers[which.ravel()].T
        g[at, (last[at] - turn[at]) & 3] = 1.0
        g[at, 5 + kind.astype(np.int64) - 1] = 1.0
        g[at, 15], g[at, 16] = key, size
    g[:, 17] = a["passes"] / 3.0
    g[:, 18] = level / 12.0
    return out


def _check_hidden(hidden: object) -> tuple[int, int]:
    if (isinstance(hidden, (str, bytes)) or not isinstance(hidden, (tuple, list)) or len(hidden) != 2
            or not all(isinstance(h, (int, np.integer)) and 1 <= h <= VALUE_HIDDEN for h in hidden)):
        raise GuandanError(f"a state value's hidden widths are two ints 1..{VALUE_HIDDEN}, got {describe(hidden)}")
    return int(hidden[0]), int(hidden[1])


class StateValue:
    """A state value network: its two hidden widths, its layers (``W`` as ``(inputs, units)``,
    float32), the plies a rollout plays before the value ends it, and free-form metadata.

    >>> v = StateValue.random((4, 2), seed=0, plies=8)
    >>> v.hidden, v.plies, v.flat().shape == (native_search.value_size((4, 2)),)
    ((4, 2), 8, True)
    """

    def __init__(self, layers: Sequence[np.ndarray], plies: int = 0, meta: dict[str, Any] | None = None) -> None:
        if len(layers) != 6:
            raise GuandanError(f"a state value has six arrays (W0, b0, W1, b1, W2, b2), got {len(layers)}")
        try:
            w0, b0, w1, b1, w2, b2 = (np.asarray(x, dtype=np.float32) for x in layers)
        except (TypeError, ValueError):
            raise GuandanError(f"a state value's layers are arrays of real numbers, got {describe(layers)}") from None
        hidden = _check_hidden((w0.shape[-1] if w0.ndim == 2 else 0, w1.shape[-1] if w1.ndim == 2 else 0))
        a, b = hidden
        shapes = [(VALUE_FEATURES, a), (a,), (a, b), (b,), (b, 1), (1,)]
        got = [w0.shape, b0.shape, w1.shape, b1.shape, w2.reshape(-1, 1).shape if w2.size == b else w2.shape,
               b2.reshape(-1).shape]
        if got != shapes:
            raise GuandanError(f"a state value's layers have shapes {shapes}, got {got}")
        self.layers = [w0, b0, w1, b1, w2.reshape(b, 1), b2.reshape(1)]
        if not all(np.isfinite(x).all() for x in self.layers):
            raise GuandanError("a state value's weights must be finite")
        if not isinstance(plies, (int, np.integer)) or isinstance(plies, bool) or not 0 <= plies <= 10_000:
            raise GuandanError(f"plies is an int 0..10000, got {describe(plies)}")
        self.hidden = hidden
        self.plies = int(plies)
        self.meta = dict(meta or {})

    @classmethod
    def random(cls, hidden: tuple[int, int], seed: int = 0, plies: int = 0) -> StateValue:
        """A value of random weights (tests, examples)."""
        a, b = _check_hidden(hidden)
        rng = np.random.default_rng(seed)
        dims = [(VALUE_FEATURES, a), (a,), (a, b), (b,), (b, 1), (1,)]
        return cls([rng.normal(0, 0.3, d).astype(np.float32) for d in dims], plies)

    def flat(self) -> np.ndarray:
        """The weights as the C core reads them (``gd_value``): ``float32`` in layer order."""
        return np.concatenate([x.ravel() for x in self.layers]).astype(np.float32)

    def __call__(self, state: tuple[Any, ...]) -> float:
        """The value of one whole deal state (levels, for the side to act), in plain numpy."""
        return float(self.values([state])[0])

    def values(self, states: Sequence[tuple[Any, ...]] | dict[str, np.ndarray]) -> np.ndarray:
        """The values of many states (``float32 (n,)``), in plain numpy."""
        x = value_features(states)
        w0, b0, w1, b1, w2, b2 = self.layers
        h = np.maximum(x @ w0 + b0, 0.0)
        h = np.maximum(h @ w1 + b1, 0.0)
        values: np.ndarray = (h @ w2 + b2)[:, 0]
        return values

    def native(self, state: tuple[Any, ...]) -> float:
        """The same value computed by the C core (``gd_value_eval``)."""
        return float(native_search.value_of(state, self.flat(), self.hidden))

    def save(self, path: str) -> None:
        """Write the value to an ``.npz`` file (:func:`load_value` reads it)."""
        meta = dict(self.meta, format=FORMAT, version=1, plies=self.plies, hidden=list(self.hidden))
        names = ("W0", "b0", "W1", "b1", "W2", "b2")
        with open(path, "wb") as f:
            np.savez(f, meta=np.array(json.dumps(meta)), **dict(zip(names, self.layers)))  # type: ignore[arg-type]


def load_value(path: str) -> StateValue:
    """A state value from its ``.npz`` file, refused with :class:`~guandan.errors.GuandanError`
    naming the problem (no such file, not a state value, a malformed layer).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as out:
    ...     StateValue.random((4, 2), seed=0, plies=6).save(os.path.join(out, "v.npz"))
    ...     load_value(os.path.join(out, "v.npz")).plies
    6
    """
    if not isinstance(path, str) or not os.path.isfile(path):
        raise GuandanError(f"a state value is an .npz file, got {describe(path)}: no such file")
    try:
        data = np.load(path, allow_pickle=False)
    except (OSError, ValueError) as error:
        raise GuandanError(f"{path!r} is not a state value file: {error}") from None
    if not isinstance(data, np.lib.npyio.NpzFile):
        raise GuandanError(f"{path!r} is not a state value file (an .npz of its layers): it holds one array")
    try:
        with data:
            meta = json.loads(str(data["meta"]))
            layers = [data[name] for name in ("W0", "b0", "W1", "b1", "W2", "b2")]
    except (OSError, ValueError, KeyError) as error:
        raise GuandanError(f"{path!r} is not a state value file: {error}") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise GuandanError(f"{path!r} is not a state value file (its metadata names no {FORMAT!r})")
    plies = meta.get("plies", 0)
    if not isinstance(plies, int) or isinstance(plies, bool):
        raise GuandanError(f"{path!r}: its plies are an int 0..10000, got {describe(plies)}")
    return StateValue(layers, plies, meta)
