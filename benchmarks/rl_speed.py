"""Learning-side speed, one process, one core: the AEC environment from Python, the vectorized
tables (masks; 567-value rows) and the trainer's frames per second, with the game layer's own
speed measured in the same run for comparison.

    python benchmarks/rl_speed.py [--seconds S] [--tables N] [--frames F] [--only game,aec,...]

* game layer: deals of level 2 from successive seeds, µs an action: the AEC measure's own
  decisions (a uniformly drawn rank-level legal move, played canonically, no observation
  made: like for like, the ratio reported), four ``random`` agents through ``play_out`` (a
  uniformly drawn card-level legal move) and four ``greedy`` agents (``deal_speed.py``'s
  measure);
* AEC environment: ``env.last()`` then ``env.step(a)``, ``a`` a uniformly drawn legal action
  of the mask (numpy), deals of level 2 from successive seeds, µs an agent step;
* vectorized tables, masks: ``observe="mask"``, every seat the caller's, actions drawn in the
  core among each table's legal moves (``random_actions``); agent steps per second, the
  tables alone (observe + step) and with the drawing;
* vectorized tables, rows: ``observe="rows"`` (the 513 state values, the card vectors of every
  legal card-level move), uniform actions; decisions per second and rows per second;
* trainer: ``guandan.rl.train.Trainer`` (the default network, 64 tables) for a fixed number
  of frames, its frames per second and the split between the engine and the network;
* torch: the torch learner (``guandan.rl.torch_train.TorchTrainer``, the same network and
  tables, the CPU, one thread) for the same frames, its frames per second (``--only torch``;
  not in the default set unless named: it needs the ``train`` extra).
"""

from __future__ import annotations

import argparse
import tempfile
import time

import numpy as np

from guandan import Deal, make_agents
from guandan.bots.loop import play_out
from guandan.rl.vector import VecTables


def game_layer(seconds: float, policy: str = "greedy") -> float:
    agents = make_agents(policy, 0)
    actions, seed = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        deal = Deal.new(seed, 2)
        play_out(deal, agents)
        actions += deal.ply
        seed += 1
    return (time.perf_counter() - start) / actions * 1e6


def game_rank_random(seconds: float) -> float:
    """The game layer making the AEC measure's own decisions: a uniformly drawn rank-level legal
    move (numpy), played canonically (``Deal.play_canonical``), no observation made."""
    rng = np.random.default_rng(0)
    actions, seed = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        deal = Deal.new(seed, 2)
        while not deal.is_over:
            words = deal.legal_moves("rank").array
            deal.play_canonical(int(words[int(rng.integers(len(words)))]))
        actions += deal.ply
        seed += 1
    return (time.perf_counter() - start) / actions * 1e6


def aec(seconds: float) -> float:
    from guandan.rl.env import GuandanEnv

    env = GuandanEnv()
    rng = np.random.default_rng(0)
    steps, seed = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed)
        seed += 1
        while env.agents:
            obs, reward, termination, truncation, info = env.last()
            if termination:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[int(rng.integers(len(legal)))]))
            steps += 1
    return (time.perf_counter() - start) / steps * 1e6


def tables_mask(seconds: float, n: int) -> tuple[float, float]:
    tables = VecTables(n, seed=0, observe="mask")
    core = total = 0.0
    steps = k = 0
    while total < seconds:
        t0 = time.perf_counter()
        actions = tables.random_actions(k)
        t1 = time.perf_counter()
        tables.step(actions)
        t2 = time.perf_counter()
        core += t2 - t1
        total += t2 - t0
        steps += n
        k += 1
    return steps / core, steps / total


def tables_rows(seconds: float, n: int) -> tuple[float, float]:
    tables = VecTables(n, seed=0, observe="rows")
    total = 0.0
    decisions = rows = k = 0
    while total < seconds:
        assert tables.offsets is not None  # observe="rows"
        t0 = time.perf_counter()
        actions = tables.random_actions(k)
        rows += int(tables.offsets[-1])
        tables.step(actions)
        total += time.perf_counter() - t0
        decisions += n
        k += 1
    return decisions / total, rows / total


