"""What a search's choices look like, agent by agent, on the same positions: how often each
spends a bomb (a bomb, a straight flush or the joker bomb) and how often it plays what the
shipped network plays. A state value that ends the rollouts early (``mc:value=FILE``) shows
its bias here first: candidates it misjudges the same way in every sampled deal.

Positions: seeded single deals (seed ``--seed + s`` for s below ``--positions``, level
``2 + s % 13``, leader ``s % 4``) after ``(7 s) % 40`` plies of ``greedy`` play, where the seat
to act has two legal actions or more.

    python benchmarks/value_choices.py mc mc:value=value.npz:value_plies=8 mc:value=value.npz:value_plies=24
"""

from __future__ import annotations

import argparse
import sys

from guandan.bots.agents import GreedyAgent
from guandan.bots.network import NetAgent
from guandan.bots.registry import make_agent
from guandan.core.moves import Move, MoveType
from guandan.game.deal import Deal
from guandan.game.observation import Observation

BOMBS = {MoveType.BOMB, MoveType.STRAIGHT_FLUSH, MoveType.JOKER_BOMB}


def positions(n: int, seed: int) -> list[Observation]:
    """The observations of the seat to act at the positions the module's description gives."""
    out: list[Observation] = []
    for s in range(n):
        deal = Deal.new(seed=seed + s, level=2 + s % 13, leader=s % 4)
        for _ in range((7 * s) % 40):
            if deal.turn is None:  # over
                break
            move = GreedyAgent().act(deal.observation(deal.turn))
            assert isinstance(move, Move)  # in play, a move
            deal.act(move)
        if deal.turn is not None:  # not over
            obs = deal.observation(deal.turn)
            if len(obs.legal_actions) >= 2:
                out.append(obs)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("agents", nargs="+", help="agent specs (mc, mc:value=FILE, ...)")
    parser.add_argument("--positions", type=int, default=40, help="deals to take a position of (default 40)")
    parser.add_argument("--seed", type=int, default=300, help="the first deal's seed (default 300)")
    args = parser.parse_args(argv)
    taken = positions(args.positions, args.seed)
    net = [NetAgent().act(obs) for obs in taken]
    print(f"{len(taken)} positions; the shipped network spends a bomb at "
          f"{sum(getattr(m, 'type', None) in BOMBS for m in net)}")  # fmt: skip
    print(f"  {'agent':50} {'bombs':>6} {'as net':>7}")
    for spec in ["net", *args.agents] if "net" not in args.agents else args.agents:
        agent = make_agent(spec, seed=1)
        chosen = [agent.act(obs) for obs in taken]
        bombs = sum(getattr(m, "type", None) in BOMBS for m in chosen)
        same = sum(m == n for m, n in zip(chosen, net))
        print(f"  {spec:50} {bombs:>6} {same:>7}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
