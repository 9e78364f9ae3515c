"""Training a network on ``mc``'s searched values (the ``train`` extra: torch), the second
step of :mod:`guandan.rl.expert`.

The network is :class:`~guandan.rl.torch_train.TorchQNet`, an MLP ``567 -> hidden... -> 1``
scoring each row (a decision's state and one legal action); with ``structure`` its first layer
also reads the structure the move leaves in the hand, computed from the row
(:mod:`guandan.rl.structure`: 25 features beside the 567), which the exported model computes
itself, so that it still takes the plain rows. A step takes ``batch`` decisions
of the positions (:func:`guandan.rl.expert.read_chunks`) and minimises

* the squared error between each searched action's score and its searched value (in levels,
  divided by 3: a score of 1 is a win with the partner second), each weighted ``r / (r +
  value_rollouts)`` by the rollouts ``r`` that judged it (a candidate of no rollout not at
  all) — with ``advantage``, of the differences between a decision's actions only (each
  decision's weighted mean taken off the scores and the values: a position's worth, noisy
  and the same for all its actions, left out), and
* ``policy_weight`` times the softmax cross-entropy, over each decision's rows, of
  the search's choice (the scores times ``temperature``'s inverse as the logits; with
  ``place_prior``, plus a learned bias of each action's place in the smart policy's order of
  the candidates, the ``order`` of the positions: the policy whose first choice alone beats
  ``greedy`` in most deals, the network learning where the search departs from it),

with ``torch.optim.Adam``. A decision's rows are its searched actions only (``legal=False``,
the default: the ones the ``net`` agent scores, a few dozen however many legal actions there
are) or every legal action (``legal=True``: the ``onnx:`` agent's way, the unsearched ones in
the cross-entropy only). The first layer is applied factored (the state's share once a
decision), as :meth:`guandan.rl.qnet.QNetwork.q_factored` does. The deals whose seed is a
multiple of ``hold_out_every`` are held out: after each epoch the log (``log.jsonl``) has
their loss and how often the network's best-scored action is the search's choice
(``agreement``). The checkpoint (``checkpoint.pt``:
the weights, the optimiser, the random generators, the epoch) is written after every epoch;
the same command run again goes on from it, and a run stopped and resumed ends with the same
weights as one never stopped. On the CPU a run trains on one torch thread with torch's
deterministic algorithms (:func:`one_thread`), so the same positions and options make the same
network run after run whatever the machine's cores (two threads round their parallel sums
differently from run to run; a CUDA device is not held to this). Each epoch exports
``model.onnx`` (input ``rows`` ``(n, 567)`` float32, output ``q`` ``(n, 1)``), the form the
``onnx:`` and ``net`` agents play; a run with ``place_prior`` writes the temperature and the
biases into the file's metadata, which the ``net`` agent adds to its scores
(:func:`guandan.bots.network.place_prior`).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

try:
    import torch
    from torch import nn
except ImportError as error:  # pragma: no cover
    raise ImportError(
        "guandan.rl.distill needs torch: pip install torch==2.13.0 (the CPU build), "
        "then '.[train]' from the guandan checkout"
    ) from error

from ..errors import GuandanError, describe
from ..game.encoding import ROW_SIZE, STATE_SIZE
from .structure import STRUCTURE_SIZE, structure_torch
from .torch_train import (
    PLACES,
    STRUCTURE_KEY,
    VALUE_SCALE,
    TorchQNet,
    _check_extra,
    _device,
    export_onnx,
    one_thread,
)

__all__ = ["DistillConfig", "Positions", "Distiller", "export_onnx", "factored_q", "one_thread", "searched_only",
           "VALUE_SCALE", "PLACES", "STRUCTURE_KEY"]  # fmt: skip

CHECKPOINT = "checkpoint.pt"


@dataclass
class DistillConfig:
    """What a training run is (all of it is in the checkpoint)."""

    hidden: tuple[int, ...] = (512, 256)
    epochs: int = 20
    batch: int = 256
    lr: float = 1e-3
    policy_weight: float = 1.0
    temperature: float = 0.1
    value_rollouts: float = 8.0
    legal: bool = False
    advantage: bool = False
    hold_out_every: int = 10
    seed: int = 0
    place_prior: bool = False
    structure: bool = False


class Positions:
    """Positions in memory (the arrays of :func:`guandan.rl.expert.read_chunks`), split into
    decisions to train on and decisions held out (their deal's seed a multiple of
    ``hold_out_every``; 0: none held out).

    >>> from guandan.rl.expert import deal_positions
    >>> p = Positions(deal_positions([3, 10], rollouts=40), hold_out_every=10)
    >>> len(p.train) > 0, len(p.held) > 0, len(p.train) + len(p.held) == len(p.chosen)
    (True, True, True)

    ``legal``: keep every legal action's row; else (the default) only the searched ones.
    """

    def __init__(self, arrays: dict[str, np.ndarray], hold_out_every: int = 10, legal: bool = False) -> None:
        if not legal:
            arrays = searched_only(arrays)
        self.states = np.asarray(arrays["states"], dtype=np.int8)
        self.actions = np.asarray(arrays["actions"], dtype=np.int8)
        self.offsets = np.asarray(arrays["offsets"], dtype=np.int64)
        self.values = np.asarray(arrays["values"], dtype=np.float32)
        self.rollouts = np.asarray(arrays["rollouts"], dtype=np.float32)
        self.chosen = np.asarray(arrays["chosen"], dtype=np.int64)
        order = np.asarray(arrays["order"], dtype=np.int64) if "order" in arrays else np.full(len(self.values), -1)
        self.place = np.where((order >= 0) & (order < PLACES), order, PLACES)
        seeds = np.asarray(arrays["seeds"], dtype=np.int64)
        if len(self.chosen) == 0:
            raise GuandanError("no positions to train on")
        held = seeds % hold_out_every == 0 if hold_out_every else np.zeros(len(seeds), dtype=bool)
        self.train = np.flatnonzero(~held)
        self.held = np.flatnonzero(held)

    def batch(
        self, decisions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The rows of some decisions factored: their states (float32 ``(d, 513)``) and the
        actions (float32 ``(n, 54)``), each action's decision (0 .. ``d - 1``), its target
        value (0 when not searched), the rollouts that judged it (0: not searched), each
        decision's chosen row (an index into the actions) and each action's place in the
        smart policy's order (``PLACES``: not among the candidates)."""
        starts, ends = self.offsets[decisions], self.offsets[decisions + 1]
        sizes = ends - starts
        owner = np.repeat(np.arange(len(decisions)), sizes)
        within = np.arange(int(sizes.sum())) - np.repeat(np.cumsum(sizes) - sizes, sizes)
        index = starts[owner] + within
        states = self.states[decisions].astype(np.float32)
        actions = self.actions[index].astype(np.float32)
        chosen = (np.cumsum(sizes) - sizes) + (self.chosen[decisions] - starts)
        rollouts = np.where(np.isfinite(self.values[index]), self.rollouts[index], 0).astype(np.float32)
        values = np.where(rollouts > 0, self.values[index], 0).astype(np.float32)
        return states, actions, owner, values, rollouts, chosen, self.place[index]


