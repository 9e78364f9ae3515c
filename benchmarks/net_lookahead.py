"""Search over the network: the shipped ``net`` looking ahead in sampled deals.

``net`` alone wins about as many deals against ``mc`` as it loses, at a seventieth of its
time; state values learned from its play have not helped ``mc`` (a value that ends the
rollouts lost, one blended into them was level). This script asks the converse: does a
search whose every move is the network's, and whose leaves are its values or the deal's
end, beat the network alone and the search bot?

:class:`LookaheadAgent` (an agent for any spec-taking command, with this folder importable)
plays each decision of the play phase so:

1. the network scores the search's candidates (:func:`~guandan.bots.network.search_candidates`)
   and keeps the ``top`` of them by its own rule (its score over its temperature, plus its
   place prior);
2. ``worlds`` deals are sampled behind the observation, weighted as ``mc`` samples them
   (:func:`~guandan.bots.determinize.determinize`), each rebuilt with the play so far
   (:func:`~guandan.bots.determinize.sampled_deal`) so that every seat's view in it
   (:func:`~guandan.bots.determinize.sampled_observation`) encodes as it would;
3. in each world each kept candidate is played, then the network plays every seat, all the
   worlds and candidates a ply at a time in one call of the network; with ``to_end`` false a
   game stops when the deciding seat is to play again, valued by the network's score (in
   levels, its ``value_scale``) of what it would play there (a game where the deciding seat
   has gone out plays on to the deal's end and is valued by the levels it gives);
   with ``to_end`` true it plays to the deal's end, valued by the levels the deal gives;
   with ``rollout`` true it stops at the same turn, and from there ``mc``'s rollout policy
   (the learned one it ships) plays every seat to the deal's end, valued by its levels:
   ``mc``'s rollouts with the network's replies to each candidate;
4. a candidate's value is its mean over the worlds, put in the network's own rule in place
   of its score (``mix`` below 1 blends the two).

Tribute and return are the network agent's. Against ``mc``, from the repository's root::

    PYTHONPATH=benchmarks guandan arena net_lookahead:LookaheadAgent:worlds=16:top=8 mc --pairs 100 --seed 102
    python benchmarks/net_lookahead.py --worlds 16 --top 8 --deals 3

The second prints the CPU time a decision (in seats 0 and 2 against ``net``) and how often
the lookahead plays something other than the network alone would.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from guandan import Deal
from guandan.bots.determinize import determinize, sampled_deal, sampled_observation
from guandan.bots.network import NetAgent, search_candidates
from guandan.bots.rollout_policy import load_weights
from guandan.core.movegen import pack_move
from guandan.core.moves import Move
from guandan.core.playouts import rollouts
from guandan.core.rng import SplitMix64
from guandan.errors import GuandanError, check_int
from guandan.game.encoding import encode_actions, encode_state
from guandan.game.history import Phase
from guandan.game.observation import Observation
from guandan.game.scoring import side_scores


class LookaheadAgent:
    """The shipped network (or ``model``) searching its own play in sampled deals (the
    module's description): ``worlds`` deals, its ``top`` candidates, to the deciding seat's
    next turn (valued by the network, or with ``rollout`` played out by ``mc``'s rollout
    policy) or (``to_end``) the deal's end, the lookahead's value blended with the
    network's own by ``mix`` (1: the lookahead's alone). Seeded: the same seed plays the same.

    >>> deal = Deal.new(seed=1)
    >>> agent = LookaheadAgent(seed=3, worlds=2, top=2)
    >>> agent.act(deal.observation(deal.turn)) in list(deal.legal_moves())
    True
    """

    name = "lookahead"

    def __init__(
        self,
        seed: int = 0,
        model: str | None = None,
        worlds: int = 16,
        top: int = 8,
        to_end: bool = False,
        rollout: bool = False,
        mix: float = 1.0,
    ) -> None:
        self.worlds = check_int("worlds", worlds, 1, 4096)
        self.top = check_int("top", top, 1, 64)
        for name, flag in (("to_end", to_end), ("rollout", rollout)):
            if not isinstance(flag, bool):
                raise GuandanError(f"{name} is true or false, got {flag!r}")
        if to_end and rollout:
            raise GuandanError("to_end and rollout are two ends of a lookahead: give one or the other")
        if isinstance(mix, bool) or not isinstance(mix, (int, float)) or not 0.0 <= mix <= 1.0:
            raise GuandanError(f"mix is a number 0..1, got {mix!r}")
        self._rng = SplitMix64(check_int("a seed", seed, 0, 2**64 - 1))
        self.to_end, self.rollout = to_end, rollout
        self.net = NetAgent(model)
        self._weights = load_weights()
        self.mix = float(mix)
        prior = self.net.place_prior
        self.temperature: float = prior[0] if prior is not None else 1.0
        self.bias: np.ndarray = prior[1] if prior is not None else np.zeros(1)
        self.scale = self.net.value_scale
        self.changed = self.decisions = 0  # decisions where the lookahead overruled the network
        self.last_values = np.zeros(0)

    def __repr__(self) -> str:
        options = f"to_end={self.to_end}, rollout={self.rollout}, mix={self.mix}"
        return f"LookaheadAgent(worlds={self.worlds}, top={self.top}, {options})"

    def _rule(self, values: np.ndarray, places: np.ndarray) -> np.ndarray:
        """The network's rule over candidates valued ``values`` (levels) at ``places``."""
        rule: np.ndarray = values / (self.scale * self.temperature) + self.bias[np.minimum(places, len(self.bias) - 1)]
        return rule

    def _score(self, observations: Sequence[Observation]) -> list[tuple[list[Move], np.ndarray]]:
        """Each observation's candidates and their values in levels, in one call of the network."""
        candidates, rows = [], []
        for obs in observations:
            moves = search_candidates(obs, self.net.candidates or 32)
            packed = np.array([pack_move(m) for m in moves], dtype=np.uint64).reshape(len(moves), 2)
            state = encode_state(obs)
            rows.append(np.concatenate([np.broadcast_to(state, (len(moves), len(state))), encode_actions(packed)], 1))
            candidates.append(moves)
        values = self.net.values(np.ascontiguousarray(np.concatenate(rows), dtype=np.float32)) * self.scale
        out, at = [], 0
        for moves in candidates:
            out.append((moves, values[at : at + len(moves)]))
            at += len(moves)
        return out

    def _view(self, world: Deal, root: Observation) -> Observation:
        assert world.turn is not None  # a game still playing
        return sampled_observation(world, world.turn, root)

    def act(self, observation: Observation) -> Any:
        """The action: in play the candidate of the best lookahead, else the network's."""
        if observation.phase != Phase.PLAY:
            return self.net.act(observation)
        ((moves, values),) = self._score([observation])
        if len(moves) == 1:
            return moves[0]
        places = np.arange(len(moves))
        own = self._rule(values, places)
        kept = np.argsort(-own, kind="stable")[: self.top]
        me, side = observation.seat, observation.seat % 2
        worlds = [sampled_deal(observation, determinize(observation, self._rng.next_u64(), weighted=True))
                  for _ in range(self.worlds)]  # fmt: skip
        games: list[list[Any]] = []  # [kept index, deal, value or None]
        for j, k in enumerate(kept):
            for world in worlds:
                played = world.copy()
                played.play(moves[k], me)
                games.append([j, played, None])
        while True:
            playing = []
            for game in games:
                if game[2] is not None:
                    continue
                deal = game[1]
                if deal.is_over:
                    order = list(deal.finish_order) + [-1] * (4 - len(deal.finish_order))
                    game[2] = float(side_scores(np.array([order]), side, observation.ruleset.promotion)[0])
                else:
                    playing.append(game)
            if not playing:
                break
            if self.rollout:  # the deciding seat to play again: mc's policy plays on, no view scored
                for game in playing:
                    if game[1].turn == me:
                        (order,) = rollouts(game[1].native_state(), 1, "learned", self._rng.next_u64(), self._weights)
                        game[2] = float(side_scores(order[None, :], side, observation.ruleset.promotion)[0])
                playing = [g for g in playing if g[2] is None]
                if not playing:
                    break
            views = [self._view(g[1], observation) for g in playing]
            for game, view, (options, worth) in zip(playing, views, self._score(views), strict=True):
                pick = int(np.argmax(self._rule(worth, np.arange(len(options)))))
                if view.seat == me and not self.to_end:
                    game[2] = float(worth[pick])
                else:
                    game[1].play(options[pick], view.seat)
        looked = np.zeros(len(kept))
        for j, _, value in games:
            looked[j] += value
        looked /= self.worlds
        self.last_values = looked  # the kept candidates' lookahead values, in the network's order
        blended = self.mix * looked + (1 - self.mix) * values[kept]
        choice = int(kept[int(np.argmax(self._rule(blended, kept)))])
        self.decisions += 1
        self.changed += choice != int(kept[0])
        return moves[choice]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    parser.add_argument("--worlds", type=int, default=16, help="sampled deals a decision (16)")
    parser.add_argument("--top", type=int, default=8, help="the network's candidates looked at (8)")
    parser.add_argument("--to-end", action="store_true", help="play to the deal's end, not the next turn")
    parser.add_argument("--rollout", action="store_true", help="mc's policy plays on from the next turn")
    parser.add_argument("--mix", type=float, default=1.0, help="the lookahead's share of the value (1)")
    parser.add_argument("--deals", type=int, default=3, help="seeded deals against net (3)")
    parser.add_argument("--seed", type=int, default=2027, help="the first deal's seed (2027)")
    args = parser.parse_args(argv)
    agent = LookaheadAgent(seed=args.seed, worlds=args.worlds, top=args.top, to_end=args.to_end,
                           rollout=args.rollout, mix=args.mix)  # fmt: skip
    other = NetAgent()
    spent = 0.0
    for n in range(args.deals):
        deal = Deal.new(seed=args.seed + n, level=2)
        while deal.turn is not None:  # not over
            obs = deal.observation(deal.turn)
            if deal.turn % 2 == 0:
                start, before = time.process_time(), agent.decisions
                move = agent.act(obs)
                if agent.decisions > before:  # a decision looked ahead (not one candidate, not tribute)
                    spent += time.process_time() - start
            else:
                move = other.act(obs)
            deal.play(move, obs.seat)
    print(f"{agent!r} against net, {args.deals} deals (seed {args.seed}): {agent.decisions} decisions looked ahead, "
          f"{1000 * spent / max(agent.decisions, 1):.1f} ms CPU each; the network's first choice overruled in "
          f"{agent.changed} ({100 * agent.changed / max(agent.decisions, 1):.0f}%)")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
