"""Teaching a state value (:mod:`guandan.bots.state_value`) from a network's self-play.

Two steps, each one command:

* ``collect``: the shipped network (or ``--model FILE.onnx``) plays itself at ``--tables``
  vectorized tables (:class:`~guandan.rl.vector.VecTables`, levels drawn per deal); each deal
  departs from it once, by a search candidate drawn at random, and every later decision's
  whole deal state is kept with the levels the acting seat's side won in the end.
  Written in chunks of ``--chunk`` states (``states-000.npz``, ...); run again with the same
  command, it goes on from the chunks it finds (each chunk's tables seeded from the seed and
  the chunk's number), until ``--states`` are kept.
* ``train``: a network of two hidden layers (torch) fitted to those results by mean squared
  error, the last chunk held out; written as a state value file for ``mc:value=FILE``.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as out:
...     kept = collect(out, states=300, chunk=150, tables=8, seed=1)
...     value, report = train(out, os.path.join(out, "value.npz"), hidden=(8, 4), epochs=1, seed=0)
>>> kept >= 300, value.hidden, sorted(report)[:3]
(True, (8, 4), ['epochs', 'held_out', 'held_out_mse'])
"""

from __future__ import annotations

import argparse
import glob
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Literal

import numpy as np

from ..bots.network import SHIPPED_MODEL
from ..bots.state_value import VALUE_FEATURES, StateValue, state_arrays, value_features
from ..core.rng import derive_seed
from ..errors import GuandanError, check_int, check_number

__all__ = ["collect", "train", "load_chunks", "main"]

def _torch() -> Any:
    """torch, or a :class:`~guandan.errors.GuandanError` saying how to install it."""
    try:
        import torch
    except ImportError:
        raise GuandanError("collecting and training a state value need torch: pip install torch==2.13.0 "
                           "(the CPU build), then the train extra") from None  # fmt: skip
    return torch


Actor = Callable[[Any, np.ndarray], tuple[np.ndarray, np.ndarray]]
Exploration = Literal["decisions", "once"]


def _chunk_path(out: str, i: int) -> str:
    return os.path.join(out, f"states-{i:03d}.npz")


def _play_chunk(actor: Actor, tables: Any, size: int) -> dict[str, np.ndarray]:
    """Play until ``size`` decisions of deals that ended are kept; their arrays.

    ``actor(tables, open)`` returns each table's action and which tables departed from the
    network's own choice; ``open`` says which tables have not departed in their deal yet. A
    departure drops the deal's states until then (their results are not the network's play
    from them), the departing state with them."""
    n = tables.n
    pending: list[list[tuple[Any, ...]]] = [[] for _ in range(n)]
    kept: list[tuple[tuple[Any, ...], float]] = []
    still = np.ones(n, dtype=bool)  # no departure yet in the table's deal
    while len(kept) < size:
        for i in range(n):
            pending[i].append(tables.table(i).state)
        action, departed = actor(tables, still)
        for t in np.nonzero(departed)[0].tolist():
            pending[t] = []
        still &= ~departed
        rewards, ended, _ = tables.step(action)
        for t in np.nonzero(ended)[0].tolist():
            kept.extend((st, float(rewards[t, st[2]])) for st in pending[t])
            pending[t] = []
            still[t] = True
    arrays = state_arrays([st for st, _ in kept])
    arrays["target"] = np.array([result for _, result in kept], dtype=np.float32)
    return arrays