def searched_only(arrays: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Positions with each decision's searched actions only (a finite value of some rollouts).

    >>> from guandan.rl.expert import deal_positions
    >>> p = deal_positions([3], rollouts=40); s = searched_only(p)
    >>> len(s["chosen"]) == len(p["chosen"]), bool(np.isfinite(s["values"]).all()), len(s["values"]) < len(p["values"])
    (True, True, True)
    """
    values, rollouts = arrays["values"], arrays["rollouts"]
    keep = np.isfinite(values) & (rollouts > 0)
    keep[arrays["chosen"]] = True
    offsets = arrays["offsets"]
    kept = np.concatenate([[0], np.cumsum(keep)])  # kept rows before each row
    return {
        **arrays,
        "offsets": kept[offsets],
        "actions": arrays["actions"][keep],
        "values": values[keep],
        "rollouts": rollouts[keep],
        **({"order": arrays["order"][keep]} if "order" in arrays else {}),
        "chosen": kept[arrays["chosen"]],
    }


def factored_q(net: TorchQNet, states: torch.Tensor, actions: torch.Tensor, owner: torch.Tensor) -> torch.Tensor:
    """The network's scores ``(n,)`` of the rows ``[states[owner[j]], actions[j]]``, the first
    layer split: the state's share once a state (equal to the rows' scores up to rounding). A
    network with ``extra`` inputs reads the rows' structure there (:func:`structure_torch`).

    >>> net = TorchQNet((8,), seed=0, extra=STRUCTURE_SIZE)
    >>> states, actions = torch.zeros(1, 513), torch.eye(54)[:3]
    >>> rows = torch.cat([states.expand(3, 513), actions], dim=1)
    >>> full = net(torch.cat([rows, structure_torch(rows)], dim=1)).reshape(-1)
    >>> bool(torch.allclose(factored_q(net, states, actions, torch.zeros(3, dtype=torch.long)), full, atol=1e-6))
    True
    """
    first = net.layers[0]
    assert isinstance(first, nn.Linear)
    _check_extra(net)
    w = first.weight
    h = actions @ w[:, STATE_SIZE:ROW_SIZE].T + (states @ w[:, :STATE_SIZE].T + first.bias)[owner]
    if net.extra:
        rows = torch.cat([states[owner], actions], dim=1)
        h = h + structure_torch(rows) @ w[:, ROW_SIZE:].T
    out: torch.Tensor = net.layers[1:](h)
    return out.reshape(-1)


def _losses(
    q: torch.Tensor, owner: torch.Tensor, values: torch.Tensor, rollouts: torch.Tensor, chosen: torch.Tensor,
    decisions: int, temperature: float, value_rollouts: float, advantage: bool = False,
    prior: torch.Tensor | None = None,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:  # fmt: skip
    """The value loss, the policy loss, and whether each decision's best-scored row is the
    chosen one (scored by the logits: ``q / temperature``, plus ``prior`` of each row if given)."""
    weight = rollouts / (rollouts + value_rollouts)
    target = values / VALUE_SCALE
    if advantage:  # each decision's weighted mean taken off both: the differences between its actions
        total = torch.zeros(decisions, dtype=q.dtype).index_add(0, owner, weight).clamp(min=1e-9)
        q = q - (torch.zeros(decisions, dtype=q.dtype).index_add(0, owner, weight * q) / total)[owner]
        target = target - (torch.zeros(decisions, dtype=q.dtype).index_add(0, owner, weight * target) / total)[owner]
    value_loss = torch.sum(weight * (q - target) ** 2) / torch.clamp(torch.sum(weight), min=1e-9)
    logits = q / temperature if prior is None else q / temperature + prior
    top = torch.full((decisions,), -torch.inf, dtype=q.dtype).scatter_reduce(0, owner, logits, "amax")
    z = torch.zeros(decisions, dtype=q.dtype).index_add(0, owner, torch.exp(logits - top[owner]))
    policy_loss = torch.mean(torch.log(z) + top - logits[chosen])
    agree = logits[chosen] >= top
    return value_loss, policy_loss, agree


class Distiller:
    """A training run on positions writing to ``out`` (see the module's description).

    >>> import tempfile
    >>> from guandan.rl.expert import deal_positions
    >>> p = Positions(deal_positions([3, 10], rollouts=40))
    >>> with tempfile.TemporaryDirectory() as out:
    ...     record = Distiller(DistillConfig(hidden=(16,), epochs=2, batch=16), p, out, device="cpu").run()[-1]
    >>> record["epoch"], bool(0 <= record["held_agreement"] <= 1)
    (2, True)
    """

    def __init__(self, config: DistillConfig, positions: Positions, out: str, device: str = "auto") -> None:
        if not isinstance(config, DistillConfig):
            raise GuandanError(f"a DistillConfig, got {describe(config)}")
        self.config = c = config
        self.positions = positions
        self.out = out
        os.makedirs(out, exist_ok=True)
        self.device = _device(device)
        torch.manual_seed(c.seed)
        self.net = TorchQNet(tuple(c.hidden), seed=c.seed, extra=STRUCTURE_SIZE if c.structure else 0).to(self.device)
        # the place prior's biases (the last: rows not among the candidates); trained only with place_prior
        self.place_bias = nn.Parameter(torch.zeros(PLACES + 1, device=self.device))
        params = [*self.net.parameters(), self.place_bias] if c.place_prior else list(self.net.parameters())
        self.opt = torch.optim.Adam(params, lr=c.lr)
        self.rng = np.random.default_rng([c.seed, 2])
        self.epoch = 0
        self.wall = 0.0
        path = os.path.join(out, CHECKPOINT)
        if os.path.isfile(path):
            self._load(path)

    def _load(self, path: str) -> None:
        s = torch.load(path, weights_only=False)
        saved = {"place_prior": False, "structure": False, **s["config"]}  # from before these options: without
        saved.update(hidden=tuple(saved["hidden"]), epochs=self.config.epochs)
        if saved != {**asdict(self.config), "hidden": tuple(self.config.hidden)}:
            raise GuandanError(
                f"the checkpoint {path!r} is of another run ({s['config']}); use another output directory"
            )
        self.net.load_state_dict(s["net"])
        if "place_bias" in s:
            self.place_bias.data.copy_(s["place_bias"].to(self.device))
        self.opt.load_state_dict(s["opt"])
        self.rng.bit_generator.state = s["numpy_rng"]
        torch.set_rng_state(s["torch_rng"])
        self.epoch, self.wall = int(s["epoch"]), float(s["wall"])

    def save(self) -> str:
        """Write the checkpoint (replaced whole); its path."""
        path = os.path.join(self.out, CHECKPOINT)
        state = {"config": asdict(self.config), "net": self.net.state_dict(),
                 "place_bias": self.place_bias.detach().cpu(), "opt": self.opt.state_dict(),
                 "numpy_rng": self.rng.bit_generator.state, "torch_rng": torch.get_rng_state(),
                 "epoch": self.epoch, "wall": self.wall}  # fmt: skip
        torch.save(state, path + ".tmp")
        os.replace(path + ".tmp", path)
        return path

    def _tensors(self, decisions: np.ndarray) -> tuple[torch.Tensor, ...]:
        return tuple(torch.from_numpy(a).to(self.device) for a in self.positions.batch(decisions))

    def _prior(self, place: torch.Tensor) -> torch.Tensor | None:
        return self.place_bias[place] if self.config.place_prior else None

    def prior(self) -> tuple[float, np.ndarray] | None:
        """The temperature and the learned biases of the candidates' places (``None`` without
        ``place_prior``): what the exported model carries."""
        if not self.config.place_prior:
            return None
        return self.config.temperature, self.place_bias.detach().cpu().numpy()[:PLACES].copy()

    def train_epoch(self) -> dict[str, float]:
        """One pass over the training decisions in a random order; the mean losses."""
        c = self.config
        order = self.rng.permutation(self.positions.train)
        self.net.train()
        sums = np.zeros(3)
        steps = 0
        for k in range(0, len(order), c.batch):
            part = order[k : k + c.batch]
            states, actions, owner, values, rollouts, chosen, place = self._tensors(part)
            q = factored_q(self.net, states, actions, owner)
            value_loss, policy_loss, agree = _losses(q, owner, values, rollouts, chosen, len(part), c.temperature,
                                                     c.value_rollouts, c.advantage, self._prior(place))  # fmt: skip
            loss = value_loss + c.policy_weight * policy_loss
            self.opt.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            self.opt.step()
            sums += (value_loss.item(), policy_loss.item(), agree.float().mean().item())
            steps += 1
        value, policy, agreement = sums / max(1, steps)
        return {"value_loss": value, "policy_loss": policy, "agreement": agreement}

    def evaluate(self, decisions: np.ndarray) -> dict[str, float]:
        """The losses and the agreement with the search's choice on some decisions."""
        c = self.config
        self.net.eval()
        sums = np.zeros(3)
        n = 0
        with torch.no_grad():
            for k in range(0, len(decisions), 1024):
                part = decisions[k : k + 1024]
                states, actions, owner, values, rollouts, chosen, place = self._tensors(part)
                q = factored_q(self.net, states, actions, owner)
                value_loss, policy_loss, agree = _losses(q, owner, values, rollouts, chosen, len(part), c.temperature,
                                                         c.value_rollouts, c.advantage, self._prior(place))  # fmt: skip
                sums += (float(value_loss) * len(part), float(policy_loss) * len(part), float(agree.float().sum()))
                n += len(part)
        value, policy, agreement = sums / max(1, n)
        return {"value_loss": value, "policy_loss": policy, "agreement": agreement}

    def run(self, progress: Callable[[str], None] | None = None) -> list[dict[str, Any]]:
        """Train until ``epochs``: after each, the checkpoint, ``model.onnx`` and a line of
        ``log.jsonl``; the records of this call."""
        records = []
        with one_thread(self.device):  # the same network run after run, whatever the cores
            while self.epoch < self.config.epochs:
                start = time.perf_counter()
                train = self.train_epoch()
                self.epoch += 1
                self.wall += time.perf_counter() - start
                record: dict[str, Any] = {"epoch": self.epoch, "wall": round(self.wall, 1)}
                record.update({f"train_{k}": round(v, 5) for k, v in train.items()})
                if len(self.positions.held):
                    held = self.evaluate(self.positions.held)
                    record.update({f"held_{k}": round(v, 5) for k, v in held.items()})
                self.save()
                export_onnx(self.net, os.path.join(self.out, "model.onnx"), self.prior(), candidates=PLACES)
                with open(os.path.join(self.out, "log.jsonl"), "a") as log:
                    log.write(json.dumps(record) + "\n")
                records.append(record)
                if progress:
                    progress(json.dumps(record))
        return records
