#!/usr/bin/env python3
"""Play seeded deals with random legal moves and save the positions met in play.

Each decision of each seat is one position: the seat's hand, the deal's level, and
the play to beat (the pass word when the seat leads). Leads and responses occur as
they do in play. The output is an ``.npz`` with ``hands`` (uint8, N x 54), ``levels``
(uint8, N), ``beats`` (uint64, N: rank-level words) and ``leads`` (bool, N).

    python tools/make_corpus.py --positions 10000 --seed 1 --out tests/data/corpus.npz

Deals follow SPEC §6 (passes, finished seats skipped, jiefeng, the end when a side
is out); the level of each deal is drawn from the seed. Moves are drawn uniformly
among the card-level legal moves, so the positions are those of random play.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from guandan import _core


def deal(rng: np.random.Generator) -> np.ndarray:
    """Four hands of 27 cards (uint8, 4 x 54)."""
    deck = rng.permutation(np.repeat(np.arange(54), 2))
    hands = np.zeros((4, 54), dtype=np.uint8)
    for seat in range(4):
        np.add.at(hands[seat], deck[27 * seat : 27 * (seat + 1)], 1)
    return hands


def play_deal(rng: np.random.Generator, record) -> None:
    """Play one deal with uniformly random card-level moves, calling record(hand, level, beat)."""
    level = int(rng.integers(2, 15))
    hands = deal(rng)
    finished: list[int] = []
    seat = int(rng.integers(0, 4))
    last_seat, last_word = -1, _core.PASS_MOVE  # nothing to beat: seat leads
    passes = 0

    def holding(s: int) -> bool:
        return s not in finished

    while True:
        record(hands[seat].copy(), level, last_word)
        moves = _core.card_moves(hands[seat], level, last_word)
        lo, hi = moves[int(rng.integers(0, len(moves)))]
        word = _core.card_to_rank(int(lo), int(hi), level)
        if word == _core.PASS_MOVE:
            passes += 1
        else:
            spent = np.frombuffer(_core.unpack_cards(int(lo), int(hi)), dtype=np.uint8)
            hands[seat] -= spent
            last_seat, last_word, passes = seat, word, 0
            if not hands[seat].any():
                finished.append(seat)
                partners_out = {0, 2} <= set(finished) or {1, 3} <= set(finished)
                if partners_out or len(finished) == 3:
                    return
        # next seat still holding cards
        nxt = (seat + 1) % 4
        while not holding(nxt):
            nxt = (nxt + 1) % 4
        # the trick ends when every other seat still holding cards has passed since the last play
        others = sum(1 for s in range(4) if holding(s) and s != last_seat)
        if last_seat >= 0 and passes >= others:
            if holding(last_seat):
                nxt = last_seat
            else:  # jiefeng: the partner leads, else the next seat still holding cards
                nxt = (last_seat + 2) % 4
                while not holding(nxt):
                    nxt = (nxt + 1) % 4
            last_seat, last_word, passes = -1, _core.PASS_MOVE, 0
        seat = nxt


def make_corpus(positions: int, seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    hands, levels, beats = [], [], []

    def record(hand, level, beat):
        hands.append(hand)
        levels.append(level)
        beats.append(beat)

    while len(hands) < positions:
        play_deal(rng, record)
    n = positions
    beats_arr = np.array(beats[:n], dtype=np.uint64)
    return {
        "hands": np.array(hands[:n], dtype=np.uint8),
        "levels": np.array(levels[:n], dtype=np.uint8),
        "beats": beats_arr,
        "leads": beats_arr == np.uint64(_core.PASS_MOVE),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=10_000, help="how many positions (default 10000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and moves (default 1)")
    parser.add_argument("--out", required=True, help="output .npz file")
    args = parser.parse_args(argv)
    corpus = make_corpus(args.positions, args.seed)
    np.savez_compressed(args.out, seed=np.int64(args.seed), **corpus)
    leads = int(corpus["leads"].sum())
    print(f"{args.out}: {args.positions} positions ({leads} leads, {args.positions - leads} responses), seed {args.seed}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
