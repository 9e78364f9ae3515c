"""The search bot's strength: a front for ``guandan arena``, and the strength-against-budget plot.

``--deals N`` is ``guandan arena A B --pairs N --seed S`` (N seeded deals, each played twice,
the sides swapped); ``--matches N`` is ``guandan arena A B --games --ruleset competitive_2022
--pairs N --seed S`` (N matches, each twice). It runs the arena and prints the deals won by A
with the arena's 95% interval (from the pairs' variance), the Elo difference and the levels a
deal; ``--out`` appends one JSON line per run, and ``--plot`` draws the strength-against-budget
plot from such a file. Progress goes to stderr.

Until this script became a front for the arena, a run without ``--swap`` played one seating
only (``guandan simulate N --agents A,B --seed S``: A at seats 0 and 2), and the plot is drawn
from those runs (``benchmarks/search_strength.jsonl``, ``"swap": false``); every run is paired
now, and ``--swap`` is kept (it changes nothing) so that the paired rows' commands still run.

    python benchmarks/search_strength.py mc:rollouts=4000 mc-basic --deals 200 --seed 9001
    python benchmarks/search_strength.py mc:rollouts=4000 greedy --matches 10 --seed 9002
    python benchmarks/search_strength.py --plot docs/search-strength.png --out benchmarks/search_strength.jsonl
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from typing import Any

from guandan.bots.arena import HeadToHead, head_to_head
from guandan.bots.simulate import wilson_interval


def wilson(wins: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (the plot's one-seating runs)."""
    return wilson_interval(wins, n)


def run(a: str, b: str, n: int, kind: str, seed: int, workers: int | None) -> dict[str, Any]:
    """``n`` pairs of deals (``kind="deal"``) or of matches: the arena's run."""
    return paired(a, b, n, kind, seed, workers, time.perf_counter())


def paired(a: str, b: str, n: int, kind: str, seed: int, workers: int | None, begin: float) -> dict[str, Any]:
    """A duplicate run: ``guandan arena A B --pairs N --seed S`` (pairs of matches under the
    default rules for ``kind="match"``); the intervals from the pairs' variance."""

    def progress(run: HeadToHead) -> None:
        print(f"\r  {a} vs {b}: {run.pairs}/{n} pairs", end="", file=sys.stderr, flush=True)

    run = head_to_head(a, b, pairs=n, kind="deals" if kind == "deal" else "games", seed=seed,
                       ruleset="competitive_2022", workers=workers, progress=progress)  # fmt: skip
    print(file=sys.stderr)
    s = run.summary()
    result = {
        "a": a, "b": b, "kind": kind, "n": n, "seed": seed, "swap": True,
        "deals": s["deals"], "deals_won": s["wins"], "win_rate": s["win_rate"], "ci95": s["win_rate_ci"],
        "interval": "pairs", "elo": s["elo"], "elo_ci": s["elo_ci"],
        "levels_per_deal": s["levels_per_deal"], "seconds": time.perf_counter() - begin,
    }  # fmt: skip
    if kind == "match":
        won = s["games_won"] + 0.5 * s["games_drawn"]
        result.update(matches=s["games"], matches_won=s["games_won"], match_rate=won / max(s["games"], 1),
                      match_ci95=s["score_ci"])  # fmt: skip
    return result


def show(r: dict[str, Any]) -> None:
    line = (
        f"{r['a']} vs {r['b']}: {r['deals_won']}/{r['deals']} deals won by {r['a']} = {r['win_rate']:.1%} "
        f"[{r['ci95'][0]:.1%}, {r['ci95'][1]:.1%}], {r['levels_per_deal']:+.2f} levels a deal"
    )
    if r.get("elo_ci"):
        low, elo, high = (f"{x:+.0f}" if x is not None else f"{sign}inf"
                          for x, sign in ((r["elo_ci"][0], "-"), (r["elo"], "+"), (r["elo_ci"][1], "+")))  # fmt: skip
        line += f" (pairs' interval), Elo {elo} [{low}, {high}]"
    if "matches" in r:
        line += (
            f"; matches {r['matches_won']}/{r['matches']} = {r['match_rate']:.1%} "
            f"[{r['match_ci95'][0]:.1%}, {r['match_ci95'][1]:.1%}]"
        )
    print(line + f" ({r['seconds']:.0f} s)", flush=True)