def trainer(frames: int) -> dict[str, float]:
    from guandan.rl.dmc import TrainConfig
    from guandan.rl.train import Trainer

    with tempfile.TemporaryDirectory() as out:
        t = Trainer(TrainConfig(frames=frames, eval_every=0), out)
        start = time.perf_counter()
        summary = t.run(progress=False)
        wall = time.perf_counter() - start
    s = summary["seconds"]
    return {"fps": summary["frames"] / wall, **{k: v / wall for k, v in s.items() if k != "eval"}}


MEASURES = ("game", "aec", "mask", "rows", "trainer", "torch")


def torch_trainer(frames: int) -> float:
    """The torch learner (``guandan.rl.torch_train``, the default network, 64 tables, the CPU, one
    thread): frames per second."""
    import torch

    from guandan.rl.dmc import TrainConfig
    from guandan.rl.torch_train import TorchTrainer

    torch.set_num_threads(1)
    with tempfile.TemporaryDirectory() as out:
        t = TorchTrainer(TrainConfig(frames=frames, eval_every=0), out, device="cpu")
        start = time.perf_counter()
        summary = t.run()
        return float(summary["frames"]) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per measure (default 5)")
    parser.add_argument("--tables", type=int, default=256, help="tables of the vectorized measures (default 256)")
    parser.add_argument("--frames", type=int, default=200_000, help="the trainer's frames (default 200000)")
    parser.add_argument("--only", default=",".join(MEASURES[:-1]),
                        help=f"the measures to run, comma-separated, of {','.join(MEASURES)} (default all but torch; "
                             "aec runs game too, for its ratio)")  # fmt: skip
    a = parser.parse_args()
    only = set(a.only.split(","))
    if not only <= set(MEASURES):
        parser.error(f"--only takes some of {','.join(MEASURES)}, got {a.only!r}")
    if "game" in only or "aec" in only:
        g_rank = game_rank_random(a.seconds)
        g_random = game_layer(a.seconds, "random")
        g_greedy = game_layer(a.seconds, "greedy")
        print(f"game layer (random rank-level legal moves, play_canonical): {g_rank:.2f} µs an action")
        print(f"game layer (random agents, play_out): {g_random:.2f} µs an action")
        print(f"game layer (greedy agents, play_out): {g_greedy:.2f} µs an action")
    if "aec" in only:
        e = aec(a.seconds)
        print(f"AEC environment (last + step, random legal actions): {e:.2f} µs a step = {1e6 / e:,.0f} steps/s "
              f"({e / g_rank:.2f}x the game layer making the same decisions; {e / g_random:.2f}x random agents; "
              f"{e / g_greedy:.2f}x greedy agents)")  # fmt: skip
    if "mask" in only:
        core, total = tables_mask(a.seconds, a.tables)
        print(f"vectorized tables, masks, {a.tables} tables: {core:,.0f} agent steps/s (tables alone), "
              f"{total:,.0f} with the actions drawn in the core")  # fmt: skip
    if "rows" in only:
        d, r = tables_rows(a.seconds, a.tables)
        print(f"vectorized tables, 567-value rows, {a.tables} tables: {d:,.0f} decisions/s ({r:,.0f} rows/s)")
    if "trainer" in only:
        t = trainer(a.frames)
        split = f"engine {100 * t['engine']:.0f}%, network (acting) {100 * t['network']:.0f}%"
        print(f"trainer (256-128 network, 64 tables): {t['fps']:,.0f} frames/s; of its time: {split}, "
              f"learning {100 * t['learn']:.0f}%")  # fmt: skip
    if "torch" in only:
        print(f"torch trainer (256-128 network, 64 tables, CPU, one thread): {torch_trainer(a.frames):,.0f} frames/s")


if __name__ == "__main__":
    main()
