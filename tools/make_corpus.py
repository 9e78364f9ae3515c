#!/usr/bin/env python3
"""Play seeded deals with random legal moves and save the positions met in play.

Each decision of each seat is one position: the seat's hand, the deal's level, and
the play to beat (the pass word when the seat leads). Leads and responses occur as
they do in play. The output is an ``.npz`` with ``hands`` (uint8, N x 54), ``levels``
(uint8, N), ``beats`` (uint64, N: rank-level words) and ``leads`` (bool, N).

    python tools/make_corpus.py --positions 10000 --seed 1 --out tests/data/corpus.npz
    python tools/make_corpus.py --kind opening --positions 20000 --seed 2 --out /tmp/opening.npz

``--kind play`` (the default) records every decision of whole deals, so hands run from
27 cards down to one. ``--kind opening`` records each seat's first decision of each deal
(full 27-card hands: the opening lead and the first answers to it), the positions of
PERF-NOTES and of the speed targets in ``benchmarks/README.md``.

Deals follow rules §6 (passes, finished seats skipped, jiefeng, the end when a side
is out); the level of each deal is drawn from the seed. The seats play a simple
human-like policy so that hands shrink as in real deals (a few cards a turn):

* leading: a random type among the non-bomb types the hand can lead, and its lowest
  move (fewest wilds); bombs only when nothing else is left;
* responding: pass half the time; otherwise the lowest non-bomb move that beats the
  play, or (three times in ten) the lowest bomb, or pass;
* the physical cards of the chosen rank-level move are drawn uniformly.

``--policy random`` draws uniformly among all card-level legal moves instead (deals
then end sooner and hands are smaller).
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from guandan.core import _core


def deal(rng: np.random.Generator) -> np.ndarray:
    """Four hands of 27 cards (uint8, 4 x 54)."""
    deck = rng.permutation(np.repeat(np.arange(54), 2))
    hands = np.zeros((4, 54), dtype=np.uint8)
    for seat in range(4):
        np.add.at(hands[seat], deck[27 * seat : 27 * (seat + 1)], 1)
    return hands


BOMBS = (8, 9, 10)


def _order(word: int, level: int) -> tuple[int, int, int]:
    """Weakest first: non-bombs before bombs, then key order, then fewer wilds."""
    move_type, key, wilds = word >> 60, (word >> 56) & 15, (word >> 52) & 3
    if move_type in (5, 6, 7, 9):  # sequences: window order, ace-low lowest
        order = 0 if key == 12 else key + 1
    else:
        lvl = level - 2
        order = key if key >= 13 else 12 if key == lvl else key if key < lvl else key - 1
    size = sum((word >> (4 * r)) & 15 for r in range(13)) + wilds
    return (move_type in BOMBS, size if move_type == 8 else 0, order * 4 + wilds)


def choose(rng: np.random.Generator, hand: np.ndarray, level: int, beat: int, policy: str):
    """The (lo, hi) card-level move a seat plays."""
    cards = _core.card_moves(hand, level, beat)
    if policy == "random":
        return cards[int(rng.integers(0, len(cards)))]
    words = [int(w) for w in _core.rank_moves(hand, level, beat)]
    plays = [w for w in words if w != _core.PASS_MOVE]
    if beat == _core.PASS_MOVE:
        normal = [w for w in plays if (w >> 60) not in BOMBS]
        if normal:
            types = sorted({w >> 60 for w in normal})
            kind = types[int(rng.integers(0, len(types)))]
            pick = min((w for w in normal if w >> 60 == kind), key=lambda w: _order(w, level))
        else:
            pick = min(plays, key=lambda w: _order(w, level))
    else:
        normal = [w for w in plays if (w >> 60) not in BOMBS]
        bombs = [w for w in plays if (w >> 60) in BOMBS]
        pick = _core.PASS_MOVE
        if rng.random() >= 0.5:
            if normal:
                pick = min(normal, key=lambda w: _order(w, level))
            elif bombs and rng.random() < 0.3:
                pick = min(bombs, key=lambda w: _order(w, level))
    ways = [m for m in cards if _core.card_to_rank(int(m[0]), int(m[1]), level) == pick]
    return ways[int(rng.integers(0, len(ways)))]


def play_deal(rng: np.random.Generator, record, policy: str = "human", opening: bool = False) -> None:
    """Play one deal, calling record(hand, level, beat) at each decision (with ``opening``,
    only at each seat's first decision, and stop once all four have made one)."""
    level = int(rng.integers(2, 15))
    hands = deal(rng)
    finished: list[int] = []
    seat = int(rng.integers(0, 4))
    last_seat, last_word = -1, _core.PASS_MOVE  # nothing to beat: seat leads
    passes = 0

    def holding(s: int) -> bool:
        return s not in finished

    decided: set[int] = set()
    while True:
        if not opening or seat not in decided:
            record(hands[seat].copy(), level, last_word)
        decided.add(seat)
        if opening and len(decided) == 4:
            return
        lo, hi = choose(rng, hands[seat], level, last_word, policy)
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


def make_corpus(positions: int, seed: int, policy: str = "human", kind: str = "play") -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    hands, levels, beats = [], [], []

    def record(hand, level, beat):
        hands.append(hand)
        levels.append(level)
        beats.append(beat)

    while len(hands) < positions:
        play_deal(rng, record, policy, opening=kind == "opening")
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
    parser.add_argument(
        "--kind", choices=("play", "opening"), default="play", help="whole deals or first decisions (default play)"
    )
    parser.add_argument("--policy", choices=("human", "random"), default="human", help="how seats play (default human)")
    parser.add_argument("--out", required=True, help="output .npz file")
    args = parser.parse_args(argv)
    corpus = make_corpus(args.positions, args.seed, args.policy, args.kind)
    np.savez_compressed(args.out, seed=np.int64(args.seed), policy=args.policy, kind=args.kind, **corpus)
    leads = int(corpus["leads"].sum())
    sizes = corpus["hands"].sum(axis=1)
    print(
        f"{args.out}: {args.positions} {args.kind} positions ({leads} leads, {args.positions - leads} responses), "
        f"{sizes.mean():.1f} cards a hand on average, policy {args.policy}, seed {args.seed}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
