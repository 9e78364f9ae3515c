"""The Ray trainer's frames per second with 1 and 2 actors, and where an actor's time goes.

    python benchmarks/rl_actors.py [--frames F] [--actors 1,2] [--tables N]

One local Ray instance (``num_cpus`` the largest number of actors) serves every measure; each
measure is a fresh run (``guandan.rl.ray_train.RayTrainer``, the default network, ``--tables``
tables an actor, no evaluations) of ``--frames`` frames after a first batch from every actor
(the actors' start is not counted). Printed: frames/s, the samples/s the learner consumed
against its busy share, and the actors' time by part (the C tables; torch inference; the
Python bookkeeping of samples) summed over actors.
"""

from __future__ import annotations

import argparse
import tempfile
import time

import ray

from guandan.rl.dmc import TrainConfig
from guandan.rl.ray_train import RayTrainer, start_ray


def measure(actors: int, frames: int, tables: int) -> str:
    with tempfile.TemporaryDirectory() as out:
        t = RayTrainer(TrainConfig(seed=1, tables=tables, frames=1, eval_every=0), out, "cpu", actors=actors)
        t.run()  # the actors start and make a first batch each: not counted
        before = dict(t.seconds)
        f0, u0 = t.frames, t.updates
        t.config.frames = f0 + frames
        start = time.perf_counter()
        t.run()
        wall = time.perf_counter() - start
        t.stop()
    s = {k: t.seconds[k] - before[k] for k in t.seconds}
    acting = s["engine"] + s["inference"] + s["samples"]
    done = t.frames - f0
    consumed = (t.updates - u0) * t.config.batch
    return (f"{actors} actor(s), {tables} tables each: {done / wall:,.0f} frames/s ({done:,} frames in {wall:.1f} s); "
            f"learner busy {s['learn'] / wall:.0%}, {consumed / max(s['learn'], 1e-9):,.0f} samples/s when learning; "
            f"actors' time: engine {s['engine'] / acting:.0%}, inference {s['inference'] / acting:.0%}, "
            f"samples {s['samples'] / acting:.0%}")  # fmt: skip


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--frames", type=int, default=50_000)
    p.add_argument("--actors", default="1,2")
    p.add_argument("--tables", type=int, default=64)
    a = p.parse_args()
    counts = [int(x) for x in a.actors.split(",")]
    start_ray(max(counts))
    try:
        for n in counts:
            print(measure(n, a.frames, a.tables), flush=True)
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
