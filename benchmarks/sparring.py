"""Strength against sparring partners: any agent spec against the built-in bots, another spec,
or the AI competition finalists' rule bots, in whole games with the sides swapped.

Two kinds of opponent:

* **an agent spec** (``greedy``, ``mc-basic``, ``mc:rollouts=40000``, ``mybots:Bot``): played
  in-process with :func:`guandan.bots.simulate.simulate` under the platform's rules — every
  match twice, the same seed with the sides exchanged (a duplicate run);
* **a field bot** (``field:bot-a``, ``field:bot-b``): the rule bots of two finalists of the
  competition, programs that speak the platform protocol (Python with ``ws4py``). They are
  not part of this repository: ``--field-bots DIR`` names the folder that holds ``bot-a/`` and
  ``bot-b/``. The script copies them to a temporary folder (their server URL pointed at a free
  port), makes a virtual environment with ``ws4py`` and ``numpy`` for them (once, in
  ``--field-venv``), and plays the games through a real ``guandan serve`` process and two
  ``guandan connect`` processes for the spec, in seat order: the spec at seats 0 and 2 for the
  first half of the games, at seats 1 and 3 for the second half, the same seeds. Each field
  bot runs with Python's ``random`` module seeded from the run's seed (the bots draw their
  random choices from it) and ``PYTHONHASHSEED=0``, so a run can be replayed move for move.

It prints the deals and the whole games won by the spec, each with its 95% Wilson interval,
the levels a deal, a digest of the games' records (for a field bot: two runs of the same seed
and spec that played the same games print the same digest), and the spec's decision time
(mean, p99, max: from the ``guandan connect`` results, or measured in-process), and appends
one JSON line per run to ``--out``. ``--keep-records DIR`` keeps the games: one record a game
(``game-001.json`` ...; ``guandan replay`` and ``guandan web`` show them) and ``games.json``,
which names each game's file, the spec's side in it and the deals it won.

    python benchmarks/sparring.py mc field:bot-a --games 4 --seed 31 --field-bots DIR
    python benchmarks/sparring.py mc:rollouts=40000 greedy --games 50 --seed 32
    python benchmarks/sparring.py mc field:bot-b --games 2 --seed 33 --field-bots DIR --keep-records kept
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from guandan import Match
from guandan.bots.loop import play_out
from guandan.bots.registry import make_agent
from guandan.bots.simulate import wilson_interval
from guandan.core.rng import derive_seed
from guandan.records.games import record, replay

FIELD = {"bot-a": ("client1.py", "client3.py"), "bot-b": ("client_v5_1.py", "client_v5_2.py")}
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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


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


def _spec_side(summary: Path) -> int | None:
    """The side the spec's ``guandan connect`` bots (named ``us{seat}``) sat on, from the server's
    summary; ``None`` when they did not sit as partners."""
    seats = json.loads(summary.read_text(encoding="utf-8"))["tables"][0]["seats"]
    ours = {s["seat"] & 1 for s in seats if str(s["name"]).startswith("us")}
    return ours.pop() if len(ours) == 1 and sum(str(s["name"]).startswith("us") for s in seats) == 2 else None


def field(
    spec: str, bot: str, games: int, seed: int, field_bots: Path, venv: Path, ruleset: str, timeout: float
) -> tuple[list[dict[str, Any]], list[int], dict[str, Any], list[float]]:
    """Whole games on a real server against a field bot: the spec at seats 0, 2, then at 1, 3.
    The records, the spec's side in each, the ``guandan connect`` processes' decision times
    (mean and p99 of each), and no in-process times."""
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "ws4py", "numpy"], check=True)
    half = max(1, games // 2)
    records: list[dict[str, Any]] = []
    sides: list[int] = []
    times: list[float] = []
    client_means: list[float | None] = []
    client_p99s: list[float | None] = []
    with tempfile.TemporaryDirectory(prefix="guandan-sparring-") as tmp:
        for swap in (0, 1):
            port = _free_port()
            bots = Path(tmp) / f"bots-{swap}"
            shutil.copytree(field_bots / bot, bots)
            for py in bots.glob("*.py"):
                text = py.read_text(encoding="utf-8", errors="replace")
                if ORIGINAL_PORT in text:
                    py.write_text(text.replace(ORIGINAL_PORT, f"127.0.0.1:{port}"), encoding="utf-8")
            rec = Path(tmp) / f"records-{swap}"
            server = subprocess.Popen(
                ["guandan", "serve", "--port", str(port), "--games", str(half), "--seed", str(derive_seed(seed, 0)),
                 "--ruleset", ruleset, "--records", str(rec), "--quiet"],
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
            )  # fmt: skip
            assert server.stdout is not None
            server.stdout.readline()  # "Ready for connect."
            procs = []
            ours = []
            files = iter(FIELD[bot])
            for seat in range(4):
                if (seat & 1) == swap:
                    out = Path(tmp) / f"connect-{swap}-{seat}.json"
                    proc = subprocess.Popen(
                        ["guandan", "connect", f"ws://127.0.0.1:{port}/game/", "--agent", spec, "--name",
                         f"us{seat}", "--seed", str(derive_seed(seed, seat)), "--json", "--quiet"],
                        stdout=out.open("w"), stderr=subprocess.DEVNULL,
                    )  # fmt: skip
                    ours.append(out)
                else:
                    # the bot's own script, its random module seeded and its hashing fixed: a
                    # run's seed fixes the field bots' choices too
                    args, env = field_bot_command(str(python), next(files), derive_seed(seed, 10 + seat))
                    proc = subprocess.Popen(
                        args, cwd=bots, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env
                    )
                procs.append(proc)
                # connection order is seat order: a guandan connect process imports the package
                # first (seconds on a loaded machine); the seating is read back from the summary
                time.sleep(3.0 if (seat & 1) == swap else 1.0)
            try:
                begun = time.monotonic()
                while server.poll() is None:  # the games written so far, as progress
                    if time.monotonic() - begun > timeout:
                        raise subprocess.TimeoutExpired(server.args, timeout)
                    done = len(list(rec.glob("table0-game*.json"))) if rec.is_dir() else 0
                    print(f"\r  {spec} vs field:{bot}: half {swap + 1} of 2, {done}/{half} games", end="",
                          file=sys.stderr, flush=True)  # fmt: skip
                    time.sleep(2.0)
                print(file=sys.stderr)
            finally:
                for proc in procs:
                    if proc.poll() is None:
                        try:
                            proc.wait(timeout=10)
                        except subprocess.TimeoutExpired:
                            proc.kill()
                server.kill()
            side = _spec_side(rec / "summary.json")
            if side is None:
                print(f"  the seating of half {swap + 1} mixed the bots (see {rec}/summary.json): its games left out",
                      file=sys.stderr)  # fmt: skip
                continue
            for path in sorted(rec.glob("table0-game*.json"), key=lambda p: int(p.stem.split("game")[1])):
                records.append(json.loads(path.read_text(encoding="utf-8")))
                sides.append(side)
            for out in ours:
                text = out.read_text(encoding="utf-8").strip()
                if text:
                    client_means.append(json.loads(text).get("agent_mean_ms"))
                    client_p99s.append(json.loads(text).get("agent_p99_ms"))
    # each guandan connect process's mean decision time, and its 99th percentile
    return records, sides, {"client_mean_ms": client_means, "client_p99_ms": client_p99s}, times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], epilog=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("spec", help="the agent measured (an agent spec)")
    parser.add_argument("opponent", help="an agent spec, or field:bot-a / field:bot-b")
    parser.add_argument("--games", type=int, default=4, help="whole games, half with each seating (default 4)")
    parser.add_argument("--seed", type=int, default=1, help="the run's seed (default 1)")
    parser.add_argument("--ruleset", default="platform", help="the rules (default platform, as the competition)")
    parser.add_argument("--field-bots", type=Path, default=Path(os.environ.get("GUANDAN_FIELD_BOTS", "field-bots")))
    parser.add_argument("--field-venv", type=Path, default=Path(tempfile.gettempdir()) / "guandan-field-venv")
    parser.add_argument("--timeout", type=float, default=3600, help="seconds a half may take (default 3600)")
    parser.add_argument("--out", help="append the result as a JSON line to this file")
    parser.add_argument("--keep-records", type=Path, metavar="DIR",
                        help="write each game's record and an index (games.json) to this folder")  # fmt: skip
    args = parser.parse_args(argv)
    begin = time.perf_counter()
    if args.opponent.startswith("field:"):
        bot = args.opponent.split(":", 1)[1]
        if bot not in FIELD:
            parser.error(f"unknown field bot {bot!r} (one of {', '.join(FIELD)})")
        if not (args.field_bots / bot).is_dir():
            parser.error(f"--field-bots: no {bot}/ in {args.field_bots}")
        records, sides, extra, times = field(args.spec, bot, args.games, args.seed, args.field_bots,
                                             args.field_venv, args.ruleset, args.timeout)  # fmt: skip
    else:
        records, sides, extra, times = in_process(args.spec, args.opponent, args.games, args.seed, args.ruleset)
    tally = {**_tally(records, sides), "records_sha256": _digest(records), **extra}
    per_game = tally.pop("per_game")
    if args.keep_records:
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
    if tally.get("client_mean_ms"):
        print(f"  guandan connect processes' decisions: mean {tally['client_mean_ms']} ms,"
              f" p99 {tally.get('client_p99_ms')} ms")  # fmt: skip
    if args.keep_records:
        print(f"  {len(records)} records kept in {args.keep_records}")
    print(f"  {result['seconds']} s")
    if args.out:
        with open(args.out, "a", encoding="utf-8") as f:
            f.write(json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