def _network_actor(model: str, tables: int, epsilon: float, seed: int, exploration: Exploration) -> Actor:
    """The ``net`` agent's choice at each table, batched (:func:`~guandan.rl.torch_train.act`:
    the model's score of each of the search's candidates, as many as the model was trained
    among, the highest played); with probability ``epsilon`` a candidate drawn uniformly
    instead (a generator of ``seed``). With ``exploration="once"`` only tables still open
    (the actor's second argument) draw, and the actor says which departed from the network's
    choice; with ``"decisions"`` every table draws and none counts as departed."""
    torch = _torch()
    from .dmc import TrainConfig
    from .structure import STRUCTURE_SIZE
    from .torch_train import TorchQNet, act, act_departing, one_thread, read_init, with_init

    init = read_init(model)
    config = with_init(TrainConfig(candidates=32, tables=tables, hidden=init.hidden, structure=init.structure), init)
    net = TorchQNet(config.hidden, seed=0, extra=STRUCTURE_SIZE if config.structure else 0)
    net.load_state_dict(init.weights)
    net.eval()
    device = torch.device("cpu")
    rng = np.random.default_rng(seed)

    def actor(t: Any, still: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        with torch.no_grad(), one_thread(device):  # one thread: the same choices run after run, and fast
            if exploration == "once":
                return act_departing(net, device, config, t, np.where(still, epsilon, 0.0), rng)
            return act(net, device, config, t, epsilon, rng), np.zeros(t.n, dtype=bool)

    return actor


def _worker_setup() -> None:
    """In a worker: Ctrl-C (the terminal's SIGINT to the whole process group) ends it at once;
    the chunk it was playing is not written, and the same command plays it again."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _make_chunk(job: tuple[str, int, int, int, int, str | None, float, Exploration]) -> tuple[int, int, float]:
    """Play and write chunk ``i`` of a collection (a worker's task): its index, states and seconds."""
    out, i, chunk, tables, seed, model, epsilon, exploration = job
    from .vector import VecTables

    started = time.perf_counter()
    actor = _network_actor(model or SHIPPED_MODEL, tables, epsilon, derive_seed(seed, i, 1), exploration)
    t = VecTables(tables, seed=derive_seed(seed, i), observe="rows", level=None)
    arrays = _play_chunk(actor, t, chunk)
    path = _chunk_path(out, i)
    with open(path + ".part", "wb") as f:
        np.savez(f, **arrays)  # type: ignore[arg-type]
    os.replace(path + ".part", path)
    return i, int(arrays["target"].shape[0]), time.perf_counter() - started


def collect(out: str, states: int, chunk: int = 500_000, tables: int = 256, seed: int = 0,
            model: str | None = None, epsilon: float = 0.1, workers: int = 1,
            progress: Callable[[str], None] | None = None, exploration: Exploration = "once") -> int:  # fmt: skip
    """Self-play of a network (``model``: an exported ``.onnx``; ``None``: the shipped
    ``net``) in ``ceil(states / chunk)`` chunks of at least ``chunk`` decisions (a chunk keeps
    whole deals) in ``out``, on ``workers`` processes; goes on from the chunks already there.
    Returns the states kept in all.

    With probability ``epsilon`` a decision plays one of the search's candidates drawn
    uniformly: the states a search's candidates lead to (a bomb spent early, a pair broken)
    are seen too, with what the network makes of them after.

    ``exploration`` says how: ``"once"`` (the default), a deal departs from the network at most
    once (each decision draws with probability ``epsilon`` until one departs) and only the
    states after the departure are kept (all of a deal without one); ``"decisions"``, every
    decision draws with probability ``epsilon`` and every state is kept. With ``"once"`` a
    state's result is the network's own play from it to the end, not blurred by draws to come:
    the value learns what the network makes of a state, a bomb spent early included.

    Chunk ``i``'s tables and draws are seeded from ``seed`` and ``i``: the same command gives
    the same chunks, however often it was stopped and whatever ``workers``.
    """
    check_int("states", states, 1, 10**10)
    check_int("chunk", chunk, 1, 10**8)
    check_int("tables", tables, 1, 4096)
    check_number("epsilon", epsilon, at_least=0, at_most=1)
    check_int("workers", workers, 1, 256)
    if exploration not in ("decisions", "once"):
        raise GuandanError(f"exploration must be 'decisions' or 'once', got {exploration!r}")
    os.makedirs(out, exist_ok=True)
    n = -(-states // chunk)
    kept = 0
    for i in range(n):
        if os.path.exists(_chunk_path(out, i)):
            with np.load(_chunk_path(out, i)) as data:
                kept += int(data["target"].shape[0])
    jobs = [(out, i, chunk, tables, seed, model, epsilon, exploration)
            for i in range(n) if not os.path.exists(_chunk_path(out, i))]  # fmt: skip

    def done(i: int, made: int, seconds: float) -> None:
        nonlocal kept
        kept += made
        if progress:
            progress(f"chunk {i}: {kept:,} states kept of {states:,} ({made / seconds:,.0f} a second)")

    if workers == 1 or len(jobs) <= 1:
        for job in jobs:
            done(*_make_chunk(job))
        return kept
    # spawned, not forked: a fork of a process that has run torch's thread pools can hang
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(min(workers, len(jobs)), mp_context=context, initializer=_worker_setup) as pool:
        for result in pool.map(_make_chunk, jobs):
            done(*result)
    return kept


def load_chunks(folders: str | list[str]) -> list[dict[str, np.ndarray]]:
    """The chunks ``collect`` wrote in each of ``folders``, in order, as
    :func:`value_features`' arrays plus ``target``."""
    paths = []
    for out in [folders] if isinstance(folders, str) else folders:
        found = sorted(glob.glob(os.path.join(out, "states-[0-9][0-9][0-9].npz")))
        if not found:
            raise GuandanError(f"no states-NNN.npz chunks in {out!r}: collect them first")
        paths += found
    chunks = []
    for path in paths:
        with np.load(path) as data:
            chunks.append({key: data[key] for key in data.files})
    return chunks


def _fit(net: Any, opt: Any, x: Any, y: Any, gen: Any, epochs: int, batch: int,
         progress: Callable[[str], None] | None) -> None:  # fmt: skip
    """Minimise the mean squared error of ``net(x)`` against ``y``, in shuffled batches."""
    import torch

    for epoch in range(epochs):
        order = torch.randperm(len(y), generator=gen)
        total = 0.0
        for start in range(0, len(y), batch):
            idx = order[start:start + batch]
            loss = ((net(x[idx])[:, 0] - y[idx]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(idx)
        if progress:
            progress(f"epoch {epoch + 1}/{epochs}: training mse {total / len(y):.4f}")


def train(data: str | list[str], path: str, hidden: tuple[int, int] = (256, 128), epochs: int = 4, batch: int = 4096,
          lr: float = 2e-3, seed: int = 0, plies: int = 24,
          progress: Callable[[str], None] | None = None) -> tuple[StateValue, dict[str, Any]]:  # fmt: skip
    """Fit a state value to the chunks in ``data`` (a folder or several; the last chunk held
    out when there are two or more), write it to ``path`` (with ``plies``, the rollout plies it suggests) and return it
    with a report: the held-out mean squared error and that of predicting the mean."""
    check_int("epochs", epochs, 1, 10_000)
    check_int("batch", batch, 1, 1 << 20)
    StateValue.random(hidden, plies=plies)  # the widths and plies checked before any work
    check_number("lr", lr, above=0, at_most=1)
    chunks = load_chunks(data)
    torch = _torch()
    nn = torch.nn
    held = chunks[-1:] if len(chunks) > 1 else []
    fit = chunks[:-1] if held else chunks
    x = np.concatenate([value_features(c) for c in fit])
    y = np.concatenate([c["target"] for c in fit]).astype(np.float32)
    torch.manual_seed(seed)
    a, b = hidden
    net = nn.Sequential(nn.Linear(VALUE_FEATURES, a), nn.ReLU(), nn.Linear(a, b), nn.ReLU(), nn.Linear(b, 1))
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    xt, yt = torch.from_numpy(x), torch.from_numpy(y)
    gen = torch.Generator().manual_seed(seed)
    from .torch_train import one_thread

    with one_thread(torch.device("cpu")):  # one thread, deterministic: the same file run after run
        _fit(net, opt, xt, yt, gen, epochs, batch, progress)
    linear = [m for m in net if isinstance(m, nn.Linear)]
    layers = [t for m in linear for t in (m.weight.T, m.bias)]
    value = StateValue([t.detach().numpy().copy() for t in layers], plies,
                       {"states": int(len(y)), "epochs": epochs, "seed": seed})  # fmt: skip
    report: dict[str, Any] = {"states": int(len(y)), "epochs": epochs, "held_out": 0}
    if held:
        hy = np.concatenate([c["target"] for c in held])
        pred = value.values({k: np.concatenate([c[k] for c in held]) for k in held[0]})
        report.update(held_out=int(len(hy)), held_out_mse=float(np.mean((pred - hy) ** 2)),
                      mean_mse=float(np.mean((hy - y.mean()) ** 2)))  # fmt: skip
    value.meta.update({k: v for k, v in report.items() if k != "epochs"})
    value.save(path)
    return value, report


DESCRIPTION = "Teach a state value from a network's self-play, for mc:value=FILE: collect, then train."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command's steps (``collect``, ``train``) and their options, added to ``parser``.

    >>> parser = argparse.ArgumentParser(); add_arguments(parser)
    >>> args = parser.parse_args(["train", "a", "b", "--out", "v.npz"])
    >>> args.step, args.data, args.hidden, args.plies
    ('train', ['a', 'b'], [256, 128], 24)
    """
    sub = parser.add_subparsers(dest="step", metavar="STEP", required=True)
    c = sub.add_parser("collect", help="self-play of a network, every decision's state and result kept")
    c.add_argument("--out", required=True, help="the directory of the chunks (made if missing)")
    c.add_argument("--states", type=int, default=4_000_000, help="states to keep in all (default 4,000,000)")
    c.add_argument("--chunk", type=int, default=500_000, help="states a chunk (default 500,000)")
    c.add_argument("--tables", type=int, default=256, help="tables played at once (default 256)")
    c.add_argument("--workers", type=int, default=1, help="processes, a chunk each at a time (default 1)")
    c.add_argument("--seed", type=int, default=0, help="the run seed (default 0)")
    c.add_argument("--model", default=None, help="an exported .onnx network (default: the shipped net)")
    c.add_argument("--epsilon", type=float, default=0.1,
                   help="the chance a decision plays a search candidate drawn uniformly (default 0.1)")
    c.add_argument("--exploration", choices=("decisions", "once"), default="once",
                   help="once: a deal departs from the network at most once, and only the states after it are "
                        "kept; decisions: every decision may draw, every state kept (default once)")
    t = sub.add_parser("train", help="fit a state value to collected states (needs torch: the train extra)")
    t.add_argument("data", nargs="+", help="directories of chunks (the last chunk held out)")
    t.add_argument("--out", required=True, help="the state value file to write (.npz)")
    t.add_argument("--hidden", type=int, nargs=2, default=[256, 128], metavar=("A", "B"),
                   help="the two hidden layers' widths (default 256 128)")
    t.add_argument("--epochs", type=int, default=4, help="passes over the states (default 4)")
    t.add_argument("--batch", type=int, default=4096, help="states a training step (default 4096)")
    t.add_argument("--lr", type=float, default=2e-3, help="Adam's learning rate (default 0.002)")
    t.add_argument("--plies", type=int, default=24,
                   help="the rollout plies before the value ends one, written in the file (default 24)")
    t.add_argument("--seed", type=int, default=0, help="the run seed (default 0)")


def run(args: argparse.Namespace, say: Callable[[str], None] = print) -> int:
    """Run the step the parsed options ``args`` name; the exit status. Refused options raise a
    :class:`~guandan.errors.GuandanError` naming them."""

    def progress(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    if args.step == "collect":
        kept = collect(args.out, args.states, args.chunk, args.tables, args.seed, args.model, args.epsilon,
                       args.workers, progress, args.exploration)  # fmt: skip
        say(f"{kept:,} states in {args.out}")
        return 0
    _, report = train(args.data, args.out, (args.hidden[0], args.hidden[1]), args.epochs, args.batch, args.lr,
                      seed=args.seed, plies=args.plies, progress=progress)  # fmt: skip
    numbers = (f"{k} {v:.4f}" if isinstance(v, float) else f"{k} {v:,}" for k, v in report.items())
    say(f"wrote {args.out}: " + ", ".join(numbers))
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m guandan.rl.state_value collect|train ...`` (``--help`` says more)."""
    parser = argparse.ArgumentParser(prog="python -m guandan.rl.state_value", description=DESCRIPTION)
    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        return run(args)
    except GuandanError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
