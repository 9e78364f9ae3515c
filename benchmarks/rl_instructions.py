"""A fixed amount of learning-side work, for counting instructions with callgrind (wall time on
a shared machine varies; instruction counts do not):

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        python benchmarks/rl_instructions.py KIND STEPS

KIND: ``mask`` (64 tables, masks, actions drawn in the core), ``rows`` (64 tables, 567-value
rows), ``aec`` (the AEC environment, random legal actions), ``game-rank`` (the game layer
making the ``aec`` kind's decisions: a uniformly drawn rank-level legal move played
canonically, no observation made — like for like with ``aec``), ``game`` (greedy deals through
the game layer, ``STEPS`` actions at least). Run with ``STEPS`` 0 for the baseline (import,
set-up) and subtract: the difference over the steps is the cost of one.
"""

from __future__ import annotations

import sys

import numpy as np


def main() -> None:
    kind, steps = sys.argv[1], int(sys.argv[2])
    if kind in ("mask", "rows"):
        from guandan.rl.vector import VecTables

        tables = VecTables(64, seed=0, observe=kind)  # type: ignore[arg-type]
        for k in range(steps // 64):
            tables.step(tables.random_actions(k))
    elif kind == "aec":
        from guandan.rl.env import GuandanEnv

        env = GuandanEnv()
        env.reset(seed=0)
        rng = np.random.default_rng(0)
        done, seed = 0, 0
        while done < steps:
            obs, reward, termination, truncation, info = env.last()
            if termination:
                env.step(None)
                if not env.agents:
                    seed += 1
                    env.reset(seed=seed)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[int(rng.integers(len(legal)))]))
            done += 1
    elif kind == "game-rank":
        from guandan import Deal

        rng = np.random.default_rng(0)
        done, seed = 0, 0
        deal = Deal.new(seed, 2)
        while done < steps:
            if deal.is_over:
                seed += 1
                deal = Deal.new(seed, 2)
                continue
            words = deal.legal_moves("rank").array
            deal.play_canonical(int(words[int(rng.integers(len(words)))]))
            done += 1
    elif kind == "game":
        from guandan import Deal, make_agents
        from guandan.bots.loop import play_out

        agents = make_agents("greedy", 0)
        done, seed = 0, 0
        while done < steps:
            deal = Deal.new(seed, 2)
            play_out(deal, agents)
            done += deal.ply
            seed += 1
        print(done, "actions")
    else:
        raise SystemExit(f"unknown kind {kind!r}")


if __name__ == "__main__":
    main()
