"""Deep Monte Carlo training on torch (the ``train`` extra): the trainer of
:mod:`guandan.rl.train` with its network, loss and optimiser from torch, no hand-written
gradients, and checkpoints a stopped run resumes from exactly.

The method is :mod:`guandan.rl.train`'s: self-play actors at ``tables`` vectorized tables
(:class:`~guandan.rl.vector.VecTables`, the four seats the learner's) score every legal
card-level action of each decision and play the best, or with probability epsilon a uniformly
drawn one; each decision's 567-value row is regressed (mean squared error, ``torch.optim.Adam``)
on its deal's return for the seat that made it (divided by ``value_scale``, the levels a score
of 1 stands for: 1 but for a network of ``guandan expert train``). The network
(:class:`TorchQNet`) is an MLP ``567 -> hidden... -> 1`` (ReLU; with ``structure``, the first
layer also reads the rows' 25 structure values, :mod:`guandan.rl.structure`) on the CPU, or on a
CUDA device when one is present (``device="auto"``); the learner computes on one thread with
torch's deterministic algorithms (:func:`one_thread`).

With ``candidates=N`` the actors choose only among the search's first ``N`` candidate moves
(:meth:`~guandan.rl.vector.VecTables.places`), the moves the ``net`` agent chooses from, each
scored as that agent scores them (:func:`~guandan.rl.dmc.candidate_scores`: with a place prior,
``q / temperature`` plus the bias of the candidate's place). Every card-level form of a
candidate is a choice, the best by the network; the agent scores one form of each, the cards
``mc`` would spend.

**Checkpoints** (``checkpoint.pt``) hold everything a run is: the weights, the optimiser's
state, the replay, the decisions waiting for their deal's end, the tables' states, the random
generators (numpy's and torch's) and the counters. ``TorchTrainer.resume(out)`` goes on from
one, and a run stopped at a checkpoint and resumed makes the same weights as one never
stopped (on the same machine and build: the tables' states are native bytes).

**Starting from a network** (``init``, ``--init PATH``): the run's first weights are those of
another run's ``checkpoint.pt``, a deep Monte Carlo run's or the one ``guandan expert train``
writes (:func:`read_init`; the hidden widths, the structure inputs, the value scale and the
place prior are the file's), so that self-play goes on from a network taught by the search:
its values learnt again from the results of its own play. The file is loaded with pickle, as
the run's own checkpoints are: give only files you trust.

**Export**: :meth:`TorchTrainer.export` writes the network as ONNX (input ``rows`` ``(n,
567)`` float32, output ``q`` ``(n, 1)``), the form the ``onnx:`` agent plays
(:class:`guandan.bots.network.OnnxAgent`), whose inference stays on onnxruntime alone.

Every checkpoint also evaluates the network as :mod:`guandan.rl.train` does (``log.jsonl``)
and exports ``model.onnx`` and ``model-<frames>.onnx``. The command is ``python -m
guandan.rl.train --backend torch --out DIR ...``: run again on the same ``DIR`` it goes on from
the checkpoint.

Importing this module needs torch (``pip install torch==2.13.0`` for the CPU build, then
``pip install ".[train]"`` from the checkout); the rest of the package does not.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from typing import Any

import numpy as np

try:
    import torch
    from torch import nn
except ImportError as error:  # pragma: no cover
    raise ImportError(
        "guandan.rl.torch_train needs torch: pip install torch==2.13.0 (the CPU build), "
        "then '.[train]' from the guandan checkout"
    ) from error

from ..errors import GuandanError, check_int, describe
from ..game.encoding import ACTION_SIZE, ROW_SIZE, STATE_SIZE
from .dmc import TrainConfig, _eval_line, candidate_scores, evaluate, pick_actions, pick_candidates
from .qnet import QNetwork, check_hidden, mlp_onnx
from .structure import STRUCTURE, STRUCTURE_SIZE, structure_onnx_nodes, structure_torch
from .vector import VecTables

__all__ = ["TorchQNet", "TorchTrainer", "Init", "q_factored", "act", "act_departing", "read_init", "with_init",
           "one_thread", "check_candidates", "export_onnx", "VALUE_SCALE", "PLACES", "STRUCTURE_KEY"]  # fmt: skip

CHECKPOINT = "checkpoint.pt"


class TorchQNet(nn.Module):
    """The Q-network: an MLP ``567 -> hidden... -> 1`` with ReLU; ``forward(rows)`` gives
    ``(n, 1)`` Q-values. ``extra``: inputs after the row's 567 (the first layer's last columns;
    :mod:`guandan.rl.distill` feeds the hand's structure there, :mod:`guandan.rl.structure`).

    >>> net = TorchQNet((8,), seed=0)
    >>> tuple(net(torch.zeros(3, 567)).shape)
    (3, 1)
    """

    def __init__(self, hidden: tuple[int, ...] = (256, 128), seed: int = 0, extra: int = 0) -> None:
        super().__init__()
        check_hidden(hidden)
        generator = torch.Generator().manual_seed(int(seed))
        sizes = [ROW_SIZE + extra, *hidden, 1]
        layers: list[nn.Module] = []
        for k, (a, b) in enumerate(zip(sizes[:-1], sizes[1:])):
            linear = nn.Linear(a, b)
            with torch.no_grad():  # He initialisation from the seed, biases 0
                linear.weight.copy_(torch.randn(b, a, generator=generator) * (2.0 / a) ** 0.5)
                linear.bias.zero_()
            layers.append(linear)
            if k < len(sizes) - 2:
                layers.append(nn.ReLU())
        self.layers = nn.Sequential(*layers)
        self.hidden = tuple(hidden)
        self.extra = int(extra)

    def forward(self, rows: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.layers(rows)
        return out


#: The metadata key naming the structure features a model computes from its rows.
STRUCTURE_KEY = "guandan.structure"
#: The searched values are in levels, +3 .. -3: a network taught by the search
#: (:mod:`guandan.rl.distill`) scores a third of them.
VALUE_SCALE = 3.0
#: The places of the place prior: 0 .. PLACES - 1 in the smart policy's order, PLACES: none.
PLACES = 32


def _check_extra(net: TorchQNet) -> None:
    if net.extra not in (0, STRUCTURE_SIZE):
        raise GuandanError(f"a network taught by the search reads the rows, or the rows and their {STRUCTURE_SIZE} "
                           f"structure values; this one has {net.extra} extra inputs")  # fmt: skip


def export_onnx(net: TorchQNet, path: str, prior: tuple[float, Any] | None = None,
                value_scale: float = VALUE_SCALE, candidates: int | None = None) -> None:  # fmt: skip
    """Write a network as ONNX for the ``onnx:`` agent (input ``rows`` ``(n, 567)``, output
    ``q`` ``(n, 1)``; the writer :func:`~guandan.rl.qnet.mlp_onnx`), its metadata
    saying a score of 1 is ``value_scale`` levels (:func:`guandan.bots.network.value_scale`;
    by default :data:`VALUE_SCALE`, the scale :mod:`guandan.rl.distill` trains in);
    ``prior``: a temperature and the biases of the places written as the file's place prior
    (:func:`guandan.bots.network.place_prior`); ``candidates``: how many of the search's
    candidates the network was trained to choose among (:func:`guandan.bots.network.model_candidates`;
    ``None``, the default: not written, the agents' own default; a network taught by the search
    knows :data:`PLACES`, its 32).

    >>> import os, tempfile
    >>> from guandan.bots.network import load_session
    >>> path = os.path.join(tempfile.mkdtemp(), "n.onnx"); export_onnx(TorchQNet((8,), seed=0), path)
    >>> [o.shape for o in load_session(path).get_outputs()]
    [['n', 1]]
    """
    _check_extra(net)
    linears = [m for m in net.layers if isinstance(m, nn.Linear)]
    params = [a for m in linears for a in (m.weight.detach().cpu().numpy().T.copy(),
                                           m.bias.detach().cpu().numpy().copy())]  # fmt: skip
    if net.extra:
        _structure_onnx(params, path)
    else:
        mlp_onnx(params, path)
    import onnx

    from ..bots.network import CANDIDATES, PLACE_BIAS, TEMPERATURE
    from ..bots.network import VALUE_SCALE as SCALE_KEY

    model = onnx.load(path)
    props = {SCALE_KEY: json.dumps(float(value_scale))}
    if net.extra:
        props[STRUCTURE_KEY] = json.dumps(list(STRUCTURE))
    if prior is not None:
        temperature, bias = prior
        props.update({TEMPERATURE: json.dumps(float(temperature)),
                      PLACE_BIAS: json.dumps([round(float(b), 6) for b in bias])})  # fmt: skip
    if candidates is not None:
        props[CANDIDATES] = json.dumps(check_int("candidates", candidates, 1, 64))
    onnx.helper.set_model_props(model, props)
    onnx.save(model, path)


def _structure_onnx(params: list[np.ndarray], path: str) -> None:
    """Write an MLP whose first layer reads the rows and their structure as ONNX: input
    ``rows`` ``(n, 567)``, the structure computed in the graph (:func:`structure_onnx_nodes`),
    output ``q`` ``(n, 1)``."""
    from onnx import helper

    nodes, inits = structure_onnx_nodes("rows", "structure")
    nodes.append(helper.make_node("Concat", ["rows", "structure"], ["x"], axis=1))
    mlp_onnx(params, path, (nodes, inits, "x"), name="guandan_q_structure")


@contextmanager
def one_thread(device: torch.device) -> Iterator[None]:
    """Within it, on the CPU, torch computes on one thread with its deterministic algorithms:
    a training step is then the same bytes run after run, whatever ``torch.get_num_threads()``
    was (two threads sum in orders that vary from run to run, and split a matrix product
    otherwise than one).
    The caller's settings are restored on leaving.

    >>> with one_thread(torch.device("cpu")):
    ...     torch.get_num_threads(), torch.are_deterministic_algorithms_enabled()
    (1, True)
    """
    if device.type != "cpu":
        yield
        return
    threads, deterministic = torch.get_num_threads(), torch.are_deterministic_algorithms_enabled()
    warn_only = torch.is_deterministic_algorithms_warn_only_enabled()
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    try:
        yield
    finally:
        torch.set_num_threads(threads)
        torch.use_deterministic_algorithms(deterministic, warn_only=warn_only)


def _device(name: str) -> torch.device:
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    try:
        return torch.device(name)
    except RuntimeError:
        raise GuandanError(f"device is 'auto', 'cpu' or a torch device like 'cuda:0', got {describe(name)}") from None


def q_factored(net: TorchQNet, device: torch.device, states: np.ndarray, actions: np.ndarray,
               which: np.ndarray) -> np.ndarray:  # fmt: skip
    """The Q-values of rows given factored (row ``j`` is ``[states[which[j]], actions[j]]``):
    :meth:`TorchTrainer.q_factored` with the network and device given (the actors' inference).

    >>> net = TorchQNet((8,), seed=0)
    >>> q_factored(net, torch.device("cpu"), np.ones((1, 513), np.float32), np.eye(54, dtype=np.float32)[:2],
    ...            np.array([0, 0])).shape
    (2,)
    """
    first = net.layers[0]
    assert isinstance(first, nn.Linear)
    if net.extra not in (0, STRUCTURE_SIZE):
        raise GuandanError(f"a Q-network reads the rows, or the rows and their {STRUCTURE_SIZE} structure values; "
                           f"this one has {net.extra} extra inputs")  # fmt: skip
    with torch.no_grad():
        s = torch.from_numpy(np.ascontiguousarray(states, dtype=np.float32)).to(device)
        a = torch.from_numpy(np.ascontiguousarray(actions, dtype=np.float32)).to(device)
        w, rows_state = first.weight, torch.from_numpy(which).to(device)
        h = a @ w[:, STATE_SIZE:ROW_SIZE].T + (s @ w[:, :STATE_SIZE].T + first.bias)[rows_state]
        if net.extra:  # the structure of each row (guandan.rl.structure) in the first layer's last columns
            h = h + structure_torch(torch.cat([s[rows_state], a], dim=1)) @ w[:, ROW_SIZE:].T
        out = net.layers[1:](h)
    q: np.ndarray = out.reshape(-1).cpu().numpy()
    return q


@dataclass(frozen=True)
class Init:
    """The network a run starts from (:func:`read_init`): its hidden widths, whether its first
    layer also reads the rows' structure (:mod:`guandan.rl.structure`), its weights, the
    levels a score of 1 stands for, and its place prior (a temperature and a bias a place
    among the search's candidates; ``None``: none)."""

    hidden: tuple[int, ...]
    structure: bool
    weights: dict[str, torch.Tensor]
    value_scale: float = 1.0
    temperature: float = 1.0
    place_bias: list[float] | None = None


def read_init(path: str) -> Init:
    """The network in the torch checkpoint ``path``: a deep Monte Carlo run's
    ``checkpoint.pt`` (its scale and prior those of its run), or the one ``guandan expert
    train`` writes (its scores in :data:`~guandan.rl.distill.VALUE_SCALE` levels, its place
    prior if it learnt one); or a model this package exported (``.onnx``: a run's
    ``model.onnx``, the shipped ``net.onnx``), its scale, structure and place prior read from
    its metadata. Refused with :class:`~guandan.errors.GuandanError` naming the problem: no
    such file, not a checkpoint, or a network that is not an MLP over the 567-value rows (and
    their structure).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as out:
    ...     torch.save({"net": TorchQNet((8, 4), seed=0).state_dict()}, os.path.join(out, "checkpoint.pt"))
    ...     init = read_init(os.path.join(out, "checkpoint.pt"))
    >>> init.hidden, init.structure, init.value_scale, init.place_bias
    ((8, 4), False, 1.0, None)
    """
    if isinstance(path, str) and os.path.isdir(path):
        raise GuandanError(f"init {path!r} is a directory; give its checkpoint.pt")
    if not isinstance(path, str) or not os.path.isfile(path):
        raise GuandanError(f"init is a checkpoint.pt or model .onnx file, got {describe(path)}: no such file")
    if path.endswith(".onnx"):
        return _onnx_init(path)
    try:
        saved = torch.load(path, map_location="cpu", weights_only=False)
    except Exception as error:  # torch raises many kinds for a file it cannot read
        raise GuandanError(f"init {path!r} is not a torch checkpoint: {error}") from None
    weights = saved.get("net") if isinstance(saved, dict) else None
    if not isinstance(weights, dict) or not weights:
        raise GuandanError(f"init {path!r} holds no network (a checkpoint.pt has its weights under 'net')")
    hidden, structure = _mlp_shape(path, weights)
    config = saved.get("config") if isinstance(saved.get("config"), dict) else {}
    if "place_bias" in saved:  # guandan expert train's (guandan.rl.distill)
        bias = [float(b) for b in saved["place_bias"][:PLACES]] if config.get("place_prior") else None
        return Init(hidden, structure, weights, VALUE_SCALE, float(config.get("temperature", 1.0)), bias)
    bias = config.get("place_bias")
    return Init(hidden, structure, weights, float(config.get("value_scale", 1.0)),
                float(config.get("temperature", 1.0)), None if bias is None else [float(b) for b in bias])  # fmt: skip


def _onnx_init(path: str) -> Init:
    """The network of an ONNX model the package wrote (:func:`export_onnx`, or
    :meth:`QNetwork.to_onnx <guandan.rl.qnet.QNetwork.to_onnx>`): its layers' initializers
    ``W0, b0, W1, b1, ...`` (weights ``(in, out)``) and its metadata."""
    import onnx
    from onnx import numpy_helper

    from ..bots.network import load_session, place_prior, value_scale

    try:
        model = onnx.load(path)
    except Exception as error:  # onnx raises several kinds for a file it cannot parse
        raise GuandanError(f"init {path!r} is not an ONNX model: {error}") from None
    found = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    weights: dict[str, torch.Tensor] = {}
    for k in range(len(found)):
        if f"W{k}" not in found:
            break
        w, b = found[f"W{k}"], found.get(f"b{k}")
        if w.ndim != 2 or b is None or b.shape != w.shape[1:]:
            raise GuandanError(f"init {path!r}: layer {k} is not a linear layer of the Q-network")
        weights[f"layers.{2 * k}.weight"] = torch.from_numpy(np.array(w.T, dtype=np.float32))
        weights[f"layers.{2 * k}.bias"] = torch.from_numpy(np.array(b, dtype=np.float32))
    if not weights:
        raise GuandanError(f"init {path!r} is not a network this package wrote (no layers W0, b0, ...)")
    hidden, structure = _mlp_shape(path, weights)
    meta = {p.key: p.value for p in model.metadata_props}
    if structure != (STRUCTURE_KEY in meta):
        reads = ROW_SIZE + STRUCTURE_SIZE if structure else ROW_SIZE
        raise GuandanError(f"init {path!r}: its first layer reads {reads} values but its metadata "
                           f"{'lacks' if structure else 'has'} {STRUCTURE_KEY}")  # fmt: skip
    session = load_session(path)  # the agents' readers of the metadata, the same checks
    prior = place_prior(session, path)
    temperature, bias = (1.0, None) if prior is None else (prior[0], [float(b) for b in prior[1]])
    return Init(hidden, structure, weights, value_scale(session, path), temperature, bias)


def _mlp_shape(path: str, weights: dict[str, Any]) -> tuple[tuple[int, ...], bool]:
    """The hidden widths of the Q-network MLP of ``weights`` (torch's names) and whether its
    first layer reads the structure beside the rows; refused by name if it is not one."""
    shapes = []
    for k in range(0, 2 * len(weights), 2):
        w, b = weights.get(f"layers.{k}.weight"), weights.get(f"layers.{k}.bias")
        if w is None and b is None:
            break
        if not (isinstance(w, torch.Tensor) and isinstance(b, torch.Tensor) and w.ndim == 2 and b.shape == w.shape[:1]):
            raise GuandanError(f"init {path!r}: layer {k // 2} is not a linear layer of the Q-network")
        shapes.append(tuple(w.shape))
    if 2 * len(shapes) != len(weights) or len(shapes) < 2 or shapes[-1][0] != 1:
        raise GuandanError(f"init {path!r} is not the Q-network's MLP (layers of shapes {shapes})")
    if shapes[0][1] not in (ROW_SIZE, ROW_SIZE + STRUCTURE_SIZE):
        raise GuandanError(f"init {path!r}: the network reads {shapes[0][1]} inputs; a Q-network reads the "
                           f"{ROW_SIZE}-value rows, or those and their {STRUCTURE_SIZE} structure values")  # fmt: skip
    if any(shapes[i][0] != shapes[i + 1][1] for i in range(len(shapes) - 1)):
        raise GuandanError(f"init {path!r}: its layers do not chain (shapes {shapes})")
    return tuple(int(s[0]) for s in shapes[:-1]), shapes[0][1] != ROW_SIZE


def with_init(config: TrainConfig, init: Init | None = None) -> TrainConfig:
    """``config`` with the facts of its ``init`` network (``init``, or :func:`read_init` of
    ``config.init``): its structure, value scale and place prior (its widths must be the
    run's); ``config`` itself without one.

    >>> with_init(TrainConfig()) == TrainConfig()
    True
    """
    if config.init is None:
        return config
    init = init if init is not None else read_init(config.init)
    if init.hidden != tuple(config.hidden):
        raise GuandanError(f"init {config.init!r} has hidden widths {','.join(map(str, init.hidden))}; this run "
                           f"{','.join(map(str, config.hidden))}")  # fmt: skip
    if init.value_scale != 1.0 and config.objective != "levels":
        raise GuandanError(f"init {config.init!r} scores levels ({init.value_scale:g} a score of 1): train it on "
                           f"objective 'levels', not {config.objective!r}")  # fmt: skip
    return replace(config, structure=init.structure, value_scale=init.value_scale, temperature=init.temperature,
                   place_bias=init.place_bias)  # fmt: skip


def check_candidates(candidates: object) -> int:
    """``candidates`` of a run checked: 0 (every legal action) or 1..64, the ``net`` agent's range.

    >>> check_candidates(32)
    32
    """
    return check_int("candidates", candidates, 0, 64)


def act(net: TorchQNet, device: torch.device, config: TrainConfig, tables: VecTables, epsilon: float = 0.0,
        rng: np.random.Generator | None = None) -> np.ndarray:  # fmt: skip
    """Each table's action as a run of ``config`` acts: the legal action of the highest Q, or
    with ``config.candidates`` the candidate of the highest score (:func:`~guandan.rl.dmc.candidate_scores`)
    among the search's first ``candidates``, as the ``net`` agent plays; with probability
    ``epsilon`` a uniform one (``rng``). ``tables`` observe ``"rows"``.

    >>> tables = VecTables(3, seed=1, observe="rows")
    >>> a = act(TorchQNet((8,), seed=0), torch.device("cpu"), TrainConfig(candidates=4), tables)
    >>> bool((tables.places(4)[tables.offsets[:-1] + a] >= 0).all())
    True
    """
    q = _table_q(net, device, tables)
    assert tables.offsets is not None
    if config.candidates:
        places = tables.places(config.candidates)
        return pick_candidates(candidate_scores(q, places, config), places, tables.offsets, epsilon, rng)
    return pick_actions(q, tables.offsets, epsilon, rng)


def _table_q(net: TorchQNet, device: torch.device, tables: VecTables) -> np.ndarray:
    """The Q-value of every table's every legal action, in the tables' order."""
    assert tables.offsets is not None and tables.actions is not None and tables.states is not None
    total = int(tables.offsets[-1])
    which = np.repeat(np.arange(tables.n), np.diff(tables.offsets))
    return q_factored(net, device, tables.states, tables.actions[:total], which)


def act_departing(net: TorchQNet, device: torch.device, config: TrainConfig, tables: VecTables,
                  epsilon: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """As :func:`act` choosing among ``config.candidates`` with one ``epsilon`` a table; also
    which tables departed from the network's own choice (a candidate drawn uniformly that is not
    the one :func:`act` plays: the first of the highest, so a draw of another candidate of the
    same score departs too).

    >>> tables = VecTables(3, seed=1, observe="rows")
    >>> net, c = TorchQNet((8,), seed=0), TrainConfig(candidates=4)
    >>> a, departed = act_departing(net, torch.device("cpu"), c, tables, np.zeros(3), np.random.default_rng(0))
    >>> bool((a == act(net, torch.device("cpu"), c, tables)).all()), departed.tolist()
    (True, [False, False, False])
    """
    if not config.candidates:
        raise GuandanError("act_departing chooses among candidates: config.candidates must be set")
    assert tables.offsets is not None
    places = tables.places(config.candidates)
    scores = candidate_scores(_table_q(net, device, tables), places, config)
    own = pick_candidates(scores, places, tables.offsets)
    choice = pick_candidates(scores, places, tables.offsets, epsilon, rng)
    return choice, choice != own


def _pending_bytes(pending: list[list[tuple[np.ndarray, np.ndarray, int]]]) -> list[list[tuple[bytes, bytes, int]]]:
    return [[(s.tobytes(), a.tobytes(), seat) for s, a, seat in p] for p in pending]


def _pending_arrays(saved: list[list[tuple[bytes, bytes, int]]]) -> list[list[tuple[np.ndarray, np.ndarray, int]]]:
    return [[(np.frombuffer(a, np.int8).copy(), np.frombuffer(b, np.int8).copy(), seat) for a, b, seat in p]
            for p in saved]  # fmt: skip


class TorchTrainer:
    """A deep Monte Carlo run on torch writing to ``out`` (see the module's description);
    ``device``: ``"auto"`` (CUDA when present), ``"cpu"``, ``"cuda:0"``...

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as out:
    ...     t = TorchTrainer(TrainConfig(tables=8, hidden=(8,), batch=32, frames=1500, eval_every=0), out)
    ...     summary = t.run()
    >>> summary["frames"] >= 1500, summary["deals"] > 0, summary["updates"] > 0
    (True, True, True)
    """

    def __init__(self, config: TrainConfig, out: str, device: str = "auto", **options: Any) -> None:
        if options:
            raise GuandanError(f"unknown options {sorted(options)}")
        if not isinstance(config, TrainConfig):
            raise GuandanError(f"a TrainConfig, got {describe(config)}")
        self.config = c = replace(config)  # the run's own copy
        check_candidates(c.candidates)
        self.out = out
        os.makedirs(out, exist_ok=True)
        self.device = _device(device)
        torch.manual_seed(c.seed)
        init = None if c.init is None else read_init(c.init)
        if init is not None:
            self.config = c = with_init(c, init)
        self.net = TorchQNet(c.hidden, seed=c.seed, extra=STRUCTURE_SIZE if c.structure else 0).to(self.device)
        if init is not None:
            self.net.load_state_dict(init.weights)
        self.opt = torch.optim.Adam(self.net.parameters(), lr=c.lr)
        self.rng = np.random.default_rng([c.seed, 1])
        self._init_acting()
        self.r_states = np.zeros((c.replay, STATE_SIZE), dtype=np.int8)
        self.r_actions = np.zeros((c.replay, ACTION_SIZE), dtype=np.int8)
        self.r_targets = np.zeros(c.replay, dtype=np.float32)
        self.r_size = self.r_next = 0
        self.frames = self.deals = self.updates = self.fresh = 0
        self.losses: list[float] = []
        self.started = time.perf_counter()
        self.wall_before = 0.0  # the wall time of the run before its latest resume

    def _init_acting(self) -> None:
        """The acting side: the tables and the decisions waiting for their deal's end (the Ray
        trainer, :mod:`guandan.rl.ray_train`, acts in its actors instead)."""
        c = self.config
        self.tables = VecTables(c.tables, seed=c.seed, observe="rows", level=c.level, objective=c.objective)  # type: ignore[arg-type]
        self.pending: list[list[tuple[np.ndarray, np.ndarray, int]]] = [[] for _ in range(c.tables)]

    def _acting_state(self) -> dict[str, Any]:
        return {"tables": self.tables.get_state(), "pending": _pending_bytes(self.pending)}

    def _load_acting(self, s: dict[str, Any]) -> None:
        if "tables" not in s:
            raise GuandanError("this run was trained by Ray actors: give --actors N to go on from its checkpoint")
        self.tables.set_state(s["tables"])
        self.pending = _pending_arrays(s["pending"])

    def wall(self) -> float:
        """Seconds the run has trained, across resumes."""
        return self.wall_before + time.perf_counter() - self.started

    # -- acting and learning -------------------------------------------------------------------

    def q_rows(self, rows: np.ndarray) -> np.ndarray:
        """The network's Q-values of rows ``(n, 567)``: ``float32 (n,)`` (with their structure,
        for a network that reads it)."""
        with torch.no_grad():
            x = torch.from_numpy(np.ascontiguousarray(rows, dtype=np.float32)).to(self.device)
            out = self.net(torch.cat([x, structure_torch(x)], dim=1) if self.net.extra else x)
        q: np.ndarray = out.reshape(-1).cpu().numpy()
        return q

    def q_factored(self, states: np.ndarray, actions: np.ndarray, which: np.ndarray) -> np.ndarray:
        """The Q-values of rows given factored (row ``j`` is ``[states[which[j]], actions[j]]``),
        the first layer split as :meth:`guandan.rl.qnet.QNetwork.q_factored` splits it: the
        state's share once a state. Equal to :meth:`q_rows` of the rows up to float rounding.

        >>> t = TorchTrainer.__new__(TorchTrainer); t.net, t.device = TorchQNet((8,), seed=0), torch.device("cpu")
        >>> states, actions = np.ones((2, 513), np.float32), np.eye(54, dtype=np.float32)[:3]
        >>> rows = np.concatenate([states[[0, 1, 1]], actions], axis=1)
        >>> bool(np.allclose(t.q_factored(states, actions, np.array([0, 1, 1])), t.q_rows(rows), atol=1e-5))
        True
        """
        return q_factored(self.net, self.device, states, actions, which)

    def epsilon(self) -> float:
        """The exploration rate now (linear from ``epsilon_start`` to ``epsilon_end``)."""
        c = self.config
        f = min(1.0, self.frames / max(1, c.epsilon_frames))
        return c.epsilon_start + f * (c.epsilon_end - c.epsilon_start)

    def step(self) -> None:
        """One actor step at every table, then the learning steps the new samples allow."""
        t = self.tables
        assert t.offsets is not None and t.actions is not None and t.states is not None
        choice = act(self.net, self.device, self.config, t, self.epsilon(), self.rng)
        chosen = t.actions[t.offsets[:-1] + choice].astype(np.int8)
        states = t.states.astype(np.int8)
        seats = t.seats.tolist()
        for i in range(t.n):
            self.pending[i].append((states[i], chosen[i], seats[i]))
        rewards, ended, _ = t.step(choice)
        self.frames += t.n
        for i in np.flatnonzero(ended).tolist():
            records, self.pending[i] = self.pending[i], []
            self._store(np.stack([r[0] for r in records]), np.stack([r[1] for r in records]),
                        np.array([rewards[i, r[2]] for r in records], dtype=np.float32))  # fmt: skip
            self.deals += 1
        batch = self.config.batch
        while self.fresh >= batch and self.r_size >= batch:
            self.fresh -= batch
            self._update(batch)

    def _store(self, states: np.ndarray, actions: np.ndarray, targets: np.ndarray) -> None:
        """Keep samples in the replay, their targets (the deals' returns, in levels) put in the
        network's scale (``value_scale`` levels a score of 1)."""
        if self.config.value_scale != 1.0:
            targets = targets / np.float32(self.config.value_scale)
        cap = self.config.replay
        idx = (self.r_next + np.arange(len(targets))) % cap
        self.r_states[idx], self.r_actions[idx], self.r_targets[idx] = states, actions, targets
        self.r_next = (self.r_next + len(targets)) % cap
        self.r_size = min(cap, self.r_size + len(targets))
        self.fresh += len(targets)

    def _update(self, batch: int) -> None:
        idx = self.rng.integers(0, self.r_size, batch)
        rows = np.concatenate([self.r_states[idx], self.r_actions[idx]], axis=1).astype(np.float32)
        x = torch.from_numpy(rows).to(self.device)
        if self.net.extra:
            x = torch.cat([x, structure_torch(x)], dim=1)
        y = torch.from_numpy(self.r_targets[idx]).to(self.device)
        loss = nn.functional.mse_loss(self.net(x).reshape(-1), y)
        self.opt.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]
        self.opt.step()
        self.updates += 1
        self.losses.append(float(loss.detach()))

    def run(self, progress: Callable[[str], None] | None = None) -> dict[str, Any]:
        """Train until ``frames`` (or ``minutes`` of this call) is reached; a checkpoint
        (:meth:`checkpoint`) every ``eval_every`` frames and at the end; the summary.
        ``progress`` is told each checkpoint's line. The learner computes on one thread with
        torch's deterministic algorithms (:func:`one_thread`): the same run makes the same
        weights whatever the machine's cores."""
        with one_thread(self.device):
            return self._run(progress)

    def _run(self, progress: Callable[[str], None] | None) -> dict[str, Any]:
        c = self.config
        start = time.perf_counter()
        next_checkpoint = (self.frames // c.eval_every + 1) * c.eval_every if c.eval_every else None
        while not ((c.frames is not None and self.frames >= c.frames)
                   or (c.minutes is not None and time.perf_counter() - start >= 60 * c.minutes)):  # fmt: skip
            self.step()
            if next_checkpoint is not None and self.frames >= next_checkpoint:
                record = self.checkpoint()
                if progress:
                    progress(_eval_line(record))
                next_checkpoint += c.eval_every
        if c.eval_every:
            record = self.checkpoint()
            if progress:
                progress(_eval_line(record))
        else:
            self.save()
        return {"frames": self.frames, "deals": self.deals, "updates": self.updates,
                "wall": time.perf_counter() - start}  # fmt: skip

    def _plain(self) -> bool:
        """Whether the run's network and play are the plain ones (the numpy QNetwork's, over all
        legal actions, scores in levels), evaluated and exported as the numpy trainer's are."""
        c = self.config
        return not (c.structure or c.candidates or c.value_scale != 1.0)

    def qnetwork(self) -> QNetwork:
        """The network's weights as the numpy :class:`~guandan.rl.qnet.QNetwork` (for the
        evaluation and the export)."""
        linears = [m for m in self.net.layers if isinstance(m, nn.Linear)]
        qnet = QNetwork(self.net.hidden, seed=0)
        qnet.params = [a for m in linears for a in (m.weight.detach().cpu().numpy().T.copy(),
                                                    m.bias.detach().cpu().numpy().copy())]  # fmt: skip
        return qnet

    def checkpoint(self) -> dict[str, Any]:
        """Evaluate (as :mod:`guandan.rl.train` does: ``eval_deals`` seeded deals against
        ``random`` and ``greedy``, sides swapped), save the checkpoint, export ``model.onnx``
        and ``model-<frames>.onnx``, append the record to ``log.jsonl``; the record."""
        c = self.config
        record: dict[str, Any] = {
            "wall": round(self.wall(), 2), "frames": self.frames, "deals": self.deals, "updates": self.updates,
            "loss": float(np.mean(self.losses[-200:])) if self.losses else None, "epsilon": round(self.epsilon(), 4),
        }  # fmt: skip
        if c.eval_deals:
            plays = self.qnetwork() if self._plain() else lambda tables: act(self.net, self.device, c, tables)
            for opponent in ("random", "greedy"):
                record["vs_" + opponent] = evaluate(plays, opponent, c.eval_deals, c.eval_seed)
        self.save()
        try:
            self.export(os.path.join(self.out, "model.onnx"))
            self.export(os.path.join(self.out, f"model-{self.frames:010d}.onnx"))
        except ImportError:
            record["onnx"] = ("not exported: the onnx package is not installed "
                              "(pip install '.[train]' from the guandan checkout)")
        with open(os.path.join(self.out, "log.jsonl"), "a") as log:
            log.write(json.dumps(record) + "\n")
        return record

    # -- checkpoints, export --------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """Everything the run is (see the module's description), for :meth:`save`."""
        n = self.r_size
        return {
            "config": asdict(self.config),
            "net": self.net.state_dict(),
            "opt": self.opt.state_dict(),
            "numpy_rng": self.rng.bit_generator.state,
            "torch_rng": torch.get_rng_state(),
            **self._acting_state(),
            "replay": {"states": self.r_states[:n].copy(), "actions": self.r_actions[:n].copy(),
                       "targets": self.r_targets[:n].copy(), "next": self.r_next},  # fmt: skip
            "counters": {"frames": self.frames, "deals": self.deals, "updates": self.updates, "fresh": self.fresh,
                         "wall": self.wall()},  # fmt: skip
            "losses": list(self.losses),
        }

    def save(self) -> str:
        """Write the checkpoint (``out/checkpoint.pt``, replaced whole); its path."""
        path = os.path.join(self.out, CHECKPOINT)
        torch.save(self.state(), path + ".tmp")
        os.replace(path + ".tmp", path)
        return path

    @classmethod
    def resume(cls, out: str, device: str = "auto", frames: int | None = None, **options: Any) -> TorchTrainer:
        """The run checkpointed in ``out``, ready to go on (``frames``: a new frame budget;
        ``options``: a subclass's own)."""
        path = os.path.join(out, CHECKPOINT)
        if not os.path.isfile(path):
            raise GuandanError(f"no checkpoint to resume at {path!r}")
        s = torch.load(path, weights_only=False)
        config = TrainConfig(**{**s["config"], "hidden": tuple(s["config"]["hidden"])})
        if frames is not None:
            config.frames = frames
        t = cls(replace(config, init=None), out, device, **options)  # the weights are the checkpoint's
        t.config.init = config.init
        t.net.load_state_dict(s["net"])
        t.opt.load_state_dict(s["opt"])
        t.rng.bit_generator.state = s["numpy_rng"]
        torch.set_rng_state(s["torch_rng"])
        t._load_acting(s)
        r = s["replay"]
        n = len(r["targets"])
        t.r_states[:n], t.r_actions[:n], t.r_targets[:n] = r["states"], r["actions"], r["targets"]
        t.r_size, t.r_next = n, r["next"]
        counters = s["counters"]
        t.frames, t.deals, t.updates, t.fresh = (counters[k] for k in ("frames", "deals", "updates", "fresh"))
        t.losses = list(s["losses"])
        t.wall_before = float(counters.get("wall", 0.0))
        return t

    def export(self, path: str) -> None:
        """Write the network as ONNX for the ``onnx:`` agent: input ``rows`` ``(n, 567)``,
        output ``q`` ``(n, 1)``, ``n`` free. A plain run's is written by the exporter of
        :class:`~guandan.rl.qnet.QNetwork` (the graph the numpy trainer's models have); one
        with the structure, a value scale or a place prior by
        :func:`guandan.rl.distill.export_onnx`, with that metadata (the structure computed in
        the graph)."""
        if self._plain():
            self.qnetwork().to_onnx(path)
            return
        c = self.config
        prior = (c.temperature, c.place_bias) if c.candidates and c.place_bias is not None else None
        export_onnx(self.net, path, prior, value_scale=c.value_scale, candidates=c.candidates or None)
