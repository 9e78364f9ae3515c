"""Strength against sparring partners: a front for ``guandan arena`` in whole games, with the
AI competition finalists' rule bots at hand, and the games kept for ``kept_records.py``.

Two kinds of opponent:

* **an agent spec** (``greedy``, ``mc-basic``, ``mc:rollouts=40000``, ``mybots:Bot``): ``--games
  2N`` is ``guandan arena SPEC OPPONENT --games --pairs N --seed S`` (every game twice from
  one seed, the sides swapped), which it runs and prints;
* **a field bot** (``field:bot-a``, ``field:bot-b``): the rule bots of two finalists of the
  competition, programs that speak the platform protocol (Python with ``ws4py``). They are
  not part of this repository: ``--field-bots DIR`` names the folder that holds ``bot-a/`` and
  ``bot-b/``. The opponent is then the arena's ``cmd:`` bot that ``benchmarks/field_bot.py``
  starts (a copy of the bot pointed at the arena's server, its random choices seeded, one of
  its two scripts a seat), under a Python with ``ws4py`` and ``numpy`` (``--field-python``, or
  a virtual environment made once in ``--field-venv``); every pair is played at a platform
  server, the spec over the protocol from the arena's process. The ``guandan arena`` command
  is printed: it replays the run.

``--keep-records DIR`` (agent specs only) plays the same games in this process and keeps them:
one record a game (``game-001.json`` ...; ``guandan replay`` and ``guandan web`` show them) and
``games.json``, which names each game's file, the spec's side in it and the deals it won, with
a digest of the records (a seeded run replays: the same digest).

    python benchmarks/sparring.py mc field:bot-a --games 4 --seed 31 --field-bots DIR
    python benchmarks/sparring.py mc:rollouts=40000 greedy --games 50 --seed 32
    python benchmarks/sparring.py mc greedy --games 2 --seed 33 --keep-records kept
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from guandan import Match
from guandan.bots.arena import head_to_head
from guandan.bots.loop import play_out
from guandan.bots.registry import make_agent
from guandan.bots.simulate import wilson_interval
from guandan.core.rng import derive_seed
from guandan.platform.seated import is_command, play_pairs_served
from guandan.records.games import record, replay

FIELD = {"bot-a": ("client1.py", "client3.py"), "bot-b": ("client_v5_1.py", "client_v5_2.py")}
#: Where the field bots connect, written in their files (tools/platform_example_clients.py points it elsewhere).
ORIGINAL_PORT = "127.0.0.1:23456"
#: How a field bot is started: its script run as ``__main__`` (from its folder, which is on the
#: import path) after seeding Python's ``random`` module, which is where the bots draw their
#: random choices; with PYTHONHASHSEED fixed, the same messages give the same plays.
SEEDED_LAUNCH = (
    "import random, runpy, sys; script, seed = sys.argv[1], int(sys.argv[2]); sys.argv = [script]; "
    "random.seed(seed); runpy.run_path(script, run_name='__main__')"
)


def field_bot_command(python: str, script: str, seed: int) -> tuple[list[str], dict[str, str]]:
    """The command and environment that start a field bot's ``script`` (run from its folder)
    with its random choices seeded by ``seed``."""
    return [python, "-c", SEEDED_LAUNCH, script, str(seed)], {**os.environ, "PYTHONHASHSEED": "0"}


class _Timed:
    """An agent wrapped to time its decisions (in-process runs)."""

    def __init__(self, agent: Any, times: list[float]) -> None:
        self.agent = agent
        self.times = times
        self.name = getattr(agent, "name", type(agent).__name__)

    def act(self, observation: Any) -> Any:
        start = time.perf_counter()
        action = self.agent.act(observation)
        if len(observation.legal_actions) > 1:
            self.times.append(time.perf_counter() - start)
        return action


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(q / 100 * len(ordered) + 0.5)) - 1))] if ordered else 0.0


def _digest(records: list[dict[str, Any]]) -> str:
    """A digest of the games' records (every deal's hands and actions): two runs of the same
    seed that played the same moves have the same digest."""
    return hashlib.sha256(json.dumps(records, sort_keys=True).encode()).hexdigest()[:16]


def _tally(records: list[dict[str, Any]], spec_side: list[int]) -> dict[str, Any]:
    """Deals and games won by the spec over replayed match records (its side per record), and
    per game: its deals, the deals the spec won, whether the game ended and the spec won it."""
    per_game = []
    levels = 0.0
    for data, side in zip(records, spec_side):
        match = replay(data)
        assert isinstance(match, Match), "a sparring record is a whole game's"
        won = 0
        for summary in match.results:
            gain = match.ruleset.gain(summary.result.partner_place)
            won += summary.result.winning_side == side
            levels += gain if summary.result.winning_side == side else -gain
        per_game.append({"spec_side": side, "deals": len(match.results), "deals_won": won,
                         "over": match.is_over, "won": match.is_over and match.winner == side})  # fmt: skip
    return {"deals": sum(g["deals"] for g in per_game), "deals_won": sum(g["deals_won"] for g in per_game),
            "games": sum(g["over"] for g in per_game), "games_won": sum(g["won"] for g in per_game),
            "levels": levels, "per_game": per_game}  # fmt: skip


def keep_records(
    folder: Path, records: list[dict[str, Any]], per_game: list[dict[str, Any]], about: dict[str, Any]
) -> None:
    """Write each game's record to ``folder/game-NNN.json`` and ``folder/games.json``: the run
    (``about``) and, per game, its file, the spec's side, its deals and the deals the spec won."""
    folder.mkdir(parents=True, exist_ok=True)
    games = []
    for n, (data, game) in enumerate(zip(records, per_game), start=1):
        name = f"game-{n:03d}.json"
        (folder / name).write_text(json.dumps(data), encoding="utf-8")
        games.append({"file": name, **game})
    index = {**about, "records_sha256": _digest(records), "games": games}
    (folder / "games.json").write_text(json.dumps(index, indent=1) + "\n", encoding="utf-8")


