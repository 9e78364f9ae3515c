"""Deep Monte Carlo on Ray (the ``train`` extra): actor processes step the vectorized tables
with the latest weights and send their samples to the torch learner, which trains and
publishes new weights.

**Actors.** ``actors`` Ray actors (:class:`TableActor`, one CPU each) each own ``tables``
vectorized tables (:class:`~guandan.rl.vector.VecTables`, the four seats the learner's) and a
copy of the network on the CPU (torch, one thread). A call (:meth:`TableActor.play`) makes
``steps`` steps at every table, each table's action the best of the copy's Q-values (with
``candidates``, the best-scored of the search's candidates:
:func:`~guandan.rl.torch_train.act`) or, with the learner's epsilon at the call, a uniformly
drawn one, and returns the 567-value rows of the
decisions whose deal ended, each with its deal's return for the seat that made it (the same
samples as :class:`~guandan.rl.torch_train.TorchTrainer`'s), with the actor's time by part.

**The learner** (:class:`RayTrainer`, in the driver: a :class:`~guandan.rl.torch_train.TorchTrainer`
without tables of its own) takes the actors' batches, stores them in its replay and makes one
learning step a ``batch`` new samples; after a batch that changed the network it puts the
weights in Ray's object store once, tagged with a version, and each actor's next call carries
the reference and the version (an actor reads the weights only when the version changed).

**Bounded.** The learner asks: every actor has at most one call in flight, and its next call
is made only when the learner has taken the last one's samples, so an actor waits when the
learner is behind; what a peer can fill is bounded by ``actors`` batches of ``steps *
tables`` decisions (and the decisions of the deals those began).

**Order.** ``order="round-robin"`` (the default) takes the actors' batches in turn, 0, 1, ...,
waiting for the next in turn even when another is ready: with the same seed and the same
number of actors the run is the same (the same weights at the same frame), since what each
call carries depends on the batches taken before it only. ``order="ready"`` takes whichever
batch is ready first: faster when actors differ in speed (a cluster's mixed machines), not
reproducible (the interleaving of the actors' batches depends on timing). Other numbers of
actors make other runs: actor ``i``'s tables are seeded ``derive_seed(seed, i, 2)``, its
exploration draws from ``numpy.random.default_rng([seed, 2, i])``.

**Checkpoints** (``checkpoint.pt``) hold the learner's whole state (as
:class:`~guandan.rl.torch_train.TorchTrainer`'s) and each actor's: its tables, its decisions
waiting for their deal's end and its generator. Before a checkpoint the learner takes every
batch in flight (in turn), so a checkpoint is a point where no actor is busy; a run stopped
there and resumed by the same command makes the same weights as one never stopped (with
``round-robin``). Resumed with more actors than the checkpoint holds, the new actors start from
fresh seeded tables; with fewer, the checkpoint's other actors are left out (their waiting
decisions lost).

**Ray** starts locally by default (:func:`start_ray`: ``num_cpus`` the number of actors, no
dashboard, the workers' logs not sent to the driver); ``address`` joins an existing cluster
(``"auto"``, ``HOST:PORT`` or ``ray://HOST:PORT``), checked to answer first, so an unreachable
address is a clear error instead of Ray's minutes of retries.

Command: ``python -m guandan.rl.train --backend torch --actors N --out DIR ...``.
"""

from __future__ import annotations

import os
import socket
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

try:
    import ray
    import torch
except ImportError as error:  # pragma: no cover
    raise ImportError(
        "guandan.rl.ray_train needs torch and ray: pip install torch==2.13.0 (the CPU build), "
        "then '.[train]' from the guandan checkout"
    ) from error

from ..core.rng import derive_seed
from ..errors import GuandanError, check_choice, check_int, describe
from .dmc import TrainConfig, _eval_line, deal_samples, keep_decisions
from .structure import STRUCTURE_SIZE
from .torch_train import CHECKPOINT, TorchQNet, TorchTrainer, _pending_arrays, _pending_bytes, act, one_thread
from .vector import VecTables

__all__ = ["TableActor", "RayTrainer", "start_ray", "check_address", "ORDERS"]

#: How the learner takes the actors' batches (see the module's description).
ORDERS = ("round-robin", "ready")


