"""Call every native entry point millions of times and check resident memory does not grow.

Each round calls the single-position generators, the packed-word helpers, the batch
calls (counts, moves, masks, caller buffers), playouts, evaluate, perft, the deal step,
the greedy scan, a deal's packed card moves, the search's doors (sampling, weights,
candidates, rollouts, the smart policy and the search itself, on one thread and on two),
and the error paths (bad arrays, bad words, illegal moves), which must free what
they allocated too. After a warm-up (caches, allocator pools), the resident set size is
read from ``/proc/self/statm`` (no psutil), the rounds run, and it is read again::

    python tools/leak_check.py                      # about 5 million calls, a minute or two
    python tools/leak_check.py --rounds 200000 --max-growth-mb 8

Exits 1 when the growth exceeds the bound (default 4 MiB: a leak of 14 bytes per call of one
entry point), printing the numbers.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable

import numpy as np

from guandan import Cards, Deal, GuandanError
from guandan.bots.agents import GreedyAgent
from guandan.bots.determinize import information_set
from guandan.bots.playout import native_state
from guandan.core import _core
from guandan.core.search import SearchParams

PAGE = os.sysconf("SC_PAGE_SIZE")


def rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE


def build_calls() -> list[tuple[str, Callable[[], object]]]:
    hand = Cards.parse("S3 C4 D4 C5 D5 H2 SB SB D9 DT DJ DQ DK S7 C7 H7").counts
    rich = Cards.parse("S3 S3 C3 H2 H2 S4 C4 S5 C5 D5 S6 S7 S8 S9 ST SJ SQ SK SA SB HR").counts
    beat = int(_core.rank_moves(Cards.parse("S9 C9").counts, 2)[1])
    lo, hi = _core.pack_cards(hand)
    card_move = _core.card_moves(hand, 2)[5]
    word = int(_core.rank_moves(hand, 2)[3])

    rng = np.random.default_rng(7)
    n = 64
    hands = np.zeros((n, 54), dtype=np.uint8)
    for i in range(n):
        hands[i, rng.choice(108, 27, replace=False) // 2] += 1
    hands = np.minimum(hands, 2).astype(np.uint8)
    levels = rng.integers(2, 15, n).astype(np.uint8)
    leads = np.full(n, _core.PASS_MOVE, dtype=np.uint64)
    out_rank = np.empty(1 << 16, dtype=np.uint64)
    out_card = np.empty((1 << 14, 2), dtype=np.uint64)
    offsets = np.zeros(n + 1, dtype=np.int64)
    counts_out = np.zeros(n, dtype=np.int64)
    mask_out = np.zeros((n, len(_core.ACTION_SPACE)), dtype=np.bool_)

    state = (Deal.new(3, level=5)).native_state()
    small = (Deal(["S3 S4 C5", "D6 D7", "H8 S9", "CT CJ"], level=2, leader=0)).native_state()
    firsts = [int(w) for w in _core.rank_moves(_core.unpack_cards(state[0][state[2]] & (2**64 - 1),
                                                                  state[0][state[2]] >> 64), 5)[:4]]
    step = _core.card_moves(_core.unpack_cards(small[0][0] & (2**64 - 1), small[0][0] >> 64), 2)[0]
    bad_hands = hands.astype(np.int64)
    tiny = out_card[:1]

    # the search's doors, for the seat to act after a few greedy actions of a seeded deal
    deal = Deal.new(11, level=5)
    for _ in range(9):
        deal.act(GreedyAgent().act(deal.observation(deal.turn)))
    obs = deal.observation(deal.turn)
    info = information_set(obs)
    search_state = native_state((obs.hand,) * 4, int(obs.level), obs.seat, obs.to_beat, obs.history, ())[1:]
    candidates = _core.search_candidates(info, search_state, 4)
    sampled = _core.sample_deals(info, 1, 3, 8)[0]
    packed = obs.packed_hand
    legal = obs.legal_actions.array

    def raises(call: Callable[[], object]) -> Callable[[], object]:
        def run() -> None:
            try:
                call()
            except GuandanError:
                return
            raise AssertionError("expected an error")

        return run

    two_threads = SearchParams(16, 0.0, 2, "greedy", 5)
    return [
        ("rank_moves", lambda: _core.rank_moves(hand, 2, beat)),
        ("count_rank_moves", lambda: _core.count_rank_moves(rich, 7)),
        ("card_moves", lambda: _core.card_moves(hand, 2)),
        ("count_card_moves", lambda: _core.count_card_moves(rich, 7)),
        ("pack/unpack", lambda: _core.unpack_cards(*_core.pack_cards(hand))),
        ("card_to_rank", lambda: _core.card_to_rank(int(card_move[0]), int(card_move[1]), 2)),
        ("check_move/move_size", lambda: (_core.check_move(word), _core.move_size(word))),
        ("spend_cards", lambda: _core.spend_cards(hand, 2, word)),
        ("action_indices", lambda: _core.action_indices(_core.rank_moves(rich, 7))),
        ("batch_count", lambda: _core.batch_count(hands, levels, leads, "card", 0, None, counts_out)),
        ("batch_rank_moves", lambda: _core.batch_rank_moves(hands, levels, leads)),
        ("batch_card_moves", lambda: _core.batch_card_moves(hands[:8], levels[:8], leads[:8])),
        ("batch_mask", lambda: _core.batch_mask(hands, levels, leads, 0, None, mask_out)),
        ("fill_rank_moves", lambda: _core.fill_rank_moves(hands, levels, leads, 0, n, out_rank, offsets)),
        ("fill_card_moves", lambda: _core.fill_card_moves(hands, levels, leads, 0, n, out_card, offsets)),
        ("playouts", lambda: _core.playouts(state, 2, "random", 5)),
        ("choose", lambda: _core.choose(state, "greedy", 1)),
        ("evaluate", lambda: _core.evaluate([state, state], firsts, 1, "greedy", 2)),
        ("perft", lambda: _core.perft(small, 3)),
        ("deal_step", lambda: _core.deal_step(small, int(step[0]), int(step[1]))),
        ("rng_draws", lambda: _core.rng_draws(9, [0, 6, 108])),
        ("greedy_choose", lambda: _core.greedy_choose(legal, 5, packed, 27, False, False, False)),
        ("packed_card_moves", lambda: _core.packed_card_moves(packed & (2**64 - 1), packed >> 64, 5)),
        ("sample_deals", lambda: _core.sample_deals(info, 4, 3, 8)),
        ("deal_weight", lambda: _core.deal_weight(info, sampled, 0.5, 0.5)),
        ("search_candidates", lambda: _core.search_candidates(info, search_state, 8)),
        ("search", lambda: _core.search(info, search_state, candidates, SearchParams(16, 0.0, 1, "smart", 5, 8))),
        ("search, 2 threads", lambda: _core.search(info, search_state, candidates, two_threads)),
        ("rollouts", lambda: _core.rollouts(state, 2, "smart", 5)),
        ("smart_move", lambda: _core.smart_move(state)),
        ("error: bad hand", raises(lambda: _core.rank_moves(bytes([3]) * 54, 2))),
        ("error: bad dtype", raises(lambda: _core.batch_count(bad_hands, levels, leads))),
        ("error: bad word", raises(lambda: _core.card_moves(hand, 2, 12345))),
        ("error: illegal first", raises(lambda: _core.evaluate([state], [beat], 1))),
        ("error: bad position", raises(lambda: _core.batch_card_moves(hands, levels, np.full(n, 7, np.uint64)))),
        ("error: small buffer", raises(lambda: _core.fill_card_moves(hands, levels, leads, 0, n, tiny, offsets))),
        ("error: bad candidate", raises(lambda: _core.search(info, search_state, [beat, 12345], SearchParams(4)))),
        ("error: bad infoset", raises(lambda: _core.sample_deals((*info[:2], 1 << 120, *info[3:]), 2))),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=300_000, help="rounds after the warm-up (default 300000)")
    parser.add_argument("--warmup", type=int, default=20_000, help="rounds before the first reading")
    parser.add_argument("--max-growth-mb", type=float, default=4.0, help="the bound on RSS growth (MiB, default 4)")
    args = parser.parse_args()

    calls = build_calls()
    # the slow entry points (a whole batch, playouts, perft) run every 16th round
    every = {name: (16 if name.startswith(("batch", "fill", "playouts", "evaluate", "perft", "error: bad pos",
                                           "error: small", "search", "rollouts", "sample")) else 1)
             for name, _ in calls}

    def run(rounds: int) -> int:
        done = 0
        for r in range(rounds):
            for name, call in calls:
                if r % every[name] == 0:
                    call()
                    done += 1
        return done

    run(args.warmup)
    before = rss_bytes()
    started = time.perf_counter()
    done = run(args.rounds)
    seconds = time.perf_counter() - started
    after = rss_bytes()
    growth = (after - before) / 2**20
    print(f"{done:,} native calls in {seconds:.0f} s ({len(calls)} entry points and error paths, "
          f"{args.rounds:,} rounds after {args.warmup:,} warm-up rounds)")
    print(f"resident memory: {before / 2**20:.1f} MiB before, {after / 2**20:.1f} MiB after, growth {growth:+.2f} MiB "
          f"(bound {args.max_growth_mb} MiB)")
    if growth > args.max_growth_mb:
        print("FAIL: resident memory grew beyond the bound", file=sys.stderr)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
