"""Play whole games on ``guandan serve``'s server with the AI competition organisers' example bot,
alone or mixed at one table with ``guandan connect`` clients and the finalists' rule bots.

The organisers ship an example bot with the offline platform (``client1.py`` … ``client4.py``,
``state.py``, ``action.py``; Apache-2.0; they need ``ws4py``): every competition bot was
started from it. It is not part of this repository, so this check is not in the test
suite: give the directory that holds it.

The script copies those files to a temporary directory (the clients' URL pointed at this
server's port), starts a platform server in this process, starts one client per seat in
connection order — seat ``s`` is the example's ``client{s+1}.py`` or, with ``--seats``, a
``guandan connect`` process playing an agent of this package, or a finalist's rule bot
(``field:bot-a``, ``field:bot-b``: copied from ``--field-bots DIR`` and started as
``benchmarks/sparring.py`` starts them, their random choices seeded from ``--seed``; a bot's
two scripts serve two seats) — waits for the end, and checks that every client exited
cleanly after ``gameResult`` (status 0, closed with code 1000, no traceback), that the
server saw no bad answer, and that every game's record replays.

    python tools/platform_example_clients.py /work/shared/platform-clients --games 2 --seed 1
    python tools/platform_example_clients.py /work/shared/platform-clients --seats example,greedy,example,mc
    python tools/platform_example_clients.py /work/shared/platform-clients --seats field:bot-a,example,field:bot-a,mc \
        --field-bots /work/shared/field-bots

Exit status 0 when everything holds, 1 otherwise (what failed is printed).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

from guandan.bots.registry import agent_factory
from guandan.core.rng import derive_seed
from guandan.platform import start_server
from guandan.records.games import replay

FILES = ("client1.py", "client2.py", "client3.py", "client4.py", "state.py", "action.py", "LICENSE")
ORIGINAL_URL = "ws://127.0.0.1:23456/game/"
EXAMPLE = "example"
FIELD_PREFIX = "field:"


def _sparring() -> ModuleType:
    """benchmarks/sparring.py, the one home of how the field bots are found and started."""
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "sparring.py"
    spec = importlib.util.spec_from_file_location("sparring", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("clients", type=Path, help="the directory of the organisers' example clients")
    parser.add_argument("--games", type=int, default=1, help="whole matches to play (default 1)")
    parser.add_argument("--seed", type=int, default=1, help="the server's seed (default 1)")
    parser.add_argument("--ruleset", default="platform", help="the server's ruleset (default platform)")
    parser.add_argument(
        "--seats",
        default=",".join([EXAMPLE] * 4),
        help="four comma-separated seats 0-3: 'example' (the organisers' clientN.py), field:bot-a or"
        " field:bot-b (a finalist's rule bot, from --field-bots) or an agent spec for `guandan connect`"
        " (default: example at every seat)",
    )
    parser.add_argument("--field-bots", type=Path, help="the folder holding bot-a/ and bot-b/ (for field: seats)")
    parser.add_argument("--timeout", type=float, default=600, help="seconds before giving up (default 600)")
    args = parser.parse_args(argv)
    seats = [s.strip() for s in args.seats.split(",")]
    if len(seats) != 4:
        parser.error(f"--seats names four seats, got {len(seats)}")
    sparring = _sparring() if any(spec.startswith(FIELD_PREFIX) for spec in seats) else None
    for spec in seats:
        if spec.startswith(FIELD_PREFIX):
            assert sparring is not None
            bot = spec[len(FIELD_PREFIX) :]
            if bot not in sparring.FIELD:
                parser.error(f"unknown field bot {bot!r} (one of {', '.join(sparring.FIELD)})")
            if args.field_bots is None or not (args.field_bots / bot).is_dir():
                parser.error(f"{spec}: --field-bots must name a folder holding {bot}/")
            if seats.count(spec) > len(sparring.FIELD[bot]):
                parser.error(f"{spec} has {len(sparring.FIELD[bot])} scripts: at most that many seats")
        elif spec != EXAMPLE:
            agent_factory(spec)

    work = Path(tempfile.mkdtemp(prefix="guandan-platform-clients-"))
    for name in FILES:
        source = args.clients / name
        if not source.exists():
            print(f"missing {source}", file=sys.stderr)
            return 1
        shutil.copy(source, work / name)

    failures: list[str] = []
    start = time.monotonic()
    procs = []
    with start_server(port=0, games=args.games, seed=args.seed, ruleset=args.ruleset, records=work / "records") as srv:
        for i in range(1, 5):
            path = work / f"client{i}.py"
            text = path.read_text(encoding="utf-8")
            if ORIGINAL_URL not in text:
                print(f"{path.name} does not connect to {ORIGINAL_URL}", file=sys.stderr)
                return 1
            path.write_text(text.replace(ORIGINAL_URL, srv.url), encoding="utf-8")
        port = srv.url.split("//", 1)[1].split("/", 1)[0]
        scripts: dict[str, list[str]] = {}
        for seat, spec in enumerate(seats):
            cwd = work
            env = None
            if spec == EXAMPLE:
                command = [sys.executable, f"client{seat + 1}.py"]
            elif spec.startswith(FIELD_PREFIX):
                assert sparring is not None and args.field_bots is not None
                bot = spec[len(FIELD_PREFIX) :]
                cwd = work / bot
                if bot not in scripts:  # a copy of the bot, its server address pointed here
                    shutil.copytree(args.field_bots / bot, cwd)
                    for py in cwd.glob("*.py"):
                        text = py.read_text(encoding="utf-8", errors="replace")
                        if sparring.ORIGINAL_PORT in text:
                            py.write_text(text.replace(sparring.ORIGINAL_PORT, port), encoding="utf-8")
                    scripts[bot] = list(sparring.FIELD[bot])
                command, env = sparring.field_bot_command(sys.executable, scripts[bot].pop(0),
                                                          derive_seed(args.seed, 10 + seat))  # fmt: skip
            else:
                command = [sys.executable, "-m", "guandan", "connect", srv.url, "--agent", spec, "--json"]
                command += ["--name", f"seat{seat}-{spec}", "--log", str(work / f"seat{seat}.jsonl")]
            out = open(work / f"seat{seat}.out", "w", encoding="utf-8")  # noqa: SIM115 - closed below
            procs.append((subprocess.Popen(command, cwd=cwd, stdout=out, stderr=out, env=env), out))
            while srv.server.tables[0].names.count(None) > 3 - seat:  # connection order makes the seats
                if time.monotonic() - start > args.timeout or procs[-1][0].poll() is not None:
                    failures.append(f"seat {seat} ({spec}) did not connect")
                    break
                time.sleep(0.05)
        try:
            result = srv.wait(max(1.0, args.timeout - (time.monotonic() - start)))
        except TimeoutError as error:
            failures.append(str(error))
            result = srv.stop()
    for seat, (proc, out) in enumerate(procs):
        spec = seats[seat]
        try:
            code = proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            code = None
        out.close()
        text = (work / f"seat{seat}.out").read_text(encoding="utf-8", errors="replace")
        if code != 0:
            failures.append(f"seat {seat} ({spec}) exited with {code}")
        if "Traceback" in text:
            failures.append(f"seat {seat} ({spec}) raised:\n{text[text.index('Traceback'):][:2000]}")
        if spec == EXAMPLE or spec.startswith(FIELD_PREFIX):
            if spec == EXAMPLE and "达到设定场次" not in text:  # what the example bot prints on gameResult
                failures.append(f"seat {seat} (example) did not receive gameResult")
            if "Closed down 1000" not in text:  # what the example and the field bots print on close
                failures.append(f"seat {seat} ({spec}) was not closed with code 1000")
        else:
            summary = json.loads(text[text.index("{") :]) if "{" in text else {}
            if not summary.get("complete") or summary.get("close_code") != 1000:
                failures.append(f"seat {seat} ({spec}): did not end after gameResult with code 1000: {summary}")
            elif summary.get("fallbacks") or summary.get("agent_errors") or summary.get("warnings"):
                failures.append(f"seat {seat} ({spec}): fallbacks, agent errors or warnings: {summary}")
            else:
                print(
                    f"seat {seat} guandan connect --agent {spec}: {summary['answers']} answers,"
                    f" agent mean {summary['agent_mean_ms']} ms, no fallback, no warning"
                )
    table = result.tables[0]
    if not result.complete:
        failures.append(f"the table did not finish: {table.abort_reason}")
    if any(s.ignored for s in table.seats):
        failures.append(f"the server ignored answers: {[s.ignored for s in table.seats]}")
    for record, match in zip(result.records, srv.server.tables[0].matches):
        if replay(record) != match:
            failures.append("a record does not replay to its game")
    print(result.format())
    print(f"clients' output and records in {work}; {time.monotonic() - start:.1f} s")
    if failures:
        print("FAILED:\n" + "\n".join(failures), file=sys.stderr)
        return 1
    print(
        f"OK: {', '.join(seats)} played {result.games_played} whole game(s), {result.deals} deals"
        " to gameResult; every record replays"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