class TableActor:
    """An actor: ``config.tables`` tables and the network's copy (see the module's
    description), actor number ``index`` of its run. Made as a Ray actor by
    :class:`RayTrainer`; a plain object here.

    >>> actor = TableActor(TrainConfig(tables=2, hidden=(8,)), index=0)
    >>> weights = TorchQNet((8,), seed=0).state_dict()
    >>> out = actor.play([weights], 1, 0.1, 3)
    >>> out["frames"], out["version"], out["states"].shape[1], sorted(out["seconds"])
    (6, 1, 513, ['engine', 'inference', 'samples'])
    """

    def __init__(self, config: TrainConfig, index: int, state: dict[str, Any] | None = None) -> None:
        torch.set_num_threads(1)
        c = self.config = config
        self.index = index
        self.net = TorchQNet(c.hidden, seed=c.seed, extra=STRUCTURE_SIZE if c.structure else 0)
        self.device = torch.device("cpu")
        self.version = -1
        seed = derive_seed(c.seed, index, 2)
        self.tables = VecTables(c.tables, seed=seed, observe="rows", level=c.level, objective=c.objective)  # type: ignore[arg-type]
        self.rng = np.random.default_rng([c.seed, 2, index])
        self.pending: list[list[tuple[np.ndarray, np.ndarray, int]]] = [[] for _ in range(c.tables)]
        if state is not None:
            self.tables.set_state(state["tables"])
            self.pending = _pending_arrays(state["pending"])
            self.rng.bit_generator.state = state["rng"]

    def play(self, weights: list[Any], version: int, epsilon: float, steps: int) -> dict[str, Any]:
        """``steps`` steps at every table with the weights of ``version`` (``weights[0]``: the
        state dict, or a Ray reference to it, read only when the version is new) and
        ``epsilon``; the samples of the deals that ended (``states`` int8 ``(k, 513)``,
        ``actions`` int8 ``(k, 54)``, ``targets`` float32 ``(k,)``), ``frames``, ``deals``,
        ``version`` and the seconds spent by part (``engine``: the C tables' steps and
        observations; ``inference``: the network's Q-values and the choice; ``samples``: the
        decisions kept and the deals' samples made)."""
        if version != self.version:
            w = weights[0]
            self.net.load_state_dict(ray.get(w) if isinstance(w, ray.ObjectRef) else w)
            self.version = version
        t = self.tables
        seconds = {"engine": 0.0, "inference": 0.0, "samples": 0.0}
        out_s: list[np.ndarray] = []
        out_a: list[np.ndarray] = []
        out_t: list[np.ndarray] = []
        deals = 0
        for _ in range(steps):
            assert t.offsets is not None and t.actions is not None and t.states is not None
            t0 = time.perf_counter()
            choice = act(self.net, self.device, self.config, t, epsilon, self.rng)
            t1 = time.perf_counter()
            keep_decisions(self.pending, t, choice)
            t2 = time.perf_counter()
            rewards, ended, _ = t.step(choice)
            t3 = time.perf_counter()
            for i in np.flatnonzero(ended).tolist():
                records, self.pending[i] = self.pending[i], []
                states, actions, targets = deal_samples(records, rewards[i])
                out_s.append(states)
                out_a.append(actions)
                out_t.append(targets)
                deals += 1
            t4 = time.perf_counter()
            seconds["inference"] += t1 - t0
            seconds["engine"] += t3 - t2
            seconds["samples"] += (t2 - t1) + (t4 - t3)
        return {
            "states": np.concatenate(out_s) if out_s else np.zeros((0, 513), np.int8),
            "actions": np.concatenate(out_a) if out_a else np.zeros((0, 54), np.int8),
            "targets": np.concatenate(out_t) if out_t else np.zeros(0, np.float32),
            "frames": steps * t.n, "deals": deals, "version": version, "seconds": seconds,
        }  # fmt: skip

    def state(self) -> dict[str, Any]:
        """The actor's state for a checkpoint: its tables, waiting decisions and generator."""
        return {"tables": self.tables.get_state(), "pending": _pending_bytes(self.pending),
                "rng": self.rng.bit_generator.state}  # fmt: skip


def check_address(address: str, timeout: float = 5.0) -> None:
    """Raise :class:`~guandan.GuandanError` unless ``address`` names a Ray cluster's head
    that answers: ``"auto"`` (a cluster on this machine: Ray finds it), ``HOST:PORT`` or
    ``ray://HOST:PORT`` (a TCP connection within ``timeout`` seconds).

    >>> check_address("nowhere")
    Traceback (most recent call last):
    ...
    guandan.errors.GuandanError: a Ray address is 'auto', HOST:PORT or ray://HOST:PORT, got 'nowhere'
    """
    if address == "auto":
        return
    rest = address[len("ray://") :] if address.startswith("ray://") else address
    host, _, port = rest.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise GuandanError(f"a Ray address is 'auto', HOST:PORT or ray://HOST:PORT, got {describe(address)}")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except OSError as error:
        raise GuandanError(f"no Ray cluster answers at {address} ({error.strerror or error})") from None