def plot(path: str, lines: list[dict[str, Any]]) -> None:
    """Strength against budget: the share of deals won (95% interval) against the rollout
    budget, one curve per opponent, from the single-deal runs whose A is ``mc:rollouts=N``;
    runs of the same budget and opponent (other seeds) are pooled."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pooled: dict[str, dict[int, list[int]]] = {}
    for r in lines:
        if r["kind"] != "deal" or r["swap"] or not r["a"].startswith("mc:rollouts="):
            continue
        budget = int(r["a"].split("=")[1].split(":")[0])
        tally = pooled.setdefault(r["b"], {}).setdefault(budget, [0, 0])
        tally[0] += r["deals_won"]
        tally[1] += r["deals"]
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    for opponent, by_budget in sorted(pooled.items()):
        x = sorted(by_budget)
        y = [by_budget[b][0] / by_budget[b][1] for b in x]
        intervals = [wilson(*by_budget[b]) for b in x]
        err = [[p - lo for p, (lo, _) in zip(y, intervals)], [hi - p for p, (_, hi) in zip(y, intervals)]]
        ax.errorbar(x, y, yerr=err, marker="o", capsize=3, label=f"against {opponent}")
        for b, p in zip(x, y):
            ax.annotate(f"{p:.0%}", (b, p), textcoords="offset points", xytext=(0, 8), ha="center", fontsize=8)
    ax.set_xscale("log")
    budgets = sorted({b for by_budget in pooled.values() for b in by_budget})
    ax.set_xticks(budgets, [f"{b:,}" for b in budgets])
    ax.minorticks_off()
    ax.set_ylim(0.45, 1.04)
    ax.axhline(0.7, color="grey", lw=0.8, ls="--", label="target against greedy at ≤ 100 ms (70%)")
    ax.set_xlabel("rollouts a decision (one core: 4,000 ≈ 37 ms mean, 74 ms p99; 40,000 ≈ 0.38 s, 0.77 s)")
    ax.set_ylabel("single deals won by mc (seats 0 and 2)")
    ax.set_title("mc: strength against its budget (95% intervals, 100 to 600 deals a point)")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a", nargs="?", help="side A's agent spec (seats 0 and 2)")
    parser.add_argument("b", nargs="?", help="side B's agent spec (seats 1 and 3)")
    parser.add_argument("--deals", type=int, default=0, help="pairs of single deals at level 2")
    parser.add_argument("--matches", type=int, default=0, help="pairs of whole matches (competitive_2022)")
    parser.add_argument("--seed", type=int, default=9001, help="the run seed (default 9001)")
    parser.add_argument("--swap", action="store_true", help="every run is paired now: changes nothing")
    parser.add_argument("--workers", type=int, default=None, help="processes (default: every core)")
    parser.add_argument("--out", help="append the result as a JSON line to this file")
    parser.add_argument("--plot", help="draw the strength-against-budget plot from --out's lines to this file")
    args = parser.parse_args(argv)
    if args.a and args.b:
        for kind, n in (("deal", args.deals), ("match", args.matches)):
            if n:
                arena = ["guandan", "arena", args.a, args.b, *(["--games", "--ruleset", "competitive_2022"]
                         if kind == "match" else []), "--pairs", str(n), "--seed", str(args.seed)]  # fmt: skip
                print("$ " + shlex.join(arena), flush=True)
                result = run(args.a, args.b, n, kind, args.seed, args.workers)
                show(result)
                if args.out:
                    with open(args.out, "a", encoding="utf-8") as f:
                        f.write(json.dumps(result) + "\n")
    if args.plot:
        if not args.out:
            parser.error("--plot reads the runs of --out")
        with open(args.out, encoding="utf-8") as f:
            plot(args.plot, [json.loads(line) for line in f if line.strip()])
    return 0


if __name__ == "__main__":
    sys.exit(main())