def in_process(
    spec: str, opponent: str, games: int, seed: int, ruleset: str
) -> tuple[list[dict[str, Any]], list[int], dict[str, Any], list[float]]:
    """Whole games in-process, every seed twice with the sides exchanged (game g's match seeded
    ``derive_seed(seed, g)``, seat k's agent ``derive_seed(that, k)``): the records, the spec's
    side in each, nothing more to report, the spec's decision times."""
    times: list[float] = []
    half = max(1, games // 2)
    records: list[dict[str, Any]] = []
    sides: list[int] = []
    for swap in (0, 1):
        for g in range(half):
            match_seed = derive_seed(seed, g)
            agents = [
                _Timed(make_agent(spec, derive_seed(match_seed, k)), times) if (k & 1) == swap
                else make_agent(opponent, derive_seed(match_seed, k))
                for k in range(4)
            ]  # fmt: skip
            match = Match(match_seed, ruleset)
            play_out(match, agents)
            records.append(record(match))
            sides.append(swap)
            print(f"\r  {spec} vs {opponent}: {len(records)}/{2 * half} games", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return records, sides, {}, times


def field_spec(python: str, folder: Path, bot: str) -> str:
    """The arena's ``cmd:`` bot for a field bot: ``benchmarks/field_bot.py`` under ``python``,
    the bot's folder and its two scripts (one a seat of a side), the arena's URL, seat and seed."""
    launcher = Path(__file__).resolve().parent / "field_bot.py"
    words = shlex.join([python, str(launcher), str(folder / bot), ",".join(FIELD[bot])])
    return f"cmd:{words} --url {{url}} --seat {{seat}} --seed {{seed}}"


def field_python(venv: Path) -> str:
    """A Python with ``ws4py`` and ``numpy`` for the field bots: ``venv``'s, made once."""
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "ws4py", "numpy"], check=True)
    return str(python)


