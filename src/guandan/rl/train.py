"""Deep Monte Carlo training (the DanZero method) of a Q-network over the 567-value rows, on CPU.

Self-play actors at ``tables`` vectorized tables (:class:`~guandan.rl.vector.VecTables`, the
four seats the learner's) score every legal card-level action of each decision with the
network and play the best, or with probability epsilon a uniformly drawn one; each decision's
row ``[state; action]`` is kept until its deal ends, then regressed (mean squared error, Adam)
on the deal's return for the seat that made it: the levels its side gained or lost (its
Monte Carlo return, undiscounted: a deal's only reward is at its end). The network is the
plain-numpy :class:`~guandan.rl.qnet.QNetwork`; no framework is needed.

Every ``eval_every`` frames (decisions) the greedy network plays ``eval_deals`` seeded deals
against ``random`` and against ``greedy`` with sides swapped (the same deals twice, the
learner on seats 0 and 2, then on 1 and 3), played in the core; the result goes to
``log.jsonl``, a checkpoint (``checkpoint.npz``) and the ONNX export (``model.onnx``, and
``model-<frames>.onnx``) to the output directory. :func:`plot_curve` draws the learning
curve (the ``plot`` extra).

The same seed gives the same training run (the same weights at the same frame; run with one
BLAS thread, ``OPENBLAS_NUM_THREADS=1``, as the results of a threaded matrix product may
differ in the last bits); a wall-time budget only decides where it stops.

Command: ``python -m guandan.rl.train --out DIR --minutes 30`` (``--help`` lists the options);
``docs/training.md`` walks through it.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as out:
...     trainer = Trainer(TrainConfig(tables=8, hidden=(8,), batch=32, frames=1500, eval_every=0), out)
...     summary = trainer.run(progress=False)
>>> summary["frames"] >= 1500, summary["deals"] > 0, summary["updates"] > 0
(True, True, True)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict
from typing import Any

import numpy as np

from ..errors import GuandanError, describe
from ..game.encoding import ACTION_SIZE, STATE_SIZE
from .dmc import TrainConfig, _eval_line, choose_actions, deal_samples, evaluate, keep_decisions
from .qnet import Adam, QNetwork
from .vector import VecTables

__all__ = ["Trainer", "curve_title", "plot_curve", "main", "summary_text"]


class Trainer:
    """A deep Monte Carlo training run (see the module's description) writing to ``out``."""

    def __init__(self, config: TrainConfig, out: str) -> None:
        if not isinstance(config, TrainConfig):
            raise GuandanError(f"a TrainConfig, got {describe(config)}")
        torch_only = [name for name, plain in (("init", None), ("candidates", 0), ("structure", False),
                                               ("value_scale", 1.0), ("place_bias", None))
                      if getattr(config, name) != plain]  # fmt: skip
        if torch_only:
            raise GuandanError(f"{', '.join(torch_only)}: options of the torch learner "
                               f"(guandan.rl.torch_train.TorchTrainer, --backend torch)")  # fmt: skip
        self.config = c = config
        self.out = out
        os.makedirs(out, exist_ok=True)
        self.net = QNetwork(c.hidden, seed=c.seed)
        self.opt = Adam(self.net.params, lr=c.lr)
        self.rng = np.random.default_rng([c.seed, 1])
        self.tables = VecTables(c.tables, seed=c.seed, observe="rows", level=c.level, objective=c.objective)  # type: ignore[arg-type]
        n = c.tables
        self.pending: list[list[tuple[np.ndarray, np.ndarray, int]]] = [[] for _ in range(n)]
        self.r_states = np.zeros((c.replay, STATE_SIZE), dtype=np.int8)
        self.r_actions = np.zeros((c.replay, ACTION_SIZE), dtype=np.int8)
        self.r_targets = np.zeros(c.replay, dtype=np.float32)
        self.r_size = 0
        self.r_next = 0
        self.frames = 0
        self.deals = 0
        self.updates = 0
        self.fresh = 0
        self.losses: list[float] = []
        self.seconds = {"engine": 0.0, "network": 0.0, "learn": 0.0, "eval": 0.0}
        self.started = time.perf_counter()

    def epsilon(self) -> float:
        """The exploration rate now (linear from ``epsilon_start`` to ``epsilon_end``)."""
        c = self.config
        f = min(1.0, self.frames / max(1, c.epsilon_frames))
        return c.epsilon_start + f * (c.epsilon_end - c.epsilon_start)

    def _store(self, states: np.ndarray, actions: np.ndarray, targets: np.ndarray) -> None:
        cap = self.config.replay
        k = len(targets)
        idx = (self.r_next + np.arange(k)) % cap
        self.r_states[idx] = states
        self.r_actions[idx] = actions
        self.r_targets[idx] = targets
        self.r_next = (self.r_next + k) % cap
        self.r_size = min(cap, self.r_size + k)
        self.fresh += k

    def step(self) -> None:
        """One actor step at every table, then the learner's updates the new samples allow."""
        t = self.tables
        t0 = time.perf_counter()
        assert t.offsets is not None and t.actions is not None and t.states is not None
        choice = choose_actions(self.net, t.states, t.actions, t.offsets, self.epsilon(), self.rng)
        keep_decisions(self.pending, t, choice)
        t1 = time.perf_counter()
        rewards, ended, _ = t.step(choice)
        t2 = time.perf_counter()
        self.frames += t.n
        for i in np.flatnonzero(ended).tolist():
            records, self.pending[i] = self.pending[i], []
            self._store(*deal_samples(records, rewards[i]))
            self.deals += 1
        self.seconds["network"] += t1 - t0
        self.seconds["engine"] += t2 - t1
        batch = self.config.batch
        while self.fresh >= batch and self.r_size >= batch:
            self.fresh -= batch
            self._update(batch)
        self.seconds["learn"] += time.perf_counter() - t2

    def _update(self, batch: int) -> None:
        idx = self.rng.integers(0, self.r_size, batch)
        rows = np.concatenate([self.r_states[idx], self.r_actions[idx]], axis=1).astype(np.float32)
        loss, grads = self.net.loss_and_grads(rows, self.r_targets[idx])
        self.opt.step(grads)
        self.updates += 1
        self.losses.append(loss)

    def wall(self) -> float:
        """Seconds since the run started."""
        return time.perf_counter() - self.started

    def checkpoint(self) -> dict[str, Any]:
        """Evaluate, log, save the checkpoint and the ONNX export; the log record."""
        c = self.config
        t0 = time.perf_counter()
        record: dict[str, Any] = {
            "wall": round(self.wall(), 2),
            "frames": self.frames,
            "deals": self.deals,
            "updates": self.updates,
            "loss": float(np.mean(self.losses[-200:])) if self.losses else None,
            "epsilon": round(self.epsilon(), 4),
            "seconds": {k: round(v, 2) for k, v in self.seconds.items()},
        }
        if c.eval_deals:
            for opponent in ("random", "greedy"):
                record["vs_" + opponent] = evaluate(self.net, opponent, c.eval_deals, c.eval_seed)
        np.savez(os.path.join(self.out, "checkpoint.npz"), **self.net.state(), frames=self.frames, deals=self.deals)
        try:
            self.net.to_onnx(os.path.join(self.out, "model.onnx"))
            self.net.to_onnx(os.path.join(self.out, f"model-{self.frames:010d}.onnx"))
        except ImportError:
            record["onnx"] = (
                "not exported: the onnx package is not installed (pip install '.[rl]' from the guandan checkout)"
            )
        self.seconds["eval"] += time.perf_counter() - t0
        with open(os.path.join(self.out, "log.jsonl"), "a") as log:
            log.write(json.dumps(record) + "\n")
        return record

    def run(self, progress: bool | Callable[[str], None] = True) -> dict[str, Any]:
        """Train until ``frames`` or ``minutes`` is reached (checkpoints on the way); the summary."""
        c = self.config
        say: Callable[[str], None] = (
            progress if callable(progress) else (lambda s: print(s, file=sys.stderr, flush=True)) if progress
            else (lambda s: None)
        )  # fmt: skip
        with open(os.path.join(self.out, "config.json"), "w") as f:
            json.dump(asdict(c), f, indent=1)
        next_eval = 0
        last_say = 0.0
        evaluated = -1
        while True:
            if c.eval_every and self.frames >= next_eval:
                record = self.checkpoint()
                evaluated = self.frames
                next_eval += c.eval_every
                say(_eval_line(record))
            if (c.frames is not None and self.frames >= c.frames) or (
                c.minutes is not None and self.wall() >= 60 * c.minutes
            ):
                break
            self.step()
            if self.wall() - last_say >= 10:
                last_say = self.wall()
                say(self._progress_line())
        if c.eval_every and evaluated != self.frames:
            say(_eval_line(self.checkpoint()))
        else:
            np.savez(os.path.join(self.out, "checkpoint.npz"), **self.net.state(), frames=self.frames)
        return {"frames": self.frames, "deals": self.deals, "updates": self.updates, "wall": self.wall(),
                "seconds": dict(self.seconds)}  # fmt: skip

    def _progress_line(self) -> str:
        wall = self.wall()
        s = self.seconds
        loss = np.mean(self.losses[-200:]) if self.losses else float("nan")
        return (
            f"[{wall / 60:6.1f} min] frames {self.frames:,} deals {self.deals:,} updates {self.updates:,} "
            f"fps {self.frames / max(wall - s['eval'], 1e-9):,.0f} loss {loss:.3f} eps {self.epsilon():.3f} | "
            f"engine {s['engine']:.0f}s network {s['network']:.0f}s learn {s['learn']:.0f}s eval {s['eval']:.0f}s"
        )


def curve_title(log: str) -> str:
    """The title of a run's learning curve, from the ``config.json`` beside its log: how it
    was trained (in one process, or by how many actors on Ray).

    >>> import os, tempfile
    >>> out = tempfile.mkdtemp()
    >>> with open(os.path.join(out, "config.json"), "w") as f:
    ...     _ = f.write('{"extra": {"actors": 2}}')
    >>> curve_title(os.path.join(out, "log.jsonl"))
    'Deep Monte Carlo self-play: 2 actors on Ray and a learner'
    """
    try:
        with open(os.path.join(os.path.dirname(log), "config.json")) as f:
            actors = int(json.load(f).get("extra", {}).get("actors", 0))
    except (OSError, ValueError, TypeError, AttributeError):
        actors = 0
    if actors:
        return f"Deep Monte Carlo self-play: {actors} actor{'s' if actors > 1 else ''} on Ray and a learner"
    return "Deep Monte Carlo self-play in one process"


def plot_curve(log: str, png: str, title: str | None = None) -> None:
    """Draw a run's learning curve (deals won against ``random`` and ``greedy`` by training
    wall time, 95% Wilson intervals) from its ``log.jsonl`` into a PNG (matplotlib: the
    ``plot`` extra); ``title`` by default :func:`curve_title`'s."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with open(log) as f:
        records = [json.loads(line) for line in f if line.strip()]
    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=110)
    for opponent, color in (("random", "tab:blue"), ("greedy", "tab:red")):
        rs = [r for r in records if r.get("vs_" + opponent)]
        if not rs:
            continue
        x = [r["wall"] / 60 for r in rs]
        y = [r["vs_" + opponent]["rate"] for r in rs]
        lo = [r["vs_" + opponent]["lo"] for r in rs]
        hi = [r["vs_" + opponent]["hi"] for r in rs]
        ax.plot(x, y, marker="o", ms=3, color=color, label=f"vs {opponent}")
        ax.fill_between(x, lo, hi, color=color, alpha=0.15)
    ax.axhline(0.5, color="gray", lw=0.8, ls="--")
    ax.set_xlabel("training wall time (minutes; evaluations included)")
    ax.set_ylabel("deals won (sides swapped)")
    ax.set_ylim(0, 1)
    ax.set_title(curve_title(log) if title is None else title)
    ax.legend(loc="lower right")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(png)
    plt.close(fig)


def _hidden(text: str) -> tuple[int, ...]:
    try:
        widths = tuple(int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"hidden is widths separated by commas, got {text!r}") from None
    if not widths or min(widths) < 1:
        raise argparse.ArgumentTypeError(f"hidden is widths >= 1, got {text!r}")
    return widths


def main(argv: Sequence[str] | None = None) -> int:
    """The command: ``python -m guandan.rl.train --out DIR [--minutes M | --frames F] ...``
    (also ``guandan train``, with the same options: :func:`add_arguments`, :func:`run`)."""
    p = argparse.ArgumentParser(prog="python -m guandan.rl.train", description=DESCRIPTION)
    add_arguments(p)
    return run(p.parse_args(argv), p)


#: What the command does, in a line.
DESCRIPTION = __doc__.split("\n\n")[0]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The command's options, added to ``p``."""
    d = TrainConfig()
    p.add_argument("--out", required=True,
                   help="the run's directory (made if missing): config.json, log.jsonl, checkpoint.npz, model.onnx "
                        "and model-<frames>.onnx at each evaluation (required; no default)")  # fmt: skip
    p.add_argument("--seed", type=int, default=d.seed,
                   help=f"the run's seed: the same seed, the same run (default {d.seed})")  # fmt: skip
    p.add_argument("--tables", type=int, default=d.tables,
                   help=f"self-play tables stepped together (default {d.tables})")  # fmt: skip
    p.add_argument("--hidden", type=_hidden, default=None,
                   help=f"the hidden layers' widths, comma-separated (default "
                        f"{','.join(map(str, d.hidden))}, or --init's)")  # fmt: skip
    p.add_argument("--init", default=None, metavar="FILE",
                   help="torch: start from the network of this checkpoint.pt (a torch run's, or guandan expert "
                        "train's) or model .onnx the package wrote (a run's model.onnx, the shipped net), with "
                        "its hidden widths, structure inputs, value scale and place prior "
                        "(default: a network drawn from --seed)")  # fmt: skip
    p.add_argument("--candidates", type=int, default=0, metavar="N",
                   help="act among the search's first N candidate moves, as the net agent plays (with --init's "
                        "place prior if it has one), not among all legal actions (default 0: all; torch)")  # fmt: skip
    p.add_argument("--lr", type=float, default=d.lr, help=f"Adam's learning rate (default {d.lr:g})")
    p.add_argument("--batch", type=int, default=d.batch,
                   help=f"samples a learning step; one step per this many new samples (default {d.batch})")  # fmt: skip
    p.add_argument("--replay", type=int, default=d.replay,
                   help=f"the latest samples kept for the learner to draw from (default {d.replay})")  # fmt: skip
    p.add_argument("--epsilon-start", type=float, default=d.epsilon_start,
                   help=f"the share of actions drawn at random at the start (default {d.epsilon_start:g})")  # fmt: skip
    p.add_argument("--epsilon-end", type=float, default=d.epsilon_end,
                   help=f"the share of actions drawn at random in the end (default {d.epsilon_end:g})")  # fmt: skip
    p.add_argument("--epsilon-frames", type=int, default=d.epsilon_frames,
                   help=f"frames over which the share falls linearly from start to end "
                        f"(default {d.epsilon_frames})")  # fmt: skip
    p.add_argument("--level", type=int, default=None, help="every deal's level 2..14 (default: drawn per deal)")
    p.add_argument("--objective", choices=("levels", "wins"), default=d.objective,
                   help=f"a deal's return: the levels its side gains or loses, or +1/-1 "
                        f"(default {d.objective})")  # fmt: skip
    p.add_argument("--frames", type=int, default=None,
                   help="stop after this many frames (decisions); give it or --minutes (default: none)")  # fmt: skip
    p.add_argument("--minutes", type=float, default=None,
                   help="stop after this much wall time; give it or --frames (default: none)")  # fmt: skip
    p.add_argument("--eval-every", type=int, default=d.eval_every,
                   help=f"frames between evaluations, checkpoints and exports (0: none, only the checkpoint "
                        f"at the end; default {d.eval_every})")  # fmt: skip
    p.add_argument("--eval-deals", type=int, default=d.eval_deals,
                   help=f"seeded deals an evaluation plays against each opponent, each twice, sides swapped "
                        f"(default {d.eval_deals})")  # fmt: skip
    p.add_argument("--eval-seed", type=int, default=d.eval_seed,
                   help=f"the seed of the evaluation's deals (default {d.eval_seed})")  # fmt: skip
    p.add_argument("--plot", default=None, help="draw the learning curve into this PNG at the end (default: none)")
    p.add_argument("--backend", choices=("numpy", "torch"), default=None,
                   help="the learner: this module's numpy network, or torch (guandan.rl.torch_train, the train extra), "
                        "whose run in --out goes on from its checkpoint when the same command is run again "
                        "(default numpy; torch with --actors)")  # fmt: skip
    p.add_argument("--device", default="auto",
                   help="with --backend torch: auto (CUDA when present), cpu, cuda:0... (default auto)")  # fmt: skip
    _add_ray_options(p)


def run(a: argparse.Namespace, p: argparse.ArgumentParser) -> int:
    """Train as the parsed options ``a`` say (``p``: their parser, for usage errors); the exit status."""
    if a.frames is None and a.minutes is None:
        p.error("give --frames or --minutes")
    hidden = _init_hidden(a, p)
    _check_ray_options(a, p)
    config = TrainConfig(
        seed=a.seed, tables=a.tables, hidden=hidden, lr=a.lr, batch=a.batch, replay=a.replay,
        epsilon_start=a.epsilon_start, epsilon_end=a.epsilon_end, epsilon_frames=a.epsilon_frames,
        level=a.level, objective=a.objective, frames=a.frames, minutes=a.minutes, eval_every=a.eval_every,
        eval_deals=a.eval_deals, eval_seed=a.eval_seed, init=a.init, candidates=a.candidates,
    )  # fmt: skip
    if a.actors is not None:
        summary = _ray_run(config, a, p)
    elif a.backend == "torch":
        summary = _torch_run(config, a.out, a.device, p)
    else:
        summary = Trainer(config, a.out).run()
    if a.plot:
        plot_curve(os.path.join(a.out, "log.jsonl"), a.plot)
    print(summary_text(summary, a.out, a.plot))
    return 0


def _init_hidden(a: argparse.Namespace, p: argparse.ArgumentParser) -> tuple[int, ...]:
    """The run's hidden widths: --hidden's, or --init's network's (the two must agree), or the
    default; --init and --candidates make a torch run."""
    if not 0 <= a.candidates <= 64:
        p.error(f"--candidates is 0 (all legal actions) or 1..64, got {a.candidates}")
    if a.candidates and a.backend == "numpy":
        p.error("--candidates acts as the torch runs do: --backend torch (or --actors N)")
    if a.candidates:
        a.backend = a.backend or "torch"
    if a.init is None:
        return tuple(a.hidden) if a.hidden is not None else TrainConfig().hidden
    if a.backend == "numpy":
        p.error("--init starts a torch run: --backend torch (or --actors N)")
    a.backend = a.backend or "torch"
    if os.path.isfile(os.path.join(a.out, "checkpoint.pt")):  # going on: the checkpoint holds the network
        return tuple(a.hidden) if a.hidden is not None else TrainConfig().hidden
    try:
        from .torch_train import read_init
    except ImportError as error:
        p.error(str(error))
    try:
        hidden = read_init(a.init).hidden
    except GuandanError as error:
        p.error(str(error))
    if a.hidden is not None and tuple(a.hidden) != hidden:
        p.error(f"--hidden {','.join(map(str, a.hidden))} differs from --init's network "
                f"({','.join(map(str, hidden))})")  # fmt: skip
    return hidden


def _torch_run(config: TrainConfig, out: str, device: str, parser: argparse.ArgumentParser) -> dict[str, Any]:
    """A run on torch: a new one, or the one checkpointed in ``out`` going on (to the command's
    --frames / --minutes; its other options are the checkpoint's)."""
    try:
        from .torch_train import CHECKPOINT, TorchTrainer
    except ImportError as error:
        parser.error(str(error))
    try:
        if os.path.isfile(os.path.join(out, CHECKPOINT)):
            trainer = TorchTrainer.resume(out, device)
            trainer.config.frames, trainer.config.minutes = config.frames, config.minutes
            print(f"going on from {os.path.join(out, CHECKPOINT)} at {trainer.frames:,} frames", file=sys.stderr)
        else:
            trainer = TorchTrainer(config, out, device)
            with open(os.path.join(out, "config.json"), "w") as f:
                json.dump(asdict(trainer.config), f, indent=1)
    except GuandanError as error:
        parser.error(str(error))
    return trainer.run(progress=lambda line: print(line, file=sys.stderr, flush=True))


def _add_ray_options(p: argparse.ArgumentParser) -> None:
    """The options of a run on Ray (guandan.rl.ray_train), in one place."""
    g = p.add_argument_group("on Ray (the train extra: torch and ray)")
    g.add_argument("--actors", type=int, default=None,
                   help="train on Ray: this many actor processes step --tables tables each and send their samples to "
                        "the torch learner (default: no Ray, one process)")  # fmt: skip
    g.add_argument("--address", default=None,
                   help="with --actors: join the Ray cluster at this address ('auto', HOST:PORT or ray://HOST:PORT; "
                        "default: start Ray on this machine, one CPU an actor)")  # fmt: skip
    g.add_argument("--order", choices=("round-robin", "ready"), default=None,
                   help="with --actors: take the actors' batches in turn (the same seed and number of actors, the "
                        "same run) or as they are ready (faster with actors of unequal speed, not reproducible; "
                        "default round-robin, or the checkpoint's)")  # fmt: skip
    g.add_argument("--actor-steps", type=int, default=None,
                   help="with --actors: steps an actor makes at each of its tables a batch (default 16, or the "
                        "checkpoint's)")  # fmt: skip


def _check_ray_options(a: argparse.Namespace, p: argparse.ArgumentParser) -> None:
    if a.actors is None:
        for name in ("address", "order", "actor_steps"):
            if getattr(a, name) is not None:
                p.error(f"--{name.replace('_', '-')} goes with --actors N (a run on Ray)")
        a.backend = a.backend or "numpy"
        return
    if a.actors < 1:
        p.error(f"--actors is a number of actor processes >= 1, got {a.actors}")
    if a.actor_steps is not None and a.actor_steps < 1:
        p.error(f"--actor-steps is >= 1, got {a.actor_steps}")
    if a.backend == "numpy":
        p.error("--actors feed the torch learner: --backend torch (or no --backend)")
    a.backend = "torch"


def _ray_run(config: TrainConfig, a: argparse.Namespace, parser: argparse.ArgumentParser) -> dict[str, Any]:
    """A run on Ray: a new one, or the one checkpointed in ``--out`` going on (to the command's
    --frames / --minutes; its other options are the checkpoint's, but for --actors)."""
    try:
        from .ray_train import RayTrainer, start_ray
        from .torch_train import CHECKPOINT
    except ImportError as error:
        parser.error(str(error))
    import ray

    say: Callable[[str], None] = lambda line: print(line, file=sys.stderr, flush=True)  # noqa: E731
    try:
        started = start_ray(a.actors, a.address)
    except GuandanError as error:
        parser.error(str(error))
    try:
        if os.path.isfile(os.path.join(a.out, CHECKPOINT)):
            trainer = RayTrainer.resume(a.out, a.device, actors=a.actors, order=a.order, steps=a.actor_steps)
            trainer.config.frames, trainer.config.minutes = config.frames, config.minutes
            say(f"going on from {os.path.join(a.out, CHECKPOINT)} at {trainer.frames:,} frames")
        else:
            trainer = RayTrainer(config, a.out, a.device, actors=a.actors, order=a.order or "round-robin",
                                 steps=a.actor_steps or 16)  # fmt: skip
            with open(os.path.join(a.out, "config.json"), "w") as f:
                json.dump(asdict(trainer.config), f, indent=1)
        summary = trainer.run(progress=say)
        say(trainer.progress_line(summary["wall"]))
        trainer.stop()
        return summary
    except GuandanError as error:
        parser.error(str(error))
    finally:
        if started:
            ray.shutdown()


def summary_text(summary: dict[str, Any], out: str, plot: str | None = None) -> str:
    """What a run did and what it wrote where, as the command prints it at its end.

    >>> print(summary_text({"frames": 1500, "deals": 20, "updates": 2, "wall": 90.0}, "/no/such/dir"))
    trained 1,500 frames (20 deals, 2 learning steps) in 1.5 minutes; wrote nothing to /no/such/dir
    """
    head = (f"trained {summary['frames']:,} frames ({summary['deals']:,} deals, {summary['updates']:,} learning steps) "
            f"in {summary['wall'] / 60:.1f} minutes")  # fmt: skip
    what = {
        "config.json": "the options",
        "log.jsonl": "the evaluations, a line each",
        "checkpoint.npz": "the network's weights",
        "checkpoint.pt": "the whole run, to go on from (torch)",
        "model.onnx": "the network for onnx:model=FILE",
    }
    written = [f"  {os.path.join(out, name)}: {text}" for name, text in what.items()
               if os.path.isfile(os.path.join(out, name))]  # fmt: skip
    names = os.listdir(out) if os.path.isdir(out) else []
    exports = [f for f in names if f.startswith("model-") and f.endswith(".onnx")]
    if exports:
        where = os.path.join(out, "model-<frames>.onnx")
        written.append(f"  {where}: the network at each evaluation ({len(exports)} files)")
    if plot and os.path.isfile(plot):
        written.append(f"  {plot}: the learning curve")
    if not written:
        return f"{head}; wrote nothing to {out}"
    return head + "; wrote\n" + "\n".join(written)


if __name__ == "__main__":
    raise SystemExit(main())
