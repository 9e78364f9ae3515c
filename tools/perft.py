#!/usr/bin/env python3
"""perft for Guandan deals: native vs reference, with a per-move breakdown on disagreement.

    python tools/perft.py run --seed 3 --cards 6 --depth 5            # one position, both implementations
    python tools/perft.py run --seed 1 --cards 27 --depth 2 --divide  # the count of every first action
    python tools/perft.py check tests/data/perft.txt                  # every value of a perft file, native
    python tools/perft.py check tests/data/perft.txt --reference      # ... and the reference too

A position is ``guandan.game.perft.position(seed, cards, level)``: the deck shuffled with the
seed, ``cards`` cards a seat. A perft file holds blocks like::

    id endgame-3
    seed 3
    cards 6
    perft 1 7
    perft 2 47

(a ``level N`` line overrides the seeded level). When the implementations disagree, the
per-move breakdown (divide) of both is printed with the differing first actions marked, as
chess engines do; recurse with ``run`` on the position after that action to go deeper.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field

from guandan.game.perft import divide, perft, position


@dataclass
class Entry:
    id: str
    seed: int
    cards: int = 27
    level: int | None = None
    perft: dict[int, int] = field(default_factory=dict)


def read_file(path: str) -> list[Entry]:
    """The entries of a perft file."""
    entries: list[Entry] = []
    for number, raw in enumerate(open(path, encoding="utf-8"), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        word, *rest = line.split()
        try:
            if word == "id":
                entries.append(Entry(rest[0], seed=-1))
            elif word == "seed":
                entries[-1].seed = int(rest[0])
            elif word == "cards":
                entries[-1].cards = int(rest[0])
            elif word == "level":
                entries[-1].level = int(rest[0])
            elif word == "perft":
                entries[-1].perft[int(rest[0])] = int(rest[1])
            else:
                raise ValueError(f"unknown word {word!r}")
        except (IndexError, ValueError) as error:
            raise SystemExit(f"{path}:{number}: {error}: {raw.rstrip()}") from None
    return entries


def breakdown(deal, depth: int) -> int:
    """Print both divides side by side, marking differences; return how many differ."""
    native, reference = divide(deal, depth, "native"), divide(deal, depth, "reference")
    differ = 0
    for move in sorted(set(native) | set(reference)):
        a, b = native.get(move), reference.get(move)
        mark = "" if a == b else "   <-- differs"
        differ += a != b
        print(f"  {move:55s} native {a!s:>12}  reference {b!s:>12}{mark}")
    return differ


def cmd_run(args: argparse.Namespace) -> int:
    deal = position(args.seed, args.cards, args.level)
    print(f"seed {args.seed}, {args.cards} cards a seat, level {deal.level.label}, seat {deal.turn} to play")
    status = 0
    for depth in range(1, args.depth + 1):
        t = time.perf_counter()
        native = perft(deal, depth)
        tn = time.perf_counter() - t
        line = f"perft {depth}: native {native} ({tn:.3f} s)"
        if not args.native_only:
            t = time.perf_counter()
            reference = perft(deal, depth, "reference")
            line += f", reference {reference} ({time.perf_counter() - t:.3f} s)"
            if reference != native:
                line += "  MISMATCH"
                status = 1
        print(line)
        if status:
            breakdown(deal, depth)
            return status
    if args.divide:
        for move, count in divide(deal, args.depth).items():
            print(f"  {move}: {count}")
    return status


def cmd_check(args: argparse.Namespace) -> int:
    failures = 0
    for entry in read_file(args.file):
        deal = position(entry.seed, entry.cards, entry.level)
        for depth, expected in sorted(entry.perft.items()):
            got = {"native": perft(deal, depth)}
            if args.reference and expected <= args.max_reference:
                got["reference"] = perft(deal, depth, "reference")
            ok = all(v == expected for v in got.values())
            shown = ", ".join(f"{k} {v}" for k, v in got.items())
            print(f"{entry.id:14s} perft {depth} = {expected:>12}: {shown} {'ok' if ok else 'FAIL'}")
            if not ok:
                failures += 1
                breakdown(deal, depth)
    print(f"{failures} failure(s)")
    return 1 if failures else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="perft of one seeded position")
    run.add_argument("--seed", type=int, required=True)
    run.add_argument("--cards", type=int, default=27, help="cards a seat (default 27)")
    run.add_argument("--level", type=int, help="level rank 2..14 (default: from the seed)")
    run.add_argument("--depth", type=int, required=True)
    run.add_argument("--native-only", action="store_true", help="skip the reference")
    run.add_argument("--divide", action="store_true", help="print the count of each first action")
    run.set_defaults(func=cmd_run)
    check = commands.add_parser("check", help="check every value of a perft file")
    check.add_argument("file")
    check.add_argument("--reference", action="store_true", help="check the reference as well")
    check.add_argument("--max-reference", type=int, default=10**6, help="skip the reference above this count")
    check.set_defaults(func=cmd_check)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