def start_ray(actors: int, address: str | None = None) -> bool:
    """Start Ray for ``actors`` actors, or join the cluster at ``address``; ``False`` when Ray
    was already started in this process (then it is used as it is). Local: ``num_cpus`` the
    number of actors (at least 1), no dashboard, the workers' logs kept out of the driver's."""
    if address is not None:
        check_address(address)
    if ray.is_initialized():
        return False
    if address is not None:
        try:
            ray.init(address=address, include_dashboard=False, log_to_driver=False)
        except (ConnectionError, RuntimeError) as error:
            raise GuandanError(f"could not join a Ray cluster at {address}: {str(error).splitlines()[0]}") from None
    else:
        ray.init(num_cpus=max(1, actors), include_dashboard=False, log_to_driver=False)
    return True


def _check(actors: object, order: object, steps: object) -> tuple[int, str, int]:
    actors = check_int("the number of actors", actors, 1)
    check_choice("order", order, ORDERS, f"one of {', '.join(ORDERS)}")
    steps = check_int("steps (an actor's steps a batch)", steps, 1)
    return actors, str(order), steps


class RayTrainer(TorchTrainer):
    """The learner of a run on Ray (see the module's description), writing to ``out``;
    Ray started (:func:`start_ray`). ``actors``: the number of actors; ``order``:
    ``"round-robin"`` or ``"ready"``; ``steps``: an actor's steps a batch."""

    def __init__(self, config: TrainConfig, out: str, device: str = "auto", *, actors: int = 1,
                 order: str = "round-robin", steps: int = 16) -> None:  # fmt: skip
        self.n_actors, self.order, self.steps = _check(actors, order, steps)
        super().__init__(config, out, device)
        self.config.extra = {**self.config.extra, "actors": self.n_actors, "order": self.order, "steps": self.steps}
        self.actor_states: list[dict[str, Any] | None] = [None] * self.n_actors
        self.version = 0
        self.seconds: dict[str, float] = {"engine": 0.0, "inference": 0.0, "samples": 0.0, "learn": 0.0,
                                          "wait": 0.0}  # fmt: skip
        self._actors: list[Any] = []
        self._inflight: dict[int, Any] = {}
        self._turn = 0
        self._weights: Any = None

    # -- no tables in the learner: the actors act --------------------------------------------------

    def _init_acting(self) -> None:
        pass

    def _acting_state(self) -> dict[str, Any]:
        return {"actors": [self._actor_state(i) for i in range(self.n_actors)],
                "ray": {"version": self.version, "seconds": dict(self.seconds)}}  # fmt: skip

    def _load_acting(self, s: dict[str, Any]) -> None:
        saved = s.get("actors")
        if saved is None:
            print("the checkpoint has no actors (a run without Ray): the actors start from fresh seeded tables",
                  file=sys.stderr)  # fmt: skip
            return
        self.actor_states = [saved[i] if i < len(saved) else None for i in range(self.n_actors)]
        if len(saved) != self.n_actors:
            print(f"the checkpoint holds {len(saved)} actors, this run has {self.n_actors}: "
                  f"{'actors beyond the first ' + str(len(saved)) + ' start fresh' if self.n_actors > len(saved) else 'the others are left out'}",  # noqa: E501
                  file=sys.stderr)  # fmt: skip
        self.seconds.update(s["ray"]["seconds"])
        self.version = int(s["ray"]["version"])

    def _actor_state(self, i: int) -> dict[str, Any] | None:
        if i < len(self._actors):
            assert i not in self._inflight, "a checkpoint is taken with no batch in flight"
            state: dict[str, Any] = ray.get(self._actors[i].state.remote())
            return state
        return self.actor_states[i]

    @classmethod
    def resume(cls, out: str, device: str = "auto", frames: int | None = None, **options: Any) -> RayTrainer:
        """The run checkpointed in ``out``, ready to go on (``frames``: a new frame budget;
        ``actors``, ``order``, ``steps``: the checkpoint's unless given)."""
        path = os.path.join(out, CHECKPOINT)
        if os.path.isfile(path):
            extra = torch.load(path, weights_only=False)["config"].get("extra", {})
            for key in ("actors", "order", "steps"):
                if options.get(key) is None and key in extra:
                    options[key] = extra[key]
        t = super().resume(out, device, frames, **{k: v for k, v in options.items() if v is not None})
        assert isinstance(t, RayTrainer)
        return t

    # -- the loop ------------------------------------------------------------------------------

    def _start_actors(self) -> None:
        if self._actors:
            return
        remote = ray.remote(num_cpus=1)(TableActor)
        self._actors = [remote.remote(self.config, i, self.actor_states[i]) for i in range(self.n_actors)]
        self._publish()

    def _publish(self) -> None:
        weights = {k: v.detach().cpu().clone() for k, v in self.net.state_dict().items()}
        self._weights = ray.put(weights)
        self.version += 1

    def _submit(self, i: int) -> None:
        self._inflight[i] = self._actors[i].play.remote([self._weights], self.version, self.epsilon(), self.steps)

    def _take(self) -> dict[str, Any]:
        """The next batch (in turn, or the first ready), taken from its actor."""
        t0 = time.perf_counter()
        if self.order == "round-robin":
            i = self._turn
            self._turn = (self._turn + 1) % self.n_actors
        else:
            ready, _ = ray.wait(list(self._inflight.values()), num_returns=1)
            i = next(k for k, ref in self._inflight.items() if ref == ready[0])
        out: dict[str, Any] = ray.get(self._inflight.pop(i))
        self.seconds["wait"] += time.perf_counter() - t0
        return out

    def _ingest(self, out: dict[str, Any]) -> None:
        t0 = time.perf_counter()
        if len(out["targets"]):
            self._store(out["states"], out["actions"], out["targets"])
        self.frames += out["frames"]
        self.deals += out["deals"]
        for k, v in out["seconds"].items():
            self.seconds[k] += v
        batch, before = self.config.batch, self.updates
        while self.fresh >= batch and self.r_size >= batch:
            self.fresh -= batch
            self._update(batch)
        if self.updates != before:
            self._publish()
        self.seconds["learn"] += time.perf_counter() - t0

    def _drain(self) -> None:
        """Take every batch in flight (in turn), so that no actor is busy."""
        if self.order == "round-robin":
            while self._inflight:
                if self._turn in self._inflight:
                    self._ingest(self._take())
                else:
                    self._turn = (self._turn + 1) % self.n_actors
        else:
            while self._inflight:
                self._ingest(self._take())
        self._turn = 0

    def run(self, progress: Callable[[str], None] | None = None) -> dict[str, Any]:
        """Train until ``frames`` (or ``minutes`` of this call) is reached; a checkpoint every
        ``eval_every`` frames and at the end (each after the batches in flight are taken);
        the summary, with the actors' and the learner's seconds by part. The learner computes
        on one thread with torch's deterministic algorithms (:func:`~guandan.rl.torch_train.one_thread`)."""
        with one_thread(self.device):
            return self._run(progress)

    def _run(self, progress: Callable[[str], None] | None) -> dict[str, Any]:
        c = self.config
        start = time.perf_counter()
        self._start_actors()
        next_checkpoint = (self.frames // c.eval_every + 1) * c.eval_every if c.eval_every else None
        checkpointed = -1
        last_say = time.perf_counter()
        while not ((c.frames is not None and self.frames >= c.frames)
                   or (c.minutes is not None and time.perf_counter() - start >= 60 * c.minutes)):  # fmt: skip
            for i in range(self.n_actors):
                if i not in self._inflight:
                    self._submit(i)
            self._ingest(self._take())
            if next_checkpoint is not None and self.frames >= next_checkpoint:
                self._drain()
                record = self.checkpoint()
                checkpointed = self.frames
                if progress:
                    progress(_eval_line(record))
                while next_checkpoint <= self.frames:
                    next_checkpoint += c.eval_every
            if progress and time.perf_counter() - last_say >= 10:
                last_say = time.perf_counter()
                progress(self.progress_line(time.perf_counter() - start))
        self._drain()
        if c.eval_every and checkpointed != self.frames:
            record = self.checkpoint()
            if progress:
                progress(_eval_line(record))
        elif not c.eval_every:
            self.save()
        return {"frames": self.frames, "deals": self.deals, "updates": self.updates,
                "wall": time.perf_counter() - start, "seconds": dict(self.seconds)}  # fmt: skip

    def progress_line(self, wall: float) -> str:
        """A line on the run so far: frames, the learner's share of the wall time, the
        actors' time by part."""
        s = self.seconds
        acting = s["engine"] + s["inference"] + s["samples"]
        share = {k: s[k] / acting if acting else 0.0 for k in ("engine", "inference", "samples")}
        return (f"[{self.wall() / 60:6.1f} min] frames {self.frames:,} deals {self.deals:,} updates {self.updates:,} "
                f"weights v{self.version} eps {self.epsilon():.3f} | learner busy {s['learn'] / max(wall, 1e-9):.0%} "
                f"| actors: engine {share['engine']:.0%} inference {share['inference']:.0%} "
                f"samples {share['samples']:.0%}")  # fmt: skip

    def stop(self) -> None:
        """End the actors (Ray itself stays up)."""
        for actor in self._actors:
            ray.kill(actor)
        self._actors, self._inflight = [], {}