def kept(args: argparse.Namespace) -> int:
    """The games played in this process and kept (``--keep-records``), with their tallies."""
    begin = time.perf_counter()
    records, sides, extra, times = in_process(args.spec, args.opponent, args.games, args.seed, args.ruleset)
    tally = {**_tally(records, sides), "records_sha256": _digest(records), **extra}
    per_game = tally.pop("per_game")
    about = {"spec": args.spec, "opponent": args.opponent, "seed": args.seed, "ruleset": args.ruleset}
    keep_records(args.keep_records, records, per_game, about)
    lo, hi = wilson_interval(tally["deals_won"], tally["deals"])
    glo, ghi = wilson_interval(tally["games_won"], tally["games"])
    result = {
        "spec": args.spec, "opponent": args.opponent, "seed": args.seed, "ruleset": args.ruleset, **tally,
        "deals_ci95": [round(lo, 4), round(hi, 4)], "games_ci95": [round(glo, 4), round(ghi, 4)],
        "decisions": len(times), "mean_ms": round(1000 * sum(times) / len(times), 2) if times else None,
        "p99_ms": round(1000 * _percentile(times, 99), 2) if times else None,
        "max_ms": round(1000 * max(times), 2) if times else None, "seconds": round(time.perf_counter() - begin, 1),
    }  # fmt: skip
    share = tally["deals_won"] / tally["deals"] if tally["deals"] else 0.0
    print(f"{args.spec} against {args.opponent} ({args.ruleset}, seed {args.seed}, sides swapped):")
    print(f"  deals won {tally['deals_won']}/{tally['deals']} = {share:.1%} [{lo:.1%}, {hi:.1%}],"
          f" levels a deal {tally['levels'] / max(1, tally['deals']):+.2f}")  # fmt: skip
    print(f"  whole games won {tally['games_won']}/{tally['games']} [{glo:.1%}, {ghi:.1%}]")
    print(f"  the games' records: sha256 {tally['records_sha256']}")
    if times:
        print(f"  decisions {len(times)}: mean {result['mean_ms']} ms, p99 {result['p99_ms']} ms,"
              f" max {result['max_ms']} ms")  # fmt: skip
    print(f"  {len(records)} records kept in {args.keep_records}")
    print(f"  {result['seconds']} s")
    if args.out:
        with open(args.out, "a", encoding="utf-8") as f:
            f.write(json.dumps(result) + "\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], epilog=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("spec", help="the agent measured (an agent spec)")
    parser.add_argument("opponent", help="an agent spec, or field:bot-a / field:bot-b")
    parser.add_argument("--games", type=int, default=4, help="whole games, half with each seating (default 4)")
    parser.add_argument("--seed", type=int, default=1, help="the run's seed (default 1)")
    parser.add_argument("--ruleset", default="platform", help="the rules (default platform, as the competition)")
    parser.add_argument("--workers", type=int, default=1, help="the arena's processes (default 1)")
    parser.add_argument("--field-bots", type=Path, default=Path(os.environ.get("GUANDAN_FIELD_BOTS", "field-bots")))
    parser.add_argument("--field-python", help="a Python with ws4py and numpy for the field bots")
    parser.add_argument("--field-venv", type=Path, default=Path(tempfile.gettempdir()) / "guandan-field-venv",
                        help="where to make one when --field-python is not given")  # fmt: skip
    parser.add_argument("--out", help="append the result as a JSON line to this file")
    parser.add_argument("--keep-records", type=Path, metavar="DIR",
                        help="play in this process and keep each game's record and an index (games.json)")  # fmt: skip
    args = parser.parse_args(argv)
    opponent = args.opponent
    if opponent.startswith("field:"):
        bot = opponent.split(":", 1)[1]
        if bot not in FIELD:
            parser.error(f"unknown field bot {bot!r} (one of {', '.join(FIELD)})")
        if not (args.field_bots / bot).is_dir():
            parser.error(f"--field-bots: no {bot}/ in {args.field_bots}")
        if args.keep_records:
            parser.error("--keep-records keeps games played in this process: an agent spec's, not a field bot's")
        opponent = field_spec(args.field_python or field_python(args.field_venv), args.field_bots.resolve(), bot)
    elif args.keep_records:
        return kept(args)
    pairs = max(1, args.games // 2)
    command = ["guandan", "arena", args.spec, opponent, "--games", "--pairs", str(pairs), "--seed", str(args.seed),
               "--ruleset", args.ruleset, "--workers", str(args.workers)]  # fmt: skip
    print("$ " + shlex.join(command), flush=True)
    begin = time.perf_counter()
    player = play_pairs_served if is_command(opponent) else None

    def progress(run: Any) -> None:
        print(f"\r  {run.pairs}/{pairs} pairs", end="", file=sys.stderr, flush=True)

    run = head_to_head(args.spec, opponent, pairs=pairs, kind="games", seed=args.seed, ruleset=args.ruleset,
                       workers=args.workers, player=player, progress=progress)  # fmt: skip
    print(file=sys.stderr)
    print(run.format())
    seconds = round(time.perf_counter() - begin, 1)
    print(f"  {seconds} s")
    if args.out:
        with open(args.out, "a", encoding="utf-8") as f:
            f.write(json.dumps({"spec": args.spec, "opponent": args.opponent, "command": shlex.join(command),
                                **run.summary(), "seconds": seconds}) + "\n")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
